"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from ..core.seats import relative
from .cards import AGENDA_NAMES, CARD_NAMES, CHARACTER_NAMES, WOUND_NAMES
from .spec import DECISION_NAMES


def _cards_text(counts: np.ndarray) -> str:
    return " ".join(f"{CARD_NAMES[t]}x{counts[t]}" for t in range(len(counts)) if counts[t] > 0)


def render(s: np.void, seat: int | None = None) -> str:
    n = int(s["num_players"])
    lines = [
        f"round {int(s['round'])}/{int(s['max_rounds'])}  oxygen {int(s['oxygen'])}  "
        f"energy {int(s['energy'])}/20  mission leader: player_{int(s['mission_leader'])}  "
        f"deciding: player_{int(s['current_seat'])} ({DECISION_NAMES[int(s['decision'])]})"
    ]
    for j in range(n):
        known = seat is None or j == seat or s["revealed"][j]
        agenda = AGENDA_NAMES[int(s["agenda"][j])] if known else "?"
        ch = int(s["character"][j])
        character = CHARACTER_NAMES[ch] if ch >= 0 else "-"
        # a pick is public once its group has chosen (``picks_shown``, in turn order from the
        # mission leader), as the observation has it; before that only its picker sees it
        if ch >= 0 and seat is not None and j != seat and \
                relative(j, int(s["mission_leader"]), n) >= s["picks_shown"]:
            character = "?"
        wounds = [WOUND_NAMES[w] if w < len(WOUND_NAMES) else "blank" for w in
                  s["wound_list"][j, : int(s["wound_n"][j])]]
        tags = [t for t, on in (("dead", not s["alive"][j]), ("exiled", s["exiled"][j])) if on]
        hand = _cards_text(s["hand"][j]) if seat is None or j == seat else f"{int(s['hand_n'][j])} cards"
        lines.append(
            f"  player_{j}: {character:<18} {agenda:<14} "
            f"hand [{hand}] deck {int(s['deck_n'][j])} played {int(s['played_n'][j])} "
            f"wounds [{', '.join(wounds)}] {' '.join(tags)}"
        )
    revealed = _cards_text(s["revealed_cards"])
    if revealed:
        lines.append(f"  revealed this round: {revealed}")
    if s["terminated"]:
        lines.append(f"  over: {'crew' if s['winner'] == 0 else 'menace'} wins")
    elif s["truncated"]:
        lines.append("  over: truncated, a draw")
    return "\n".join(lines)
