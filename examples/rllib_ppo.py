"""RLlib PPO with action masking, one policy per role. A seat's role changes with every deal,
so the env names each agent by its role as the deal gives it, read from ``infos[agent]["team"]``
(``crew@player_2``), and RLlib's policy mapping reads the role back from that name. RLlib's
env pre-check stays on: ``illegal_action="lose"`` lets its unmasked random step end a game
instead of raising.

    python -m examples.rllib_ppo --iterations 5
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from envs import amongus_v6


class RoleNamedEnv(MultiAgentEnv):
    """The AEC game for RLlib: agent ids ``ROLE@player_i``; observations in the keys RLlib's
    ``ActionMaskingTorchRLModule`` reads (``observations``, ``action_mask`` as floats)."""

    def __init__(self, config: dict | None = None):
        super().__init__()
        self.aec = amongus_v6.env(illegal_action="lose", **(config or {}))
        raw = self.aec.unwrapped
        self.roles = raw.spec.teams
        seats = raw.possible_agents
        inner = raw.observation_spaces[seats[0]]
        space = gym.spaces.Dict({
            "observations": inner["observation"],
            "action_mask": gym.spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
        })
        self.possible_agents = [f"{r}@{s}" for r in self.roles for s in seats]
        self.agents = []
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: raw.action_spaces[seats[0]] for a in self.possible_agents}
        self._name = {}

    def _obs(self, seat: str) -> dict:
        o = self.aec.observe(seat)
        return {self._name[seat]: {"observations": o["observation"],
                                   "action_mask": o["action_mask"].astype(np.float32)}}

    def reset(self, *, seed=None, options=None):
        self.aec.reset(seed=seed)
        # each seat's role as dealt, from the trainer's bookkeeping (never the policy's input)
        self._name = {s: f"{self.roles[self.aec.infos[s]['team']]}@{s}"
                      for s in self.aec.possible_agents}
        self.agents = list(self._name.values())
        return self._obs(self.aec.agent_selection), {}

    def step(self, action_dict):
        seat = self.aec.agent_selection
        self.aec.step(int(action_dict[self._name[seat]]))
        if not any(self.aec.terminations.values()) and not any(self.aec.truncations.values()):
            # a reward (0: rewards come at the end) for the seat that acted, which RLlib
            # needs when that seat is also the next to decide
            return self._obs(self.aec.agent_selection), {self._name[seat]: 0.0}, \
                {"__all__": False}, {"__all__": False}, {}
        # the game is over: every seat gets its final reward and is done
        obs, rewards, done = {}, {}, {"__all__": True}
        for s in self.aec.possible_agents:
            obs.update(self._obs(s))
            rewards[self._name[s]] = float(self.aec.rewards[s])
            done[self._name[s]] = True
        truncated = {"__all__": any(self.aec.truncations.values())}
        return obs, rewards, done, truncated, {}


def main(iterations: int = 5, batch: int = 1024, players: int = 5, seed: int = 0) -> dict:
    """``iterations`` PPO iterations; returns each role's mean episode return at the end."""
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    roles = amongus_v6.raw_env().spec.teams
    config = (
        PPOConfig()
        .environment(RoleNamedEnv, env_config={"num_players": players})
        .multi_agent(policies=set(roles),
                     policy_mapping_fn=lambda agent_id, episode, **kw: agent_id.split("@")[0])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            role: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                               model_config={"fcnet_hiddens": [64, 64]})
            for role in roles}))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(256, batch),
                  num_epochs=2)
        .debugging(seed=seed)
    )
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    try:
        algo = config.build_algo()
        for _ in range(iterations):
            result = algo.train()
        returns = result["env_runners"].get("module_episode_returns_mean", {})
        print(f"after {iterations} iterations, mean return by role: {returns}")
        algo.stop()
        return returns
    finally:
        ray.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
