"""Audit N1: records whose every field is in range but which contradict themselves are refused
by ``set_records`` (the games' ``check`` relations), never stepped past a pile's end; run in a
process of its own, in the default build and with bounds checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("boundscheck", [False, True], ids=["default-build", "boundscheck"])
@pytest.mark.parametrize("game", ["amongus", "maniacal"])
def test_in_range_but_inconsistent_records_never_reach_past_a_pile(game, boundscheck):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_BOUNDSCHECK"}
    if boundscheck:
        env["NUMBA_BOUNDSCHECK"] = "1"
    done = subprocess.run([sys.executable, "-m", "tests.reliability.inrange", game, "60", "3"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (done.returncode, done.stderr[-1500:])  # -11: a crash
    assert " 0 violations" in done.stdout


def test_the_maniacal_piles_are_held_to_their_counts():
    """One field each, at the end of its range with nothing behind it: refused by name."""
    import numpy as np

    import envs

    vec = envs.make_vec("maniacal", 1, seed=0, num_players=4)
    for field, value, message in [("team_n", 4, "team_n differs"),
                                  ("scheme_discard_n", 25, "Schemes in the deck"),
                                  ("power_discard_n", 14, "Powers in the deck"),
                                  ("mercenary_deck_n", 0, "mercenary_deck_n differs"),
                                  ("henchman_top", 9, "top card is not face up")]:
        records = vec.records.copy()
        records[field] = value
        with pytest.raises(ValueError, match=message):
            vec.set_records(records)
    assert np.array_equal(vec.records, envs.make_vec("maniacal", 1, seed=0,
                                                     num_players=4).records)
