"""Generalised advantage estimation along each seat's own decisions.

In a turn-based game the batched rollout interleaves seats: row ``t`` of game ``b`` belongs to
whichever seat was deciding then. A seat's return depends only on its own later decisions and
on the game's end, so its advantage chain links a transition to the *same seat's* next decision
in the same game, skipping everyone else's moves in between.
"""

from __future__ import annotations

import numpy as np


def per_seat_gae(
    rewards: np.ndarray,  # [T, B] reward credited to the transition (its seat's, at game end)
    values: np.ndarray,  # [T, B] critic value at the decision
    done: np.ndarray,  # [T, B] bool: the seat made no later decision in this game
    seat: np.ndarray,  # [T, B] int: the deciding seat
    bootstrap: np.ndarray,  # [B, P] value of each seat's situation when the rollout stopped
    gamma: float,
    gae_lambda: float,
) -> tuple[np.ndarray, np.ndarray]:  # advantages [T, B], returns [T, B]
    """Advantages and returns, computed backwards with one running (value, advantage) per seat.

    ``bootstrap[b, p]`` is used for seat ``p``'s last transition in the rollout if that one is
    not ``done`` (the game is still running, so its next decision lies beyond the rollout).
    """
    T, B = rewards.shape
    if values.shape != (T, B) or done.shape != (T, B) or seat.shape != (T, B):
        raise ValueError(
            f"rewards, values, done and seat must all be [T, B] = {(T, B)}, got "
            f"{values.shape}, {done.shape}, {seat.shape}"
        )
    if bootstrap.ndim != 2 or bootstrap.shape[0] != B:
        raise ValueError(f"bootstrap must be [B, P] with B = {B}, got {bootstrap.shape}")
    rows = np.arange(B)
    next_value = bootstrap.astype(np.float32, copy=True)  # [B, P]
    next_advantage = np.zeros_like(next_value)  # [B, P]
    advantages = np.zeros((T, B), np.float32)
    for t in range(T - 1, -1, -1):
        s = seat[t]
        live = ~done[t]
        following_value = np.where(live, next_value[rows, s], 0.0)
        following_advantage = np.where(live, next_advantage[rows, s], 0.0)
        delta = rewards[t] + gamma * following_value - values[t]
        advantages[t] = delta + gamma * gae_lambda * following_advantage
        next_value[rows, s] = values[t]
        next_advantage[rows, s] = advantages[t]
    return advantages, advantages + values
