"""SB3 MaskablePPO on the PettingZoo AEC env: the crew learns against the fixed impostor of
``examples.setting``, which plays the impostor's seats inside the AEC game; the crew's seats
change with every deal (``infos[agent]["team"]`` says which, to the trainer, never to the
policy), and ``OneRole`` hands SB3 each decision of whichever crew seat is deciding.

    python -m examples.sb3_aec --steps 20000

ends by entering the crew as ``sb3-aec@py:examples.sb3_aec:Crew`` in hiddendeck's eval, beside a
random crew on the same held-out deals (``examples.setting.judge``). The batched route,
``training.sb3.TeamEnv``, is ``examples.sb3_policy``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import gymnasium as gym
import numpy as np

from examples import setting
from examples.sb3_policy import SB3Crew

ENTRANT = "sb3-aec@py:examples.sb3_aec:Crew"


class Crew(SB3Crew):
    """The trained crew for hiddendeck's evaluation (``py:``)."""

    variable, default = "SB3_AEC_CREW_MODEL", "runs/examples/sb3_aec_crew.zip"


class OneRole(gym.Env):
    """The seats of ``role`` in one AEC game, one decision a step; the other roles are played
    by ``against`` inside the game (``setting.Opponents``). A game's reward is the mean final
    reward of the role's seats."""

    def __init__(self, role: str = setting.TEAM, against: str = setting.AGAINST, seed: int = 0,
                 **params):
        self.aec = setting.env(role, against, seed, illegal_action="lose", **params)
        self.observation_space = self.aec.observation_space("player_0")["observation"]
        self.action_space = self.aec.action_space("player_0")
        self._mask = np.ones(self.action_space.n, bool)
        self._first_seed = seed

    def _observe(self):
        """The deciding seat's observation, or None and the role's mean final reward."""
        env = self.aec
        if any(env.terminations.values()) or any(env.truncations.values()):
            ours = [a for a in env.possible_agents if env.infos[a]["team"] == env.team]
            return None, float(np.mean([env.rewards[a] for a in ours]))
        obs = env.observe(env.agent_selection)
        self._mask = obs["action_mask"].astype(bool)
        return obs["observation"], 0.0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.aec.reset(seed=self._first_seed if seed is None and self._first_seed is not None
                       else seed)
        self._first_seed = None  # later games: the next deals of the same stream
        return self._observe()[0], {}

    def step(self, action):
        self.aec.step(int(action))
        obs, reward = self._observe()
        if obs is None:
            return np.zeros(self.observation_space.shape, np.float32), reward, True, False, {}
        return obs, 0.0, False, False, {}

    def action_masks(self) -> np.ndarray:  # [A] bool, for MaskablePPO
        return self._mask


def train(steps: int, seed: int = 0) -> Path:
    """``steps`` crew decisions; the model saved where ``Crew`` loads it."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", OneRole(seed=seed), learning_rate=1e-3,
                        n_steps=min(256, steps), batch_size=64, seed=seed, verbose=0,
                        device="cpu")
    model.learn(total_timesteps=steps)
    path = Crew.path()
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    return path


def main(steps: int = 20_000, games: int = 2000, seed: int = 0) -> dict:
    """Train, then judge the crew on held-out deals; returns its gain over a random crew."""
    print(f"trained {train(steps, seed)}")
    return setting.judge(ENTRANT, games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
