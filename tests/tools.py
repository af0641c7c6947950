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


def same_deciders(vec, players, hidden_from, view, rng, steps: int, stops=None) -> int:
    """Plays ``vec`` on with ``players`` (game slot b plays ``players[b % len(players)]``);
    every step, a quarter of its games are re-dealt in what one random seat cannot know
    (``hidden_from``) and both tables are played on with the same actions, the same seats
    deciding, until the seat's ``view(table, seat)`` differs (something hidden turned up to
    it), a game ends, or ``stops(record)`` says the next action may rightly tell the tables
    apart. Returns how many decisions were compared; a differing decider fails the test."""
    num_players = int(vec.params["num_players"])
    tables = [envs.make_vec(vec.spec.name, 1, **vec.params) for _ in range(2)]
    which = np.arange(vec.num_envs) % len(players)
    compared = 0
    for step in range(steps):
        for b in range(step % 4, vec.num_envs, 4):
            seat = int(rng.integers(num_players))
            t, changed = hidden_from(vec.records[b], seat, rng)
            if not changed:
                continue
            a, other = tables
            a.set_records(vec.records[b : b + 1])
            other.set_records(np.array([t], dtype=other.records.dtype))
            for _ in range(30):
                assert a.current_seat[0] == other.current_seat[0], (step, b, seat)
                compared += 1
                both = np.flatnonzero(a.action_mask[0] & other.action_mask[0])
                if not len(both):
                    break
                telling = stops is not None and stops(a.records[0])
                action = np.array([rng.choice(both)])
                over = [bool(v.step(action)[1][0]) for v in tables]
                if any(over) or telling or not np.array_equal(view(a, seat), view(other, seat)):
                    break
        actions = np.empty(vec.num_envs, np.int64)
        for k, player in enumerate(players):
            actions[which == k] = player.act(vec.observation, vec.action_mask)[which == k]
        vec.step(actions)
    return compared
