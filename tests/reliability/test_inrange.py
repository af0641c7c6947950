"""Audit N1: records whose every field is in range but which contradict themselves are refused
by ``set_records`` (the games' ``limits.check`` and ``validate.check`` relations), never stepped
past a pile's end; run in a process of its own, in the suite's build (CI's: bounds-checked).
Turn 4's M3 (a pending decision that names no seat) is among them."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import envs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["amongus", "maniacal", "menace"])
def test_in_range_but_inconsistent_records_never_reach_past_a_pile(game):
    """In the suite's own build, so the subprocess loads the rules the suite compiled: under
    CI's ``NUMBA_BOUNDSCHECK=1`` any access past an array's end raises; in the default build a
    neighbour overwritten shows against the reference. A build of its own would compile each
    game again (over three minutes of CI's time); both builds at every size are the full fuzz's
    job (``docs/results/inrange-fuzz.md``)."""
    done = subprocess.run([sys.executable, "-m", "tests.reliability.inrange", game, "600", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (done.returncode, done.stderr[-1500:])  # -11: a crash
    assert " 0 violations" in done.stdout


def test_the_maniacal_piles_are_held_to_their_counts():
    """One field each, at the end of its range with nothing behind it: refused by name."""
    vec = envs.make_vec("maniacal", 1, seed=0, num_players=4)
    for field, value, message in [("team_n", 4, "team_n differs"),
                                  ("scheme_discard_n", 25, "Schemes in the deck"),
                                  ("power_discard_n", 14, "Powers in the deck"),
                                  ("mercenary_deck_n", 0, "mercenary_deck_n differs"),
                                  ("henchman_top", 9, "top card is not face up")]:
        records = vec.records.copy()
        records[field] = value
        with pytest.raises(ValueError, match=message):
            vec.set_records(records)
    assert np.array_equal(vec.records, envs.make_vec("maniacal", 1, seed=0,
                                                     num_players=4).records)


def _live(game: str, until, seed: int = 0, **params):
    """A batch of one played by its first legal action until ``until(record)`` holds."""
    vec = envs.make_vec(game, 1, seed=seed, **params)
    for _ in range(5000):
        if until(vec.records[0]):
            return vec
        vec.step(np.array([int(np.flatnonzero(vec.action_mask[0])[0])]))
    raise AssertionError("the state was never reached")


def test_the_next_player_order_holds_exactly_the_finished_seats():
    """MANIACAL, Contract phase: ``next_order_n`` raised alone (the audit's ``next_order_n=4``)
    would push the next finished seat past the pile's end."""
    from envs.maniacal.rules import CONTRACT_PHASE

    vec = _live("maniacal", lambda s: s["phase"] == CONTRACT_PHASE, num_players=4)
    records = vec.records.copy()
    records["next_order_n"] = 4
    with pytest.raises(ValueError, match="next_order_n differs from the seats finished"):
        vec.set_records(records)
    records = vec.records.copy()
    records["next_order"][0, records["next_order_n"][0]] = 2
    with pytest.raises(ValueError, match="next_order_n seats, then empty slots"):
        vec.set_records(records)


def test_the_menace_pool_holds_the_cards_played_this_round_and_room_for_the_rest():
    """Menace, Action stage: ``pool_n=31`` with nothing played (the audit's record) sent the
    next card into ``pool_seat``; a pool that agrees with what was played but leaves no room
    for the turns still to come is refused too."""
    from envs.menace.rules import ACTION, POOL

    vec = _live("menace", lambda s: s["stage"] == ACTION and s["turn_pos"] == 0, num_players=8)
    records = vec.records.copy()
    records["pool_n"] = POOL - 1
    with pytest.raises(ValueError, match="the pool's cards differ from the cards played"):
        vec.set_records(records)
    records = vec.records.copy()  # seat 0 "played" 28 cards already, all in the pool
    card = int(records["pool"][0, 0])
    records["pool"][0, :28], records["pool_seat"][0, :28] = card, 0
    records["pool_n"] = 28
    records["played"][0, 0] = 0
    records["played"][0, 0, card] = 28
    records["played_n"][0, 0] = 28
    with pytest.raises(ValueError, match="the pool has no room for the cards this round"):
        vec.set_records(records)
    records = vec.records.copy()
    records["stage"] = ACTION + 2  # calling a vote, with the round's cards still face down
    records["pool_n"] = 1
    with pytest.raises(ValueError, match="outside the Action and Resolution stages"):
        vec.set_records(records)


def test_a_pending_menace_decision_names_the_seat_that_makes_it():
    """Audit M3: ``ab_follow_up`` (a decision) with ``ab_follow_up_seat`` -1, all in range, made
    seat -1 decide, and its version-5 whole-game counts wrote one float past the observation
    row. Each field the rules hand a decision to a seat from must name a seat when it is due,
    and an ability's follow-up must be one (a Brawl's there was asked again after every answer,
    each wounding a seat, until ``wound_list`` overflowed: the 10,240-record fuzz)."""
    from envs.menace.rules import BLOODWORK_REVEAL, BRAWL_TARGET

    vec = envs.make_vec("menace", 1, seed=0, num_players=8)
    for fields, message in [({"ab_user": 0, "ab_follow_up": BLOODWORK_REVEAL,
                              "ab_follow_up_seat": -1}, "ab_follow_up_seat"),
                            ({"ab_user": 0, "ab_follow_up": BRAWL_TARGET},
                             "not a decision an ability follows up with"),
                            ({"rush_left": 2, "rush_seat": -1}, "rush_seat no seat"),
                            ({"veto_armed": 1, "veto_user": -1}, "veto_user names no seat")]:
        records = vec.records.copy()
        for field, value in fields.items():
            records[field] = value
        with pytest.raises(ValueError, match=message):
            vec.set_records(records)


@pytest.mark.parametrize("game", ["amongus", "maniacal", "menace"])
def test_a_record_with_no_deciding_seat_shows_nothing_and_its_next_step_is_refused(
        game, monkeypatch):
    """Whatever relation a game's checks miss, the engine never views the board from a seat
    outside the table (every seat-relative piece would be written one place off): such a
    record shows an empty mask and a blank view, and ``step`` refuses it by name."""
    import envs.core.engine as engine

    vec = envs.make_vec(game, 2, seed=0)
    records = vec.records.copy()
    records["current_seat"][0] = -1
    monkeypatch.setattr(engine, "check_records", lambda *a: None)  # as if a check missed it
    vec.set_records(records)
    assert not vec.action_mask[0].any() and not vec.observation[0].any()
    assert not vec.state()[0].any() and vec.state()[1].any()
    with pytest.raises(ValueError, match="game 0, seat -1 has no legal action"):
        vec.step(np.array([0, int(np.flatnonzero(vec.action_mask[1])[0])]))
