"""The auxiliary role head: it learns the true teams, never moves the actor or the critic, and
travels with the checkpoint; a checkpoint without it says so."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

import envs
from agents.neural import ActorCritic, load_policy
from evaluation.beliefs import benchmark, has_beliefs
from evaluation.cli import main
from tests.evaluation.conftest import make_checkpoint
from training.instrument import Clock
from training.ppo import Args, model_config, ppo_update
from training.rollout import Minibatches

D, A, P, N = 12, 5, 5, 512


def config(beliefs: bool) -> dict:
    c = {"kind": "mlp", "observation_size": D, "num_actions": A, "critic_input_size": D,
         "hidden": [16, 16]}
    if beliefs:
        c["belief_seats"] = P - 1
    return c


def rigged_batch() -> dict:
    """Random positions whose true teams are written in the observation: seat j+1 is on the
    other side exactly when feature j is positive."""
    g = torch.Generator().manual_seed(0)
    obs = torch.randn(N, D, generator=g)
    return {"obs": obs, "mask": torch.ones(N, A, dtype=torch.bool),
            "actions": torch.randint(0, A, (N,), generator=g),
            "logp": torch.full((N,), -float(np.log(A))), "values": torch.zeros(N),
            "advantages": torch.randn(N, generator=g), "returns": torch.randn(N, generator=g),
            "teacher": torch.zeros(N, dtype=torch.int64), "other_side": obs[:, : P - 1] > 0}


def train_on(model, batch, updates: int, belief_coef: float = 1.0) -> list[dict]:
    torch.manual_seed(1)  # the minibatch order
    args = Args(update_epochs=2, num_minibatches=4, belief_coef=belief_coef)
    optimizer = torch.optim.Adam(model.parameter_groups(), lr=3e-3, eps=1e-5)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the trainer runs; small layers only wait on shared cores
    try:
        with ThreadPoolExecutor(1) as helper:
            gather = Minibatches(batch, helper)
            return [ppo_update(model, optimizer, gather, torch.arange(N), args, Clock())
                    for _ in range(updates)]
    finally:
        torch.set_num_threads(threads)


def built(beliefs: bool) -> ActorCritic:
    torch.manual_seed(0)
    return ActorCritic(config(beliefs))


def test_the_head_learns_the_teams_of_a_rigged_batch():
    stats = train_on(built(True), rigged_batch(), 40)
    first, last = stats[0]["belief_loss"], stats[-1]["belief_loss"]
    assert first == pytest.approx(np.log(2), abs=0.1)
    assert last < 0.5 * first


def test_the_head_never_changes_what_the_actor_or_the_critic_learn():
    plain, with_head = built(False), built(True)
    torch.manual_seed(0)
    ActorCritic(config(False))
    after_plain = torch.rand(3)
    torch.manual_seed(0)
    ActorCritic(config(True))
    assert torch.equal(torch.rand(3), after_plain)  # the head draws on a stream of its own
    head_before = {k: v.clone() for k, v in with_head.belief.state_dict().items()}
    batch = rigged_batch()
    train_on(plain, batch, 5)
    train_on(with_head, batch, 5, belief_coef=10.0)
    shared = plain.state_dict()
    for name, value in with_head.state_dict().items():
        if name.startswith("belief."):
            continue
        assert torch.equal(shared[name], value), name
    with torch.inference_mode():
        assert torch.equal(plain.actor_step(batch["obs"])[0], with_head.actor_step(batch["obs"])[0])
    assert any(not torch.equal(head_before[k], v) for k, v in with_head.belief.state_dict().items())


def test_no_gradient_reaches_the_actor_from_the_head():
    model = built(True)
    _, features, _ = model.actor_forward(rigged_batch()["obs"])
    model.belief_logits(features).sum().backward()
    assert all(p.grad is None for p in model.actor.parameters())
    assert all(p.grad is not None for p in model.belief.parameters())


def test_team_games_get_the_head_by_default_and_free_for_all_games_none():
    for game, players, seats in (("menace", 5, 4), ("amongus", 6, 5), ("maniacal", 4, None)):
        env = envs.make_vec(game, 1, num_players=players)
        assert model_config(env, Args(game=game, num_players=players)).get("belief_seats") == seats
        assert "belief_seats" not in model_config(env, Args(game=game, belief_coef=0.0))
    with pytest.raises(ValueError, match="belief_coef must be >= 0"):
        Args(belief_coef=-1.0).check()


def test_a_trained_checkpoint_carries_its_head(tiny_run):
    _, paths = tiny_run
    policy = load_policy(paths["crew"], game="amongus", num_players=4)
    assert policy.model.config["belief_seats"] == 3 and has_beliefs(policy)
    vec = envs.make_vec("amongus", 8, seed=1, num_players=4)
    b = policy.beliefs(vec.observation)
    with torch.inference_mode():
        _, features, _ = policy.model.actor_forward(torch.from_numpy(vec.observation))
        expected = torch.sigmoid(policy.model.belief_logits(features)).double().numpy()
    assert b.shape == (8, 4) and (b[:, 0] == 0).all()
    np.testing.assert_array_equal(b[:, 1:], expected)


def test_a_checkpoint_with_the_head_is_scored_and_one_without_says_why(tmp_path, capsys):
    with_head = str(make_checkpoint(tmp_path / "new.pt", "menace", "crew", beliefs=True,
                                    num_players=5))
    r = benchmark("menace", with_head, 40, team="crew", probe_steps=20, num_players=5)
    assert r["has_beliefs"] and with_head in r["overall"]
    old = str(make_checkpoint(tmp_path / "old.pt", "menace", "crew", num_players=5))
    policy = load_policy(old)
    assert not has_beliefs(policy)
    with pytest.raises(ValueError, match="has no belief head"):
        policy.beliefs(np.zeros((1, policy.model.config["observation_size"])))
    assert main(["beliefs", "menace", "--players", "5", "--policy", old, "--team", "crew",
                 "--games", "20"]) == 0
    assert "its checkpoint has no belief head" in capsys.readouterr().out


def test_a_recurrent_policy_believes_from_the_memory_its_decision_left(tmp_path):
    path = make_checkpoint(tmp_path / "gru.pt", "amongus", "crew", kind="gru", beliefs=True,
                           num_players=4)
    policy = load_policy(path)
    vec = envs.make_vec("amongus", 4, seed=2, num_players=4)
    who = np.stack([np.arange(4), vec.current_seat], 1)
    with pytest.raises(ValueError, match="has not decided yet"):
        policy.beliefs(vec.observation, who)
    policy.act(vec.observation, vec.action_mask, who)
    b = policy.beliefs(vec.observation, who)
    memory = policy._memory[torch.from_numpy(who[:, 0]), torch.from_numpy(who[:, 1])]
    with torch.inference_mode():
        expected = torch.sigmoid(policy.model.belief_logits(memory)).double().numpy()
    np.testing.assert_array_equal(b[:, 1:], expected)
    with pytest.raises(ValueError, match="is recurrent: pass who"):
        policy.beliefs(vec.observation)
