"""The imitation warm start: a trained team's actor learns to choose as the scripted player."""

import os
import time

import numpy as np
import pytest
import torch

import envs
from agents.amongus_chain import AmongUsChain
from agents.amongus_heuristic import AmongUsHeuristic
from agents.neural import ActorCritic, NeuralPolicy, RecurrentPolicy
from agents.policy import Policy
from training.imitate import _Round, imitate
from training.ppo import Args, model_config, train

from .conftest import TINY

SLOW = os.environ.get("HIDDENDECK_SLOW") == "1"


def agreement(model, teacher, seed: int) -> float:
    """Share of impostor decisions where the greedy actor picks what the teacher picks, in games
    the teacher plays on every seat. A GRU actor decides at every impostor decision of the
    games, so each seat's memory holds its own game so far."""
    env = envs.make_vec("amongus", 128, seed=seed, num_players=4)
    student = (RecurrentPolicy if model.recurrent else NeuralPolicy)(
        model, {"team": "impostor"}, greedy=True)
    rows = np.arange(128)
    same = total = 0
    for _ in range(40):
        impostor = np.flatnonzero(env.teams()[rows, env.current_seat] == 1)
        chosen = teacher.act(env.observation, env.action_mask)
        if impostor.size:
            who = np.stack([impostor, env.current_seat[impostor]], 1)
            mine = student.act(env.observation[impostor], env.action_mask[impostor], who)
            same += int((mine == chosen[impostor]).sum())
            total += impostor.size
        _, terminated, truncated = env.step(chosen)
        student.game_over(np.flatnonzero(terminated | truncated))
    return same / total


def test_imitation_makes_the_impostor_choose_as_the_heuristic():
    torch.manual_seed(0)
    # 90 batches of 2,048 decisions: on Among Us version 3's observation 30 reached 0.69 here,
    # under the bar; 90 reach 0.81-0.83 at torch seeds 0-3
    args = Args(num_players=4, num_envs=128, num_steps=16, imitation_steps=128 * 16 * 90)
    env = envs.make_vec("amongus", args.num_envs, seed=1, num_players=4)
    teacher = AmongUsHeuristic(env.spec, env.params)
    models = [ActorCritic(model_config(env, args)) for _ in env.spec.teams]
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
    before = agreement(models[1], teacher, seed=7)
    crew_before = [p.clone() for p in models[0].parameters()]
    fixed = {0: teacher}  # the crew is played by the heuristic and not trained
    losses = imitate(env, [teacher], fixed, np.arange(2), models, optimizers, args.num_steps,
                     args.imitation_steps, args.num_minibatches, args.max_grad_norm)
    after = agreement(models[1], teacher, seed=7)
    assert after > max(0.6, before + 0.3), (before, after, losses)
    assert list(losses) == [1] and 0 < losses[1] < 1  # each trained team's own fit, by group
    assert all(torch.equal(a, b) for a, b in zip(crew_before, models[0].parameters()))


@pytest.mark.slow
def test_a_gru_imitates_whole_seat_trajectories():
    """The GRU impostor, its memory running along each seat's decisions as in play, learns to
    choose as the heuristic does. With ``HIDDENDECK_SLOW=1`` the feed-forward test's budget and
    bar (90 batches; 276 s here under load); CI fits 24 batches and asks for 15 points."""
    torch.manual_seed(0)
    batches, bar = (90, 0.3) if SLOW else (24, 0.15)
    args = Args(num_players=4, num_envs=128, num_steps=16, imitation_steps=128 * 16 * batches,
                model="gru", imitate="heuristic")
    env = envs.make_vec("amongus", args.num_envs, seed=1, num_players=4)
    teacher = AmongUsHeuristic(env.spec, env.params)
    models = [ActorCritic(model_config(env, args)) for _ in env.spec.teams]
    assert models[1].recurrent
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
    before = agreement(models[1], teacher, seed=7)
    losses = imitate(env, [teacher], {0: teacher}, np.arange(2), models, optimizers,
                     args.num_steps, args.imitation_steps, args.num_minibatches,
                     args.max_grad_norm)
    after = agreement(models[1], teacher, seed=7)
    assert after > before + bar and (after > 0.6 or not SLOW), (before, after, losses)
    assert list(losses) == [1] and 0 < losses[1] < 1


def test_a_gru_run_warm_starts_by_imitation(tmp_path):
    args = Args(out=str(tmp_path), **{**TINY, "imitate": "heuristic",
                                      "imitation_steps": 64 * 8 * 2}, model="gru")
    paths = train(args)
    crew = torch.load(paths["crew"], weights_only=True)
    assert crew["metadata"]["model"]["kind"] == "gru"


class Spy(Policy):
    """A teacher that notes which game slots it plays, between the ends of their games."""

    remembers = True  # to be told each row's game slot

    def __init__(self, inner: Policy, playing: dict, ended: list, mark: int):
        self.inner, self.playing, self.ended, self.mark = inner, playing, ended, mark

    def act(self, observation, action_mask, who=None):
        for slot in who[:, 0]:
            self.playing.setdefault(int(slot), set()).add(self.mark)
        return self.inner.act(observation, action_mask)

    def game_over(self, slots):  # every teacher is told: the first to hear files the game
        for slot in slots:
            if int(slot) in self.playing:
                self.ended.append(self.playing.pop(int(slot)))


def test_each_warm_start_game_is_played_by_one_teacher_drawn_per_game():
    env = envs.make_vec("amongus", 64, seed=3, num_players=4)
    playing, ended = {}, []
    heuristic = AmongUsHeuristic(env.spec, env.params)
    teachers = [Spy(heuristic, playing, ended, 0),
                Spy(AmongUsChain(env.spec, env.params), playing, ended, 1)]
    args = Args(num_players=4, num_envs=64, num_steps=16, imitation_steps=64 * 16 * 6)
    models = [ActorCritic(model_config(env, args)) for _ in env.spec.teams]
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
    imitate(env, teachers, {}, np.arange(2), models, optimizers, args.num_steps,
            args.imitation_steps, args.num_minibatches, args.max_grad_norm,
            rng=np.random.default_rng(0))
    assert len(ended) > 100  # games ended and were dealt again
    assert all(len(marks) == 1 for marks in ended)  # one teacher from deal to end
    per_teacher = [sum(marks == {k} for marks in ended) for k in (0, 1)]
    assert min(per_teacher) > 0.25 * len(ended), per_teacher  # each plays its share


def test_several_teachers_need_an_rng():
    env = envs.make_vec("amongus", 8, seed=3, num_players=4)
    heuristic = AmongUsHeuristic(env.spec, env.params)
    with pytest.raises(ValueError, match="rng"):
        imitate(env, [heuristic, heuristic], {}, np.arange(2), [], [], 4, 32, 1, 0.5)


def test_imitation_noise_plays_random_legal_moves_and_keeps_the_teachers_labels(monkeypatch):
    """DART: a share of the warm start's moves are played at random among the legal actions, so
    the clone sees states the teacher never leads to, and every stored label is still what the
    teacher chose in the state it was shown."""
    env = envs.make_vec("amongus", 64, seed=3, num_players=4)
    teacher = AmongUsHeuristic(env.spec, env.params)
    labelled, played = [], []
    decided = _Round.decided
    monkeypatch.setattr(_Round, "decided", lambda self, *row: (labelled.append(row),
                                                                decided(self, *row)))
    step = env.step
    monkeypatch.setattr(env, "step", lambda actions: (
        played.append((env.observation.copy(), env.action_mask.copy(), actions.copy())),
        step(actions))[1])
    args = Args(num_players=4, num_envs=64, num_steps=8, imitation_steps=64 * 8 * 3)
    models = [ActorCritic(model_config(env, args)) for _ in env.spec.teams]
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
    imitate(env, [teacher], {}, np.arange(2), models, optimizers, args.num_steps,
            args.imitation_steps, args.num_minibatches, args.max_grad_norm,
            rng=np.random.default_rng(0), noise=0.5)
    for obs, mask, chosen in labelled:
        assert (teacher.act(obs, mask) == chosen).all()
    obs, mask, actions = (np.concatenate(v) for v in zip(*played))
    assert mask[np.arange(len(actions)), actions].all()  # every move played is legal
    choice = mask.sum(1) > 1
    moved = (actions != teacher.act(obs, mask))[choice].mean()
    assert 0.2 < moved < 0.5, moved  # half the moves drawn, some of them the teacher's own


def test_imitation_noise_is_checked():
    with pytest.raises(ValueError, match="imitation_noise"):
        Args(imitation_noise=1.0).check()
    with pytest.raises(ValueError, match="imitation_noise"):
        Args(imitation_noise=-0.1).check()
    env = envs.make_vec("amongus", 8, seed=3, num_players=4)
    heuristic = AmongUsHeuristic(env.spec, env.params)
    with pytest.raises(ValueError, match="rng"):
        imitate(env, [heuristic], {}, np.arange(2), [], [], 4, 32, 1, 0.5, noise=0.1)


@pytest.mark.parametrize("change,message", [
    ({"imitate": None, "imitate_also": ("chain",)}, "needs imitate"),
    ({"imitate_also": ("heuristic",)}, "twice"),
    ({"imitate_also": ("chain", "chain")}, "twice"),
])
def test_imitate_also_is_checked(change, message):
    with pytest.raises(ValueError, match=message):
        Args(**{"imitate": "heuristic", **change}).check()


def test_a_warm_start_of_two_teachers_trains_and_anchors_one_clone_a_team(tmp_path):
    args = Args(out=str(tmp_path), **dict(TINY, imitate="heuristic", imitate_also=("chain",),
                                          imitation_steps=64 * 8 * 4))
    paths = train(args)
    pool = torch.load(paths["crew"].parent / "trainer.pt", weights_only=True)["pool"]
    assert all(len(pool[team]["anchors"]) == 1 for team in ("crew", "impostor"))
    with pytest.raises(ValueError, match="nobody"):
        train(Args(out=str(tmp_path / "bad"), **dict(TINY, imitate="heuristic",
                                                     imitate_also=("nobody",))))


class Late(Policy):
    """A teacher so slow that the warm start's deadline has passed when its first step ends."""

    def __init__(self, inner: Policy, deadline: float):
        self.inner, self.deadline = inner, deadline

    def act(self, observation, action_mask):
        time.sleep(max(0.0, self.deadline - time.perf_counter()) + 0.01)
        return self.inner.act(observation, action_mask)


def test_the_warm_start_stops_within_one_step_and_one_minibatch_of_its_deadline():
    env = envs.make_vec("amongus", 64, seed=3, num_players=4)
    args = Args(num_players=4, num_envs=64, num_steps=16, imitation_steps=64 * 16 * 1000)
    models = [ActorCritic(model_config(env, args)) for _ in env.spec.teams]
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
    steps, fits = [], []
    stepped = env.step
    env.step = lambda actions: steps.append(1) or stepped(actions)
    for opt in optimizers:
        opt.register_step_post_hook(lambda *_: fits.append(1))
    deadline = time.perf_counter() + 0.2
    teacher = Late(AmongUsHeuristic(env.spec, env.params), deadline)
    imitate(env, [teacher], {}, np.arange(2), models, optimizers, args.num_steps,
            args.imitation_steps, args.num_minibatches, args.max_grad_norm, epochs=4,
            deadline=deadline)
    assert len(steps) <= 1 and len(fits) <= 2  # not the 16 steps and 4 epochs of a round
