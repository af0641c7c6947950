"""The imitation warm start: a trained team's actor learns to choose as the scripted player."""

import numpy as np
import torch

import envs
from agents.amongus_heuristic import AmongUsHeuristic
from agents.neural import ActorCritic, NeuralPolicy
from training.imitate import imitate
from training.ppo import Args, model_config


def agreement(model, teacher, seed: int) -> float:
    """Share of impostor decisions where the greedy actor picks what the teacher picks, in games
    the teacher plays on every seat."""
    env = envs.make_vec("amongus", 128, seed=seed, num_players=4)
    student = NeuralPolicy(model, {"team": "impostor"}, greedy=True)
    same = total = 0
    for _ in range(40):
        impostor = np.flatnonzero(env.teams()[np.arange(128), env.current_seat] == 1)
        chosen = teacher.act(env.observation, env.action_mask)
        if impostor.size:
            mine = student.act(env.observation[impostor], env.action_mask[impostor])
            same += int((mine == chosen[impostor]).sum())
            total += impostor.size
        env.step(chosen)
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
    losses = imitate(env, teacher, fixed, np.arange(2), models, optimizers, args.num_steps,
                     args.imitation_steps, args.num_minibatches, args.max_grad_norm)
    after = agreement(models[1], teacher, seed=7)
    assert after > max(0.6, before + 0.3), (before, after, losses)
    assert list(losses) == [1] and 0 < losses[1] < 1  # each trained team's own fit, by group
    assert all(torch.equal(a, b) for a, b in zip(crew_before, models[0].parameters()))
