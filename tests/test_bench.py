"""The speed benchmark's report: its figures are targets, so its shape must hold (the figures
themselves are measured by `hiddendeck bench`, never asserted in a test)."""

import json

import pytest

from evaluation.bench import format_bench, run_bench
from evaluation.cli import main


def test_bench_reports_medians_of_its_repeats_and_the_ratio_within_each():
    result = run_bench("amongus", batch_sizes=(1, 8), seconds=0.01, repeat=3, num_players=4)
    assert result["params"] == {"num_players": 4, "max_rounds": 30, "assist": 0}
    assert set(result["batched_steps_per_s"]) == {"1", "8"}
    assert len(result["runs"]) == 3 and result["repeat"] == 3
    ratios = sorted(r["ratio"] for r in result["runs"])
    assert result["ratio"] == pytest.approx(ratios[1])
    for run in result["runs"]:
        batched = run["batched_steps_per_s"]["8"]
        assert run["ratio"] == pytest.approx(batched / run["aec_steps_per_s"])
    assert min(result["batched_steps_per_s"].values()) > 0 and result["aec_steps_per_s"] > 0


def test_bench_json_is_one_object(capsys):
    assert main(["bench", "amongus", "--players", "4", "--seconds", "0.01", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ratio_batch_size"] == 4096 and result["repeat"] == 1 and "runs" not in result


def test_bench_refuses_a_repeat_below_one(capsys):
    assert main(["bench", "amongus", "--repeat", "0"]) == 2
    assert "repeat must be a positive integer, got 0" in capsys.readouterr().err


def test_bench_warns_when_other_processes_shared_the_cpus():
    result = run_bench("amongus", batch_sizes=(1, 8), seconds=0.01, num_players=4)
    result["load_average"], result["cpus"] = [0.1, 0.2], 2
    assert "other processes were busy" not in format_bench(result)
    result["load_average"] = [1.5, 2.5]
    assert "other processes were busy" in format_bench(result)
