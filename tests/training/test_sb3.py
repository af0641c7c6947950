"""The SB3 path: a gymnasium env for one team that MaskablePPO trains on unchanged."""

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from agents.policy import RandomPolicy
from training.sb3 import TeamEnv, make_sb3_vec_env


def test_observations_lie_in_the_space_and_seeded_resets_repeat():
    # (gymnasium's check_env steps unmasked random actions, which the engine rightly refuses)
    env = TeamEnv("amongus", "impostor", RandomPolicy(0), seed=0, num_players=4)
    first, _ = env.reset(seed=7)
    assert env.observation_space.contains(first)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
    twin = TeamEnv("amongus", "impostor", RandomPolicy(0), seed=0, num_players=4)
    again, _ = twin.reset(seed=7)  # (the opponents' own random stream moves on, so a twin)
    np.testing.assert_array_equal(first, again)


def test_the_agent_only_decides_for_its_team_and_games_end_with_a_reward():
    env = TeamEnv("amongus", "crew", RandomPolicy(1), seed=3, num_players=5)
    rng = np.random.default_rng(0)
    env.reset(seed=3)
    rewards = []
    for _ in range(400):
        seat = int(env.env.current_seat[0])
        assert env.env.teams()[0, seat] == 0  # crew
        mask = env.action_masks()
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        if terminated:
            rewards.append(reward)
            assert info["winner"] in ("crew", "impostor", None)
            env.reset()
    assert rewards and set(rewards) <= {-1.0, 0.0, 1.0}


def test_maskable_ppo_trains_on_it():
    env = make_sb3_vec_env("amongus", "crew", RandomPolicy(2), n_envs=2, seed=0, num_players=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=np.stack(env.env_method("action_masks")))
    assert all(env.env_method("action_masks")[i][a] for i, a in enumerate(actions))


def test_bad_team_is_named():
    with pytest.raises(ValueError, match="not 'menace'"):
        TeamEnv("amongus", "menace", RandomPolicy(0))
