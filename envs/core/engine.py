"""The batched engine: one game's scalar rules run over ``state[B]`` records.

A game supplies five scalar functions over one record ``s`` (compiled by numba):

- ``reset(s)``: deal a new game, reading parameters and randomness from ``s`` (the engine has
  already cleared the common fields: ``terminated``, ``truncated``, ``winner``, ``rewards``);
- ``step(s, action)``: apply the pending seat's action, set ``current_seat``, and on the last
  decision set ``terminated`` / ``truncated`` and ``rewards[:num_players]``;
- ``legal_actions(s, mask_row)``: fill the pending seat's legal-action mask;
- ``observe(s, seat, out_row, offsets, n)``: write what ``seat`` may know, seat-relative, at a
  table of ``n`` seats;
- ``god_view(s, out_row, offsets)``: the privileged whole-state vector for centralised critics;
- ``team_of(s, seat)``: the seat's team as the game stands (an index into ``spec.teams``).

``observe`` and ``god_view`` write into a zeroed row at the offsets of their named pieces.

This module turns them into batch kernels (a serial loop for small batches, where thread
start-up would dominate, and a ``prange`` loop for large ones) and wraps them in ``VecEnv``.
"""

from __future__ import annotations

import sys
import threading
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numba
import numpy as np

from .jit import ON_TBB, announce_first_compile, inline, njit
from .limits import check_records
from .rng import game_key
from .spec import GameSpec

# Below this many games, threads cost more than they save. Measured in one process on 2 vCPUs,
# Among Us, agent-steps/s serial vs parallel. On TBB (two runs of ten alternated rounds):
# B=384 2.22, 2.33M vs 1.88, 2.02M; 512 1.49, 2.14M vs 2.05, 2.84M; 1024 2.14, 2.23M vs 3.26,
# 3.14M. On numba's workqueue pool, whose sleeping threads take tens of microseconds to wake
# for every loop: B=256 1.71M vs 0.93M, 1024 1.40M vs 1.23M, 2048 1.88M vs 1.84M, 4096 1.77M
# vs 2.25M.
PARALLEL_THRESHOLD = 512 if ON_TBB else 2048


def threaded(num_games: int) -> bool:
    """Whether a batch loop over this many games runs on threads: only from the threshold up,
    and only where the calling thread may use more than one (a trainer that keeps to one thread
    then never compiles the threaded loops)."""
    return num_games >= PARALLEL_THRESHOLD and numba.get_num_threads() > 1

_BATCH_FILE = Path(__file__).with_name("batch.py")
_BATCH_SOURCE = _BATCH_FILE.read_text()


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
    # Compile a copy of observe per table size (at default options) with the seat count and
    # the pieces' offsets as constants, so LLVM unrolls the seat loops and folds every index.
    # It pays where index arithmetic is most of the observation: Among Us, 1.2-1.4x the
    # agent-steps/s at B=4096 for 18 s more of first compile. The Menace's observation is
    # mostly its cards: 1.0-1.1x for 34 s more, so it keeps the one general copy.
    constant_layouts: bool = False


class Kernels:
    """The compiled batch loops of one game (built once per game, on first use)."""

    def __init__(self, game: GameDef):
        # A real module in sys.modules: numba's on-disk cache finds a kernel's globals by module
        # name when it loads the kernel in a later process.
        module = types.ModuleType(f"envs.core.batch_{game.spec.name}")
        module.__file__ = str(_BATCH_FILE)
        module.__dict__.update(
            reset_one=game.reset,
            step_one=game.step,
            mask_one=game.legal_actions,
            observe_one=game.observe,
            god_one=game.god_view,
            team_one=game.team_of,
        )
        self.layouts = []  # (num_players, offsets) of each copy of observe with constants
        if game.constant_layouts:
            module.observe_constant = inline(getattr(game.observe, "py_func", game.observe))
            for n in range(game.spec.min_players, game.spec.max_players + 1):
                offsets = game.spec.observation_layout(game.spec.resolve(num_players=n)).offsets
                # numpy integers, as the record's are: pure Python (NUMBA_DISABLE_JIT) then
                # adds them to the record's int8 fields without overflowing.
                k = len(self.layouts)
                module.__dict__.update({f"LAYOUT_{k}": tuple(offsets), f"SEATS_{k}": np.int64(n)})
                self.layouts.append((n, offsets))
        sys.modules[module.__name__] = module
        exec(compile(_observe_row_source(self.layouts), str(_BATCH_FILE), "exec"), module.__dict__)
        exec(compile(_BATCH_SOURCE, str(_BATCH_FILE), "exec"), module.__dict__)
        namespace = module.__dict__
        for name in (
            "reset_serial", "reset_parallel", "step_serial", "step_parallel", "emit_all",
            "observe_seats", "god_views", "teams",
        ):
            setattr(self, name, namespace[name])

    def layout_id(self, num_players: int, offsets: np.ndarray) -> int:
        """Which constant copy of observe serves this layout; -1 for the general one."""
        for k, (n, fixed) in enumerate(self.layouts):
            if n == num_players and np.array_equal(fixed, offsets):
                return k
        return -1


def _observe_row_source(layouts) -> str:
    """``observe_row(s, seat, out, offsets, layout)``: layout -1 runs the game's observe as it
    is; layout k runs its copy compiled with the seat count and offsets of ``layouts[k]``."""
    lines = ["from envs.core.jit import inline, njit", ""]
    for k in range(len(layouts)):
        lines += ["@njit", f"def observe_{k}(s, seat, out):",
                  f"    observe_constant(s, seat, out, LAYOUT_{k}, SEATS_{k})", ""]
    lines += ["@inline", "def observe_row(s, seat, out, offsets, layout):",
              "    if layout < 0:", '        observe_one(s, seat, out, offsets, s["num_players"])']
    for k in range(len(layouts)):
        lines += [f"    elif layout == {k}:", f"        observe_{k}(s, seat, out)"]
    return "\n".join(lines) + "\n"


@njit
def first_illegal(actions, mask):
    """Index of the first game whose action is out of range or masked out, else -1."""
    for b in range(actions.shape[0]):
        a = actions[b]
        if a < 0 or a >= mask.shape[1] or not mask[b, a]:
            return b
    return -1


_KERNELS: dict[str, Kernels] = {}


def kernels_for(game: GameDef) -> Kernels:
    if game.spec.name not in _KERNELS:
        announce_first_compile(game.spec.name)
        _KERNELS[game.spec.name] = Kernels(game)
    return _KERNELS[game.spec.name]


def integer(value, name: str, low: int = 0, high: int = 2**63 - 1) -> int:
    """``value`` as an int if it is an integer (Python or numpy, a 0-d integer array too) in
    ``[low, high]``; a bool, float or string is refused rather than silently converted."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}], got {value!r}")
    return int(value)


def check_seed(seed) -> int:
    return integer(seed, "seed", 0, 2**63 - 1)


def new_records(
    game: GameDef, num_envs: int, seed: int, params: dict, first_index: int = 0
) -> np.ndarray:
    """Records with parameters set (a value each, or one per record), record b keyed by
    (seed, first_index + b); not yet dealt."""
    seed = check_seed(seed)
    states = np.zeros(num_envs, dtype=game.dtype)
    for name, value in params.items():
        states[name] = value
    states["rng_key"] = [game_key(seed, first_index + b) for b in range(num_envs)]
    return states


def pickle_by_game_name(env) -> dict:
    """An env's state without its compiled kernels: ``unpickle_by_game_name`` finds them again
    by the game's name, so the env unpickles in a process that never built that game (a
    ``spawn`` worker). Shared by ``VecEnv`` and the AEC env."""
    state = env.__dict__.copy()
    for key in ("_k", "game", "spec"):
        del state[key]
    state["game_name"] = env.spec.name
    return state


def unpickle_by_game_name(env, state: dict) -> None:
    from .registry import game

    name = state.pop("game_name")
    env.__dict__.update(state)
    env.game = game(name)
    env.spec = env.game.spec
    env._k = kernels_for(env.game)


class VecEnv:
    """``num_envs`` games of one kind, stepped together; finished games restart on their own.

    After ``reset()`` and every ``step()``, ``observation[b]`` and ``action_mask[b]`` are those of
    the seat ``current_seat[b]`` that must decide next in game ``b``. A game that ends in a step
    reports its final rewards in that step's return, counts one more ``episode`` and is dealt
    anew at once, so the arrays always describe a live decision.

    The attributes (``observation``, ``action_mask``, ``current_seat``, ``winner``, ...) are
    buffers that the next call overwrites; what ``step`` returns is a fresh copy, the caller's
    to keep (the copies cost 0.1-1.3% of a step at B=4096:
    ``python -m evaluation.soak GAME --copy-cost --envs 4096``).
    Every method holds the VecEnv's lock, so calls from several threads take turns and never
    interleave inside a step; a thread that reads ``observation`` and then steps still races
    with another thread's step in between (the action may then be refused as illegal).
    A VecEnv pickles (into another process too) as its game's name, parameters and records.
    """

    def __init__(
        self, game: GameDef, num_envs: int, seed: int = 0, first_index: int = 0, **params
    ):
        """``first_index`` numbers the games from there: workers that share a seed but hold
        disjoint index ranges play disjoint, reproducible games."""
        num_envs = integer(num_envs, "num_envs", 1, 2**31 - 1)
        self.first_index = integer(first_index, "first_index", 0, 2**63 - 1)
        self._seed = check_seed(seed)
        self._lock = threading.Lock()
        self.game = game
        self.spec = game.spec
        self.params = game.spec.resolve(**params)
        self.num_envs = int(num_envs)
        self.num_players = self.params["num_players"]
        self.num_actions = game.spec.num_actions
        self.observation_layout = game.spec.observation_layout(self.params)
        self.state_layout = game.spec.state_layout(self.params)
        self._obs_offsets = self.observation_layout.offsets
        self._k = kernels_for(game)
        self._layout = self._k.layout_id(self.num_players, self._obs_offsets)
        self._state_offsets = self.state_layout.offsets
        self.observation_size = self.observation_layout.size
        self.state_size = self.state_layout.size
        B = self.num_envs
        self.observation = np.zeros((B, self.observation_size), np.float32)  # [B, D]
        self.action_mask = np.zeros((B, self.num_actions), np.bool_)  # [B, A]
        self.current_seat = np.zeros(B, np.int64)  # [B]
        self.rewards = np.zeros((B, self.num_players), np.float32)  # [B, P]
        self.terminated = np.zeros(B, np.bool_)  # [B]
        self.truncated = np.zeros(B, np.bool_)  # [B]
        self.winner = np.full(B, -1, np.int64)  # [B] team index, -1 for none; valid where done
        self.slot_params: dict[str, np.ndarray] = {}  # per-slot values set by ``vary``
        self.records = new_records(game, B, seed, self.params, self.first_index)
        self.reset()

    def vary(self, name: str, values) -> None:
        """Give each slot its own value of a per-game parameter: slot ``b`` plays
        ``values[b]`` in every game it deals from now on (its restarts, ``deal`` and ``reset``
        included); every game is dealt anew at once.

        A trainer mixes round limits this way, so that a policy also meets the last rounds it
        would otherwise never reach (``training.ppo.Args.vary``). The VecEnv's own value stays
        the ceiling: every value lies between the parameter's least and that, so whatever
        derives from the parameters (the longest game, ``set_records``' ranges) still holds."""
        p = next((p for p in self.spec.params if p.name == name), None)
        if p is None:
            raise ValueError(
                f"{self.spec.name}: unknown parameter {name!r}; valid are "
                f"{[q.name for q in self.spec.params]}"
            )
        if not p.per_game:
            per_game = [q.name for q in self.spec.params if q.per_game]
            raise ValueError(
                f"{self.spec.name}: parameter {name!r} is the same for every game of a VecEnv; "
                f"only {per_game or 'none'} may vary"
            )
        values = np.asarray(values)
        if values.shape != (self.num_envs,) or values.dtype.kind not in "iu":
            raise ValueError(
                f"values of {name!r} must be {self.num_envs} integers, one per slot, got "
                f"{values.dtype} {values.shape}"
            )
        low, high = p.low, self.params[name]
        if values.min() < low or values.max() > high:
            bad = int(np.flatnonzero((values < low) | (values > high))[0])
            raise ValueError(
                f"{self.spec.name}: slot {bad}: {name} {int(values[bad])} is outside "
                f"[{low}, {high}] (the VecEnv's own {name} is the most a slot may play)"
            )
        self.slot_params[name] = values.astype(np.int64)
        self.reset(self._seed)

    def _slot_values(self, slots=slice(None)) -> dict:
        """The parameters that new records of these slots carry: the VecEnv's own, and each
        varied one's per-slot values."""
        return {**self.params, **{k: v[slots] for k, v in self.slot_params.items()}}

    def reset(self, seed: int | None = None) -> None:
        """Deal every game anew; with ``seed``, restart every game's random stream from it."""
        with self._lock:
            if seed is not None:
                self.records = new_records(
                    self.game, self.num_envs, seed, self._slot_values(), self.first_index
                )
                self._seed = int(seed)
            run = self._k.reset_parallel if threaded(self.num_envs) else self._k.reset_serial
            run(
                self.records, self.observation, self.action_mask, self.current_seat,
                self._obs_offsets, self._layout,
            )

    def step(self, actions, autoreset: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per game; returns ``(rewards [B, P], terminated [B], truncated [B])``,
        fresh arrays the caller may keep. ``autoreset=False`` leaves a finished game's record
        as it ended (for a person to see how; the arrays then describe no live decision, and
        the VecEnv needs ``reset()`` before it steps that game again)."""
        with self._lock:
            return self._step(actions, autoreset)

    def _step(self, actions, autoreset: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"got {actions.dtype} {actions.shape}"
            )
        actions = actions.astype(np.int64, copy=False)
        bad = first_illegal(actions, self.action_mask)
        if bad >= 0 and not self.action_mask[bad].any():
            raise ValueError(
                f"{self.spec.name}: game {bad}, seat {int(self.current_seat[bad])} has no legal "
                f"action: its record (loaded with set_records?) is not a live decision"
            )
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
        run = self._k.step_parallel if threaded(self.num_envs) else self._k.step_serial
        run(
            self.records, actions, self.observation, self.action_mask, self.current_seat,
            self.rewards, self.terminated, self.truncated, self.winner, self._obs_offsets,
            self._layout, autoreset,
        )
        return self.rewards.copy(), self.terminated.copy(), self.truncated.copy()

    def deal(self, slots, indices) -> None:
        """Deal game ``indices[k]`` of this env's seed into slot ``slots[k]``: the same game as
        slot 0 of ``make_vec(..., seed, first_index=indices[k])``, whatever the slot held. An
        evaluation refills finished slots this way, so game ``i`` of a match is the same deal
        whichever policies play it and however the games are spread over slots."""
        slots = np.asarray(slots, np.int64).reshape(-1)
        indices = np.asarray(indices, np.int64).reshape(-1)
        if slots.shape != indices.shape:
            raise ValueError(f"{slots.size} slots but {indices.size} game indices")
        if slots.size and (slots.min() < 0 or slots.max() >= self.num_envs):
            raise ValueError(f"slots must lie in [0, {self.num_envs}), got {slots}")
        if np.unique(slots).size != slots.size:
            raise ValueError(f"a slot appears twice in {slots}")
        if indices.size and indices.min() < 0:
            raise ValueError(f"game indices must be non-negative, got {indices}")
        fresh = new_records(self.game, slots.size, self._seed, self._slot_values(slots))
        fresh["rng_key"] = [game_key(self._seed, int(i)) for i in indices]
        obs = np.zeros((slots.size, self.observation_size), np.float32)
        mask = np.zeros((slots.size, self.num_actions), np.bool_)
        seats = np.zeros(slots.size, np.int64)
        self._k.reset_serial(fresh, obs, mask, seats, self._obs_offsets, self._layout)
        with self._lock:
            self.records[slots] = fresh
            self.observation[slots] = obs
            self.action_mask[slots] = mask
            self.current_seat[slots] = seats

    def set_records(self, records: np.ndarray) -> None:
        """Continue from saved records (a snapshot, or a scripted board in a rules test).

        The records must come from a VecEnv of the same game and parameters, and every field
        must lie in its declared range (``envs/<game>/limits.py``), with no game finished;
        otherwise a ``ValueError`` names the record, the field and both values, and this VecEnv
        is left as it was. The ranges keep the compiled rules inside the record's memory; they
        cannot prove a scripted board reachable in play (a board half-way through a test's
        edits may leave the deciding seat no legal action, which ``step`` then reports)."""
        if not isinstance(records, np.ndarray):
            raise ValueError(
                f"records must be a numpy array of {self.spec.name} records, "
                f"got {type(records).__name__}"
            )
        if records.dtype != self.game.dtype or records.shape != (self.num_envs,):
            raise ValueError(
                f"records must be {self.num_envs} records of the {self.spec.name} dtype, "
                f"got {records.shape} of {records.dtype if records.dtype.names else records.dtype}"
            )
        # astype, not copy: records read back with np.load compare equal to the engine's dtype
        # but are not an aligned struct, and numba would compile every kernel again for them
        records = records.astype(self.game.dtype)
        check_records(self.spec, records, self.params, self.slot_params)
        observation = np.zeros_like(self.observation)
        action_mask = np.zeros_like(self.action_mask)
        current_seat = np.zeros_like(self.current_seat)
        self._k.emit_all(
            records, observation, action_mask, current_seat, self._obs_offsets, self._layout
        )
        with self._lock:
            self.records = records
            self.observation[:] = observation
            self.action_mask[:] = action_mask
            self.current_seat[:] = current_seat

    def legal_action_names(self, b: int) -> list[str]:
        return [self.spec.action_names[a] for a in np.flatnonzero(self.action_mask[b])]

    def observe(self, seats) -> np.ndarray:
        """Observations ``[B, D]`` of the given seat in each game (an int or ``[B]`` ints)."""
        if isinstance(seats, np.ndarray) and seats.ndim == 1:
            if seats.dtype.kind not in "iu" or seats.shape != (self.num_envs,):
                raise ValueError(
                    f"seats must be an int or {self.num_envs} ints, got {seats.dtype} "
                    f"{seats.shape}"
                )
            if seats.min() < 0 or seats.max() >= self.num_players:
                raise ValueError(f"seats must lie in [0, {self.num_players}), got {seats}")
            seats = seats.astype(np.int64)
        else:
            seat = integer(seats, "seats", 0, self.num_players - 1)
            seats = np.full(self.num_envs, seat, np.int64)
        out = np.zeros((self.num_envs, self.observation_size), np.float32)
        with self._lock:
            self._k.observe_seats(self.records, seats, out, self._obs_offsets)
        return out

    def state(self) -> np.ndarray:
        """The privileged god-view ``[B, S]`` (hidden roles and hands included): critics only."""
        out = np.zeros((self.num_envs, self.state_size), np.float32)
        with self._lock:
            self._k.god_views(self.records, out, self._state_offsets)
        return out

    def teams(self) -> np.ndarray:
        """``[B, P]`` index into ``spec.teams`` of each seat now: private, for trainers and referees."""
        out = np.zeros((self.num_envs, self.num_players), np.int64)
        with self._lock:
            self._k.teams(self.records, out)
        return out

    def render(self, b: int = 0, seat: int | None = None) -> str:
        b = integer(b, "game index b", 0, self.num_envs - 1)
        if seat is not None:
            seat = integer(seat, "seat", 0, self.num_players - 1)
        return self.game.render(self.records[b], seat)

    def __getstate__(self) -> dict:
        state = pickle_by_game_name(self)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        unpickle_by_game_name(self, state)
        self._lock = threading.Lock()
