"""SB3 MaskablePPO on the PettingZoo AEC env: one role learns, every other seat plays a scripted
bot, and which seats are ours is read from ``infos[agent]["team"]`` at each decision (a seat's
team changes with every deal; the env reports it to the trainer, never to the policy).

    python -m examples.sb3_aec --steps 20000

The other route, ``training.sb3.TeamEnv`` over the batched engine, is ``examples.sb3_team``.
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

from agents import make_policy
from agents.policy import choose
from envs import amongus_v6


class OneRole(gym.Env):
    """The seats of ``role`` in one AEC game; the other roles are played by ``others``."""

    def __init__(self, role: str = "crew", others: str = "heuristic", seed: int = 0, **params):
        self.aec = amongus_v6.env(illegal_action="lose", **params)
        raw = self.aec.unwrapped
        if role not in raw.spec.teams:
            raise ValueError(f"no role {role!r}; roles are {raw.spec.teams}")
        self.role = raw.spec.teams.index(role)  # infos give a team as its index
        self.others = make_policy(others, raw.spec, raw.params, seed)
        self.observation_space = raw.observation_spaces["player_0"]["observation"]
        self.action_space = raw.action_spaces["player_0"]
        self._mask = np.ones(self.action_space.n, bool)
        self._first_seed = seed

    def _advance(self):
        """Play the other roles until one of our seats decides (its observation) or the game
        ends (our seats' mean final reward)."""
        env = self.aec
        while True:
            if any(env.terminations.values()) or any(env.truncations.values()):
                ours = [a for a in env.possible_agents if env.infos[a]["team"] == self.role]
                return None, float(np.mean([env.rewards[a] for a in ours]))
            agent = env.agent_selection
            obs = env.observe(agent)
            if env.infos[agent]["team"] == self.role:
                self._mask = obs["action_mask"].astype(bool)
                return obs["observation"], 0.0
            seat = env.possible_agents.index(agent)
            action = choose(self.others, obs["observation"][None],
                            obs["action_mask"][None].astype(bool), np.array([[0, seat]]))
            env.step(int(action[0]))

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.aec.reset(seed=self._first_seed if seed is None and self._first_seed is not None
                       else seed)
        self._first_seed = None  # later games: the next deals of the same stream
        obs, _ = self._advance()
        while obs is None:  # a game without any decision of ours
            self.aec.reset()
            obs, _ = self._advance()
        return obs, {}

    def step(self, action):
        self.aec.step(int(action))
        obs, reward = self._advance()
        if obs is None:
            return np.zeros(self.observation_space.shape, np.float32), reward, True, False, {}
        return obs, 0.0, False, False, {}

    def action_masks(self) -> np.ndarray:  # [A] bool, for MaskablePPO
        return self._mask


def main(steps: int = 20_000, role: str = "crew", seed: int = 0, players: int = 5) -> float:
    """Train ``role`` for ``steps`` decisions; returns its mean reward over the last games."""
    from sb3_contrib import MaskablePPO

    env = OneRole(role, seed=seed, num_players=players)
    model = MaskablePPO("MlpPolicy", env, n_steps=min(256, steps), batch_size=64, seed=seed,
                        verbose=0)
    model.learn(total_timesteps=steps)
    returns = [info["r"] for info in model.ep_info_buffer]
    print(f"{role}: {len(returns)} games in the last window, mean reward {np.mean(returns):+.3f}")
    return float(np.mean(returns))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--role", default="crew")
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
