"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from .actions import CLEAR, GIVE, GUESS, KILL, NO_SABOTAGE, NO_TRADE, OFFER, PASS, SABOTAGE, SHOW
from .actions import VOTE, O
from ..core.words import card_lookup
from .cards import COLOUR_NAMES, HAND_SIZE, TASKS_PER_COLOUR
from .rules import AFTER_VOTE, PHASE_NAMES, REPLY, SABOTAGE_GUESS, SABOTAGE_WINDOW, sabotage_target

# The rule's own function, run by Python on one record (compiled, it takes a batch's record).
_sabotage_target = getattr(sabotage_target, "py_func", sabotage_target)


def _hand_text(hand: np.ndarray, n: int) -> str:
    return " ".join(f"{COLOUR_NAMES[c]}x{hand[c]}" for c in range(n) if hand[c] > 0)


def render(s: np.void, seat: int | None = None) -> str:
    n = int(s["num_players"])
    lines = [
        f"round {int(s['round'])}/{int(s['max_rounds'])}  phase: {PHASE_NAMES[int(s['phase'])]}  "
        f"turn: player_{int(s['turn_owner'])}  deciding: player_{int(s['current_seat'])}  "
        f"impostor colour: {COLOUR_NAMES[int(s['impostor_colour'])]}"
    ]
    if s["phase"] == REPLY:
        lines.append(f"  trade offered by player_{int(s['turn_owner'])} to player_{int(s['partner'])}")
    if s["phase"] == SABOTAGE_WINDOW:
        owner = int(s["turn_owner"])
        after = (
            f"player_{owner}'s wrong vote on player_{int(s['vote_target'])}"
            if s["window"] == AFTER_VOTE
            else f"player_{owner}'s clear"
        )
        if s["look_target"] >= 0 and (seat is None or seat == owner):
            after += f" (to look at player_{int(s['look_target'])})"
        lines.append(f"  sabotage window after {after}")
    if s["phase"] == SABOTAGE_GUESS:
        lines.append(f"  sabotage: {int(s['sabotage_index'])} guessed right so far")
    for j in range(n):
        known = seat is None or j == seat or s["revealed"][j] or s["looked"][seat, j]
        colour = COLOUR_NAMES[int(s["colour"][j])] if known else "?"
        tags = [
            t
            for t, on in (
                ("IMPOSTOR", seat is None and j == s["impostor"]),
                ("voted", s["voted"][j]),
                ("cleared", s["cleared"][j]),
                ("revealed", s["revealed"][j]),
                ("not impostor", s["not_impostor"][j]),
            )
            if on
        ]
        shown = int(s["shown_now"][j])
        hand = _hand_text(s["hand"][j], n) if seat is None or j == seat or s["cleared"][j] else ""
        lines.append(
            f"  player_{j}: {colour:<7} shown {COLOUR_NAMES[shown] if shown >= 0 else '-':<7} "
            f"{hand:<40} {' '.join(tags)}"
        )
    if s["terminated"]:
        lines.append(f"  over: {'crew' if s['winner'] == 0 else 'impostor'} wins")
    elif s["truncated"]:
        lines.append("  over: truncated, a draw")
    return "\n".join(lines)


def public_action(s: np.void, seat: int, action: int, viewer: int) -> str:
    """What ``viewer``, sitting at the table, sees of ``seat`` taking ``action`` on the table
    ``s`` (as it stood before): shows, ballots, reveals and guesses aloud are public; a traded
    card only to the two traders once both are down (an offer lies face down even to its
    partner until the reply), and the seat a clearer will look at to no one but the clearer."""
    n = int(s["num_players"])

    def name(j) -> str:
        return f"player_{int(j)}"

    def colour(j) -> str:  # of a card turned face up by this very action
        return COLOUR_NAMES[int(s["colour"][j])]

    if action < OFFER:
        return f"shows {COLOUR_NAMES[action - SHOW]}"
    if action < NO_TRADE:
        k = action - OFFER
        card = COLOUR_NAMES[k // O] if viewer == seat else "a card face down"
        return f"offers {card} to {name((seat + 1 + k % O) % n)}"
    if action == NO_TRADE:
        return "does not trade"
    if action < VOTE:
        owner, offered = int(s["turn_owner"]), int(s["offered_colour"])
        if viewer in (seat, owner):
            return (
                f"gives {COLOUR_NAMES[action - GIVE]} to {name(owner)} for "
                f"{COLOUR_NAMES[offered]}"
            )
        return f"gives a card face down to {name(owner)} in return"
    if action < CLEAR:
        target = (seat + 1 + action - VOTE) % n
        return (
            f"votes for {name(target)}: {name(seat)} is {colour(seat)}, {name(target)} is "
            f"{colour(target)}"
        )
    if action < KILL:
        look = f", to look at {name((seat + 1 + action - CLEAR) % n)}" if viewer == seat else ""
        return f"clears: hand and character card face up, {colour(seat)}{look}"
    if action == KILL:
        return f"kills: {name(seat)} is the impostor, {colour(seat)}"
    if action == PASS:
        return "ends the turn"
    if action == SABOTAGE:
        return f"sabotages: {name(seat)} is the impostor, {colour(seat)}"
    if action == NO_SABOTAGE:
        return "does not sabotage"
    return f"guesses {name(_sabotage_target(s))} is {COLOUR_NAMES[action - GUESS]}"


RULES_REMINDER = """Among Us, the card game: one impostor hides among the crew.
- Every seat holds a face-down character card (its colour) and 5 task cards. The impostor's
  colour is public from the start; which seat holds it is secret.
- Each round every player shows one task card, then on their turn may trade one card face down
  with another player, and ends the turn: vote (crew, once a game: both characters turn face
  up; the impostor named wins for the crew), clear (crew, holding 5 cards of their own colour:
  hand and character face up, then look at another player's character), kill (the impostor,
  holding 5 cards of the impostor's colour: the impostor wins) or just end the turn.
- The impostor may sabotage on any of its decisions and right after a wrong vote or a clear:
  it reveals itself and guesses every other player's colour in turn, aloud; all right and
  the impostor wins, one wrong and the crew wins.
`card NAME` gives a card's text: a colour, `character card` or `task card`."""


def _seat_words(seat: int, target: int) -> str:
    return f"player_{target}" + (" (you)" if target == seat else "")


def action_words(s: np.void, seat: int, action: int) -> str:
    """``action``, legal for ``seat`` on the table ``s``, in a player's words: absolute seats
    (``player_3``, as the table shows them) instead of the action table's relative ``+k``."""
    n = int(s["num_players"])
    if action < OFFER:
        return f"show {COLOUR_NAMES[action - SHOW]}"
    if action < NO_TRADE:
        k = action - OFFER
        return f"offer {COLOUR_NAMES[k // O]} to {_seat_words(seat, (seat + 1 + k % O) % n)}"
    if action == NO_TRADE:
        return "do not trade"
    if action < VOTE:
        return (f"give {COLOUR_NAMES[action - GIVE]} to player_{int(s['turn_owner'])} "
                "for the card they offered")
    if action < CLEAR:
        return f"vote: reveal yourself and {_seat_words(seat, (seat + 1 + action - VOTE) % n)}"
    if action < KILL:
        return f"clear, then look at {_seat_words(seat, (seat + 1 + action - CLEAR) % n)}"
    if action == KILL:
        return "kill: the impostor wins"
    if action == PASS:
        return "end the turn"
    if action == SABOTAGE:
        return "sabotage"
    if action == NO_SABOTAGE:
        return "do not sabotage"
    return f"guess player_{_sabotage_target(s)} is {COLOUR_NAMES[action - GUESS]}"


_TEXTS = {
    "character card": "one per seat, face down: its colour is the seat's. The seat holding "
    "the impostor's colour is the impostor.",
    "task card": f"{TASKS_PER_COLOUR} of each colour in play, {HAND_SIZE} dealt to each seat. "
    f"Holding all {TASKS_PER_COLOUR} of your own colour lets a crewmate clear; all "
    f"{TASKS_PER_COLOUR} of the impostor's colour lets the impostor kill.",
    **{colour: f"a colour: one character card and {TASKS_PER_COLOUR} task cards."
       for colour in COLOUR_NAMES},
}


def card_text(name: str) -> str:
    """``NAME: text`` of a card by its name (any case): a colour, the character card, the task
    card, from `cards.py`."""
    return card_lookup(name, _TEXTS, "Among Us")


def public_events(before: np.void, after: np.void, viewer: int) -> list[str]:
    """What the whole table sees happen between two decisions, in words: characters turned
    face up (a vote's result), players cleared or publicly known not to be the impostor, a new
    round. Only public facts are read, so every seat (``viewer``) hears the same."""
    n = int(after["num_players"])
    lines = []
    if after["round"] != before["round"]:
        lines.append(f"round {int(after['round'])} begins")
    for j in range(n):
        if after["revealed"][j] and not before["revealed"][j]:
            impostor = " - the impostor" if j == after["impostor"] else ", not the impostor"
            lines.append(f"player_{j}'s character is face up: "
                         f"{COLOUR_NAMES[int(after['colour'][j])]}{impostor}")
        if after["not_impostor"][j] and not before["not_impostor"][j]:
            lines.append(f"player_{j} is publicly known not to be the impostor")
    return lines
