"""TorchRL masked PPO on TorchRL's own ``PettingZooWrapper`` (no wrapper of ours around it), a
crew learning against a fixed impostor (``examples.setting``).

``examples.setting.Opponents`` plays the impostor's seats inside the AEC game, so the seat that
moves at every step TorchRL collects is a crew seat, and which one changes with every deal.
Every seat is in one TorchRL group; the seat that moved is the one ``("agents", "mask")`` marks.
The update reads the rollout as the crew's own sequence of decisions: each step's moving seat's
observation, mask, action and log-probability, and at a game's end the crew's outcome from the
infos (``winner`` against the crew's team index: +1, -1, or 0 for a draw). TorchRL's wrapper of
a turn-based game hands a step's reward only to the seat that moved, which is why the outcome
is read from the infos. TorchRL's GAE and ``ClipPPOLoss`` then train on that sequence.

    python -m examples.torchrl_ppo --iterations 20

ends by entering the crew as ``torchrl@py:examples.torchrl_ppo:Crew`` in hiddendeck's eval,
beside a random crew on the same held-out deals (``examples.setting.judge``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from tensordict import TensorDict
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MaskedCategorical, ProbabilisticActor
from torchrl.objectives import ClipPPOLoss

from examples import setting

ENTRANT = "torchrl@py:examples.torchrl_ppo:Crew"


class Crew(setting.SavedCrew):
    """The trained crew for hiddendeck's evaluation (``py:``)."""

    variable, default = "TORCHRL_CREW_MODEL", "runs/examples/torchrl_crew.pt"


def make_env(seed: int):
    env = PettingZooWrapper(setting.env(seed=seed, illegal_action="lose"), use_mask=True,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    env.set_seed(seed)
    return env


def actor_over(net: nn.Module, prefix: tuple[str, ...]) -> ProbabilisticActor:
    """``net`` as a masked-categorical actor reading ``prefix + (observation, action_mask)``."""
    return ProbabilisticActor(
        TensorDictModule(net, [(*prefix, "observation")], [(*prefix, "logits")]),
        in_keys={"logits": (*prefix, "logits"), "mask": (*prefix, "action_mask")},
        out_keys=[(*prefix, "action")], distribution_class=MaskedCategorical,
        return_log_prob=True, log_prob_key=(*prefix, "action_log_prob"),
    )


def crew_decisions(rollout: TensorDict) -> TensorDict:
    """The rollout as the crew's sequence of decisions, one row a step: the moving seat's
    observation, mask, action and log-probability; the next decision's observation; and at a
    game's end the crew's outcome as the reward."""
    t = torch.arange(rollout.shape[0])
    nxt = rollout["next"]
    mover = rollout["agents", "mask"].float().argmax(-1)
    next_mover = nxt["agents", "mask"].float().argmax(-1)
    done = nxt["done"].reshape(-1, 1)
    winner = nxt["agents", "info", "winner"][t, mover]
    crew = rollout["agents", "info", "team"][t, mover]  # the crew's index (every mover's team)
    outcome = torch.where(winner == crew, 1.0, -1.0) * (winner >= 0)  # a draw: 0
    return TensorDict({
        "observation": rollout["agents", "observation", "observation"][t, mover],
        "action_mask": rollout["agents", "action_mask"][t, mover],
        "action": rollout["agents", "action"][t, mover],
        "action_log_prob": rollout["agents", "action_log_prob"][t, mover],
        "next": {"observation": nxt["agents", "observation", "observation"][t, next_mover],
                 "reward": (outcome * done.squeeze(-1)).reshape(-1, 1),
                 "done": done, "terminated": nxt["terminated"].reshape(-1, 1)},
    }, batch_size=rollout.shape[:1])


def train(iterations: int, frames: int, epochs: int = 4, seed: int = 0) -> Path:
    """``iterations`` PPO updates (``epochs`` passes each) on ``frames`` crew decisions; the
    actor saved where ``Crew`` loads it."""
    torch.manual_seed(seed)
    env = make_env(seed)
    obs_dim = env.observation_spec["agents", "observation", "observation"].shape[-1]
    n_actions = env.full_action_spec["agents", "action"].space.n
    net = setting.mlp(obs_dim, n_actions)
    collect = actor_over(net, ("agents",))  # every seat's row; only the mover's counts
    actor = actor_over(net, ())
    # the rollout's observation sits one level deeper ("observation" of the Dict space)
    collect.module[0].in_keys = [("agents", "observation", "observation")]
    critic = TensorDictModule(nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1)),
                              ["observation"], ["state_value"])
    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01)
    loss.set_keys(sample_log_prob="action_log_prob")
    loss.make_value_estimator(gamma=1.0, lmbda=0.95)
    optim = torch.optim.Adam(loss.parameters(), lr=1e-3)
    for i in range(iterations):
        with torch.no_grad():
            rollout = env.rollout(frames, collect, break_when_any_done=False)
            batch = crew_decisions(rollout)
            loss.value_estimator(batch, params=loss.critic_network_params,
                                 target_params=loss.target_critic_network_params)
        for _ in range(epochs):
            losses = loss(batch)
            total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
            optim.zero_grad()
            total.backward()
            optim.step()
        ended = batch["next", "done"].squeeze(-1)
        if i % 5 == 4 or i == iterations - 1:
            print(f"iteration {i + 1}: {int(ended.sum())} games, crew's mean outcome "
                  f"{float(batch['next', 'reward'][ended].mean()):+.3f}")
    return Crew.save(net)


def main(iterations: int = 20, frames: int = 512, games: int = 2000, seed: int = 0) -> dict:
    """Train, then judge the crew on held-out deals; returns its gain over a random crew
    (``examples.setting.judge``)."""
    print(f"trained {train(iterations, frames, seed=seed)}")
    return setting.judge(ENTRANT, games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--frames", type=int, default=512)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
