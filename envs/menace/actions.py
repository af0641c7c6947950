"""The flat action table: every decision of every phase is one index into it.

Seats in actions are relative to the deciding seat (``seat +0`` is itself, ``+1`` the next seat
clockwise), as in observations. What a ``card`` or ``seat`` action means is set by the pending
decision (``rules.DECISION_NAMES``), which every seat observes.
"""

from .cards import (
    CARD_NAMES,
    CATEGORY_NAMES,
    CHARACTER_NAMES,
    N_CARD_TYPES,
    N_CHARACTERS,
)

MAX_PLAYERS = 8

DRAW = 0
PLAY = DRAW + 1  # + card type: play it face down
USE = PLAY + N_CARD_TYPES  # + ability slot (0, 1) of the seat's character
CARD = USE + 2  # + card type: discard it, reveal it, give it, or name it in an accusation
SEAT = CARD + N_CARD_TYPES  # + relative seat: choose that crewmember / vote for them
PASS = SEAT + MAX_PLAYERS  # decline, abstain, let a card through, keep the EmMA card on top
YES = PASS + 1  # call a vote, veto this card, put the EmMA card on the bottom
PICK = YES + 1  # + character: pick it at setup
CLAIM = PICK + N_CHARACTERS  # + Player Guide category: table-talk claim about one's own card
NUM_ACTIONS = CLAIM + len(CATEGORY_NAMES)


def _names() -> tuple[str, ...]:
    names = ["draw"]
    names += [f"play {c}" for c in CARD_NAMES]
    names += ["use ability 1", "use ability 2"]
    names += [f"card {c}" for c in CARD_NAMES]
    names += [f"seat +{k}" for k in range(MAX_PLAYERS)]
    names += ["pass", "yes"]
    names += [f"pick {c}" for c in CHARACTER_NAMES]
    names += [f"claim {c}" for c in CATEGORY_NAMES]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _names()