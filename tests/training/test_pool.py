"""The opponent pool: snapshots and scripted players, and which sides of a game they play."""

import dataclasses

import numpy as np
import pytest
import torch

from agents.neural import ActorCritic
from agents.policy import RandomPolicy
from training.pool import OpponentPool, draw_frozen_sides
from training.run_checkpoint import latest_checkpoint
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


def _league(sampling="pfsp", **kw):
    pool = OpponentPool(["crew"], 5, np.random.default_rng(2), {"crew": CONFIG},
                        sampling=sampling, **kw)
    for _ in range(3):
        pool.add("crew", ActorCritic(CONFIG))
    return pool, pool.snapshots("crew")


def test_pfsp_draws_the_member_the_learner_does_worst_against_most():
    pool, (beaten, even, beating) = _league()
    pool.record(np.array([beaten] * 40 + [even] * 40 + [beating] * 40),
                np.r_[np.ones(40), np.tile([0.0, 1.0], 20), np.zeros(40)])
    picks = pool.draw("crew", 6000)
    share = [np.mean(picks == k) for k in (beaten, even, beating)]
    # weights (1 - s)^2 with s = 41/42, 21/42, 1/42: about 0.0005, 0.21, 0.79
    assert share[0] < 0.01 and 0.17 < share[1] < 0.25 and share[2] > 0.75


def test_pfsp_scores_a_draw_as_half_and_starts_every_member_at_half():
    pool, (a, b, _) = _league()
    assert pool.score(a) == 0.5
    pool.record(np.array([a, a]), np.array([0.5, 0.5]))
    assert pool.score(a) == 0.5 and pool.results[a][1] == 2


def test_pfsp_results_fade_so_a_beaten_member_comes_back():
    pool, (beaten, other, _) = _league(decay=0.5)
    pool.record(np.full(64, beaten), np.ones(64))
    before = pool.weights(pool.snapshots("crew"))[0]
    for _ in range(20):  # 64 games fade to 64 / 2**20
        pool.fade()
    after = pool.weights(pool.snapshots("crew"))[0]
    assert before < 0.001 and abs(after - 1 / 3) < 0.01


def test_uniform_league_draws_as_before_pfsp():
    """A uniform league draws with the same calls as before pfsp existed, so earlier runs
    repeat bit for bit."""
    pool, members = _league("uniform")
    rng = np.random.default_rng(2)
    rng.random(50)  # scripted or not
    assert (pool.draw("crew", 50) == np.asarray(members)[rng.integers(3, size=50)]).all()


def test_pfsp_results_survive_a_save_and_load():
    pool, (a, b, c) = _league()
    pool.record(np.array([a, b, b]), np.array([1.0, 0.0, 0.5]))
    again = OpponentPool(["crew"], 5, np.random.default_rng(2), {"crew": CONFIG}, sampling="pfsp")
    again.load_state_dict(pool.state_dict())
    assert [again.score(k) for k in again.snapshots("crew")] == [pool.score(k) for k in (a, b, c)]


@pytest.mark.parametrize("bad, message", [
    (dict(league_sampling="elo"), "league_sampling must be one of"),
    (dict(league_sampling="pfsp", pfsp_power=-1.0), "pfsp_power must be"),
    (dict(league_sampling="pfsp", pfsp_decay=1.5), "pfsp_decay must be in"),
])
def test_bad_league_settings_are_refused_by_name(tmp_path, bad, message):
    with pytest.raises(ValueError, match=message):
        train(dataclasses.replace(Args(out=str(tmp_path), **TINY), **bad))


def test_training_with_a_pfsp_league_scores_its_members_and_resumes_with_them(tmp_path):
    args = dataclasses.replace(Args(out=str(tmp_path / "run"), **TINY),
                               scripted_opponents=("random",), opponent_share=0.5,
                               league_sampling="pfsp", pfsp_decay=1.0)
    assert set(train(args)) == {"crew", "impostor"}
    saved = torch.load(latest_checkpoint(tmp_path / "run") / "trainer.pt", weights_only=False)
    games = sum(counts[1] for group in saved["pool"].values()
                for kind in group["results"].values() for counts in kind)
    assert games > 0  # games against league members were scored
    resumed = dataclasses.replace(args, out=str(tmp_path / "more"), resume=str(tmp_path / "run"),
                                  total_steps=args.total_steps * 2)
    assert set(train(resumed)) == {"crew", "impostor"}
