"""Every game of the suite, by name: ``registry`` maps a name to its spec."""

from __future__ import annotations

import importlib

from .engine import GameDef, VecEnv

# name -> module that defines GAME; imported on first use so that listing specs stays cheap.
_MODULES = {
    "amongus": "envs.amongus.game",
    "maniacal": "envs.maniacal.game",
    "menace": "envs.menace.game",
}
_GAMES: dict[str, GameDef] = {}


def game(name: str) -> GameDef:
    if name not in _MODULES:
        raise ValueError(f"unknown game {name!r}; registered games are {sorted(_MODULES)}")
    if name not in _GAMES:
        _GAMES[name] = importlib.import_module(_MODULES[name]).GAME
    return _GAMES[name]


def package_of(name: str) -> str:
    """The package of a game's modules (``envs.menace``): its ``limits`` module lives there."""
    return _MODULES[name].rpartition(".")[0] if name in _MODULES else f"envs.{name}"


class _Registry(dict):
    """A read-only view ``{name: GameSpec}`` that loads each game module on first access."""

    def __missing__(self, name):
        return game(name).spec

    def __iter__(self):
        return iter(sorted(_MODULES))

    def __len__(self):
        return len(_MODULES)

    def __contains__(self, name):
        return name in _MODULES

    def keys(self):
        return sorted(_MODULES)

    def items(self):
        return [(n, game(n).spec) for n in sorted(_MODULES)]

    def values(self):
        return [game(n).spec for n in sorted(_MODULES)]


registry = _Registry()


def make_vec(name: str, num_envs: int, seed: int = 0, first_index: int = 0, **params) -> VecEnv:
    """``num_envs`` games of ``name`` with the given parameters, game i seeded by (seed, i)."""
    return VecEnv(game(name), num_envs, seed=seed, first_index=first_index, **params)
