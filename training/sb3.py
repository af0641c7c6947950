"""One team of a game as a single-agent gymnasium environment, for Stable-Baselines3.

The agent plays every seat of its team; the other seats are driven by any ``Policy`` between the
agent's decisions. ``action_masks()`` is the hook sb3-contrib's ``MaskablePPO`` looks for, so it
trains on this environment unchanged. An episode is one game; its reward is the mean final
reward of the seats the agent played, given on the step after which the game ended (whoever
made the last move).

This path is for comparison with the wider SB3 ecosystem; the native trainer
(``training.ppo``) is much faster because it batches every seat of every game.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import envs
from agents.policy import Policy, choose
from envs.core.aec import ILLEGAL_ACTION, OBSERVATION_HIGH


class TeamEnv(gym.Env):
    """Seats of ``team`` in one game of ``game``; everyone else plays ``opponents``.

    ``slot`` is this environment's game slot for an ``opponents`` that remembers each seat's
    game (a GRU): environments sharing one such policy need different slots.
    ``illegal_action``: ``"raise"`` (a ``ValueError``) or ``"lose"`` (the game ends, reward -1),
    PettingZoo's convention, which SB3's mask-unaware ``check_env`` needs."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, team: str, opponents: Policy, seed: int = 0,
                 render_mode: str | None = None, slot: int = 0, illegal_action: str = "raise",
                 **params):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION:
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if not isinstance(opponents, Policy):
            raise TypeError(f"opponents must be an agents.policy.Policy, got {type(opponents)}")
        self.env = envs.make_vec(game, 1, seed=seed, **params)
        teams = self.env.spec.teams
        if team not in teams:
            raise ValueError(f"{game} has teams {teams}, not {team!r}")
        self.team = teams.index(team)
        self.team_name = team
        self.opponents = opponents
        self.slot = slot
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            0.0, OBSERVATION_HIGH, (self.env.observation_size,), np.float32
        )
        self.action_space = spaces.Discrete(self.env.num_actions)
        self._played: set[int] = set()  # seats the agent decided for in this game
        self._mid_game = False

    def _ours(self) -> bool:
        seat = int(self.env.current_seat[0])
        return int(self.env.teams()[0, seat]) == self.team

    def _play_opponents(self) -> tuple[bool, float, int]:
        """Step other seats until one of ours must decide; ``(ended, our reward, winner)``."""
        while not self._ours():
            who = np.array([[self.slot, self.env.current_seat[0]]])
            action = choose(self.opponents, self.env.observation, self.env.action_mask, who)
            rewards, terminated, truncated = self.env.step(np.asarray(action, np.int64))
            if terminated[0] or truncated[0]:
                self.opponents.game_over(np.array([self.slot]))
                return True, self._reward(rewards), int(self.env.winner[0])
        return False, 0.0, -1

    def _reward(self, rewards: np.ndarray) -> float:
        seats = sorted(self._played)
        return float(np.mean(rewards[0, seats])) if seats else 0.0

    def _info(self, winner: int | None = None) -> dict:
        info = {"seat": int(self.env.current_seat[0])}
        if winner is not None:
            info["winner"] = self.env.spec.teams[winner] if winner >= 0 else None
        return info

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.opponents.game_over(np.array([self.slot]))  # the last game ended or is abandoned
        if seed is not None:
            self.env.reset(seed=seed)
        elif self._mid_game:  # abandoned game: deal a new one (a finished one was re-dealt)
            self.env.reset()
        while True:
            self._played.clear()
            ended, _, _ = self._play_opponents()
            if not ended:  # a game without any decision of ours is skipped
                break
        self._mid_game = True
        return self.env.observation[0].copy(), self._info()

    def step(self, action):
        a = int(action)
        if self.illegal_action == "lose" and 0 <= a < self.env.num_actions and not (
            self.env.action_mask[0, a]
        ):
            self._mid_game = False  # abandoned: the next reset deals a new game
            winner = 1 - self.team if len(self.env.spec.teams) == 2 else -1
            return self.env.observation[0].copy(), -1.0, True, False, self._info(winner)
        self._played.add(int(self.env.current_seat[0]))
        rewards, terminated, truncated = self.env.step(np.asarray([action], np.int64))
        if terminated[0] or truncated[0]:
            ended, reward, winner = True, self._reward(rewards), int(self.env.winner[0])
        else:
            ended, reward, winner = self._play_opponents()
        if ended:
            self._mid_game = False
            # A game's own round limit counts as its end (a draw), as in training.ppo.
            return self.env.observation[0].copy(), reward, True, False, self._info(winner)
        return self.env.observation[0].copy(), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray:  # [A] bool, for sb3-contrib's MaskablePPO
        return self.env.action_mask[0].copy()

    def render(self):
        return self.env.render(0, int(self.env.current_seat[0]))


def make_sb3_vec_env(game: str, team: str, opponents: Policy, n_envs: int = 4, seed: int = 0,
                     **params):
    """An SB3 ``DummyVecEnv`` of ``n_envs`` ``TeamEnv``s (seeds ``seed .. seed + n_envs - 1``);
    MaskablePPO reaches each one's ``action_masks()`` through ``env_method``."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    if n_envs < 1:
        raise ValueError(f"n_envs must be positive, got {n_envs}")
    return DummyVecEnv(
        [lambda i=i: TeamEnv(game, team, opponents, seed=seed + i, slot=i, **params)
         for i in range(n_envs)]
    )
