"""Agent-side deduction (``agents/deduction.py``, issue 41): counts the agent makes from its own
observation, read by its actor beside it. The Among Us count is the same count ``assist=1``
puts in the observation, made by the agent instead of the game."""

import numpy as np
import pytest
import torch

import envs
from agents.deduction import Deduction
from agents.neural import ActorCritic, load_policy
from tests.training.conftest import TINY
from training.ppo import Args, train


def _random_course(vec, steps: int, seed: int) -> np.ndarray:
    """The deciding seats' observations over ``steps`` steps of random legal play."""
    rng, seen = np.random.default_rng(seed), []
    for _ in range(steps):
        seen.append(vec.observation.copy())
        legal = [np.flatnonzero(m) for m in vec.action_mask]
        vec.step(np.array([rng.choice(a) for a in legal]))
    return np.concatenate(seen)


@pytest.mark.parametrize("players", [4, 6, 10])
def test_the_agents_counts_are_the_counts_assist_puts_in_the_observation(players):
    params = {"num_players": players}
    raw = envs.make_vec("amongus", 1, num_players=players).observation_size
    vec = envs.make_vec("amongus", 32, seed=players, num_players=players, assist=1)
    seen = _random_course(vec, 150, seed=players)
    counted = Deduction("amongus-counts", params, raw)(torch.from_numpy(seen[:, :raw]))
    assert counted.shape == seen.shape
    np.testing.assert_allclose(counted.numpy()[:, raw:], seen[:, raw:], atol=1e-6)
    assert (seen[:, raw] > 0).sum() > 100  # impostor rows with a count were checked


@pytest.mark.parametrize("players", [4, 5, 8])
def test_the_menace_suspicion_is_the_heuristics_reading_from_the_observers_side(players):
    """``menace-suspicion``: column r the Menace heuristic's score of the seat r places
    clockwise / 10, clipped to [-3, 3], from the side the observer plays; column n + r whether
    that seat can be suspected (alive, not the observer)."""
    from agents.menace_heuristic import on_menace_side, suspicion
    from envs.menace import cards
    from envs.menace.observe import ALIVE, OWN_AGENDA

    vec = envs.make_vec("menace", 32, seed=players, num_players=players)
    layout = vec.spec.observation_layout(vec.params)
    off, n = layout.offsets, players
    seen = _random_course(vec, 150, seed=players)
    counted = Deduction("menace-suspicion", vec.params, vec.observation_size)(
        torch.from_numpy(seen)).numpy()[:, vec.observation_size:]
    assert counted.shape == (len(seen), 2 * n)
    scores = np.empty(n)
    settled = 0
    for row, mine in zip(seen, counted):
        agenda = np.argmax(row[off[OWN_AGENDA]:off[OWN_AGENDA] + cards.N_AGENDAS])
        suspicion(row, off, n, not on_menace_side(row, off, agenda), scores)
        alive = row[off[ALIVE]:off[ALIVE] + n] > 0.5
        assert mine[n] == 0 and mine[0] == 0  # the observer
        np.testing.assert_array_equal(mine[n + 1:], alive[1:].astype(np.float32))
        np.testing.assert_allclose(mine[1:n][alive[1:]],
                                   np.clip(scores[1:][alive[1:]] / 10, -3, 3), atol=1e-6)
        settled += int((np.abs(mine[1:n]) >= 1).any())
    assert settled > 0  # some rows where an agenda was revealed or evidence piled up


def test_an_actor_that_deduces_reads_the_counts_beside_the_observation():
    vec = envs.make_vec("amongus", 4, num_players=6)
    D = vec.observation_size
    config = {"kind": "mlp", "observation_size": D, "num_actions": vec.num_actions,
              "critic_input_size": D, "hidden": [16], "deduction": "amongus-counts",
              "deduction_params": {"num_players": 6}}
    model = ActorCritic(config)
    assert model.actor[1].in_features == D + 1 + 2 * 6
    logits, _ = model.actor_step(torch.from_numpy(vec.observation))
    assert logits.shape == (4, vec.num_actions)
    assert model.critic[0].in_features == D  # the critic reads what it read before


def test_deduction_refuses_what_it_cannot_count():
    with pytest.raises(ValueError, match="unknown deduction 'guess'"):
        Args(deduction="guess").check()
    with pytest.raises(ValueError, match="counts over amongus's observation, not maniacal's"):
        Args(game="maniacal", num_players=4, deduction="amongus-counts").check()
    with pytest.raises(ValueError, match="not with sparse_observations"):
        Args(deduction="amongus-counts", sparse_observations=True).check()
    assisted = envs.make_vec("amongus", 1, num_players=6, assist=1).observation_size
    with pytest.raises(ValueError, match="an assist=1 observation"):
        Deduction("amongus-counts", {"num_players": 6}, assisted)
    with pytest.raises(ValueError, match="needs the game's parameters"):
        Deduction("amongus-counts", None, 10)


def test_a_run_that_deduces_trains_resumes_and_plays_from_the_raw_observation(tmp_path):
    settings = {**TINY, "deduction": "amongus-counts"}
    paths = train(Args(out=str(tmp_path), **settings))
    policy = load_policy(paths["impostor"], game="amongus", num_players=4)
    assert policy.model.config["deduction"] == "amongus-counts"
    vec = envs.make_vec("amongus", 8, seed=1, num_players=4)
    actions = policy.act(vec.observation, vec.action_mask)
    assert vec.action_mask[np.arange(8), actions].all()
    resumed = train(Args(out=str(tmp_path / "more"), resume=str(paths["crew"].parent),
                         **{**settings, "total_steps": TINY["total_steps"] * 2}))
    assert load_policy(resumed["crew"]).metadata["steps"] > policy.metadata["steps"]
