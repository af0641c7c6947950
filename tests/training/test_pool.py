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


def test_snapshots_are_bounded_actor_copies_and_anchors_stay():
    pool = OpponentPool(["crew"], size=2, rng=np.random.default_rng(0), configs={"crew": CONFIG})
    assert not pool.has("crew")
    anchor = ActorCritic(CONFIG)
    pool.add("crew", anchor, anchor=True)
    models = [ActorCritic(CONFIG) for _ in range(3)]
    for m in models:
        pool.add("crew", m)
    assert len(pool.recent["crew"]) == 2 and len(pool.anchors["crew"]) == 1
    kept = [pool.members[k] for k in pool.snapshots("crew")]
    for member, source in zip(kept, [anchor, *models[1:]]):
        assert all(torch.equal(a, b) for a, b in zip(member.actor.parameters(),
                                                     source.actor.parameters()))
        assert not any(p.requires_grad for p in member.parameters())
    models[2].actor[0].weight.data += 1.0  # the learner moves on; its snapshot does not
    assert not torch.equal(kept[-1].actor[0].weight, models[2].actor[0].weight)


def test_a_game_keeps_its_drawn_member_until_it_ends():
    pool = OpponentPool(["crew"], size=1, rng=np.random.default_rng(0), configs={"crew": CONFIG})
    pool.add("crew", ActorCritic(CONFIG))
    first = pool.draw("crew", 3)
    pool.add("crew", ActorCritic(CONFIG))  # evicts the first snapshot from the draws
    assert first[0] not in pool.snapshots("crew")
    pool.prune(first)  # games still played by it keep it alive
    assert first[0] in pool.members
    pool.prune(np.array([-1]))
    assert first[0] not in pool.members


def test_scripted_players_are_drawn_at_their_share():
    scripted = RandomPolicy(0)
    pool = OpponentPool(["crew"], 5, np.random.default_rng(1), {"crew": CONFIG},
                        {"crew": [scripted]}, 0.25)
    assert pool.has("crew") and (pool.draw("crew", 10) == pool.scripted["crew"][0]).all()
    pool.add("crew", ActorCritic(CONFIG))
    picks = pool.draw("crew", 400) == pool.scripted["crew"][0]
    assert 0.15 < np.mean(picks) < 0.35


def test_the_league_survives_a_save_and_load():
    pool = OpponentPool(["crew"], 3, np.random.default_rng(1), {"crew": CONFIG})
    pool.add("crew", ActorCritic(CONFIG), anchor=True)
    pool.add("crew", ActorCritic(CONFIG))
    again = OpponentPool(["crew"], 3, np.random.default_rng(1), {"crew": CONFIG})
    again.load_state_dict(pool.state_dict())
    for a, b in zip(pool.snapshots("crew"), again.snapshots("crew")):
        assert all(torch.equal(x, y) for x, y in zip(pool.members[a].actor.parameters(),
                                                     again.members[b].actor.parameters()))
    assert len(again.anchors["crew"]) == 1


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


def test_a_checkpoint_must_be_the_team_it_plays(tiny_run, tmp_path):
    args, paths = tiny_run
    wrong = dataclasses.replace(args, out=str(tmp_path),
                                fixed_teams={"crew": str(paths["impostor"])})
    with pytest.raises(ValueError, match="team 'impostor', not 'crew'"):
        train(wrong)
    right = dataclasses.replace(wrong, fixed_teams={"crew": str(paths["crew"])},
                                scripted_opponents=(str(paths["impostor"]),))
    assert set(train(right)) == {"crew", "impostor"}
