"""Self-play PPO over the batched engine, for any registered game.

Read top to bottom as in CleanRL's ``ppo.py``: ``Args``, the update, then ``train()``: build,
then per update collect -> advantages -> update -> snapshot -> evaluate -> log -> checkpoint.
``train()`` is that loop alone; the helpers above it are its steps (``build_run``,
``warm_start``, ``held_out_scoring``, ``Schedule``, ``update_team``; ``TrainingLog`` in
``training.instrument``).
What differs from single-agent PPO, and where it lives:

- Every seat of every game is an agent; rows are split by the deciding seat's team *now*
  (a Menace Coward changes sides) and each team's network runs once on its rows
  (``training.rollout``).
- A transition belongs to the seat that decided; its reward is whatever the seat is paid until
  its next decision (at a game's end, its final reward), and its successor is the same seat's
  next decision (``training.credit``, ``training.gae``). A seat still waiting when a rollout
  stops is carried into the next one and trained once its successor is known.
- A game that ends by truncation (the game's own round limit) is an ending: the round counter
  is in the observation, so the limit is part of the game.
- The action mask is stored with each transition and reused in the update through the one
  ``MaskedCategorical``.
- A share of game sides is played by league members (``training.pool``); those rows are not
  trained on. Held-out opponents score the teams as they learn (``training.evaluate``).
"""

from __future__ import annotations

import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path

import numba
import numpy as np
import torch
from torch import nn

import envs
from agents import make_policy, policy_names
from agents.neural import (ACTIVATIONS, MODEL_KINDS, ActorCritic, MaskedCategorical, load_policy,
                           resolve_device)
from agents.sparse_input import SparseRows
from evaluation.entrants import free_for_all
from training.evaluate import HeldOut, HeldOutTables, eval_seed
from training.gae import per_seat_gae
from training.imitate import imitate
from training.instrument import Clock, TrainingLog, explained_variance, merged_stats
from training.pool import SAMPLING, OpponentPool
from training.recurrent import recurrent_logits, seat_sequences
from training.rollout import Collector, Minibatches, epoch
from training.run_checkpoint import (
    latest_checkpoint,
    load_run_checkpoint,
    save_run_checkpoint,
    seen_in_training,
)

__all__ = ["Args", "TrainingError", "latest_checkpoint", "ppo_update", "train"]


class TrainingError(ValueError):
    """The run cannot go on (a loss or a weight is not finite): nothing further is written."""


@dataclass
class Args:
    """The trainer's options. Most have a flag of ``hiddendeck train``; PPO's standard
    hyperparameters, ``scripted_share`` and ``model``, which no published run changed from the
    command line, are set in a recipe's ``[trainer]`` table, which takes any field
    (``training.recipes``; docs/training.md, "Options set in a recipe")."""

    game: str = "amongus"
    """registered game to train on"""
    num_players: int = 6
    """seats at the table (in a mixed-size run, the first of ``table_sizes``: the table its
    checkpoints are checked at)"""
    table_sizes: tuple[int, ...] = ()
    """a mixed-size run of a seat network (``model = "seats"``): the table sizes its games are
    dealt at, ``num_players`` first. Each size has its own engine, rollout buffer, league and
    held-out curves; each update trains on every size's transitions, minibatches drawn per
    size. A recipe's ``players = [4, 5, 6]``, the command line's ``--players 4,5,6``. Empty:
    ``num_players`` alone (docs/training.md, "Mixed table sizes")"""
    table_shares: tuple[float, ...] = ()
    """weights of ``table_sizes`` in the split of ``num_envs`` games between them (largest
    remainders; every size at least one game). Empty: equal shares"""
    params: dict = field(default_factory=dict)
    """other game parameters (e.g. ``{"max_rounds": 20}``); defaults for the rest"""
    vary: dict = field(default_factory=dict)
    """per-game parameters spread over the training games, ``{name: (low, high)}``: slot ``b``
    plays ``low + b % (high - low + 1)`` (``VecEnv.vary``), and ``high`` may not exceed the
    game's own value. Mixed round limits show a policy the last rounds, which its own games
    never reach: a crew that has never seen a game run out does not vote in the last round
    (docs/results/training-history.md). Training games only: held-out curves play the game as given"""
    seed: int = 0
    """seeds the games, the networks and the sampling (a non-negative integer)"""
    total_steps: int | None = 5_000_000
    """stop after this many agent decisions (every seat's, in every game); None: only ``seconds``"""
    seconds: float | None = None
    """also stop once this much wall time has passed since ``train`` was called (start-up,
    compilation, imitation and evaluation included), at the end of an update"""
    out: str = "runs/ppo"
    """run directory: ``checkpoints/step_*/``, TensorBoard logs under ``tb/``, ``curves.png``"""
    num_envs: int = 1024
    """games stepped together; large batches are what make the CPU network passes cheap"""
    num_steps: int = 32
    """batched steps per rollout (so ``num_envs * num_steps`` decisions per update)"""
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over the budget (steps or seconds, whichever is
    nearer its end), as CleanRL does: late updates refine instead of jumping around"""
    gamma: float = 0.99
    """discount per own decision of a seat (not per table move)"""
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    """minibatches per epoch, per team"""
    update_epochs: int = 2
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = False
    """clip the value step as CleanRL does; off by default (as in MaskablePPO): on +-1 returns
    it slows the critic most when it matters, right after the imitation warm start"""
    ent_coef: float = 0.005
    """entropy bonus at the start"""
    ent_coef_final: float | None = 0.0005
    """entropy bonus at the end of the budget, reached linearly (None: constant ``ent_coef``):
    explore early, then let the policy commit"""
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    model: str = "mlp"
    """"mlp", "gru" for a recurrent actor that remembers the seat's own game, or "seats" for
    the seat-token network that plays every table size of the game (``agents.seat_encoder``;
    not with ``deduction``, ``belief_input`` or ``sparse_observations``)"""
    hidden: tuple[int, ...] = (64, 64)
    """hidden widths of the actor and of the critic MLPs (for "gru", the last is the memory;
    for "seats", the first is the tokens' width, a multiple of 4)"""
    critic_hidden: tuple[int, ...] = ()
    """the critic's own widths, every team's (empty: the actor's, ``hidden`` or
    ``team_hidden``). The critic is about half the network's arithmetic at equal widths, in the
    rollout and in every epoch of the update, and is never played (docs/speed.md, "The
    trainer")"""
    activation: str = "tanh"
    """the hidden layers' activation, "tanh" or "relu" (cheaper on the CPU: docs/speed.md)"""
    sparse_observations: bool = False
    """the first layers of the actor and critic read only the observation's nonzero entries
    (``agents.sparse_input``), in the rollout and the update: the same sums in another order
    (they differ in the last bits), far cheaper where the observation is mostly zeros (the
    Menace's: 3.5% of 1,283 floats at 5 players). On the cpu; loaded policies keep the dense
    product"""
    team_hidden: dict = field(default_factory=dict)
    """per-team overrides of ``hidden`` (``{"crew": (256, 256)}``). The sides' jobs differ in
    size: the Menace crew reads a window of past rounds to find the menace, who knows who
    everyone is, and a 64-64 crew clone fits its teacher worse than a 256-256 one
    (docs/results/training-history.md)"""
    centralised_critic: bool = False
    """the critic also reads the god-view ``state()`` (never the actor)"""
    belief_coef: float = 1.0
    """weight of the auxiliary role head's loss (0: no head). The head predicts, from the
    actor's detached features, which other seats are on the other side, trained on the true
    teams; ``beliefs()`` of a loaded checkpoint reads it. No gradient reaches the actor, so the
    policy trained is the same with or without it. Its learning rate stays at
    ``learning_rate`` (not annealed): it must keep up with the actor's features to the end.
    Team games only (none for free-for-all)"""
    belief_input: bool = False
    """the actor reads the role head's beliefs (its policy layer sees their probabilities
    beside its features) and the head's loss, ``belief_coef`` times it, trains the actor's
    features too: a belief the policy is built around (issue 41). Play needs only the seat's
    own observation; the privileged teams are used in training alone. Needs
    ``belief_coef > 0`` and a team game"""
    deduction: str | None = None
    """counts the agent makes from its own observation, read by the actor beside it (a name in
    ``agents.deduction.DEDUCTIONS``: ``amongus-counts``, the Among Us count over deals that a
    flat network cannot make; ``menace-suspicion``, the Menace heuristic's reading of each
    seat's evidence; issue 41). The policy, not the game, holds this model of the
    other players, and a recipe that uses it says so. None: the raw observation alone"""
    shared_policy: bool = False
    """one policy for every seat (implied when the game has a single team or is a
    free-for-all: there every seat is its own side, and one policy plays them all)"""
    opponent_share: float = 0.2
    """chance that a side of a newly dealt game is played by a league member"""
    pool_size: int = 10
    """recent snapshots kept per team in the league (anchors come on top). Members are drawn
    per game, so each step runs one forward pass per member present: a bigger league costs
    speed"""
    scripted_opponents: tuple[str, ...] = ()
    """scripted players (``agents.make_policy`` names, or a team's ``.pt`` checkpoint) added to
    the league beside the snapshots. Training against the opponent you evaluate against is a
    different claim from self-play; reports must say which was used"""
    scripted_share: float = 0.5
    """chance that a league draw is a scripted player rather than a snapshot"""
    league_sampling: str = "uniform"
    """which member a league draw picks, among the snapshots and among the scripted players:
    ``uniform``, or ``pfsp`` (prioritised fictitious self-play: a member with weight
    ``(1 - s) ** pfsp_power``, s the learner's recent score against it; ``training.pool``)"""
    pfsp_power: float = 2.0
    """how hard ``pfsp`` leans toward the members the learner does worst against (0: uniform)"""
    pfsp_decay: float = 0.9
    """weight of a ``pfsp`` result one rollout older (1: never forget; 0: the last rollout only)"""
    fixed_teams: dict = field(default_factory=dict)
    """teams that are not trained, each played in every game by a scripted player or a
    checkpoint of that team (``{"crew": "heuristic"}`` trains the impostor against the heuristic
    crew only). Their checkpoints keep the untrained network; ``training.report`` skips them"""
    imitate: str | None = "heuristic"
    """warm start: before PPO, every trained team's actor learns to choose as this scripted
    player does (None: start from scratch). Not on ``--resume``. A GRU actor imitates whole
    seat trajectories, its memory running along each seat's decisions (``training.imitate``)"""
    imitate_also: tuple[str, ...] = ()
    """more scripted players whose games the warm start imitates: each warm-start game is
    played on every seat by ``imitate`` or one of these, drawn per game with equal chance, so a
    team's clone (and the anchor it leaves in the league) holds each one's style, e.g. the
    Among Us chain crew's at-once votes beside the heuristic crew's waiting ones: an impostor
    that never meets a crew voting at once never learns to sabotage before it is named. Only
    ``imitate`` labels the learners' own positions (``teacher_coef``)"""
    imitation_steps: int = 1_000_000
    """agent decisions (every seat's) played for the warm start; not counted in total_steps"""
    imitation_epochs: int = 4
    """epochs over each batch of the teacher's decisions (in ``num_minibatches * 2``
    minibatches): one epoch of four steps per 32k decisions left the Menace crew clone winning
    2% where the teacher wins 46%; four epochs of eight brought it to 41%"""
    imitation_lr: float = 1e-3
    """Adam's rate for the warm start (PPO then uses ``learning_rate``)"""
    imitation_noise: float = 0.0
    """share of the warm start's decisions played at random among the legal actions, each
    still labelled with the teacher's choice (DART, Laskey et al. 2017): a clone fitted only on
    the teacher's own games meets states the teacher never reaches as soon as an opponent plays
    differently, and errs there. The Menace's heuristic crew clone won 0.36 against the
    heuristic menace it was cloned beside and 0.25 against a random menace, where the
    heuristic crew wins 0.63 (docs/training.md, The demo). 0: off, the teacher's games as they
    are"""
    imitation_share: float = 0.5
    """with a ``seconds`` budget, the warm start stops after this share of it at the latest"""
    teacher_coef: float = 1.0
    """after the warm start, PPO's loss also holds this weight times the cross-entropy between
    the actor and the ``imitate`` player's choice in the learner's *own* positions (DAgger's
    labels), decaying linearly to 0 at ``teacher_until``: a clone that only saw the teacher's
    games drifts into positions the teacher never reaches and errs there; the labels there
    keep it competent while PPO improves on it. The teacher never plays a game. 0: off"""
    teacher_until: float = 0.5
    """share of the budget over which the teacher term decays to ``teacher_final``"""
    teacher_final: float = 0.25
    """the teacher term's weight from ``teacher_until`` on (0: gone). With it gone, the Menace
    crew drifted from 43% to 34% against the held-out heuristic menace while it adapted to the
    learner menace; kept at a quarter, PPO improves the clone near the teacher's play (as
    AlphaStar keeps a KL to its supervised policy)"""
    team_teacher_final: dict = field(default_factory=dict)
    """per-team overrides of ``teacher_final`` (``{"menace": 0.0}``: the menace's term decays to
    nothing while the crew keeps its quarter). The anchor that keeps one side competent against
    the references it never meets also stops the other side from finding what beats them: a
    Menace menace freed of it against a fixed trained crew went from the heuristic's 0.56 to
    0.79 against the held-out heuristic crew in 6M steps (docs/results/training-history.md)"""
    team_teacher_until: dict = field(default_factory=dict)
    """per-team overrides of ``teacher_until`` (``{"impostor": 0.5}``: the impostor's term
    decays over half the budget while the crew's is gone at ``teacher_until``). In Among Us the
    crew improves on its teacher only once its term is gone, and ending it at a quarter for
    both sides left the impostor stalled behind the crew it faces (docs/results/training-history.md)"""
    team_train_until: dict = field(default_factory=dict)
    """per-team share of the budget after which that team's learner stops learning and keeps
    playing as it is (``{"crew": 0.7}``; default: to the end). What stops is the update; its
    games, its league and its checkpoints go on. The other teams then spend the rest of the
    budget answering the one they will be scored against: in Among Us the crew, learning from
    five seats a game to the impostor's one, outgrew every impostor that faced it to the end
    (docs/results/training-history.md)"""
    critic_warmup: int = 4
    """updates after the warm start in which only the critic learns (on the imitated actor's
    own games), so PPO's first advantages come from a critic that knows the policy"""
    snapshot_every: int = 10
    """updates between snapshots added to the league"""
    checkpoint_every: int = 50
    """updates between checkpoints (one is always written at the end)"""
    eval_every: int = 10
    """updates between held-out evaluations (0: none); one also runs at the end"""
    eval_games: int = 400
    """games per (team, opponent) in each held-out evaluation"""
    eval_opponents: tuple[str, ...] = ()
    """held-out references (``agents.make_policy`` names; empty: random and every scripted player
    of the game, e.g. the Menace's drain); never put them in the league too if the curves are to
    mean strength"""
    threads: int = 1
    """CPU threads for torch and for the engine's parallel loops. One by default: the per-op
    tensors here are small, and on shared cores extra OpenMP threads spin against the neighbours"""
    device: str = "cpu"
    """where the networks learn: "cpu", "cuda", or "auto" (cuda where torch sees a GPU). The
    games stay on the CPU engine: each step's observations go to the device and the logits and
    values come back, so the sampling, its random stream and the rollout stay on the CPU. League
    snapshots and scripted players play on the CPU. MLP only"""
    resume: str | None = None
    """a checkpoint directory (``.../step_N``) or a run directory (its latest checkpoint)"""
    seen_before: tuple[str, ...] = ()
    """set on ``--resume``, never by hand: every scripted player the run imitated or trained
    against before it was resumed (``training.report.seen_in_training`` of the resumed
    checkpoint), so the record of what the policy met survives a resume with other options"""
    tensorboard: bool = True
    progress: bool = True
    """a progress line on stderr with steps/s and held-out win rates"""
    recipe: str | None = None
    """``NAME@sha256:...`` of the recipe file this run was made from (``training.recipes``),
    recorded with every checkpoint; None for a run set up by hand"""

    @property
    def sizes(self) -> tuple[int, ...]:
        """The table sizes this run deals, ``num_players`` first."""
        return tuple(self.table_sizes) or (self.num_players,)

    @property
    def mixed(self) -> bool:
        """Whether the games are dealt at more than one table size."""
        return len(self.sizes) > 1

    @property
    def warm_start_names(self) -> list[str]:
        """The players whose games the warm start imitates, ``imitate`` (the teacher) first."""
        return [self.imitate, *self.imitate_also] if self.imitate is not None else []

    def check(self) -> None:
        """Reject bad settings before anything is built, naming the field."""
        if self.game not in envs.registry:
            raise ValueError(f"unknown game {self.game!r}; registered: {list(envs.registry)}")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        positive = ("num_envs", "num_steps", "num_minibatches", "update_epochs",
                    "snapshot_every", "checkpoint_every", "threads", "eval_games",
                    "imitation_epochs")
        for name in positive:
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not (isinstance(self.imitation_noise, (int, float))
                and 0.0 <= self.imitation_noise < 1.0):
            raise ValueError(f"imitation_noise must be in [0, 1), got {self.imitation_noise!r}")
        if not 0.0 < self.imitation_share <= 1.0:
            raise ValueError(f"imitation_share must be in (0, 1], got {self.imitation_share}")
        for name in ("eval_every", "critic_warmup", "pool_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if not (0.0 < self.teacher_until <= 1.0 and self.teacher_coef >= 0
                and self.teacher_final >= 0):
            raise ValueError(f"need teacher_coef, teacher_final >= 0 and 0 < teacher_until <= 1, "
                             f"got {self.teacher_coef}, {self.teacher_final}, {self.teacher_until}")
        for name in ("learning_rate", "imitation_lr", "imitation_share", "ent_coef",
                     "ent_coef_final", "vf_coef", "max_grad_norm",
                     "teacher_coef", "teacher_until", "teacher_final",
                     "clip_coef", "seconds", "gamma", "gae_lambda", "belief_coef"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value)):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"learning_rate must be positive, got {self.learning_rate}")
        if self.belief_coef < 0:
            raise ValueError(f"belief_coef must be >= 0, got {self.belief_coef}")
        if self.deduction is not None:
            from agents.deduction import DEDUCTIONS

            if self.deduction not in DEDUCTIONS:
                raise ValueError(f"unknown deduction {self.deduction!r}; known: "
                                 f"{sorted(DEDUCTIONS)}")
            if self.sparse_observations:  # the counts read the dense rows
                raise ValueError("deduction reads the whole observation: not with "
                                 "sparse_observations")
            if DEDUCTIONS[self.deduction].game != self.game:
                raise ValueError(f"deduction {self.deduction!r} counts over "
                                 f"{DEDUCTIONS[self.deduction].game}'s observation, not "
                                 f"{self.game}'s")
        if self.belief_input and not self.belief_coef > 0:
            raise ValueError("belief_input needs the role head's loss: belief_coef > 0, got "
                             f"{self.belief_coef}")
        if self.ent_coef < 0 or (self.ent_coef_final is not None and self.ent_coef_final < 0):
            raise ValueError(f"entropy coefficients must be >= 0, got {self.ent_coef}, "
                             f"{self.ent_coef_final}")
        if self.league_sampling not in SAMPLING:
            raise ValueError(f"league_sampling must be one of {SAMPLING}, got "
                             f"{self.league_sampling!r}")
        if not (isinstance(self.pfsp_power, (int, float)) and math.isfinite(self.pfsp_power)
                and self.pfsp_power >= 0):
            raise ValueError(f"pfsp_power must be a finite number >= 0, got {self.pfsp_power!r}")
        if not (isinstance(self.pfsp_decay, (int, float)) and 0.0 <= self.pfsp_decay <= 1.0):
            raise ValueError(f"pfsp_decay must be in [0, 1], got {self.pfsp_decay!r}")
        if not 0.0 <= self.scripted_share <= 1.0:
            raise ValueError(f"scripted_share must be in [0, 1], got {self.scripted_share}")
        if not 0.0 <= self.opponent_share < 1.0:
            raise ValueError(f"opponent_share must be in [0, 1), got {self.opponent_share}")
        if not (0.0 < self.gamma <= 1.0 and 0.0 <= self.gae_lambda <= 1.0):
            raise ValueError(f"need 0 < gamma <= 1 and 0 <= gae_lambda <= 1, got "
                             f"{self.gamma}, {self.gae_lambda}")
        if self.total_steps is None and self.seconds is None:
            raise ValueError("give total_steps, seconds, or both: training needs a budget")
        if self.total_steps is not None and (
            not isinstance(self.total_steps, int) or self.total_steps < 1
        ):
            raise ValueError(f"total_steps must be a positive integer, got {self.total_steps!r}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")
        if self.model not in MODEL_KINDS:
            raise ValueError(f"model must be one of {MODEL_KINDS}, got {self.model!r}")
        if self.sparse_observations and self.device != "cpu":
            raise ValueError(f"sparse_observations runs on the cpu only; pass device cpu, not "
                             f"{self.device!r}")
        resolve_device(self.device)  # a known name, and a GPU there for "cuda"
        if self.model == "gru" and self.device != "cpu":
            raise ValueError(f"model {self.model!r} trains on the cpu only (its replay through "
                             f"time is not moved to a device); pass device cpu")
        if self.model == "seats":
            refused = [name for name in ("deduction", "belief_input", "sparse_observations")
                       if getattr(self, name)]
            if refused:
                raise ValueError(f"model 'seats' reads dense observations of any table size: "
                                 f"not with {', '.join(refused)}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {list(ACTIVATIONS)}, got "
                             f"{self.activation!r}")
        for name, widths in [("hidden", self.hidden),
                             *((f"team_hidden[{t!r}]", w) for t, w in self.team_hidden.items()),
                             *([("critic_hidden", self.critic_hidden)] if self.critic_hidden
                               else [])]:
            if not widths or any(not isinstance(h, int) or h < 1 for h in widths):
                raise ValueError(f"{name} must list positive widths, got {widths!r}")
        if "num_players" in self.params:
            raise ValueError("give num_players as its own argument, not in params")
        self._check_table_sizes()
        for name, span in self.vary.items():
            if (not isinstance(span, tuple) or len(span) != 2
                    or not all(isinstance(v, int) for v in span) or span[0] > span[1]):
                raise ValueError(f"vary[{name!r}] must be (low, high), two integers with "
                                 f"low <= high, got {span!r}")
        if self.imitate_also and self.imitate is None:
            raise ValueError(f"imitate_also {list(self.imitate_also)} needs imitate: the warm "
                             f"start it joins")
        if len(set(self.warm_start_names)) < len(self.warm_start_names):
            raise ValueError(f"imitate_also {list(self.imitate_also)} names a player twice, or "
                             f"imitate ({self.imitate!r}) again")
        if not isinstance(self.imitation_steps, int) or self.imitation_steps < 1:
            raise ValueError(f"imitation_steps must be a positive integer, "
                             f"got {self.imitation_steps!r}")
        spec = envs.registry[self.game]
        one_network = free_for_all(spec) or self.shared_policy or len(spec.teams) == 1
        fixed_and_widened = sorted(set(self.team_hidden) & set(self.fixed_teams))
        if fixed_and_widened:
            raise ValueError(f"team_hidden names {fixed_and_widened}, fixed: a fixed team has no "
                             f"network of this run's")
        for name in ("team_teacher_final", "team_teacher_until", "team_train_until",
                     "team_hidden"):
            if not getattr(self, name):
                continue
            if one_network:
                raise ValueError(f"{name} needs a team game with a network per team")
            unknown = sorted(set(getattr(self, name)) - set(spec.teams))
            if unknown:
                raise ValueError(f"{name} names {unknown}; {self.game}'s teams are "
                                 f"{list(spec.teams)}")
        for team, value in self.team_teacher_final.items():
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"team_teacher_final[{team!r}] must be a finite number "
                                 f">= 0, got {value!r}")
        for name in ("team_teacher_until", "team_train_until"):
            for team, value in getattr(self, name).items():
                if not (isinstance(value, (int, float)) and 0.0 < value <= 1.0):
                    raise ValueError(f"{name}[{team!r}] must be a share of the budget in "
                                     f"(0, 1], got {value!r}")
        stopped = sorted(set(self.team_train_until) & set(self.fixed_teams))
        if stopped:
            raise ValueError(f"team_train_until names {stopped}, fixed: a fixed team never "
                             f"learns")
        if self.fixed_teams:
            teams = spec.teams
            if free_for_all(spec):
                raise ValueError(f"{self.game} is a free-for-all: one shared policy plays every "
                                 f"seat, so no seat can be fixed; add a scripted player to the "
                                 f"league with scripted_opponents (--scripted-opponent) instead")
            unknown = sorted(set(self.fixed_teams) - set(teams))
            if unknown:
                raise ValueError(f"fixed_teams names {unknown}; {self.game}'s teams are {teams}")
            if len(self.fixed_teams) == len(teams) or self.shared_policy or len(teams) == 1:
                raise ValueError("fixed_teams must leave at least one team of its own to train")

    def _check_table_sizes(self) -> None:
        """A mixed-size run's sizes and shares, refused by name: a list that is empty or names
        a size twice, a size the game does not deal, or a network that reads one size."""
        sizes, shares = tuple(self.table_sizes), tuple(self.table_shares)
        if not sizes:
            if shares:
                raise ValueError(f"table_shares {list(shares)} needs table_sizes: the sizes "
                                 f"they weigh")
            return
        spec = envs.registry[self.game]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in sizes):
            raise ValueError(f"table_sizes must list integers, got {list(sizes)}")
        if len(set(sizes)) < len(sizes):
            raise ValueError(f"table_sizes {list(sizes)} names a table size twice")
        outside = [n for n in sizes if not spec.min_players <= n <= spec.max_players]
        if outside:
            raise ValueError(f"table_sizes {list(sizes)}: {self.game} is played by "
                             f"{spec.min_players} to {spec.max_players} players, not {outside}")
        if self.num_players != sizes[0]:
            raise ValueError(f"num_players {self.num_players} must be the first of table_sizes "
                             f"{list(sizes)}: the table its checkpoints are checked at")
        if len(sizes) > 1 and self.model != "seats":
            raise ValueError(f"table_sizes {list(sizes)}: a {self.model!r} network reads one "
                             f"table size; mixed sizes need model 'seats'")
        if shares and (len(shares) != len(sizes) or not all(
                isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w)
                and w > 0 for w in shares)):
            raise ValueError(f"table_shares must give each of table_sizes {list(sizes)} a "
                             f"positive weight, got {list(shares)}")
        if self.num_envs < len(sizes):
            raise ValueError(f"num_envs {self.num_envs} cannot give each of table_sizes "
                             f"{list(sizes)} a game")


def games_per_table(args: Args) -> list[int]:
    """How many of ``num_envs`` games each table size steps: by ``table_shares`` (equal when
    empty), the remainder to the largest fractions, every size at least one."""
    shares = np.asarray(args.table_shares or [1.0] * len(args.sizes), np.float64)
    exact = args.num_envs * shares / shares.sum()
    games = np.floor(exact).astype(np.int64)
    games[np.argsort(games - exact, kind="stable")[:args.num_envs - int(games.sum())]] += 1
    if (games < 1).any():
        raise ValueError(f"table_shares {list(args.table_shares)} of {args.num_envs} games "
                         f"leave table size {args.sizes[int(np.argmin(games))]} none")
    return games.tolist()


def group_names(spec, shared: bool) -> list[str]:
    return ["shared"] if shared or len(spec.teams) == 1 or free_for_all(spec) else list(spec.teams)


def model_config(env, args: Args, team: str | None = None) -> dict:
    """The network of ``team``'s group (its ``team_hidden`` widths, else ``hidden``)."""
    critic_input = env.observation_size + (env.state_size if args.centralised_critic else 0)
    config = {
        "kind": args.model,
        "observation_size": env.observation_size,
        "num_actions": env.num_actions,
        "critic_input_size": critic_input,
        "hidden": list(args.team_hidden.get(team, args.hidden)),
    }
    if args.model == "seats":  # every table size of the game with these parameters
        config["seat_game"] = env.spec.name
        config["seat_params"] = {k: v.item() if hasattr(v, "item") else v
                                 for k, v in env.params.items() if k != "num_players"}
    if args.critic_hidden:  # absent: the actor's widths (every network saved before the option)
        config["critic_hidden"] = list(args.critic_hidden)
    if args.activation != "tanh":  # absent: tanh
        config["activation"] = args.activation
    if args.belief_coef > 0 and not free_for_all(env.spec):
        config["belief_seats"] = env.num_players - 1
        if args.belief_input:
            config["belief_input"] = True
    elif args.belief_input:
        raise ValueError(f"belief_input: {env.spec.name} is a free-for-all, with no other side "
                         "for a role head to predict")
    if args.deduction is not None:
        config["deduction"] = args.deduction
        config["deduction_params"] = {k: v.item() if hasattr(v, "item") else v
                                      for k, v in env.params.items()}
    return config


def ppo_update(model, optimizer, gather: Minibatches, rows: torch.Tensor, args: Args,
               clock: Clock, sequences=None, ent_coef: float | None = None,
               train_actor: bool = True, teacher_coef: float = 0.0,
               tables: list[tuple[Minibatches, torch.Tensor]] = ()) -> dict:
    """Clipped PPO on one team's transitions, the flat rollout rows ``rows [N]``; the stored
    masks rebuild the same distribution. ``train_actor=False``: the critic alone learns;
    ``teacher_coef``: plus the cross-entropy to the stored teacher choices. A belief head
    learns throughout (``Args.belief_coef`` times its cross-entropy to the stored teams), on
    its own gradient, clipped apart: the actor and critic take the same steps as without it.

    Feed-forward: minibatches are random transitions. Recurrent (``sequences``: the index of
    ``seat_sequences`` translated to flat rollout rows, and its restarts): minibatches are
    random (game, seat) columns, run through time.

    ``tables``: a mixed-size run's other table sizes, ``(gather, rows)`` each beside
    ``(gather, rows)``. Every minibatch holds one size's rows (the seat encoder reads one table
    size per call): each size's rows make ``num_minibatches`` times its share of all the rows
    (at least one), and the sizes' minibatches take turns.
    """
    ent_coef = args.ent_coef if ent_coef is None else ent_coef
    device = next(model.parameters()).device  # minibatches are gathered on the CPU
    parts = [(gather, rows), *tables]
    total = sum(r.numel() for _, r in parts)
    stats = {"policy_loss": [], "value_loss": [], "entropy": [], "approx_kl": [], "clipfrac": [],
             "teacher_loss": []}
    # the optimizer's own groups (``ActorCritic.parameter_groups``): actor and critic, then the
    # belief head, clipped apart
    trunk = optimizer.param_groups[0]["params"]
    head = [p for g in optimizer.param_groups[1:] for p in g["params"]]
    if head:
        stats["belief_loss"] = []
    for _ in range(args.update_epochs):
        if sequences is None:
            turns = []
            for source, part in parts:
                count = max(1, round(args.num_minibatches * part.numel() / total))
                chosen = torch.randperm(part.numel()).split(max(1, part.numel() // count))
                turns.append([(source, part[c]) for c in chosen])
            batches = [b for turn in zip_longest(*turns) for b in turn if b is not None]
        else:  # recurrent_logits's row order: time-major over the chosen columns
            units = sequences[0].shape[1]
            chosen = torch.randperm(units).split(max(1, units // args.num_minibatches))
            windows = [(sequences[0][:, c], sequences[1][:, c]) for c in chosen]
            batches = [(gather, index[index >= 0]) for index, _ in windows]
        for k, mb in enumerate(epoch(batches)):
            mb = {key: v.to(device) for key, v in mb.items()}  # no copy on the cpu
            if sequences is not None:
                with clock.net():
                    _, logits, features = recurrent_logits(
                        model, gather.rollout["obs"], gather.rollout["memory_in"], *windows[k])
            obs, mask = mb["obs"], mb["mask"]
            critic_in = obs if "state" not in mb else torch.cat([obs, mb["state"]], 1)
            actions, old_logp = mb["actions"], mb["logp"]
            adv, ret, old_v = mb["advantages"], mb["returns"], mb["values"]
            with clock.net():
                if args.sparse_observations and sequences is None:
                    obs = SparseRows(obs)
                    critic_in = obs if "state" not in mb else critic_in
                if sequences is None:
                    logits, features, _ = model.actor_forward(obs)
                dist = MaskedCategorical(logits, mask, checked=False)  # the loss is checked
                logp = dist.log_prob(actions)
                entropy = dist.entropy().mean()
                log_ratio = logp - old_logp
                ratio = log_ratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - log_ratio).mean()
                    clipfrac = ((ratio - 1.0).abs() > args.clip_coef).float().mean()
                if args.norm_adv and adv.numel() > 1:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                value = model.value(critic_in)
                if args.clip_vloss:
                    clipped = old_v + (value - old_v).clamp(-args.clip_coef, args.clip_coef)
                    v_loss = 0.5 * torch.max((value - ret) ** 2, (clipped - ret) ** 2).mean()
                else:
                    v_loss = 0.5 * ((value - ret) ** 2).mean()
                teacher_loss = -dist.log_prob(mb["teacher"]).mean() if teacher_coef else \
                    torch.zeros(())
                loss = args.vf_coef * v_loss
                if train_actor:
                    loss = loss + pg_loss - ent_coef * entropy + teacher_coef * teacher_loss
                if head:
                    belief_loss = nn.functional.binary_cross_entropy_with_logits(
                        model.belief_logits(features), mb["other_side"].float())
                    loss = loss + args.belief_coef * belief_loss
                if not torch.isfinite(loss):
                    raise TrainingError(
                        f"non-finite loss (policy {pg_loss.item()}, value {v_loss.item()}, "
                        f"entropy {entropy.item()}): lower the learning rate; the last "
                        f"checkpoint on disk is intact")
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(trunk, args.max_grad_norm)
                if head:
                    nn.utils.clip_grad_norm_(head, args.max_grad_norm)
                optimizer.step()
            for key, v in (("policy_loss", pg_loss), ("value_loss", v_loss), ("entropy", entropy),
                           ("approx_kl", approx_kl), ("clipfrac", clipfrac),
                           ("teacher_loss", teacher_loss)):
                stats[key].append(v.item())
            if head:
                stats["belief_loss"].append(belief_loss.item())
    bad = [name for name, p in model.named_parameters() if not torch.isfinite(p).all()]
    if bad:
        raise TrainingError(f"weights became non-finite in {bad[:3]}: lower the learning rate; "
                            f"the last checkpoint on disk is intact")
    return {k: float(np.mean(v)) for k, v in stats.items()}


def _fixed_player(name: str, team: str, spec, params: dict, seed: int):
    """A scripted player by name, or a checkpoint that must be this team's (GRU ones too)."""
    if Path(name).suffix == ".pt":
        return load_policy(name, game=spec.name, team=team, seed=seed, **params)
    return make_policy(name, spec, params, seed=seed)


def _scripted_league(names, groups, spec, params, seed) -> dict[str, list]:
    """Scripted league members per group; a checkpoint joins only its own team's group."""
    league = {g: [] for g in groups}
    for name in names:
        if Path(name).suffix == ".pt":
            policy = load_policy(name, game=spec.name, seed=seed, **params)
            if policy.team not in league:
                raise ValueError(f"{name}: a checkpoint of team {policy.team!r}; this run's "
                                 f"league has groups {groups}")
            league[policy.team].append(policy)
        else:
            for g in groups:
                league[g].append(make_policy(name, spec, params, seed=seed))
    return league


@dataclass
class Table:
    """One table size's games and who plays in them: a mixed-size run has one per size, each
    with its own league (its scripted players are built for its size; its snapshots are the
    same networks' weights) and its own fixed teams' players and teacher."""

    env: object  # the batched games at this size (``envs.make_vec``)
    pool: OpponentPool  # the league here: snapshots, scripted members, fixed teams' players
    fixed_players: dict  # group -> the player of a team that is not trained
    fixed: dict  # group -> that player's league member id
    warm_start_players: list = field(default_factory=list)  # the teacher first

    @property
    def teacher(self):
        """The ``imitate`` player, who also labels the learners' positions (None: none)."""
        return self.warm_start_players[0] if self.warm_start_players else None


@dataclass
class Run:
    """What ``train`` builds before its first update."""

    groups: list[str]  # the network groups: one per team, or one "shared" for every seat
    team_group: np.ndarray  # [teams] int: the group that plays each team
    models: list[ActorCritic]  # one per group, playing at every table size
    optimizers: list[torch.optim.Optimizer]  # one per group
    trained: list[int]  # the groups that learn
    counters: dict  # global_step, updates, group_steps (saved with checkpoints)
    rng: np.random.Generator  # league draws
    sampler: torch.Generator  # action sampling
    tables: list[Table]  # one per table size, ``Args.sizes`` order

    # the first table's, which a single-size run has alone
    env = property(lambda self: self.tables[0].env)
    pool = property(lambda self: self.tables[0].pool)
    fixed_players = property(lambda self: self.tables[0].fixed_players)
    fixed = property(lambda self: self.tables[0].fixed)
    teacher = property(lambda self: self.tables[0].teacher)


def run_directory(out: str) -> Path:
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out {str(out)!r} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    return out


def table_seed(seed: int, players: int) -> int:
    """The deals of a mixed-size run's table of ``players``: a stream of its own per size (a
    single-size run deals from ``seed`` itself)."""
    return int(np.random.SeedSequence([seed, 0x7AB1E, players]).generate_state(1)[0] >> 1)


def build_run(args: Args) -> Run:
    """Seeding and threads, then the games (one engine per table size), a network and
    optimiser per group, per table the league with its scripted members and fixed teams'
    players, a resumed checkpoint, the teacher."""
    torch.set_num_threads(args.threads)
    numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    sampler = torch.Generator().manual_seed(args.seed)

    games = games_per_table(args)
    engines = []
    for n, B in zip(args.sizes, games):
        env = envs.make_vec(args.game, B, seed=table_seed(args.seed, n) if args.mixed else
                            args.seed, num_players=n, **args.params)
        for name, (low, high) in args.vary.items():
            env.vary(name, low + np.arange(B) % (high - low + 1))
        engines.append(env)
    spec = engines[0].spec
    groups = group_names(spec, args.shared_policy)
    team_group = np.zeros(len(spec.teams), np.int64) if len(groups) == 1 else \
        np.arange(len(spec.teams))
    configs = {g: model_config(engines[0], args, g) for g in groups}  # plays every size
    device = resolve_device(args.device)  # the weights are drawn on the CPU, as for "cpu"
    models = [ActorCritic(configs[g]).to(device) for g in groups]
    optimizers = [torch.optim.Adam(m.parameter_groups(), lr=args.learning_rate, eps=1e-5)
                  for m in models]
    tables = []
    for env in engines:
        pool = OpponentPool(groups, args.pool_size, rng, configs,
                            _scripted_league(args.scripted_opponents, groups, spec, env.params,
                                             args.seed), args.scripted_share,
                            args.league_sampling, args.pfsp_power, args.pfsp_decay)
        fixed_players = {groups.index(team): _fixed_player(name, team, spec, env.params,
                                                           args.seed)
                         for team, name in args.fixed_teams.items()}
        fixed = {g: pool.register(p, pinned=True) for g, p in fixed_players.items()}
        tables.append(Table(env, pool, fixed_players, fixed))
    trained = [g for g in range(len(groups)) if g not in tables[0].fixed]
    counters = {"global_step": 0, "updates": 0, "group_steps": [0] * len(groups)}
    run = Run(groups, team_group, models, optimizers, trained, counters, rng, sampler, tables)
    if args.resume:
        counters, earlier = load_run_checkpoint(Path(args.resume), run, args)
        run.counters = counters
        args.seen_before = tuple(sorted(seen_in_training(earlier)))
        # A fresh stream of games, so a resumed run does not replay the deals it already saw.
        for table in tables:
            entropy = [args.seed, counters["updates"]] + ([table.env.num_players] if args.mixed
                                                          else [])
            table.env.reset(seed=int(np.random.SeedSequence(entropy).generate_state(1)[0] >> 1))
    names = args.warm_start_names
    for table in tables:
        table.warm_start_players = [make_policy(n, spec, table.env.params, seed=args.seed)
                                    for n in names]
    for name, player in zip(names, run.tables[0].warm_start_players):
        if player.remembers:
            raise ValueError(f"imitate: {name!r} remembers its games; a teacher must judge "
                             f"each position alone")
    return run


def warm_start(run: Run, args: Args, run_start: float) -> int:
    """Every trained actor imitates the teacher (``training.imitate``); the clones join the
    league as anchors. A mixed-size run imitates at each table size in turn, its share of the
    games' share of ``imitation_steps``. Returns the updates in which the critic then learns
    alone."""
    for opt in run.optimizers:
        for param_group in opt.param_groups:
            param_group["lr"] = args.imitation_lr
    deadline = None if args.seconds is None else run_start + args.imitation_share * args.seconds
    for table in run.tables:
        steps = max(1, args.imitation_steps * table.env.num_envs // args.num_envs)
        losses = imitate(table.env, table.warm_start_players, table.fixed_players,
                         run.team_group, run.models, run.optimizers, args.num_steps, steps,
                         2 * args.num_minibatches, args.max_grad_norm, args.imitation_epochs,
                         deadline, run.rng, noise=args.imitation_noise,
                         progress=args.progress)
        table.env.reset()
        for g in run.trained:  # anchors: the teams keep meeting the opponent they started from
            table.pool.add(run.groups[g], run.models[g], anchor=True)
    if args.progress:  # each team's fit: a minority team's can lag far behind
        fits = ", ".join(f"{run.groups[g]} {v:.3f}" for g, v in losses.items())
        print(f"imitated {'+'.join(args.warm_start_names)} until "
              f"{time.perf_counter() - run_start:.0f} s "
              f"(last cross-entropy {fits}); critic warm-up for {args.critic_warmup} updates",
              flush=True, file=sys.stderr)
    return args.critic_warmup


def held_out_scoring(run: Run, args: Args, out: Path) -> tuple[dict, HeldOut | None]:
    """The policy each trained team is scored as (a free-for-all's one shared policy), and the
    held-out references that score them every ``eval_every`` updates (None: no evaluation)."""
    spec = run.env.spec
    team_models = {team: run.models[run.team_group[k]] for k, team in enumerate(spec.teams)
                   if run.team_group[k] in run.trained}
    if free_for_all(spec):  # scored as one policy in some seats, by final position
        team_models = {"shared": run.models[0]}
    if not args.eval_every:
        return team_models, None
    opponents = list(args.eval_opponents) or policy_names(args.game)

    def curves(table: Table, where: Path) -> HeldOut:
        return HeldOut(args.game, table.env.params, list(team_models), opponents,
                       args.eval_games, eval_seed(args.seed), where,
                       team_models if args.seconds is not None else None)

    if not args.mixed:
        return team_models, curves(run.tables[0], out)
    return team_models, HeldOutTables({t.env.num_players: curves(t, run_directory(
        out / f"players-{t.env.num_players}")) for t in run.tables})


def budget_fraction(args: Args, step: int, run_start: float) -> float:
    """How much of the budget is spent: steps or seconds, whichever is nearer its end."""
    by_steps = step / args.total_steps if args.total_steps else 0.0
    by_time = (time.perf_counter() - run_start) / args.seconds if args.seconds else 0.0
    return min(1.0, max(by_steps, by_time))


def no_time_for_another(args: Args, run_start: float, update_seconds: float,
                        held_out: HeldOut | None) -> bool:
    """With a ``seconds`` budget, whether another update (as long as the last) and then the last
    held-out evaluation (as long as the latest) would end past it: the run then ends now, so
    it ends near its budget rather than an update and an evaluation after it."""
    if args.seconds is None:
        return False
    needed = update_seconds + (held_out.seconds if held_out is not None else 0.0)
    return time.perf_counter() - run_start + needed > args.seconds


@dataclass
class Schedule:
    """One update's coefficients, from the share of the budget spent."""

    learning_rate: float
    ent_coef: float
    teacher_coef: dict[str, float]  # per network group (its team's ``team_teacher_*``)
    learning: dict[str, bool]  # per network group: False once past its ``team_train_until``

    @classmethod
    def at(cls, args: Args, done_fraction: float, teaching: bool, groups: list[str]) -> Schedule:
        lr = args.learning_rate * (1.0 - done_fraction if args.anneal_lr else 1.0)
        ent_coef = args.ent_coef if args.ent_coef_final is None else (
            args.ent_coef + (args.ent_coef_final - args.ent_coef) * done_fraction)
        teacher_coef, learning = {}, {}
        for g in groups:
            learning[g] = g not in args.team_train_until or \
                done_fraction < args.team_train_until[g]  # the budget's end reads 1.0 exactly
            until = args.team_teacher_until.get(g, args.teacher_until)
            decay = max(0.0, 1.0 - done_fraction / until)
            final = args.team_teacher_final.get(g, args.teacher_final)
            teacher_coef[g] = 0.0 if not (teaching and learning[g]) else (
                final + (args.teacher_coef - final) * decay)
        return cls(lr, ent_coef, teacher_coef, learning)

    def learns(self, group: str) -> bool:
        """Whether ``group`` updates now (``team_train_until``)."""
        return self.learning[group]

    @property
    def teaching(self) -> bool:
        """Whether any group still needs the teacher's labels."""
        return any(self.teacher_coef.values())

    def apply(self, optimizers, args: Args) -> None:
        for opt in optimizers:
            for param_group in opt.param_groups:  # the belief head tracks the actor to the end
                param_group["lr"] = args.learning_rate if param_group.get("belief_head") else \
                    max(self.learning_rate, 1e-3 * args.learning_rate)

    def charts(self) -> dict:
        return {"learning_rate": self.learning_rate, "ent_coef": self.ent_coef,
                **{f"teacher_coef/{g}": v for g, v in self.teacher_coef.items()},
                **{f"learning/{g}": float(v) for g, v in self.learning.items()}}


def update_team(run: Run, g: int, parts: list, args: Args, clock: Clock, schedule: Schedule,
                train_actor: bool) -> tuple[dict, float]:
    """PPO on group ``g``'s resolved transitions, ``parts``: per table size ``(buf, gather,
    rows [N])``, its rollout, its minibatch gatherer and the flat rollout rows; returns the
    losses and the critic's explained variance before the update."""
    name, model = run.groups[g], run.models[g]
    for buf, _, rows in parts:
        if not np.isfinite(buf.advantages.numpy().reshape(-1)[rows]).all():
            raise TrainingError(f"{name}: a trained transition has no finite advantage "
                                f"(a chain reached a row the learner did not play)")
    ev = explained_variance(*(np.concatenate([getattr(buf, key).numpy().reshape(-1)[rows]
                                              for buf, _, rows in parts])
                              for key in ("values", "returns")))
    buf, gather, rows = parts[0]
    sequences = None
    if model.recurrent:  # whole (game, seat) columns, run through time (one table size)
        index, restart = seat_sequences(rows, buf.B, buf.seat, buf.episode)
        sequences = (torch.from_numpy(np.where(index >= 0, rows[index], -1)),
                     torch.from_numpy(restart))
    model.train()
    losses = ppo_update(model, run.optimizers[g], gather, torch.from_numpy(rows), args, clock,
                        sequences, schedule.ent_coef, train_actor=train_actor,
                        teacher_coef=schedule.teacher_coef[name],
                        tables=[(more, torch.from_numpy(r)) for _, more, r in parts[1:]])
    run.counters["group_steps"][g] += sum(int(r.size) for _, _, r in parts)
    return losses, ev


def train(args: Args) -> dict[str, Path]:
    """Train every team; returns ``{team: path of its final checkpoint file}``."""
    run_start = time.perf_counter()  # the seconds budget covers start-up and compilation too
    args.check()
    out = run_directory(args.out)
    run = build_run(args)
    if args.resume and args.total_steps and run.counters["global_step"] >= args.total_steps:
        # resumed at its budget's end (killed after its last checkpoint): nothing left to train
        where = latest_checkpoint(Path(args.resume))
        return {group: where / f"{group}.pt" for group in run.groups}
    # the held-out baseline's games first (they cannot stop midway): the warm start's share of
    # a seconds budget then ends after them, and the rest is left for PPO
    team_models, held_out = held_out_scoring(run, args, out)
    warmup_left = 0  # a resumed run keeps only the teacher's labels
    if run.teacher is not None and not args.resume:
        warmup_left = warm_start(run, args, run_start)
    helper = ThreadPoolExecutor(1, thread_name_prefix="trainer-helper")
    clock = Clock()
    collectors = [Collector(t.env, run.models, run.team_group, len(run.groups) == 1, t.pool,
                            t.fixed, args.opponent_share, run.rng, run.sampler, args.num_steps,
                            args.centralised_critic, clock, helper,
                            t.teacher if args.teacher_coef > 0 else None,
                            args.sparse_observations) for t in run.tables]
    gathers = [Minibatches(c.buf.tensors(), helper) for c in collectors]
    log = TrainingLog(args, out, run.env.spec.teams, clock, run.counters, run_start, held_out)
    counters, last_eval, paths = run.counters, {}, {}
    while True:
        update_start = time.perf_counter()
        schedule = Schedule.at(args, budget_fraction(args, counters["global_step"], run_start),
                               collectors[0].teacher is not None, run.groups)
        schedule.apply(run.optimizers, args)
        if not schedule.teaching:
            for collector in collectors:
                collector.teacher = None  # gone for good: stop labelling

        by_table, rows_by_table = {}, []
        for table, collector in zip(run.tables, collectors):
            by_table[table.env.num_players] = collector.collect()
            buf = collector.buf
            advantages, returns, resolved = per_seat_gae(  # along each seat's own decisions
                buf.rewards, buf.values.numpy(), buf.done, buf.seat, buf.valid,
                table.env.num_players, args.gamma, args.gae_lambda, cut=buf.cut)
            buf.advantages.numpy()[:], buf.returns.numpy()[:] = advantages, returns
            trainable = (resolved & buf.learn).reshape(-1)  # the learners' own, resolved rows
            rows_by_table.append((buf, trainable, buf.group.reshape(-1)))
        stats = merged_stats(list(by_table.values()))

        losses, ev = {}, {}
        for g in run.trained:  # each team on its own transitions, at every table size
            if not schedule.learns(run.groups[g]):
                continue
            parts = [(buf, gather, rows) for (buf, trainable, group), gather in
                     zip(rows_by_table, gathers)
                     for rows in [np.flatnonzero(trainable & (group == g))] if rows.size]
            if parts:
                losses[run.groups[g]], ev[run.groups[g]] = update_team(
                    run, g, parts, args, clock, schedule, warmup_left == 0)
        warmup_left = max(0, warmup_left - 1)
        counters["global_step"] += args.num_steps * args.num_envs
        counters["updates"] += 1
        step, updates = counters["global_step"], counters["updates"]

        if updates % args.snapshot_every == 0:  # into the league
            for g in run.trained:
                if schedule.learns(run.groups[g]):  # not the same weights again
                    for table in run.tables:
                        table.pool.add(run.groups[g], run.models[g])

        budget_done = budget_fraction(args, step, run_start) >= 1.0 or no_time_for_another(
            args, run_start, time.perf_counter() - update_start, held_out)
        log.after_update(step, updates, budget_done)
        evaluated = held_out is not None and (updates % args.eval_every == 0 or budget_done)
        if evaluated:
            with clock.paused():
                last_eval = held_out.evaluate(step, updates, time.perf_counter() - run_start,
                                              team_models)

        log.update(step, stats, losses, ev, schedule.charts(), last_eval, evaluated, budget_done,
                   by_table if args.mixed else None)

        if budget_done or updates % args.checkpoint_every == 0:
            where = save_run_checkpoint(out, run, args)
            paths = {group: where / f"{group}.pt" for group in run.groups}
        if budget_done:
            break
    helper.shutdown()
    log.close(counters["global_step"], paths)
    return paths
