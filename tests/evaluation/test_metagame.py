"""The meta-game views: Nash averaging ignores copies, finds mixed and pure equilibria; alpha-Rank
(OpenSpiel) puts its mass on the sink; bad matrices are one-line errors."""

import gzip
import json
import subprocess
import sys

import numpy as np
import pytest

from evaluation.crossplay import MATRIX_FORMAT
from evaluation.metagame import from_matrix, load, nash_equilibrium

ROCK_PAPER_SCISSORS = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])


def matrix(score, rows, cols, teams=("crew", "menace"), games=1000):
    """A cross-play matrix object with the first team scoring ``score[i, j]`` (no draws)."""
    cells = []
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            wins = int(round(score[i, j] * games))
            cells.append({"policies": {teams[0]: r, teams[1]: c}, "games": games,
                          "wins": {teams[0]: wins, teams[1]: games - wins}, "draws": 0})
    return {"format": MATRIX_FORMAT, "game": "menace", "teams": list(teams),
            "policies": {teams[0]: list(rows), teams[1]: list(cols)}, "cells": cells}


def test_rock_paper_scissors_mixes_uniformly_and_scores_the_value():
    x, y, gap = nash_equilibrium(ROCK_PAPER_SCISSORS)
    assert np.allclose(x, 1 / 3, atol=1e-6) and np.allclose(y, 1 / 3, atol=1e-6)
    assert gap < 1e-6


def test_copies_of_a_policy_change_no_score():
    """A menace entered three times shifts every crew's plain mean but no Nash-averaged score."""
    rows, cols = ["a", "b", "c"], ["r", "p", "s"]
    base = from_matrix(matrix(ROCK_PAPER_SCISSORS, rows, cols))
    tripled = np.hstack([ROCK_PAPER_SCISSORS, ROCK_PAPER_SCISSORS[:, [2, 2]]])
    copied = from_matrix(matrix(tripled, rows, cols + ["s2", "s3"]))
    crew_base, crew_copied = base.views[0], copied.views[0]
    assert not np.allclose(crew_base.mean, crew_copied.mean, atol=0.05)
    assert np.allclose(crew_base.nash_score, crew_copied.nash_score, atol=2e-3)
    assert copied.gap < 2e-3


def test_a_dominant_policy_takes_the_whole_mixture():
    score = np.array([[0.6, 0.3], [0.5, 0.45]])  # crew b holds every menace to >= 0.45
    view = from_matrix(matrix(score, ["a", "b"], ["x", "y"]))
    crew, menace = view.views
    assert crew.nash_weight[1] > 0.999 and menace.nash_weight[1] > 0.999
    assert view.value == pytest.approx(0.45, abs=1e-3)
    assert menace.nash_score[1] == pytest.approx(0.55, abs=1e-3)  # the second team's own score


def test_alpha_rank_puts_its_mass_on_the_sink():
    pytest.importorskip("open_spiel")
    score = np.array([[0.9, 0.5, 0.7], [0.95, 0.4, 0.6]])  # (a, y) is the only sink
    view = from_matrix(matrix(score, ["a", "b"], ["x", "y", "z"]))
    crew, menace = view.views
    assert crew.alpha_rank.argmax() == 0 and menace.alpha_rank.argmax() == 1
    assert crew.alpha_rank.sum() == pytest.approx(1.0) and menace.alpha_rank[1] > 0.9


def test_a_missing_cell_is_refused(tmp_path):
    data = matrix(ROCK_PAPER_SCISSORS, ["a", "b", "c"], ["r", "p", "s"])
    data["cells"].pop()
    (tmp_path / "matrix.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="misses cells"):
        load(tmp_path)


@pytest.mark.parametrize("content", [b"", b"\x00\xff", b"[1, 2]", b'{"format": 3}',
                                     json.dumps({"format": MATRIX_FORMAT}).encode()])
def test_the_command_refuses_a_damaged_matrix_in_one_line(tmp_path, content):
    path = tmp_path / "matrix.json"
    path.write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", "metagame", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("hiddendeck: ") and done.stderr.count("\n") == 1, done.stderr


def test_the_command_prints_both_teams(tmp_path):
    score = np.array([[0.6, 0.3], [0.5, 0.45]])
    (tmp_path / "matrix.json").write_text(json.dumps(matrix(score, ["a", "b"], ["x", "y"])))
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", "metagame", str(tmp_path),
                           "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [v["team"] for v in out["views"]] == ["crew", "menace"]
    assert out["value"] == pytest.approx(0.45, abs=1e-3)


def test_ranges_over_deals_come_from_the_evals_games(tmp_path):
    """Every cell resampled over the same deals: the value and each Nash weight get a range."""
    rng = np.random.default_rng(0)
    rows, cols, deals = ["a", "b"], ["x", "y", "z"], 200
    won = rng.random((2, 3, deals)) < np.array([[0.6, 0.3, 0.5], [0.5, 0.45, 0.4]])[..., None]
    data = matrix(won.mean(axis=2), rows, cols, games=deals)
    (tmp_path / "matrix.json").write_text(json.dumps(data | {"games_per_pairing": deals}))
    with gzip.open(tmp_path / "games.jsonl.gz", "wt") as f:
        f.write(json.dumps({"format": "header"}) + "\n")
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                for d in range(deals):
                    f.write(json.dumps({"index": d, "policies": {"crew": r, "menace": c},
                                        "winner": 0 if won[i, j, d] else 1}) + "\n")
    meta = load(tmp_path)
    lo, hi = meta.value_range
    assert lo < meta.value < hi and hi - lo > 0.02
    for view in meta.views:
        assert (view.weight_range[:, 0] <= view.nash_weight + 1e-6).all()
        assert (view.nash_weight - 1e-6 <= view.weight_range[:, 1]).all()
    assert "95% ranges over 200 resamples of the 200 deals" in meta.format_table()
