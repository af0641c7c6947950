"""Which values each record field may hold, so that ``VecEnv.set_records`` can refuse a record
the kernels could not run safely.

numba does not check indices: a seat of 100, a card id of -7 or a phase of 9 in a record makes
the compiled rules write outside the record, which corrupts memory and kills the process later,
far from the cause. So every field of every game declares its range, as a function of the game's
parameters where it depends on them (a seat lies in ``[0, num_players)``), and ``check_records``
compares whole batches against them with numpy before a kernel sees one byte.

A game declares its own fields in ``envs/<game>/limits.py`` as ``LIMITS = {field: Range}``;
the fields every record shares (``record.make_dtype``) are declared here, and parameters must
equal the VecEnv's. A field with no declared range is an error, so a new field fails loudly
(and ``tests/reliability`` checks every field of every registered game) until it is declared.
A game may also define ``check(records, params) -> (index, message) | None`` for relations
between fields that ranges cannot express, in ``limits.py`` and in ``envs/<game>/validate.py``
(relations over the record as a whole: every pile's count agrees with its cards and leaves room
for the pushes the rules can still make, so that no in-range but inconsistent record sends a
push past a pile's end; audit N1).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Union

import numpy as np

from .spec import GameSpec

Bound = Union[int, float, Callable[[dict], object]]  # a number, or params -> number or array


@dataclass(frozen=True)
class Range:
    """Every element of a field lies in ``[low, high]`` (both inclusive). A bound may be a
    function of the resolved parameters, returning a number or an array that broadcasts over
    the field's shape (when slots of a field mean different things)."""

    low: Bound
    high: Bound
    why: str = ""

    def bounds(self, params: dict):
        low = self.low(params) if callable(self.low) else self.low
        high = self.high(params) if callable(self.high) else self.high
        return low, high


def players(params: dict) -> int:
    return params["num_players"]


def last_seat(params: dict) -> int:
    return params["num_players"] - 1


FLAG = Range(0, 1, "a flag")
SEAT = Range(0, last_seat, "a seat")
SEAT_OR_NONE = Range(-1, last_seat, "a seat, or -1 for none")
ANY = Range(None, None, "any value of its type")  # e.g. random-generator state


def common_limits(spec: GameSpec) -> dict[str, Range]:
    """The fields ``record.make_dtype`` gives every game. A record must describe a live
    decision (the arrays of a VecEnv always do), so a finished game is refused."""
    return {
        "rng_key": ANY,
        "rng_counter": ANY,
        "rewards": Range(spec.reward_range[0], spec.reward_range[1], "a reward"),
        "current_seat": SEAT,
        "decisions": Range(0, lambda p: spec.max_decisions(p) - 1, "decisions so far"),
        # games finished in this slot: read only to see that it changed (a restart), so any
        # value is safe, and any bound would refuse a snapshot one finished game after a record
        # at it (audit L5: 2**62 was accepted, then 2**62 + 1 refused)
        "episode": Range(None, None, "games finished in this slot, wrapping at int64's end"),
        "winner": Range(-1, len(spec.teams) - 1, "a team, or -1"),
        "terminated": Range(0, 0, "a live game (finished games restart in step)"),
        "truncated": Range(0, 0, "a live game (finished games restart in step)"),
    }


_GAME_LIMITS: dict[str, tuple[dict, Callable | None]] = {}


def _optional_module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def _in_turn(checks: list[Callable]) -> Callable | None:
    """One relation check running each of ``checks`` in turn, or None if there are none."""
    if len(checks) <= 1:
        return checks[0] if checks else None

    def check(records: np.ndarray, params: dict):
        for each in checks:
            found = each(records, params)
            if found is not None:
                return found
        return None

    return check


def game_limits(spec: GameSpec) -> tuple[dict[str, Range], Callable | None]:
    """``({field: Range}, check or None)`` of a game: the common fields and its own module's;
    the check runs ``limits.check``, then ``validate.check``, where the game has them."""
    if spec.name not in _GAME_LIMITS:
        from .registry import package_of

        name = f"{package_of(spec.name)}.limits"
        module = _optional_module(name)
        if module is None:
            raise ValueError(
                f"{spec.name}: no module {name} declares the ranges of its record fields, so "
                f"set_records cannot check records (see envs/core/limits.py)"
            )
        validate = _optional_module(f"{package_of(spec.name)}.validate")
        checks = [m.check for m in (module, validate) if getattr(m, "check", None) is not None]
        limits = {**common_limits(spec), **module.LIMITS}
        _GAME_LIMITS[spec.name] = (limits, _in_turn(checks))
    return _GAME_LIMITS[spec.name]


def undeclared(spec: GameSpec, dtype: np.dtype) -> list[str]:
    """Fields of the record with no declared range (parameters need none)."""
    limits, _ = game_limits(spec)
    params = {p.name for p in spec.params}
    return [f for f in dtype.names if f not in limits and f not in params]


def _where(records: np.ndarray, bad: np.ndarray) -> tuple[int, tuple]:
    """(record index, element index within the field) of the first True of ``bad``."""
    flat = int(np.flatnonzero(bad.reshape(-1))[0])
    index = np.unravel_index(flat, bad.shape)
    return int(index[0]), tuple(int(i) for i in index[1:])


def check_records(
    spec: GameSpec, records: np.ndarray, params: dict, slot_params: dict | None = None
) -> None:
    """Raise ``ValueError`` naming the first record, field, value and allowed range that is
    wrong; return quietly if every field of every record is within its declared range.
    ``slot_params`` holds the per-slot values of parameters a VecEnv varies (``VecEnv.vary``);
    ranges still follow ``params``, which bound them."""
    limits, relations = game_limits(spec)
    missing = undeclared(spec, records.dtype)
    if missing:
        raise ValueError(
            f"{spec.name}: record field(s) {missing} have no declared range; declare them in "
            f"envs/{spec.name}/limits.py"
        )
    name = spec.name
    slot_params = slot_params or {}
    for p in spec.params:
        values = records[p.name]
        expected = np.broadcast_to(slot_params.get(p.name, params[p.name]), values.shape)
        bad = values != expected
        if bad.any():
            b = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{name}: record {b}: parameter {p.name} is {int(values[b])} in the records "
                f"but {int(expected[b])} in this VecEnv (records from another table?)"
            )
    for field in records.dtype.names:
        if field in params:
            continue
        limit = limits[field]
        values = records[field]
        kind = values.dtype.kind
        if kind == "b":  # a bool byte other than 0 or 1 reads as neither in compiled code
            raw = values.view(np.uint8)
            bad = raw > 1
            if bad.any():
                b, i = _where(records, bad)
                raise ValueError(
                    f"{name}: record {b}: field {field}{list(i) if i else ''} holds byte "
                    f"{int(raw[(b, *i)])}, not a bool (0 or 1)"
                )
            values = raw
        if kind == "f":
            bad = ~np.isfinite(values)
            if bad.any():
                b, i = _where(records, bad)
                raise ValueError(
                    f"{name}: record {b}: field {field}{list(i) if i else ''} is "
                    f"{values[(b, *i)]}, not a finite number"
                )
        low, high = limit.bounds(params)
        if low is None and high is None:
            continue
        with np.errstate(invalid="ignore"):
            bad = (values < low) | (values > high)
        if bad.any():
            b, i = _where(records, bad)
            lo = np.broadcast_to(low, values.shape[1:])[i] if i else low
            hi = np.broadcast_to(high, values.shape[1:])[i] if i else high
            why = f" ({limit.why})" if limit.why else ""
            raise ValueError(
                f"{name}: record {b}: field {field}{list(i) if i else ''} is "
                f"{values[(b, *i)].item()}, outside its range [{lo}, {hi}]{why}"
            )
    if relations is not None:
        found = relations(records, params)
        if found is not None:
            b, message = found
            raise ValueError(f"{name}: record {b}: {message}")
