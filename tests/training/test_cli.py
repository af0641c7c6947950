"""``hiddendeck train`` arguments and ``train_teams``."""

import argparse

import pytest

from agents.neural import load_policy
from training.cli import args_from_namespace, main, register, train_teams


def parse(argv):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_arguments_reach_the_trainer():
    args = args_from_namespace(parse(
        ["train", "amongus", "--players", "5", "--steps", "1000", "--seed", "3", "--out", "x",
         "--param", "max_rounds=20", "--hidden", "32,16", "--centralised-critic"]
    ))
    assert (args.game, args.num_players, args.total_steps, args.seed, args.out) == (
        "amongus", 5, 1000, 3, "x")
    assert args.params == {"max_rounds": 20} and args.hidden == (32, 16)
    assert args.centralised_critic
    timed = args_from_namespace(parse(["train", "amongus", "--seconds", "60"]))
    assert timed.total_steps is None and timed.seconds == 60


def test_bad_arguments_exit_with_a_message(capsys):
    with pytest.raises(SystemExit):
        parse(["train", "amongus", "--param", "max_rounds"])
    assert "NAME=VALUE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "amongus", "--players", "11", "--steps", "10", "--quiet"])
    assert "num_players" in capsys.readouterr().err


def test_train_teams_returns_loadable_checkpoints(tmp_path):
    paths = train_teams("amongus", 4, tmp_path, steps=512, seed=1, num_envs=64, num_steps=8,
                        tensorboard=True, progress=False, centralised_critic=True)
    assert set(paths) == {"crew", "impostor"}
    assert list((tmp_path / "tb").iterdir())  # TensorBoard events were written
    policy = load_policy(paths["impostor"], "amongus", team="impostor", num_players=4)
    assert policy.metadata["model"]["critic_input_size"] > policy.metadata["model"][
        "observation_size"]
    with pytest.raises(ValueError, match="total_steps, seconds"):
        train_teams("amongus", 4, tmp_path)
