"""The learning report for ``docs/training.md``: trained teams against the scripted heuristic.

    python -m training.report runs/amongus6-report --players 6 --games 20000

Three matches of Among Us, each seat driven by its team's policy: heuristic vs heuristic (the
reference), trained crew vs heuristic impostor, heuristic crew vs trained impostor (a team the
run did not train, ``--fixed``, has no row). Win rates
carry Wilson 95% intervals (``evaluation.match``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import envs
from agents.amongus_heuristic import AmongUsHeuristic
from agents.neural import load_policy
from evaluation.match import play_match
from training.ppo import latest_checkpoint


def report(run: str, num_players: int, games: int, seed: int, greedy: bool = False) -> list[dict]:
    where = latest_checkpoint(Path(run))
    params = {"num_players": num_players}
    heuristic = AmongUsHeuristic(envs.registry["amongus"], params)
    crew, impostor = (load_policy(where / f"{team}.pt", "amongus", team=team, greedy=greedy,
                                  seed=seed, **params) for team in ("crew", "impostor"))
    untrained = impostor.metadata["args"].get("fixed_teams", {})  # not trained in this run
    matches = [("heuristic crew vs heuristic impostor", {"crew": heuristic, "impostor": heuristic})]
    if "crew" not in untrained:
        matches.append(("trained crew vs heuristic impostor",
                        {"crew": crew, "impostor": heuristic}))
    if "impostor" not in untrained:
        matches.append(("heuristic crew vs trained impostor",
                        {"crew": heuristic, "impostor": impostor}))
    rows = []
    for label, policies in matches:
        result = play_match("amongus", policies, games, seed=seed, **params)
        rows.append({"match": label, "checkpoint": str(where), **result.as_dict()})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.report")
    parser.add_argument("run", help="run directory (its latest checkpoint) or checkpoint dir")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=12345, help="games unseen in training")
    parser.add_argument("--greedy", action="store_true",
                        help="trained policies take their most likely action (default: sample)")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    rows = report(ns.run, ns.players, ns.games, ns.seed, ns.greedy)
    if ns.json:
        print(json.dumps(rows, indent=2))
        return
    print("| match | games | crew wins (95% CI) | impostor wins (95% CI) | draws |")
    print("|---|---|---|---|---|")
    for r in rows:
        cells = []
        for team in ("crew", "impostor"):
            lo, hi = r["interval95"][team]
            cells.append(f"{r['win_rate'][team]:.3f} [{lo:.3f}, {hi:.3f}]")
        print(f"| {r['match']} | {r['games']} | {cells[0]} | {cells[1]} | "
              f"{r['draws'] / r['games']:.3f} |")


if __name__ == "__main__":
    main()
