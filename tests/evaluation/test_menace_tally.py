"""The tally behind docs/rules/menace.md's balance notes, and the population grid's checks."""

import pytest

from evaluation.menace_tally import tally
from evaluation.population_grid import grid


def test_menace_tally_plays_each_deal_once_and_the_same_deals_again():
    first = tally("heuristic", "heuristic", players=5, games=6, seed=0, num_envs=4)
    again = tally("heuristic", "heuristic", players=5, games=6, seed=0, num_envs=2)
    assert first["games"] == 6 and first["crew_wins"] + first["draws"] <= 6
    lo, hi = first["interval95"]
    assert lo <= first["crew_win_rate"] <= hi
    assert again == first  # deals by index: however the games are spread over slots


def test_population_grid_refuses_reports_of_two_teams():
    report = {"game": "menace", "team": "crew", "population": "v3", "policy": "random",
              "params": {"num_players": 5}, "members": []}
    with pytest.raises(ValueError, match="mix"):
        grid([report, dict(report, team="menace")])
