"""The league: frozen past snapshots of each policy group, and optional scripted players.

Pure self-play in a two-team game can cycle (crew learns to beat this impostor, impostor
adapts, crew forgets the old answer). Playing a share of games against older opponents keeps
the old answers in the data. Each side of each game is drawn once, when the game is dealt, and
keeps its member until the game ends: a game is played against one opponent from start to end
(a recurrent snapshot keeps its memories), and members evicted from the league meanwhile stay
alive until their last game ends.

Which member a draw picks is ``uniform`` or ``pfsp``, prioritised fictitious self-play (Vinyals
et al. 2019, AlphaStar's league): the pool keeps, for each member, the learner's recent score
against it (a win 1, a draw 1/2, counted with weight ``decay`` per rollout back, so an old
result fades as the learner changes), and draws a member with weight ``(1 - score) ** power``.
The learner meets most the members it does worst against, a member it always beats is met
rarely but never dropped for good (its faded counts return to the prior 1/2), and an exploit
an old snapshot found stays in the data until the learner answers it.
"""

from __future__ import annotations

import numpy as np
import torch

from agents.neural import ActorCritic
from agents.policy import Policy

SAMPLING = ("uniform", "pfsp")


class OpponentPool:
    """Per group: up to ``size`` recent snapshots, any ``anchor`` snapshots (kept for good,
    e.g. the imitation warm start) and scripted players. Members have stable integer ids; a
    game side's member id stays valid while the game runs."""

    def __init__(self, groups: list[str], size: int, rng: np.random.Generator, configs: dict,
                 scripted: dict[str, list[Policy]] | None = None, scripted_share: float = 0.5,
                 sampling: str = "uniform", power: float = 2.0, decay: float = 0.9):
        if size < 0:
            raise ValueError(f"pool size must be >= 0, got {size}")
        if sampling not in SAMPLING:
            raise ValueError(f"league sampling must be one of {SAMPLING}, got {sampling!r}")
        if not (np.isfinite(power) and power >= 0):
            raise ValueError(f"pfsp power must be a finite number >= 0, got {power!r}")
        if not 0.0 <= decay <= 1.0:
            raise ValueError(f"pfsp decay must be in [0, 1], got {decay!r}")
        self.sampling, self.power, self.decay = sampling, float(power), float(decay)
        # the learner's score against each member: [decayed points, decayed games]
        self.results: dict[int, np.ndarray] = {}
        self.groups = list(groups)
        self.size = size
        self.rng = rng
        self.configs = configs  # group -> the ActorCritic config its snapshots are rebuilt from
        self.scripted_share = scripted_share
        self.members: dict[int, Policy | ActorCritic] = {}
        self.recent: dict[str, list[int]] = {g: [] for g in groups}
        self.anchors: dict[str, list[int]] = {g: [] for g in groups}
        self.scripted: dict[str, list[int]] = {g: [] for g in groups}
        self.pinned: set[int] = set()
        for g, policies in (scripted or {}).items():
            for policy in policies:
                self.scripted[g].append(self.register(policy))

    def register(self, member: Policy | ActorCritic, pinned: bool = False) -> int:
        """A new member id (``pinned``: never pruned, e.g. a fixed team's scripted player)."""
        key = max(self.members, default=-1) + 1
        self.members[key] = member
        self.results[key] = np.zeros(2)
        if pinned:
            self.pinned.add(key)
        return key

    def add(self, group: str, model: ActorCritic, anchor: bool = False) -> None:
        """Snapshot ``model``'s actor into the league (the oldest recent one leaves)."""
        if self.size == 0 and not anchor:
            return
        frozen = ActorCritic(self.configs[group]).eval()
        frozen.actor.load_state_dict(model.actor.state_dict())
        for p in frozen.parameters():
            p.requires_grad_(False)
        key = self.register(frozen)
        (self.anchors if anchor else self.recent)[group].append(key)
        del self.recent[group][: -self.size or len(self.recent[group])]

    def snapshots(self, group: str) -> list[int]:
        return self.anchors[group] + self.recent[group]

    def has(self, group: str) -> bool:
        return bool(self.snapshots(group) or self.scripted[group])

    def draw(self, group: str, n: int) -> np.ndarray:  # [n] member ids
        """A scripted player with chance ``scripted_share`` (always, when there is no snapshot
        yet), else a snapshot, for each of ``n`` newly dealt game sides; within each kind a
        member is drawn uniformly or by ``pfsp`` weight (``weights``)."""
        snapshots, scripted = self.snapshots(group), self.scripted[group]
        if not snapshots and not scripted:
            raise ValueError(f"the league has no member for {group!r} yet")
        pick_scripted = self.rng.random(n) < self.scripted_share if snapshots else np.ones(n, bool)
        if not scripted:
            pick_scripted[:] = False
        out = np.empty(n, np.int64)
        for members, rows in ((scripted, pick_scripted), (snapshots, ~pick_scripted)):
            k = int(rows.sum())
            if k and self.sampling == "uniform":  # the draws of runs before pfsp, unchanged
                out[rows] = np.asarray(members)[self.rng.integers(len(members), size=k)]
            elif k:
                out[rows] = self.rng.choice(np.asarray(members), size=k, p=self.weights(members))
        return out

    def score(self, key: int) -> float:
        """The learner's recent score against member ``key`` (1 all wins, 0 all losses), with
        one win and one loss of prior, so a member not yet met stands at 1/2."""
        points, games = self.results[key]
        return (points + 1.0) / (games + 2.0)

    def weights(self, members: list[int]) -> np.ndarray:  # [len(members)] draw probabilities
        if self.sampling == "uniform":
            return np.full(len(members), 1.0 / len(members))
        w = np.array([(1.0 - self.score(k)) ** self.power for k in members])
        return w / w.sum()  # the prior keeps every score below 1, so every weight above 0

    def record(self, members: np.ndarray, learner_score: np.ndarray) -> None:
        """Results of finished games: the learner's score (1, 1/2 or 0) against ``members``."""
        for key in np.unique(members):
            if key in self.results:
                mine = learner_score[members == key]
                self.results[key] += (mine.sum(), mine.size)

    def fade(self) -> None:
        """Once a rollout: older results count ``decay`` times less."""
        for counts in self.results.values():
            counts *= self.decay

    def prune(self, in_use: np.ndarray) -> None:
        """Forget evicted snapshots that no running game plays any more."""
        keep = set(np.unique(in_use[in_use >= 0]).tolist()) | self.pinned
        for g in self.groups:
            keep.update(self.snapshots(g), self.scripted[g])
        for key in [k for k in self.members if k not in keep]:
            del self.members[key]
            del self.results[key]

    def state_dict(self) -> dict:
        def actor(key):
            return {k: v.clone() for k, v in self.members[key].actor.state_dict().items()}

        return {g: {"recent": [actor(k) for k in self.recent[g]],
                    "anchors": [actor(k) for k in self.anchors[g]],
                    "results": {kind: [self.results[k].tolist() for k in keys]
                                for kind, keys in (("recent", self.recent[g]),
                                                   ("anchors", self.anchors[g]),
                                                   ("scripted", self.scripted[g]))}}
                for g in self.groups}

    def load_state_dict(self, state: dict) -> None:
        unknown = sorted(set(state) - set(self.groups))
        if unknown:
            raise ValueError(f"opponent pool has groups {unknown} this run does not train")
        for g, kinds in state.items():
            shell = ActorCritic(self.configs[g])
            for kind in ("recent", "anchors"):
                for actor in kinds[kind]:
                    shell.actor.load_state_dict({k: torch.as_tensor(v) for k, v in actor.items()})
                    self.add(g, shell, anchor=kind == "anchors")
            results = kinds.get("results")  # absent from checkpoints before the pfsp league
            if results is None:
                continue
            # the snapshots just loaded, the newest last (a smaller pool_size kept only the
            # newest); the scripted players only if the resumed run names as many (a resume
            # may add one: then every scripted player starts again from the prior)
            for kind, keys in (("recent", self.recent[g]), ("anchors", self.anchors[g]),
                               ("scripted", self.scripted[g])):
                saved = results[kind]
                if kind == "scripted" and len(saved) != len(keys):
                    continue
                for key, counts in zip(reversed(keys), reversed(saved)):
                    self.results[key] = np.asarray(counts, np.float64)


def draw_frozen_sides(
    rng: np.random.Generator, games: int, sides: int, share: float, available: np.ndarray,
    fixed: np.ndarray | None = None,
) -> np.ndarray:  # [games, sides] bool
    """Which sides of newly dealt games are played by a league member rather than the learner.

    Each side is frozen with probability ``share`` if its group has a member
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
