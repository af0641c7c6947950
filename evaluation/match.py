"""Matches between policies, one per team, over the batched engine, with 95% intervals.

Win rates are proportions of games, so the interval is Wilson's score interval
(``evaluation.stats``), which stays inside [0, 1] and behaves at rates near 0 or 1 where the
normal approximation does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import envs
from agents.policy import Policy, choose

from .stats import wilson_interval


@dataclass
class MatchResult:
    game: str
    params: dict
    policies: dict[str, str]
    games: int
    wins: dict[str, int]  # by team name
    draws: int
    decisions: int

    def rate(self, team: str) -> float:
        return self.wins[team] / self.games

    def interval(self, team: str) -> tuple[float, float]:
        return wilson_interval(self.wins[team], self.games)

    def as_dict(self) -> dict:
        return {
            "game": self.game,
            "params": self.params,
            "policies": self.policies,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": {t: self.rate(t) for t in self.wins},
            "interval95": {t: self.interval(t) for t in self.wins},
            "decisions_per_game": self.decisions / max(1, self.games),
        }


def play_match(
    game: str,
    policies: dict[str, Policy],
    num_games: int,
    num_envs: int = 1024,
    seed: int = 0,
    **params,
) -> MatchResult:
    """Play ``num_games`` complete games, each seat driven by its team's policy.

    Exactly the first ``num_games`` games to finish count: with many games in flight, the
    short ones would otherwise be over-represented, so each of the ``num_envs`` slots counts
    at most ``ceil(num_games / num_envs)`` games and later finishes are ignored.
    """
    for name, value in (("num_games", num_games), ("num_envs", num_envs)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    vec = envs.make_vec(game, min(num_envs, num_games), seed=seed, **params)
    teams = vec.spec.teams
    missing = sorted(set(teams) - set(policies))
    if missing:
        raise ValueError(f"{game}: no policy for team(s) {missing}; teams are {list(teams)}")
    per_slot = -(-num_games // vec.num_envs)
    quota = np.full(vec.num_envs, per_slot)
    quota[: per_slot * vec.num_envs - num_games] -= 1  # exactly num_games in all
    counted = np.zeros(vec.num_envs, np.int64)
    wins = {t: 0 for t in teams}
    draws = decisions = 0
    rows = np.arange(vec.num_envs)
    who = np.empty((vec.num_envs, 2), np.int64)  # each row's (game slot, seat)
    who[:, 0] = rows
    while (counted < quota).any():
        who[:, 1] = vec.current_seat
        seat_team = vec.teams()[rows, vec.current_seat]
        actions = np.empty(vec.num_envs, np.int64)
        for t, name in enumerate(teams):
            idx = np.flatnonzero(seat_team == t)
            if idx.size:
                actions[idx] = choose(policies[name], vec.observation[idx],
                                      vec.action_mask[idx], who[idx])
        live = counted < quota
        decisions += int(live.sum())
        _, terminated, truncated = vec.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        if ended.size:
            for policy in set(policies.values()):
                policy.game_over(ended)
        done = (terminated | truncated) & live
        for b in np.flatnonzero(done):
            if terminated[b] and vec.winner[b] >= 0:
                wins[teams[vec.winner[b]]] += 1
            else:
                draws += 1
        counted += done
    return MatchResult(
        game=game,
        params=vec.params,
        policies={t: repr(policies[t]) for t in teams},
        games=int(counted.sum()),
        wins=wins,
        draws=draws,
        decisions=decisions,
    )
