"""Self-play PPO over the batched engine, for any registered game.

Read top to bottom as in CleanRL's ``ppo.py``: ``Args``, seeding, environment, one actor-critic
per team (or one shared), preallocated rollout buffers, the rollout, per-seat GAE, the update,
metrics, checkpoints. What differs from single-agent PPO, and why:

- Each batched step, game ``b``'s pending decision belongs to ``current_seat[b]``; rows are split
  by the acting seat's team (``teams()``, which may change mid-game) and each team's network runs
  once on its rows.
- A transition belongs to the seat that decided. Rewards arrive when a game ends, for every seat
  at once; each seat's share is credited to its own last decision in that game. The advantage
  chain links a seat's decision to its own next decision (``training.gae``).
- A game that ends by truncation (the game's own round limit, e.g. Among Us's draw after
  ``max_rounds``) is treated as ended: the round counter is in the observation, so the limit is
  part of the game, not an artefact of the rollout.
- The action mask is stored with each transition and reused in the update, through the one
  ``MaskedCategorical``, so old and new log-probabilities are over the same legal set.
- A share of games is played against frozen past snapshots (``training.pool``); those seats'
  transitions are not trained on.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np
import torch
from torch import nn

import envs
from agents import make_policy
from agents.checkpoint import (
    CheckpointError, atomic_save, check_compatible, fresh_directory, game_metadata, load_checkpoint,
    save_policy,
)
from agents.neural import MODEL_KINDS, ActorCritic, MaskedCategorical
from training.gae import per_seat_gae
from training.pool import OpponentPool, draw_frozen_sides

TRAINER_FORMAT = "hiddendeck-trainer/1"


@dataclass
class Args:
    game: str = "amongus"
    """registered game to train on"""
    num_players: int = 6
    """seats at the table"""
    params: dict = field(default_factory=dict)
    """other game parameters (e.g. ``{"max_rounds": 20}``); defaults for the rest"""
    seed: int = 0
    """seeds the games, the networks and the sampling"""
    total_steps: int | None = 5_000_000
    """stop after this many agent decisions (every seat's, in every game); None: only ``seconds``"""
    seconds: float | None = None
    """also stop once this much wall time has passed since ``train`` was called (start-up and
    compilation included), at the end of an update"""
    out: str = "runs/ppo"
    """run directory: ``checkpoints/step_*/`` and TensorBoard logs under ``tb/``"""
    num_envs: int = 1024
    """games stepped together; large batches are what make the CPU network passes cheap"""
    num_steps: int = 32
    """batched steps per rollout (so ``num_envs * num_steps`` decisions per update)"""
    learning_rate: float = 3e-4
    gamma: float = 0.99
    """discount per own decision of a seat (not per table move)"""
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    """minibatches per epoch, per team"""
    update_epochs: int = 2
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = True
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    """stop a team's update epochs early once its approximate KL passes this"""
    model: str = "mlp"
    """"mlp", or "gru" for a recurrent actor that remembers the seat's own game"""
    hidden: tuple[int, ...] = (64, 64)
    """hidden widths of the actor and of the critic MLPs (for "gru", the last is the memory)"""
    centralised_critic: bool = False
    """the critic also reads the god-view ``state()`` (never the actor)"""
    shared_policy: bool = False
    """one policy for every seat (implied when the game has a single team)"""
    opponent_share: float = 0.2
    """chance that a side of a newly dealt game is played by a past snapshot"""
    pool_size: int = 20
    """snapshots kept per team"""
    scripted_opponents: tuple[str, ...] = ()
    """scripted players (``agents.make_policy`` names: "random", "heuristic") added to every
    team's pool beside the snapshots. Note: training against the opponent you evaluate against
    is a different claim from self-play; reports must say which was used"""
    scripted_share: float = 0.5
    """chance that a rollout's pool pick is a scripted player rather than a snapshot"""
    fixed_teams: dict = field(default_factory=dict)
    """teams that are not trained, each played in every game by a scripted player
    (``{"crew": "heuristic"}`` trains the impostor against the heuristic crew only). Their
    checkpoints keep the untrained network; ``training.report`` skips them"""
    imitate: str | None = None
    """warm start: before PPO, every trained team's actor learns to choose as this scripted
    player (``agents.make_policy`` name, e.g. "heuristic") does, by cross-entropy on its
    decisions in games it plays on every seat that is not fixed. Not on ``--resume``; MLP only"""
    imitation_steps: int = 2_000_000
    """agent decisions (every seat's) played for the warm start; not counted in total_steps"""
    snapshot_every: int = 10
    """updates between snapshots added to the pool"""
    checkpoint_every: int = 50
    """updates between checkpoints (one is always written at the end)"""
    threads: int = 1
    """CPU threads for torch and for the engine's parallel loops. One by default: the per-op
    tensors here are small, and on shared cores extra OpenMP threads spin against the neighbours
    (measured 3-6x slower with 2 threads on the 2-core, 3-user development machine)"""
    resume: str | None = None
    """a checkpoint directory (``.../step_N``) or a run directory (its latest checkpoint)"""
    tensorboard: bool = True
    progress: bool = True
    """a progress line on stderr with steps/s and current win rates"""

    def check(self) -> None:
        """Reject bad settings before anything is built, naming the field."""
        if self.game not in envs.registry:
            raise ValueError(f"unknown game {self.game!r}; registered: {list(envs.registry)}")
        positive = ("num_envs", "num_steps", "num_minibatches", "update_epochs",
                    "snapshot_every", "checkpoint_every", "threads")
        for name in positive:
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
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
        if not self.hidden or any(h < 1 for h in self.hidden):
            raise ValueError(f"hidden must list positive widths, got {self.hidden}")
        if "num_players" in self.params:
            raise ValueError("give num_players as its own argument, not in params")
        if self.imitate is not None and self.model != "mlp":
            raise ValueError("imitate warms up MLP actors only (a GRU would need whole games)")
        if not isinstance(self.imitation_steps, int) or self.imitation_steps < 1:
            raise ValueError(f"imitation_steps must be a positive integer, "
                             f"got {self.imitation_steps!r}")
        if self.fixed_teams:
            teams = envs.registry[self.game].teams
            unknown = sorted(set(self.fixed_teams) - set(teams))
            if unknown:
                raise ValueError(f"fixed_teams names {unknown}; {self.game}'s teams are {teams}")
            if len(self.fixed_teams) == len(teams) or self.shared_policy or len(teams) == 1:
                raise ValueError("fixed_teams must leave at least one team of its own to train")


class Clock:
    """Splits wall time into network work (forward passes, the masked distribution and
    sampling, backward, optimiser) and everything else (engine, masks, bookkeeping: gathering
    the network's input rows, storing its outputs, scripted players' decisions), the figure the
    performance target is about.

    ``restart()`` after the first update drops numba's and torch's one-off compilation and
    warm-up from the rates. Process CPU time is kept too: on a shared machine, steps per
    CPU-second says what the code costs when wall time says how busy the neighbours are.
    """

    def __init__(self):
        self.restart()

    def restart(self) -> None:
        self.start = time.perf_counter()
        self.cpu_start = time.process_time()
        self.network = 0.0

    @contextmanager
    def net(self):
        t = time.perf_counter()
        try:
            yield
        finally:
            self.network += time.perf_counter() - t

    @property
    def wall(self) -> float:
        return time.perf_counter() - self.start

    @property
    def cpu(self) -> float:
        return time.process_time() - self.cpu_start

    @property
    def outside_share(self) -> float:
        return 1.0 - self.network / max(self.wall, 1e-9)


class Progress:
    """One status line: rewritten in place on a terminal, a plain line every 10 s otherwise."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.last_print = 0.0

    def show(self, text: str, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.tty:
            sys.stderr.write("\r" + text.ljust(120)[:160] + ("\n" if final else ""))
            sys.stderr.flush()
        elif final or now - self.last_print >= 10.0:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
            self.last_print = now


def group_names(spec, shared: bool) -> list[str]:
    return ["shared"] if shared or len(spec.teams) == 1 else list(spec.teams)


def model_config(env, args: Args) -> dict:
    critic_input = env.observation_size + (env.state_size if args.centralised_critic else 0)
    return {
        "kind": args.model,
        "observation_size": env.observation_size,
        "num_actions": env.num_actions,
        "critic_input_size": critic_input,
        "hidden": list(args.hidden),
    }


def checkpoint_metadata(env, args: Args, group: str, model: ActorCritic, steps: int,
                        group_steps: int) -> dict:
    meta = game_metadata(args.game, {"num_players": args.num_players, **args.params})
    meta.update(
        team=group,
        teams=list(env.spec.teams),
        steps=steps,
        team_steps=group_steps,
        seed=args.seed,
        model=model.config,
        state_fingerprint=env.state_layout.fingerprint() if args.centralised_critic else None,
        args={k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(args).items()},
    )
    return meta


def save_run_checkpoint(out: Path, env, args, groups, models, optimizers, pool, counters) -> Path:
    """Every team's policy and the trainer state, in a directory that appears all at once:
    written under a temporary name and renamed, so ``step_N/`` is complete or absent."""
    final = out / "checkpoints" / f"step_{counters['global_step']:012d}"
    tmp = final.with_name(f".{final.name}.tmp")
    fresh_directory(tmp)  # a killed save may have left partial files there
    for g, name in enumerate(groups):
        meta = checkpoint_metadata(env, args, name, models[g], counters["global_step"],
                                   counters["group_steps"][g])
        save_policy(tmp / f"{name}.pt", meta, models[g].state_dict(),
                    optimizer=optimizers[g].state_dict())
    atomic_save({"format": TRAINER_FORMAT, "counters": counters, "pool": pool.state_dict()},
                tmp / "trainer.pt")
    if final.exists():  # the same step saved twice (resume with no progress): replace it
        stale = final.with_name(f".{final.name}.stale")
        final.rename(stale)
        tmp.rename(final)
        for f in stale.iterdir():
            f.unlink()
        stale.rmdir()
    else:
        tmp.rename(final)
    return final


def latest_checkpoint(path: Path) -> Path:
    """``path`` itself if it is a checkpoint directory, else the newest ``checkpoints/step_*``."""
    if (path / "trainer.pt").is_file():
        return path
    steps = sorted((path / "checkpoints").glob("step_*"))
    if not steps:
        raise CheckpointError(f"{path}: neither a checkpoint directory nor a run with checkpoints")
    return steps[-1]


def load_run_checkpoint(path: Path, env, args, groups, models, optimizers, pool) -> dict:
    """Restore weights, optimisers and pool; refuse a checkpoint from another game or setup."""
    path = latest_checkpoint(path)
    params = {"num_players": args.num_players, **args.params}
    for g, name in enumerate(groups):
        file = path / f"{name}.pt"
        ckpt = load_checkpoint(file)
        meta = ckpt["metadata"]
        check_compatible(meta, args.game, params, file)
        if meta["model"] != models[g].config:
            raise CheckpointError(
                f"{file}: model {meta['model']} differs from this run's {models[g].config} "
                f"(hidden sizes or centralised critic changed)"
            )
        if args.centralised_critic and meta["state_fingerprint"] != env.state_layout.fingerprint():
            raise CheckpointError(f"{file}: the god-view state layout changed; retrain the critic")
        models[g].load_state_dict(ckpt["model"])
        if "optimizer" in ckpt:
            optimizers[g].load_state_dict(ckpt["optimizer"])
    try:
        trainer = torch.load(path / "trainer.pt", map_location="cpu", weights_only=True)
    except Exception as e:
        raise CheckpointError(f"{path / 'trainer.pt'}: unreadable trainer state: {e}") from e
    if not isinstance(trainer, dict) or trainer.get("format") != TRAINER_FORMAT:
        raise CheckpointError(f"{path / 'trainer.pt'}: not a {TRAINER_FORMAT} file")
    pool.load_state_dict(trainer["pool"])
    return trainer["counters"]


def seat_sequences(batch_rows: np.ndarray, B: int, seat: np.ndarray, done: np.ndarray):
    """A team's transitions as per-seat sequences, for back-propagation through a GRU.

    ``batch_rows`` are flat indices ``t * B + b`` into the rollout. Returns ``index [L, S]``
    (positions into ``batch_rows``, -1 as padding; one column per (game, seat), in time order)
    and ``restart [L, S]``: where the memory restarts from the rollout's stored value (the
    first decision of the rollout, and the first of each new game, where it is zero).
    """
    t, b = np.divmod(batch_rows, B)
    s = seat.reshape(-1)[batch_rows]
    order = np.lexsort((t, s, b))
    key = b[order] * (s.max() + 1) + s[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    column = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, order.size]))
    position = np.arange(order.size) - starts[column]
    index = np.full((position.max() + 1, starts.size), -1, np.int64)
    index[position, column] = order
    previous_done = np.r_[False, done.reshape(-1)[batch_rows[order]][:-1]]
    restart = np.zeros(index.shape, np.bool_)
    restart[position, column] = (position == 0) | previous_done
    return index, restart


def recurrent_logits(model, obs, memory_in, index, restart) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits of the valid entries of ``index [L, S]`` (time-major order), the GRU memory
    carried along each column; returns ``(rows, logits)``."""
    memory = torch.zeros((index.shape[1], model.memory_size))
    rows, logits = [], []
    for step in range(index.shape[0]):
        valid = index[step] >= 0
        at = index[step].clamp_min(0)
        memory = torch.where(restart[step, :, None], memory_in[at], memory)
        out, new_memory = model.actor_step(obs[at], memory)
        memory = torch.where(valid[:, None], new_memory, memory)
        rows.append(index[step][valid])
        logits.append(out[valid])
    return torch.cat(rows), torch.cat(logits)


def imitate(env, teacher, fixed: dict, team_group, models, optimizers, args: Args) -> float:
    """Fit each trained group's actor to ``teacher``'s choices (cross-entropy through the one
    masked distribution), online: ``num_steps`` batched steps of games the teacher plays (fixed
    teams by their own players), then one epoch over them. Returns the last mean loss.

    PPO from scratch can lock onto a safe habit before it finds a risky skill (the Among Us
    impostor stops sabotaging long before it could learn to guess colours); starting from a
    competent player lets PPO improve on the skill instead of having to find it.
    """
    B, T = env.num_envs, args.num_steps
    rows = np.arange(B)
    learners = [g for g in range(len(models)) if g not in fixed]
    loss = torch.zeros(())
    for _ in range(max(1, args.imitation_steps // (B * T))):
        seen = {g: ([], [], []) for g in learners}
        for _ in range(T):
            group = team_group[env.teams()[rows, env.current_seat]]
            actions = np.empty(B, np.int64)
            for g in range(len(models)):
                idx = np.flatnonzero(group == g)
                if idx.size:
                    obs, mask = env.observation[idx], env.action_mask[idx]
                    actions[idx] = fixed.get(g, teacher).act(obs, mask)
                    if g not in fixed:
                        for store, value in zip(seen[g], (obs, mask, actions[idx])):
                            store.append(value)
            env.step(actions)
        for g in learners:
            obs, mask, chosen = (torch.from_numpy(np.concatenate(v)) for v in seen[g])
            minibatch = max(1, chosen.shape[0] // args.num_minibatches)
            for mb in torch.randperm(chosen.shape[0]).split(minibatch):
                logits, _ = models[g].actor_step(obs[mb])
                loss = -MaskedCategorical(logits, mask[mb]).log_prob(chosen[mb]).mean()
                optimizers[g].zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(models[g].parameters(), args.max_grad_norm)
                optimizers[g].step()
    return loss.item()


class Minibatches:
    """Minibatch rows gathered straight from the flat rollout tensors into reused buffers, one
    minibatch ahead on a helper thread.

    Gathering a team's rows into a batch first and then each minibatch from that batch copied
    every transition once more per update, and each fresh multi-megabyte tensor paid its page
    faults again; with Menace's 741-wide observations those copies were about a fifth of the
    trainer's wall time. What is left is one gather per minibatch; torch releases the GIL in
    ``index_select``, so on a second core the next minibatch's gather overlaps the network's
    work on this one. It writes the other of two buffer sets: a minibatch is consumed (forward,
    backward, optimiser step) before the gather after next overwrites its buffers.
    """

    def __init__(self, rollout: dict[str, torch.Tensor], helper: ThreadPoolExecutor):
        self.rollout = rollout  # each [T * B, ...]
        self.buffers: list[dict[str, torch.Tensor]] = [{}, {}]
        self.helper = helper

    def gather(self, rows: torch.Tensor, into: int) -> dict[str, torch.Tensor]:  # [N] flat rows
        n = rows.numel()
        buffers, out = self.buffers[into], {}
        for key, source in self.rollout.items():
            buffer = buffers.get(key)
            if buffer is None or buffer.shape[0] < n:
                buffer = buffers[key] = source.new_empty((n, *source.shape[1:]))
            out[key] = torch.index_select(source, 0, rows, out=buffer[:n])
        return out

    def epoch(self, rows: list[torch.Tensor]) -> Iterator[dict[str, torch.Tensor]]:
        """The minibatches of the flat rows ``rows[k]``, in order."""
        ahead = self.helper.submit(self.gather, rows[0], 0)
        for k in range(len(rows)):
            minibatch = ahead.result()
            if k + 1 < len(rows):
                ahead = self.helper.submit(self.gather, rows[k + 1], (k + 1) % 2)
            yield minibatch


def ppo_update(model, optimizer, gather: Minibatches, rows: torch.Tensor, args: Args,
               clock: Clock, sequences=None) -> dict:
    """Clipped PPO on one team's transitions, the flat rollout rows ``rows [N]``; the stored
    masks rebuild the same distribution.

    Feed-forward: minibatches are random transitions. Recurrent (``sequences``: the index of
    ``seat_sequences`` translated to flat rollout rows, and its restarts): minibatches are
    random (game, seat) columns, run through time.
    """
    units = rows.numel() if sequences is None else sequences[0].shape[1]
    minibatch = max(1, units // args.num_minibatches)
    stats = {"policy_loss": [], "value_loss": [], "entropy": [], "approx_kl": [], "clipfrac": []}
    for _ in range(args.update_epochs):
        chosen = torch.randperm(units).split(minibatch)
        if sequences is None:
            minibatch_rows = [rows[c] for c in chosen]
        else:  # recurrent_logits's row order: time-major over the chosen columns
            windows = [(sequences[0][:, c], sequences[1][:, c]) for c in chosen]
            minibatch_rows = [index[index >= 0] for index, _ in windows]
        kls = []
        for k, mb in enumerate(gather.epoch(minibatch_rows)):
            if sequences is not None:
                with clock.net():
                    _, logits = recurrent_logits(model, gather.rollout["obs"],
                                                 gather.rollout["memory_in"], *windows[k])
            obs, mask = mb["obs"], mb["mask"]
            critic_in = obs if "state" not in mb else torch.cat([obs, mb["state"]], 1)
            actions, old_logp = mb["actions"], mb["logp"]
            adv, ret, old_v = mb["advantages"], mb["returns"], mb["values"]
            with clock.net():
                if sequences is None:
                    logits, _ = model.actor_step(obs)
                dist = MaskedCategorical(logits, mask)
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
                loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
            kls.append(approx_kl.item())
            for key, v in (("policy_loss", pg_loss), ("value_loss", v_loss), ("entropy", entropy),
                           ("approx_kl", approx_kl), ("clipfrac", clipfrac)):
                stats[key].append(v.item())
        if args.target_kl is not None and np.mean(kls) > args.target_kl:
            break
    return {k: float(np.mean(v)) for k, v in stats.items()}


def train(args: Args) -> dict[str, Path]:
    """Train every team; returns ``{team: path of its final checkpoint file}``."""
    run_start = time.perf_counter()  # the seconds budget covers start-up and compilation too
    args.check()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    # --- seeding and threads -------------------------------------------------------------------
    torch.set_num_threads(args.threads)
    numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    sampler = torch.Generator().manual_seed(args.seed)

    # --- environment and networks --------------------------------------------------------------
    env = envs.make_vec(args.game, args.num_envs, seed=args.seed, num_players=args.num_players,
                        **args.params)
    spec, B, T, P = env.spec, env.num_envs, args.num_steps, env.num_players
    groups = group_names(spec, args.shared_policy)
    shared = len(groups) == 1
    team_group = np.zeros(len(spec.teams), np.int64) if shared else np.arange(len(spec.teams))
    num_sides = P if shared else len(spec.teams)  # what the opponent pool freezes: seats or teams
    config = model_config(env, args)
    models = [ActorCritic(config) for _ in groups]
    optimizers = [torch.optim.Adam(m.parameters(), lr=args.learning_rate, eps=1e-5) for m in models]
    frozen_models = [OpponentPool.frozen_copy(m) for m in models]
    scripted = {name: make_policy(name, spec, env.params, seed=args.seed)
                for name in args.scripted_opponents}
    pool = OpponentPool(groups, args.pool_size, rng, scripted, args.scripted_share)
    fixed = {groups.index(team): make_policy(name, spec, env.params, seed=args.seed)
             for team, name in args.fixed_teams.items()}
    fixed_side = np.isin(np.arange(num_sides), list(fixed))  # fixed teams are non-shared groups
    playing_for = [None] * len(groups)  # per group: the scripted pool member of this rollout
    counters = {"global_step": 0, "updates": 0, "group_steps": [0] * len(groups)}
    if args.resume:
        counters = load_run_checkpoint(Path(args.resume), env, args, groups, models, optimizers,
                                       pool)
        # A fresh stream of games, so a resumed run does not replay the deals it already saw.
        env.reset(seed=int(np.random.SeedSequence([args.seed, counters["updates"]])
                           .generate_state(1)[0] >> 1))
    if args.imitate and not args.resume:
        teacher = make_policy(args.imitate, spec, env.params, seed=args.seed)
        loss = imitate(env, teacher, fixed, team_group, models, optimizers, args)
        if args.progress:
            print(f"imitated {args.imitate} for {args.imitation_steps:,} decisions "
                  f"(last cross-entropy {loss:.3f})", file=sys.stderr)
    writer = None
    if args.tensorboard:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(out / "tb"))
        writer.add_text("args", json.dumps(asdict(args), default=str))

    # --- preallocated rollout buffers (numpy views share the torch tensors' memory) ------------
    D, A = env.observation_size, env.num_actions
    obs_t = torch.zeros((T, B, D))
    mask_t = torch.zeros((T, B, A), dtype=torch.bool)
    state_t = torch.zeros((T, B, env.state_size)) if args.centralised_critic else None
    actions_t = torch.zeros((T, B), dtype=torch.int64)
    logp_t, values_t = torch.zeros((T, B)), torch.zeros((T, B))
    actions_np = actions_t.numpy()
    logp_np, values_np = logp_t.numpy(), values_t.numpy()
    advantages_t, returns_t = torch.zeros((T, B)), torch.zeros((T, B))
    advantages_np, returns_np = advantages_t.numpy(), returns_t.numpy()
    rewards_np = np.zeros((T, B), np.float32)
    done_np = np.zeros((T, B), np.bool_)
    seat_np = np.zeros((T, B), np.int64)
    group_np = np.zeros((T, B), np.int64)
    learn_np = np.zeros((T, B), np.bool_)
    last = np.full((B, P), -1, np.int64)  # flat index t * B + b of each seat's latest decision
    rows = np.arange(B)
    frozen_side = np.zeros((B, num_sides), np.bool_)
    frozen_side[:, fixed_side] = True
    game_length = np.zeros(B, np.int64)
    pool_has = np.zeros(num_sides, np.bool_)
    # A recurrent actor's memory, per team network, game and seat (learner and snapshot apart),
    # and the memory each transition started from, for the update.
    M = models[0].memory_size
    memory = torch.zeros((len(groups), B, P, M))
    frozen_memory = torch.zeros((len(groups), B, P, M))
    memory_in_t = torch.zeros((T, B, M))
    rollout = {"obs": obs_t, "mask": mask_t, "actions": actions_t, "logp": logp_t,
               "values": values_t, "advantages": advantages_t, "returns": returns_t}
    if state_t is not None:
        rollout["state"] = state_t
    if M:
        rollout["memory_in"] = memory_in_t
    # One helper thread for copies that can overlap the network (torch releases the GIL in
    # them): the next minibatch's gather in the update, and storing each step's observations
    # and masks in the rollout while the networks choose.
    helper = ThreadPoolExecutor(1, thread_name_prefix="trainer-helper")
    gather = Minibatches({k: v.flatten(0, 1) for k, v in rollout.items()}, helper)
    # Step t's observations and masks regrouped by the network that plays each game (one
    # gather per step into reused buffers), so that each network's rows are one slice.
    obs_by_player, mask_by_player = torch.zeros((B, D)), torch.zeros((B, A), dtype=torch.bool)

    def store_step(t: int, observation: torch.Tensor, action_mask: torch.Tensor) -> None:
        obs_t[t].copy_(observation)
        mask_t[t].copy_(action_mask)

    def forward(g: int, frozen: bool, t: int, idx: np.ndarray, part: slice):
        """Sample actions for rows ``idx`` of step ``t`` (``part`` of ``obs_by_player`` and
        ``mask_by_player``); store them (and log-prob, value).

        Only the network's own work (passes, masked distribution, sampling) is on the clock;
        a scripted player's decisions, gathering the rows and storing the results are not.
        """
        obs, mask = obs_by_player[part], mask_by_player[part]
        if frozen and playing_for[g] is not None:
            actions_np[t, idx] = playing_for[g].act(obs.numpy(), mask.numpy())
            return
        model = frozen_models[g] if frozen else models[g]
        it = torch.from_numpy(idx)
        critic_in = obs if state_t is None or frozen else torch.cat(
            [obs, state_t[t].index_select(0, it)], 1)
        h = None
        if M:
            store = frozen_memory[g] if frozen else memory[g]
            at_seat = torch.from_numpy(seat_np[t, idx])
            h = store[it, at_seat]
            memory_in_t[t, it] = h
        with clock.net():
            logits, h = model.actor_step(obs, h)
            value = None if frozen else model.value(critic_in)
            dist = MaskedCategorical(logits, mask)
            a = dist.sample(sampler)
            logp = None if frozen else dist.log_prob(a)
        if M:
            store[it, at_seat] = h
        actions_np[t, idx] = a.numpy()
        if not frozen:
            values_np[t, idx] = value.numpy()
            logp_np[t, idx] = logp.numpy()

    clock = Clock()
    progress = Progress(args.progress)
    start_step = measured_from = counters["global_step"]
    wins = np.zeros(len(spec.teams) + 1, np.int64)  # per team, then draws; reset each update
    finished_lengths: list[int] = []
    paths: dict[str, Path] = {}

    start_updates = counters["updates"]

    def budget_reached(step: int, since: float) -> bool:
        return (args.total_steps is not None and step >= args.total_steps) or (
            args.seconds is not None and time.perf_counter() - since >= args.seconds
        )

    while True:
        # --- rollout ---------------------------------------------------------------------------
        for g in range(len(groups)):
            if g in fixed:
                playing_for[g] = fixed[g]
            elif pool.has(groups[g]):
                playing_for[g] = pool.draw(groups[g], frozen_models[g])
                frozen_memory[g] = 0.0  # another snapshot: the old one's memories mean nothing
        pool_has[:] = [pool.has(groups[0 if shared else k]) for k in range(num_sides)]
        last[:] = -1
        rewards_np[:] = 0.0
        done_np[:] = False
        wins[:] = 0
        finished_lengths.clear()
        for t in range(T):
            if state_t is not None:
                state_t[t] = torch.from_numpy(env.state())
            seat = env.current_seat
            team = env.teams()[rows, seat]
            group = team_group[team]
            frozen = frozen_side[rows, seat if shared else team]
            seat_np[t], group_np[t], learn_np[t] = seat, group, ~frozen
            player = 2 * group + frozen  # each group's learner, then its frozen pool member
            order = np.argsort(player, kind="stable")
            bounds = np.searchsorted(player[order], np.arange(2 * len(groups) + 1))
            observation = torch.from_numpy(env.observation)
            action_mask = torch.from_numpy(env.action_mask)
            by_player = torch.from_numpy(order)
            torch.index_select(observation, 0, by_player, out=obs_by_player)
            torch.index_select(action_mask, 0, by_player, out=mask_by_player)
            stored = helper.submit(store_step, t, observation, action_mask)
            with torch.inference_mode():
                for k in range(2 * len(groups)):
                    if bounds[k + 1] > bounds[k]:
                        part = slice(bounds[k], bounds[k + 1])
                        forward(k // 2, bool(k % 2), t, order[part], part)
            stored.result()  # the engine overwrites its observations in place
            last[rows, seat] = t * B + rows
            rewards, terminated, truncated = env.step(actions_np[t])
            game_length += 1
            scored = np.nonzero((rewards != 0) & (last >= 0))
            if scored[0].size:
                rewards_np.reshape(-1)[last[scored]] += rewards[scored]
            ended = np.flatnonzero(terminated | truncated)
            if ended.size:
                ended_last = last[ended]
                done_np.reshape(-1)[ended_last[ended_last >= 0]] = True
                last[ended] = -1
                if M:
                    memory[:, ended] = 0.0
                    frozen_memory[:, ended] = 0.0
                np.add.at(wins, env.winner[ended], 1)  # winner -1 (draw) lands in the last slot
                finished_lengths.extend(game_length[ended].tolist())
                game_length[ended] = 0
                frozen_side[ended] = draw_frozen_sides(rng, ended.size, num_sides,
                                                       args.opponent_share, pool_has, fixed_side)

        # --- bootstrap each seat still waiting for its next decision, then per-seat GAE --------
        bootstrap = np.zeros((B, P), np.float32)
        if (last >= 0).any():
            team_now = env.teams()
            state_now = torch.from_numpy(env.state()) if state_t is not None else None
            with torch.inference_mode():
                for p in range(P):
                    waiting = last[:, p] >= 0
                    if not waiting.any():
                        continue
                    critic_in = torch.from_numpy(env.observe(p))
                    if state_now is not None:
                        critic_in = torch.cat([critic_in, state_now], 1)
                    for g in range(len(groups)):
                        idx = np.flatnonzero(waiting & (team_group[team_now[:, p]] == g))
                        if idx.size:
                            rows_in = critic_in.index_select(0, torch.from_numpy(idx))
                            with clock.net():
                                value = models[g].value(rows_in)
                            bootstrap[idx, p] = value.numpy()
        advantages_np[:], returns_np[:] = per_seat_gae(
            rewards_np, values_np, done_np, seat_np, bootstrap, args.gamma, args.gae_lambda)

        # --- update each team on its own live transitions ---------------------------------------
        update_stats = {}
        for g, name in enumerate(groups):
            rows_g = np.flatnonzero(learn_np.reshape(-1) & (group_np.reshape(-1) == g))
            if rows_g.size == 0:
                continue
            sequences = None
            if M:
                index, restart = seat_sequences(rows_g, B, seat_np, done_np)
                sequences = (torch.from_numpy(np.where(index >= 0, rows_g[index], -1)),
                             torch.from_numpy(restart))
            models[g].train()
            update_stats[name] = ppo_update(models[g], optimizers[g], gather,
                                            torch.from_numpy(rows_g), args, clock, sequences)
            counters["group_steps"][g] += int(rows_g.size)
        counters["global_step"] += T * B
        counters["updates"] += 1
        if counters["updates"] % args.snapshot_every == 0:
            for g, name in enumerate(groups):
                if g not in fixed:
                    pool.add(name, models[g])

        # --- metrics -----------------------------------------------------------------------------
        step = counters["global_step"]
        if counters["updates"] == start_updates + 1 and not budget_reached(step, run_start):
            clock.restart()  # the first update paid for compilation: measure from here on
            measured_from = step
        sps = (step - measured_from) / clock.wall if step > measured_from else 0.0
        games = max(int(wins.sum()), 1)
        win_rates = {team: wins[k] / games for k, team in enumerate(spec.teams)}
        if writer is not None:
            for name, stats in update_stats.items():
                for key, value in stats.items():
                    writer.add_scalar(f"losses/{key}/{name}", value, step)
            for team, rate in win_rates.items():
                writer.add_scalar(f"charts/win_rate/{team}", rate, step)
            writer.add_scalar("charts/draw_rate", wins[-1] / games, step)
            if finished_lengths:
                writer.add_scalar("charts/game_length", np.mean(finished_lengths), step)
            writer.add_scalar("charts/steps_per_second", sps, step)
            writer.add_scalar("perf/outside_network_share", clock.outside_share, step)
        budget_done = budget_reached(step, run_start)
        rates = " ".join(f"{team} {rate:.2f}" for team, rate in win_rates.items())
        progress.show(
            f"[{args.game}] {step:,}{'' if args.total_steps is None else f'/{args.total_steps:,}'}"
            f" steps  {time.perf_counter() - run_start:,.0f} s  {sps:,.0f} steps/s  "
            f"wins: {rates} draw {wins[-1] / games:.2f}  outside-net {clock.outside_share:.0%}",
            final=budget_done,
        )

        # --- checkpoints -------------------------------------------------------------------------
        if budget_done or counters["updates"] % args.checkpoint_every == 0:
            where = save_run_checkpoint(out, env, args, groups, models, optimizers, pool, counters)
            paths = {name: where / f"{name}.pt" for name in groups}
        if budget_done:
            break
    helper.shutdown()

    measured = counters["global_step"] - measured_from
    summary = {
        "steps": counters["global_step"] - start_step,
        "wall_seconds": time.perf_counter() - run_start,
        "measured_steps": measured,
        "steps_per_second": sps,
        "steps_per_cpu_second": measured / max(clock.cpu, 1e-9),
        "network_seconds": clock.network,
        "outside_network_share": clock.outside_share,
        "win_rates_last_rollout": {k: float(v) for k, v in win_rates.items()},
        "checkpoints": {k: str(v) for k, v in paths.items()},
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    if args.progress:
        print(
            f"trained {summary['steps']:,} agent-steps in {summary['wall_seconds']:.1f} s; "
            + ("after the first update: " if measured_from > start_step
               else "a single update, so start-up included: ")
            + f"{sps:,.0f} steps/s "
            f"({summary['steps_per_cpu_second']:,.0f} per CPU-second), "
            f"time outside the network {clock.outside_share:.1%}",
            file=sys.stderr,
        )
    if writer is not None:
        writer.close()
    return paths
