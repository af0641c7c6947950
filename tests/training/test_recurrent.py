"""The GRU option: the update rebuilds exactly the memories the rollout used, and a trained
GRU plays matches and terminal games with one memory per (game slot, seat)."""

import dataclasses

import numpy as np
import pytest
import torch

import envs
from agents.neural import ActorCritic, RecurrentPolicy, load_policy
from agents.policy import RandomPolicy
from evaluation.match import play_match
from evaluation.play import play
from training.ppo import Args, train
from training.recurrent import recurrent_logits, seat_sequences

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
    # Rows of the other team are left out of this update; a seat may change team mid-game (the
    # Coward), so a game's last row of a seat may be the other team's: the next game's first
    # row in this team's column must still start from a blank memory.
    learn = rng.random((T, B)) < 0.6
    memory = torch.randn(2, B, P, M)  # per team, carried in from an earlier rollout
    memory_in = torch.zeros(T, B, M)
    logits = torch.zeros(T, B, A)
    episode = np.zeros((T, B), np.int64)  # the game each row belongs to, per slot
    game = np.zeros(B, np.int64)
    with torch.no_grad():
        for t in range(T):
            for b in range(B):
                s = seat[t, b]
                team = int(not learn[t, b])  # each team's network keeps its own memories
                memory_in[t, b] = memory[team, b, s]
                out, memory[team, b, s] = model.actor_step(obs[t, b : b + 1],
                                                           memory[team, b, s][None])
                logits[t, b] = out[0]
                episode[t, b] = game[b]
                if ends[t, b]:  # every seat of the game forgets
                    memory[:, b] = 0.0
                    game[b] += 1
    rows = np.flatnonzero(learn.reshape(-1))
    index, restart = seat_sequences(rows, B, seat, episode)
    with torch.no_grad():
        got_rows, got, _ = recurrent_logits(
            model, obs.reshape(T * B, D)[rows], memory_in.reshape(T * B, M)[rows],
            torch.from_numpy(index), torch.from_numpy(restart))
    expected = logits.reshape(T * B, A)[rows][got_rows]
    assert sorted(got_rows.tolist()) == list(range(rows.size))
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)


@pytest.fixture(scope="module")
def gru_checkpoints(tmp_path_factory):
    out = tmp_path_factory.mktemp("gru_run")
    args = dataclasses.replace(Args(out=str(out), **TINY), model="gru", opponent_share=0.5)
    return train(args)


def test_gru_run_trains_and_loads_as_a_recurrent_policy(gru_checkpoints):
    policy = load_policy(gru_checkpoints["crew"], "amongus", team="crew", num_players=4)
    assert isinstance(policy, RecurrentPolicy) and policy.remembers
    env = envs.make_vec("amongus", 16, seed=3, num_players=4)
    who = np.stack([np.arange(16), env.current_seat], 1)
    for _ in range(5):
        who[:, 1] = env.current_seat
        actions = policy.act(env.observation, env.action_mask, who)
        assert env.action_mask[np.arange(16), actions].all()
        env.step(actions)
    with pytest.raises(ValueError, match="is recurrent: pass who"):
        policy.act(env.observation, env.action_mask)
    with pytest.raises(ValueError, match="appears twice"):
        policy.act(env.observation[:2], env.action_mask[:2], np.array([[0, 1], [0, 1]]))


def test_a_seat_remembers_its_own_game_until_game_over(gru_checkpoints):
    """A seat's memory builds on its earlier decisions in its game; after ``game_over`` of that
    slot the seat starts afresh, and other slots keep their memories."""
    policy = load_policy(gru_checkpoints["crew"], "amongus", team="crew", num_players=4)
    env = envs.make_vec("amongus", 2, seed=5, num_players=4)
    obs, mask = env.observation[:1], env.action_mask[:1]

    def memory_of(slot, seat):
        return policy._memory[slot, seat].clone()

    policy.act(obs, mask, np.array([[0, 2]]))
    policy.act(obs, mask, np.array([[1, 2]]))
    first = memory_of(0, 2)
    policy.act(obs, mask, np.array([[0, 2]]))
    assert not torch.equal(memory_of(0, 2), first)  # a second decision builds on the first
    policy.game_over(np.array([0]))
    assert not memory_of(0, 2).any() and torch.equal(memory_of(1, 2), first)
    policy.act(obs, mask, np.array([[0, 2]]))
    torch.testing.assert_close(memory_of(0, 2), first)


class _Spy(RandomPolicy):
    """A random player that says it remembers, to see what callers tell such a policy."""

    remembers = True

    def __init__(self):
        super().__init__(0)
        self.who, self.ended = [], []

    def act(self, observation, action_mask, who=None):
        self.who.append(who.copy())
        return super().act(observation, action_mask)

    def game_over(self, slots):
        self.ended.extend(slots.tolist())


def test_a_match_tells_a_remembering_policy_who_decides_and_when_games_end():
    crew, impostor = _Spy(), RandomPolicy(1)
    result = play_match("amongus", {"crew": crew, "impostor": impostor}, num_games=40,
                        num_envs=8, seed=2, num_players=4)
    assert result.games == 40
    assert all(w.shape[1] == 2 and (w[:, 0] < 8).all() and (w[:, 1] < 4).all() for w in crew.who)
    assert all(np.unique(w[:, 0]).size == len(w) for w in crew.who)  # one decision per slot
    assert len(crew.ended) >= 40 and set(crew.ended) <= set(range(8))


def test_gru_checkpoints_play_matches_and_at_the_terminal(gru_checkpoints, capsys):
    policies = {team: load_policy(path, "amongus", team=team, num_players=4)
                for team, path in gru_checkpoints.items()}
    result = play_match("amongus", policies, num_games=64, num_envs=16, seed=1, num_players=4)
    assert result.games == 64 and sum(result.wins.values()) + result.draws == 64
    reward = play("amongus", seat=0, opponents=str(gru_checkpoints["crew"]), seed=4,
                  read=lambda prompt: "0", num_players=4)
    assert reward in (-1.0, 0.0, 1.0)
    assert "Game over" in capsys.readouterr().out


def test_a_gru_checkpoint_plays_a_fixed_team(gru_checkpoints, tmp_path):
    args = dataclasses.replace(Args(out=str(tmp_path), **TINY),
                               fixed_teams={"crew": str(gru_checkpoints["crew"])})
    assert set(train(args)) == {"crew", "impostor"}
