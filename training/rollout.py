"""Rollout storage and collection: every seat's decisions, each reward on its own transition.

Storage is ``[S, B]`` rows in time order, ``S = P + T``: slot ``p < P`` holds seat ``p``'s
*carried* transition, the latest decision of a seat that was still waiting for its next turn
when the previous rollout stopped; slots ``P ..`` hold this rollout's ``T`` steps. A carried
transition was left out of the previous update (its target was unknown); here it meets its
successor (the seat's next decision, or the game's end and its reward) and is trained. So no
reward is dropped at a rollout boundary, and no bootstrap value comes from a view the critic
never trains on (``training.gae``).

Who plays a row: the deciding seat's side (its team, or with one shared policy, the seat) is
either its learner (``side_group``: that side's own network group) or a league member drawn
for that game (``opponent [B, sides]``: -1 for a learner, else a member id of
``training.pool``). Each step sorts its games by the player that decides them, so each network
reads one slice.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from agents.neural import ActorCritic, MaskedCategorical
from agents.policy import choose
from agents.sparse_input import SparseRows
from training.credit import credit_rewards, record_decisions
from training.pool import OpponentPool, draw_frozen_sides


class Rollout:
    """Preallocated ``[S, B, ...]`` buffers; the numpy views share the torch tensors' memory."""

    def __init__(self, T: int, B: int, P: int, D: int, A: int, state_size: int, memory: int,
                 beliefs: bool = False):
        S = P + T
        self.T, self.B, self.P, self.S = T, B, P, S
        self.obs = torch.zeros((S, B, D))
        self.mask = torch.zeros((S, B, A), dtype=torch.bool)
        self.state = torch.zeros((S, B, state_size)) if state_size else None
        self.memory_in = torch.zeros((S, B, memory)) if memory else None
        # the belief head's targets: each other seat (seat-relative) on the decider's other side
        self.other_side = torch.zeros((S, B, P - 1), dtype=torch.bool) if beliefs else None
        self.actions = torch.zeros((S, B), dtype=torch.int64)
        self.teacher = torch.zeros((S, B), dtype=torch.int64)  # the teacher's choice, if any
        self.logp = torch.full((S, B), float("nan"))
        self.values = torch.full((S, B), float("nan"))
        self.advantages = torch.full((S, B), float("nan"))
        self.returns = torch.full((S, B), float("nan"))
        self.rewards = np.zeros((S, B), np.float32)
        self.done = np.zeros((S, B), np.bool_)
        self.cut = np.zeros((S, B), np.bool_)  # done at a change of network (the Coward)
        self.seat = np.zeros((S, B), np.int64)
        self.group = np.zeros((S, B), np.int64)
        self.learn = np.zeros((S, B), np.bool_)
        self.episode = np.zeros((S, B), np.int64)
        self.valid = np.zeros((S, B), np.bool_)
        self.resolved = np.zeros((S, B), np.bool_)

    def tensors(self) -> dict[str, torch.Tensor]:
        """What the update reads, flat ``[S * B, ...]``."""
        out = {"obs": self.obs, "mask": self.mask, "actions": self.actions, "logp": self.logp,
               "values": self.values, "advantages": self.advantages, "returns": self.returns,
               "teacher": self.teacher}
        if self.state is not None:
            out["state"] = self.state
        if self.memory_in is not None:
            out["memory_in"] = self.memory_in
        if self.other_side is not None:
            out["other_side"] = self.other_side
        return {k: v.flatten(0, 1) for k, v in out.items()}

    def _flat_fields(self):
        tensors = [self.obs, self.mask, self.actions, self.teacher, self.logp, self.values,
                   self.state, self.memory_in, self.other_side]
        arrays = [self.rewards, self.done, self.cut, self.seat, self.group, self.learn,
                  self.episode]
        return ([t.flatten(0, 1) for t in tensors if t is not None],
                [a.reshape(-1) for a in arrays])

    def carry(self, last: np.ndarray) -> int:
        """Move each seat's pending transition (``last [B, P] >= 0``) into its carry slot and
        point ``last`` there; clear the step slots. Returns how many were carried.

        A league member's pending row keeps only its bookkeeping (seat, team, episode: enough to
        cut its chain and take its reward); it is never trained, so its inputs are not copied."""
        B, P = self.B, self.P
        pending = last >= 0
        source = last[pending]
        b, p = np.nonzero(pending)
        target = p * B + b
        tensors, arrays = self._flat_fields()
        for x in arrays:
            x[target] = x[source]
        learner = self.learn.reshape(-1)[target]
        src_t, dst_t = torch.from_numpy(source[learner]), torch.from_numpy(target[learner])
        for x in tensors:
            x[dst_t] = x[src_t]
        frozen = torch.from_numpy(target[~learner])
        self.values.view(-1)[frozen] = float("nan")
        self.logp.view(-1)[frozen] = float("nan")
        self.valid[:P] = pending.T
        self.valid[P:] = True
        last[pending] = target
        self.rewards[P:] = 0.0
        self.done[P:] = False
        self.cut[P:] = False
        self.values[P:] = float("nan")
        self.logp[P:] = float("nan")
        return int(source.size)


class Minibatches:
    """Minibatch rows gathered straight from the flat rollout tensors into reused buffers, one
    minibatch ahead on a helper thread (torch releases the GIL in ``index_select``), writing the
    other of two buffer sets: a minibatch is consumed before the gather after next overwrites it.
    Why it is built this way: docs/results/training-history.md, Speed."""

    def __init__(self, rollout: dict[str, torch.Tensor], helper: ThreadPoolExecutor):
        self.rollout = rollout  # each [S * B, ...]
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
        return epoch([(self, r) for r in rows])


def epoch(batches: list[tuple[Minibatches, torch.Tensor]]) -> Iterator[dict[str, torch.Tensor]]:
    """The minibatches ``batches[k] = (source, flat rows)``, in order, each gathered one ahead
    on its source's helper thread into its source's buffer set ``k % 2``: whichever rollout
    (table size) each comes from, the buffers a gather overwrites held minibatch ``k - 1``,
    already consumed."""
    source, rows = batches[0]
    ahead = source.helper.submit(source.gather, rows, 0)
    for k in range(len(batches)):
        minibatch = ahead.result()
        if k + 1 < len(batches):
            source, rows = batches[k + 1]
            ahead = source.helper.submit(source.gather, rows, (k + 1) % 2)
        yield minibatch


class Collector:
    """Plays ``T`` batched steps per ``collect()`` into a ``Rollout``, keeping across rollouts
    what a game in progress needs: each seat's latest row, the league member of each frozen
    side, the recurrent memories."""

    def __init__(self, env, models: list[ActorCritic], team_group: np.ndarray, shared: bool,
                 pool: OpponentPool, fixed: dict[int, int], opponent_share: float,
                 rng: np.random.Generator, sampler: torch.Generator, T: int,
                 centralised_critic: bool, clock, helper: ThreadPoolExecutor, teacher=None,
                 sparse: bool = False):
        B, P = env.num_envs, env.num_players
        self.env, self.models, self.team_group, self.shared = env, models, team_group, shared
        self.pool, self.fixed, self.share = pool, fixed, opponent_share
        self.rng, self.sampler, self.clock, self.helper = rng, sampler, clock, helper
        self.teacher = teacher  # labels the learners' decisions (``Args.teacher_coef``)
        self.sparse = sparse  # networks read the observations' nonzero entries (``SparseRows``)
        self.G = len(models)
        self.sides = P if shared else len(env.spec.teams)
        self.side_group = np.zeros(self.sides, np.int64) if shared else team_group.copy()
        self.fixed_side = np.isin(np.arange(self.sides), list(fixed))  # fixed: non-shared groups
        M = models[0].memory_size
        self.buf = Rollout(T, B, P, env.observation_size, env.num_actions,
                           env.state_size if centralised_critic else 0, M,
                           models[0].role_head() is not None)
        self.others = (np.arange(P)[:, None] + np.arange(1, P)[None, :]) % P  # [seat, j-1]
        self.last = np.full((B, P), -1, np.int64)
        self.decided = np.zeros((B, P), np.bool_)
        self.opponent = np.full((B, self.sides), -1, np.int64)
        self.available = np.zeros(self.sides, np.bool_)
        self._league_changed()
        self.deal(np.arange(B))
        self.memory = torch.zeros((self.G, B, P, M))  # the learners'
        self.frozen_memory = torch.zeros((self.G, B, P, M))  # league snapshots'
        self.game_length = np.zeros(B, np.int64)
        self.rows = np.arange(B)
        self.who = np.stack([self.rows, np.zeros(B, np.int64)], 1)
        self.obs_by_player = torch.zeros((B, env.observation_size))
        self.mask_by_player = torch.zeros((B, env.num_actions), dtype=torch.bool)

    def _league_changed(self) -> None:
        """Which sides the league can play (it changes only between rollouts)."""
        self.available[:] = [self.pool.has(self.pool.groups[self.side_group[k]])
                             for k in range(self.sides)]

    def deal(self, games: np.ndarray) -> None:
        """Draw who plays each side of newly dealt games: the learner, or one league member for
        the whole game (a fixed team's own player, always)."""
        frozen = draw_frozen_sides(self.rng, games.size, self.sides, self.share, self.available,
                                   self.fixed_side)
        opponent = np.full((games.size, self.sides), -1, np.int64)
        for k in range(self.sides):
            g = int(self.side_group[k])
            rows = np.flatnonzero(frozen[:, k])
            if not rows.size:
                continue
            opponent[rows, k] = (self.fixed[g] if g in self.fixed
                                 else self.pool.draw(self.pool.groups[g], rows.size))
        self.opponent[games] = opponent

    def collect(self) -> dict:
        """One rollout. Returns its statistics (wins, game lengths, reward crediting)."""
        env, buf, B, P, G = self.env, self.buf, self.buf.B, self.buf.P, self.G
        stats = {"carried": buf.carry(self.last), "credited": 0.0, "lost": 0.0,
                 "undecided": 0.0, "cut": 0, "wins": np.zeros(len(env.spec.teams) + 1, np.int64),
                 "lengths": []}
        self.pool.prune(self.opponent)
        self.pool.fade()
        self._league_changed()
        flat_group, flat_learn = buf.group.reshape(-1), buf.learn.reshape(-1)
        flat_done, flat_rewards = buf.done.reshape(-1), buf.rewards.reshape(-1)
        flat_cut = buf.cut.reshape(-1)
        rows = self.rows
        for t in range(buf.T):
            slot = P + t
            if buf.state is not None:
                buf.state[slot] = torch.from_numpy(env.state())
            seat = env.current_seat
            teams = env.teams()
            team = teams[rows, seat]
            if buf.other_side is not None:
                buf.other_side[slot] = torch.from_numpy(
                    teams[rows[:, None], self.others[seat]] != team[:, None])
            side = seat if self.shared else team
            group = self.side_group[side]
            member = self.opponent[rows, side]
            buf.seat[slot], buf.group[slot], buf.learn[slot] = seat, group, member < 0
            buf.episode[slot] = env.records["episode"]
            # each group's learner first (keys 0..G-1), then each league member (G + id)
            key = np.where(member < 0, group, G + member)
            order = np.argsort(key, kind="stable")
            sorted_key = key[order]
            starts = np.flatnonzero(np.r_[True, sorted_key[1:] != sorted_key[:-1]])
            ends = np.r_[starts[1:], B]
            observation = torch.from_numpy(env.observation)
            action_mask = torch.from_numpy(env.action_mask)
            by_player = torch.from_numpy(order)
            torch.index_select(observation, 0, by_player, out=self.obs_by_player)
            torch.index_select(action_mask, 0, by_player, out=self.mask_by_player)
            stored = self.helper.submit(self._store, slot, observation, action_mask)
            self.who[:, 1] = seat
            with torch.inference_mode():
                for a, z in zip(starts, ends):
                    self._forward(int(sorted_key[a]), slot, order[a:z], slice(a, z), group)
            stored.result()  # the engine overwrites its observations in place
            stats["cut"] += record_decisions(self.last, seat, slot * B + rows, flat_group,
                                             flat_learn, flat_done, flat_cut, self.decided)
            rewards, terminated, truncated = env.step(buf.actions[slot].numpy())
            self.game_length += 1
            ended_mask = terminated | truncated
            credited, lost, undecided = credit_rewards(self.last, rewards, ended_mask,
                                                       flat_rewards, flat_done, self.decided)
            stats["credited"] += credited
            stats["lost"] += lost
            stats["undecided"] += undecided
            ended = np.flatnonzero(ended_mask)
            if ended.size:
                if self.memory.shape[-1]:
                    self.memory[:, ended] = 0.0
                    self.frozen_memory[:, ended] = 0.0
                for k in np.unique(self.opponent[ended]):
                    if k >= 0 and not isinstance(self.pool.members[k], ActorCritic):
                        with torch.inference_mode():  # where its memories were made
                            self.pool.members[k].game_over(ended)
                np.add.at(stats["wins"], env.winner[ended], 1)  # draw (-1): the last slot
                self._league_results(ended, rewards)
                stats["lengths"].extend(self.game_length[ended].tolist())
                self.game_length[ended] = 0
                self.deal(ended)
        stats["league"] = {g: min(map(self.pool.score, self.pool.snapshots(g)
                                      + self.pool.scripted[g]))
                           for g in self.pool.groups if self.pool.has(g)}
        return stats

    def _league_results(self, ended: np.ndarray, rewards: np.ndarray) -> None:
        """The learner's score against each league member in games that just ended (what a
        ``pfsp`` league draws by): in a team game a win 1, a draw 1/2, a loss 0; in a
        free-for-all the member's own place read off its reward in [-1, 1], 0 when it came
        first and 1 when it came last."""
        winner = self.env.winner[ended]
        for k in range(self.sides):
            member = self.opponent[ended, k]
            played = member >= 0
            if not played.any():
                continue
            if self.shared:
                score = (1.0 - rewards[ended, k]) / 2.0
            else:
                score = np.where(winner < 0, 0.5, (winner != k).astype(np.float64))
            self.pool.record(member[played], score[played])

    def _store(self, slot: int, observation: torch.Tensor, action_mask: torch.Tensor) -> None:
        self.buf.obs[slot].copy_(observation)
        self.buf.mask[slot].copy_(action_mask)

    def _forward(self, key: int, slot: int, idx: np.ndarray, part: slice, group: np.ndarray):
        """Actions for rows ``idx`` of this step (``part`` of the sorted rows), by the player
        ``key`` names; a learner also stores log-probabilities and values. Only the networks'
        own work is on the clock."""
        buf = self.buf
        obs, mask = self.obs_by_player[part], self.mask_by_player[part]
        if key >= self.G:
            member = self.pool.members[key - self.G]
            if not isinstance(member, ActorCritic):  # a scripted player (or a loaded policy)
                buf.actions[slot, idx] = torch.from_numpy(
                    choose(member, obs.numpy(), mask.numpy(), self.who[idx]))
                return
            g, model = int(group[idx[0]]), member
            store = self.frozen_memory[g]
        else:
            g, model = key, self.models[key]
            store = self.memory[g]
        it = torch.from_numpy(idx)
        h = None
        if model.recurrent:
            at_seat = torch.from_numpy(buf.seat[slot, idx])
            h = store[it, at_seat]
            buf.memory_in[slot, it] = h
        learner = key < self.G
        if learner and self.teacher is not None:
            buf.teacher[slot, it] = torch.from_numpy(
                choose(self.teacher, obs.numpy(), mask.numpy(), self.who[idx]))
        state = None if buf.state is None or not learner else torch.cat(  # centralised critic
            [obs, buf.state[slot].index_select(0, it)], 1)
        device = next(model.parameters()).device  # a learner's (``Args.device``); else the cpu
        with self.clock.net():
            x = SparseRows(obs) if self.sparse else obs.to(device)
            logits, h = model.actor_step(x, h)
            value = None if not learner else \
                model.value(x if state is None else state.to(device)).cpu()
            dist = MaskedCategorical(logits.cpu(), mask)
            a = dist.sample(self.sampler)
            logp = dist.log_prob(a) if learner else None
        if model.recurrent:
            store[it, at_seat] = h
        buf.actions[slot, it] = a
        if learner:
            buf.values[slot, it] = value
            buf.logp[slot, it] = logp
