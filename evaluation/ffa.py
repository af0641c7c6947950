"""Free-for-all strength: one policy against another, each in part of the seats, by final rank.

    hiddendeck ffa maniacal --policy runs/maniacal4/checkpoints/step_N/shared.pt \
        --against heuristic --players 4 --games 10000 --seed 424242

A free-for-all has no winning team to count, and a seat's place depends on who sits where (the
first seat may move first, a neighbour passes the draft hand). So every deal is played once in
every *seating*: each way of choosing the ``seats`` seats of policy A among the table's, the
other seats going to policy B (at 4 players with 2 seats each: the six seat pairs). Each seat is
then A's in the same share of games as B's, on the same deals, and the seat advantage cancels.

A seat's *position* is 1 + the number of seats paid more + half the number of others paid the
same (the tied seats share their mean place, as MANIACAL's own ranking does), read from the
final rewards as tournaments rank free-for-all games. A side's mean position averages its seats
over every seating of a deal, then over deals; since deals are independent draws, the 95%
interval is a bootstrap over those per-deal means (its ends stay inside the possible range).
Beside it, the side's share of first places (a first place shared between sides is split
between them), and the difference of the two sides' mean positions with a paired interval over
deals, which decides the verdict.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np

import envs
from agents.policy import Policy

from .crossplay import BATCH_GAMES, SLOTS, batches_for
from .entrants import free_for_all, played_greedy, resolve
from .harness import GameLog
from .runner import run_batches
from .stats import bootstrap_mean, format_difference, paired_difference


def seatings(num_players: int, seats: int) -> list[tuple[int, ...]]:
    """Every choice of ``seats`` seats for policy A (the rest are B's), in a fixed order."""
    if not 1 <= seats < num_players:
        raise ValueError(f"policy A needs between 1 and {num_players - 1} of the "
                         f"{num_players} seats, got {seats}")
    return list(itertools.combinations(range(num_players), seats))


def positions(rewards: np.ndarray) -> np.ndarray:  # [G, P] final rewards -> [G, P] float
    """Each seat's place, 1 = best; tied seats share their mean place."""
    above = (rewards[:, None, :] > rewards[:, :, None]).sum(2)
    tied = (rewards[:, None, :] == rewards[:, :, None]).sum(2)  # the seat itself included
    return 1.0 + above + (tied - 1) / 2.0


def first_shares(rewards: np.ndarray) -> np.ndarray:  # [G, P] -> [G, P] float
    """Each seat's share of the game's first place (1/k for each of k seats tied at the top)."""
    top = rewards == rewards.max(1, keepdims=True)
    return top / top.sum(1, keepdims=True)


@dataclass
class Side:
    """One policy's result over every deal and seating."""

    label: str
    seats: int  # seats it holds in each game
    mean_position: float
    position_interval: tuple[float, float]
    first_share: float  # of all first places (fair share: seats / num_players)
    first_interval: tuple[float, float]

    def as_dict(self) -> dict:
        return {"label": self.label, "seats": self.seats, "mean_position": self.mean_position,
                "position_interval95": list(self.position_interval),
                "first_share": self.first_share, "first_interval95": list(self.first_interval)}


@dataclass
class FFAResult:
    game: str
    version: int
    params: dict
    seed: int
    deals: int
    seatings: list[tuple[int, ...]]  # policy A's seats in each seating
    sides: tuple[Side, Side]
    sources: dict[str, str]  # label -> name or checkpoint path
    truncated: int  # games cut short (every seat paid alike: all share the middle place)
    difference: tuple[float, float, float]  # A's mean position - B's, paired 95% interval

    @property
    def games(self) -> int:
        return self.deals * len(self.seatings)

    def as_dict(self) -> dict:
        return {"game": self.game, "version": self.version, "params": self.params,
                "seed": self.seed, "deals": self.deals, "games": self.games,
                "seatings": [list(s) for s in self.seatings],
                "sides": [s.as_dict() for s in self.sides], "sources": self.sources,
                "truncated": self.truncated,
                "position_difference": {"mean": self.difference[0],
                                        "interval95": list(self.difference[1:])}}

    def format_table(self) -> str:
        n = self.params["num_players"]
        a, b = self.sides
        w = max(8, len(a.label), len(b.label))
        lines = [
            f"{self.game} v{self.version} {self.params}: {self.deals} deals x "
            f"{len(self.seatings)} seatings = {self.games} games (seed {self.seed})",
            f"{'policy':<{w}} {'seats':>5} {'mean position':>14} {'95% interval':>16} "
            f"{'first places':>13} {'95% interval':>16}",
            "-" * (w + 70),
        ]
        for s in self.sides:
            lo, hi = s.position_interval
            flo, fhi = s.first_interval
            lines.append(f"{s.label:<{w}} {s.seats:>5} {s.mean_position:>14.3f} "
                         f"{f'[{lo:.3f}, {hi:.3f}]':>16} {s.first_share:>13.1%} "
                         f"{f'[{flo:.1%}, {fhi:.1%}]':>16}")
        lines.append(f"(positions 1-{n}, {(n + 1) / 2:g} on average; first places: "
                     f"{a.label}'s fair share is {a.seats / n:.0%}; {self.truncated} games cut "
                     f"short)")
        lines.append(f"{a.label}: {verdict(a, b, self.difference)}")
        return "\n".join(lines)


def verdict(a: Side, b: Side, difference: tuple[float, float, float]) -> str:
    """Better (a lower mean position) only when the paired interval on the difference of mean
    positions excludes 0: the deals are shared, so the difference is measured deal by deal."""
    mean, lo, hi = difference
    if hi < 0:
        word = "better than"
    elif lo > 0:
        word = "worse than"
    else:
        word = "not distinguishable from (the paired interval holds 0)"
    return (f"mean position {a.mean_position:.3f}, {word} {b.label}'s {b.mean_position:.3f}: "
            f"difference {format_difference(difference)}")


def per_deal(logs: list[GameLog], plans: list[tuple[int, ...]], num_players: int
             ) -> dict[str, np.ndarray]:
    """Each deal's mean position and first-place share of side A (``a_pos``, ``a_first``) and
    side B, averaged over the seatings (``logs[k]``: A in ``plans[k]``; every log holds the same
    deals in the same order)."""
    deals = len(logs[0])
    sums = {"a_pos": np.zeros(deals), "b_pos": np.zeros(deals),
            "a_first": np.zeros(deals), "b_first": np.zeros(deals)}
    for log, seats_a in zip(logs, plans):
        if len(log) != deals or not (log.index == logs[0].index).all():
            raise ValueError("every seating must play the same deals")
        a = np.isin(np.arange(num_players), seats_a)
        place, first = positions(log.rewards), first_shares(log.rewards)
        sums["a_pos"] += place[:, a].mean(1)
        sums["b_pos"] += place[:, ~a].mean(1)
        sums["a_first"] += first[:, a].sum(1)
        sums["b_first"] += first[:, ~a].sum(1)
    return {k: v / len(plans) for k, v in sums.items()}


def score(label_a: str, label_b: str, logs: list[GameLog], plans: list[tuple[int, ...]],
          num_players: int) -> tuple[Side, Side, tuple[float, float, float]]:
    """Both sides' results, each with a bootstrap 95% interval over deals (whose ends stay
    inside the possible range: positions in [1, n], shares in [0, 1]), and A's mean position
    minus B's with its paired interval (negative: A places better)."""
    d = per_deal(logs, plans, num_players)
    sides = []
    for label, key, seats in ((label_a, "a", len(plans[0])),
                              (label_b, "b", num_players - len(plans[0]))):
        pos, *pos_ci = bootstrap_mean(d[f"{key}_pos"])
        first, *first_ci = bootstrap_mean(d[f"{key}_first"])
        sides.append(Side(label, seats, pos, tuple(pos_ci), first, tuple(first_ci)))
    return sides[0], sides[1], paired_difference(d["a_pos"], d["b_pos"])


def play_seatings(game: str, params: dict, a, b, deals: int, seed: int, seats: int,
                  workers: int | None = 1, ray_address: str | None = None,
                  batch_games: int = BATCH_GAMES, slots: int = SLOTS
                  ) -> tuple[list[GameLog], list[tuple[int, ...]]]:
    """Deals ``0 .. deals-1`` of ``seed`` in every seating of ``a`` (entrants, or anything with
    ``label`` and ``build``) against ``b``; one log per seating."""
    n = params["num_players"]
    plans = seatings(n, seats)
    batches = []
    for k, seats_a in enumerate(plans):
        sides = tuple(a if s in seats_a else b for s in range(n))
        batches += batches_for(game, params, sides, seed, deals, batch_games, slots, tag=k)
    by_plan: dict[int, list[GameLog]] = {}
    for batch, log in zip(batches, run_batches(batches, workers=workers, ray_address=ray_address)):
        by_plan.setdefault(batch.tag, []).append(log)
    return [GameLog.concat(by_plan[k]) for k in range(len(plans))], plans


def ffa_match(game: str, policy: str, against: str, deals: int, seed: int = 0,
              seats: int | None = None, workers: int | None = None,
              ray_address: str | None = None, greedy: bool = False, **params) -> FFAResult:
    """``policy`` (a name, a checkpoint path or LABEL@SOURCE) in ``seats`` seats (default half
    the table, rounded down) against ``against`` in the rest, every deal in every seating.
    Names and checkpoints are checked against the game before a game is played. ``greedy``:
    ``policy`` (a checkpoint) takes its most likely action instead of sampling one."""
    spec = envs.registry[game]
    if not free_for_all(spec):
        raise ValueError(f"{game} is a team game; score it with `hiddendeck eval {game}`")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 2:
        raise ValueError(f"deals must be an integer >= 2 (an interval needs two), got {deals!r}")
    params = spec.resolve(**params)
    a, b = resolve(policy, spec, params), resolve(against, spec, params)
    if greedy:
        a = played_greedy(a)
    if a.label == b.label:
        raise ValueError(f"both sides are labelled {a.label!r}: give two different policies, "
                         f"or LABEL@SOURCE for two copies of one")
    seats = params["num_players"] // 2 if seats is None else seats
    logs, plans = play_seatings(game, params, a, b, deals, seed, seats, workers, ray_address)
    side_a, side_b, difference = score(a.label, b.label, logs, plans, params["num_players"])
    return FFAResult(game, spec.version, params, seed, deals, plans, (side_a, side_b),
                     {a.label: a.source, b.label: b.source},
                     int(sum(log.truncated.sum() for log in logs)), difference)


@dataclass(frozen=True)
class InProcess:
    """A policy already built in this process (the trainer's learner), standing where the
    harness expects an entrant; only for games played here (``workers=1``)."""

    label: str
    policy: Policy

    @property
    def identity(self) -> str:
        """What the label means, as `Entrant.identity` says it: this very object."""
        return f"in-process:{id(self.policy)}"

    def build(self, spec, params, seed) -> Policy:
        return self.policy
