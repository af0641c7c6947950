"""The flat action table (spec §4.3): what an action means is fixed by the pending decision,
which every seat observes. No action names another seat: a negative Scheme always aims at the
attempt in progress. Rooms and Schemes are named by kind, henchmen by card id."""

from . import cards as c
from .tables import N_CONTINENTS, N_HENCHMEN, N_ROOM_KINDS, N_SCHEME_KINDS

R, S = N_ROOM_KINDS, N_SCHEME_KINDS
MAX_COUNT = 32  # REROLL_COUNT offers 0..31 one-success dice

BUILD = 0  # + room kind: DRAFT
SELL = BUILD + R  # + room kind: DRAFT
ROOM = SELL + R  # + room kind: activate (TURN: Action room; BEFORE/AFTER_ROLL: Contract room)
CONTRACT = ROOM + R  # + continent: TURN
VISIT = CONTRACT + N_CONTINENTS  # + location: TURN
UNDERGROUND, HOSPITAL, LOUNGE = 0, 1, 2
SCHEME = VISIT + 3  # + scheme kind: a positive play, or the negative one in NEGATIVE_SCHEME
SUPERVILLAIN = SCHEME + S  # WORKER
HENCHMAN = SUPERVILLAIN + 1  # + henchman id: WORKER, TEAM, CHOOSE_HENCHMAN, HEAL, UNPAID, FIRE
TRAIT = HENCHMAN + N_HENCHMEN  # + trait: CHOOSE_TRAIT
REROLL = TRAIT + 4  # AFTER_ROLL: the Lackey's re-roll
COUNT = REROLL + 1  # + k: REROLL_COUNT
PASS = COUNT + MAX_COUNT  # pass, decline, roll, accept, done, no firing
NUM_ACTIONS = PASS + 1

LOCATION_NAMES = ("The Underground", "Hoodlum Hospital", "Lucifer's Lounge")


def henchman_name(h: int) -> str:
    if h < len(c.HENCHMEN):
        return c.HENCHMEN[h].name
    if h < len(c.HENCHMEN) + len(c.MERCENARIES):
        return c.MERCENARIES[h - len(c.HENCHMEN)].name
    return c.LACKEYS[h - len(c.HENCHMEN) - len(c.MERCENARIES)].name


def _names() -> tuple[str, ...]:
    names = [f"build {r.name}" for r in c.ROOMS]
    names += [f"sell {r.name}" for r in c.ROOMS]
    names += [f"room {r.name}" for r in c.ROOMS]
    names += [f"contract {name}" for name in c.CONTINENT_NAMES]
    names += [f"visit {name}" for name in LOCATION_NAMES]
    names += [f"scheme {s.name}" for s in c.SCHEMES]
    names += ["supervillain"]
    names += [f"henchman {h} {henchman_name(h)}" for h in range(N_HENCHMEN)]
    names += [f"trait {t}" for t in c.TRAITS]
    names += ["reroll"]
    names += [f"count {k}" for k in range(MAX_COUNT)]
    names += ["pass"]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _names()
