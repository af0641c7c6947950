"""Results do not depend on who plays the batches: this process, two workers, or Ray."""

import importlib.util

import numpy as np
import pytest

from evaluation.crossplay import cross_play

FIELDS = ("index", "winner", "length", "rewards", "deal", "actions")


def matrix(workers=None, ray=None, crew=None):
    return cross_play("amongus", {"crew": [crew, "heuristic"], "impostor": ["random"]}, 96,
                      seed=5, workers=workers, ray_address=ray, batch_games=32, slots=16,
                      num_players=4)


def assert_same(a, b):
    assert a.as_dict() == b.as_dict()
    for x, y in zip(a.cells, b.cells):
        for field in FIELDS:
            assert np.array_equal(getattr(x.log, field), getattr(y.log, field)), field


@pytest.fixture
def crew(checkpoint):
    return "net@" + checkpoint("amongus", "crew", num_players=4)  # a sampling neural policy


def test_one_worker_and_two_workers_give_identical_results(crew):
    assert_same(matrix(workers=1, crew=crew), matrix(workers=2, crew=crew))


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray is an optional extra (pip install 'hiddendeck[ray]')")
def test_a_local_ray_instance_gives_identical_results(crew):
    assert_same(matrix(workers=1, crew=crew), matrix(ray="local", crew=crew))


KILLER = """
import os, signal
import numpy as np

class DiesOnFirstMove:
    def act(self, observation, action_mask):
        os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_worker_that_dies_ends_the_command_in_one_line_within_seconds(tmp_path):
    """A killed worker (here: its policy kills it) once left the parent waiting forever."""
    import os
    import subprocess
    import sys
    import time

    (tmp_path / "killer_bot.py").write_text(KILLER)
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd(),
                                          os.environ.get("PYTHONPATH", "")])}
    db = tmp_path / "r.sqlite"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "evaluation.cli", "--quiet", "tournament", "amongus",
         "--policies", "random,heuristic,k@py:killer_bot:DiesOnFirstMove", "--games", "64",
         "--workers", "2", "--db", str(db)],
        capture_output=True, text=True, env=env, timeout=240)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("hiddendeck: a worker process died") and \
        done.stderr.count("\n") == 1, done.stderr
    assert time.monotonic() - start < 200
    import sqlite3

    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_failing_on_done_stops_every_worker_and_raises_its_error():
    """A database write that fails (here: a full disk) ends the match at once, its workers
    stopped and reaped, whatever they were sending."""
    import multiprocessing

    from evaluation.crossplay import batches_for
    from evaluation.entrants import resolve
    from evaluation.runner import run_batches
    import envs

    spec = envs.registry["amongus"]
    params = spec.resolve(num_players=4)
    sides = (resolve("random", spec, params), resolve("random", spec, params))

    def full_disk(batch, log):
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        run_batches(batches_for("amongus", params, sides, 0, 64, batch_games=16, slots=16),
                    workers=2, on_done=full_disk)
    assert multiprocessing.active_children() == []
