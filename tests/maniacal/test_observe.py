"""Version 1's `contract_odds`: what a seat can work out of a face-down contract, board before
and after. It reads the back and the observer's own henchmen, never the front."""

import numpy as np

from envs.maniacal import cards as c
from envs.maniacal.odds import BACK, BACK_ODDS, P_SUCCESS
from envs.maniacal.tables import CONTRACT_RESULT, CONTRACT_TARGET, HENCHMAN_TRAITS

from .scenario import give, henchman, strip_henchmen, table
from .test_rules import HARD_TEAM_2_TARGET_6, NO_ICONS_TEAM_1, view


def dice_of(name):
    return int(HENCHMAN_TRAITS[henchman(name)].sum())


def test_a_back_averages_every_printed_front_with_that_back_against_the_dice():
    back = BACK[HARD_TEAM_2_TARGET_6]
    fronts = np.flatnonzero(BACK == back)
    assert fronts.size > 1  # the back does not tell which front it is
    for d in (0, 3, 8):
        p = P_SUCCESS[d, CONTRACT_TARGET[fronts]]
        win, lose = CONTRACT_RESULT[fronts, 0], CONTRACT_RESULT[fronts, 1]
        assert np.isclose(BACK_ODDS[back, d, 0], p.mean())
        assert np.isclose(BACK_ODDS[back, d, 1], (p * win[:, 0] + (1 - p) * lose[:, 0]).mean())
        assert np.isclose(BACK_ODDS[back, d, 2], (p * win[:, 1] + (1 - p) * lose[:, 1]).mean())
        captured = (lose[:, 2] & c.CAPTURED) > 0
        assert np.isclose(BACK_ODDS[back, d, 3], ((1 - p) * captured).mean())
    assert BACK_ODDS[back, 8, 0] > BACK_ODDS[back, 3, 0] > BACK_ODDS[back, 0, 0] == 0.0


def test_contract_odds_use_the_observers_best_available_team_of_the_backs_size():
    states = table(3)
    s = states[0]
    strip_henchmen(s)
    s["map"][:] = -1
    s["map"][0], s["map"][1] = NO_ICONS_TEAM_1, HARD_TEAM_2_TARGET_6  # teams of 1 and 2
    give(s, 0, henchman("Rhino Brute"))
    before = view(s, 0)["contract_odds"]
    d1 = dice_of("Rhino Brute")
    assert np.allclose(before[0], BACK_ODDS[BACK[NO_ICONS_TEAM_1], d1] / [1, 15, 6, 1])
    assert not before[1].any()  # one henchman cannot field a team of two
    assert not before[2:].any()  # no contract there
    assert not view(s, 1)["contract_odds"].any()  # seat 1 owns no one
    strong = max((h for h in c.HENCHMEN if h.name != "Rhino Brute"), key=lambda h: sum(h.traits))
    give(s, 0, henchman(strong.name))
    after = view(s, 0)["contract_odds"]
    both = d1 + sum(strong.traits)
    assert np.allclose(after[1], BACK_ODDS[BACK[HARD_TEAM_2_TARGET_6], both] / [1, 15, 6, 1])
    best = max(d1, sum(strong.traits))
    assert np.allclose(after[0], BACK_ODDS[BACK[NO_ICONS_TEAM_1], best] / [1, 15, 6, 1])
    s["injuries"][henchman(strong.name)] = 1  # an injured henchman cannot go
    assert np.allclose(view(s, 0)["contract_odds"], before)


def test_contract_odds_do_not_depend_on_the_front():
    states = table(3)
    s = states[0]
    strip_henchmen(s)
    give(s, 0, henchman("Rhino Brute"))
    s["map"][:] = -1
    s["map"][0] = HARD_TEAM_2_TARGET_6
    twins = [k for k in np.flatnonzero(BACK == BACK[HARD_TEAM_2_TARGET_6])]
    seen = {tuple(view(_with_front(s, k), 0)["contract_odds"][0]) for k in twins}
    assert len(twins) > 1 and len(seen) == 1


def _with_front(s, card):
    t = s.copy()
    t["map"][0] = card
    return t
