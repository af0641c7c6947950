"""The batched engine: one game's scalar rules run over ``state[B]`` records.

A game supplies five scalar functions over one record ``s`` (compiled by numba):

- ``reset(s)``: deal a new game, reading parameters and randomness from ``s`` (the engine has
  already cleared the common fields: ``terminated``, ``truncated``, ``winner``, ``rewards``);
- ``step(s, action)``: apply the pending seat's action, set ``current_seat``, and on the last
  decision set ``terminated`` / ``truncated`` and ``rewards[:num_players]``;
- ``legal_actions(s, mask_row)``: fill the pending seat's legal-action mask;
- ``observe(s, seat, out_row, offsets)``: write what ``seat`` may know, seat-relative;
- ``god_view(s, out_row, offsets)``: the privileged whole-state vector for centralised critics;
- ``team_of(s, seat)``: the seat's team as the game stands (an index into ``spec.teams``).

``observe`` and ``god_view`` write into a zeroed row at the offsets of their named pieces.

This module turns them into batch kernels (a serial loop for small batches, where thread
start-up would dominate, and a ``prange`` loop for large ones) and wraps them in ``VecEnv``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .jit import njit, prange, parallel_kernel
from .rng import game_key
from .spec import GameSpec

# Below this many games, threads cost more than they save.
PARALLEL_THRESHOLD = 256


@dataclass(frozen=True)
class GameDef:
    spec: GameSpec
    dtype: np.dtype
    reset: Callable
    step: Callable
    legal_actions: Callable
    observe: Callable
    god_view: Callable
    team_of: Callable  # njit (s, seat) -> index into spec.teams, as the game stands now
    render: Callable[[np.void, int | None], str]


class Kernels:
    """The compiled batch loops of one game (built once per game, on first use)."""

    def __init__(self, game: GameDef):
        reset_one, step_one = game.reset, game.step
        mask_one, observe_one, god_one = game.legal_actions, game.observe, game.god_view
        team_one = game.team_of

        @njit
        def emit(s, obs_row, mask_row, offsets):
            mask_row[:] = False
            mask_one(s, mask_row)
            obs_row[:] = 0.0
            observe_one(s, s["current_seat"], obs_row, offsets)

        @njit
        def new_game(s):
            """The common fields start afresh here, so a game's reset deals only its own."""
            s["terminated"] = False
            s["truncated"] = False
            s["winner"] = -1
            s["decisions"] = 0
            s["rewards"][:] = 0.0
            reset_one(s)

        @njit
        def reset_body(states, b, obs, mask, seats, offsets):
            s = states[b]
            new_game(s)
            seats[b] = s["current_seat"]
            emit(s, obs[b], mask[b], offsets)

        @njit
        def step_body(states, b, actions, obs, mask, seats, rewards, term, trunc, win, offsets, auto):
            s = states[b]
            s["rewards"][:] = 0.0
            step_one(s, actions[b])
            s["decisions"] += 1
            n = rewards.shape[1]
            for p in range(n):
                rewards[b, p] = s["rewards"][p]
            term[b] = s["terminated"]
            trunc[b] = s["truncated"]
            win[b] = s["winner"]
            if auto and (s["terminated"] or s["truncated"]):
                s["episode"] += 1
                new_game(s)
            seats[b] = s["current_seat"]
            emit(s, obs[b], mask[b], offsets)

        @njit
        def reset_serial(states, obs, mask, seats, offsets):
            for b in range(states.shape[0]):
                reset_body(states, b, obs, mask, seats, offsets)

        @parallel_kernel
        def reset_parallel(states, obs, mask, seats, offsets):
            for b in prange(states.shape[0]):
                reset_body(states, b, obs, mask, seats, offsets)

        @njit
        def step_serial(states, actions, obs, mask, seats, rewards, term, trunc, win, offsets, auto):
            for b in range(states.shape[0]):
                step_body(states, b, actions, obs, mask, seats, rewards, term, trunc, win, offsets, auto)

        @parallel_kernel
        def step_parallel(states, actions, obs, mask, seats, rewards, term, trunc, win, offsets, auto):
            for b in prange(states.shape[0]):
                step_body(states, b, actions, obs, mask, seats, rewards, term, trunc, win, offsets, auto)

        @njit
        def emit_all(states, obs, mask, seats, offsets):
            for b in range(states.shape[0]):
                seats[b] = states[b]["current_seat"]
                emit(states[b], obs[b], mask[b], offsets)

        @njit
        def first_illegal(actions, mask):
            """Index of the first game whose action is out of range or masked out, else -1."""
            for b in range(actions.shape[0]):
                a = actions[b]
                if a < 0 or a >= mask.shape[1] or not mask[b, a]:
                    return b
            return -1

        @njit
        def observe_seats(states, seats, out, offsets):
            for b in range(states.shape[0]):
                out[b, :] = 0.0
                observe_one(states[b], seats[b], out[b], offsets)

        @njit
        def god_views(states, out, offsets):
            for b in range(states.shape[0]):
                out[b, :] = 0.0
                god_one(states[b], out[b], offsets)

        @njit
        def teams(states, out):
            for b in range(states.shape[0]):
                for p in range(out.shape[1]):
                    out[b, p] = team_one(states[b], p)

        self.teams = teams
        self.emit_all = emit_all
        self.reset_serial, self.reset_parallel = reset_serial, reset_parallel
        self.step_serial, self.step_parallel = step_serial, step_parallel
        self.first_illegal = first_illegal
        self.observe_seats, self.god_views = observe_seats, god_views


_KERNELS: dict[str, Kernels] = {}


def kernels_for(game: GameDef) -> Kernels:
    if game.spec.name not in _KERNELS:
        _KERNELS[game.spec.name] = Kernels(game)
    return _KERNELS[game.spec.name]


def new_records(
    game: GameDef, num_envs: int, seed: int, params: dict, first_index: int = 0
) -> np.ndarray:
    """Records with parameters set, record b keyed by (seed, first_index + b); not yet dealt."""
    states = np.zeros(num_envs, dtype=game.dtype)
    for name, value in params.items():
        states[name] = value
    states["rng_key"] = [game_key(seed, first_index + b) for b in range(num_envs)]
    return states


class VecEnv:
    """``num_envs`` games of one kind, stepped together; finished games restart on their own.

    After ``reset()`` and every ``step()``, ``observation[b]`` and ``action_mask[b]`` are those of
    the seat ``current_seat[b]`` that must decide next in game ``b``. A game that ends in a step
    reports its final rewards in that step's return, counts one more ``episode`` and is dealt
    anew at once, so the arrays always describe a live decision.
    """

    def __init__(
        self, game: GameDef, num_envs: int, seed: int = 0, first_index: int = 0, **params
    ):
        """``first_index`` numbers the games from there: workers that share a seed but hold
        disjoint index ranges play disjoint, reproducible games."""
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if not isinstance(first_index, (int, np.integer)) or first_index < 0:
            raise ValueError(f"first_index must be a non-negative integer, got {first_index!r}")
        self.first_index = int(first_index)
        self.game = game
        self.spec = game.spec
        self.params = game.spec.resolve(**params)
        self.num_envs = int(num_envs)
        self.num_players = self.params["num_players"]
        self.num_actions = game.spec.num_actions
        self.observation_layout = game.spec.observation_layout(self.params)
        self.state_layout = game.spec.state_layout(self.params)
        self._obs_offsets = self.observation_layout.offsets
        self._state_offsets = self.state_layout.offsets
        self.observation_size = self.observation_layout.size
        self.state_size = self.state_layout.size
        self._k = kernels_for(game)
        B = self.num_envs
        self.observation = np.zeros((B, self.observation_size), np.float32)  # [B, D]
        self.action_mask = np.zeros((B, self.num_actions), np.bool_)  # [B, A]
        self.current_seat = np.zeros(B, np.int64)  # [B]
        self.rewards = np.zeros((B, self.num_players), np.float32)  # [B, P]
        self.terminated = np.zeros(B, np.bool_)  # [B]
        self.truncated = np.zeros(B, np.bool_)  # [B]
        self.winner = np.full(B, -1, np.int64)  # [B] team index, -1 for none; valid where done
        self._seed = seed
        self.records = new_records(game, B, seed, self.params, self.first_index)
        self._parallel = B >= PARALLEL_THRESHOLD
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """Deal every game anew; with ``seed``, restart every game's random stream from it."""
        if seed is not None:
            self._seed = seed
            self.records = new_records(
                self.game, self.num_envs, seed, self.params, self.first_index
            )
        run = self._k.reset_parallel if self._parallel else self._k.reset_serial
        run(self.records, self.observation, self.action_mask, self.current_seat, self._obs_offsets)

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per game; returns ``(rewards [B, P], terminated [B], truncated [B])``."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"got {actions.dtype} {actions.shape}"
            )
        actions = actions.astype(np.int64, copy=False)
        bad = self._k.first_illegal(actions, self.action_mask)
        if bad >= 0:
            a = int(actions[bad])
            what = (
                f"action {a} is out of range [0, {self.num_actions})"
                if not 0 <= a < self.num_actions
                else f"action {a} ({self.spec.action_names[a]}) is illegal"
            )
            raise ValueError(
                f"{self.spec.name}: game {bad}, seat {int(self.current_seat[bad])}: {what}; "
                f"legal: {self.legal_action_names(bad)}"
            )
        run = self._k.step_parallel if self._parallel else self._k.step_serial
        run(
            self.records, actions, self.observation, self.action_mask, self.current_seat,
            self.rewards, self.terminated, self.truncated, self.winner, self._obs_offsets, True,
        )
        return self.rewards, self.terminated, self.truncated

    def set_records(self, records: np.ndarray) -> None:
        """Continue from saved records (a snapshot, or a scripted board in a rules test)."""
        if records.dtype != self.game.dtype or records.shape != (self.num_envs,):
            raise ValueError(
                f"records must be {self.num_envs} records of the {self.spec.name} dtype, "
                f"got {records.shape} of {records.dtype if records.dtype.names else records.dtype}"
            )
        self.records = records.copy()
        self._k.emit_all(
            self.records, self.observation, self.action_mask, self.current_seat, self._obs_offsets
        )

    def legal_action_names(self, b: int) -> list[str]:
        return [self.spec.action_names[a] for a in np.flatnonzero(self.action_mask[b])]

    def observe(self, seats) -> np.ndarray:
        """Observations ``[B, D]`` of the given seat in each game (an int or ``[B]`` ints)."""
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.num_envs,))
        if seats.min() < 0 or seats.max() >= self.num_players:
            raise ValueError(f"seats must lie in [0, {self.num_players}), got {seats}")
        out = np.zeros((self.num_envs, self.observation_size), np.float32)
        self._k.observe_seats(self.records, np.ascontiguousarray(seats), out, self._obs_offsets)
        return out

    def state(self) -> np.ndarray:
        """The privileged god-view ``[B, S]`` (hidden roles and hands included): critics only."""
        out = np.zeros((self.num_envs, self.state_size), np.float32)
        self._k.god_views(self.records, out, self._state_offsets)
        return out

    def teams(self) -> np.ndarray:
        """``[B, P]`` index into ``spec.teams`` of each seat now: private, for trainers and referees."""
        out = np.zeros((self.num_envs, self.num_players), np.int64)
        self._k.teams(self.records, out)
        return out

    def render(self, b: int = 0, seat: int | None = None) -> str:
        return self.game.render(self.records[b], seat)
