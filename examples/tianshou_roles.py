"""Tianshou's own PettingZoo path, with no wrapper: ``PettingZooEnv(env())`` straight into a
Collector, and a masked policy per role trained on what it collects.

Roles come from ``info["team"]`` (Tianshou hands each step's deciding seat's ``infos`` entry to
the policy; the keys are the same at every step, so its buffer takes them as they are), never
from seat ids, which change team every deal; the policy stores the role beside each decision. Tianshou's own multi-agent algorithms dispatch on
seat ids (``obs.agent_id``), so the update here is a plain masked REINFORCE per role over the
collected buffer: each decision is credited with its own seat's return (the sum of that seat's
column of Tianshou's reward vector to the end of the game), whichever seat made it.

    python -m examples.tianshou_roles --iterations 3 --episodes 20
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
import torch
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from envs import amongus_v6


class RoleActor(torch.nn.Module):
    """Observation to action logits; illegal actions get no probability."""

    def __init__(self, observation_size: int, num_actions: int, hidden: int = 64):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(observation_size, hidden), torch.nn.Tanh(),
                                       torch.nn.Linear(hidden, num_actions))

    def distribution(self, obs, mask) -> torch.distributions.Categorical:
        logits = self.net(torch.as_tensor(np.asarray(obs), dtype=torch.float32))
        legal = torch.as_tensor(np.asarray(mask), dtype=torch.bool)
        return torch.distributions.Categorical(logits=logits.masked_fill(~legal, -1e9))


class ByRole(MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy):
    """Each row is played by its deciding seat's role's actor (``batch.info.team``)."""

    def __init__(self, action_space, actors: dict[int, RoleActor]):
        super().__init__(action_space)
        self.actors = actors

    def forward(self, batch, state=None, **kwargs):
        act = np.zeros(len(batch), np.int64)
        teams = np.asarray(batch.info.team)
        with torch.no_grad():
            for role, actor in self.actors.items():
                rows = np.flatnonzero(teams == role)  # a team's index in spec.teams
                if rows.size:
                    obs = batch.obs[rows]
                    act[rows] = actor.distribution(obs.obs, obs.mask).sample().numpy()
        # the role is kept with the decision: the buffer stores ``info`` as it was *after* the
        # step (the next seat's), but the policy entry with the observation it acted on
        return Batch(act=act, policy=Batch(team=teams))


def own_returns(stored: Batch, seat_of: dict) -> np.ndarray:
    """Each stored decision's return for the seat that made it: its seat's column of the reward
    vectors summed to the end of the game (Tianshou's buffer interleaves every seat's turns)."""
    rew = np.asarray(stored.rew, dtype=np.float64)
    done = np.asarray(stored.terminated) | np.asarray(stored.truncated)
    seats = np.array([seat_of[a] for a in np.asarray(stored.obs.agent_id).tolist()])
    out = np.zeros(len(rew))
    to_go = np.zeros(rew.shape[1])
    for t in range(len(rew) - 1, -1, -1):
        if done[t]:
            to_go[:] = 0.0
        to_go += rew[t]
        out[t] = to_go[seats[t]]
    return out


def main(iterations: int = 3, episodes: int = 20, players: int = 5, seed: int = 0) -> dict:
    """Train one actor per role for ``iterations`` rounds of ``episodes`` games; returns the
    decisions each role made and each role's mean return per round."""
    torch.manual_seed(seed)

    def make():
        return PettingZooEnv(amongus_v6.env(num_players=players))

    envs = DummyVectorEnv([make, make])
    envs.seed(seed)
    probe = make()
    names = amongus_v6.raw_env().spec.teams  # info["team"] indexes these
    size = probe.observation_space["observation"].shape[0]
    actors = {k: RoleActor(size, probe.action_space.n) for k in range(len(names))}
    optimisers = {k: torch.optim.Adam(a.parameters(), lr=3e-3) for k, a in actors.items()}
    buffer = VectorReplayBuffer(50_000, 2)
    collector = Collector(ByRole(probe.action_space, actors), envs, buffer)
    collector.reset()
    decisions: Counter = Counter()
    history = {names[k]: [] for k in actors}
    for _ in range(iterations):
        collector.reset_buffer()
        collector.collect(n_episode=episodes)
        # sub-buffer by sub-buffer: each holds one env's games, in order
        stored = Batch.cat([buf[np.arange(len(buf))] for buf in buffer.buffers if len(buf)])
        returns = own_returns(stored, probe.agent_idx)
        teams = np.asarray(stored.policy.team)
        for k, actor in actors.items():
            rows = np.flatnonzero(teams == k)
            if not rows.size:
                continue
            obs = stored.obs[rows]
            g = torch.as_tensor(returns[rows], dtype=torch.float32)
            logp = actor.distribution(obs.obs, obs.mask).log_prob(
                torch.as_tensor(np.asarray(stored.act)[rows]))
            loss = -((g - g.mean()) * logp).mean()
            optimisers[k].zero_grad()
            loss.backward()
            optimisers[k].step()
            decisions[names[k]] += rows.size
            history[names[k]].append(float(g.mean()))
        print("mean return per decision: " + ", ".join(
            f"{role} {values[-1]:+.3f}" for role, values in history.items() if values))
    return {"decisions": dict(decisions), "returns": history}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
