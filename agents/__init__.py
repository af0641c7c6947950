"""Policies: one batched interface for training, evaluation and play."""

from __future__ import annotations

import importlib
from pathlib import Path

from envs.core.spec import GameSpec

from .policy import Policy, RandomPolicy

# game -> {name: "module:Class"}: its scripted players, each taking (spec, params). "heuristic"
# plays either side; the others are exploits a reference bot must hold against, each written
# for one team (its class's `team`).
SCRIPTED = {
    "amongus": {"heuristic": "agents.amongus_heuristic:AmongUsHeuristic"},
    "menace": {
        "heuristic": "agents.menace_heuristic:MenaceHeuristic",
        "drain": "agents.menace_drain:MenaceDrain",
    },
}


def scripted_class(game: str, name: str) -> type:
    """The class of a scripted player by its name, with a clear error if the game lacks it."""
    players = SCRIPTED.get(game, {})
    if name not in players:
        have = ", ".join(repr(p) for p in players) or "none"
        raise ValueError(f"no scripted policy {name!r} for {game!r}; its scripted policies: {have}")
    module, cls = players[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make_policy(name: str, spec: GameSpec, params: dict, seed: int = 0) -> Policy:
    """A policy by name: ``random``, a scripted player of the game (``heuristic``, and for
    some games an exploit such as the Menace's ``drain``), or a trained checkpoint's path."""
    if Path(name).suffix == ".pt":
        from .neural import load_policy

        return load_policy(name, game=spec.name, seed=seed, **params)
    if name == "random":
        return RandomPolicy(seed)
    if any(name in players for players in SCRIPTED.values()):
        return scripted_class(spec.name, name)(spec, params)
    known = sorted({p for players in SCRIPTED.values() for p in players})
    raise ValueError(
        f"unknown policy {name!r}; use 'random', a scripted policy ({', '.join(known)}) "
        "or a .pt checkpoint"
    )


__all__ = ["Policy", "RandomPolicy", "SCRIPTED", "make_policy", "scripted_class"]
