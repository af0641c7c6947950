"""Cross-play: Wilson intervals, paired deals, policies by name, errors before any game."""

import json
import re

import numpy as np
import pytest

import envs
from agents.checkpoint import CheckpointError
from evaluation.cli import main
from evaluation.crossplay import cross_play
from evaluation.entrants import resolve
from evaluation.harness import Batch, play_batch
from evaluation.match import wilson_interval

AMONGUS4 = dict(num_players=4)


@pytest.mark.parametrize(
    "wins, games, low, high",
    [  # reference values: statsmodels proportion_confint(method="wilson")
        (5, 10, 0.2365931, 0.7634069),
        (0, 10, 0.0, 0.2775328),
        (10, 10, 0.7224672, 1.0),
        (1, 3, 0.0614919, 0.7923404),
    ],
)
def test_wilson_interval_matches_reference_values(wins, games, low, high):
    lo, hi = wilson_interval(wins, games)
    assert lo == pytest.approx(low, abs=1e-6) and hi == pytest.approx(high, abs=1e-6)


def test_a_refilled_slot_deals_the_same_game_as_a_fresh_env():
    vec = envs.make_vec("amongus", 3, seed=7, **AMONGUS4)
    vec.deal([1], [40])
    fresh = envs.make_vec("amongus", 1, seed=7, first_index=40, **AMONGUS4)
    assert np.array_equal(vec.records[1:2], fresh.records)
    assert np.array_equal(vec.observation[1], fresh.observation[0])
    assert np.array_equal(vec.action_mask[1], fresh.action_mask[0])


def test_game_numbers_not_slots_fix_the_games():
    spec = envs.registry["amongus"]
    params = spec.resolve(**AMONGUS4)
    h = resolve("heuristic", spec, params)
    logs = [play_batch(Batch("amongus", params, (h, h), seed=3, start=5, stop=105, slots=s))
            for s in (7, 100)]
    assert np.array_equal(logs[0].index, np.arange(5, 105))
    for field in ("winner", "length", "rewards", "deal", "actions"):
        assert np.array_equal(getattr(logs[0], field), getattr(logs[1], field)), field


def test_paired_deals_identical_policies_play_identical_games_in_every_pairing():
    result = cross_play("amongus", {"crew": ["heuristic", "h2@heuristic"],
                                    "impostor": ["random", "r2@random"]}, 150, seed=11,
                        workers=1, batch_games=64, slots=16, **AMONGUS4)
    cells = {c.sides: c.log for c in result.cells}
    assert len(cells) == 4
    first = cells["heuristic", "random"]
    for log in cells.values():  # every pairing meets the same deals
        assert np.array_equal(log.index, np.arange(150))
        assert np.array_equal(log.deal, first.deal)
    for pairing in (("h2", "random"), ("heuristic", "r2"), ("h2", "r2")):
        log = cells[pairing]
        for field in ("winner", "length", "rewards", "actions"):
            assert np.array_equal(getattr(log, field), getattr(first, field)), (pairing, field)


def test_one_label_on_two_teams_plays_each_team_its_own_policy():
    """`--crew trained@crew.pt --impostor trained@impostor.pt`: the label is the same, the
    policies are not; the impostor must not be played by the crew's policy."""
    same = cross_play("amongus", {"crew": ["x@heuristic"], "impostor": ["x@random"]}, 100,
                      seed=5, workers=1, batch_games=64, slots=16, **AMONGUS4)
    apart = cross_play("amongus", {"crew": ["heuristic"], "impostor": ["random"]}, 100,
                       seed=5, workers=1, batch_games=64, slots=16, **AMONGUS4)
    for field in ("winner", "length", "rewards", "actions"):
        assert np.array_equal(getattr(same.cells[0].log, field),
                              getattr(apart.cells[0].log, field)), field


def test_a_checkpoint_plays_the_team_it_was_trained_for(checkpoint):
    crew = checkpoint("amongus", "crew", **AMONGUS4)
    result = cross_play("amongus", {"crew": [f"net@{crew}", "random"], "impostor": ["random"]},
                        40, workers=1, **AMONGUS4)
    assert [c.sides for c in result.cells] == [("net", "random"), ("random", "random")]
    assert all(len(c.log) == 40 for c in result.cells)
    impostor = checkpoint("amongus", "impostor", **AMONGUS4)
    pair = cross_play("amongus", {"crew": [f"net@{crew}"], "impostor": [f"net@{impostor}"]}, 8,
                      workers=1, **AMONGUS4)  # one label for a run's two checkpoints
    assert pair.sources == {"crew": {"net": crew}, "impostor": {"net": impostor}}
    with pytest.raises(ValueError, match="plays \\['crew'\\], not impostor"):
        cross_play("amongus", {"crew": ["random"], "impostor": [crew]}, 10, **AMONGUS4)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--crew", "random", "--impostor", "nosuchbot"], "unknown policy 'nosuchbot'"),
        (["--crew", "CREW", "--impostor", "random", "--players", "5"],
         "num_players: checkpoint 4 vs requested 5"),
        (["--crew", "CREW", "--impostor", "random", "--param", "max_rounds=9"], "max_rounds"),
        (["--crew", "random", "--impostor", "CREW"], "plays \\['crew'\\], not impostor"),
        (["--crew", "random", "--impostor", "random", "--menace", "random"],
         "amongus has no team\\(s\\) \\['menace'\\]"),
        (["--crew", "random,random@heuristic", "--impostor", "random"], "label 'random'"),
    ],
)
def test_bad_policies_fail_clearly_and_write_nothing(argv, message, checkpoint, tmp_path,
                                                     capsys):
    crew = checkpoint("amongus", "crew", **AMONGUS4)
    argv = [crew if a == "CREW" else a for a in argv]
    out = tmp_path / "out"
    args = ["eval", "amongus", *argv, "--games", "10", "--workers", "1", "--out", str(out)]
    if "--players" not in argv:
        args += ["--players", "4"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("hiddendeck: ") and len(err.strip().splitlines()) == 1
    assert re.search(message, err), err
    assert not out.exists()


def test_a_checkpoint_of_another_game_is_refused(checkpoint):
    menace = checkpoint("menace", "crew", num_players=5)
    with pytest.raises(CheckpointError, match="trained for game 'menace', not 'amongus'"):
        cross_play("amongus", {"crew": [menace], "impostor": ["random"]}, 10, **AMONGUS4)


def test_eval_writes_every_format(tmp_path, capsys):
    out = tmp_path / "eval"
    assert main(["eval", "amongus", "--players", "4", "--crew", "random,heuristic",
                 "--impostor", "heuristic", "--games", "30", "--workers", "1",
                 "--out", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert sorted(p.name for p in out.iterdir()) == [
        "games.jsonl.gz", "matrix.csv", "matrix.json", "matrix.md", "matrix.png"]
    assert json.loads((out / "matrix.json").read_text()) == printed
    assert [c["games"] for c in printed["cells"]] == [30, 30]
    cell = printed["cells"][0]
    assert sum(cell["wins"].values()) + cell["draws"] == 30
    assert (out / "matrix.png").read_bytes()[:4] == b"\x89PNG"
    assert len((out / "matrix.csv").read_text().splitlines()) == 3


def test_a_scripted_bot_written_for_one_team_plays_only_that_team(monkeypatch):
    import evaluation.entrants
    from agents.policy import RandomPolicy

    class Drainer(RandomPolicy):
        team = "impostor"

    real = evaluation.entrants.make_policy
    monkeypatch.setattr(evaluation.entrants, "make_policy", lambda name, *a: Drainer()
                        if name == "drainer" else real(name, *a))
    spec = envs.registry["amongus"]
    assert resolve("drainer", spec, AMONGUS4).roles == ("impostor",)
    assert resolve("heuristic", spec, AMONGUS4).roles == ("crew", "impostor")
    with pytest.raises(ValueError, match="plays \\['impostor'\\], not crew"):
        cross_play("amongus", {"crew": ["drainer"], "impostor": ["random"]}, 10, **AMONGUS4)


def test_within_a_lineup_each_policy_is_compared_with_the_first_on_paired_deals():
    result = cross_play("amongus", {"crew": ["heuristic"],
                                    "impostor": ["heuristic", "h2@heuristic", "random"]}, 64,
                        seed=2, workers=1)
    rows = {d["policy"]: d for d in result.paired_differences()}
    # a copy of the first policy: no difference, and an interval that still has width (Tango's
    # on no discordant deal: agreement on 64 deals is not certainty)
    lo, hi = rows["h2"]["interval95"]
    assert rows["h2"]["difference"] == 0.0 and lo == pytest.approx(-hi) and hi > 0.05
    assert rows["random"]["difference"] < 0 and rows["random"]["interval95"][1] < 0
    assert result.as_dict()["paired_differences"] == result.paired_differences()
