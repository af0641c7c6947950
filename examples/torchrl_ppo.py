"""TorchRL masked PPO with one actor per role, on TorchRL's own ``PettingZooWrapper`` (no
wrapper of ours). Every seat is in one TorchRL group; which role's network acts for a seat is
read from ``("agents", "info", "team")``, the env's per-seat ``infos`` that TorchRL carries as
tensors (bookkeeping for the trainer; the networks see only the observation and mask).

TorchRL's wrapper of a turn-based (AEC) game hands a step's reward only to the seat that moved,
so at a game's end only the last mover gets its final reward. Every seat's outcome is restored
here from the infos: the last mover's ``winner`` against each seat's ``team``.

    python -m examples.torchrl_ppo --iterations 5
"""

from __future__ import annotations

import argparse

import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MaskedCategorical, ProbabilisticActor
from torchrl.objectives import ClipPPOLoss

from envs import amongus_v6


class ByRole(nn.Module):
    """One network per role; each seat's output comes from its role's network."""

    def __init__(self, roles: int, make):
        super().__init__()
        self.nets = nn.ModuleList(make() for _ in range(roles))

    def forward(self, observation, team):  # [..., P, D], [..., P] -> [..., P, out]
        outs = torch.stack([net(observation) for net in self.nets], -1)
        index = team.long().unsqueeze(-1).unsqueeze(-1).expand(*outs.shape[:-1], 1)
        return outs.gather(-1, index).squeeze(-1)


def make_env(players: int, seed: int):
    env = PettingZooWrapper(amongus_v6.env(num_players=players, illegal_action="lose"),
                            use_mask=True, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    env.set_seed(seed)
    return env


def main(iterations: int = 5, frames: int = 512, players: int = 5, seed: int = 0) -> list:
    """``iterations`` PPO updates of ``frames`` steps; returns each iteration's mean final
    reward of the crew seats (role 0)."""
    torch.manual_seed(seed)
    env = make_env(players, seed)
    obs_dim = env.observation_spec["agents", "observation", "observation"].shape[-1]
    n_actions = env.full_action_spec["agents", "action"].space.n
    roles = len(amongus_v6.raw_env().spec.teams)

    def mlp(out):
        return lambda: nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, out))

    obs_key, team_key = ("agents", "observation", "observation"), ("agents", "info", "team")
    actor = ProbabilisticActor(
        TensorDictModule(ByRole(roles, mlp(n_actions)), [obs_key, team_key],
                         [("agents", "logits")]),
        in_keys={"logits": ("agents", "logits"), "mask": ("agents", "action_mask")},
        out_keys=[("agents", "action")], distribution_class=MaskedCategorical,
        return_log_prob=True, log_prob_key=("agents", "action_log_prob"),
    )
    critic = TensorDictModule(ByRole(roles, mlp(1)), [obs_key, team_key],
                              [("agents", "state_value")])
    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01)
    loss.set_keys(action=("agents", "action"), sample_log_prob=("agents", "action_log_prob"),
                  value=("agents", "state_value"), reward=("agents", "reward"),
                  done=("agents", "done"), terminated=("agents", "terminated"))
    loss.make_value_estimator(gamma=1.0, lmbda=0.95)
    optim = torch.optim.Adam(loss.parameters(), lr=3e-4)
    crew = []
    for _ in range(iterations):
        with torch.no_grad():
            rollout = env.rollout(frames, actor, break_when_any_done=False)
            nxt = rollout["next"]
            ended = nxt["done"].squeeze(-1)  # [T]
            mover = rollout["agents", "mask"].float().argmax(-1)  # [T] the seat that moved
            winner = nxt["agents", "info", "winner"].gather(-1, mover[:, None])  # [T, 1]
            team = rollout["agents", "info", "team"]  # [T, P]
            outcome = torch.where(team == winner, 1.0, -1.0) * (winner >= 0)  # a draw: 0
            reward = nxt["agents", "reward"].squeeze(-1)
            reward[ended] = outcome[ended]
            nxt["agents", "reward"] = reward.unsqueeze(-1)
            # each seat's done as the value estimator wants it, per agent
            for key in ("done", "terminated"):
                nxt["agents", key] = nxt[key].unsqueeze(-2).expand(*nxt["agents", "reward"].shape)
            loss.value_estimator(rollout, params=loss.critic_network_params,
                                 target_params=loss.target_critic_network_params)
        losses = loss(rollout)
        total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
        if not torch.isfinite(total):
            raise RuntimeError(f"PPO loss is {total.item()}")
        optim.zero_grad()
        total.backward()
        optim.step()
        final = nxt["agents", "reward"][ended].squeeze(-1)  # [games, P]
        crew.append(float(final[team[ended] == 0].mean()) if final.numel() else float("nan"))
    print(f"crew seats' mean final reward by iteration: {[round(c, 3) for c in crew]}")
    return crew


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
