"""Balance: how often the first team (the Crew) wins at every table size, with 95% intervals.

Two pairings per table size: random against random (what the rules alone give) and the game's
heuristic against itself (what play that follows each side's goal gives). The second is the
figure a designer tunes: a game whose informed sides do not each win a fair share is broken.
"""

from __future__ import annotations

import importlib
import time

import envs
from agents import make_policy

from .match import play_match

PAIRINGS = ("random", "heuristic")
# Free-for-all games have no first team: their own table (by starting position, cards used).
OWN_TABLE = {"maniacal": "evaluation.maniacal_balance"}


def run_balance(name: str, games: int = 10_000, seed: int = 0, players=None) -> dict:
    """``games`` games per (table size, pairing); table sizes default to the game's range."""
    if name in OWN_TABLE:
        return importlib.import_module(OWN_TABLE[name]).run_balance(name, games, seed, players)
    spec = envs.registry[name]
    first = spec.teams[0]
    players = players or range(spec.min_players, spec.max_players + 1)
    rows = []
    start = time.perf_counter()
    for n in players:
        params = spec.resolve(num_players=n)
        for pairing in PAIRINGS:
            policy = make_policy(pairing, spec, params, seed=seed)
            result = play_match(
                name, {team: policy for team in spec.teams}, games, seed=seed, **params
            )
            lo, hi = result.interval(first)
            rows.append(
                {
                    "num_players": n,
                    "pairing": pairing,
                    "games": result.games,
                    "win_rate": result.rate(first),
                    "interval95": [lo, hi],
                    "draws": result.draws,
                    "decisions_per_game": result.decisions / max(1, result.games),
                }
            )
    return {
        "game": name,
        "version": spec.version,
        "team": first,
        "seed": seed,
        "rows": rows,
        "seconds": time.perf_counter() - start,
    }


def format_balance(result: dict) -> str:
    """A Markdown table, as pasted into the game's rules document."""
    if result["game"] in OWN_TABLE:
        return importlib.import_module(OWN_TABLE[result["game"]]).format_balance(result)
    team = result["team"]
    lines = [
        f"| Players | {'Pairing':<9} | Games | {team.capitalize()} wins | 95% interval "
        "| Draws | Decisions / game |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lo, hi = r["interval95"]
        lines.append(
            f"| {r['num_players']} | {r['pairing']:<9} | {r['games']:,} | {r['win_rate']:.1%} "
            f"| [{lo:.1%}, {hi:.1%}] | {r['draws']} | {r['decisions_per_game']:.0f} |"
        )
    return "\n".join(lines)
