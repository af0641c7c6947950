"""The opponent pool: snapshots and scripted players, and which sides of a game they play."""

import dataclasses

import numpy as np
import pytest

from agents.neural import ActorCritic
from agents.policy import RandomPolicy
from training.pool import OpponentPool, draw_frozen_sides
from training.ppo import Args, train

from .conftest import TINY

CONFIG = {"kind": "mlp", "observation_size": 5, "num_actions": 3, "critic_input_size": 5,
          "hidden": [4]}


def test_every_game_keeps_a_live_side_and_only_pooled_sides_freeze():
    rng = np.random.default_rng(0)
    frozen = draw_frozen_sides(rng, 10_000, 2, 0.9, np.array([True, True]))
    assert not frozen.all(axis=1).any()
    assert 0.4 < frozen.mean() < 0.6  # 0.9 each, then one of every doubly frozen game thawed
    frozen = draw_frozen_sides(rng, 1000, 2, 0.9, np.array([False, True]))
    assert not frozen[:, 0].any() and frozen[:, 1].mean() > 0.85


def test_snapshots_are_bounded_and_loaded_actor_only():
    pool = OpponentPool(["crew"], size=2, rng=np.random.default_rng(0))
    assert not pool.has("crew")
    models = [ActorCritic(CONFIG) for _ in range(3)]
    for m in models:
        pool.add("crew", m)
    assert len(pool.snapshots["crew"]) == 2
    assert all(k.startswith("actor.") for k in pool.snapshots["crew"][0])
    target = ActorCritic(CONFIG)
    critic_before = [p.clone() for p in target.critic.parameters()]
    assert pool.draw("crew", target) is None
    loaded = target.actor.state_dict()
    assert any(all((loaded[k] == v).all() for k, v in
                   {k[len("actor."):]: v for k, v in m.state_dict().items()
                    if k.startswith("actor.")}.items()) for m in models[1:])
    assert all((a == b).all() for a, b in zip(critic_before, target.critic.parameters()))


def test_scripted_players_are_drawn_at_their_share():
    scripted = RandomPolicy(0)
    pool = OpponentPool(["crew"], 5, np.random.default_rng(1), {"random": scripted}, 0.25)
    assert pool.has("crew") and pool.draw("crew", ActorCritic(CONFIG)) is scripted  # no snapshot
    pool.add("crew", ActorCritic(CONFIG))
    picks = [pool.draw("crew", ActorCritic(CONFIG)) is scripted for _ in range(400)]
    assert 0.15 < np.mean(picks) < 0.35


def test_training_with_a_scripted_opponent_runs(tmp_path):
    args = dataclasses.replace(Args(out=str(tmp_path), **TINY), scripted_opponents=("random",),
                               opponent_share=0.5)
    assert set(train(args)) == {"crew", "impostor"}
    with pytest.raises(ValueError, match="unknown policy 'nobody'"):
        train(dataclasses.replace(args, scripted_opponents=("nobody",)))
