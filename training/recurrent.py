"""The GRU actor in the update: each seat's decisions of the rollout replayed in order.

The rollout stores the memory each decision started from (``memory_in``). The update rebuilds a
team's transitions as one column per (game slot, seat), in time order, and runs the GRU down
each column: a column starts from its first row's stored memory, and restarts wherever a new
game begins in that slot (the episode counter changes, whatever seats did in between; a seat
that changed team is in another group's columns). So the update's log-probabilities start from
exactly the rollout's (truncated back-propagation through time over the rollout).
"""

from __future__ import annotations

import numpy as np
import torch


def seat_sequences(batch_rows: np.ndarray, B: int, seat: np.ndarray, episode: np.ndarray):
    """A team's transitions as per-seat sequences, for back-propagation through a GRU.

    ``batch_rows`` are flat indices ``slot * B + b`` into the rollout (slots in time order);
    ``seat`` and ``episode`` are the rollout's ``[S, B]`` arrays. Returns ``index [L, C]``
    (positions into ``batch_rows``, -1 as padding; one column per (game slot, seat), in time
    order) and ``restart [L, C]``: where the memory restarts from the stored value (a column's
    first row, and the first row of each new game).
    """
    t, b = np.divmod(batch_rows, B)
    s = seat.reshape(-1)[batch_rows]
    order = np.lexsort((t, s, b))
    key = b[order] * (s.max() + 1) + s[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    column = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, order.size]))
    position = np.arange(order.size) - starts[column]
    index = np.full((position.max() + 1, starts.size), -1, np.int64)
    index[position, column] = order
    game = episode.reshape(-1)[batch_rows[order]]
    new_game = np.r_[True, game[1:] != game[:-1]]
    restart = np.zeros(index.shape, np.bool_)
    restart[position, column] = (position == 0) | new_game
    return index, restart


def recurrent_logits(model, obs, memory_in, index, restart):
    """Logits of the valid entries of ``index [L, C]`` (time-major order), the GRU memory
    carried along each column; returns ``(rows, logits, features)``, the features being each
    entry's new memory (what the belief head reads)."""
    memory = torch.zeros((index.shape[1], model.memory_size))
    rows, logits, features = [], [], []
    for step in range(index.shape[0]):
        valid = index[step] >= 0
        at = index[step].clamp_min(0)
        memory = torch.where(restart[step, :, None], memory_in[at], memory)
        out, new_memory = model.actor_step(obs[at], memory)
        memory = torch.where(valid[:, None], new_memory, memory)
        rows.append(index[step][valid])
        logits.append(out[valid])
        features.append(new_memory[valid])
    return torch.cat(rows), torch.cat(logits), torch.cat(features)
