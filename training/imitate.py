"""Imitation warm start: each trained team's actor first learns to choose as a scripted player.

PPO from scratch can lock onto a safe habit before it finds a risky skill (the Among Us
impostor stops sabotaging long before it could learn to guess colours); starting from a
competent player lets PPO improve on the skill instead of having to find it. Only the actor is
fitted here: the trainer then warms the critic up on the imitated actor's own games before the
actor moves (``Args.critic_warmup``), so PPO's first advantages are not a random critic's noise.

A recurrent (GRU) actor imitates whole seat trajectories: while the teachers play, it runs
along each seat's own decisions and remembers them (its memory restarts with each game, as in
play), and each round is then fitted as the PPO update fits a GRU (``training.recurrent``): one
column per (game slot, seat), in time order, from the memory each column started with, so the
memory learns to carry what the teacher's choices depended on (truncated back-propagation
through time over the round).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from agents.neural import MaskedCategorical
from agents.policy import Policy, choose
from training.recurrent import recurrent_logits, seat_sequences


def imitate(env, teachers: list[Policy], fixed: dict[int, Policy], team_group: np.ndarray,
            models, optimizers, num_steps: int, decisions: int, num_minibatches: int,
            max_grad_norm: float, epochs: int = 1, deadline: float | None = None,
            rng: np.random.Generator | None = None, noise: float = 0.0,
            progress: bool = False) -> dict[int, float]:
    """Fit each trained group's actor to the teachers' choices (cross-entropy through the one
    masked distribution), online: ``num_steps`` batched steps of games the teachers play (each
    game one teacher on every seat, drawn with ``rng`` when the game is dealt; fixed teams by
    their own players), then ``epochs`` epochs over them, until ``decisions`` decisions (every
    seat's) have been played, or ``time.perf_counter()`` passes ``deadline``. The deadline is
    checked at every batched step and every minibatch, so a slow machine overruns it by one of
    those, not by a whole round; once it has passed, each team fits one more minibatch at most.
    Returns each trained group's last epoch's mean loss, ``{group: cross-entropy}`` (a team with
    no decision yet is left out): the teams fit apart, and a minority team (the Among Us impostor
    decides 1 in 6 times at 6 players) can lag far behind the majority's fit. ``noise``: the share
    of decisions (every seat's) played at random among the legal actions, drawn with ``rng``;
    each is still stored with the teacher's choice as its label, so the clone also learns what
    the teacher would do in the states its mistakes and other players' lead to (DART).
    ``progress``: a bar of the decisions played (``evaluation.progress``)."""
    from evaluation.progress import bar

    B, T = env.num_envs, num_steps
    if (len(teachers) > 1 or noise) and rng is None:
        raise ValueError("several teachers, or noise, need an rng to draw with")
    rows = np.arange(B)
    who = np.stack([rows, env.current_seat], 1)
    playing = np.zeros(B, np.int64) if len(teachers) == 1 else rng.integers(len(teachers), size=B)
    learners = [g for g in range(len(models)) if g not in fixed]
    P = env.num_players
    # the recurrent learners' memories, [B, P, M] each, kept across rounds as in play
    memory = {g: torch.zeros((B, P, models[g].memory_size)) for g in learners
              if models[g].recurrent}
    losses: dict[int, float] = {}
    rounds = max(1, decisions // (B * T))
    shown = bar(rounds * B * T, "imitation warm start", unit="decision", show=progress)

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    for _ in range(rounds):
        if late():
            break
        seen = {g: _Round() for g in learners}
        for t in range(T):
            if t and late():
                break
            group = team_group[env.teams()[rows, env.current_seat]]
            who[:, 1] = env.current_seat
            actions = np.empty(B, np.int64)
            for g in range(len(models)):
                for k, teacher in enumerate(teachers):
                    idx = np.flatnonzero((group == g) & (playing == k))
                    if idx.size:
                        obs, mask = env.observation[idx], env.action_mask[idx]
                        actions[idx] = choose(fixed.get(g, teacher), obs, mask, who[idx])
                        if g not in fixed:
                            seen[g].decided(obs, mask, actions[idx])
                        if g in memory:
                            seat = env.current_seat[idx]
                            before = memory[g][idx, seat]
                            device = next(models[g].parameters()).device
                            with torch.inference_mode():
                                _, after = models[g].actor_step(
                                    torch.from_numpy(obs).to(device), before.to(device))
                            memory[g][idx, seat] = after.cpu()
                            seen[g].remembered(t * B + idx, seat,
                                               env.records["episode"][idx], before)
            if noise:  # the labels are stored: what is played may now differ from them
                played = np.flatnonzero(rng.random(B) < noise)
                actions[played] = _random_legal(rng, env.action_mask[played])
            shown.update(B)
            _, terminated, truncated = env.step(actions)
            ended = np.flatnonzero(terminated | truncated)
            if ended.size:
                for g in memory:
                    memory[g][ended] = 0.0
                for policy in {*teachers, *fixed.values()}:
                    policy.game_over(ended)
                if len(teachers) > 1:
                    playing[ended] = rng.integers(len(teachers), size=ended.size)
        for g in learners:
            if not seen[g].obs:  # cut short before this team's first decision
                continue
            device = next(models[g].parameters()).device  # ``Args.device``
            obs, mask, chosen = (torch.from_numpy(np.concatenate(v)).to(device)
                                 for v in (seen[g].obs, seen[g].mask, seen[g].chosen))
            columns = None
            if g in memory:  # whole seat trajectories: minibatches of (game slot, seat) columns
                columns = _seat_columns(seen[g], B, t + 1)
                memory_in = torch.cat(seen[g].memories).to(device)
            units = chosen.shape[0] if columns is None else columns[0].shape[1]
            minibatch = max(1, units // num_minibatches)
            for _ in range(epochs):
                epoch = []
                for mb in torch.randperm(units).split(minibatch):
                    if epoch and late():
                        break
                    if columns is None:
                        logits, _ = models[g].actor_step(obs[mb])
                    else:
                        mb, logits, _ = recurrent_logits(models[g], obs, memory_in,
                                                         columns[0][:, mb], columns[1][:, mb])
                    loss = -MaskedCategorical(logits, mask[mb]).log_prob(chosen[mb]).mean()
                    optimizers[g].zero_grad(set_to_none=True)
                    loss.backward()
                    nn.utils.clip_grad_norm_(models[g].parameters(), max_grad_norm)
                    optimizers[g].step()
                    epoch.append(loss.item())
                if late():
                    break
            losses[g] = float(np.mean(epoch))
    shown.close()
    return losses


def _random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """``[N, A] bool -> [N]``: one legal action per row, uniformly."""
    legal = mask.cumsum(1)
    return np.argmax(legal > (rng.random(mask.shape[0]) * legal[:, -1])[:, None], axis=1)


@dataclass
class _Round:
    """One learner's decisions in a round of imitation, a list entry per batched step: the
    observations, masks and the teacher's choices; for a recurrent learner also each decision's
    slot (``t * B + game``), seat, episode and the memory its seat started it with."""

    obs: list = field(default_factory=list)
    mask: list = field(default_factory=list)
    chosen: list = field(default_factory=list)
    slots: list = field(default_factory=list)
    seats: list = field(default_factory=list)
    episodes: list = field(default_factory=list)
    memories: list = field(default_factory=list)

    def decided(self, obs, mask, chosen) -> None:
        self.obs.append(obs)
        self.mask.append(mask)
        self.chosen.append(chosen)

    def remembered(self, slots, seats, episodes, memories) -> None:
        self.slots.append(slots)
        self.seats.append(seats)
        self.episodes.append(episodes)
        self.memories.append(memories)


def _seat_columns(recorded: _Round, B: int, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A recurrent learner's round as ``training.recurrent.seat_sequences`` columns over its
    recorded decisions, in the order the observations were stored."""
    slots, seats, episodes = (np.concatenate(v) for v in
                              (recorded.slots, recorded.seats, recorded.episodes))
    seat = np.full((steps, B), -1, np.int64)
    episode = np.zeros((steps, B), np.int64)
    seat.reshape(-1)[slots] = seats
    episode.reshape(-1)[slots] = episodes
    index, restart = seat_sequences(slots, B, seat, episode)
    return torch.from_numpy(index), torch.from_numpy(restart)
