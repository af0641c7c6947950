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


def test_flash_and_liar_show_the_colour_their_names_say():
    """flash shows the impostor's colour and liar its own, wherever it may; otherwise they play
    as the heuristic and the chain."""
    from agents.amongus_styles import AmongUsFlash, AmongUsLiar
    from envs.amongus.observe import IMPOSTOR_COLOUR, OWN_COLOUR

    spec = envs.registry["amongus"]
    params = spec.resolve(num_players=5)
    flash, liar = AmongUsFlash(spec, params), AmongUsLiar(spec, params)
    obs = np.zeros((2, spec.observation_layout(params).size), np.float32)
    obs[:, flash._off[IMPOSTOR_COLOUR] + 3] = 1.0
    obs[:, liar._off[OWN_COLOUR] + 1] = 1.0
    mask = np.zeros((2, A.NUM_ACTIONS), bool)
    mask[0, [A.SHOW + 1, A.SHOW + 3]] = True  # it holds both colours
    mask[1, [A.SHOW + 0, A.SHOW + 2]] = True  # it holds neither
    assert flash.act(obs, mask)[0] == A.SHOW + 3 and liar.act(obs, mask)[0] == A.SHOW + 1
    from agents.amongus_heuristic import AmongUsHeuristic

    heuristic = AmongUsHeuristic(spec, params).act(obs, mask)
    assert flash.act(obs, mask)[1] == heuristic[1]  # no such card: the heuristic's choice
    assert AmongUsFlash.teams == ("impostor",) and AmongUsLiar.teams == ("crew",)
