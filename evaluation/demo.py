"""The main job on defaults: train crew and menace by self-play on The Menace Among Us, then
pit the trained crew against the trained menace and each against the heuristic other side."""

from __future__ import annotations

import time
from pathlib import Path

import envs
from agents import make_policy
from agents.neural import load_policy

from .match import play_match

GAME = "menace"
NUM_PLAYERS = 5


def format_table(rows: list[tuple[str, str, dict]], teams: tuple[str, str]) -> str:
    first, second = teams
    head = (
        f"{first:<10} {second:<10} {'games':>7} {first + ' wins':>10} {'95% interval':>17} "
        f"{'draws':>6}"
    )
    lines = [head, "-" * len(head)]
    for a, b, r in rows:
        lo, hi = r["interval95"][first]
        lines.append(
            f"{a:<10} {b:<10} {r['games']:>7} {r['win_rate'][first]:>9.1%} "
            f"  [{lo:6.1%}, {hi:6.1%}] {r['draws']:>6}"
        )
    return "\n".join(lines)


def run_demo(seconds: float = 180.0, games: int = 2_000, out: str = "runs/demo", seed: int = 0):
    from training.cli import train_teams

    spec = envs.registry[GAME]
    params = spec.resolve(num_players=NUM_PLAYERS)
    print(
        f"The Menace Among Us, {NUM_PLAYERS} players: self-play PPO for {seconds:.0f} s, "
        f"then {games:,} games per pairing.",
        flush=True,
    )
    start = time.perf_counter()
    paths = train_teams(GAME, NUM_PLAYERS, Path(out), seconds=seconds, seed=seed)
    trained = {
        team: load_policy(paths[team], game=GAME, team=team, seed=seed, **params)
        for team in spec.teams
    }
    heuristic = make_policy("heuristic", spec, params, seed)
    crew, menace = spec.teams
    pairings = [
        ("trained", "trained", trained[crew], trained[menace]),
        ("trained", "heuristic", trained[crew], heuristic),
        ("heuristic", "trained", heuristic, trained[menace]),
        ("heuristic", "heuristic", heuristic, heuristic),
    ]
    rows = []
    for a, b, p, q in pairings:
        result = play_match(GAME, {crew: p, menace: q}, games, seed=seed + 1, **params)
        rows.append((a, b, result.as_dict()))
    print(format_table(rows, (crew, menace)))
    print(f"checkpoints: {', '.join(str(paths[t]) for t in spec.teams)}")
    print(f"({time.perf_counter() - start:.0f} s in all)")
