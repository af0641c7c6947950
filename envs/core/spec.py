"""A game's meta-facts as data: seats, actions, parameters, observation pieces, version.

Following OpenSpiel, the facts a conformance test checks are declared once, next to the game,
and everything else (spaces, docs, checkpoint compatibility) is derived from them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Param:
    """A game option. Its value is stored in a record field of the same name."""

    name: str
    default: int
    low: int
    high: int
    doc: str
    dtype: str = "int"  # "int" or "bool"
    # The rules and observations read it from each game's record, never from a constant, so
    # the games of one batch may differ in it (``VecEnv.vary``).
    per_game: bool = False

    def check(self, value) -> int:
        if self.dtype == "bool":  # True/False or the integers 0/1; 1.0 or "1" are typos
            if not isinstance(value, (bool, np.bool_, int, np.integer)) or value not in (0, 1):
                raise ValueError(f"parameter {self.name!r} must be a bool, got {value!r}")
            return int(bool(value))
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"parameter {self.name!r} must be an integer, got {value!r}")
        if not self.low <= value <= self.high:
            raise ValueError(
                f"parameter {self.name!r} must be in [{self.low}, {self.high}], got {value}"
            )
        return int(value)


@dataclass(frozen=True)
class Piece:
    """A named slice of a flat vector: an observation or god-view is built from these."""

    name: str
    shape: tuple[int, ...]
    doc: str = ""

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


@dataclass(frozen=True)
class Layout:
    """Named pieces laid end to end; ``offsets`` is what the kernels index with."""

    pieces: tuple[Piece, ...]

    @property
    def size(self) -> int:
        return sum(p.size for p in self.pieces)

    @property
    def offsets(self) -> np.ndarray:  # [len(pieces) + 1] int64
        return np.cumsum([0] + [p.size for p in self.pieces]).astype(np.int64)

    def index(self, name: str) -> int:
        for i, p in enumerate(self.pieces):
            if p.name == name:
                return i
        raise KeyError(f"no piece named {name!r}; pieces are {[p.name for p in self.pieces]}")

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views of a flat vector (or of a batch of them, along the last axis)."""
        off = self.offsets
        return {
            p.name: vector[..., off[i] : off[i + 1]].reshape(vector.shape[:-1] + p.shape)
            for i, p in enumerate(self.pieces)
        }

    def fingerprint(self) -> str:
        """A short hash of names and shapes: a checkpoint records it to refuse a changed layout."""
        text = ";".join(f"{p.name}:{p.shape}" for p in self.pieces)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def columns_of(self, earlier: "Layout") -> np.ndarray:
        """Where each float of an ``earlier`` layout lies in this one: its pieces found by name
        and shape (``KeyError`` or ``ValueError`` if one is missing or reshaped)."""
        off = self.offsets
        columns = []
        for p in earlier.pieces:
            i = self.index(p.name)
            if self.pieces[i].shape != p.shape:
                raise ValueError(f"piece {p.name!r} is {self.pieces[i].shape}, was {p.shape}")
            columns.append(np.arange(off[i], off[i + 1]))
        return np.concatenate(columns) if columns else np.zeros(0, np.int64)


@dataclass(frozen=True)
class GameSpec:
    name: str
    version: int
    min_players: int
    max_players: int
    action_names: tuple[str, ...]
    params: tuple[Param, ...]
    observation_layout: Callable[[dict], Layout]
    state_layout: Callable[[dict], Layout]
    max_decisions: Callable[[dict], int]
    teams: tuple[str, ...]
    reward_range: tuple[float, float] = (-1.0, 1.0)
    doc: str = ""
    extra: dict = field(default_factory=dict)
    # Earlier versions a trained policy may still play: {version: its observation layout}.
    # Listed only where the rules are unchanged since and every piece the earlier observation
    # had is still there, meaning the same: such a policy reads those pieces of today's
    # observation (``Layout.columns_of``) and plays exactly as it did.
    earlier_observations: dict = field(default_factory=dict)

    @property
    def num_actions(self) -> int:
        return len(self.action_names)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def resolve(self, **given) -> dict[str, int]:
        """Defaults filled in and every value checked; unknown or out-of-range values raise."""
        names = [p.name for p in self.params]
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise ValueError(f"{self.name}: unknown parameter(s) {unknown}; valid are {names}")
        return {p.name: p.check(given.get(p.name, p.default)) for p in self.params}
