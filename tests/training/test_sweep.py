"""Recipes as files and sweeps over seeds: every option from the file, the budget in steps,
each seed scored on held-out members only, resumable, the same scores through Ray."""

import importlib.util
import json

import numpy as np
import pytest

from evaluation.cli import main
from training.recipes import load
from training.sweep import aggregate, iqm, sweep

TINY = '''
name = "tiny"
game = "menace"
players = 5
steps = 1024

[trainer]
num_envs = 64
num_steps = 8
imitation_steps = 2048
imitate_also = ["drain"]
eval_every = 0
hidden = [32, 32]

[score]
seeds = [1_000_003]
games = 24
'''


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


@pytest.mark.parametrize("name", ["menace5", "amongus6", "maniacal4"])
def test_each_published_recipe_loads_into_the_trainers_arguments(name):
    recipe = load(name)
    args = recipe.args(seed=1, out="runs/x")
    assert args.total_steps == recipe.steps and args.seconds is None
    assert args.recipe == recipe.label and recipe.label.startswith(f"{name}@sha256:")
    for key, value in recipe.trainer.items():
        assert getattr(args, key) == value


@pytest.mark.parametrize("text,message", [
    ("[trainer]\nseconds = 10\n", "never wall time"),
    ("[trainer]\nlearning_rte = 0.1\n", "not a training.ppo.Args field"),
    ("[trainer]\nseed = 3\n", "not in \\[trainer\\]"),
    ("[trainer]\nhidden = \"wide\"\n", "expected tuple"),
    ("[score]\nseeds = []\n", "non-empty list"),
    ("[score]\npopulation = \"v9\"\n", "unknown population"),
    ("colour = 1\n", "unknown key"),
])
def test_a_bad_recipe_is_refused_naming_the_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text('game = "menace"\nplayers = 5\nsteps = 100\n' + text)
    with pytest.raises(ValueError, match=message):
        load(str(path))


def test_train_by_recipe_records_it_and_refuses_other_trainer_options(tiny, tmp_path, capsys):
    assert main(["train", "--recipe", str(tiny), "--lr", "0.1"]) == 2
    assert "also given: --lr" in capsys.readouterr().err
    assert main(["train", "--recipe", str(tiny), "--seed", "1000003"]) == 2
    assert "scoring seeds" in capsys.readouterr().err
    out = tmp_path / "run"
    assert main(["--quiet", "train", "--recipe", str(tiny), "--seed", "2", "--out", str(out),
                 "--no-tensorboard", "--quiet"]) == 0
    from agents.checkpoint import load_checkpoint

    crew = sorted(out.glob("checkpoints/*/crew.pt"))[-1]
    assert load_checkpoint(crew)["metadata"]["args"]["recipe"] == load(str(tiny)).label


def test_a_sweep_scores_held_out_members_aggregates_and_resumes(tiny, tmp_path):
    out = tmp_path / "sweep"
    result = sweep(str(tiny), [1, 2], out)
    assert [s["seed"] for s in result["seeds"]] == [1, 2]
    for s in result["seeds"]:
        crew = s["teams"]["crew"]
        assert crew["excluded"] == ["drain", "heuristic"]  # imitated: not held out
        names = [m["name"] for m in crew["benchmarks"][0]["members"]]
        assert "drain" not in names and "heuristic" not in names and "saboteur" in names
    agg = result["aggregate"]["crew"]
    assert agg["seeds"] == 2 and 0 <= agg["seeds_better"] <= 2
    assert agg["interval"].startswith("95%")  # each seed kept its per-deal outcomes
    assert np.shape(result["seeds"][0]["teams"]["crew"]["per_deal"]["mean"]) == (1, 24)
    assert (out / "results.md").read_text().count("| 1 |") == 2  # seed 1's row, per team
    assert (out / "results.png").stat().st_size > 0
    stamp = (out / "seed-1" / "score.json").stat().st_mtime_ns
    again = sweep(str(tiny), [1, 2, 3], out)  # one more seed: only it is trained
    assert (out / "seed-1" / "score.json").stat().st_mtime_ns == stamp
    assert again["seeds"][:2] == json.loads(json.dumps(result["seeds"]))


def test_iqm_and_the_aggregate():
    assert iqm(np.array([0.0, 1.0, 2.0, 3.0, 100.0])) == pytest.approx(2.0)
    assert iqm(np.array([1.0, 3.0])) == 2.0
    rows = [{"teams": {"crew": {"mean": m, "gain": g, "reference_mean": 0.4,
                                "lower_is_better": False}}}
            for m, g in ((0.5, 0.1), (0.6, 0.2), (0.3, -0.1))]
    agg = aggregate(rows)["crew"]
    assert agg["seeds_better"] == 2
    assert agg["iqm_gain_interval"][0] <= agg["iqm_gain"] <= agg["iqm_gain_interval"][1]


def test_a_sweep_without_per_deal_outcomes_shows_the_seeds_range_and_says_so():
    rows = [{"teams": {"crew": {"mean": 0.5, "gain": g, "reference_mean": 0.4,
                                "lower_is_better": False}}} for g in (0.1, 0.2, -0.1)]
    agg = aggregate(rows)["crew"]
    assert agg["iqm_gain_interval"] == [-0.1, 0.2]
    assert "not a 95% interval" in agg["interval"]


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray is an optional extra (pip install 'hiddendeck[ray]')")
def test_a_sweep_on_a_local_ray_instance_scores_each_seed_as_local_workers_do(tiny, tmp_path):
    local = sweep(str(tiny), [1], tmp_path / "local")
    on_ray = sweep(str(tiny), [1], tmp_path / "ray", ray_address="local")

    def scores(result):
        return [{t: (r["mean"], r["gain"]) for t, r in s["teams"].items()}
                for s in result["seeds"]]
    assert scores(on_ray) == scores(local)
