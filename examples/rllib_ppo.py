"""RLlib PPO with action masking: a crew learning against a fixed impostor
(``examples.setting``).

``examples.setting.Opponents`` plays the impostor's seats inside the AEC game, so every seat
RLlib sees decide is a crew seat; which seats are the crew's changes with every deal, so the env
names each agent ``crew@player_i`` and RLlib's policy mapping reads the role from that name.
RLlib's env pre-check stays on: ``illegal_action="lose"`` lets its unmasked random step end a
game instead of raising.

    python -m examples.rllib_ppo --iterations 10

ends by saving the crew's RLModule and entering it as ``rllib@py:examples.rllib_ppo:Crew`` in
hiddendeck's eval, beside a random crew on the same held-out deals (``examples.setting.judge``).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from examples import setting

ENTRANT = "rllib@py:examples.rllib_ppo:Crew"


def module_path() -> Path:
    return Path(os.environ.get("RLLIB_CREW_MODULE", "runs/examples/rllib_crew")).absolute()


class CrewEnv(MultiAgentEnv):
    """The AEC game for RLlib: agent ids ``crew@player_i``, the impostor played inside
    (``setting.Opponents``); observations in the keys RLlib's ``ActionMaskingTorchRLModule``
    reads (``observations``, ``action_mask`` as floats)."""

    def __init__(self, config: dict | None = None):
        super().__init__()
        self.aec = setting.env(illegal_action="lose", **(config or {}))
        seats = self.aec.possible_agents
        inner = self.aec.observation_space(seats[0])
        space = gym.spaces.Dict({
            "observations": inner["observation"],
            "action_mask": gym.spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
        })
        self.possible_agents = [f"{setting.TEAM}@{s}" for s in seats]
        self.agents = []
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: self.aec.action_space(seats[0]) for a in self.possible_agents}
        self._acted: set[str] = set()

    def _obs(self, seat: str) -> dict:
        o = self.aec.observe(seat)
        return {f"{setting.TEAM}@{seat}": {"observations": o["observation"],
                                           "action_mask": o["action_mask"].astype(np.float32)}}

    def reset(self, *, seed=None, options=None):
        self.aec.reset(seed=seed)
        self._acted = set()
        self.agents = list(self.possible_agents)
        return self._obs(self.aec.agent_selection), {}

    def step(self, action_dict):
        seat = self.aec.agent_selection
        self._acted.add(seat)
        self.aec.step(int(action_dict[f"{setting.TEAM}@{seat}"]))
        if not any(self.aec.terminations.values()) and not any(self.aec.truncations.values()):
            # a reward (0: rewards come at the end) for the seat that acted, which RLlib
            # needs when that seat is also the next to decide
            return self._obs(self.aec.agent_selection), {f"{setting.TEAM}@{seat}": 0.0}, \
                {"__all__": False}, {"__all__": False}, {}
        # the game is over: every crew seat that decided gets its final reward and is done
        obs, rewards, done = {}, {}, {"__all__": True}
        for s in self._acted:
            obs.update(self._obs(s))
            rewards[f"{setting.TEAM}@{s}"] = float(self.aec.rewards[s])
            done[f"{setting.TEAM}@{s}"] = True
        truncated = {"__all__": any(self.aec.truncations.values())}
        return obs, rewards, done, truncated, {}


class Crew:
    """The saved RLModule for hiddendeck's evaluation (``py:``), greedy: its most likely legal
    action for each row."""

    teams = (setting.TEAM,)

    def __init__(self):
        from ray.rllib.core.rl_module.rl_module import RLModule

        path = module_path()
        if not path.is_dir():
            raise ValueError(f"{path}: no RLlib crew; run python -m examples.rllib_ppo first "
                             f"or set RLLIB_CREW_MODULE")
        self.module = RLModule.from_checkpoint(path)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        batch = {"obs": {"observations": torch.as_tensor(observation, dtype=torch.float32),
                         "action_mask": torch.as_tensor(action_mask, dtype=torch.float32)}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"]
        return logits.argmax(-1).numpy()


def train(iterations: int, batch: int, seed: int = 0) -> Path:
    """``iterations`` PPO iterations of ``batch`` crew decisions; the crew's RLModule saved at
    ``module_path()``."""
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    config = (
        PPOConfig()
        .environment(CrewEnv)
        .multi_agent(policies={setting.TEAM},
                     policy_mapping_fn=lambda agent_id, episode, **kw: agent_id.split("@")[0])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            setting.TEAM: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                       model_config={"fcnet_hiddens": [64, 64]})}))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(256, batch),
                  num_epochs=4, lr=1e-3)
        .debugging(seed=seed)
    )
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    try:
        algo = config.build_algo()
        for i in range(iterations):
            result = algo.train()
            if i % 5 == 4 or i == iterations - 1:
                returns = result["env_runners"].get("agent_episode_returns_mean", {})
                per_seat = np.mean(list(returns.values())) if returns else float("nan")
                print(f"iteration {i + 1}: a crew seat's mean return {per_seat:+.3f}")
        path = module_path()
        algo.get_module(setting.TEAM).save_to_path(path)
        algo.stop()
        return path
    finally:
        ray.shutdown()


def main(iterations: int = 10, batch: int = 1024, games: int = 2000, seed: int = 0) -> dict:
    """Train, then judge the crew on held-out deals; returns its gain over a random crew
    (``examples.setting.judge``)."""
    print(f"trained {train(iterations, batch, seed)}")
    return setting.judge(ENTRANT, games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
