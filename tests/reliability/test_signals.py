"""A command ends with one line whatever stops it, and nothing of it outlives it: SIGKILL while
a worker is halfway through sending and SIGTERM (issue 42, M2), Ctrl-C while the command is
still importing (L1), and an outside policy's own error (L3, L7). Ctrl-C during play:
``tests/test_progress.py``; many trials of each: ``tests/reliability/signal_trials.py``."""

from __future__ import annotations

import importlib.abc
import subprocess
import sys

import pytest

from evaluation.cli import main
from tests.reliability.helpers import ROOT, run_python

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="POSIX signals, /proc")


@linux_only
def test_a_killed_command_leaves_no_process_behind():
    """SIGKILL: its workers and the resource tracker are gone within 5 s, though a worker was
    halfway through sending (SIGTERM too: ``signal_trials.py term``)."""
    from tests.reliability.signal_trials import trial

    result = trial("kill", workers=2, timeout=240)
    assert result["ok"], result


class _CtrlCOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "evaluation.commands":
            raise KeyboardInterrupt


def test_ctrl_c_while_the_command_imports_is_one_line(capsys, monkeypatch):
    monkeypatch.delitem(sys.modules, "evaluation.commands", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_CtrlCOnImport(), *sys.meta_path])
    assert main(["eval", "amongus"]) == 130
    assert capsys.readouterr().err.strip() == "hiddendeck: interrupted"


def test_the_command_imports_nothing_heavy_before_its_ctrl_c_handler():
    done = run_python("import sys, evaluation.cli; print(sorted(m for m in ('envs', 'numba', "
                      "'numpy', 'torch') if m in sys.modules))", timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


BOTS = """
import os
import signal

import numpy as np

class Terminated:
    def act(self, observation, action_mask):
        os.kill(os.getpid(), signal.SIGTERM)
        return np.argmax(action_mask, axis=1)

class Raises:
    def act(self, observation, action_mask):
        raise RuntimeError("boom")

def refuses(seed=0):
    raise ValueError("no")

class Recurses:
    def act(self, observation, action_mask):
        return self.act(observation, action_mask)
"""


@pytest.fixture
def bots(tmp_path, monkeypatch):
    (tmp_path / "raising_bots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}:{ROOT}")  # for worker processes
    return tmp_path


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_ends_the_command_with_one_line_and_status_143(bots, capsys):
    """Unwound as Ctrl-C is, through the runner's clean-up (workers stopped and reaped)."""
    assert main(["eval", "amongus", "--crew", "py:raising_bots:Terminated", "--impostor",
                 "random", "--players", "4", "--games", "8", "--workers", "1"]) == 143
    assert capsys.readouterr().err.strip() == "hiddendeck: terminated"


@pytest.mark.parametrize("attr, error, line", [
    ("Raises", "RuntimeError: boom", 14), ("refuses", "ValueError: no", 17),
    ("Recurses", "RecursionError: maximum recursion depth exceeded", 21)])
def test_an_outside_policy_error_is_one_line_naming_policy_error_and_line(bots, capsys, attr,
                                                                          error, line):
    rc = main(["eval", "amongus", "--crew", f"py:raising_bots:{attr}", "--impostor",
               "random", "--players", "4", "--games", "8", "--workers", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1, err
    assert err.startswith(f"hiddendeck: policy py:raising_bots:{attr} raised {error} "
                          f"(raising_bots.py:{line}); hiddendeck --debug"), err


def test_an_outside_policy_error_in_a_worker_is_the_same_line(bots):
    done = subprocess.run(
        [sys.executable, "-m", "evaluation.cli", "--quiet", "eval", "amongus", "--crew",
         "py:raising_bots:Raises", "--impostor", "random", "--players", "4", "--games", "2048",
         "--workers", "2"], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("hiddendeck: policy py:raising_bots:Raises raised "
                                  "RuntimeError: boom (raising_bots.py:14)"), done.stderr


def test_debug_shows_the_traceback_before_the_line(bots, capsys):
    rc = main(["--debug", "eval", "amongus", "--crew", "py:raising_bots:Raises",
               "--impostor", "random", "--players", "4", "--games", "8", "--workers", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" in err and 'raise RuntimeError("boom")' in err
    assert err.strip().splitlines()[-1].startswith("hiddendeck: policy py:raising_bots:Raises")
