"""Balance: how often the first team (the Crew) wins at every table size, with 95% intervals.

Pairings per table size: random against random (what the rules alone give), the game's
heuristic against itself (what play that follows each side's goal gives), and the heuristic
against each scripted exploit of the game (``agents.SCRIPTED``; e.g. the Menace's ``drain``),
which plays the team it was written for. The second is the figure a designer tunes: a game whose
informed sides do not each win a fair share is broken; the exploit rows say whether the
heuristic is a reference worth scoring against, or a simple script crushes it.
"""

from __future__ import annotations

import time

import envs
from agents import SCRIPTED, make_policy, scripted_class

from .match import play_match


def pairings(name: str) -> list[dict[str, str]]:
    """Each pairing as {team: policy name}, in the order the table lists them."""
    teams = envs.registry[name].teams
    out = [{t: "random" for t in teams}, {t: "heuristic" for t in teams}]
    for policy in SCRIPTED.get(name, {}):
        team = getattr(scripted_class(name, policy), "team", None)
        if policy != "heuristic" and team in teams:
            out.append({t: policy if t == team else "heuristic" for t in teams})
    return out


def pairing_label(policies: dict[str, str]) -> str:
    """One name where every team plays the same policy, else the names in team order."""
    names = list(policies.values())
    return names[0] if len(set(names)) == 1 else " vs ".join(names)


def run_balance(name: str, games: int = 10_000, seed: int = 0, players=None) -> dict:
    """``games`` games per (table size, pairing); table sizes default to the game's range."""
    spec = envs.registry[name]
    first = spec.teams[0]
    players = players or range(spec.min_players, spec.max_players + 1)
    rows = []
    start = time.perf_counter()
    for n in players:
        params = spec.resolve(num_players=n)
        for policies in pairings(name):
            made = {}  # one instance per policy name, shared by the teams that play it
            for policy in set(policies.values()):
                made[policy] = make_policy(policy, spec, params, seed=seed)
            result = play_match(
                name, {t: made[p] for t, p in policies.items()}, games, seed=seed, **params
            )
            lo, hi = result.interval(first)
            rows.append(
                {
                    "num_players": n,
                    "pairing": pairing_label(policies),
                    "policies": policies,
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
        "teams": list(spec.teams),
        "seed": seed,
        "rows": rows,
        "seconds": time.perf_counter() - start,
    }


def format_balance(result: dict) -> str:
    """A Markdown table, as pasted into the game's rules document: one column per team's policy."""
    team, teams = result["team"], result["teams"]
    head = " | ".join(t.capitalize() for t in teams)
    lines = [
        f"| Players | {head} | Games | {team.capitalize()} wins | 95% interval "
        "| Draws | Decisions / game |",
        "|---" * (len(teams) + 6) + "|",
    ]
    for r in result["rows"]:
        lo, hi = r["interval95"]
        policies = " | ".join(r["policies"][t] for t in teams)
        lines.append(
            f"| {r['num_players']} | {policies} | {r['games']:,} | {r['win_rate']:.1%} "
            f"| [{lo:.1%}, {hi:.1%}] | {r['draws']} | {r['decisions_per_game']:.0f} |"
        )
    return "\n".join(lines)
