"""Recipes as files and sweeps over seeds: every option from the file, the budget in steps,
each seed scored on held-out members only, resumable, the same scores through Ray."""

import importlib.util
import json
import os
import stat

import numpy as np
import pytest

from evaluation.cli import main
from training.recipes import load
from training.sweep import _atomic_json, aggregate, iqm, run_seed, sweep

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
play = "sampled"
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
    ("[trainer]\nhidden = [1_073_741_824, 1_073_741_824]\n", "hidden: a layer wider than 8,192"),
    ("[trainer]\nteam_hidden = { crew = [64, 100_000] }\n", "team_hidden: a layer wider"),
    ('name = "tiny\\u001b[2J"\n', "name: expected one line of printable text"),
    ('description = "a\\nb"\n', "description: expected one line of printable text"),
])
def test_a_bad_recipe_is_refused_naming_the_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    score = 'play = "sampled"\n' if text.startswith("[score]") else '[score]\nplay = "sampled"\n'
    path.write_text('game = "menace"\nplayers = 5\nsteps = 100\n' + text + score)
    with pytest.raises(ValueError, match=message):
        load(str(path))


@pytest.mark.parametrize("score", ["", "[score]\n", '[score]\nplay = "best"\n'])
def test_a_recipe_says_how_its_checkpoints_are_scored_before_its_sweep(tmp_path, score):
    """Sampled or greedy changes a hidden-role policy's score: decided in the file, not after."""
    path = tmp_path / "unsaid.toml"
    path.write_text('game = "menace"\nplayers = 5\nsteps = 100\n' + score)
    with pytest.raises(ValueError, match="play: say how a checkpoint is scored"):
        load(str(path))
    path.write_text('game = "menace"\nplayers = 5\nsteps = 100\n[score]\nplay = "greedy"\n')
    assert load(str(path)).play == "greedy"


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


def test_a_seed_killed_at_any_stage_resumes_to_the_uninterrupted_steps_and_scores(
        tiny, tmp_path, monkeypatch):
    """Audit M4: a seed killed after its budget's checkpoint but before ``score.json`` trained
    one update more on the rerun and scored that. Killed during training, between training
    and scoring, then during scoring, the seed ends with the budget's checkpoint alone and the
    uninterrupted run's scores. (The tiny recipe checkpoints only at its budget's end, so the
    kill in training leaves nothing to resume and the rerun trains it afresh.)"""
    import training.rollout
    import training.sweep

    class Killed(Exception):
        pass

    def kill(*args, **kwargs):
        raise Killed

    benchmark, calls = training.sweep.benchmark, []

    def killed_at_second_team(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise Killed
        return benchmark(*args, **kwargs)

    straight, out = run_seed(str(tiny), 1, str(tmp_path / "straight")), tmp_path / "killed"
    for target, name, stub in [(training.rollout.Collector, "collect", kill),
                               (training.sweep, "score_run", kill),
                               (training.sweep, "benchmark", killed_at_second_team)]:
        with monkeypatch.context() as patched, pytest.raises(Killed):
            patched.setattr(target, name, stub)
            run_seed(str(tiny), 1, str(out))
    resumed = run_seed(str(tiny), 1, str(out))

    def steps(run):
        return sorted(p.name for p in (run / "seed-1" / "checkpoints").iterdir())

    def scores(score):
        return {team: {k: r[k] for k in ("mean", "worst", "reference_mean", "gain",
                                         "gain_interval")} for team, r in score["teams"].items()}
    assert steps(out) == steps(tmp_path / "straight") == ["step_000000001024"]
    assert scores(resumed) == scores(straight)


def test_sweep_results_get_the_mode_of_any_new_file(tmp_path):
    """Audit L4: ``mkstemp`` makes 0600; a shared results directory's readers need the umask's."""
    mask = os.umask(0o022)
    try:
        _atomic_json(tmp_path / "score.json", {"seed": 1})
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "score.json").stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["score.json"]


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


@pytest.mark.parametrize("trainer", ['scripted_opponents = ["py:os:abort"]',
                                     'imitate = "py:mybots:Teacher"',
                                     'fixed_teams = { crew = "py:mybots:Crew" }'])
def test_a_recipe_names_code_only_when_the_command_line_allows_it(tmp_path, capsys, trainer):
    """Audit L2: ``py:MODULE:ATTR`` imports and runs a module; a shared recipe file may not do
    that on its own. Refused on one line naming the recipe, the key and the flag."""
    path = tmp_path / "code.toml"
    path.write_text('game = "menace"\nplayers = 5\nsteps = 100\n[trainer]\n' + trainer
                    + '\n[score]\nplay = "sampled"\n')
    key = trainer.split(" ")[0]
    with pytest.raises(ValueError, match=f"code.toml: \\[trainer\\] {key}: 'py:.*' is code "
                                         f"to import and run.*--allow-code"):
        load(str(path))
    assert main(["sweep", str(path), "--seed-list", "1", "--out", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--allow-code" in err and not (tmp_path / "s").exists()
    if key == "scripted_opponents":  # allowed: loaded as written (and nothing run yet)
        assert load(str(path), allow_code=True).trainer[key] == ("py:os:abort",)
