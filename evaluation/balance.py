"""Balance: how often the first team (the Crew) wins at every table size, with 95% intervals.

By default two pairings per table size: random against random (what the rules alone give) and
the game's heuristic against itself (what play that follows each side's goal gives). The second
is the figure a designer tunes: a game whose informed sides do not each win a fair share is
broken. A game may list its own pairings in ``PAIRINGS``, e.g. reference bots that a side must
hold out against.
"""

from __future__ import annotations

import importlib
import time

import envs
from agents import make_policy

from .match import play_match

# game -> pairings, each one policy name per team in ``spec.teams`` order
PAIRINGS = {
    # Crews against the heuristic impostor; "chain" is the vote chain that beat version 1.
    "amongus": (("heuristic", "heuristic"), ("chain", "heuristic"), ("random", "heuristic")),
    # The heuristic Crew against the heuristic Menace and against "drain", the ability-drain
    # Menace that beat version 2's Crew.
    "menace": (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "drain")),
}
# Free-for-all games have no first team: their own table (by starting position, cards used).
OWN_TABLE = {"maniacal": "evaluation.maniacal_balance"}


def pairings_of(spec) -> tuple[tuple[str, ...], ...]:
    both = len(spec.teams)
    return PAIRINGS.get(spec.name, (("random",) * both, ("heuristic",) * both))


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
        for names in pairings_of(spec):
            policies = {
                team: make_policy(policy, spec, params, seed=seed)
                for team, policy in zip(spec.teams, names)
            }
            result = play_match(name, policies, games, seed=seed, **params)
            lo, hi = result.interval(first)
            rows.append(
                {
                    "num_players": n,
                    "pairing": " vs ".join(names) if len(set(names)) > 1 else names[0],
                    "policies": dict(zip(spec.teams, names)),
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
    width = max(len("Pairing"), *(len(r["pairing"]) for r in result["rows"]))
    lines = [
        f"| Players | {'Pairing':<{width}} | Games | {team.capitalize()} wins | 95% interval "
        "| Draws | Decisions / game |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lo, hi = r["interval95"]
        lines.append(
            f"| {r['num_players']} | {r['pairing']:<{width}} | {r['games']:,} "
            f"| {r['win_rate']:.1%} | [{lo:.1%}, {hi:.1%}] | {r['draws']} "
            f"| {r['decisions_per_game']:.0f} |"
        )
    return "\n".join(lines)
