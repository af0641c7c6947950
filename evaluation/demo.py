"""The main job on defaults: train crew and menace of The Menace Among Us by self-play with the
default recipe (``training.ppo.Args``), then score them on deals never used in training.

Four pairings, crew first: trained vs trained, trained crew vs the heuristic menace, the
heuristic crew vs the trained menace, and heuristic vs heuristic, the line each trained side
must reach. Neither side trained against the heuristic: it was imitated as a warm start, then
each side played the other's learner and a league of its snapshots.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import envs
from agents import make_policy
from agents.neural import load_policy

from .match import play_match

GAME = "menace"
NUM_PLAYERS = 5
SECONDS = 240.0  # of training, start-up included; with the evaluation, 6 minutes on 2 cores


def demo_seed(seed: int) -> int:
    """The final table's deals: a stream apart from training's and the curves' seeds."""
    return int(np.random.SeedSequence([seed, 0xDE30]).generate_state(1)[0] >> 1)


def format_table(rows: list[tuple[str, str, dict]], teams: tuple[str, str]) -> str:
    first, second = teams
    head = (f"{first:<10} {second:<10} {'games':>6} {first + ' wins':>10} {'95% interval':>16} "
            f"{second + ' wins':>12} {'95% interval':>16}")
    lines = [head, "-" * len(head)]
    for a, b, r in rows:
        cells = []
        for team in teams:
            lo, hi = r["interval95"][team]
            cells.append(f"{r['win_rate'][team]:>9.1%}  [{lo:5.1%}, {hi:5.1%}]")
        lines.append(f"{a:<10} {b:<10} {r['games']:>6} {cells[0]:>27} {cells[1]:>29}")
    return "\n".join(lines)


def verdict(side: str, team: str, trained: dict, heuristic: dict) -> str:
    """Whether the trained side wins at least as often as the heuristic side does against the
    same heuristic opponent, judged by the 95% intervals."""
    t, h = trained["win_rate"][team], heuristic["win_rate"][team]
    t_lo, t_hi = trained["interval95"][team]
    h_lo, h_hi = heuristic["interval95"][team]
    if t_lo > h_hi:
        word = "better than"
    elif t_hi < h_lo:
        word = "WORSE than"
    else:
        word = "as good as (intervals overlap)"
    return f"trained {side}: {t:.1%} against the heuristic, {word} the heuristic {side}'s {h:.1%}"


def run_demo(seconds: float = SECONDS, games: int = 2_000, out: str = "runs/demo", seed: int = 0):
    from training.cli import train_teams

    spec = envs.registry[GAME]
    params = spec.resolve(num_players=NUM_PLAYERS)
    crew, menace = spec.teams
    print(f"The Menace Among Us, {NUM_PLAYERS} players: {seconds:.0f} s of self-play training "
          f"(imitation warm start, league of snapshots; no scripted opponent), then {games:,} "
          f"games per pairing on unseen deals.", flush=True)
    start = time.perf_counter()
    paths = train_teams(GAME, NUM_PLAYERS, Path(out), seconds=seconds, seed=seed)
    trained = {team: load_policy(paths[team], game=GAME, team=team, seed=seed, **params)
               for team in spec.teams}
    heuristic = make_policy("heuristic", spec, params, seed)
    pairings = [
        ("trained", "trained", trained[crew], trained[menace]),
        ("trained", "heuristic", trained[crew], heuristic),
        ("heuristic", "trained", heuristic, trained[menace]),
        ("heuristic", "heuristic", heuristic, heuristic),
    ]
    rows = []
    for a, b, p, q in pairings:
        result = play_match(GAME, {crew: p, menace: q}, games, seed=demo_seed(seed), **params)
        rows.append((a, b, result.as_dict()))
    print(format_table(rows, (crew, menace)))
    print(verdict(crew, crew, rows[1][2], rows[3][2]))
    print(verdict(menace, menace, rows[2][2], rows[3][2]))
    print(f"learning curves against held-out opponents: {Path(out) / 'curves.png'}")
    print(f"checkpoints: {', '.join(str(paths[t]) for t in spec.teams)}")
    print(f"({time.perf_counter() - start:.0f} s in all)")
