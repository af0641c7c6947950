"""The demo's table and verdicts say what the intervals say."""

import pytest

import training.cli
from evaluation.cli import main
from evaluation.demo import STEPS, demo_seed, format_table, run_demo, verdict
from evaluation.match import wilson_interval
from training.evaluate import eval_seed


def row(crew_wins: int, games: int = 2000) -> dict:
    rates = {"crew": crew_wins / games, "menace": 1 - crew_wins / games}
    return {"games": games, "win_rate": rates,
            "interval95": {"crew": wilson_interval(crew_wins, games),
                           "menace": wilson_interval(games - crew_wins, games)}}


def test_verdicts_follow_the_intervals():
    heuristic = row(900)
    assert "WORSE" in verdict("crew", "crew", row(700), heuristic)
    assert "as good as" in verdict("crew", "crew", row(890), heuristic)
    assert "better than" in verdict("crew", "crew", row(1100), heuristic)
    assert "better than" in verdict("menace", "menace", row(700), heuristic)


def test_the_table_shows_both_sides_with_intervals():
    text = format_table([("trained", "heuristic", row(900))], ("crew", "menace"))
    assert "45.0%" in text and "55.0%" in text and text.count("[") == 2


def test_the_demo_and_the_curves_deal_apart_from_training():
    for seed in (0, 1, 7):
        assert len({seed, demo_seed(seed), eval_seed(seed)}) == 3


def test_the_demo_budget_is_counted_in_decisions_on_one_thread(monkeypatch, tmp_path):
    """Same command, same networks, whatever the machine's load: no wall-time budget unless
    asked for, and torch on one thread."""
    seen = {}

    class Stop(Exception):
        pass

    def train_teams(game, num_players, out_dir, **options):
        seen.update(options)
        raise Stop

    monkeypatch.setattr(training.cli, "train_teams", train_teams)
    with pytest.raises(Stop):
        run_demo(out=str(tmp_path))
    assert seen["steps"] == STEPS and seen["seconds"] is None and seen["threads"] == 1
    assert seen["imitation_steps"] > 0


def test_demo_steps_0_is_a_one_line_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["demo", "--steps", "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--steps" in err
