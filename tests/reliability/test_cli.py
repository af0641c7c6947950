"""The command line: one-line errors, full help, and the small findings (audit L2, L3, L11,
L12); play_match's inputs."""

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from evaluation.cli import main

from .helpers import SLOW, run_python

ROOT = Path(__file__).resolve().parents[2]


def run_cli(argv, capsys, stdin=""):
    old, sys.stdin = sys.stdin, stdin if not isinstance(stdin, str) else io.StringIO(stdin)
    try:
        try:
            rc = main(argv)
        except SystemExit as e:
            rc = e.code
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return rc, out, err


def assert_one_line_error(rc, err, text):
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hiddendeck: ") and text in lines[0], err


def test_play_at_eof_ends_with_one_line(capsys):
    rc, out, err = run_cli(["play", "amongus"], capsys, stdin="")
    assert rc == 0 and err.strip() == "hiddendeck: end of input: game abandoned"


class _CtrlC(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


def test_play_ctrl_c_ends_with_one_line(capsys):
    rc, out, err = run_cli(["play", "menace"], capsys, stdin=_CtrlC())
    assert rc == 130 and err.strip() == "hiddendeck: interrupted"


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "x"])
def test_bench_seconds_0_is_a_one_line_usage_error(capsys, value):
    rc, _, err = run_cli(["bench", "amongus", "--seconds", value], capsys)
    assert_one_line_error(rc, err, "--seconds")


@pytest.mark.parametrize("value", ["0", "-1"])
def test_demo_games_0_is_refused_before_training(capsys, value):
    rc, _, err = run_cli(["demo", "--games", value], capsys)
    assert_one_line_error(rc, err, "--games: must be a positive integer")


@pytest.mark.parametrize("argv, text", [
    (["bench", "amongus", "--param", "foo"], "--param expects NAME=VALUE"),
    (["bench", "amongus", "--param", "nosuch=1"], "unknown parameter"),
    (["play", "amongus", "--seed", "-1"], "--seed: must be an integer in [0, 2**63)"),
    (["play", "amongus", "--seed", "99999999999999999999"], "--seed"),
    (["play", "amongus", "--seat", "9"], "seat must be in [0, 6)"),
    (["play", "nosuchgame"], "invalid choice"),
    (["play", "amongus", "--against", "nosuch.pt"], "no such checkpoint file"),
    (["train", "nosuchgame"], "invalid choice"),
    ([], "required"),
    (["train", "menace", "--no-such-option"], "unrecognized arguments: --no-such-option"),
])
def test_usage_errors_are_one_line_with_exit_status_2(capsys, argv, text):
    rc, _, err = run_cli(argv, capsys)
    assert_one_line_error(rc, err, text)
    assert not err.startswith("hiddendeck: hiddendeck")  # the top-level parser names no command


def test_a_failing_command_is_one_line(capsys, monkeypatch):
    from agents.checkpoint import CheckpointWriteError
    from evaluation import cli

    def full_disk(args):
        raise CheckpointWriteError("runs/x/crew.pt: could not write the checkpoint (disk full)")

    monkeypatch.setattr(cli, "cmd_demo", full_disk)
    rc, _, err = run_cli(["demo"], capsys)
    assert_one_line_error(rc, err, "disk full")


def test_help_shows_defaults_games_and_game_parameters(capsys):
    for command in ("bench", "play", "train"):
        rc, out, _ = run_cli([command, "--help"], capsys)
        assert rc == 0
        assert "amongus" in out and "menace" in out and "history_rounds=3" in out, command
        assert "default" in out
    rc, out, _ = run_cli(["bench", "--help"], capsys)
    assert "(default: 2.0)" in out
    rc, out, _ = run_cli(["play", "--help"], capsys)
    assert "Ctrl-D or Ctrl-C quits" in out
    rc, out, _ = run_cli(["--help"], capsys)
    assert "``" not in out


def test_version(capsys):
    rc, out, _ = run_cli(["--version"], capsys)
    assert rc == 0 and out.startswith("hiddendeck ")


def test_the_installed_command_exits_2_on_a_usage_error():
    result = run_python(["-m", "evaluation.cli", "bench", "amongus", "--seconds", "0"])
    assert result.returncode == 2 and result.stderr.startswith("hiddendeck: ")


class _FloatPolicy:
    remembers = False
    name = "floaty"

    def act(self, observation, action_mask):
        return np.full(len(action_mask), 3.9)

    def game_over(self, slots):
        pass


def test_play_match_refuses_float_actions_instead_of_truncating():
    from agents.policy import RandomPolicy
    from evaluation.match import play_match

    with pytest.raises(ValueError, match="must return .* integer actions, got float64"):
        play_match("amongus", {"crew": _FloatPolicy(), "impostor": RandomPolicy(0)}, 4)


@pytest.mark.parametrize("n", [0, -1, 2.5])
def test_play_match_num_games_0_is_named(n):
    from agents.policy import RandomPolicy
    from evaluation.match import play_match

    with pytest.raises(ValueError, match="num_games must be a positive integer"):
        play_match("amongus", {"crew": RandomPolicy(0), "impostor": RandomPolicy(0)}, n)


@pytest.mark.slow  # 1,000 inputs each in CI, 10,000 with HIDDENDECK_SLOW=1
@pytest.mark.parametrize("entry", ["cli", "vecenv", "aec"])
def test_fuzz_of_public_entry_points_ends_in_results_or_clear_errors(entry):
    n = 10_000 if SLOW else 1_000
    result = run_python(["-m", "tests.reliability.fuzz", entry, str(n), "0"], 900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"{entry}: {n} inputs" in result.stdout


@pytest.mark.parametrize("argv,message", [
    (["eval", "amongus", "--crew", "random", "--impostor", "random", "--games", str(10**18)],
     "at most 1,000,000,000 games"),
    (["train", "amongus", "--seed", "99999999999999999999"], "--seed: must be an integer in"),
    (["tournament", "amongus", "--policies", "random,heuristic", "--seed", "-1"],
     "--seed: must be an integer in"),
])
def test_out_of_range_arguments_name_themselves_and_create_nothing(argv, message, tmp_path,
                                                                    monkeypatch):
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", *argv], capture_output=True,
                          text=True, timeout=120,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # no run directory, no database


def test_eval_checks_its_output_directory_before_playing(tmp_path):
    import subprocess
    import sys
    import time

    blocker = tmp_path / "file"
    blocker.write_text("x")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", "eval", "amongus", "--crew",
                           "heuristic", "--impostor", "heuristic", "--games", "100000",
                           "--out", str(blocker / "sub")], capture_output=True, text=True,
                          timeout=120, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and "--out" in done.stderr, done.stderr
    assert time.monotonic() - start < 60  # refused before 100,000 games were played
