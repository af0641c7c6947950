"""Policies: one batched interface for training, evaluation and play."""

from __future__ import annotations

import importlib
from pathlib import Path

from envs.core.spec import GameSpec

from . import zoo
from .outside import is_outside, outside_policy
from .policy import Policy, RandomPolicy

# (game, name) -> "module:Class" of a scripted player, which takes (spec, params)
SCRIPTED = {
    ("amongus", "heuristic"): "agents.amongus_heuristic:AmongUsHeuristic",
    ("amongus", "chain"): "agents.amongus_chain:AmongUsChain",
    ("maniacal", "heuristic"): "agents.maniacal_heuristic:ManiacalHeuristic",
    ("menace", "heuristic"): "agents.menace_heuristic:MenaceHeuristic",
    ("menace", "drain"): "agents.menace_drain:MenaceDrain",
}


def policy_names(game: str) -> list[str]:
    """Every policy of ``game`` that needs no file: ``random`` and its scripted players."""
    return ["random"] + sorted(n for g, n in SCRIPTED if g == game)


def scripted(path: str, spec: GameSpec, params: dict) -> Policy:
    """The scripted player ``module:Class`` (a ``SCRIPTED`` value, or a bot's ``exploit``)."""
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)(spec, params)


def make_policy(name: str, spec: GameSpec, params: dict, seed: int = 0) -> Policy:
    """A policy by name: ``random``, a scripted player of the game (``heuristic``; Among Us
    also ``chain``, the Menace also ``drain``), the path of a trained checkpoint, a shipped one
    ``zoo:NAME`` (``agents.zoo``), an outside policy ``py:module:attr`` (``agents.outside``), or a
    language model ``llm:MODEL@BASE_URL`` (``agents.text.llm``)."""
    if zoo.is_zoo(name):
        name = str(zoo.path(name))
    if Path(name).suffix == ".pt":
        from .neural import load_policy

        return load_policy(name, game=spec.name, seed=seed, **params)
    if name == "random":
        return RandomPolicy(seed)
    if is_outside(name):
        return outside_policy(name, spec, params, seed)
    if name.startswith("llm:"):
        from .text.llm import LLMPolicy

        return LLMPolicy(name, spec, params, seed)
    if (spec.name, name) in SCRIPTED:
        return scripted(SCRIPTED[spec.name, name], spec, params)
    names = policy_names(spec.name)
    games = sorted(g for g, n in SCRIPTED if n == name)
    if games:
        raise ValueError(f"policy {name!r} plays {games}, not {spec.name!r}; it has {names}")
    raise ValueError(f"unknown policy {name!r}; {spec.name} has {names}, zoo:NAME "
                     f"({', '.join(zoo.names(spec.name)) or 'none shipped'}), a .pt checkpoint or "
                     f"py:MODULE:ATTR or llm:MODEL@BASE_URL")


__all__ = ["Policy", "RandomPolicy", "make_policy", "policy_names", "scripted"]
