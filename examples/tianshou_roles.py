"""Tianshou's own PettingZoo path, with no wrapper: ``PettingZooEnv(env())`` straight into a
Collector. A policy per role, chosen row by row from ``info["team"]`` (Tianshou hands each step's
deciding seat's ``infos`` entry to the policy; the keys are the same at every step, so its
buffer takes them as they are). Here each role's policy is Tianshou's masked random player; any
Tianshou policy of a role goes in its place.

    python -m examples.tianshou_roles --episodes 20
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from envs import amongus_v5


class ByRole(MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy):
    """Each row is played by its deciding seat's role's policy (``batch.info.team``)."""

    def __init__(self, action_space, policies: dict):
        super().__init__(action_space)
        self.policies = policies

    def forward(self, batch, state=None, **kwargs):
        act = np.zeros(len(batch), np.int64)
        teams = np.asarray(batch.info.team)
        for role, policy in self.policies.items():
            rows = np.flatnonzero(teams == role)  # a team's index in spec.teams
            if rows.size:
                act[rows] = policy(batch[rows]).act
        return Batch(act=act)


def main(episodes: int = 20, players: int = 5, seed: int = 0) -> Counter:
    """Collect ``episodes`` games; returns the decisions each role made."""
    def make():
        return PettingZooEnv(amongus_v5.env(num_players=players))

    envs = DummyVectorEnv([make, make])
    envs.seed(seed)
    space = make().action_space
    names = amongus_v5.raw_env().spec.teams  # info["team"] indexes these
    roles = {k: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(space)
             for k in range(len(names))}
    collector = Collector(ByRole(space, roles), envs, VectorReplayBuffer(20_000, 2))
    collector.reset()
    stats = collector.collect(n_episode=episodes)
    stored = collector.buffer[collector.buffer.sample_indices(0)]  # every stored step
    decisions = Counter(names[k] for k in np.asarray(stored.info.team).tolist())
    print(f"{stats.n_collected_episodes} games, {stats.n_collected_steps} decisions; "
          f"by role: {dict(decisions)}")
    return decisions


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
