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
         "--param", "max_rounds=20", "--hidden", "32,16", "--centralised-critic",
         "--team-hidden", "impostor=128,64", "--team-teacher-until", "impostor=0.5",
         "--team-train-until", "crew=0.7", "--vary", "max_rounds=5:20"]
    ))
    assert (args.game, args.num_players, args.total_steps, args.seed, args.out) == (
        "amongus", 5, 1000, 3, "x")
    assert args.params == {"max_rounds": 20} and args.hidden == (32, 16)
    assert args.vary == {"max_rounds": (5, 20)}
    assert args.team_hidden == {"impostor": (128, 64)}
    assert args.team_teacher_until == {"impostor": 0.5}
    assert args.team_train_until == {"crew": 0.7}
    assert args.centralised_critic
    timed = args_from_namespace(parse(["train", "amongus", "--seconds", "60"]))
    assert timed.total_steps is None and timed.seconds == 60
    recipe = args_from_namespace(parse(["train", "amongus", "--imitate", "none", "--eval-opponent",
                                        "random", "--eval-every", "0", "--ent-coef-final", "0"]))
    assert recipe.imitate is None and recipe.eval_opponents == ("random",)
    mixed = args_from_namespace(parse(["train", "amongus", "--imitate-also", "chain"]))
    assert mixed.imitate == "heuristic" and mixed.imitate_also == ("chain",)
    assert recipe.eval_every == 0 and recipe.ent_coef_final == 0
    warm = args_from_namespace(parse(["train", "maniacal", "--imitation-epochs", "8",
                                      "--imitation-lr", "0.002", "--imitation-share", "0.3"]))
    assert (warm.imitation_epochs, warm.imitation_lr, warm.imitation_share) == (8, 0.002, 0.3)


@pytest.mark.parametrize("game,players", [("amongus", 6), ("maniacal", 4), ("menace", 6)])
def test_without_players_a_run_sits_the_games_own_table_size(game, players):
    # not one default for every game: MANIACAL seats 2 to 5, and 6 was refused
    assert args_from_namespace(parse(["train", game])).num_players == players


def test_bad_arguments_exit_with_a_message(capsys):
    with pytest.raises(SystemExit):
        parse(["train", "amongus", "--param", "max_rounds"])
    assert "NAME=VALUE" in capsys.readouterr().err
    assert main(["train", "amongus", "--players", "11", "--steps", "10", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hiddendeck: ") and "num_players" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv,message", [
    (["--ent-coef", "nan"], "finite"),
    (["--seconds", "nan"], "finite"),
    (["--seconds", "-5"], "> 0"),
    (["--seconds", "0"], "> 0"),
    (["--seed", "-1"], "in [0, 2**63)"),
    (["--lr", "inf"], "finite"),
    (["--team-hidden", "crew"], "TEAM=WIDTHS"),
    (["--team-hidden", "crew=64,x"], "widths like"),
    (["--hidden", "1073741824,64"], "wider than 8,192"),
    (["--team-hidden", "crew=64,9000"], "wider than 8,192"),
    (["--team-teacher-until", "crew=-1"], "> 0"),
    (["--vary", "max_rounds=5"], "NAME=LOW:HIGH"),
    (["--vary", "max_rounds=a:b"], "NAME=LOW:HIGH"),
])
def test_nonsense_numbers_are_refused_when_parsing(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(["train", "amongus", "--quiet", *argv])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("hiddendeck: ") and err.count("\n") == 1
    assert message in err


def test_out_naming_a_file_is_one_line(tmp_path, capsys):
    file = tmp_path / "taken"
    file.write_text("keep me")
    assert main(["train", "amongus", "--steps", "10", "--quiet", "--out", str(file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hiddendeck: ") and "not a directory" in err and err.count("\n") == 1
    assert file.read_text() == "keep me"


def test_train_teams_returns_loadable_checkpoints(tmp_path):
    paths = train_teams("amongus", 4, tmp_path, steps=512, seed=1, num_envs=64, num_steps=8,
                        tensorboard=True, progress=False, centralised_critic=True,
                        imitation_steps=512, eval_games=32)
    assert set(paths) == {"crew", "impostor"}
    assert list((tmp_path / "tb").iterdir())  # TensorBoard events were written
    assert (tmp_path / "curves.png").stat().st_size > 0  # the held-out curves, at the end
    policy = load_policy(paths["impostor"], "amongus", team="impostor", num_players=4)
    assert policy.metadata["model"]["critic_input_size"] > policy.metadata["model"][
        "observation_size"]
    with pytest.raises(ValueError, match="total_steps, seconds"):
        train_teams("amongus", 4, tmp_path)


def test_held_out_references_default_to_random_and_every_scripted_player():
    from agents import policy_names
    from training.ppo import Args

    assert Args().eval_opponents == ()  # train() then scores against policy_names(game)
    assert policy_names("menace") == ["random", "drain", "heuristic"]
    assert policy_names("amongus") == ["random", "chain", "heuristic"]
