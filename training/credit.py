"""Which transition each reward belongs to: the bookkeeping of per-seat trajectories.

A transition belongs to the seat that decided. ``last [B, P]`` holds the flat rollout row of
each seat's latest decision in its current game, or -1 before its first. It is *not* reset when
a rollout ends: a seat still waiting for its turn keeps pointing at its latest row (the trainer
carries that row into the next rollout), so a reward paid after a rollout boundary still
reaches the decision it belongs to. Only a game's end forgets a seat's row.

These are pure functions of their arguments (they update the arrays they are given in place and
return counts), so the rules can be tested without the engine or the networks.
"""

from __future__ import annotations

import numpy as np


def record_decisions(
    last: np.ndarray,  # [B, P] int: flat row of each seat's latest decision, -1 for none
    seat: np.ndarray,  # [B] int: the seat deciding now in each game
    new_row: np.ndarray,  # [B] int: the flat row this step's decision is stored in
    group: np.ndarray,  # [R] int (flat rows): the network whose data the row is
    learn: np.ndarray,  # [R] bool (flat rows): the row is the learner's, not a frozen player's
    done: np.ndarray,  # [R] bool (flat rows): the row's seat makes no later decision in its chain
    cut_rows: np.ndarray,  # [R] bool (flat rows): the chain ended at a change of network
    decided: np.ndarray,  # [B, P] bool: the seat has decided in its current game
) -> int:
    """Make this step's decisions each seat's latest; returns how many chains were cut.

    A seat's previous row chains into this one only if the same network, learner or frozen,
    played both: a seat whose team changes mid-game (the Menace Coward) stops being that
    network's to value, so its earlier row ends there (``done``, nothing more to earn under that
    network). It is marked ``cut_rows`` too: the Coward's reward is his own survival whichever
    side he ends on, so the row bootstraps from the value of his next decision (the new
    network's) rather than ending at 0 (``training.gae.per_seat_gae``). ``group`` and ``learn``
    must already hold this step's rows.
    """
    games = np.arange(seat.size)
    previous = last[games, seat]
    linked = previous >= 0
    prev_rows = previous[linked]
    now = new_row[linked]
    cut = (group[prev_rows] != group[now]) | (learn[prev_rows] != learn[now])
    done[prev_rows[cut]] = True
    cut_rows[prev_rows[cut]] = True
    last[games, seat] = new_row
    decided[games, seat] = True
    return int(cut.sum())


def credit_rewards(
    last: np.ndarray,  # [B, P] int
    rewards: np.ndarray,  # [B, P] float: paid to each seat in this step
    ended: np.ndarray,  # [B] bool: the game ended in this step
    reward_buf: np.ndarray,  # [R] float (flat rows): reward credited to each transition
    done: np.ndarray,  # [R] bool (flat rows)
    decided: np.ndarray,  # [B, P] bool
) -> tuple[float, float, float]:
    """Credit each seat's reward to its latest decision; at a game's end, mark every seat's
    latest row ``done`` and forget it.

    Returns ``(credited, lost, undecided)`` in absolute reward: ``lost`` is paid to seats that
    decided in this game but have no row to take it (a bookkeeping bug: must stay 0);
    ``undecided`` is paid to seats that never decided in the game (no choice of theirs to credit).
    """
    b, p = np.nonzero(rewards)  # few: rewards come at game ends
    r, rows = rewards[b, p], last[b, p]
    to_row = rows >= 0
    reward_buf[rows[to_row]] += r[to_row]  # (game, seat) pairs own distinct rows
    missed_decided = ~to_row & decided[b, p]
    lost = float(np.abs(r[missed_decided]).sum())
    undecided = float(np.abs(r[~to_row & ~missed_decided]).sum())
    if ended.any():
        ending = last[ended]
        done[ending[ending >= 0]] = True
        last[ended] = -1
        decided[ended] = False
    return float(np.abs(r[to_row]).sum()), lost, undecided
