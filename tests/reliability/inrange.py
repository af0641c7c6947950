"""In-range but inconsistent records (audit N1): each field alone within its declared range,
the record as a whole contradicting itself (a pile count with nothing in the pile). Run in a
process of its own, in whichever build the environment gives (``NUMBA_BOUNDSCHECK`` unset: the
default build, where a push past a pile's end would overwrite its neighbour silently):

    python -m tests.reliability.inrange GAME RECORDS SEED [--players N] [--batch B] [--dump DUMP.npz]

Two batches of ``B`` (default 64) start from the same live snapshot: one is given edited records, the other
(the reference) the snapshot as it was. An edit sets 1-4 fields (1-3 elements each) of a record
to values inside their declared ranges, favouring the ends; three records in four are edited,
until ``RECORDS`` have been. ``set_records`` takes the edited records its checks accept (a
refused one keeps its snapshot), and both batches play 150 steps, each slot choosing its legal
action from the same random number in both. Violations:

- under ``NUMBA_BOUNDSCHECK=1``, an access past an array's end (``IndexError``): a push past a
  pile's end, which in the default build overwrites the neighbouring field or record;
- in either build, a slot whose record was not edited holding anything but what the reference
  holds: something reached across from an edited neighbour; and the process dying (the calling
  test sees the signal).

Also counted, not a violation: accepted records that later leave their ranges (``check_records``
after every step). The ranges and relations guard memory, not reachability; a record that
claims turn 6 of 6 already passed, say, counts one past the end harmlessly. Each way one left is
printed once. With ``--dump`` the records and actions of a failing step are saved, and
``NUMBA_DISABLE_JIT=1 python -m tests.reliability.inrange_site DUMP.npz GAME`` names the rule
line. Prints ``GAME N players: E records edited, A accepted, R refused, S steps, L left their
ranges (W ways), V violations`` and exits 1 on a violation.
"""

from __future__ import annotations

import argparse
import re
import sys

import numpy as np

import envs
from envs.core.limits import check_records, game_limits

BATCH = 64
STEPS = 150
# A counter no rule reads or indexes with: a record may claim more decisions than were made
# (then steps past its range, which only the soak's own check sees), harmlessly to memory.
# (``episode``, the other such counter, may hold any value: it has no range to edit within.)
NOT_EDITED = {"decisions"}


def in_range_value(rng, low, high):
    low, high = int(np.floor(low)), int(np.ceil(high))
    return rng.choice([low, high, high - 1, low + 1, int(rng.integers(low, high + 1))])


def choose(mask: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Per slot, its ``draws[b] % legal``-th legal action: a slot's choice depends on its own
    mask and its own number only, so equal slots of two batches choose alike."""
    counts = mask.sum(1)
    k = draws % np.maximum(counts, 1)
    return (np.cumsum(mask, 1) <= k[:, None]).sum(1)


def edit(rng, record: np.ndarray, fields, limits, params) -> list[str]:
    """Set 1-4 fields of one record (``[1]``-shaped, edited in place) inside their ranges."""
    edits = []
    for _ in range(rng.integers(1, 5)):
        field = fields[rng.integers(len(fields))]
        low, high = limits[field].bounds(params)
        shape = record[field].shape[1:]
        flat = record[field].reshape(-1).copy()
        for _ in range(rng.integers(1, 4)):
            k = int(rng.integers(flat.size))
            lo = np.broadcast_to(low, shape).reshape(-1)[k] if np.ndim(low) else low
            hi = np.broadcast_to(high, shape).reshape(-1)[k] if np.ndim(high) else high
            flat[k] = in_range_value(rng, lo, hi)
            where = list(np.unravel_index(k, shape)) if shape else []
            edits.append(f"{field}{where}={flat[k]}")
        record[field] = flat.reshape(record[field].shape)
    return edits


def same_records(a: np.ndarray, b: np.ndarray) -> np.ndarray:  # [B] bool
    """Field by field (an aligned record's padding bytes are not part of it)."""
    same = np.ones(len(a), bool)
    for field in a.dtype.names:
        same &= (a[field] == b[field]).reshape(len(a), -1).all(1)
    return same


def escapes(spec, records: np.ndarray, params: dict, skip: set):
    """``(slot, message)`` of each record outside its ranges or relations, other than the slots
    in ``skip``. ``check_records`` names one bad record per call, so a slot it names is set
    aside and the rest checked again: a call per escape, not one per slot."""
    live = np.array([b for b in range(len(records)) if b not in skip], dtype=np.int64)
    while len(live):
        try:
            check_records(spec, records[live], params)
            return
        except ValueError as e:
            k = int(re.search(r": record (\d+): ", str(e)).group(1))
            yield int(live[k]), str(e).split(": ", 2)[-1]
            live = np.delete(live, k)


def main(game: str, wanted: int, seed: int, players: int | None = None,
         dump: str | None = None, batch: int = BATCH) -> int:
    rng = np.random.default_rng(seed)
    table = {} if players is None else {"num_players": players}
    vec = envs.make_vec(game, batch, seed=seed, **table)
    ref = envs.make_vec(game, batch, seed=seed, **table)
    spec, params = vec.spec, vec.params
    limits, _ = game_limits(spec)
    for _ in range(40):  # a live snapshot, games under way
        vec.step(choose(vec.action_mask, rng.integers(0, 2**31, batch)))
    snapshot = vec.records.copy()
    fields = [f for f in snapshot.dtype.names if f not in params and f in limits
              and all(x is not None for x in limits[f].bounds(params))
              and snapshot.dtype[f].kind in "iu" and f not in NOT_EDITED]
    edited = accepted = refused = steps = violations = left = 0
    ways = {}  # one example of each way an accepted record left its ranges
    fatal = False
    while edited < wanted and not fatal:
        records = snapshot.copy()
        changed = np.zeros(batch, bool)
        edits = {}
        for b in range(batch):
            if rng.random() < 0.25 or edited >= wanted:
                continue
            edited += 1
            candidate = snapshot[b:b + 1].copy()
            what = edit(rng, candidate, fields, limits, params)
            try:
                check_records(spec, candidate, params)
            except ValueError:
                refused += 1
                continue
            accepted += 1
            records[b] = candidate[0]
            changed[b] = True
            edits[b] = what
        vec.set_records(records)
        ref.set_records(snapshot)
        escaped = set()
        for step in range(STEPS):
            stuck = ~vec.action_mask.any(1) | ~ref.action_mask.any(1)
            if stuck.any():  # a board no legal action leads on from: deal that slot afresh
                slots = np.flatnonzero(stuck)
                vec.deal(slots, slots + 10**6)
                ref.deal(slots, slots + 10**6)
                changed[slots] = False
                escaped.difference_update(slots.tolist())
            draws = rng.integers(0, 2**31, batch)
            before, actions = vec.records.copy(), choose(vec.action_mask, draws)
            try:
                vec.step(actions)
            except IndexError as e:  # NUMBA_BOUNDSCHECK=1: an access past an array's end
                violations += 1
                fatal = True
                print(f"violation at step {step}: {e}; edits {edits}", file=sys.stderr)
                if dump:
                    np.savez(dump, records=before, actions=actions, changed=changed)
                    print(f"records and actions of that step saved to {dump}", file=sys.stderr)
                break
            ref.step(choose(ref.action_mask, draws))
            steps += 1
            for b, message in escapes(spec, vec.records, params, escaped):
                escaped.add(b)  # counted once; the slot plays on, out of its ranges
                left += 1
                ways.setdefault(message.split(" is ")[0].split(" differ")[0],
                                f"{message}; edits {edits.get(b)}")
            moved = ~changed & ~same_records(vec.records, ref.records)
            if moved.any():
                violations += 1
                fatal = True
                print(f"violation at step {step}: unedited slot {np.flatnonzero(moved)} "
                      f"differs from the reference (edits {edits})", file=sys.stderr)
                break
    for example in ways.values():
        print(f"left its ranges: {example}", file=sys.stderr)
    print(f"{game} {params['num_players']} players: {edited} records edited, {accepted} "
          f"accepted, {refused} refused, {steps} steps, {left} left their ranges "
          f"({len(ways)} ways), {violations} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("records", type=int, help="how many records to edit")
    parser.add_argument("seed", type=int)
    parser.add_argument("--players", type=int, help="table size (default: the game's)")
    parser.add_argument("--batch", type=int, default=BATCH,
                        help="records per batch (more: fewer steps for the same records)")
    parser.add_argument("--dump", help="save the records and actions of a failing step here")
    args = parser.parse_args()
    sys.exit(main(args.game, args.records, args.seed, args.players, args.dump, args.batch))
