"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from .cards import COLOUR_NAMES
from .rules import AFTER_VOTE, PHASE_NAMES, REPLY, SABOTAGE_GUESS, SABOTAGE_WINDOW


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
