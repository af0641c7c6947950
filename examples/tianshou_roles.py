"""Tianshou's own PettingZoo path: ``PettingZooEnv`` straight into a Collector, and a masked
REINFORCE crew trained on what it collects, against a fixed impostor (``examples.setting``).

The crew's seats change with every deal; ``examples.setting.Opponents`` plays the impostor's
seats inside the AEC game, so every decision Tianshou collects is a crew seat's. Tianshou's own
multi-agent algorithms dispatch on seat ids (``obs.agent_id``), which change team every deal,
so the update here is a plain masked REINFORCE over the collected buffer: each decision is
credited with its own seat's return (the sum of that seat's column of Tianshou's reward vector
to the end of the game), minus the mean return of the batch.

That baseline is why the game must not be self-play: a random crew beats a random impostor
998 times in 1,000, so every crew return was +1, every impostor return -1, each minus its mean
0, and every gradient exactly 0. Against the fixed impostor the crew wins some deals and loses
others, and its returns differ.

    python -m examples.tianshou_roles --iterations 40 --episodes 40

ends by entering the crew as ``tianshou@py:examples.tianshou_roles:Crew`` in hiddendeck's
eval, beside a random crew on the same held-out deals (``examples.setting.judge``).
"""

from __future__ import annotations

import argparse
import logging
import numpy as np
import torch
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from examples import setting

ENTRANT = "tianshou@py:examples.tianshou_roles:Crew"
# Tianshou's collect statistics warn at every collect that the reward is a vector (one column
# per seat, as its PettingZoo path gives it); that is expected here
logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)


class Crew(setting.SavedCrew):
    """The trained crew for hiddendeck's evaluation (``py:``)."""

    variable, default = "TIANSHOU_CREW_MODEL", "runs/examples/tianshou_crew.pt"


class Actor(torch.nn.Module):
    """Observation to action logits; illegal actions get no probability."""

    def __init__(self, observation_size: int, num_actions: int):
        super().__init__()
        self.net = setting.mlp(observation_size, num_actions)

    def distribution(self, obs, mask) -> torch.distributions.Categorical:
        logits = self.net(torch.as_tensor(np.asarray(obs), dtype=torch.float32))
        legal = torch.as_tensor(np.asarray(mask), dtype=torch.bool)
        return torch.distributions.Categorical(logits=logits.masked_fill(~legal, -1e9))


class Sampling(MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy):
    """The actor's sampled action for every collected row (all rows are crew seats)."""

    def __init__(self, action_space, actor: Actor):
        super().__init__(action_space)
        self.actor = actor

    def forward(self, batch, state=None, **kwargs):
        with torch.no_grad():
            act = self.actor.distribution(batch.obs.obs, batch.obs.mask).sample().numpy()
        return Batch(act=act)


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


def train(iterations: int, episodes: int, seed: int = 0) -> Path:
    """``iterations`` REINFORCE updates of ``episodes`` games each; the actor saved where
    ``Crew`` loads it."""
    torch.manual_seed(seed)

    def make():
        return PettingZooEnv(setting.env(seed=seed))

    envs = DummyVectorEnv([make, make])
    envs.seed(seed)
    probe = make()
    actor = Actor(probe.observation_space["observation"].shape[0], probe.action_space.n)
    optimiser = torch.optim.Adam(actor.parameters(), lr=3e-3)
    buffer = VectorReplayBuffer(50_000, 2)
    collector = Collector(Sampling(probe.action_space, actor), envs, buffer)
    collector.reset()
    for i in range(iterations):
        collector.reset_buffer()
        collector.collect(n_episode=episodes)
        # sub-buffer by sub-buffer: each holds one env's games, in order
        stored = Batch.cat([buf[np.arange(len(buf))] for buf in buffer.buffers if len(buf)])
        g = torch.as_tensor(own_returns(stored, probe.agent_idx), dtype=torch.float32)
        logp = actor.distribution(stored.obs.obs, stored.obs.mask).log_prob(
            torch.as_tensor(np.asarray(stored.act)))
        loss = -((g - g.mean()) * logp).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if i % 10 == 9 or i == iterations - 1:
            print(f"iteration {i + 1}: {len(g)} crew decisions, mean return {float(g.mean()):+.3f}")
    return Crew.save(actor.net)


def main(iterations: int = 40, episodes: int = 40, games: int = 2000, seed: int = 0) -> dict:
    """Train, then judge the crew on held-out deals; returns its gain over a random crew
    (``examples.setting.judge``)."""
    print(f"trained {train(iterations, episodes, seed)}")
    return setting.judge(ENTRANT, games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
