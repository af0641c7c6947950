"""Mixed-size training (``Args.table_sizes``): one seat network trained on games dealt at
several table sizes, each with its own engine, rollout, league and held-out curves; its
checkpoints record the sizes it met, play a size it never met, and resume; a single size
trains as it always did; what cannot be mixed is refused by name."""

import argparse
import dataclasses
from pathlib import Path

import pytest
import torch

import envs
from agents.checkpoint import CheckpointError, load_checkpoint
from agents.neural import load_policy
from agents.zoo import plays
from evaluation.match import play_match
from training.cli import args_from_namespace, register
from training.ppo import Args, games_per_table, train
from training.recipes import load

from .conftest import TINY

MIXED = dict(TINY, model="seats", hidden=(32, 32), table_sizes=(4, 6),
             scripted_opponents=("heuristic",), imitate="heuristic",
             imitation_steps=64 * 8 * 2, eval_every=2, eval_games=8,
             eval_opponents=("random",), tensorboard=True)


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory):
    """Two updates of Among Us at 4 and 6 players: warm start, league with a scripted player
    at each size, role head, held-out curves per size."""
    args = Args(out=str(tmp_path_factory.mktemp("mixed_run")), **MIXED)
    return args, train(args)


def test_each_table_size_gets_its_share_of_the_games():
    def split(num_envs, sizes, shares=()):
        return games_per_table(Args(num_envs=num_envs, num_players=sizes[0], model="seats",
                                    table_sizes=sizes, table_shares=shares))

    assert split(64, (4, 6)) == [32, 32]
    assert split(64, (4, 6), (1.0, 3.0)) == [16, 48]
    assert split(7, (4, 5, 6)) == [3, 2, 2]  # the remainder to the largest fractions
    assert games_per_table(Args(num_envs=64, num_players=6)) == [64]


def test_the_checkpoint_records_the_sizes_it_met(mixed_run):
    args, paths = mixed_run
    for team, path in paths.items():
        meta = load_checkpoint(path)["metadata"]
        assert meta["table_sizes"] == [4, 6]
        assert meta["params"]["num_players"] == 4  # the table it is checked at
        assert meta["steps"] == args.total_steps
        assert plays("amongus", 4, meta) == "every table size, 4 to 10 players (trained at 4, 6)"
    trainer = torch.load(paths["crew"].parent / "trainer.pt", weights_only=True)
    assert trainer["table_sizes"] == [4, 6] and list(trainer["pools"]) == [6]


def test_every_size_is_evaluated_and_logged_apart(mixed_run):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    args, _ = mixed_run
    for n in (4, 6):
        assert (Path(args.out) / f"players-{n}" / "curves.json").is_file()
    events = EventAccumulator(str(Path(args.out) / "tb"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    for n in (4, 6):
        assert f"tables/{n}p/selfplay_win_rate/crew" in tags
        assert f"tables/{n}p/game_length" in tags
        assert f"eval/impostor@{n}p_vs_random" in tags
    assert "charts/selfplay_win_rate/crew" in tags  # both sizes together


def test_a_mixed_checkpoint_plays_a_size_it_never_met(mixed_run):
    _, paths = mixed_run
    policies = {team: load_policy(paths[team], "amongus", team=team, num_players=5)
                for team in envs.registry["amongus"].teams}
    result = play_match("amongus", policies, num_games=4, num_envs=4, seed=5, num_players=5,
                        max_rounds=3)
    assert sum(result.wins.values()) + result.draws == 4


def test_a_mixed_run_resumes_at_its_sizes_and_no_others(mixed_run, tmp_path):
    args, paths = mixed_run
    run_dir = paths["crew"].parent
    resumed = dataclasses.replace(args, out=str(tmp_path / "again"), resume=str(run_dir),
                                  total_steps=args.total_steps + 64 * 8, eval_every=0,
                                  tensorboard=False)
    meta = load_checkpoint(train(resumed)["crew"])["metadata"]
    assert meta["steps"] == args.total_steps + 64 * 8 and meta["table_sizes"] == [4, 6]
    other = dataclasses.replace(resumed, out=str(tmp_path / "other"), table_sizes=(4, 5))
    with pytest.raises(CheckpointError, match=r"trained at table sizes \[4, 6\], not \[4, 5\]"):
        train(other)


def test_a_fixed_team_and_a_centralised_critic_play_at_every_size(tmp_path):
    """The Menace at 4 and 5: the fixed crew is a heuristic built for each size, the critic
    reads each size's god-view, and a pfsp league keeps the learner's scores per size."""
    args = Args(**{**TINY, "game": "menace", "out": str(tmp_path), "model": "seats",
                   "hidden": (32, 32), "table_sizes": (4, 5), "table_shares": (1.0, 3.0),
                   "fixed_teams": {"crew": "heuristic"}, "centralised_critic": True,
                   "league_sampling": "pfsp", "tensorboard": False})
    paths = train(args)
    meta = load_checkpoint(paths["menace"])["metadata"]
    assert meta["table_sizes"] == [4, 5] and meta["team_steps"] > 0
    trainer = torch.load(paths["menace"].parent / "trainer.pt", weights_only=True)
    assert list(trainer["pools"]) == [5]


def _weights(paths) -> dict:
    return {team: load_checkpoint(p)["model"] for team, p in paths.items()}


def test_one_listed_size_trains_as_a_single_size_run(tmp_path):
    """``table_sizes = (4,)`` is the single-size run: the same games, draws and weights."""
    base = dict(TINY, model="seats", hidden=(32, 32), scripted_opponents=("heuristic",))
    alone = _weights(train(Args(out=str(tmp_path / "a"), **base)))
    listed = _weights(train(Args(out=str(tmp_path / "b"), table_sizes=(4,), **base)))
    for team in alone:
        assert alone[team].keys() == listed[team].keys()
        for key in alone[team]:
            assert torch.equal(alone[team][key], listed[team][key]), (team, key)


@pytest.mark.parametrize("change,message", [
    ({"model": "mlp"}, r"table_sizes \[4, 6\]: a 'mlp' network reads one table size; mixed "
                       r"sizes need model 'seats'"),
    ({"model": "gru"}, "a 'gru' network reads one table size"),
    ({"table_sizes": (4, 11)}, r"amongus is played by 4 to 10 players, not \[11\]"),
    ({"table_sizes": (4, 6, 4)}, "names a table size twice"),
    ({"num_players": 6}, "num_players 6 must be the first of table_sizes"),
    ({"table_shares": (1.0,)}, "table_shares must give each of table_sizes"),
    ({"table_shares": (1.0, 0.0)}, "table_shares must give each of table_sizes"),
    ({"num_envs": 1}, "cannot give each of table_sizes"),
])
def test_what_cannot_be_mixed_is_refused_by_name(change, message):
    with pytest.raises(ValueError, match=message):
        Args(**{**MIXED, **change}).check()
    with pytest.raises(ValueError, match="table_shares .* needs table_sizes"):
        Args(num_players=4, table_shares=(1.0, 1.0)).check()


def test_the_command_line_and_a_recipe_name_several_sizes(tmp_path):
    parser = argparse.ArgumentParser().add_subparsers()
    ns = register(parser).parse_args(["amongus", "--model", "seats", "--players", "4,6",
                                      "--table-shares", "1,2"])
    args = args_from_namespace(ns)
    assert (args.num_players, args.table_sizes, args.table_shares) == (4, (4, 6), (1.0, 2.0))
    one = args_from_namespace(register(argparse.ArgumentParser().add_subparsers())
                              .parse_args(["amongus", "--players", "5"]))
    assert (one.num_players, one.table_sizes) == (5, ())
    with pytest.raises(SystemExit):
        register(argparse.ArgumentParser().add_subparsers()).parse_args(
            ["amongus", "--players", "4,six"])
    recipe = tmp_path / "mixed.toml"
    text = ('game = "amongus"\nplayers = {}\nsteps = 1000\n[trainer]\nmodel = "seats"\n'
            '[score]\nplay = "sampled"\n')
    recipe.write_text(text.format("[4, 5, 6]"))
    args = load(str(recipe)).args(seed=1, out=tmp_path)
    assert (args.num_players, args.table_sizes) == (4, (4, 5, 6))
    for players, message in [("[]", "players: an empty list"),
                             ("[4, 4]", "names a table size twice"),
                             ("[4, 12]", "not \\[12\\]")]:
        recipe.write_text(text.format(players))
        with pytest.raises(ValueError, match=message):
            load(str(recipe))
