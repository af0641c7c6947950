"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from . import actions as A
from . import rules as R
from ..core.seats import relative
from .cards import (
    ABILITY_NAMES,
    AGENDA_NAMES,
    CARD_NAMES,
    CATEGORY_NAMES,
    CHARACTER_NAMES,
    WOUND_NAMES,
)
from .spec import DECISION_NAMES
from .tables import CHARACTER_ABILITIES


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


def public_action(s: np.void, seat: int, action: int, viewer: int) -> str:
    """What ``viewer``, sitting at the table, sees of ``seat`` taking ``action`` on the table
    ``s`` (as it stood before). Public: draws, Above Deck Actions used and their targets, Brawl
    targets, Vetoes, cards revealed by Bloodwork, calls to vote, table talk, and where the top
    EmMA card goes. Face down: a card played or discarded, a character picked (shown when its
    group has chosen), a ballot (shown when the vote is counted), an agenda's target. A card
    given by Relay is seen by the giver and the receiver only."""
    n = int(s["num_players"])
    decision = int(s["decision"])

    def name(relative_seat: int) -> str:
        return f"player_{(seat + relative_seat) % n}"

    if action == A.DRAW:
        return "draws a card"
    if action < A.USE:
        return "plays a card face down"
    if action < A.CARD:
        ability = CHARACTER_ABILITIES[int(s["character"][seat]), action - A.USE]
        return f"uses {ABILITY_NAMES[ability]}"
    if action < A.SEAT:
        card = CARD_NAMES[action - A.CARD]
        if decision == R.BLOODWORK_REVEAL:
            return f"reveals {card}"
        if decision == R.TALK_ACCUSE_CARD:
            return f"names {card}"
        if decision == R.RELAY_GIFT:
            if viewer == seat or viewer == int(s["ab_target"]):  # giver and receiver
                return f"gives {card}"
            return "gives a card face down"
        return "discards a card face down"
    if decision == R.VOTE and action <= A.PASS:
        return "casts a ballot face down"
    if decision == R.AGENDA_TARGET:
        return "makes its agenda's choice face down"
    if action < A.PASS:
        target = name(action - A.SEAT)
        if decision == R.BRAWL_TARGET:
            return f"brawls {target}"
        if decision == R.TALK_ACCUSE_SEAT:
            return f"accuses {target}"
        return f"targets {target}"
    if action == A.PASS or action == A.YES:
        yes = action == A.YES
        if decision == R.CALL_VOTE:
            return "calls a vote" if yes else "does not call a vote"
        if decision == R.VETO_CHOICE:
            return "vetoes the card" if yes else "lets the card through"
        if decision == R.CALIBRATE_CHOICE:
            return "puts the top EmMA card on the bottom" if yes else "leaves the top EmMA card"
        if decision == R.TALK_ACCUSE_SEAT:
            return "accuses no one"
        return "passes"
    if action < A.CLAIM:
        return "picks a character face down"
    return f"claims {CATEGORY_NAMES[action - A.CLAIM]}"
