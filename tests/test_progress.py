"""Long work shows a progress bar with rate and ETA at once; ``--quiet`` silences it; Ctrl-C
ends every worker with one line, within seconds."""

import sys

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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")
def test_ctrl_c_while_a_result_arrives_ends_every_worker_with_one_line():
    """The worst moment: a worker halfway through sending a batch's games when Ctrl-C comes
    (it once left the command waiting forever); more trials: tests/reliability/signal_trials."""
    from tests.reliability.signal_trials import trial

    result = trial("ctrl-c", workers=2, timeout=240)
    assert result["ok"], result
