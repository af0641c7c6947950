"""The rule line of an ``inrange`` violation: step each record of a saved step alone, in pure
Python (run with ``NUMBA_DISABLE_JIT=1``, where numpy checks every index), and print the line
of the game's rules each ``IndexError`` came from:

    NUMBA_DISABLE_JIT=1 python -m tests.reliability.inrange_site DUMP.npz GAME
"""

from __future__ import annotations

import sys
import traceback

import numpy as np

import envs


def main(path: str, game: str) -> int:
    saved = np.load(path)
    records, actions = saved["records"], saved["actions"]
    spec = envs.make_vec(game, 1, seed=0).spec
    vec = envs.make_vec(game, 1, seed=0, **{p.name: int(records[p.name][0]) for p in spec.params})
    found = 0
    for b in range(len(records)):
        record = records[b:b + 1].copy()  # stepped directly: set_records accepted it before
        try:
            vec._k.step_serial(record, actions[b:b + 1], vec.observation, vec.action_mask,
                               vec.current_seat, vec.rewards, vec.terminated, vec.truncated,
                               vec.winner, vec._obs_offsets, vec._layout, True)
        except IndexError as e:
            found += 1
            frames = [f for f in traceback.extract_tb(e.__traceback__)
                      if "/envs/" in f.filename and "/core/" not in f.filename]
            where = (frames or traceback.extract_tb(e.__traceback__))[-1]
            print(f"record {b} (edited: {bool(saved['changed'][b])}): {e} at "
                  f"{where.filename}:{where.lineno} {where.line}")
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
