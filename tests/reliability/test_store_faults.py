"""The audit's store faults (N4): a tournament whose database fills the disk, or cannot be
written, ends in one line with exit status 2 and leaves the database whole; ``replay --pause``
with nothing more to read plays on to the end."""

import io
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from evaluation.cli import main

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ["tournament", "amongus", "--policies", "random,heuristic", "--workers", "1"]


def test_a_full_disk_under_the_database_is_one_line_and_the_database_stays_whole(tmp_path):
    db = tmp_path / "t.sqlite"
    # a small tournament first compiles the games into numba's cache, which the size limit
    # would otherwise meet first (under pytest-xdist no earlier test may have written it)
    warm = subprocess.run([sys.executable, "-m", "evaluation.cli", *TOURNAMENT, "--games", "16",
                           "--db", str(tmp_path / "warm.sqlite")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr[-1500:]
    script = ("import resource, sys\n"
              "resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))\n"
              "from evaluation.cli import main\n"
              f"sys.exit(main({TOURNAMENT + ['--games', '8192', '--db', str(db)]!r}))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 2, done.stderr[-1500:]
    assert done.stderr.strip().splitlines() == [f"hiddendeck: {db}: disk I/O error"]
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_database_that_cannot_be_written_is_one_line_and_unchanged(tmp_path, capsys):
    """``chattr +i``: even root cannot write it (root ignores file modes)."""
    db = tmp_path / "t.sqlite"
    assert main(TOURNAMENT + ["--games", "16", "--db", str(db)]) == 0
    before = db.read_bytes()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(db)]).returncode:
        pytest.skip("cannot make a file immutable here")
    try:
        capsys.readouterr()
        rc = main(TOURNAMENT + ["--games", "16", "--policies", "random,heuristic,chain",
                                "--db", str(db)])
        err = capsys.readouterr().err
    finally:
        subprocess.run(["chattr", "-i", str(db)])
    assert rc == 2
    assert err.strip().splitlines() == [f"hiddendeck: {db}: attempt to write a readonly database"]
    assert db.read_bytes() == before


def test_replay_pause_at_the_end_of_input_plays_on(tmp_path, monkeypatch, capsys):
    db = tmp_path / "t.sqlite"
    assert main(TOURNAMENT + ["--games", "4", "--db", str(db)]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    capsys.readouterr()
    assert main(["replay", str(db), "--game", "1", "--pause"]) == 0
    assert "Traceback" not in capsys.readouterr().err
