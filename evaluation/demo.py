"""The main job on defaults: who wins Among Us when heuristic crewmates meet each impostor."""

from __future__ import annotations

import time

import envs
from agents.amongus_heuristic import AmongUsHeuristic
from agents.policy import RandomPolicy

from .match import play_match


def format_table(rows: list[tuple[str, str, dict]]) -> str:
    head = f"{'crew':<12} {'impostor':<12} {'games':>7} {'crew wins':>10} {'95% interval':>17} {'draws':>6}"
    lines = [head, "-" * len(head)]
    for crew, impostor, r in rows:
        lo, hi = r["interval95"]["crew"]
        lines.append(
            f"{crew:<12} {impostor:<12} {r['games']:>7} {r['win_rate']['crew']:>9.1%} "
            f"  [{lo:6.1%}, {hi:6.1%}] {r['draws']:>6}"
        )
    return "\n".join(lines)


def run_demo(games: int = 10_000, seed: int = 0) -> None:
    spec = envs.registry["amongus"]
    params = spec.resolve()
    heuristic = AmongUsHeuristic(spec, params)
    random_policy = RandomPolicy(seed)
    print(f"Among Us – The Card Game, {params['num_players']} players, {games:,} games per row")
    rows = []
    start = time.perf_counter()
    for impostor_name, impostor in (("random", random_policy), ("heuristic", heuristic)):
        result = play_match("amongus", {"crew": heuristic, "impostor": impostor}, games, seed=seed)
        rows.append(("heuristic", impostor_name, result.as_dict()))
    print(format_table(rows))
    print(f"({time.perf_counter() - start:.1f} s)")
