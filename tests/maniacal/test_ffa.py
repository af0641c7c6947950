"""Free-for-all strength (``evaluation.ffa``): every deal in every seating, scored by place."""

import numpy as np
import pytest
import torch

import envs
from agents import make_policy
from agents.checkpoint import game_metadata, save_policy
from agents.neural import ActorCritic, load_policy
from evaluation.cli import main
from evaluation.ffa import InProcess, ffa_match, first_shares, play_seatings, positions, score
from evaluation.ffa import seatings

FOUR = {"num_players": 4}


def untrained_checkpoint(path, game, team, **params):
    spec = envs.registry[game]
    resolved = spec.resolve(**params)
    size = spec.observation_layout(resolved).size
    config = {"kind": "mlp", "observation_size": size, "num_actions": spec.num_actions,
              "critic_input_size": size, "hidden": [16]}
    meta = game_metadata(game, resolved)
    meta.update(team=team, teams=list(spec.teams), steps=0, seed=0, model=config)
    return str(save_policy(path, meta, ActorCritic(config).state_dict()))


@pytest.mark.parametrize("players,seats,count,each", [(4, 2, 6, 3), (5, 2, 10, 4), (2, 1, 2, 1)])
def test_every_seat_is_each_sides_equally_often(players, seats, count, each):
    plans = seatings(players, seats)
    assert len(plans) == count == len(set(plans))
    held = np.zeros(players, int)
    for plan in plans:
        assert len(plan) == seats
        held[list(plan)] += 1
    assert (held == each).all()


def test_a_side_needs_a_seat_and_must_leave_one():
    for seats in (0, 4):
        with pytest.raises(ValueError, match="between 1 and 3 of the 4 seats"):
            seatings(4, seats)


def test_tied_seats_share_their_mean_place():
    rewards = np.array([[1, 1 / 3, -1 / 3, -1], [0, 0, 0, 0], [1, 1, -1, -1], [-1, 1, 0, 1]])
    assert positions(rewards).tolist() == [[1, 2, 3, 4], [2.5] * 4, [1.5, 1.5, 3.5, 3.5],
                                           [4, 1.5, 3, 1.5]]
    assert first_shares(rewards).tolist() == [[1, 0, 0, 0], [0.25] * 4, [0.5, 0.5, 0, 0],
                                              [0, 0.5, 0, 0.5]]


def test_the_heuristic_places_better_than_random():
    result = ffa_match("maniacal", "heuristic", "random", deals=12, seed=5, workers=1, **FOUR)
    heuristic, rand = result.sides
    assert result.games == 12 * 6 and heuristic.seats == rand.seats == 2
    assert heuristic.position_interval[1] < rand.position_interval[0]
    assert heuristic.mean_position + rand.mean_position == pytest.approx(5.0)  # 1+2+3+4 over 2
    assert heuristic.first_share > 0.9 and heuristic.first_share + rand.first_share == 1.0
    assert "heuristic: mean position" in result.format_table() and "better than" in \
        result.format_table()


def test_seat_advantage_cancels_when_the_sides_play_alike():
    """The heuristic is deterministic, so two copies under two labels play every deal the same
    way in every seating: whatever each seat's advantage, each side averages the middle place."""
    result = ffa_match("maniacal", "a@heuristic", "b@heuristic", deals=4, seed=2, workers=1,
                       **FOUR)
    for side in result.sides:
        assert side.mean_position == pytest.approx(2.5)
        assert side.first_share == pytest.approx(0.5)


def test_uneven_sides_are_scored_by_their_own_seats():
    result = ffa_match("maniacal", "heuristic", "random", deals=3, seed=1, seats=1, workers=1,
                       **FOUR)
    heuristic, rand = result.sides
    assert (heuristic.seats, rand.seats, len(result.seatings)) == (1, 3, 4)
    assert heuristic.mean_position + 3 * rand.mean_position == pytest.approx(10.0)


def test_a_checkpoint_of_another_game_or_table_is_refused(tmp_path):
    menace = untrained_checkpoint(tmp_path / "crew.pt", "menace", "crew", num_players=5)
    with pytest.raises(ValueError, match="menace"):
        ffa_match("maniacal", menace, "heuristic", deals=2, workers=1, **FOUR)
    five = untrained_checkpoint(tmp_path / "shared.pt", "maniacal", "shared", num_players=5)
    with pytest.raises(ValueError, match="num_players"):
        ffa_match("maniacal", five, "heuristic", deals=2, workers=1, **FOUR)


def test_a_shared_checkpoint_plays_any_seat(tmp_path):
    shared = untrained_checkpoint(tmp_path / "shared.pt", "maniacal", "shared", **FOUR)
    result = ffa_match("maniacal", f"net@{shared}", "heuristic", deals=2, workers=1, **FOUR)
    assert result.sources["net"] == shared and result.games == 12


def test_a_greedy_checkpoint_plays_its_most_likely_action(tmp_path):
    shared = untrained_checkpoint(tmp_path / "shared.pt", "maniacal", "shared", **FOUR)
    result = ffa_match("maniacal", f"net@{shared}", "heuristic", deals=3, seed=5, workers=1,
                       greedy=True, **FOUR)
    params = envs.registry["maniacal"].resolve(**FOUR)
    greedy = InProcess("net", load_policy(shared, greedy=True))
    heuristic = InProcess("heuristic", make_policy("heuristic", envs.registry["maniacal"],
                                                   params, 5))
    logs, plans = play_seatings("maniacal", params, greedy, heuristic, 3, 5, 2)
    expected = score("net", "heuristic", logs, plans, 4)
    assert [s.mean_position for s in result.sides] == [s.mean_position for s in expected[:2]]
    with pytest.raises(ValueError, match="not a checkpoint"):
        ffa_match("maniacal", "random", "heuristic", deals=2, greedy=True, **FOUR)


def test_bad_requests_are_refused_before_playing():
    with pytest.raises(ValueError, match="team game"):
        ffa_match("menace", "heuristic", "random", deals=2)
    with pytest.raises(ValueError, match="deals must be an integer >= 2"):
        ffa_match("maniacal", "heuristic", "random", deals=1)
    with pytest.raises(ValueError, match="two different policies"):
        ffa_match("maniacal", "heuristic", "heuristic", deals=2)
    with pytest.raises(ValueError, match="unknown policy"):
        ffa_match("maniacal", "nosuch", "heuristic", deals=2)


def test_the_command_prints_the_table(capsys):
    torch.set_num_threads(1)
    assert main(["ffa", "maniacal", "heuristic", "random", "--players", "4", "--games", "2",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 deals x 6 seatings = 12 games" in out and "mean position" in out
    assert main(["ffa", "maniacal", "random", "--players", "4", "--games", "2", "--greedy"]) == 2
    assert "not a checkpoint" in capsys.readouterr().err
    assert main(["ffa", "menace", "heuristic"]) == 2
    assert "team game" in capsys.readouterr().err


def test_intervals_stay_in_range_and_the_verdict_reads_the_paired_difference():
    result = ffa_match("maniacal", "heuristic", "random", deals=40, seed=2, workers=1, **FOUR)
    a, b = result.sides
    for side in result.sides:
        assert 1.0 <= side.position_interval[0] <= side.position_interval[1] <= 4.0
        assert 0.0 <= side.first_interval[0] <= side.first_interval[1] <= 1.0
    mean, lo, hi = result.difference
    assert mean == pytest.approx(a.mean_position - b.mean_position)
    assert lo <= mean <= hi < 0  # the heuristic places better than random, deal by deal
    assert "better than" in result.format_table()
    assert result.as_dict()["position_difference"]["interval95"] == [lo, hi]
