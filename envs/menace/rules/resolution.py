"""2. Resolution Phase (rulebook "Resolution Phase"): EmMA tops up the face-down cards, they are
shuffled and revealed one at a time, and each Below Deck card resolves.
"""

import numpy as np

from ...core.jit import kernel
from ...core.rng import below
from .. import cards as c
from ..tables import CARD_ENERGY, CARD_OXYGEN, CARD_REPLICABLE
from .board import (
    CALLING,
    NOBODY,
    RESOLUTION,
    VETO_CHOICE,
    decide,
    has_wound,
    over_hand_limit,
    seat_after,
)
from .fates import wound
from .hands import add_emma_card, discard_random_card, draw_card
from .tracks import change_oxygen, gain_energy, lose_energy


@kernel
def start_resolution(s):
    """EmMA tops up the played cards to half the starting table; then all are shuffled."""
    s["stage"] = RESOLUTION
    needed = (s["num_players"] + 1) // 2
    while s["pool_n"] < needed and s["emma_n"] + s["emma_discard_n"] > 0:
        add_emma_card(s)
    n = s["pool_n"]
    for i in range(n - 1, 0, -1):
        j = below(s, i + 1)
        card, seat = s["pool"][i], s["pool_seat"][i]
        s["pool"][i], s["pool_seat"][i] = s["pool"][j], s["pool_seat"][j]
        s["pool"][j], s["pool_seat"][j] = card, seat
    s["energy_at_resolution"] = s["energy"]
    s["reveal_pos"] = 0
    s["veto_asked"] = False


@kernel
def next_reveal(s):
    """Reveal and resolve cards until a decision is due or the pool is empty."""
    while s["reveal_pos"] < s["pool_n"]:
        card = s["pool"][s["reveal_pos"]]
        if s["veto_armed"] and s["alive"][s["veto_user"]] and not s["veto_asked"]:
            if s["reveal_pos"] == s["pool_n"] - 1:
                veto(s)
                continue
            decide(s, VETO_CHOICE, s["veto_user"])
            return True
        s["veto_asked"] = False
        reveal(s, card)
        if s["terminated"] or s["brawl_pending"]:
            return False
        if over_hand_limit(s) != NOBODY:
            return False
    finish_resolution(s)
    return False


@kernel
def veto(s):
    """The revealed card has neither cost nor effect; a Replicate waiting on it copies nothing."""
    s["revealed_cards"][s["pool"][s["reveal_pos"]]] += 1
    s["reveal_pos"] += 1
    s["veto_armed"] = False
    s["veto_asked"] = False
    s["replicate_waiting"] = False


@kernel
def reveal(s, card):
    """Replicate waits for the next card; a waiting Replicate copies it if it can be copied."""
    s["reveal_pos"] += 1
    s["revealed_cards"][card] += 1
    if card == c.REPLICATE:
        s["replicate_waiting"] = True
        return
    copies = 1
    if s["replicate_waiting"]:
        s["replicate_waiting"] = False
        if CARD_REPLICABLE[card]:
            copies = 2
    for _ in range(copies):
        resolve_card(s, card)
        if s["terminated"]:
            return


@kernel
def resolve_card(s, card):
    if card == c.COMMAND:
        resolve_command(s)
    elif card == c.PANIC:
        resolve_panic(s)
    elif card == c.BACKSTAB:
        resolve_backstab(s)
    elif card == c.BRAWL:
        resolve_brawl(s)
    elif card == c.REACTOR_LEAK:
        resolve_reactor_leak(s)
    else:
        resolve_track_card(s, card)


@kernel
def resolve_track_card(s, card):
    """Raise Morale, the Repairs, Airlock Breach, Explosion: Oxygen first, then Energy."""
    if CARD_OXYGEN[card] != 0:
        change_oxygen(s, CARD_OXYGEN[card])
        if s["terminated"]:
            return
    if CARD_ENERGY[card] > 0:
        gain_energy(s, CARD_ENERGY[card])
    elif CARD_ENERGY[card] < 0:
        lose_energy(s, -CARD_ENERGY[card])


@kernel
def resolve_command(s):
    change_oxygen(s, CARD_OXYGEN[c.COMMAND])
    if s["terminated"]:
        return
    for k in range(s["num_players"]):
        seat = seat_after(s, s["mission_leader"], k)
        if s["alive"][seat]:
            draw_card(s, seat)


@kernel
def resolve_panic(s):
    change_oxygen(s, CARD_OXYGEN[c.PANIC])
    if s["terminated"]:
        return
    for seat in range(s["num_players"]):
        if s["alive"][seat]:
            discard_random_card(s, seat)
            if has_wound(s, seat, c.PANIC_ATTACK):
                discard_random_card(s, seat)


@kernel
def resolve_backstab(s):
    if not s["backstab_spent"]:
        s["backstab_spent"] = True
        wound(s, np.int64(s["mission_leader"]))


@kernel
def resolve_brawl(s):
    if not s["brawl_spent"]:
        s["brawl_spent"] = True
        s["brawl_pending"] = True


@kernel
def resolve_reactor_leak(s):
    for seat in range(s["num_players"]):
        if s["alive"][seat] and s["wound_n"][seat] == 0 and s["played_n"][seat] > 0:
            wound(s, seat)


@kernel
def finish_resolution(s):
    """Played cards go face down to the discards; EmMA's to her own discard pile."""
    for i in range(s["pool_n"]):
        if s["pool_seat"][i] == NOBODY:
            s["emma_discard"][s["emma_discard_n"]] = s["pool"][i]
            s["emma_discard_n"] += 1
    s["pool_n"] = 0
    s["stage"] = CALLING
    s["call_pos"] = 0
