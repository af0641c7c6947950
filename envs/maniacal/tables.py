"""The card tables of ``cards.py`` as numpy arrays, the form the compiled rules read.

Henchman ids run over every henchman card of the box: the 40 recruits (``HENCHMEN`` order),
then the 8 Mercenaries, then the 7 Lackeys, so one set of arrays serves every worker.
"""

import numpy as np

from . import cards as c

N_ROOM_KINDS = len(c.ROOMS)
N_SCHEME_KINDS = len(c.SCHEMES)
N_RECRUITS = len(c.HENCHMEN)
N_MERCENARIES = len(c.MERCENARIES)
N_LACKEYS = len(c.LACKEYS)
N_CONTRACTS = len(c.CONTRACTS)
N_POWERS = len(c.POWERS)
N_SUPERVILLAINS = len(c.SUPERVILLAINS)
N_CONTINENTS = len(c.CONTINENT_NAMES)
FIRST_MERCENARY = N_RECRUITS
FIRST_LACKEY = N_RECRUITS + N_MERCENARIES
N_HENCHMEN = FIRST_LACKEY + N_LACKEYS
N_ROOM_CARDS = sum(r.copies for r in c.ROOMS)
N_SCHEME_CARDS = sum(s.copies for s in c.SCHEMES)
LACKEY, MERCENARY = 4, 5  # types, as in cards.TYPES

ROOM_COST = np.array([r.cost for r in c.ROOMS], np.int64)
ROOM_ATTRACTION = np.array([r.attraction for r in c.ROOMS], np.int64)  # [R, 4]
ROOM_CATEGORY = np.array([r.category for r in c.ROOMS], np.int64)
ROOM_WEEKS = np.array([r.weeks for r in c.ROOMS], np.int64)
ROOM_WINDOW = np.array([r.window for r in c.ROOMS], np.int64)
ROOM_EFFECT = np.array([r.effect for r in c.ROOMS], np.int64)
ROOM_AMOUNT = np.array([r.amount for r in c.ROOMS], np.int64)
ROOM_TRAIT = np.array([r.trait for r in c.ROOMS], np.int64)
ROOM_DECK = np.array([k for k, r in enumerate(c.ROOMS) for _ in range(r.copies)], np.int8)

_ALL = (
    [(h.kind, h.cost, h.traits) for h in c.HENCHMEN]
    + [(MERCENARY, 0, m.traits) for m in c.MERCENARIES]
    + [(LACKEY, 0, lk.traits) for lk in c.LACKEYS]
)
HENCHMAN_TYPE = np.array([t for t, _, _ in _ALL], np.int64)
HENCHMAN_COST = np.array([cost for _, cost, _ in _ALL], np.int64)  # attraction points
HENCHMAN_TRAITS = np.array([traits for _, _, traits in _ALL], np.int64)  # [H, 4]
# The 10 cards of each recruitable type, in HENCHMEN order: the decks before shuffling.
HENCHMAN_DECKS = np.array(
    [[i for i, h in enumerate(c.HENCHMEN) if h.kind == kind] for kind in range(4)], np.int8
)

CONTRACT_DIFFICULTY = np.array([k.difficulty for k in c.CONTRACTS], np.int64)
CONTRACT_TEAM = np.array([k.team for k in c.CONTRACTS], np.int64)
CONTRACT_TRAIT = np.array([k.trait for k in c.CONTRACTS], np.int64)
CONTRACT_TARGET = np.array([k.target for k in c.CONTRACTS], np.int64)
# [K, 2, 3]: (success, failure) x (Infamy, money, icon bits)
CONTRACT_RESULT = np.array(
    [
        [[k.win_infamy, k.win_money, k.win_icons], [k.fail_infamy, k.fail_money, k.fail_icons]]
        for k in c.CONTRACTS
    ],
    np.int64,
)
CONTRACTS_BY_DIFFICULTY = [
    np.array([i for i, k in enumerate(c.CONTRACTS) if k.difficulty == d], np.int16)
    for d in range(3)
]
MAX_DIFFICULTY_DECK = max(len(d) for d in CONTRACTS_BY_DIFFICULTY)
CONTRACT_DECKS = np.full((3, MAX_DIFFICULTY_DECK), -1, np.int16)
CONTRACT_DECK_SIZES = np.array([len(d) for d in CONTRACTS_BY_DIFFICULTY], np.int64)
for _d, _ids in enumerate(CONTRACTS_BY_DIFFICULTY):
    CONTRACT_DECKS[_d, : len(_ids)] = _ids

SCHEME_NEG = np.array([s.neg_effect for s in c.SCHEMES], np.int64)
SCHEME_NEG_AMOUNT = np.array([s.neg_amount for s in c.SCHEMES], np.int64)
SCHEME_POS = np.array([s.pos_effect for s in c.SCHEMES], np.int64)
SCHEME_POS_AMOUNT = np.array([s.pos_amount for s in c.SCHEMES], np.int64)
SCHEME_WINDOW = np.array([s.pos_window for s in c.SCHEMES], np.int64)
SCHEME_DECK = np.array([k for k, s in enumerate(c.SCHEMES) for _ in range(s.copies)], np.int8)

POWER_BONUS = np.array([p.bonus for p in c.POWERS], np.int64)  # [14, 4]

VILLAIN_WEEKS = np.array([v.weeks_to for v in c.SUPERVILLAINS], np.int64)  # [5, 6]
VILLAIN_LACKEY = np.array([FIRST_LACKEY + v.lackey for v in c.SUPERVILLAINS], np.int64)
