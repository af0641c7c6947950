"""The GRU option: the update rebuilds exactly the memories the rollout used."""

import dataclasses

import numpy as np
import pytest
import torch

import envs
from agents.neural import ActorCritic, RecurrentPolicy, load_policy
from training.ppo import Args, recurrent_logits, seat_sequences, train

from .conftest import TINY


def test_sequences_replay_the_rollout_memories():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    T, B, P, D, A, M = 12, 5, 3, 7, 4, 6
    model = ActorCritic({"kind": "gru", "observation_size": D, "num_actions": A,
                         "critic_input_size": D, "hidden": [8, M]})
    obs = torch.randn(T, B, D)
    seat = rng.integers(P, size=(T, B))
    ends = rng.random((T, B)) < 0.15  # a game ends after this step
    learn = seat != 0  # seat 0 is the other team's: its rows are left out of this update
    memory = torch.randn(B, P, M)  # memories carried in from an earlier rollout
    memory_in = torch.zeros(T, B, M)
    logits = torch.zeros(T, B, A)
    done = np.zeros((T, B), bool)  # as the trainer marks it: each seat's last decision
    last = np.full((B, P), -1)
    with torch.no_grad():
        for t in range(T):
            for b in range(B):
                s = seat[t, b]
                memory_in[t, b] = memory[b, s]
                out, memory[b, s] = model.actor_step(obs[t, b : b + 1], memory[b, s][None])
                logits[t, b] = out[0]
                last[b, s] = t
                if ends[t, b]:  # every seat of the game forgets; its last decisions are done
                    memory[b] = 0.0
                    done[last[b][last[b] >= 0], b] = True
                    last[b] = -1
    rows = np.flatnonzero(learn.reshape(-1))
    index, restart = seat_sequences(rows, B, seat, done)
    with torch.no_grad():
        got_rows, got = recurrent_logits(
            model, obs.reshape(T * B, D)[rows], memory_in.reshape(T * B, M)[rows],
            torch.from_numpy(index), torch.from_numpy(restart))
    expected = logits.reshape(T * B, A)[rows][got_rows]
    assert sorted(got_rows.tolist()) == list(range(rows.size))
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)


def test_gru_run_trains_and_loads_as_a_recurrent_policy(tmp_path):
    args = dataclasses.replace(Args(out=str(tmp_path), **TINY), model="gru", opponent_share=0.5)
    paths = train(args)
    policy = load_policy(paths["crew"], "amongus", team="crew", num_players=4)
    assert isinstance(policy, RecurrentPolicy)
    env = envs.make_vec("amongus", 16, seed=3, num_players=4)
    for _ in range(5):
        keys = np.arange(16) * 4 + env.current_seat
        actions = policy.act(env.observation, env.action_mask, keys=keys)
        assert env.action_mask[np.arange(16), actions].all()
        env.step(actions)
    with pytest.raises(ValueError, match="is recurrent: pass keys"):
        policy.act(env.observation, env.action_mask)
