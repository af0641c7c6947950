"""The belief benchmark: scores against known values, and a scripted policy with beliefs."""

import math

import numpy as np
import pytest

import evaluation.entrants
from agents.policy import RandomPolicy
from evaluation.beliefs import benchmark, scores
from evaluation.cli import main


def test_scores_of_known_predictions():
    y = np.array([[1, 0, 0], [0, 1, 1]], bool)
    half = scores(np.full(y.shape, 0.5), y)
    assert half["log_loss"] == pytest.approx(math.log(2))
    assert half["brier"] == pytest.approx(0.25)
    assert half["ece"] == pytest.approx(0.0)  # 0.5 predicted, 3 of 6 true
    assert half["count_error"] == pytest.approx(0.5)  # 1.5 implied against 1 and 2
    perfect = scores(y.astype(float), y)
    assert perfect["brier"] == pytest.approx(0, abs=1e-9) and perfect["top1"] == 1.0
    assert perfect["log_loss"] == pytest.approx(-math.log(1 - 1e-6))
    wrong = scores(1.0 - y, y)
    assert wrong["top1"] == 0.0 and wrong["ece"] == pytest.approx(1 - 1e-6)


class Unsure(RandomPolicy):
    """Random play, and the belief that every other seat is on the other side with 1/2."""

    name = "unsure"

    def __init__(self, seats, seed=0, shape=None):
        super().__init__(seed)
        self.seats = seats
        self.shape = shape

    def beliefs(self, observation):
        return np.full(self.shape or (observation.shape[0], self.seats), 0.5)


@pytest.fixture
def unsure(monkeypatch):
    real = evaluation.entrants.make_policy

    def make(name, spec, params, seed=0):
        if name == "unsure":
            return Unsure(spec.resolve(**params)["num_players"], seed)
        if name == "misshapen":
            return Unsure(spec.resolve(**params)["num_players"], seed, shape=(1, 2))
        return real(name, spec, params, seed)

    monkeypatch.setattr(evaluation.entrants, "make_policy", make)


def test_a_policy_with_beliefs_is_scored_beside_the_base_rate_and_the_probe(unsure):
    r = benchmark("amongus", "unsure", 80, num_players=4, probe_steps=400)
    assert r["has_beliefs"]
    o = r["overall"]
    assert o["unsure"]["log_loss"] == pytest.approx(math.log(2))
    assert o["unsure"]["brier"] == pytest.approx(0.25)
    # the probe reads at least the observer's own side from the observation
    assert o["probe"]["log_loss"] < o["base rate"]["log_loss"] < o["unsure"]["log_loss"]
    assert r["share_of_probe"] < 0
    assert r["by_round"] and all(set(v) == {"base rate", "probe", "unsure"}
                                 for v in r["by_round"].values())


def test_beliefs_command_writes_its_files_and_refuses_bad_beliefs(unsure, tmp_path, capsys):
    out = tmp_path / "b"
    assert main(["beliefs", "amongus", "--players", "4", "--policy", "random", "--games", "40",
                 "--out", str(out)]) == 0
    assert "has no beliefs()" in capsys.readouterr().out
    assert (out / "calibration.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match=r"beliefs must be \[N, 4\], got \(1, 2\)"):
        benchmark("amongus", "misshapen", 10, num_players=4, probe_steps=10)


def test_the_scored_team_must_be_one_the_policy_plays(unsure):
    with pytest.raises(ValueError, match=r"plays \['crew', 'impostor'\], not 'menace'"):
        benchmark("amongus", "unsure", 10, team="menace", num_players=4)
