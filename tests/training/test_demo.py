"""The demo's table and verdicts say what the intervals say."""

import pytest

import training.cli
from evaluation.cli import main
from evaluation.demo import STEPS, demo_seed, format_population, run_demo
from training.evaluate import eval_seed


def report(label: str, rates: list[float], reference: list[float]) -> dict:
    members = [{"name": name, "rate": r, "reference_rate": h}
               for name, r, h in zip(("random", "heuristic"), rates, reference)]
    return {"label": label, "population": "v2", "members_play": "menace", "games": 400,
            "members": members, "mean": {"rate": sum(rates) / 2},
            "reference": {"mean": {"rate": sum(reference) / 2}},
            "difference": {"mean": {"mean": 0.1, "interval": [0.05, 0.15]}}}


def test_the_population_table_has_a_column_per_policy_and_the_heuristic_last():
    text = format_population("crew", [report("fresh", [0.6, 0.5], [0.5, 0.4]),
                                      report("zoo:menace5-crew-s1", [0.7, 0.6], [0.5, 0.4])])
    lines = text.splitlines()
    assert lines[1].split() == ["member", "fresh", "zoo:menace5-crew-s1", "heuristic"]
    assert lines[2].split() == ["random", "0.600", "0.700", "0.500"]
    assert lines[3].split()[:4] == ["heuristic", "0.500", "0.600", "0.400"]
    assert "(seen in training)" in lines[3]  # imitated as the warm start
    assert lines[4].split() == ["mean", "0.550", "0.650", "0.450"]
    assert "fresh - heuristic, mean over members: +0.100 [+0.050, +0.150]" in text


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
