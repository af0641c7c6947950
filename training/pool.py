"""The opponent pool: frozen past snapshots of each policy group, and optional scripted players.

Pure self-play in a two-team game can cycle (crew learns to beat this impostor, impostor
adapts, crew forgets the old answer). Playing a share of games against older opponents keeps
the old answers in the data. Each side of each game is drawn once, when the game is dealt,
so a game is played against one opponent kind from start to end.
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from agents.neural import ActorCritic
from agents.policy import Policy


class OpponentPool:
    """Up to ``size`` snapshots per group, plus fixed scripted policies shared by all groups;
    each rollout, one member per group plays that group's frozen sides."""

    def __init__(self, groups: list[str], size: int, rng: np.random.Generator,
                 scripted: dict[str, Policy] | None = None, scripted_share: float = 0.5):
        if size < 0:
            raise ValueError(f"pool size must be >= 0, got {size}")
        self.size = size
        self.rng = rng
        self.snapshots: dict[str, list[dict]] = {g: [] for g in groups}
        self.scripted = list((scripted or {}).values())
        self.scripted_share = scripted_share

    def add(self, group: str, model: ActorCritic) -> None:
        if self.size == 0:
            return
        actor_only = {k: v.clone() for k, v in model.state_dict().items() if k.startswith("actor.")}
        self.snapshots[group].append(actor_only)
        del self.snapshots[group][: -self.size]

    def has(self, group: str) -> bool:
        return bool(self.snapshots[group]) or bool(self.scripted)

    def draw(self, group: str, into: ActorCritic) -> Policy | None:
        """A scripted player (with chance ``scripted_share``, or when there is no snapshot yet),
        returned to be called; else a uniformly drawn snapshot, loaded into ``into`` (None)."""
        snapshots = self.snapshots[group]
        if self.scripted and (not snapshots or self.rng.random() < self.scripted_share):
            return self.scripted[int(self.rng.integers(len(self.scripted)))]
        into.load_state_dict(snapshots[int(self.rng.integers(len(snapshots)))], strict=False)
        return None

    @staticmethod
    def frozen_copy(model: ActorCritic) -> ActorCritic:
        frozen = copy.deepcopy(model).eval()
        for p in frozen.parameters():
            p.requires_grad_(False)
        return frozen

    def state_dict(self) -> dict:
        return {g: list(s) for g, s in self.snapshots.items()}

    def load_state_dict(self, state: dict) -> None:
        unknown = sorted(set(state) - set(self.snapshots))
        if unknown:
            raise ValueError(f"opponent pool has groups {unknown} this run does not train")
        for g, snaps in state.items():
            kept = snaps[-self.size :] if self.size else []
            self.snapshots[g] = [{k: torch.as_tensor(v) for k, v in s.items()} for s in kept]


def draw_frozen_sides(
    rng: np.random.Generator, games: int, sides: int, share: float, available: np.ndarray,
    fixed: np.ndarray | None = None,
) -> np.ndarray:  # [games, sides] bool
    """Which sides of newly dealt games are played by a pool member rather than the learner.

    Each side is frozen with probability ``share`` if its group has a snapshot
    (``available [sides]``); ``fixed [sides]`` sides (teams not trained) are always frozen. At
    least one side per game that is not fixed stays live, so every game yields data.
    """
    frozen = (rng.random((games, sides)) < share) & available[None, :]
    if fixed is None:
        fixed = np.zeros(sides, np.bool_)
    frozen[:, fixed] = True
    all_frozen = frozen.all(axis=1)
    if all_frozen.any():
        rows = np.flatnonzero(all_frozen)
        learners = np.flatnonzero(~fixed)
        frozen[rows, learners[rng.integers(learners.size, size=rows.size)]] = False
    return frozen
