"""Per-seat GAE on hand-made interleaved trajectories, pending rows included."""

import numpy as np
import pytest

from training.gae import per_seat_gae

G, L = 0.9, 0.8  # gamma, lambda


def gae(rewards, values, done, seat, valid=None, players=2):
    valid = np.ones(np.shape(seat), bool) if valid is None else valid
    return per_seat_gae(np.asarray(rewards, np.float32), np.asarray(values, np.float32),
                        np.asarray(done), np.asarray(seat), valid, players, G, L)


def test_each_seat_chains_to_its_own_next_decision():
    # One game (B = 1), seats 0 and 1 alternate: t0 s0, t1 s1, t2 s0 (game ends after t3),
    # t3 s1, then a new game: t4 s0 (still running when the rollout stops: pending).
    seat = [[0], [1], [0], [1], [0]]
    values = [[0.1], [0.2], [0.3], [0.4], [0.5]]
    done = [[False], [False], [True], [True], [False]]
    rewards = [[0.0], [0.0], [1.0], [-1.0], [0.0]]  # end: s0 +1, s1 -1

    adv, ret, resolved = gae(rewards, values, done, seat)

    a3 = -1.0 - 0.4  # seat 1's last decision of the game: terminal
    a2 = 1.0 - 0.3  # seat 0's last decision: terminal
    a1 = (0.0 + G * 0.4 - 0.2) + G * L * a3  # seat 1 -> seat 1 at t3, skipping seat 0
    a0 = (0.0 + G * 0.3 - 0.1) + G * L * a2  # seat 0 -> seat 0 at t2
    assert resolved[:, 0].tolist() == [True, True, True, True, False]
    np.testing.assert_allclose(adv[:4, 0], [a0, a1, a2, a3], rtol=1e-6)
    np.testing.assert_allclose(ret[:4], adv[:4] + np.asarray(values)[:4], rtol=1e-6)
    assert np.isnan(adv[4, 0]) and np.isnan(ret[4, 0])  # pending: no target yet


def test_a_pending_row_lends_its_own_value_to_its_chain():
    # Seat 0 decides at t0 and t2; at t2 the game goes on past the rollout: t2 is pending and
    # t0 bootstraps from t2's stored value with no advantage behind it (truncated chain).
    seat = [[0], [1], [0]]
    values = [[0.1], [0.2], [0.6]]
    done = [[False], [False], [False]]
    adv, _, resolved = gae(np.zeros((3, 1)), values, done, seat)
    assert resolved[:, 0].tolist() == [True, False, False]
    np.testing.assert_allclose(adv[0, 0], G * 0.6 - 0.1, rtol=1e-6)


def test_invalid_rows_are_skipped():
    # An empty carry slot (row 0) between nothing: it neither trains nor links.
    seat = [[1], [0], [0]]
    values = [[9.0], [0.1], [0.2]]
    done = [[False], [False], [True]]
    valid = np.array([[False], [True], [True]])
    adv, _, resolved = gae([[5.0], [0.0], [1.0]], values, done, seat, valid)
    assert resolved[:, 0].tolist() == [False, True, True]
    np.testing.assert_allclose(adv[1:, 0], [(G * 0.2 - 0.1) + G * L * 0.8, 0.8], rtol=1e-6)


def test_games_in_a_batch_do_not_mix():
    seat = np.array([[0, 1], [1, 0], [0, 1]])
    values = np.array([[0.1, 0.5], [0.2, 0.6], [0.3, 0.7]], np.float32)
    done = np.array([[False, False], [True, False], [True, True]])
    rewards = np.array([[0, 0], [1, 0], [-1, 1]], np.float32)
    adv, _, res = gae(rewards, values, done, seat)
    flipped, _, res_f = gae(rewards[:, ::-1], values[:, ::-1], done[:, ::-1], seat[:, ::-1])
    np.testing.assert_allclose(adv, flipped[:, ::-1], rtol=1e-6)
    np.testing.assert_array_equal(res, res_f[:, ::-1])
    a12 = 1.0 - 0.7  # game 1: seat 1 at t0 -> seat 1 at t2 (done)
    np.testing.assert_allclose(adv[0, 1], (G * 0.7 - 0.5) + G * L * a12, rtol=1e-6)
    assert not res[1, 1]  # game 1, seat 0 at t1: not done, no later decision: pending


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="values must be"):
        gae(np.zeros((3, 2)), np.zeros((3, 1)), np.zeros((3, 2), bool), np.zeros((3, 2), int))
