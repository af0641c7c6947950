"""The scripted styles of the reference populations do what their names say."""

import numpy as np
import pytest

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
    finding), which is why the population holds it. (At 5 players the heuristic's own reserve
    is 7 since issue 46, so there the two play alike.)"""
    assert LARGE_RESERVE > RESERVE[6 - 4]  # the reserve at 6 players, the size played here
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


@pytest.mark.xfail(strict=False, reason=(
    "issue 46, 2026-12-08: the heuristic Menace now plays without cover at a table where no "
    "other seat has called a vote (docs/rules/menace.md, 'A table that does not vote'); tell "
    "calls every round, the heuristic Crew only with a clear suspect, and on this seed tell "
    "won 0.3975 against 0.3475 (on the population seed 4601, 1,000 deals: 0.347 against 0.367)"))
def test_tell_crew_no_longer_beats_the_heuristic_crew_against_the_heuristic_menace():
    """The audit's reason for the vote-reading crew was that the heuristic Menace voted in every
    vote (R1); since issue 46 it votes only for a clear suspect, as the Crew does, and a crew that
    abstains to see who votes gains nothing over the heuristic crew."""
    result = cross_play("menace", {"crew": ["heuristic", "tell@py:agents.menace_styles:"
                                            "MenaceTell"],
                                   "menace": ["heuristic"]}, 400, seed=3, workers=1,
                        num_players=5)
    rate = {c.sides[0]: c.summary(("crew", "menace"))["win_rate"]["crew"] for c in result.cells}
    assert rate["tell"] < rate["heuristic"] + 0.03, rate


def test_careful_drain_keeps_self_wounding_cards_while_anything_else_is_legal():
    from agents.menace_drain import SELF_WOUNDING, without_self_wounding
    from envs.menace import actions as MA

    mask = np.zeros(MA.NUM_ACTIONS, bool)
    mask[[MA.PLAY + card for card in SELF_WOUNDING]] = True
    assert (without_self_wounding(mask) == mask).all()  # nothing else legal: it must play one
    mask[MA.DRAW] = True
    kept = without_self_wounding(mask)
    assert kept[MA.DRAW] and not kept[[MA.PLAY + card for card in SELF_WOUNDING]].any()


def test_at_five_players_the_drain_plays_as_carefully_as_the_careful_drain():
    """The audit's careful drain was the drain that does not wound itself, and beat it while the
    heuristic Menace's Brawl gave its own Wound to itself as Mission Leader (benchmark deals:
    +0.066, then +0.056). The drain plays the heuristic's turn, which since issue 46 plays no
    Backstab or Brawl as cover at 5 players (docs/rules/menace.md, "After the Brawl fix"), so
    at 5 the two play almost alike."""
    result = cross_play("menace", {"crew": ["heuristic"],
                                   "menace": ["drain", "careful@py:agents.menace_drain:"
                                              "MenaceCarefulDrain"]}, 2000, seed=3, workers=1,
                        num_players=5)
    rate = {c.sides[1]: c.summary(("crew", "menace"))["win_rate"]["menace"]
            for c in result.cells}
    assert abs(rate["drain"] - rate["careful"]) < 0.03, rate


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


def _menace_act(policy_class, obs, mask, n: int) -> int:
    return int(policy_class(envs.registry["menace"], {"num_players": n}).act(obs, mask)[0])


def _live_menace_board(n: int, decision: int, agenda: int):
    """``_menace_board`` with every seat alive."""
    from envs.menace.observe import ALIVE

    obs, off, spec = _menace_board(n, decision, agenda)
    obs[0, off[ALIVE] : off[ALIVE] + n] = 1.0
    return obs, off, spec


def test_killer_gives_a_brawls_wound_to_the_most_wounded_seat():
    """Audit turn 4, K1: the heuristic Menace wounds the least suspected seat (none is suspected:
    the last clockwise from the Mission Leader); the killer wounds seat +2, which has a Wound
    already."""
    from agents.menace_heuristic import MenaceHeuristic
    from agents.menace_styles import MenaceKiller
    from envs.menace import actions as MA
    from envs.menace import cards as MC
    from envs.menace import rules as MR
    from envs.menace.observe import WOUNDS
    from envs.menace.spec import N_WOUND_KINDS

    n = 5
    obs, off, _ = _live_menace_board(n, MR.BRAWL_TARGET, MC.MENACE_AGENDAS[0])
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.SEAT + r for r in range(1, n)]] = True
    assert _menace_act(MenaceKiller, obs, mask, n) == _menace_act(MenaceHeuristic, obs, mask, n)
    obs[0, off[WOUNDS] + 2 * N_WOUND_KINDS] = 1.0  # seat +2 is wounded
    assert _menace_act(MenaceHeuristic, obs, mask, n) == MA.SEAT + n - 1
    assert _menace_act(MenaceKiller, obs, mask, n) == MA.SEAT + 2


def _self_wounding_turn(n: int):
    """A Menace's turn at 0 Oxygen, wounded already, with Reactor Leak or a draw legal: the
    heuristic plays the Leak (it cannot wound a wounded player again)."""
    from envs.menace import actions as MA
    from envs.menace import cards as MC
    from envs.menace import rules as MR
    from envs.menace.observe import WOUNDS

    obs, off, _ = _menace_board(n, MR.TURN, MC.MENACE_AGENDAS[0])
    obs[0, off[WOUNDS]] = 1.0  # its own Wound
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.PLAY + MC.REACTOR_LEAK, MA.DRAW]] = True
    return obs, off, mask


def test_careful_menace_keeps_reactor_leak_backstab_and_brawl_while_it_may():
    """Audit turn 4, V2: the heuristic Menace with the careful drain's one rule."""
    from agents.menace_heuristic import MenaceHeuristic
    from agents.menace_styles import MenaceCareful
    from envs.menace import actions as MA
    from envs.menace import cards as MC

    obs, _, mask = _self_wounding_turn(5)
    assert _menace_act(MenaceHeuristic, obs, mask, 5) == MA.PLAY + MC.REACTOR_LEAK
    assert _menace_act(MenaceCareful, obs, mask, 5) == MA.DRAW


def test_budget_menace_sabotages_only_while_the_evidence_against_it_is_under_budget():
    """Audit turn 4, V2: with nothing against it, it plays Panic as the heuristic does; once
    the table has seen it play in a round whose revealed card was Panic, it draws instead."""
    from agents.menace_heuristic import MenaceHeuristic
    from agents.menace_styles import MenaceBudget
    from envs.menace import actions as MA
    from envs.menace import cards as MC
    from envs.menace import rules as MR
    from envs.menace.observe import PLAYED, REVEALED

    obs, off, _ = _menace_board(5, MR.TURN, MC.MENACE_AGENDAS[0])
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.PLAY + MC.PANIC, MA.DRAW]] = True
    assert _menace_act(MenaceHeuristic, obs, mask, 5) == MA.PLAY + MC.PANIC
    assert _menace_act(MenaceBudget, obs, mask, 5) == MA.PLAY + MC.PANIC
    obs[0, off[PLAYED]] = 1.0  # it played a card this round ...
    obs[0, off[REVEALED] + MC.PANIC] = 1.0  # ... and the card revealed was Panic
    assert _menace_act(MenaceHeuristic, obs, mask, 5) == MA.PLAY + MC.PANIC
    assert _menace_act(MenaceBudget, obs, mask, 5) == MA.DRAW


def test_pass_crew_never_calls_a_vote_and_abstains():
    """Audit turn 4, H1: with seat +1 shown to be the Menace the heuristic Crew calls a vote
    and votes it out; the pass crew does neither."""
    from agents.menace_heuristic import MenaceHeuristic
    from agents.menace_styles import MenacePassCrew
    from envs.menace import actions as MA
    from envs.menace import cards as MC
    from envs.menace import rules as MR
    from envs.menace.observe import AGENDA_REVEALED

    n = 5
    for decision, legal in ((MR.CALL_VOTE, [MA.PASS, MA.YES]),
                            (MR.VOTE, [MA.PASS] + [MA.SEAT + r for r in range(1, n)])):
        obs, off, _ = _live_menace_board(n, decision, MC.CREW_AGENDAS[0])
        obs[0, off[AGENDA_REVEALED] + MC.N_AGENDAS + MC.MENACE_AGENDAS[0]] = 1.0
        mask = np.zeros((1, MA.NUM_ACTIONS), bool)
        mask[0, legal] = True
        assert _menace_act(MenaceHeuristic, obs, mask, n) in (MA.YES, MA.SEAT + 1)
        assert _menace_act(MenacePassCrew, obs, mask, n) == MA.PASS


def test_hard_first_attempts_the_hardest_legal_hard_or_legendary_contract():
    """Audit turn 4, MA-1: of an Easy, a Hard for 2 and a Hard for 3 it attempts the Hard for
    3; with only the Easy one legal it chooses as the heuristic does."""
    from agents.maniacal_heuristic import ManiacalHeuristic
    from agents.maniacal_styles import ManiacalHardFirst
    from envs.maniacal import actions as XA
    from envs.maniacal import rules as XR
    from envs.maniacal.cards import EASY, HARD
    from envs.maniacal.observe import DECISION, MAP_DIFFICULTY, MAP_PRESENT, MAP_TEAM, TIME_COST

    spec = envs.registry["maniacal"]
    params = {"num_players": 4}
    layout = spec.observation_layout(spec.resolve(**params))
    off = layout.offsets
    obs = np.zeros((1, layout.size), np.float32)
    obs[0, off[DECISION] + XR.TURN] = 1.0
    for k, (difficulty, team) in enumerate(((EASY, 1), (HARD, 2), (HARD, 3))):
        obs[0, off[MAP_PRESENT] + k] = 1.0
        obs[0, off[MAP_DIFFICULTY] + 3 * k + difficulty] = 1.0
        obs[0, off[MAP_TEAM] + 4 * k + team - 1] = 1.0
        obs[0, off[TIME_COST] + k] = 0.2  # a week
    mask = np.zeros((1, XA.NUM_ACTIONS), bool)
    mask[0, [XA.CONTRACT + k for k in range(3)] + [XA.PASS]] = True
    hard_first, heuristic = ManiacalHardFirst(spec, params), ManiacalHeuristic(spec, params)
    assert hard_first.act(obs, mask).tolist() == [XA.CONTRACT + 2]
    mask[0, [XA.CONTRACT + 1, XA.CONTRACT + 2]] = False
    assert hard_first.act(obs, mask).tolist() == heuristic.act(obs, mask).tolist()


def test_the_heuristic_holds_hard_first_to_par():
    """Audit turn 4, MA-1: one hard_first seat among three version-2 heuristics placed 2.31 at
    4 players (par 2.5). Since the heuristic counts its Lackey's re-roll, such a seat places no
    better than the heuristics beside it: the paired interval of the difference holds 0 or
    lies above it."""
    from evaluation.ffa import ffa_match

    r = ffa_match("maniacal", "hard_first@py:agents.maniacal_styles:ManiacalHardFirst",
                  "heuristic", 200, seed=7, seats=1, workers=1, num_players=4)
    assert r.difference[2] > 0, r.format_table()


def test_freeharm_takes_veto_when_offered_and_uses_it_on_a_quiet_turn():
    """Audit turn 4, V1 (on the killer): offered Malumil Einum (Veto) and another character it
    takes Malumil; on a turn where the heuristic Menace would draw, it arms Veto instead."""
    from agents.menace_heuristic import MenaceHeuristic
    from agents.menace_styles import MenaceFreeHarm
    from envs.menace import actions as MA
    from envs.menace import cards as MC
    from envs.menace import rules as MR
    from envs.menace.observe import CHARACTER, CHARACTER_OFFER
    from envs.menace.tables import CHARACTER_ABILITIES

    n = 5
    malumil, slot = map(int, np.argwhere(CHARACTER_ABILITIES == MC.VETO)[0])
    other = next(ch for ch in range(MC.N_CHARACTERS)
                 if not np.isin(CHARACTER_ABILITIES[ch], (MC.VETO, MC.PRUNE)).any())
    obs, off, _ = _live_menace_board(n, MR.PICK_CHARACTER, MC.MENACE_AGENDAS[0])
    obs[0, [off[CHARACTER_OFFER] + malumil, off[CHARACTER_OFFER] + other]] = 1.0
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.PICK + malumil, MA.PICK + other]] = True
    assert _menace_act(MenaceFreeHarm, obs, mask, n) == MA.PICK + malumil
    obs, off, _ = _live_menace_board(n, MR.TURN, MC.MENACE_AGENDAS[0])
    obs[0, off[CHARACTER] + malumil] = 1.0
    mask = np.zeros((1, MA.NUM_ACTIONS), bool)
    mask[0, [MA.DRAW, MA.USE + slot]] = True
    assert _menace_act(MenaceHeuristic, obs, mask, n) == MA.DRAW
    assert _menace_act(MenaceFreeHarm, obs, mask, n) == MA.USE + slot
