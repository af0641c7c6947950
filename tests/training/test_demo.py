"""The demo's table and verdicts say what the intervals say."""

import pytest

import training.cli
from evaluation.cli import main
from evaluation.demo import STEPS, demo_seed, format_population, run_demo
from training.evaluate import eval_seed


def report(label: str, rates: dict[str, float], reference: dict[str, float]) -> dict:
    members = [{"name": name, "rate": r, "reference_rate": reference[name]}
               for name, r in rates.items()]
    return {"label": label, "population": "v2", "members_play": "menace", "games": 400,
            "members": members, "mean": {"rate": sum(rates.values()) / len(rates)},
            "reference": {"mean": {"rate": sum(reference[n] for n in rates) / len(rates)}},
            "difference": {"mean": {"mean": 0.1, "interval": [0.05, 0.15]}}}


def test_the_population_table_compares_each_policy_with_the_heuristic_on_the_same_members():
    reference = {"random": 0.5, "heuristic": 0.4, "zoo:menace5-menace-s1": 0.2}
    fresh = report("fresh", {"random": 0.6, "zoo:menace5-menace-s1": 0.1}, reference)
    zoo = report("zoo:menace5-crew-s1", {"random": 0.7}, reference)
    text = format_population("crew", [fresh, zoo], reference)
    lines = text.splitlines()
    assert "seen: met in training" in lines[0]
    assert lines[1].split() == ["member", "fresh", "zoo:menace5-crew-s1", "heuristic"]
    assert lines[2].split() == ["random", "0.600", "0.700", "0.500"]
    # imitated by both as a warm start; the zoo crew's own run trained against that menace
    assert lines[3].split() == ["heuristic", "seen", "seen", "0.400"]
    assert lines[4].split() == ["zoo:menace5-menace-s1", "0.100", "seen", "0.200"]
    # each policy's mean beside the heuristic's over the same members: no row of unlike means
    assert len(lines) == 7 and not lines[5].split()[0] == "mean"
    assert lines[5] == ("  fresh: 0.350 against the 2 members it did not meet, the heuristic "
                        "0.350 against the same; difference +0.100 [+0.050, +0.150] (paired 95%)")


def test_a_zoo_policy_met_what_its_sweep_left_out_and_its_own_runs_other_side():
    from agents import zoo

    assert zoo.met("zoo:menace5-crew-s1") == ("drain", "heuristic", "zoo:menace5-menace-s1")
    assert zoo.met("maniacal4-s1") == ("heuristic",)  # one shared policy: no other side


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
