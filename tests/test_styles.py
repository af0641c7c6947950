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


def _menace_board(n: int, decision: int, agenda: int):
    """A blank observation of one Menace seat with its agenda and pending decision set."""
    from envs.menace.observe import DECISION, OWN_AGENDA

    spec = envs.registry["menace"]
    layout = spec.observation_layout(spec.resolve(num_players=n))
    obs = np.zeros((1, layout.size), np.float32)
    obs[0, layout.offsets[OWN_AGENDA] + agenda] = 1.0
    obs[0, layout.offsets[DECISION] + decision] = 1.0
    return obs, layout.offsets, spec


def test_tell_calls_every_vote_and_abstains_until_a_seat_votes_unlike_it():
    """Round 1's vote: it abstained and seat +2 voted for seat +3. In a later vote it votes +2
    out; with no such ballot remembered it abstains; every call to vote it answers yes."""
    from agents.menace_styles import MenaceTell
    from envs.menace import actions as MA
    from envs.menace import cards as MC
    from envs.menace import rules as MR
    from envs.menace.observe import PAST_BALLOTS, PAST_ROUND

    n = 5
    crew = MC.CREW_AGENDAS[0]
    tell = MenaceTell(envs.registry["menace"], {"num_players": n})
    obs, off, _ = _menace_board(n, MR.VOTE, crew)
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.SEAT + r for r in range(1, n)] + [MA.PASS]] = True
    assert tell.act(obs, mask).tolist() == [MA.PASS]  # nothing remembered yet
    obs[0, off[PAST_ROUND]] = 1.0
    at = off[PAST_BALLOTS]
    obs[0, at + n] = 1.0  # its own row: abstained
    for r in (1, 3, 4):
        obs[0, at + r * (n + 1) + n] = 1.0  # the rest of the table abstained too
    obs[0, at + 2 * (n + 1) + 3] = 1.0  # seat +2 voted for seat +3
    assert tell.act(obs, mask).tolist() == [MA.SEAT + 2]
    call, _, _ = _menace_board(n, MR.CALL_VOTE, crew)
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.PASS, MA.YES]] = True
    assert tell.act(call, mask).tolist() == [MA.YES]


def test_tell_crew_beats_the_heuristic_crew_against_the_heuristic_menace():
    """The audit's reason for the vote-reading crew: the heuristic Menace votes in every vote."""
    result = cross_play("menace", {"crew": ["heuristic", "tell@py:agents.menace_styles:"
                                            "MenaceTell"],
                                   "menace": ["heuristic"]}, 400, seed=3, workers=1,
                        num_players=5)
    rate = {c.sides[0]: c.summary(("crew", "menace"))["win_rate"]["crew"] for c in result.cells}
    assert rate["tell"] > rate["heuristic"] + 0.08


def test_careful_drain_keeps_self_wounding_cards_while_anything_else_is_legal():
    from agents.menace_drain import SELF_WOUNDING, without_self_wounding
    from envs.menace import actions as MA

    mask = np.zeros(MA.NUM_ACTIONS, bool)
    mask[[MA.PLAY + card for card in SELF_WOUNDING]] = True
    assert (without_self_wounding(mask) == mask).all()  # nothing else legal: it must play one
    mask[MA.DRAW] = True
    kept = without_self_wounding(mask)
    assert kept[MA.DRAW] and not kept[[MA.PLAY + card for card in SELF_WOUNDING]].any()


def test_careful_drain_beats_the_drain_against_the_heuristic_crew():
    """The audit's strongest Menace: the drain that does not wound itself. Its lead over the
    drain shrank once the Crew took characters with strike cards, which kill an exiled careful
    drain (benchmark deals: 0.066 -> 0.056; these 2,000 deals, seed 3: 0.019)."""
    result = cross_play("menace", {"crew": ["heuristic"],
                                   "menace": ["drain", "careful@py:agents.menace_drain:"
                                              "MenaceCarefulDrain"]}, 2000, seed=3, workers=1,
                        num_players=5)
    rate = {c.sides[1]: c.summary(("crew", "menace"))["win_rate"]["menace"]
            for c in result.cells}
    assert rate["careful"] > rate["drain"], rate


def test_sellhire_never_builds_and_sells_the_dearest_room():
    from agents.maniacal_styles import ManiacalSellHire
    from envs.maniacal import actions as XA
    from envs.maniacal import rules as XR
    from envs.maniacal.observe import DECISION
    from envs.maniacal.tables import ROOM_COST

    spec = envs.registry["maniacal"]
    layout = spec.observation_layout(spec.resolve(num_players=4))
    obs = np.zeros((1, layout.size), np.float32)
    obs[0, layout.offsets[DECISION] + XR.DRAFT] = 1.0
    offered = np.argsort(ROOM_COST)[[0, -1]]  # the cheapest and the dearest room
    mask = np.zeros((1, XA.NUM_ACTIONS), bool)
    mask[0, [XA.BUILD + k for k in offered] + [XA.SELL + k for k in offered]] = True
    choice = ManiacalSellHire(spec, {"num_players": 4}).act(obs, mask)
    assert choice.tolist() == [XA.SELL + offered[-1]]


def test_the_heuristic_holds_sellhire_and_biggest_to_the_bar():
    """The audit's two MANIACAL plans beat version 1's heuristic (2.09 and 2.24 mean place at
    4 players, par 2.5); against version 2's, one such seat among three heuristics places no
    better than the games issue's bar of 2.35."""
    from evaluation.benchmark import benchmark

    for name in ("sellhire@py:agents.maniacal_styles:ManiacalSellHire",
                 "biggest@py:agents.maniacal_styles:ManiacalBiggest"):
        r = benchmark("maniacal", "player", name, population_name="v1", games=200, workers=1,
                      num_players=4)
        heuristic = next(m for m in r["members"] if m["name"] == "heuristic")
        assert heuristic["interval"][0] > 2.35, (name, heuristic)
