"""Per-seat GAE on a hand-made interleaved trajectory."""

import numpy as np
import pytest

from training.gae import per_seat_gae

G, L = 0.9, 0.8  # gamma, lambda


def test_each_seat_chains_to_its_own_next_decision():
    # One game (B = 1), seats 0 and 1 alternate: t0 s0, t1 s1, t2 s0 (game ends after t3),
    # t3 s1, then a new game: t4 s0 (still running when the rollout stops).
    seat = np.array([[0], [1], [0], [1], [0]])
    values = np.array([[0.1], [0.2], [0.3], [0.4], [0.5]], np.float32)
    done = np.array([[False], [False], [True], [True], [False]])
    rewards = np.array([[0.0], [0.0], [1.0], [-1.0], [0.0]], np.float32)  # end: s0 +1, s1 -1
    bootstrap = np.array([[0.7, 0.0]], np.float32)  # seat 0 waits in the new game

    adv, ret = per_seat_gae(rewards, values, done, seat, bootstrap, G, L)

    a4 = 0.0 + G * 0.7 - 0.5  # seat 0, new game: bootstrapped
    a3 = -1.0 - 0.4  # seat 1's last decision of the game: terminal
    a2 = 1.0 - 0.3  # seat 0's last decision: terminal
    a1 = (0.0 + G * 0.4 - 0.2) + G * L * a3  # seat 1 -> seat 1 at t3, skipping seat 0
    a0 = (0.0 + G * 0.3 - 0.1) + G * L * a2  # seat 0 -> seat 0 at t2
    np.testing.assert_allclose(adv[:, 0], [a0, a1, a2, a3, a4], rtol=1e-6)
    np.testing.assert_allclose(ret, adv + values, rtol=1e-6)


def test_games_in_a_batch_do_not_mix():
    # Two games with opposite seat orders; swapping the columns must swap the answers.
    seat = np.array([[0, 1], [1, 0], [0, 1]])
    values = np.array([[0.1, 0.5], [0.2, 0.6], [0.3, 0.7]], np.float32)
    done = np.array([[False, False], [True, False], [True, True]])
    rewards = np.array([[0, 0], [1, 0], [-1, 1]], np.float32)
    bootstrap = np.array([[0.0, 0.0], [0.0, 0.9]], np.float32)
    adv, _ = per_seat_gae(rewards, values, done, seat, bootstrap, G, L)
    flipped, _ = per_seat_gae(rewards[:, ::-1].copy(), values[:, ::-1].copy(),
                              done[:, ::-1].copy(), seat[:, ::-1].copy(), bootstrap[::-1].copy(),
                              G, L)
    np.testing.assert_allclose(adv, flipped[:, ::-1], rtol=1e-6)
    # game 1: seat 0 at t1 chains to nothing later (seat 0 never decides again, no bootstrap)
    # -> its next value is bootstrap[1, 0] = 0; seat 1 at t0 -> seat 1 at t2 (done).
    a12 = 1.0 - 0.7
    np.testing.assert_allclose(adv[0, 1], (G * 0.7 - 0.5) + G * L * a12, rtol=1e-6)


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="must all be"):
        per_seat_gae(np.zeros((3, 2)), np.zeros((3, 1)), np.zeros((3, 2), bool),
                     np.zeros((3, 2), int), np.zeros((2, 2)), G, L)
