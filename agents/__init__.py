"""Policies: one batched interface for training, evaluation and play."""

from __future__ import annotations

import importlib

from envs.core.spec import GameSpec

from .policy import Policy, RandomPolicy

# game -> "module:Class" of its scripted player, which takes (spec, params)
HEURISTICS = {
    "amongus": "agents.amongus_heuristic:AmongUsHeuristic",
    "menace": "agents.menace_heuristic:MenaceHeuristic",
}


def make_policy(name: str, spec: GameSpec, params: dict, seed: int = 0) -> Policy:
    """A policy by name: ``random`` or ``heuristic``."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        if spec.name not in HEURISTICS:
            raise ValueError(f"no heuristic policy for {spec.name!r} yet")
        module, cls = HEURISTICS[spec.name].split(":")
        return getattr(importlib.import_module(module), cls)(spec, params)
    raise ValueError(f"unknown policy {name!r}; use 'random' or 'heuristic'")


__all__ = ["Policy", "RandomPolicy", "make_policy"]
