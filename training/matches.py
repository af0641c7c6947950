"""Win rates of fixed policies, one per team, over many batched games, with 95% intervals.

The trainer's own check of what it learned (tests and ``docs/training.md``); tournaments and
ratings belong to ``evaluation/``.
"""

from __future__ import annotations

import math

import numpy as np

import envs
from agents.policy import Policy


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval: unlike the normal approximation, it stays inside [0, 1] and
    is honest near 0 and 1, where trained-vs-scripted win rates often sit."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game: str, policies: dict[str, Policy], games: int, seed: int = 0, num_envs: int = 512,
         **params) -> dict:
    """Play exactly ``games`` games; each pending decision goes to the policy of the deciding
    seat's current team.

    Each table plays a fixed quota of games: counting "the first ``games`` to finish" instead
    would over-represent short games (and so whichever team wins quickly).

    Returns ``{"games", "wins": {team: n}, "draws", "win_rate": {team: (rate, low, high)}}``.
    """
    env = envs.make_vec(game, min(num_envs, games), seed=seed, **params)
    teams = env.spec.teams
    missing = sorted(set(teams) - set(policies))
    if missing:
        raise ValueError(f"{game}: no policy for team(s) {missing}")
    rows = np.arange(env.num_envs)
    wins = np.zeros(len(teams) + 1, np.int64)  # per team, then draws
    actions = np.zeros(env.num_envs, np.int64)
    quota = games // env.num_envs + (rows < games % env.num_envs)  # [B] games each table plays
    finished = np.zeros(env.num_envs, np.int64)
    while (finished < quota).any():
        team = env.teams()[rows, env.current_seat]
        for k, name in enumerate(teams):
            idx = np.flatnonzero(team == k)
            if idx.size:
                actions[idx] = policies[name].act(env.observation[idx], env.action_mask[idx])
        _, terminated, truncated = env.step(actions)
        ended = np.flatnonzero((terminated | truncated) & (finished < quota))
        np.add.at(wins, env.winner[ended], 1)
        finished[ended] += 1
    return {
        "games": games,
        "wins": {name: int(wins[k]) for k, name in enumerate(teams)},
        "draws": int(wins[-1]),
        "win_rate": {
            name: (float(wins[k] / games), *wilson(int(wins[k]), games))
            for k, name in enumerate(teams)
        },
    }
