"""Policies: one batched interface for training, evaluation and play."""

from __future__ import annotations

import importlib
from pathlib import Path

from envs.core.spec import GameSpec

from .policy import Policy, RandomPolicy

# game -> "module:Class" of its scripted player, which takes (spec, params)
HEURISTICS = {
    "amongus": "agents.amongus_heuristic:AmongUsHeuristic",
    "maniacal": "agents.maniacal_heuristic:ManiacalHeuristic",
    "menace": "agents.menace_heuristic:MenaceHeuristic",
}


def make_policy(name: str, spec: GameSpec, params: dict, seed: int = 0) -> Policy:
    """A policy by name: ``random``, ``heuristic``, or the path of a trained checkpoint."""
    if Path(name).suffix == ".pt":
        from .neural import load_policy

        return load_policy(name, game=spec.name, seed=seed, **params)
    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        if spec.name not in HEURISTICS:
            raise ValueError(f"no heuristic policy for {spec.name!r} yet")
        module, cls = HEURISTICS[spec.name].split(":")
        return getattr(importlib.import_module(module), cls)(spec, params)
    raise ValueError(f"unknown policy {name!r}; use 'random', 'heuristic' or a .pt checkpoint")


__all__ = ["Policy", "RandomPolicy", "make_policy"]
