"""Conformance of the Menace engine beyond the suite every game passes (tests/test_conformance.py:
PettingZoo API and seeding, AEC == batched, batch, thread and process invariance at 4 and 8
players, information invariance of observations and masks at every size with
`tests/menace/hidden.py`): clean random games at every table size, masks are the legal set."""

import numpy as np
import pytest

from envs.core.registry import make_vec


def random_run(num_players, seed, steps, num_envs=16):
    vec = make_vec("menace", num_envs, seed=seed, num_players=num_players)
    rng = np.random.default_rng(seed)
    trace, finished = [], 0
    for _ in range(steps):
        assert vec.action_mask.any(axis=1).all(), "a live decision with no legal action"
        logits = rng.random(vec.action_mask.shape)
        actions = np.where(vec.action_mask, logits, -1.0).argmax(axis=1)
        rewards, term, trunc = vec.step(actions)
        done = term | trunc
        finished += done.sum()
        assert np.all(np.abs(rewards[~done]) == 0.0)
        assert np.all(np.isin(rewards[term], (-1.0, 1.0)))
        assert np.all(vec.observation >= 0.0) and np.all(vec.observation <= 2.0)
        trace.append(actions.copy())
    return vec, np.array(trace), finished


@pytest.mark.parametrize("num_players", [4, 5, 6, 7, 8])
def test_random_games_are_clean_and_finish(num_players):
    _, _, finished = random_run(num_players, seed=num_players, steps=400)
    assert finished > 0


def test_mask_is_the_legal_set():
    vec = make_vec("menace", 8, seed=9, num_players=6)
    for _ in range(100):
        for b in range(vec.num_envs):
            for a in np.flatnonzero(~vec.action_mask[b])[:3]:
                with pytest.raises(ValueError):
                    bad = np.array([np.flatnonzero(m)[0] for m in vec.action_mask])
                    bad[b] = a
                    vec.step(bad)
        vec.step(np.array([np.flatnonzero(m)[0] for m in vec.action_mask]))
