"""training.report: each trained team against every scripted player of the other side, each
row after its reference (the heuristic in the same seats, the same deals) and the gap between."""

import pytest

import envs
from agents import make_policy
from agents.neural import load_policy
from training.ppo import Args, train
from training.report import main, paired_match, report
from training.run_checkpoint import seen_in_training

from .conftest import TINY


def _assert_gains(rows):
    rates = {r["match"]: r["win_rate"] for r in rows}
    for r in rows:
        if "gain" in r:
            expected = 100 * (r["win_rate"][r["team"]] - rates[r["reference"]][r["team"]])
            assert r["gain"] == pytest.approx(expected)


def test_amongus_the_impostor_also_meets_the_chain_crew_and_the_crew_meets_no_duplicate(
        tiny_run, capsys):
    args, _ = tiny_run
    rows = report(args.out, 8, seed=5)
    assert [(r["match"], r.get("reference")) for r in rows] == [
        ("heuristic crew vs heuristic impostor", None),
        ("trained crew vs heuristic impostor", "heuristic crew vs heuristic impostor"),
        ("heuristic crew vs trained impostor", "heuristic crew vs heuristic impostor"),
        ("chain crew vs heuristic impostor", None),
        ("chain crew vs chain-exploit impostor", "chain crew vs heuristic impostor"),
        ("chain crew vs trained impostor", "chain crew vs heuristic impostor"),
        ("trained crew vs trained impostor", None),
    ]  # the chain is a crew strategy: as the impostor it plays the heuristic, so no row
    assert all(r["games"] == 8 for r in rows)
    assert [r["trained"] for r in rows] == [[], ["crew"], ["impostor"], [], [], ["impostor"],
                                            ["crew", "impostor"]]
    assert [r["match"] for r in rows if r.get("exploit")] == [
        "chain crew vs chain-exploit impostor"]  # the crew has no exploit to meet: no row
    _assert_gains(rows)
    main([args.out, "--games", "8", "--seed", "5"])
    table = capsys.readouterr().out
    assert "| chain crew vs trained impostor | 8 |" in table
    assert " points (impostor) |" in table and "(reference) |" in table
    assert " points (impostor, the exploit) |" in table
    assert "| trained crew vs trained impostor | 8 |" in table
    assert table.rstrip().endswith("(trained against trained) |")


def test_the_trained_teams_meet_each_other_each_with_its_own_network(tiny_run):
    """Greedy, so the row is reproducible: it is the match of the crew's checkpoint in the
    crew's seats and the impostor's in the impostor's (not one network for both)."""
    args, paths = tiny_run
    last = report(args.out, 40, seed=6, greedy=True)[-1]
    assert last["match"] == "trained crew vs trained impostor"
    own = {t: load_policy(paths[t], "amongus", team=t, greedy=True, num_players=4)
           for t in ("crew", "impostor")}
    params = {"num_players": 4, "max_rounds": last["params"]["max_rounds"]}
    right, _ = paired_match("amongus", params, own, 40, 6)
    mixed, _ = paired_match("amongus", params, {"crew": own["crew"], "impostor": own["crew"]},
                            40, 6)
    assert (last["wins"], last["decisions_per_game"]) == (right["wins"],
                                                          right["decisions_per_game"])
    assert mixed["decisions_per_game"] != right["decisions_per_game"]  # the test can tell


def test_every_match_plays_the_same_deals_and_each_gain_has_a_paired_interval(tiny_run):
    args, _ = tiny_run
    rows = report(args.out, 30, seed=7, greedy=True)
    for r in rows:
        if "gain" in r:
            lo, hi = r["gain_interval95"]
            assert lo <= r["gain"] <= hi
    heuristic = make_policy("heuristic", envs.registry["amongus"], rows[0]["params"], 7)
    lineup = {"crew": heuristic, "impostor": heuristic}
    first, deals = paired_match("amongus", rows[0]["params"], lineup, 30, 7)
    again, same = paired_match("amongus", rows[0]["params"], lineup, 30, 7)
    assert first == again and (deals == same).all()
    assert first["wins"] == rows[0]["wins"]  # the report's reference row: the same deals


def test_the_report_refuses_the_training_seed_and_marks_opponents_seen_in_training(
        tiny_run, capsys):
    args, _ = tiny_run
    with pytest.raises(SystemExit):
        main([args.out, "--games", "8", "--seed", str(args.seed)])
    assert "training seed" in capsys.readouterr().err
    rows = report(args.out, 8, seed=5)
    seen = seen_in_training(vars(args))
    assert ("heuristic" in seen) == (args.imitate == "heuristic")
    for r in rows:
        assert set(r["seen_in_training"]) <= seen
    main([args.out, "--games", "8", "--seed", "5"])
    head = capsys.readouterr().out.splitlines()[0]
    assert "sampled" in head and "scoring seed 5" in head and "seen in training" in head


def test_menace_the_trained_crew_meets_the_drain_menace_and_a_fixed_team_has_no_rows(tmp_path):
    out = tmp_path / "menace"
    train(Args(out=str(out), **{**TINY, "game": "menace", "num_players": 5,
                                "fixed_teams": {"menace": "heuristic"}}))
    rows = report(str(out), 8, seed=5)
    assert [r["match"] for r in rows] == [
        "heuristic crew vs heuristic menace", "trained crew vs heuristic menace",
        "heuristic crew vs drain menace", "trained crew vs drain menace",
    ]
    assert {r.get("team") for r in rows} == {None, "crew"}
    _assert_gains(rows)
    # the heuristic menace was the run's fixed opponent: not a held-out result
    assert [r["seen_in_training"] for r in rows][:2] == [["heuristic"], ["heuristic"]]
