"""Cross-play between a run's checkpoints: do later teams beat a fixed set of earlier opponents?

    python -m training.crossplay runs/menace5-selfplay --snapshots 5 --games 2000

Self-play can cycle: a later crew may only beat the latest menace and lose to older ones. This
plays the crew of each of ``--snapshots`` checkpoints (evenly spaced over the run, the last
included) against the menace of each, and prints the first team's win rate with Wilson 95%
intervals: reading down a column, later crews against one fixed opponent.

A free-for-all run has one shared policy: each cell is then the row checkpoint's mean final
position (1 best) in half the seats against the column checkpoint in the rest, every deal in
every seating (``evaluation.ffa``; ``--games`` counts deals).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import envs
from agents.checkpoint import load_checkpoint
from agents.neural import load_policy
from evaluation.entrants import free_for_all
from evaluation.ffa import ffa_match
from evaluation.match import play_match


FIRST_TEAM = "rows: first team's checkpoint; columns: second team's; cells: first team's wins"
FREE_FOR_ALL = ("rows and columns: checkpoints of the shared policy; cells: the row's mean "
                "position (1 best) in half the seats against the column's in the rest")


def crossplay(run: Path, snapshots: int, games: int, seed: int
              ) -> tuple[list[str], list[list], str]:
    """Checkpoint names, the table of ``(value, low, high)`` cells, and what a cell is."""
    steps = sorted((run / "checkpoints").glob("step_*"))
    if len(steps) < 2:
        raise ValueError(f"{run}: needs at least two checkpoints (train with --checkpoint-every)")
    picks = [steps[int(round(k))] for k in np.linspace(0, len(steps) - 1, min(snapshots,
                                                                               len(steps)))]
    some = next(p for p in sorted(picks[-1].glob("*.pt")) if p.name != "trainer.pt")
    meta = load_checkpoint(some)["metadata"]
    game, params = meta["game"], meta["params"]
    if free_for_all(envs.registry[game]):
        return [p.name for p in picks], [
            [_position(ffa_match(game, f"row@{row / 'shared.pt'}",
                                 f"column@{column / 'shared.pt'}", games, seed=seed, workers=1,
                                 **params)) for column in picks]
            for row in picks], FREE_FOR_ALL
    first, second = envs.registry[game].teams[:2]
    table = []
    for row in picks:
        player = load_policy(row / f"{first}.pt", game, team=first, seed=seed, **params)
        cells = []
        for column in picks:
            other = load_policy(column / f"{second}.pt", game, team=second, seed=seed, **params)
            result = play_match(game, {first: player, second: other}, games, seed=seed,
                                **params)
            cells.append((result.rate(first), *result.interval(first)))
        table.append(cells)
    return [p.name for p in picks], table, FIRST_TEAM


def _position(result) -> tuple[float, float, float]:
    row = result.sides[0]
    return (row.mean_position, *row.position_interval)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.crossplay")
    parser.add_argument("run", type=Path, help="run directory with several checkpoints")
    parser.add_argument("--snapshots", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=424242, help="deals unseen in training")
    ns = parser.parse_args(argv)
    names, table, caption = crossplay(ns.run, ns.snapshots, ns.games, ns.seed)
    print(caption)
    print("| first \\ second | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for name, cells in zip(names, table):
        print(f"| {name} | " + " | ".join(f"{r:.3f} [{lo:.3f}, {hi:.3f}]" for r, lo, hi in cells)
              + " |")


if __name__ == "__main__":
    main()
