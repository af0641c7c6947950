"""Cards in hand, in the personal decks and in the EmMA deck; playing a card face down.
"""

from ...core.jit import kernel
from ...core.rng import below, shuffle
from .. import cards as c
from .board import NOBODY, T


@kernel
def draw_card(s, seat):
    """The top card of the seat's deck into its hand; nothing from an empty deck."""
    n_left = s["deck_n"][seat]
    if n_left == 0:
        return
    card = s["deck"][seat, n_left - 1]
    s["deck_n"][seat] = n_left - 1
    s["hand"][seat, card] += 1
    s["hand_n"][seat] += 1


@kernel
def discard_card(s, seat, card):
    s["hand"][seat, card] -= 1
    s["hand_n"][seat] -= 1


@kernel
def random_card(s, seat):
    """A uniformly random card of the seat's hand (it must hold one)."""
    k = below(s, s["hand_n"][seat])
    for card in range(T):
        if k < s["hand"][seat, card]:
            return card
        k -= s["hand"][seat, card]
    return -1


@kernel
def discard_random_card(s, seat):
    if s["hand_n"][seat] > 0:
        discard_card(s, seat, random_card(s, seat))


@kernel
def discard_hand(s, seat):
    s["hand"][seat, :] = 0
    s["hand_n"][seat] = 0


@kernel
def emma_top(s):
    """The top of the EmMA deck, refilled from its discards when empty; -1 if there is none."""
    if s["emma_n"] == 0:
        m = s["emma_discard_n"]
        s["emma"][:m] = s["emma_discard"][:m]
        s["emma_n"] = m
        s["emma_discard_n"] = 0
        shuffle(s, s["emma"], m)
    if s["emma_n"] == 0:
        return -1
    return s["emma"][s["emma_n"] - 1]


@kernel
def add_to_pool(s, card, seat):
    k = s["pool_n"]
    s["pool"][k] = card
    s["pool_seat"][k] = seat
    s["pool_n"] = k + 1


@kernel
def add_emma_card(s):
    card = emma_top(s)
    if card >= 0:
        s["emma_n"] -= 1
        add_to_pool(s, card, NOBODY)


@kernel
def play_card(s, seat, card):
    """Face down in front of the seat: that it played is public, the card is not."""
    discard_card(s, seat, card)
    add_to_pool(s, card, seat)
    s["played"][seat, card] += 1
    s["played_n"][seat] += 1
    if card == c.BASIC_REPAIR or card == c.ADVANCED_REPAIR:
        s["repairs_played"][seat] += 1
