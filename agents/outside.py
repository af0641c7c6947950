"""Policies from outside hiddendeck: ``py:module:attr`` wherever a policy is named.

``attr`` is either an object with ``act(observation, action_mask)`` or a factory (a class or a
function) returning one; a factory is called with whichever of ``spec``, ``params`` and
``seed`` its signature names (so ``MyBot(spec, params)``, ``make(seed=0)`` and ``make()`` all
work). ``act`` gets a batch of rows, observations ``[N, D]`` float32 and legal-action masks
``[N, A]`` bool, and returns ``N`` integer actions, as every hiddendeck policy does
(``agents.policy.Policy``); it may set ``teams`` to the teams it plays, and define
``game_over(slots)`` or ``remembers`` as the Policy interface describes.

An error raised by the policy's own code (its factory, ``act`` or ``game_over``) is reported as
one line naming the policy, the error and the line of the module that raised it
(``PolicyError``); ``hiddendeck --debug`` shows the traceback.

The module is imported from ``sys.path`` (the current directory first, as ``python -m`` puts
it), and an entrant records the SHA-256 of the module's source file, so that results stored
under a label are never mixed with those of an edited policy.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import traceback

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


class PolicyError(ValueError):
    """An outside policy's own code raised an error: said in one line, like bad input, since it
    is the policy's fault, not hiddendeck's (its traceback is this error's ``__cause__``)."""


def raised(source: str, error: Exception, home: str | None) -> PolicyError:
    """``policy SOURCE raised TYPE: TEXT (FILE:LINE)``: the innermost line of the policy's own
    module (``home``) in the traceback, else the innermost line of all."""
    frames = traceback.extract_tb(error.__traceback__)
    own = [f for f in frames if home and f.filename == home] or frames[-1:]
    where = f" ({os.path.basename(own[-1].filename)}:{own[-1].lineno})" if own else ""
    text = str(error).strip().splitlines()
    said = f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
    return PolicyError(f"policy {source} raised {said}{where}; hiddendeck --debug COMMAND "
                       f"shows the traceback")


class OutsidePolicy(Policy):
    """An outside object behind the Policy interface: its answer is checked by ``choose``, and
    an error it raises is a ``PolicyError``."""

    def __init__(self, inner, source: str, home: str | None = None):
        self.inner = inner
        self.name = source
        self.source = source
        self.home = home  # the module's file, where its errors are placed
        self.remembers = bool(getattr(inner, "remembers", False))
        teams = getattr(inner, "teams", None)
        if teams is not None:
            self.teams = tuple(teams)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, who=None) -> np.ndarray:
        try:
            if self.remembers:
                return np.asarray(self.inner.act(observation, action_mask, who))
            return np.asarray(self.inner.act(observation, action_mask))
        except Exception as error:  # noqa: BLE001 - whatever the policy's code raises
            raise raised(self.source, error, self.home) from error

    def game_over(self, slots: np.ndarray) -> None:
        if hasattr(self.inner, "game_over"):
            try:
                self.inner.game_over(slots)
            except Exception as error:  # noqa: BLE001 - whatever the policy's code raises
                raise raised(self.source, error, self.home) from error


def outside_policy(source: str, spec: GameSpec, params: dict, seed: int = 0) -> Policy:
    """The policy ``py:module:attr`` names, built for this game."""
    module, target = _target(source)
    home = getattr(module, "__file__", None)
    if not hasattr(target, "act") or inspect.isclass(target):
        if not callable(target):
            raise ValueError(f"{source}: neither a policy (no act method) nor a factory")
        try:
            accepted = inspect.signature(target).parameters
        except (TypeError, ValueError):
            accepted = {}
        given = {"spec": spec, "params": params, "seed": seed}
        try:
            target = target(**{k: v for k, v in given.items() if k in accepted})
        except Exception as error:  # noqa: BLE001 - whatever the factory raises
            raise raised(source, error, home) from error
        if not hasattr(target, "act"):
            raise ValueError(f"{source}: the factory returned {type(target).__name__}, which "
                             f"has no act(observation, action_mask) method")
    if isinstance(target, Policy):
        return target
    return OutsidePolicy(target, source, home)
