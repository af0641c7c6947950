"""Cross-play between a run's checkpoints: do later teams beat a fixed set of earlier opponents?

    python -m training.crossplay runs/menace5-selfplay --snapshots 5 --games 2000

Self-play can cycle: a later crew may only beat the latest menace and lose to older ones. This
plays the crew of each of ``--snapshots`` checkpoints (evenly spaced over the run, the last
included) against the menace of each, and prints the first team's win rate with Wilson 95%
intervals: reading down a column, later crews against one fixed opponent.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import envs
from agents.checkpoint import load_checkpoint
from agents.neural import load_policy
from evaluation.match import play_match


def crossplay(run: Path, snapshots: int, games: int, seed: int) -> tuple[list[str], list[list]]:
    steps = sorted((run / "checkpoints").glob("step_*"))
    if len(steps) < 2:
        raise ValueError(f"{run}: needs at least two checkpoints (train with --checkpoint-every)")
    picks = [steps[int(round(k))] for k in np.linspace(0, len(steps) - 1, min(snapshots,
                                                                               len(steps)))]
    some = next(p for p in sorted(picks[-1].glob("*.pt")) if p.name != "trainer.pt")
    meta = load_checkpoint(some)["metadata"]
    game, params = meta["game"], meta["params"]
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
    return [p.name for p in picks], table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.crossplay")
    parser.add_argument("run", type=Path, help="run directory with several checkpoints")
    parser.add_argument("--snapshots", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=424242, help="deals unseen in training")
    ns = parser.parse_args(argv)
    names, table = crossplay(ns.run, ns.snapshots, ns.games, ns.seed)
    print("rows: first team's checkpoint; columns: second team's; cells: first team's wins")
    print("| first \\ second | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for name, cells in zip(names, table):
        print(f"| {name} | " + " | ".join(f"{r:.3f} [{lo:.3f}, {hi:.3f}]" for r, lo, hi in cells)
              + " |")


if __name__ == "__main__":
    main()
