"""Helpers shared by the conformance tests of every game."""

from __future__ import annotations

import hashlib

import numpy as np

import envs


def pick(observation: np.ndarray, mask: np.ndarray, step: int) -> np.ndarray:
    """A legal action per row that depends only on that game's own view and the step number,
    so that a game is driven alike whatever batch it sits in."""
    out = np.empty(mask.shape[0], np.int64)
    for b in range(mask.shape[0]):
        legal = np.flatnonzero(mask[b])
        key = int(np.round(observation[b].astype(np.float64).sum() * 997)) + 31 * step
        out[b] = legal[key % len(legal)]
    return out


def run_games(game: str, seed: int, num_envs: int, steps: int, first_index: int = 0, **params):
    """Step ``num_envs`` games ``steps`` times with ``pick``; the records and the outcomes."""
    vec = envs.make_vec(game, num_envs, seed=seed, first_index=first_index, **params)
    outcomes = []
    for step in range(steps):
        rewards, terminated, truncated = vec.step(pick(vec.observation, vec.action_mask, step))
        done = terminated | truncated
        outcomes.append(np.where(done[:, None], rewards, 0.0))
    return vec.records.copy(), np.stack(outcomes, axis=1)


def record_bytes(records: np.ndarray) -> bytes:
    """The fields' bytes, without the alignment padding between them (which is not state)."""
    return b"".join(np.ascontiguousarray(records[f]).tobytes() for f in records.dtype.names)


def digest(game: str, seed: int, num_envs: int = 16, steps: int = 300, **params) -> str:
    records, outcomes = run_games(game, seed, num_envs, steps, **params)
    return hashlib.sha256(record_bytes(records) + outcomes.tobytes()).hexdigest()
