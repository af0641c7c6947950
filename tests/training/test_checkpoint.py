"""Checkpoints: round trip, resume, and clear errors for the wrong game or a damaged file."""

import dataclasses
import json

import numpy as np
import pytest
import torch

import envs
from agents.checkpoint import CheckpointError, load_checkpoint, save_policy
from agents.neural import NeuralPolicy, load_policy
from agents.policy import RandomPolicy
from evaluation.play import opponent_policies
from training.ppo import Args, build_run, latest_checkpoint, train
from training.run_checkpoint import seen_in_training

from .conftest import TINY


def test_run_writes_complete_checkpoints_with_metadata(tiny_run):
    args, paths = tiny_run
    assert set(paths) == {"crew", "impostor"}
    step_dir = paths["crew"].parent
    assert sorted(p.name for p in step_dir.iterdir()) == ["crew.pt", "impostor.pt", "trainer.pt"]
    assert not [p for p in step_dir.parent.iterdir() if p.name.startswith(".")]  # no leftovers
    meta = load_checkpoint(paths["impostor"])["metadata"]
    spec = envs.registry["amongus"]
    params = spec.resolve(num_players=4)
    assert meta["game"] == "amongus" and meta["team"] == "impostor"
    assert meta["version"] == spec.version and meta["params"] == params
    assert meta["observation_fingerprint"] == spec.observation_layout(params).fingerprint()
    assert meta["steps"] == args.total_steps and meta["seed"] == args.seed
    json.dumps(meta)  # plain data throughout


def test_loaded_policy_is_the_trained_actor(tiny_run):
    _, paths = tiny_run
    policy = load_policy(paths["crew"], "amongus", team="crew", greedy=True, num_players=4)
    assert isinstance(policy, NeuralPolicy)
    saved = load_checkpoint(paths["crew"])["model"]
    for name, tensor in policy.model.state_dict().items():
        assert torch.equal(tensor, saved[name])
    env = envs.make_vec("amongus", 32, seed=5, num_players=4)
    actions = policy.act(env.observation, env.action_mask)
    assert actions.dtype == np.int64 and env.action_mask[np.arange(32), actions].all()
    env.step(actions)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda p: load_policy(p, "amongus", num_players=5),
         r"num_players: checkpoint 4 vs requested 5"),
        (lambda p: load_policy(p, "amongus", num_players=4, max_rounds=7), r"max_rounds"),
        (lambda p: load_policy(p, "menace"), r"trained for game 'amongus', not 'menace'"),
        (lambda p: load_policy(p, "amongus", team="impostor", num_players=4), r"team 'crew'"),
    ],
)
def test_mismatch_names_the_difference(tiny_run, call, message):
    _, paths = tiny_run
    with pytest.raises(CheckpointError, match=message):
        call(paths["crew"])


@pytest.mark.parametrize(
    "field, value, message",
    [("version", 99, "version 99"), ("observation_fingerprint", "0" * 16, "fingerprint")],
)
def test_changed_game_is_refused(tiny_run, tmp_path, field, value, message):
    _, paths = tiny_run
    ckpt = load_checkpoint(paths["crew"])
    ckpt["metadata"][field] = value
    path = save_policy(tmp_path / "edited.pt", ckpt["metadata"], ckpt["model"])
    with pytest.raises(CheckpointError, match=message):
        load_policy(path, "amongus", num_players=4)


def test_corrupt_or_foreign_files_give_a_clear_error(tiny_run, tmp_path):
    _, paths = tiny_run
    data = paths["crew"].read_bytes()
    (tmp_path / "truncated.pt").write_bytes(data[: len(data) // 2])
    (tmp_path / "garbage.pt").write_bytes(b"not a checkpoint at all")
    torch.save({"weights": torch.zeros(3)}, tmp_path / "foreign.pt")
    for name, message in [("truncated.pt", "corrupt"), ("garbage.pt", "corrupt"),
                          ("foreign.pt", "not a hiddendeck-policy"), ("missing.pt", "no such")]:
        with pytest.raises(CheckpointError, match=message):
            load_policy(tmp_path / name)


def test_resume_continues_counters_and_weights(tiny_run, tmp_path):
    args, paths = tiny_run
    run_dir = paths["crew"].parent.parent.parent
    resumed = dataclasses.replace(args, out=str(tmp_path), resume=str(run_dir),
                                  total_steps=args.total_steps + 64 * 8)
    new_paths = train(resumed)
    meta = load_checkpoint(new_paths["crew"])["metadata"]
    assert meta["steps"] == args.total_steps + 64 * 8
    assert latest_checkpoint(tmp_path) == new_paths["crew"].parent


def test_a_run_resumed_at_its_budget_trains_nothing_and_returns_its_final_checkpoints(
        tiny_run, tmp_path):
    """Audit M4: a run killed after its last checkpoint (a sweep killed while scoring) used
    to train one more update on its rerun, past the budget, and score that instead."""
    args, paths = tiny_run
    run_dir = paths["crew"].parent.parent.parent
    before = sorted(p.name for p in (run_dir / "checkpoints").iterdir())
    again = train(dataclasses.replace(args, resume=str(run_dir)))
    assert again == paths
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == before


def test_resume_keeps_the_record_of_what_the_run_met(tiny_run, tmp_path):
    """A run that met a scripted opponent, resumed with other options (none), still says it
    met it: a report must not call that opponent held out."""
    args, paths = tiny_run
    steps = args.total_steps + 64 * 8
    met = dataclasses.replace(args, out=str(tmp_path / "a"), resume=str(paths["crew"].parent),
                              total_steps=steps, scripted_opponents=("random",))
    first = train(met)
    again = dataclasses.replace(args, out=str(tmp_path / "b"), resume=str(first["crew"].parent),
                                total_steps=steps + 64 * 8)
    meta = load_checkpoint(train(again)["crew"])["metadata"]
    assert meta["args"]["scripted_opponents"] == [] and meta["args"]["seen_before"] == ["random"]
    assert seen_in_training(meta["args"]) == {"random"}


def test_what_a_run_met_is_named_as_the_population_names_it():
    args = {"scripted_opponents": ["saboteur@py:agents.menace_drain:MenaceSaboteur", "drain"],
            "imitate": "heuristic", "imitate_also": ["careful@py:agents.menace_drain:X"],
            "fixed_teams": {"crew": "runs/a/crew.pt"}}
    assert seen_in_training(args) == {"saboteur", "drain", "heuristic", "careful", "crew.pt"}


def test_resume_applies_the_new_learning_rate(tiny_run, tmp_path):
    """The optimiser's saved state holds the old rate; ``--resume --lr X`` means X."""
    args, paths = tiny_run
    run_dir = paths["crew"].parent.parent.parent
    resumed = dataclasses.replace(args, out=str(tmp_path), resume=str(run_dir),
                                  total_steps=args.total_steps + 64 * 8, learning_rate=1e-5,
                                  anneal_lr=False)
    new_paths = train(resumed)
    saved = load_checkpoint(new_paths["crew"])["optimizer"]["param_groups"][0]["lr"]
    assert saved == pytest.approx(1e-5)


def test_a_diverging_run_stops_with_a_clear_error_and_writes_nothing(tiny_run, tmp_path):
    args, _ = tiny_run
    bad = dataclasses.replace(args, out=str(tmp_path), learning_rate=1e30, anneal_lr=False,
                              max_grad_norm=1e30)
    with pytest.raises(ValueError, match="non-finite"):
        train(bad)
    assert not (tmp_path / "checkpoints").exists()


def test_resume_refuses_another_setup(tiny_run, tmp_path):
    args, paths = tiny_run
    for change, message in [({"num_players": 5}, "num_players"), ({"hidden": (32,)}, "model")]:
        bad = dataclasses.replace(args, out=str(tmp_path), resume=str(paths["crew"].parent),
                                  **change)
        with pytest.raises(CheckpointError, match=message):
            train(bad)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        train(Args(game="chess"))
    with pytest.raises(ValueError, match="num_envs"):
        train(Args(num_envs=0))
    with pytest.raises(ValueError, match="opponent_share"):
        train(Args(opponent_share=1.5))
    for field, value in [("ent_coef", float("nan")), ("seconds", float("nan")), ("seed", -1),
                         ("learning_rate", float("inf"))]:
        with pytest.raises(ValueError, match=field):
            train(Args(**{field: value}))
    with pytest.raises(ValueError, match=r"vary\['max_rounds'\] must be \(low, high\)"):
        train(Args(vary={"max_rounds": (30, 5)}))
    with pytest.raises(ValueError, match=r"max_rounds 31 is outside \[1, 30\]"):
        train(Args(vary={"max_rounds": (5, 31)}, imitate=None))


def test_vary_spreads_round_limits_over_the_training_games_only():
    run = build_run(Args(**{**TINY, "vary": {"max_rounds": (5, 7)}}))
    assert list(run.env.records["max_rounds"][:7]) == [5, 6, 7, 5, 6, 7, 5]
    assert run.env.params["max_rounds"] == 30  # the game as given, for held-out curves


def test_play_opponents_give_each_team_its_own_policy(tiny_run):
    _, paths = tiny_run
    spec, params = envs.registry["amongus"], envs.registry["amongus"].resolve(num_players=4)
    # a bare checkpoint plays the team it was trained for; a bare name every other team
    policies = opponent_policies([str(paths["impostor"]), "random"], spec, params)
    assert isinstance(policies["impostor"], NeuralPolicy)
    assert isinstance(policies["crew"], RandomPolicy)
    policies = opponent_policies(["crew=" + str(paths["crew"])], spec, params)
    assert isinstance(policies["crew"], NeuralPolicy)
    assert type(policies["impostor"]).__name__ == "AmongUsHeuristic"
    with pytest.raises(ValueError, match="no team 'menace' in amongus"):
        opponent_policies(["menace=heuristic"], spec, params)
    with pytest.raises(ValueError, match="is for team 'impostor', not 'crew'"):
        opponent_policies(["crew=" + str(paths["impostor"])], spec, params)
