"""Paired-deal matches: batches of numbered games, each game's course recorded.

Game ``i`` of a match under seed ``s`` is always the same deal: its record is keyed by
``(s, i)`` (``VecEnv.deal``), so every pairing of a cross-play matrix or a tournament meets the
same hands and the same seat dealing, and a difference between two pairings is the policies',
not the cards'. A match is cut into batches of consecutive game numbers (``Batch``); a batch's
games depend only on the batch (its policies are built afresh, seeded by the match seed and the
batch's first game), never on the process, machine or order that plays it, so results are the
same from one process, several workers or a Ray cluster.

A *side* is what one policy plays: a team in a team game, a seat in a free-for-all game. Each
game records its number, the seats' teams as dealt, the winning team (-1 for none), whether it
was cut short, the seats' final rewards, its length in decisions and every action: with the
seed and number, enough to replay it exactly (``evaluation.replay``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import envs
from agents.policy import choose

from .entrants import Entrant, free_for_all


@dataclass(frozen=True)
class Batch:
    """Games ``start .. stop-1`` of one pairing, ``slots`` of them in flight at once."""

    game: str
    params: dict  # resolved
    sides: tuple[Entrant, ...]  # the policy of each side (team order, or seat order)
    seed: int
    start: int
    stop: int
    slots: int = 512
    tag: object = None  # the caller's key for this batch (e.g. its pairing); not used here


@dataclass
class GameLog:
    """The games of one or more batches, one row per game, in game-number order."""

    index: np.ndarray  # [G] int64 game number (the deal)
    winner: np.ndarray  # [G] int64 team index, -1 for none
    truncated: np.ndarray  # [G] bool
    length: np.ndarray  # [G] int64 decisions
    rewards: np.ndarray  # [G, P] float32 final rewards by seat
    deal: np.ndarray  # [G, P] int8 each seat's team as dealt
    actions: np.ndarray  # [sum(length)] int16, game after game
    offsets: np.ndarray  # [G + 1] int64 into actions

    def __len__(self) -> int:
        return self.index.shape[0]

    def game_actions(self, g: int) -> np.ndarray:
        return self.actions[self.offsets[g] : self.offsets[g + 1]]

    @staticmethod
    def concat(logs: list[GameLog]) -> GameLog:
        logs = [log for log in logs if len(log)]
        if not logs:
            raise ValueError("no games to put together")
        lengths = np.concatenate([log.length for log in logs])
        actions = np.concatenate([log.actions for log in logs])
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        return GameLog(
            index=np.concatenate([log.index for log in logs]),
            winner=np.concatenate([log.winner for log in logs]),
            truncated=np.concatenate([log.truncated for log in logs]),
            length=lengths,
            rewards=np.concatenate([log.rewards for log in logs]),
            deal=np.concatenate([log.deal for log in logs]),
            actions=actions,
            offsets=offsets,
        )


def batch_seed(seed: int, start: int) -> int:
    """The seed of a batch's policies: a function of the batch alone."""
    return (int(seed) * 1_000_003 + int(start)) % (2**63)


def play_batch(batch: Batch) -> GameLog:
    """Play games ``batch.start .. batch.stop-1``; every slot refilled with the next number."""
    total = batch.stop - batch.start
    if total <= 0:
        raise ValueError(f"empty batch [{batch.start}, {batch.stop})")
    B = min(batch.slots, total)
    vec = envs.make_vec(batch.game, B, seed=batch.seed, first_index=batch.start, **batch.params)
    spec, P = vec.spec, vec.num_players
    ffa = free_for_all(spec)
    if not ffa and len(batch.sides) != len(spec.teams):
        raise ValueError(f"{len(batch.sides)} sides for {spec.name}'s teams {spec.teams}")
    if ffa and len(batch.sides) != P:
        raise ValueError(f"{len(batch.sides)} sides for a free-for-all table of {P} seats")
    seed = batch_seed(batch.seed, batch.start)
    # one policy per entrant, whichever sides it plays; keyed by what the label means, because
    # a label may name another policy on another team (`trained@crew.pt`, `trained@menace.pt`)
    built: dict[tuple[str, str], object] = {}
    for entrant in batch.sides:
        if (entrant.label, entrant.identity) not in built:
            built[entrant.label, entrant.identity] = entrant.build(spec, vec.params, seed)
    policies = [built[e.label, e.identity] for e in batch.sides]
    distinct = list(built.values())

    rows = np.arange(B)
    game_of = np.arange(batch.start, batch.start + B)  # [B] game number in each slot, -1 idle
    next_game = batch.start + B
    steps = np.zeros(B, np.int64)
    cap = spec.max_decisions(vec.params) + 1
    trace = np.zeros((B, cap), np.int16)
    dealt = np.ones(B, np.bool_)  # slots whose seat dealing is yet to be read
    deal = np.zeros((B, P), np.int8)
    out_index, out_winner, out_trunc, out_len, out_rew, out_deal = ([] for _ in range(6))
    out_actions: list[np.ndarray] = []
    who = np.empty((B, 2), np.int64)
    who[:, 0] = rows
    actions = np.empty(B, np.int64)
    while (game_of >= 0).any():
        team = vec.teams()  # [B, P]
        if dealt.any():
            deal[dealt] = team[dealt]
            dealt[:] = False
        seat = vec.current_seat
        side = seat if ffa else team[rows, seat]
        live = game_of >= 0
        who[:, 1] = seat
        for s, policy in enumerate(policies):
            idx = np.flatnonzero((side == s) & live)
            if idx.size:
                actions[idx] = choose(policy, vec.observation[idx], vec.action_mask[idx], who[idx])
        idle = np.flatnonzero(~live)
        if idle.size:  # finished slots idle to the end: any legal action keeps them going
            actions[idle] = vec.action_mask[idle].argmax(1)
        if steps[live].max(initial=0) >= cap:
            raise RuntimeError(
                f"{spec.name}: a game ran past max_decisions ({cap - 1}); the spec is wrong"
            )
        trace[rows, np.minimum(steps, cap - 1)] = actions
        steps += 1
        _, terminated, truncated = vec.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        if not ended.size:
            continue
        for policy in distinct:
            policy.game_over(ended)
        done = ended[game_of[ended] >= 0]
        if done.size:
            out_index.append(game_of[done].copy())
            out_winner.append(np.where(terminated[done], vec.winner[done], -1))
            out_trunc.append(truncated[done].copy())
            out_len.append(steps[done].copy())
            out_rew.append(vec.rewards[done].copy())
            out_deal.append(deal[done].copy())
            out_actions += [trace[b, : steps[b]].copy() for b in done]
        steps[ended] = 0
        dealt[ended] = True
        game_of[ended] = -1
        refill = done[: max(0, batch.stop - next_game)]
        if refill.size:
            numbers = np.arange(next_game, next_game + refill.size)
            vec.deal(refill, numbers)
            game_of[refill] = numbers
            next_game += refill.size
    order = np.argsort(np.concatenate(out_index), kind="stable")
    length = np.concatenate(out_len)[order]
    actions_all = np.concatenate([out_actions[g] for g in order])
    offsets = np.concatenate([[0], np.cumsum(length)])
    return GameLog(
        index=np.concatenate(out_index)[order],
        winner=np.concatenate(out_winner)[order].astype(np.int64),
        truncated=np.concatenate(out_trunc)[order],
        length=length,
        rewards=np.concatenate(out_rew)[order],
        deal=np.concatenate(out_deal)[order],
        actions=actions_all,
        offsets=offsets,
    )
