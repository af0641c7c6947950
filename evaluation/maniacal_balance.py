"""MANIACAL balance: win share by starting position, and what the winners' cards were.

A free-for-all has no first team to count, and with a random starting player every seat index
wins 1/n by symmetry; what a designer tunes is the **starting position** on the Player Order
track (1st: $8 and first in every tie, ... 5th: $12 and last). A shared win (P-23) counts 1/k
to each of its k seats. Win rates carry Wilson 95% intervals.

Card use is read from each game's record as it goes: the rooms in a seat's base at the end, the
contracts it succeeded at (the attempting seat's Infamy rising by at least the card's success
Infamy: a failure pays at most half of it) and the Schemes it played (its hand of a kind
shrinks; playing is the only way to lose a Scheme). For every room kind, contract and Scheme
kind, the table gives how often a seat that used it won: a card that decides games would show a
rate far above the fair share 1/n.
"""

from __future__ import annotations

import time

import numpy as np

import envs
from agents import make_policy
from envs.maniacal import cards as c
from envs.maniacal.tables import CONTRACT_RESULT

from .match import wilson_interval

PAIRINGS = ("random", "heuristic")
MIN_USES = 200  # seat-games: a card used less often than this is not ranked
# What each card is fairly compared with: rooms of its category, contracts of the same
# difficulty and team size (a team of 4 on a Legendary is the mark of a strong seat), Schemes.
ROOM_CLASS = np.array([r.category for r in c.ROOMS])
CONTRACT_CLASS = np.array([k.difficulty * 8 + k.team for k in c.CONTRACTS])
SCHEME_CLASS = np.zeros(len(c.SCHEMES), np.int64)


def _usage_rows(used, won, names, n, games, group):
    """Per card: the share of games whose winner used it, the win rate of the seats that used
    it (with its interval), against the fair share 1/n and against its class (``group``: the
    cards it is fairly compared with, e.g. contracts of the same difficulty and team size)."""
    rows = []
    for k, name in enumerate(names):
        uses = int(used[k])
        if uses < MIN_USES:
            continue
        same = group == group[k]
        class_rate = won[same].sum() / max(1.0, used[same].sum())
        rate = won[k] / uses
        lo, hi = wilson_interval(round(float(won[k])), uses)
        rows.append({"card": name, "uses": uses, "winners_share": float(won[k]) / games,
                     "win_rate": rate, "interval95": [lo, hi], "vs_fair": rate * n,
                     "vs_class": rate / class_rate if class_rate > 0 else 0.0})
    rows.sort(key=lambda r: -r["winners_share"])
    return rows


def play_balance(policy, games: int, n: int, seed: int, num_envs: int = 1024) -> dict:
    """``games`` complete games with ``policy`` in every seat: win share by starting position
    and by card used."""
    vec = envs.make_vec("maniacal", min(num_envs, games), seed=seed, num_players=n)
    B = vec.num_envs
    per_slot = -(-games // B)
    quota = np.full(B, per_slot)
    quota[: per_slot * B - games] -= 1
    counted = np.zeros(B, np.int64)
    start = vec.records["order"][:, :n].astype(np.int64).copy()  # [B, n] seat at each position
    wins_at = np.zeros(n)  # by starting position
    room_used = np.zeros(len(c.ROOMS))
    room_won = np.zeros(len(c.ROOMS))
    contract_used = np.zeros(len(c.CONTRACTS))
    contract_won = np.zeros(len(c.CONTRACTS))
    scheme_used = np.zeros(len(c.SCHEMES))
    scheme_won = np.zeros(len(c.SCHEMES))
    succeeded = np.zeros((B, n, len(c.CONTRACTS)), np.bool_)
    played = np.zeros((B, n, len(c.SCHEMES)), np.bool_)
    rows = np.arange(B)
    decisions = 0
    while (counted < quota).any():
        before = vec.records.copy()
        live = counted < quota
        decisions += int(live.sum())
        rewards, terminated, truncated = vec.step(policy.act(vec.observation, vec.action_mask))
        after = vec.records
        going = ~(terminated | truncated)
        # Schemes played: a seat's hand of a kind shrinks
        shrank = before["schemes"][:, :n] > after["schemes"][:, :n]  # [B, n, S]
        played |= shrank & going[:, None, None]
        # contracts: the attempting seat's Infamy rises (only the result does that) by at
        # least the card's success Infamy
        seat = before["attempt_seat"].astype(np.int64)
        resolved = going & (seat >= 0) & before["flipped"]
        for b in np.flatnonzero(resolved):
            s, card = seat[b], int(before["contract"][b])
            gain = int(after["infamy"][b, s]) - int(before["infamy"][b, s])
            if gain > 0 and gain >= CONTRACT_RESULT[card, 0, 0]:
                succeeded[b, s, card] = True
        done = (terminated | truncated) & live
        for b in np.flatnonzero(done):
            top = rewards[b, :n].max()
            winners = np.flatnonzero(rewards[b, :n] >= top - 1e-6)
            share = 1.0 / len(winners)
            for position in range(n):
                if start[b, position] in winners:
                    wins_at[position] += share
            for s in range(n):
                w = share if s in winners else 0.0
                built = before["base"][b, s] > 0
                room_used += built
                room_won += built * w
                contract_used += succeeded[b, s]
                contract_won += succeeded[b, s] * w
                scheme_used += played[b, s]
                scheme_won += played[b, s] * w
        over = terminated | truncated
        succeeded[over] = False
        played[over] = False
        start[over] = after["order"][over, :n]
        counted += done
    total = int(counted.sum())
    positions = []
    for p in range(n):
        lo, hi = wilson_interval(round(wins_at[p]), total)
        positions.append({"position": p + 1, "win_rate": wins_at[p] / total,
                          "interval95": [lo, hi], "vs_fair": wins_at[p] / total * n})
    return {
        "num_players": n,
        "games": total,
        "decisions_per_game": decisions / max(1, total),
        "positions": positions,
        "rooms": _usage_rows(room_used, room_won, c.ROOM_NAMES, n, total, ROOM_CLASS),
        "contracts": _usage_rows(
            contract_used, contract_won, c.CONTRACT_NAMES, n, total, CONTRACT_CLASS
        ),
        "schemes": _usage_rows(scheme_used, scheme_won, c.SCHEME_NAMES, n, total, SCHEME_CLASS),
    }


def run_balance(name: str = "maniacal", games: int = 10_000, seed: int = 0, players=None) -> dict:
    spec = envs.registry[name]
    players = players or range(spec.min_players, spec.max_players + 1)
    out = []
    start = time.perf_counter()
    for n in players:
        params = spec.resolve(num_players=n)
        for pairing in PAIRINGS:
            row = play_balance(make_policy(pairing, spec, params, seed=seed), games, n, seed)
            row["pairing"] = pairing
            out.append(row)
    return {"game": name, "version": spec.version, "seed": seed, "free_for_all": True,
            "rows": out, "seconds": time.perf_counter() - start}


def format_balance(result: dict) -> str:
    """Markdown tables, as pasted into docs/rules/maniacal.md."""
    lines = [
        "| Players | Pairing | Games | Position | Wins | 95% interval | × fair share |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        for p in r["positions"]:
            lo, hi = p["interval95"]
            lines.append(
                f"| {r['num_players']} | {r['pairing']} | {r['games']:,} | {p['position']} "
                f"| {p['win_rate']:.1%} | [{lo:.1%}, {hi:.1%}] | {p['vs_fair']:.2f} |"
            )
    for kind in ("rooms", "contracts", "schemes"):
        lines += [
            "",
            f"Heuristic play, {kind}: the 5 the winners used most (share of games whose winner "
            "used it), then the one whose users won most against its class.",
            "",
            "| Players | Card | Winners using it | Users' win rate | 95% interval "
            "| × fair share | × its class |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in result["rows"]:
            if r["pairing"] != "heuristic" or not r[kind]:
                continue
            top = max(r[kind], key=lambda u: u["vs_class"])
            for u in r[kind][:5] + ([top] if top not in r[kind][:5] else []):
                lo, hi = u["interval95"]
                lines.append(
                    f"| {r['num_players']} | {u['card']} | {u['winners_share']:.1%} "
                    f"| {u['win_rate']:.1%} | [{lo:.1%}, {hi:.1%}] | {u['vs_fair']:.2f} "
                    f"| {u['vs_class']:.2f} |"
                )
    return "\n".join(lines)
