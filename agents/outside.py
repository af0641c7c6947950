"""Policies from outside hiddendeck: ``py:module:attr`` wherever a policy is named.

``attr`` is either an object with ``act(observation, action_mask)`` or a factory (a class or a
function) returning one; a factory is called with whichever of ``spec``, ``params`` and
``seed`` its signature names (so ``MyBot(spec, params)``, ``make(seed=0)`` and ``make()`` all
work). ``act`` gets a batch of rows, observations ``[N, D]`` float32 and legal-action masks
``[N, A]`` bool, and returns ``N`` integer actions, as every hiddendeck policy does
(``agents.policy.Policy``); it may set ``teams`` to the teams it plays, and define
``game_over(slots)`` or ``remembers`` as the Policy interface describes.

The module is imported from ``sys.path`` (the current directory first, as ``python -m`` puts
it), and an entrant records the SHA-256 of the module's source file, so that results stored
under a label are never mixed with those of an edited policy.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect

import numpy as np

from envs.core.spec import GameSpec

from .policy import Policy

PREFIX = "py:"


def is_outside(source: str) -> bool:
    return isinstance(source, str) and source.startswith(PREFIX)


def _target(source: str):
    path = source[len(PREFIX):]
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"{source!r}: expected py:MODULE:ATTR, e.g. py:mybots:Greedy")
    try:
        module = importlib.import_module(module_name)
    except Exception as e:  # noqa: BLE001 - any failure to import is the user's module's
        raise ValueError(f"{source}: cannot import {module_name} ({type(e).__name__}: {e})") \
            from None
    target = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise ValueError(f"{source}: {module_name} has no attribute {attr!r}")
        target = getattr(target, part)
    return module, target


def source_digest(source: str) -> str:
    """``sha256:...`` of the module's source file (``sha256:unknown`` for a built-in one)."""
    module, _ = _target(source)
    try:
        path = inspect.getsourcefile(module)
    except TypeError:
        path = None
    if not path:
        return "sha256:unknown"
    with open(path, "rb") as f:
        return "sha256:" + hashlib.sha256(f.read()).hexdigest()


class OutsidePolicy(Policy):
    """An outside object behind the Policy interface: its answer is checked by ``choose``."""

    def __init__(self, inner, source: str):
        self.inner = inner
        self.name = source
        self.remembers = bool(getattr(inner, "remembers", False))
        teams = getattr(inner, "teams", None)
        if teams is not None:
            self.teams = tuple(teams)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, who=None) -> np.ndarray:
        if self.remembers:
            return np.asarray(self.inner.act(observation, action_mask, who))
        return np.asarray(self.inner.act(observation, action_mask))

    def game_over(self, slots: np.ndarray) -> None:
        if hasattr(self.inner, "game_over"):
            self.inner.game_over(slots)


def outside_policy(source: str, spec: GameSpec, params: dict, seed: int = 0) -> Policy:
    """The policy ``py:module:attr`` names, built for this game."""
    _, target = _target(source)
    if not hasattr(target, "act") or inspect.isclass(target):
        if not callable(target):
            raise ValueError(f"{source}: neither a policy (no act method) nor a factory")
        try:
            accepted = inspect.signature(target).parameters
        except (TypeError, ValueError):
            accepted = {}
        given = {"spec": spec, "params": params, "seed": seed}
        target = target(**{k: v for k, v in given.items() if k in accepted})
        if not hasattr(target, "act"):
            raise ValueError(f"{source}: the factory returned {type(target).__name__}, which "
                             f"has no act(observation, action_mask) method")
    if isinstance(target, Policy):
        return target
    return OutsidePolicy(target, source)
