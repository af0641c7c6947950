"""A person plays one seat at the terminal; every other seat is played by a named policy."""

from __future__ import annotations

import numpy as np

import envs
from agents import make_policy
from agents.policy import choose
from agents.human import HumanPolicy


def play(game: str, seat: int, opponents: str = "heuristic", seed: int = 0, read=input, **params):
    vec = envs.make_vec(game, 1, seed=seed, **params)
    if not 0 <= seat < vec.num_players:
        raise ValueError(f"seat must be in [0, {vec.num_players}), got {seat}")
    others = make_policy(opponents, vec.spec, vec.params, seed)
    human = HumanPolicy(vec.spec.action_names, lambda: vec.render(0, seat), read=read)
    team = vec.spec.teams[vec.teams()[0, seat]]
    print(f"You are player_{seat} ({team}).")
    while True:
        policy = human if vec.current_seat[0] == seat else others
        who = np.array([[0, vec.current_seat[0]]])  # game slot 0, the seat to decide
        action = choose(policy, vec.observation, vec.action_mask, who)
        if policy is others:
            print(f"player_{vec.current_seat[0]}: {vec.spec.action_names[action[0]]}")
        rewards, terminated, truncated = vec.step(np.asarray(action, np.int64))
        if terminated[0] or truncated[0]:
            outcome = "a draw" if truncated[0] else f"{vec.spec.teams[vec.winner[0]]} wins"
            print(f"Game over: {outcome}. Your reward: {rewards[0, seat]:+.0f}")
            return float(rewards[0, seat])
