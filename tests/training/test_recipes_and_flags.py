"""Every ``training.ppo.Args`` field has a way in: a key of a recipe's ``[trainer]`` table, a
flag of ``hiddendeck train``, or the run itself. A field that nothing sets is dead weight (two
were, before issue 32's clean-up), and one the recipe format cannot express is an option no
published result can use."""

import argparse
import dataclasses
import json

import pytest

from training import recipes
from training.cli import register
from training.ppo import Args

# the fields a recipe's [trainer] refuses (recipes.NOT_IN_TRAINER), and where each is set
ELSEWHERE = {
    "game": ("game", "GAME"),
    "num_players": ("players", "--players"),
    "table_sizes": ("players", "--players"),  # several: players = [4, 5, 6], --players 4,5,6
    "params": ("params", "--param"),
    "total_steps": ("steps", "--steps"),
    "seconds": (None, "--seconds"),
    "seed": (None, "--seed"),
    "out": (None, "--out"),
    "threads": (None, "--threads"),
    "device": (None, "--device"),
    "resume": (None, "--resume"),
    "progress": (None, "--quiet"),
    "tensorboard": (None, "--no-tensorboard"),
    "recipe": (None, "--recipe"),
    "seen_before": (None, None),  # set on --resume from the resumed checkpoint, never by hand
}


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        assert not value, "a default dict is empty"
        return "{}"
    if isinstance(value, str):
        return json.dumps(value)
    if value is None:  # TOML has no null: a field that may be None reads "none" as None
        return '"none"'
    return repr(value)


def _write(path, trainer: dict) -> None:
    lines = ['game = "amongus"', "players = 6", "steps = 4096", "[trainer]"]
    score = ["[score]", 'play = "sampled"']
    path.write_text("\n".join(lines + [f"{k} = {_toml(v)}" for k, v in trainer.items()] + score)
                    + "\n")


def test_every_field_a_recipe_refuses_is_set_by_the_recipes_top_or_a_flag():
    assert set(ELSEWHERE) == recipes.NOT_IN_TRAINER
    assert set(ELSEWHERE) <= {f.name for f in dataclasses.fields(Args)}
    parser = register(argparse.ArgumentParser().add_subparsers())
    flags = {s for action in parser._actions for s in action.option_strings}
    for field, (top, flag) in ELSEWHERE.items():
        assert top is None or top in recipes.TOP, field
        assert flag is None or flag == "GAME" or flag in flags, field


def test_a_recipe_can_write_every_other_field_and_reads_back_the_defaults(tmp_path):
    defaults = Args()
    trainer = {f.name: getattr(defaults, f.name) for f in dataclasses.fields(Args)
               if f.name not in recipes.NOT_IN_TRAINER}
    _write(tmp_path / "all.toml", trainer)
    recipe = recipes.load(str(tmp_path / "all.toml"))
    assert set(recipe.trainer) == set(trainer)
    args = recipe.args(seed=1, out=tmp_path / "run")
    assert args == Args(game="amongus", num_players=6, params=recipe.params, seed=1,
                        out=str(tmp_path / "run"), total_steps=4096, recipe=recipe.label)


@pytest.mark.parametrize("key,value", [
    ("gamma", 0.995), ("gamma", 1), ("gae_lambda", 0.9), ("clip_coef", 0.1), ("vf_coef", 1.0),
    ("max_grad_norm", 1.0), ("num_minibatches", 8), ("norm_adv", False), ("clip_vloss", True),
    ("scripted_share", 0.25),
])
def test_the_options_without_a_flag_are_set_in_a_recipe(tmp_path, key, value):
    _write(tmp_path / "r.toml", {key: value})
    args = recipes.load(str(tmp_path / "r.toml")).args(seed=1, out=tmp_path / "run")
    assert getattr(args, key) == value and type(getattr(args, key)) is type(getattr(Args(), key))


def test_a_recurrent_actor_is_set_in_a_recipe_with_or_without_a_warm_start(tmp_path):
    _write(tmp_path / "gru.toml", {"model": "gru", "imitate": "none"})
    args = recipes.load(str(tmp_path / "gru.toml")).args(seed=1, out=tmp_path / "run")
    assert (args.model, args.imitate) == ("gru", None)
    _write(tmp_path / "warm.toml", {"model": "gru"})  # a GRU imitates whole seat trajectories
    args = recipes.load(str(tmp_path / "warm.toml")).args(seed=1, out=tmp_path / "run")
    assert (args.model, args.imitate) == ("gru", "heuristic")
