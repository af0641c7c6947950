"""The flat action table: every decision of every phase is one index into it.

Seats in actions are relative to the deciding seat (``+1`` is the next seat clockwise), as in
observations, so a policy never needs absolute seat numbers. Colours are absolute.
"""

from .cards import COLOUR_NAMES, MAX_PLAYERS

C = MAX_PLAYERS  # colours
O = MAX_PLAYERS - 1  # other seats, relative offsets 1..O

SHOW = 0  # + colour: investigation, show a task card of that colour
OFFER = SHOW + C  # + colour * O + (offset - 1): start-of-turn trade offer
NO_TRADE = OFFER + C * O
GIVE = NO_TRADE + 1  # + colour: the trade partner's card in return
VOTE = GIVE + C  # + (offset - 1)
CLEAR = VOTE + O  # + (offset - 1): clear, then look at that seat's character card
KILL = CLEAR + O
PASS = KILL + 1  # end the turn without voting, clearing or killing
SABOTAGE = PASS + 1
NO_SABOTAGE = SABOTAGE + 1  # a sabotage window closes on this seat without a sabotage
GUESS = NO_SABOTAGE + 1  # + colour: sabotage guess for the seat now being guessed
NUM_ACTIONS = GUESS + C


def _names() -> tuple[str, ...]:
    names = [f"show {c}" for c in COLOUR_NAMES]
    names += [f"offer {c} to +{o}" for c in COLOUR_NAMES for o in range(1, O + 1)]
    names += ["no trade"]
    names += [f"give {c}" for c in COLOUR_NAMES]
    names += [f"vote +{o}" for o in range(1, O + 1)]
    names += [f"clear, look at +{o}" for o in range(1, O + 1)]
    names += ["kill", "end turn", "sabotage", "no sabotage"]
    names += [f"guess {c}" for c in COLOUR_NAMES]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _names()
