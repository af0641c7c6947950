"""Neural policies: the masked distribution, the actor-critic network, and the checkpoint loader.

Everything that turns logits into actions goes through ``MaskedCategorical``, so the trainer's
rollout, its PPO update, and a loaded policy at evaluation time cannot disagree about which
actions exist (sb3-contrib's MaskablePPO keeps the same discipline).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from agents.checkpoint import CheckpointError, check_compatible, load_checkpoint
from agents.policy import Policy

# A finite stand-in for minus infinity: softmax turns it into a probability of exactly 0, and
# products with it stay finite (0 * -1e9 = 0, where 0 * -inf would be NaN).
MASKED_LOGIT = -1e9


class MaskedCategorical:
    """A categorical distribution over the legal actions of each row only.

    Illegal actions have probability exactly 0 and are never sampled; entropy sums over legal
    actions only, so a row with one legal action has entropy 0 and the entropy bonus never
    rewards spreading mass onto actions that cannot be taken.

    Only the fused ``softmax`` / ``log_softmax`` kernels touch masked entries: on CPU a plain
    ``exp()`` of a number that underflows takes a slow path (about 40x slower here).
    """

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor):  # [N, A] float, [N, A] bool
        if logits.shape != mask.shape:
            raise ValueError(f"logits {tuple(logits.shape)} and mask {tuple(mask.shape)} differ")
        if mask.dtype != torch.bool:
            raise ValueError(f"mask must be bool, got {mask.dtype}")
        legal_rows = mask.view(torch.uint8).amax(-1).bool()  # as any(-1), several times faster
        if not bool(legal_rows.all()):
            row = int(torch.nonzero(~legal_rows)[0])
            raise ValueError(f"row {row} of the action mask has no legal action")
        self.mask = mask
        self.logits = logits.masked_fill(~mask, MASKED_LOGIT)  # [N, A]
        self._log_probs: torch.Tensor | None = None
        self._probs: torch.Tensor | None = None

    @property
    def log_probs(self) -> torch.Tensor:  # [N, A]; about -1e9 where masked
        if self._log_probs is None:
            self._log_probs = torch.log_softmax(self.logits, -1)
        return self._log_probs

    @property
    def probs(self) -> torch.Tensor:  # [N, A]; exactly 0 where masked
        if self._probs is None:
            self._probs = torch.softmax(self.logits, -1)
        return self._probs

    def sample(self, generator: torch.Generator | None = None) -> torch.Tensor:  # [N] int64
        """Inverse CDF with one uniform per row (N draws instead of Gumbel's N x A).

        The draw ``v`` lies in ``[0, total)``, and the first index whose cumulative probability
        exceeds ``v`` has positive probability, so a masked action (probability exactly 0, a
        flat step of the CDF) is never returned.
        """
        cdf = torch.cumsum(self.probs.detach(), -1)  # [N, A], non-decreasing
        total = cdf[:, -1:]
        u = torch.rand(total.shape, generator=generator, dtype=cdf.dtype)
        v = torch.minimum(u * total, torch.nextafter(total, torch.zeros_like(total)))
        return torch.searchsorted(cdf, v, right=True).squeeze(-1)

    def mode(self) -> torch.Tensor:  # [N] int64
        return self.logits.argmax(-1)

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:  # [N] -> [N]
        index = actions.long().unsqueeze(-1)
        log_p = self.log_probs.gather(-1, index).squeeze(-1)
        legal = self.mask.gather(-1, index).squeeze(-1)
        return torch.where(legal, log_p, float("-inf"))

    def entropy(self) -> torch.Tensor:  # [N]
        return -(self.probs * self.log_probs).sum(-1)


def _layer(n_in: int, n_out: int, gain: float) -> nn.Linear:
    """Orthogonal weights, zero bias, as in CleanRL's PPO: a small policy-head gain keeps the
    initial policy close to uniform over the legal actions."""
    layer = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def _mlp(n_in: int, hidden: list[int], n_out: int, out_gain: float) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in hidden:
        layers += [_layer(n_in, h, np.sqrt(2)), nn.Tanh()]
        n_in = h
    layers.append(_layer(n_in, n_out, out_gain))
    return nn.Sequential(*layers)


MODEL_KINDS = ("mlp",)


class ActorCritic(nn.Module):
    """Separate actor and critic MLPs (no shared trunk, so the value loss cannot pull the policy
    features around). The critic reads the seat's observation, or, with a centralised critic,
    the observation followed by the god-view ``state()``; the actor never sees ``state()``."""

    def __init__(self, config: dict):
        super().__init__()
        config = dict(config)
        if config.get("kind") not in MODEL_KINDS:
            raise ValueError(f"unknown model kind {config.get('kind')!r}; known: {MODEL_KINDS}")
        for key in ("observation_size", "num_actions", "critic_input_size"):
            if not isinstance(config.get(key), int) or config[key] < 1:
                raise ValueError(f"model config needs a positive integer {key!r}, got {config}")
        hidden = config.get("hidden")
        if not hidden or not all(isinstance(h, int) and h > 0 for h in hidden):
            raise ValueError(f"model config 'hidden' must list positive widths, got {hidden!r}")
        self.config = config
        self.actor = _mlp(config["observation_size"], list(hidden), config["num_actions"], 0.01)
        self.critic = _mlp(config["critic_input_size"], list(hidden), 1, 1.0)

    @property
    def centralised(self) -> bool:
        return self.config["critic_input_size"] != self.config["observation_size"]

    def logits(self, observation: torch.Tensor) -> torch.Tensor:  # [N, D] -> [N, A]
        return self.actor(observation)

    def value(self, critic_input: torch.Tensor) -> torch.Tensor:  # [N, C] -> [N]
        return self.critic(critic_input).squeeze(-1)


class NeuralPolicy(Policy):
    """A trained actor behind the ``Policy`` interface: sampled (default) or greedy actions.

    Sampling is the default because a hidden-role policy is often meant to be mixed: a greedy
    impostor that always does the same thing is easy to read.
    """

    def __init__(
        self, model: ActorCritic, metadata: dict, greedy: bool = False, seed: int = 0,
        name: str | None = None,
    ):
        self.model = model.eval()
        self.metadata = metadata
        self.greedy = greedy
        self.team = metadata.get("team")
        self.name = name or f"neural[{metadata.get('game')}:{self.team}@{metadata.get('steps')}]"
        self._generator = torch.Generator().manual_seed(seed)
        self._observation_size = model.config["observation_size"]
        self._num_actions = model.config["num_actions"]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        observation = np.ascontiguousarray(observation, dtype=np.float32)
        action_mask = np.ascontiguousarray(action_mask, dtype=np.bool_)
        if observation.ndim != 2 or observation.shape[1] != self._observation_size:
            raise ValueError(
                f"{self.name}: observation must be [N, {self._observation_size}], "
                f"got {observation.shape}"
            )
        if action_mask.shape != (observation.shape[0], self._num_actions):
            raise ValueError(
                f"{self.name}: action_mask must be [{observation.shape[0]}, {self._num_actions}], "
                f"got {action_mask.shape}"
            )
        with torch.inference_mode():
            logits = self.model.logits(torch.from_numpy(observation))
            dist = MaskedCategorical(logits, torch.from_numpy(action_mask))
            actions = dist.mode() if self.greedy else dist.sample(self._generator)
        return actions.numpy()


def load_policy(
    path: str | Path,
    game: str | None = None,
    team: str | None = None,
    greedy: bool = False,
    seed: int = 0,
    **params,
) -> NeuralPolicy:
    """A ``Policy`` from a checkpoint written by the trainer.

    With ``game`` (and the game's parameters, defaults filled in), the checkpoint is checked
    against that game first: name, version, parameters and observation layout must match, and
    the error names whichever does not. With ``team``, the checkpoint must be that team's.
    """
    checkpoint = load_checkpoint(path)
    metadata = checkpoint["metadata"]
    if game is not None:
        check_compatible(metadata, game, params, path)
    if team is not None and metadata["team"] != team:
        raise CheckpointError(f"{path}: checkpoint is for team {metadata['team']!r}, not {team!r}")
    model = ActorCritic(metadata["model"])
    model.load_state_dict(checkpoint["model"])
    return NeuralPolicy(model, metadata, greedy=greedy, seed=seed)
