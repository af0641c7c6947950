"""Tournaments: ratings rank the stronger bot first, resume exactly, grow, never mix contexts."""

import dataclasses
import sqlite3

import pytest

import envs
from evaluation import tournament as tour
from evaluation.tournament import Results, run_tournament

SMALL = dict(batch_games=16, slots=8, workers=1)


def table_of(db, policies, games, **kw):
    table = run_tournament("amongus", policies, games, db=db, **SMALL, **kw)
    out = table.as_dict()
    out.pop("db")
    return out


def test_the_heuristic_ranks_above_random_where_it_plays_better_in_both_roles(tmp_path):
    # The Menace at 5 seats: a random crew loses every game, and the heuristic crew beats the
    # heuristic menace less often than the random one (docs/evaluation.md).
    table = run_tournament("menace", ["random", "heuristic"], 150, db=tmp_path / "r.sqlite",
                           num_players=5, **SMALL)
    order = [s.label for s in table.standings]
    assert order == ["heuristic", "random"]
    best, worst = table.standings
    for role in ("crew", "menace"):
        assert best.by_role[role][0] > worst.by_role[role][0]


def test_an_interrupted_tournament_resumes_to_the_same_table(tmp_path, monkeypatch):
    policies = ["random", "heuristic", "h2@heuristic"]
    straight = table_of(tmp_path / "straight.sqlite", policies, 40, num_players=4)

    stored = []
    real = Results.store_batch

    def interrupted(self, pairing, log, run=None):
        if len(stored) == 4:
            raise KeyboardInterrupt
        stored.append(pairing)
        real(self, pairing, log, run)

    db = tmp_path / "resumed.sqlite"
    monkeypatch.setattr(Results, "store_batch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        table_of(db, policies, 40, num_players=4)
    monkeypatch.setattr(Results, "store_batch", real)
    with sqlite3.connect(db) as con:
        stored_games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    assert stored_games == 16 + 16 + 8 + 16  # a pairing's batches hold 16, 16 and 8 games
    assert table_of(db, policies, 40, num_players=4) == straight
    with sqlite3.connect(db) as a, sqlite3.connect(tmp_path / "straight.sqlite") as b:
        rows = "SELECT p.sides, g.idx, g.winner, g.length, g.actions FROM games g JOIN " \
               "pairings p ON g.pairing = p.id ORDER BY p.sides, g.idx"
        assert a.execute(rows).fetchall() == b.execute(rows).fetchall()


def test_a_new_entrant_plays_only_its_own_pairings(tmp_path, monkeypatch):
    db = tmp_path / "grow.sqlite"
    table_of(db, ["random", "heuristic"], 20, num_players=4)
    played = []
    real = tour.run_batches
    monkeypatch.setattr(tour, "run_batches",
                        lambda batches, **kw: played.extend(batches) or real(batches, **kw))
    grown = table_of(db, ["random", "heuristic", "h2@heuristic"], 20, num_players=4)
    assert {b.sides[0].label + "-" + b.sides[1].label for b in played} == {
        "h2-random", "random-h2", "h2-heuristic", "heuristic-h2", "h2-h2"}
    assert [s["policy"] for s in grown["leaderboard"]].count("h2") == 1
    assert sum(p["games"] for p in grown["pairings"]) == 9 * 20


def test_contexts_never_mix(tmp_path):
    db = tmp_path / "ctx.sqlite"
    table_of(db, ["random", "heuristic"], 16, num_players=4)
    five = table_of(db, ["random", "heuristic"], 16, num_players=5)
    assert five["params"]["num_players"] == 5
    assert sum(p["games"] for p in five["pairings"]) == 4 * 16  # not the 4-seat games
    spec = envs.registry["amongus"]
    newer = dataclasses.replace(spec, version=spec.version + 1)
    results = Results(db, newer, spec.resolve(num_players=4))
    assert results.games() == []
    results.close()


def test_a_label_that_changes_meaning_is_refused_before_any_game(tmp_path):
    db = tmp_path / "labels.sqlite"
    table_of(db, ["a@random", "heuristic"], 16, num_players=4)
    with pytest.raises(ValueError, match="label 'a' already names random"):
        table_of(db, ["a@heuristic", "random"], 16, num_players=4)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 4 * 16


def test_unknown_policy_or_mismatched_checkpoint_fails_before_the_database_is_touched(
        tmp_path, checkpoint):
    db = tmp_path / "none.sqlite"
    with pytest.raises(ValueError, match="unknown policy 'nosuch'"):
        table_of(db, ["random", "nosuch"], 16, num_players=4)
    crew = checkpoint("amongus", "crew", num_players=4)
    with pytest.raises(ValueError, match="num_players: checkpoint 4 vs requested 5"):
        table_of(db, ["random", crew], 16, num_players=5)
    assert not db.exists()


@pytest.fixture
def free_for_all_amongus(monkeypatch):
    """Among Us declared free-for-all: every seat its own side, ranked by final reward (a
    stand-in for MANIACAL, whose seats are its teams)."""
    from envs.core import registry as reg

    game = reg.game("amongus")
    spec = dataclasses.replace(game.spec, extra={**game.spec.extra, "free_for_all": True})
    monkeypatch.setitem(reg._GAMES, "amongus", dataclasses.replace(game, spec=spec))


def test_free_for_all_games_seat_each_pair_both_ways_and_rank_by_reward(
        tmp_path, free_for_all_amongus):
    table = run_tournament("amongus", ["random", "heuristic"], 24, db=tmp_path / "f.sqlite",
                           num_players=4, **SMALL)
    sides = sorted(tuple(s for _, s in p["sides"]) for p in table.pairings)
    assert sides == [("heuristic", "random") * 2, ("random", "heuristic") * 2]
    assert [p["games"] for p in table.pairings] == [24, 24]
    assert {s.label for s in table.standings} == {"random", "heuristic"}
    assert all(set(s.by_role) == {"player"} and s.games == 48 for s in table.standings)
    assert table.role_advantage == {}
