"""An actor that reads its own beliefs (``belief_input``, issue 41): the policy layer sees the
role head's probabilities beside its features, the head's loss shapes those features, the head
travels inside the actor (league snapshots, checkpoints), and play needs only the seat's own
observation."""

import numpy as np
import pytest
import torch

import envs
from agents.neural import ActorCritic, load_policy
from tests.training.conftest import TINY
from tests.training.test_belief_head import config, rigged_batch, train_on
from training.ppo import Args, model_config, train


def reading(kind: str = "mlp") -> ActorCritic:
    torch.manual_seed(0)
    return ActorCritic({**config(True), "kind": kind, "belief_input": True})


@pytest.mark.parametrize("kind", ["mlp", "gru"])
def test_the_role_heads_loss_reaches_the_whole_actor(kind):
    model = reading(kind)
    obs = rigged_batch()["obs"]
    # a seat's memory after some decisions (from zero, a GRU's recurrent weights get none)
    memory = torch.rand(len(obs), model.memory_size) if model.recurrent else None
    _, features, _ = model.actor_forward(obs, memory)
    model.belief_logits(features).sum().backward()
    reader = model.actor.head if model.recurrent else model.actor.reader
    apart = {id(p) for p in reader.head.parameters()}  # the policy layer plays no part here
    trunk = [p for p in model.actor.parameters() if id(p) not in apart]
    assert trunk and all(p.grad is not None and p.grad.abs().sum() > 0 for p in trunk)
    assert model.belief is None  # no second, detached head beside the actor


@pytest.mark.parametrize("kind", ["mlp", "gru"])
def test_the_policy_layer_reads_the_beliefs(kind):
    model = reading(kind)
    obs = rigged_batch()["obs"][:8]
    memory = torch.zeros(len(obs), model.memory_size) if model.recurrent else None
    with torch.no_grad():
        before = model.actor_step(obs, memory)[0].clone()
        model.role_head()[-1].bias += 3.0  # every seat now looks like the other side
        after = model.actor_step(obs, memory)[0]
    assert not torch.allclose(before, after)


def test_the_head_still_learns_the_teams_of_a_rigged_batch():
    stats = train_on(reading(), rigged_batch(), 40)
    assert stats[-1]["belief_loss"] < 0.5 * stats[0]["belief_loss"]


def test_belief_input_is_refused_without_a_role_head():
    with pytest.raises(ValueError, match="belief_input needs the role head's loss"):
        Args(belief_input=True, belief_coef=0.0).check()
    with pytest.raises(ValueError, match="maniacal is a free-for-all"):
        model_config(envs.make_vec("maniacal", 1, num_players=4),
                     Args(game="maniacal", belief_input=True))
    with pytest.raises(ValueError, match="needs a role head"):
        ActorCritic({**config(False), "belief_input": True})
    with pytest.raises(ValueError, match="must be true or false"):
        ActorCritic({**config(True), "belief_input": "yes"})


def test_a_run_that_reads_its_beliefs_trains_resumes_and_plays_from_the_observation(tmp_path):
    args = Args(out=str(tmp_path), **{**TINY, "belief_input": True})
    paths = train(args)
    policy = load_policy(paths["crew"], game="amongus", num_players=4)
    assert policy.model.config["belief_input"] and policy.model.role_head() is not None
    vec = envs.make_vec("amongus", 8, seed=1, num_players=4)
    actions = policy.act(vec.observation, vec.action_mask)
    assert vec.action_mask[np.arange(8), actions].all()
    b = policy.beliefs(vec.observation)
    assert b.shape == (8, 4) and ((b[:, 1:] > 0) & (b[:, 1:] < 1)).all()
    resumed = train(Args(out=str(tmp_path / "more"), resume=str(paths["crew"].parent),
                         **{**TINY, "belief_input": True, "total_steps": TINY["total_steps"] * 2}))
    assert load_policy(resumed["crew"]).metadata["steps"] > policy.metadata["steps"]
