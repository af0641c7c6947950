"""A ``seconds`` budget holds, and a run that learned nothing usable says so."""

import pytest

from training.cli import main
from training.evaluate import below_random


def curves(measure: str, trained: float, random_player: float) -> dict:
    return {"measure": measure, "baseline_random": {"crew": [random_player, 0.0, 1.0]},
            "history": [{"step": 1024, "rates": {"crew": {"random": [0.9, 0.8, 1.0]}}},
                        {"step": 2048, "rates": {"crew": {"random": [trained, 0.0, 1.0]}}}]}


@pytest.mark.parametrize("measure,trained,random_player", [
    ("win rate", 0.0025, 0.62), ("win rate", 0.5, 0.5), ("mean position", 2.6, 2.5)])
def test_a_last_point_not_better_than_a_random_player_is_one_warning_line(
        measure, trained, random_player):
    [line] = below_random(curves(measure, trained, random_player))
    assert "crew does not beat random" in line and f"{trained:.3f}" in line
    assert f"{random_player:.3f}" in line and "2,048" in line


@pytest.mark.parametrize("measure,trained,random_player", [
    ("win rate", 0.7, 0.62), ("mean position", 2.4, 2.5), ("win rate", 1.0, 1.0)])
def test_a_last_point_better_than_a_random_player_or_at_its_ceiling_gives_no_warning(
        measure, trained, random_player):
    assert below_random(curves(measure, trained, random_player)) == []


def test_a_tiny_seconds_budget_ends_the_run_despite_a_long_warm_start(tmp_path, capsys):
    # a warm start of 10**9 decisions and no step budget: only the clock can end this run (how
    # near its budget is measured, not tested: numba's compilation alone can take minutes)
    assert main(["train", "amongus", "--players", "4", "--seconds", "2", "--quiet",
                 "--num-envs", "64", "--num-steps", "8", "--imitation-steps", str(10**9),
                 "--eval-every", "1", "--eval-games", "32", "--no-tensorboard",
                 "--out", str(tmp_path)]) == 0
    assert (tmp_path / "curves.json").exists()
