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
from agents.deduction import Deduction
from agents.policy import Policy
from agents.seat_encoder import SeatEncoder, seat_plans
from agents.sparse_input import InputLinear

DEVICES = ("cpu", "cuda", "auto")


def resolve_device(name: str) -> torch.device:
    """``"cpu"``, ``"cuda"``, or ``"auto"`` (cuda where torch sees a GPU, else cpu) as a
    ``torch.device``; cuda without a GPU is refused, never quietly run on the CPU."""
    if name not in DEVICES:
        raise ValueError(f"device must be one of {list(DEVICES)}, got {name!r}")
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device 'cuda': this torch ({torch.__version__}) sees no GPU; "
                         f"use --device cpu or auto")
    return torch.device(name)


# A finite stand-in for minus infinity: softmax turns it into a probability of exactly 0, and
# products with it stay finite (0 * -1e9 = 0, where 0 * -inf would be NaN).
MASKED_LOGIT = -1e9


class MaskedCategorical:
    """A categorical distribution over the legal actions of each row only.

    Illegal actions have probability exactly 0 and are never sampled; logits that are not all
    finite (a diverged network, a NaN checkpoint) raise, since softmax of a NaN has no legal
    action to fall back on and would sample past the end. Entropy sums over legal actions
    only, so a row with one legal action has entropy 0 and the entropy bonus never rewards
    spreading mass onto actions that cannot be taken.

    Only the fused ``softmax`` / ``log_softmax`` kernels touch masked entries: on CPU a plain
    ``exp()`` of a number that underflows takes a slow path (about 40x slower here).
    """

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor, checked: bool = True):
        """``logits [N, A]`` float, ``mask [N, A]`` bool. ``checked=False`` skips the two
        checks of the values (finite logits, a legal action in each row; 4% of the trainer's
        time), for PPO's update alone: its masks were checked when the rollout sampled from
        them, and a non-finite logit makes its loss non-finite, which it refuses."""
        if logits.shape != mask.shape:
            raise ValueError(f"logits {tuple(logits.shape)} and mask {tuple(mask.shape)} differ")
        if mask.dtype != torch.bool:
            raise ValueError(f"mask must be bool, got {mask.dtype}")
        self.mask = mask
        self.logits = logits.masked_fill(~mask, MASKED_LOGIT)  # [N, A]
        self._log_probs: torch.Tensor | None = None
        self._probs: torch.Tensor | None = None
        if not checked:
            return
        finite = torch.isfinite(logits).all(-1)
        if not bool(finite.all()):
            row = int(torch.nonzero(~finite)[0])
            raise ValueError(
                f"non-finite logits: the policy diverged (row {row}: "
                f"{logits[row][~torch.isfinite(logits[row])][:3].tolist()} ...)"
            )
        legal_rows = mask.view(torch.uint8).amax(-1).bool()  # as any(-1), several times faster
        if not bool(legal_rows.all()):
            row = int(torch.nonzero(~legal_rows)[0])
            raise ValueError(f"row {row} of the action mask has no legal action")

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


def _layer(n_in: int, n_out: int, gain: float, kind: type = nn.Linear) -> nn.Linear:
    """Orthogonal weights, zero bias, as in CleanRL's PPO: a small policy-head gain keeps the
    initial policy close to uniform over the legal actions."""
    layer = kind(n_in, n_out)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


# The hidden layers' activation (model config ``activation``; absent: tanh, which every policy
# saved before the option has). ReLU costs a fraction of tanh on the CPU: ATen's tanh took 4.2 ms
# for a [4096, 256] tensor on one thread here, relu 0.2 ms, beside 10 ms for the layer's product
# (docs/speed.md, "The trainer").
ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}


def _stack(n_in: int, widths: list[int], activation: str = "tanh") -> tuple[list[nn.Module], int]:
    """Linear layers of these widths, each followed by the activation, and the last width
    (``n_in`` if none). The first also reads ``SparseRows`` (``agents.sparse_input``)."""
    layers: list[nn.Module] = []
    for h in widths:
        kind = InputLinear if not layers else nn.Linear
        layers += [_layer(n_in, h, np.sqrt(2), kind), ACTIVATIONS[activation]()]
        n_in = h
    return layers, n_in


def _mlp(n_in: int, hidden: list[int], n_out: int, out_gain: float,
         activation: str = "tanh") -> nn.Sequential:
    layers, width = _stack(n_in, hidden, activation)
    return nn.Sequential(*layers, _layer(width, n_out, out_gain))


BELIEF_WIDTH = 64  # the role head's hidden layer, at most


def _role_head(width: int, seats: int) -> nn.Sequential:
    """The role head: a small MLP on a ``width``-wide feature row, one logit per other seat.
    At most 64 wide: it reads a few seats' sides, and beside the demo's 256-wide actor and
    critic a head as wide would add a tenth to the update's network work."""
    return _mlp(width, [min(width, BELIEF_WIDTH)], seats, 1.0)


class _BeliefReader(nn.Module):
    """The last step of an actor that reads its own beliefs: the role head's probabilities
    beside the features, then the policy layer. The head is part of the actor (league
    snapshots and imitation copy it with the rest) and its loss reaches the features."""

    def __init__(self, width: int, seats: int, n_out: int):
        super().__init__()
        self.belief = _role_head(width, seats)
        self.head = _layer(width + seats, n_out, 0.01)

    def forward(self, features: torch.Tensor) -> torch.Tensor:  # [N, H] -> [N, A]
        return self.head(torch.cat([features, torch.sigmoid(self.belief(features))], -1))


class _BeliefActor(nn.Module):
    """An MLP actor that reads its beliefs: ``observation -> features -> (logits)``, the
    policy layer seeing the features and the role head's probabilities (``_BeliefReader``)."""

    def __init__(self, n_in: int, hidden: list[int], n_out: int, seats: int,
                 activation: str = "tanh"):
        super().__init__()
        layers, width = _stack(n_in, hidden, activation)
        self.trunk = nn.Sequential(*layers)
        self.reader = _BeliefReader(width, seats, n_out)

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return self.reader(self.trunk(observation))


class _RecurrentActor(nn.Module):
    """MLP encoder, then a GRU cell whose state is the seat's memory of its game, then the
    policy head: ``(observation, memory) -> (logits, new memory)``. With ``seats``, the head
    reads the memory and the role head's beliefs on it (``_BeliefReader``)."""

    def __init__(self, n_in: int, hidden: list[int], n_out: int, seats: int = 0,
                 activation: str = "tanh"):
        super().__init__()
        *widths, memory = hidden
        layers, width = _stack(n_in, widths, activation)
        self.encoder = nn.Sequential(*layers)
        self.gru = nn.GRUCell(width, memory)
        self.head = _BeliefReader(memory, seats, n_out) if seats else _layer(memory, n_out, 0.01)

    def forward(self, observation: torch.Tensor, memory: torch.Tensor):
        memory = self.gru(self.encoder(observation), memory)
        return self.head(memory), memory


class _SeatActor(nn.Module):
    """The seat-token actor (``agents.seat_encoder``): tokens per seat and a global token,
    attention across them, the pooled row through an MLP (``hidden[1:]``), then the policy
    layer over the fixed action set. ``features`` also returns the seat tokens' outputs, which
    the role head reads one seat at a time."""

    def __init__(self, plan, hidden: list[int], n_out: int, heads: int, layers: int,
                 activation: str):
        super().__init__()
        self.encoder = SeatEncoder(plan, hidden[0], heads, layers)
        self.trunk = _dense_stack(self.encoder.pooled_width, hidden[1:], activation)
        self.head = _layer(_width(self.trunk, self.encoder.pooled_width), n_out, 0.01)

    def features(self, observation: torch.Tensor):  # [N, D] -> ([N, A], [N, n, width])
        pooled, seats = self.encoder(observation)
        return self.head(self.trunk(pooled)), seats

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return self.features(observation)[0]


class _SeatCritic(nn.Module):
    """The seat-token critic: the observation's encoder as the actor's (its own weights), and
    with a centralised critic a second one over the god-view ``state()`` (absolute seats, so
    its own tokens), the pooled rows side by side through an MLP to the value."""

    def __init__(self, plan, state_plan, hidden: list[int], heads: int, layers: int,
                 activation: str):
        super().__init__()
        self.encoder = SeatEncoder(plan, hidden[0], heads, layers)
        self.state_encoder = None if state_plan is None else SeatEncoder(
            state_plan, hidden[0], heads, layers)
        width = self.encoder.pooled_width * (1 if state_plan is None else 2)
        self.trunk = _dense_stack(width, hidden[1:], activation)
        self.head = _layer(_width(self.trunk, width), 1, 1.0)
        # a critic row's width -> its observation's (the state follows it)
        self._split = {plan.size_of[n] + (0 if state_plan is None else state_plan.size_of[n]):
                       plan.size_of[n] for n in plan.sizes}

    def forward(self, critic_input: torch.Tensor) -> torch.Tensor:  # [N, C] -> [N, 1]
        D = self._split.get(critic_input.shape[-1])
        if D is None:
            raise ValueError(f"a critic row of {critic_input.shape[-1]} floats is none of this "
                             f"game's table sizes ({sorted(self._split)})")
        pooled = self.encoder(critic_input[:, :D])[0]
        if self.state_encoder is not None:
            pooled = torch.cat([pooled, self.state_encoder(critic_input[:, D:])[0]], -1)
        return self.head(self.trunk(pooled))


def _dense_stack(n_in: int, widths: list[int], activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in widths:
        layers += [_layer(n_in, h, np.sqrt(2)), ACTIVATIONS[activation]()]
        n_in = h
    return nn.Sequential(*layers)


def _width(stack: nn.Sequential, n_in: int) -> int:
    linear = [m for m in stack if isinstance(m, nn.Linear)]
    return linear[-1].out_features if linear else n_in


MODEL_KINDS = ("mlp", "gru", "seats")


class ActorCritic(nn.Module):
    """Separate actor and critic (no shared trunk, so the value loss cannot pull the policy
    features around). The critic reads the seat's observation, or, with a centralised critic,
    the observation followed by the god-view ``state()``; the actor never sees ``state()``.

    ``kind="gru"`` makes the actor recurrent (its last hidden width is the memory size); the
    critic stays a feed-forward MLP: it is only needed in training, where the centralised
    critic can make up for the missing memory with the god-view.

    ``activation`` ("tanh" when absent, or "relu") is the hidden layers' activation, actor's and
    critic's; ``critic_hidden`` (absent: ``hidden``) the critic's own widths. The critic is
    half the network's arithmetic at equal widths and is not played: a narrower one makes
    training cheaper and leaves the policy's size alone.

    ``belief_seats`` (P - 1; absent or 0: none) adds the auxiliary role head, a small MLP on
    the actor's last hidden layer predicting which other seats are on the other side. By
    default it reads those features detached: it is never an input to the actor, and no
    gradient flows from it into the actor. ``belief_input`` (true) makes it part of the actor
    instead: the policy layer reads the head's probabilities beside the features, and the
    head's loss shapes the features (issue 41: a belief the policy is built around, learnt
    from the privileged teams in training; play needs only the seat's own observation).

    ``deduction`` (a name in ``agents.deduction.DEDUCTIONS``, with ``deduction_params``, the
    game's parameters) puts counts the agent makes from its own observation beside it, as the
    actor's first step (``agents/deduction.py``).

    ``kind="seats"`` is the seat-token network (``agents.seat_encoder``), one network for every
    table size of ``seat_game`` with the parameters ``seat_params`` (all but ``num_players``):
    ``hidden[0]`` is the tokens' width, ``hidden[1:]`` the MLP after the pooling; ``seat_heads``
    (4) attention heads and ``seat_layers`` (1) blocks. Actor and critic each have their own
    encoder; ``observation_size`` and ``critic_input_size`` are those of the table it was built
    at, and it reads the observation of any table size of the game. Its role head reads each
    other seat's token (one logit per token), so it too answers at any size. Not with
    ``deduction`` or ``belief_input``.
    """

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
        D, A = config["observation_size"], config["num_actions"]
        seats = config.get("belief_seats", 0)
        if not isinstance(seats, int) or seats < 0:
            raise ValueError(f"model config 'belief_seats' must be an integer >= 0, got {seats!r}")
        self.reads_beliefs = config.get("belief_input", False)
        if self.reads_beliefs not in (True, False):
            raise ValueError(f"model config 'belief_input' must be true or false, got "
                             f"{self.reads_beliefs!r}")
        if self.reads_beliefs and not seats:
            raise ValueError("model config 'belief_input' needs a role head ('belief_seats' > 0; "
                             "the trainer's belief_coef > 0, in a team game)")
        activation = config.get("activation", "tanh")
        if activation not in ACTIVATIONS:
            raise ValueError(f"model config 'activation' must be one of {list(ACTIVATIONS)}, "
                             f"got {activation!r}")
        critic_hidden = config.get("critic_hidden", hidden)
        if not critic_hidden or not all(isinstance(h, int) and h > 0 for h in critic_hidden):
            raise ValueError(f"model config 'critic_hidden' must list positive widths, got "
                             f"{critic_hidden!r}")
        reading = seats if self.reads_beliefs else 0
        deduce = None
        if config.get("deduction") is not None:
            deduce = Deduction(config["deduction"], config.get("deduction_params"), D)
        n_in = D + (deduce.width if deduce else 0)
        self.plays_every_size = config["kind"] == "seats"
        if self.plays_every_size:
            self._build_seats(config, seats, activation, critic_hidden)
            return
        if config["kind"] == "gru":
            self.actor = _RecurrentActor(n_in, list(hidden), A, reading, activation)
            self.memory_size = hidden[-1]
        elif reading:
            self.actor = _BeliefActor(n_in, list(hidden), A, reading, activation)
            self.memory_size = 0
        else:
            self.actor = _mlp(n_in, list(hidden), A, 0.01, activation)
            self.memory_size = 0
        if deduce is not None:  # the counts are the first step of the actor's first stack
            if config["kind"] == "gru":
                self.actor.encoder = nn.Sequential(deduce, *self.actor.encoder)
            elif reading:
                self.actor.trunk = nn.Sequential(deduce, *self.actor.trunk)
            else:
                self.actor = nn.Sequential(deduce, *self.actor)
        self.critic = _mlp(config["critic_input_size"], list(critic_hidden), 1, 1.0, activation)
        self.belief = None  # the detached head, beside the actor
        if seats and not reading:
            # Built on a forked random stream: the actor and critic, the other teams' networks
            # and everything the trainer draws later are the same with or without the head.
            with torch.random.fork_rng(devices=[]):
                self.belief = _role_head(hidden[-1], seats)

    def _build_seats(self, config: dict, seats: int, activation: str,
                     critic_hidden: list[int]) -> None:
        """The ``seats`` kind's actor, critic and role head (see the class docstring)."""
        for key in ("deduction", "belief_input"):
            if config.get(key):
                raise ValueError(f"model kind 'seats' does not take {key!r} (its counts and "
                                 f"beliefs are sized for one table)")
        heads, layers = config.get("seat_heads", 4), config.get("seat_layers", 1)
        for key, value in (("seat_heads", heads), ("seat_layers", layers)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"model config {key!r} must be a positive integer, got {value!r}")
        for key, widths in (("hidden", config["hidden"]), ("critic_hidden", critic_hidden)):
            if widths[0] % heads:
                raise ValueError(f"model config {key!r}: the token width {widths[0]} must "
                                 f"divide by seat_heads {heads}")
        plan, state_plan = seat_plans(config.get("seat_game"), config.get("seat_params"))
        n = plan.table_of(config["observation_size"])
        centralised = config["critic_input_size"] != config["observation_size"]
        if centralised and config["critic_input_size"] != plan.size_of[n] + state_plan.size_of[n]:
            raise ValueError(f"model config 'critic_input_size' {config['critic_input_size']} is "
                             f"neither the observation's {plan.size_of[n]} nor it and the "
                             f"state's {plan.size_of[n] + state_plan.size_of[n]} at {n} players")
        self.actor = _SeatActor(plan, list(config["hidden"]), config["num_actions"], heads,
                                layers, activation)
        self.critic = _SeatCritic(plan, state_plan if centralised else None,
                                  list(critic_hidden), heads, layers, activation)
        self.memory_size = 0
        self.belief = None
        if seats:  # one logit per other seat's token; on a forked stream, as the MLP's head
            with torch.random.fork_rng(devices=[]):
                self.belief = _role_head(config["hidden"][0], 1)

    def observation_sizes(self) -> list[int]:
        """The observation sizes the actor reads: its table's, or every table size's."""
        if self.plays_every_size:
            return list(self.actor.encoder.plan.size_of.values())
        return [self.config["observation_size"]]

    def role_head(self) -> nn.Module | None:
        """The role head wherever it sits: beside the actor (detached) or inside it."""
        if self.reads_beliefs:
            return self.actor.head.belief if self.recurrent else self.actor.reader.belief
        return self.belief

    @property
    def recurrent(self) -> bool:
        return self.memory_size > 0

    def actor_step(self, observation: torch.Tensor, memory: torch.Tensor | None = None):
        """``([N, D], [N, M] or None) -> (logits [N, A], new memory [N, M] or None)``."""
        if self.recurrent:
            if memory is None:
                raise ValueError("a recurrent actor needs the memory of each row's seat")
            return self.actor(observation, memory)
        return self.actor(observation), None

    def actor_forward(self, observation: torch.Tensor, memory: torch.Tensor | None = None):
        """``([N, D], [N, M] or None) -> (logits [N, A], features [N, H], new memory or None)``:
        the features are the actor's last hidden layer (a GRU's new memory), which the belief
        head reads. The rollout's hot path stays ``actor_step``, one ``Sequential`` call."""
        if self.recurrent:
            logits, memory = self.actor_step(observation, memory)
            return logits, memory, memory
        if self.plays_every_size:  # the features: the seat tokens' outputs [N, n, width]
            logits, features = self.actor.features(observation)
            return logits, features, None
        if self.reads_beliefs:
            features = self.actor.trunk(observation)
            return self.actor.reader(features), features, None
        *trunk, last = self.actor
        features = observation
        for layer in trunk:
            features = layer(features)
        return last(features), features, None

    def parameter_groups(self) -> list[dict]:
        """Adam's parameter groups: actor and critic, then the belief head (marked
        ``belief_head``), whose gradient is clipped and learning rate scheduled on their own."""
        if self.role_head() is None:
            return [{"params": list(self.parameters())}]
        head = list(self.role_head().parameters())
        trunk = [p for p in self.parameters() if all(p is not h for h in head)]
        return [{"params": trunk}, {"params": head, "belief_head": True}]

    def belief_logits(self, features: torch.Tensor) -> torch.Tensor:  # [N, H] -> [N, P - 1]
        """The role head: logit that each other seat (seat-relative, 1 .. P-1) is on the other
        side. By default it reads the actor's features *detached*: its loss trains the head
        alone, so the privileged teams it learns from never shape the actor
        (``docs/evaluation.md``). An actor that reads its beliefs (``belief_input``) takes the
        gradient: that is its point."""
        head = self.role_head()
        if head is None:
            raise ValueError("this network has no belief head (model config 'belief_seats' 0)")
        if self.plays_every_size:  # each other seat's token, one logit each
            return head(features[:, 1:].detach()).squeeze(-1)
        return head(features if self.reads_beliefs else features.detach())

    def value(self, critic_input: torch.Tensor) -> torch.Tensor:  # [N, C] -> [N]
        return self.critic(critic_input).squeeze(-1)


class NeuralPolicy(Policy):
    """A trained actor behind the ``Policy`` interface: sampled (default) or greedy actions.

    Sampling is the default because a hidden-role policy is often meant to be mixed: a greedy
    impostor that always does the same thing is easy to read. The network runs where its
    weights are (``load_policy``'s ``device``); observations come from and actions go back to
    the CPU, and the sampling stays there, so a seed draws the same stream on any device.
    """

    def __init__(
        self, model: ActorCritic, metadata: dict, greedy: bool = False, seed: int = 0,
        name: str | None = None, reads: tuple[np.ndarray, int] | None = None,
    ):
        self.model = model.eval()
        self.metadata = metadata
        self.greedy = greedy
        self.team = metadata.get("team")
        self.name = name or f"neural[{metadata.get('game')}:{self.team}@{metadata.get('steps')}]"
        self._generator = torch.Generator().manual_seed(seed)
        self._device = next(model.parameters()).device
        self._observation_sizes = model.observation_sizes()
        self._num_actions = model.config["num_actions"]
        # trained on an earlier version's observation: (its columns in today's, today's size)
        self._reads = reads
        self.beliefs_unavailable = None if model.role_head() is not None else (
            "its checkpoint has no belief head (trained with --belief-coef 0, for a "
            "free-for-all game, or before the trainer had the head): it holds no beliefs")

    def _observation(self, observation) -> torch.Tensor:
        observation = np.asarray(observation, dtype=np.float32)
        sizes = self._observation_sizes if self._reads is None else [self._reads[1]]
        if observation.ndim != 2 or observation.shape[1] not in sizes:
            shown = sizes[0] if len(sizes) == 1 else f"one of {sizes}"
            raise ValueError(
                f"{self.name}: observation must be [N, {shown}], got {observation.shape}"
            )
        if self._reads is not None:
            observation = observation[:, self._reads[0]]
        return torch.from_numpy(np.ascontiguousarray(observation))

    def _checked(self, observation, action_mask) -> tuple[torch.Tensor, torch.Tensor]:
        observation = self._observation(observation)
        action_mask = np.ascontiguousarray(action_mask, dtype=np.bool_)
        if action_mask.shape != (observation.shape[0], self._num_actions):
            raise ValueError(
                f"{self.name}: action_mask must be [{observation.shape[0]}, {self._num_actions}], "
                f"got {action_mask.shape}"
            )
        return observation, torch.from_numpy(action_mask)

    def _choose(self, logits: torch.Tensor, mask: torch.Tensor) -> np.ndarray:
        dist = MaskedCategorical(logits.cpu(), mask)
        return (dist.mode() if self.greedy else dist.sample(self._generator)).numpy()

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, who: np.ndarray | None = None
    ) -> np.ndarray:
        observation, action_mask = self._checked(observation, action_mask)
        with torch.inference_mode():
            logits, _ = self.model.actor_step(observation.to(self._device))
            return self._choose(logits, action_mask)

    def beliefs(self, observation: np.ndarray, who: np.ndarray | None = None) -> np.ndarray:
        """``[N, D] -> [N, P]``: column ``j`` the probability that the seat ``j`` places
        clockwise is on the other side (column 0, the observer, is 0), from the role head."""
        if self.beliefs_unavailable:
            raise ValueError(f"{self.name}: {self.beliefs_unavailable}")
        observation = self._observation(observation)
        with torch.inference_mode():
            _, features, _ = self.model.actor_forward(observation.to(self._device))
            return self._probabilities(features)

    def _probabilities(self, features: torch.Tensor) -> np.ndarray:
        p = torch.sigmoid(self.model.belief_logits(features)).double().cpu().numpy()
        return np.concatenate([np.zeros((p.shape[0], 1)), p], 1)


class RecurrentPolicy(NeuralPolicy):
    """A GRU actor: each decision updates the memory of the seat that made it.

    Memories are kept per (game slot, seat) as ``Policy.act``'s ``who`` names them (growing as
    new slots and seats appear), and blanked by ``game_over`` for slots whose games ended.
    Called without ``who`` it refuses rather than mix seats' memories.
    """

    remembers = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._memory = torch.zeros((0, 0, self.model.memory_size))  # [slots, seats, M]

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, who: np.ndarray | None = None
    ) -> np.ndarray:
        observation, action_mask = self._checked(observation, action_mask)
        who = self._who(who, observation.shape[0])
        self._grow(int(who[:, 0].max(initial=-1)) + 1, int(who[:, 1].max(initial=-1)) + 1)
        slot, seat = torch.from_numpy(who[:, 0]), torch.from_numpy(who[:, 1])
        with torch.inference_mode():
            logits, memory = self.model.actor_step(observation.to(self._device),
                                                   self._memory[slot, seat].to(self._device))
            self._memory[slot, seat] = memory.cpu()
            return self._choose(logits, action_mask)

    def beliefs(self, observation: np.ndarray, who: np.ndarray | None = None) -> np.ndarray:
        """As ``NeuralPolicy.beliefs``, read from each row's seat memory as its latest decision
        (``act`` with the same ``who``) left it: the observation is already in that memory."""
        if self.beliefs_unavailable:
            raise ValueError(f"{self.name}: {self.beliefs_unavailable}")
        who = self._who(who, self._observation(observation).shape[0])
        if (who[:, 0] >= self._memory.shape[0]).any() or (who[:, 1] >= self._memory.shape[1]).any():
            raise ValueError(f"{self.name}: beliefs asked of a (game slot, seat) that has not "
                             f"decided yet; call act for it first")
        slot, seat = torch.from_numpy(who[:, 0]), torch.from_numpy(who[:, 1])
        with torch.inference_mode():
            return self._probabilities(self._memory[slot, seat].to(self._device))

    def _who(self, who, n: int) -> np.ndarray:
        if who is None:
            raise ValueError(
                f"{self.name} is recurrent: pass who=[N, 2] ints, each row's (game slot, seat), "
                f"so that each seat's memory carries over between its decisions"
            )
        who = np.asarray(who, np.int64)
        if who.shape != (n, 2) or (who < 0).any():
            raise ValueError(
                f"{self.name}: who must be [{n}, 2] non-negative ints "
                f"(game slot, seat), got shape {who.shape}"
            )
        if np.unique(who, axis=0).shape[0] != who.shape[0]:
            raise ValueError(f"{self.name}: a (game slot, seat) appears twice in who")
        return who

    def _grow(self, slots: int, seats: int) -> None:
        have_slots, have_seats, M = self._memory.shape
        if slots > have_slots or seats > have_seats:
            grown = torch.zeros((max(slots, have_slots), max(seats, have_seats), M))
            grown[:have_slots, :have_seats] = self._memory
            self._memory = grown

    def game_over(self, slots: np.ndarray) -> None:
        slots = np.asarray(slots, np.int64).reshape(-1)
        self._memory[torch.from_numpy(slots[slots < self._memory.shape[0]])] = 0.0


def load_policy(
    path: str | Path,
    game: str | None = None,
    team: str | None = None,
    greedy: bool = False,
    seed: int = 0,
    device: str = "cpu",
    **params,
) -> NeuralPolicy:
    """A ``Policy`` from a checkpoint written by the trainer (a ``RecurrentPolicy`` for a GRU).

    With ``game`` (and the game's parameters, defaults filled in), the checkpoint is checked
    against that game first: name, version, parameters and observation layout must match, and
    the error names whichever does not. With ``team``, the checkpoint must be that team's.
    ``device`` (``DEVICES``) is where the network runs; the checkpoint is read onto the CPU first.
    """
    where = resolve_device(device)
    checkpoint = load_checkpoint(path)
    metadata = checkpoint["metadata"]
    reads = None
    if game is not None:
        columns = check_compatible(metadata, game, params, path)
        if columns is not None:
            from envs import registry

            spec = registry[game]
            reads = (columns, spec.observation_layout(spec.resolve(**params)).size)
    if team is not None and metadata["team"] != team:
        raise CheckpointError(f"{path}: checkpoint is for team {metadata['team']!r}, not {team!r}")
    try:
        model = ActorCritic(metadata["model"])
        model.load_state_dict(checkpoint["model"])
    except (ValueError, RuntimeError, TypeError, KeyError) as e:  # config and weights differ
        raise CheckpointError(f"{path}: model does not match its weights: {e}") from e
    for name, tensor in checkpoint["model"].items():
        if torch.is_tensor(tensor) and tensor.is_floating_point() and not bool(
            torch.isfinite(tensor).all()
        ):
            raise CheckpointError(
                f"{path}: weights {name!r} hold NaN or infinite values (the run diverged)"
            )
    kind = RecurrentPolicy if model.recurrent else NeuralPolicy
    model.to(where)
    return kind(model, metadata, greedy=greedy, seed=seed, reads=reads)
