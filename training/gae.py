"""Generalised advantage estimation along each seat's own decisions.

In a turn-based game the batched rollout interleaves seats: row ``t`` of game ``b`` belongs to
whichever seat was deciding then. A seat's return depends only on its own later decisions and
on the game's end, so its advantage chain links a transition to the *same seat's* next decision
in the same game, skipping everyone else's moves in between.

A seat's latest row that is not ``done`` when the rollout stops has no successor yet: it is
*pending*. It is not trained now (its target is unknown); the earlier rows of its chain
bootstrap from its own stored value, which the critic computed from a decision view like every
view it trains on. The trainer carries the pending row into the next rollout, where its
successor (the seat's next decision, or the game's end) resolves it.
"""

from __future__ import annotations

import numpy as np


def per_seat_gae(
    rewards: np.ndarray,  # [S, B] reward credited to the transition
    values: np.ndarray,  # [S, B] critic value at the decision
    done: np.ndarray,  # [S, B] bool: the seat made no later decision in this chain
    seat: np.ndarray,  # [S, B] int: the deciding seat
    valid: np.ndarray,  # [S, B] bool: the row holds a transition
    num_players: int,
    gamma: float,
    gae_lambda: float,
    cut: np.ndarray | None = None,  # [S, B] bool: done rows whose chain ended at a team change
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # advantages, returns [S, B]; resolved [S, B]
    """Advantages and returns, computed backwards over slots ``S`` (in time order) with one
    running (value, advantage) per seat. Rows that are not ``resolved`` (pending, or not
    valid) get NaN advantages and returns, so using one by mistake cannot pass unnoticed.

    A ``cut`` row (the Menace Coward's last decision before he changed sides) takes the one-step
    target ``r + gamma * V(next)`` from the value of the seat's next decision, which another
    network computed, with no advantage chained past it: his reward is his survival on either
    side, so ending the row at 0 would train his earlier decisions toward a return he never
    gets. A next decision with no value (a frozen league player's) ends it at 0."""
    S, B = rewards.shape
    for name, a in (("values", values), ("done", done), ("seat", seat), ("valid", valid)):
        if a.shape != (S, B):
            raise ValueError(f"{name} must be [S, B] = {(S, B)} like rewards, got {a.shape}")
    rows = np.arange(B)
    next_value = np.zeros((B, num_players), np.float32)
    next_advantage = np.zeros((B, num_players), np.float32)
    has_next = np.zeros((B, num_players), np.bool_)
    advantages = np.full((S, B), np.nan, np.float32)
    resolved = np.zeros((S, B), np.bool_)
    for t in range(S - 1, -1, -1):
        v = valid[t]
        every = bool(v.all())  # the step slots; only carry slots have gaps
        s = seat[t] if every else np.where(v, seat[t], 0)
        follows = has_next[rows, s] & ~done[t]
        ok = (done[t] | follows) if every else v & (done[t] | follows)
        bootstrap = follows
        if cut is not None:
            bootstrap = follows | (cut[t] & has_next[rows, s] & np.isfinite(next_value[rows, s]))
        following_value = np.where(bootstrap, next_value[rows, s], 0.0)
        following_advantage = np.where(follows, next_advantage[rows, s], 0.0)
        advantage = (rewards[t] + gamma * following_value - values[t]
                     + gamma * gae_lambda * following_advantage)
        advantages[t] = np.where(ok, advantage, np.nan)
        resolved[t] = ok
        # A pending row passes on its own value with no advantage behind it (chain truncated).
        g, sv = (rows, s) if every else (rows[v], s[v])
        next_value[g, sv] = values[t] if every else values[t][v]
        next_advantage[g, sv] = np.where(ok, advantage, 0.0) if every else np.where(
            ok[v], advantage[v], 0.0)
        has_next[g, sv] = True
    return advantages, advantages + values, resolved
