"""The scripted styles of the reference populations do what their names say."""

import numpy as np

import envs
from agents.amongus_styles import AmongUsPassive
from agents.menace_heuristic import RESERVE
from agents.menace_styles import LARGE_RESERVE, MenaceLargeReserve
from envs.amongus import actions as A
from evaluation.crossplay import cross_play


def test_passive_never_trades_votes_clears_or_sabotages():
    mask = np.zeros((4, A.NUM_ACTIONS), bool)
    mask[0, [A.OFFER, A.NO_TRADE]] = True  # a start-of-turn trade: declined
    mask[1, [A.VOTE, A.CLEAR, A.PASS]] = True  # the turn's end: no vote, no clear
    mask[2, [A.SABOTAGE, A.NO_SABOTAGE]] = True  # a window (as the impostor would have)
    mask[3, [A.SHOW + 2, A.SHOW + 4]] = True  # an investigation: it must show a card
    actions = AmongUsPassive().act(np.zeros((4, 8), np.float32), mask)
    assert actions.tolist() == [A.NO_TRADE, A.PASS, A.NO_SABOTAGE, A.SHOW + 2]


def test_a_larger_reserve_crew_repairs_less_and_holds_more_oxygen_than_the_heuristic():
    """The same deals, the heuristic menace: the 7-Oxygen reserve wins more (the audit's
    finding), which is why the population holds it."""
    assert LARGE_RESERVE > RESERVE.max()
    assert MenaceLargeReserve.teams == ("crew",)
    result = cross_play("menace", {"crew": ["heuristic", "r7@py:agents.menace_styles:"
                                            "MenaceLargeReserve"],
                                   "menace": ["heuristic"]}, 400, seed=3, workers=1,
                        num_players=6)
    rate = {c.sides[0]: c.summary(("crew", "menace"))["win_rate"]["crew"] for c in result.cells}
    assert rate["r7"] > rate["heuristic"] + 0.1
