"""The opponent pool: snapshots and scripted players, and which sides of a game they play."""

import dataclasses

import numpy as np
import pytest
import torch

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


def test_a_fixed_side_is_always_frozen_and_the_learner_always_live():
    rng = np.random.default_rng(0)
    frozen = draw_frozen_sides(rng, 1000, 2, 0.9, np.array([True, True]), np.array([True, False]))
    assert frozen[:, 0].all() and not frozen[:, 1].any()


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


def test_a_fixed_team_is_played_by_its_scripted_player_and_not_trained(tmp_path):
    args = dataclasses.replace(Args(out=str(tmp_path), **TINY), fixed_teams={"crew": "heuristic"})
    paths = train(args)
    crew = torch.load(paths["crew"], weights_only=True)
    impostor = torch.load(paths["impostor"], weights_only=True)
    assert crew["metadata"]["team_steps"] == 0 and impostor["metadata"]["team_steps"] > 0
    torch.manual_seed(args.seed)  # the trainer's seeding: the crew network stays as built
    untrained = ActorCritic(crew["metadata"]["model"])
    assert all(torch.equal(v, crew["model"][k]) for k, v in untrained.state_dict().items())
    for bad, message in [({"ghosts": "heuristic"}, "teams are"),
                         ({"crew": "heuristic", "impostor": "random"}, "at least one team")]:
        with pytest.raises(ValueError, match=message):
            train(dataclasses.replace(args, fixed_teams=bad))
