"""hiddendeck benchmark: a policy against every member of a reference population, paired with
the heuristic on the same deals."""

import json
import sqlite3
import subprocess
import sys

import pytest

import envs
from agents.populations import POPULATIONS, REFERENCE_SIZES, population
from agents import zoo
from evaluation.benchmark import benchmark, format_report, met_in_training
from evaluation.entrants import free_for_all, resolve


@pytest.mark.parametrize("game", sorted(REFERENCE_SIZES))
def test_every_population_member_resolves_and_plays_its_side(game):
    spec = envs.registry[game]
    for n in REFERENCE_SIZES[game]:
        params = spec.resolve(num_players=n)
        for team in (["player"] if free_for_all(spec) else spec.teams):
            for name in POPULATIONS:
                members = population(game, team, name, players=n)
                assert "random" in members and "heuristic" in members
                for m in members:
                    assert team in resolve(m, spec, params).roles, (game, team, m)
    assert all(set(p) == set(REFERENCE_SIZES) for p in POPULATIONS.values())


def test_population_v3_has_scripted_members_on_every_side_at_every_table_size():
    """Every member but a zoo checkpoint plays at every size the game supports, so v3 scores a
    policy at every size against more than random and the heuristic, on each side."""
    for game in sorted(REFERENCE_SIZES):
        spec = envs.registry[game]
        for n in range(spec.min_players, spec.max_players + 1):
            for team in (["player"] if free_for_all(spec) else spec.teams):
                members = population(game, team, "v3", players=n)
                assert len(set(members) - {"random", "heuristic"}) >= 1, (game, n, team)
                assert set(population(game, team, "v2", players=n)) < set(members)


def test_the_report_names_mean_worst_members_and_the_reference():
    r = benchmark("amongus", "crew", "random", games=40, workers=1, num_players=6)
    assert {"mean", "worst", "members", "reference"} <= set(r)
    names = [m["name"] for m in r["members"]]
    assert names == [resolve(m, envs.registry["amongus"], {"num_players": 6}).label
                     for m in population("amongus", "impostor")]
    for block in (r, r["reference"]):
        for m in block["members"]:
            assert {"name", "rate", "interval"} <= set(m)
            assert 0.0 <= m["interval"][0] <= m["rate"] <= m["interval"][1] <= 1.0
        assert block["worst"]["rate"] == min(m["rate"] for m in block["members"])
    d = r["difference"]["mean"]
    assert d["interval"][0] <= d["mean"] <= d["interval"][1]
    assert d["mean"] == pytest.approx(r["mean"]["rate"] - r["reference"]["mean"]["rate"])


def test_draws_are_shown_beside_the_win_rate_and_scored_half_where_a_member_forces_them():
    """Among Us's ``passive`` crew never votes, so the heuristic impostor's games against it
    end drawn: not wins, but half a win each in the score a zero-sum tool uses."""
    r = benchmark("amongus", "impostor", "random", population_name="v3", games=40, workers=1,
                  num_players=6, exclude=["chain", "liar", "liar_chain", "late_vote", "mono",
                                          "honest_first", "random"])
    passive = next(m for m in r["members"] if m["name"] == "passive")
    assert passive["reference_rate"] == 0.0 and passive["reference_draws"] > 0.5
    assert passive["reference_score_draw_half"] == pytest.approx(passive["reference_draws"] / 2)
    text = format_report(r)
    assert "draws (policy, heuristic)" in text and "counting a draw as half a win" in text
    quiet = benchmark("amongus", "crew", "random", games=20, workers=1, num_players=6,
                      exclude=["chain-exploit", "flash", "hider", "random"])
    assert "draws" not in format_report(quiet) or any(m["draws"] or m["reference_draws"]
                                                      for m in quiet["members"])


def test_the_heuristic_against_itself_differs_by_nothing_and_says_so_with_an_interval():
    """Same deals, same policy: every difference is 0, and its interval (Tango's, on no
    discordant deal) still has width: agreement on 24 deals is not certainty."""
    r = benchmark("menace", "menace", "heuristic", games=24, workers=1, num_players=5)
    for m in r["members"]:
        assert m["rate"] == m["reference_rate"]
        lo, hi = m["difference"]["interval"]
        assert m["difference"]["mean"] == 0.0 and lo == pytest.approx(-hi) and hi > 0.1


def test_members_met_in_training_are_left_out_by_label_or_source_and_named():
    r = benchmark("menace", "crew", "random", games=8, workers=1, num_players=5,
                  exclude=("drain", "py:agents.menace_drain:MenaceSaboteur", "not-a-member"))
    assert r["excluded"] == ["drain", "saboteur"]
    assert not {"drain", "saboteur"} & {m["name"] for m in r["members"]}
    assert "left out (met in training, or --exclude): drain, saboteur" in format_report(r)


def test_a_zoo_policy_met_what_its_record_says():
    assert met_in_training("zoo:menace5-crew-s1") == zoo.met("menace5-crew-s1")
    assert "zoo:menace5-menace-s1" in met_in_training("mine@zoo:menace5-crew-s1")
    assert met_in_training("heuristic") == ()


def test_the_worst_members_difference_is_against_that_same_member():
    r = benchmark("amongus", "crew", "random", games=40, workers=1, num_players=6)
    d = r["difference"]["worst"]
    worst = next(m for m in r["members"] if m["name"] == r["worst"]["name"])
    assert d["member"] == worst["name"] and d["mean"] == worst["difference"]["mean"]
    assert d["interval"] == worst["difference"]["interval"]


def test_free_for_all_scores_mean_positions_lower_is_better():
    r = benchmark("maniacal", "player", "heuristic", games=6, workers=1, num_players=4)
    assert r["lower_is_better"] and r["members_play"] == "player" and r["seats"] == 2
    by = {m["name"]: m for m in r["members"]}
    assert by["heuristic"]["rate"] == pytest.approx(2.5)  # against itself: the mean place
    assert by["random"]["rate"] < 2.5
    worst = max(r["members"], key=lambda m: m["rate"])  # the highest mean position
    assert r["worst"]["name"] == worst["name"] != "random"


def test_a_free_for_all_policy_can_take_one_seat_against_the_rest():
    r = benchmark("maniacal", "player", "heuristic", games=4, workers=1, num_players=4,
                  seats=1, population_name="v1")
    assert r["seats"] == 1 and "1 seat of 4 against the member in the rest" in format_report(r)
    assert {m["name"]: m["rate"] for m in r["members"]}["heuristic"] == pytest.approx(2.5)


@pytest.mark.parametrize("kwargs,message", [
    (dict(game="menace", team="impostor", policy="heuristic"), "no team 'impostor'"),
    (dict(game="menace", team="crew", policy="drain"), "plays \\['menace'\\], not crew"),
    (dict(game="menace", team="crew", policy="heuristic", population_name="v9"),
     "unknown population"),
    (dict(game="menace", team="crew", policy="heuristic", seats=1), "free-for-all"),
    (dict(game="maniacal", team="player", policy="heuristic", seats=5), "between 1 and 4"),
])
def test_bad_requests_are_refused_before_playing(kwargs, message):
    with pytest.raises(ValueError, match=message):
        benchmark(games=8, workers=1, num_players=5, **kwargs)


def test_the_command_stores_its_report_and_refuses_a_file_that_is_not_a_database(tmp_path):
    db = tmp_path / "results.sqlite"
    cmd = [sys.executable, "-m", "evaluation.cli", "benchmark", "amongus", "--team",
           "impostor", "--policy", "random", "--games", "16", "--workers", "1", "--json"]
    done = subprocess.run(cmd + ["--db", str(db)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (stored,), = sqlite3.connect(db).execute("SELECT report FROM benchmarks").fetchall()
    assert json.loads(stored) == report
    text = tmp_path / "notes.txt"
    text.write_text("keep me")
    done = subprocess.run(cmd + ["--db", str(text)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "not a SQLite database" in done.stderr
    assert text.read_text() == "keep me"


def test_an_exclude_that_names_no_member_is_refused_before_playing(capsys):
    from evaluation.cli import main

    assert main(["benchmark", "menace", "--team", "crew", "--policy", "random", "--players",
                 "5", "--exclude", "drain,sabotuer"]) == 2
    err = capsys.readouterr().err
    assert "--exclude sabotuer: not a member of population v2" in err and "\n" == err[-1]
