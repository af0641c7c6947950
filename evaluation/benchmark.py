"""``hiddendeck benchmark``: a policy's score against a reference population, paired with the
heuristic's on the same deals.

    hiddendeck benchmark menace --team crew --policy runs/x/crew.pt --players 5 [--json]
    hiddendeck benchmark amongus --team crew --policy runs/x/crew.pt --players all

For a team game, the policy plays ``--team`` against every member of the population that plays
the other team (``agents.populations``), and the heuristic plays the same team against the same
members on the same numbered deals (the reference). Reported: each member's win rate with its
Wilson interval, the mean over members and the worst member, each beside the heuristic's, and
each difference from the heuristic with a paired bootstrap interval over deals. For a
free-for-all game (MANIACAL) the score is the mean position (1 = best, lower is better) of the
policy in half the seats against the member in the rest, every seating of every deal.

A seat network plays every table size of its game: ``--players 4,6,8`` or ``--players all``
scores it at each size in turn, each size's report as above (the same members, at that size,
on the same numbered deals), then one row a size: its held-out mean, the heuristic's, and the
paired difference with its interval, each size marked as one the checkpoint trained at or
never met (``benchmark_sizes``, ``format_sizes``).

``python -m evaluation.benchmark --tables --games 2000`` writes docs/evaluation.md's population
tables: random and the heuristic, each side, every reference table size.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

import envs
from agents import zoo
from agents.populations import DEFAULT, REFERENCE_SIZES, population

from .crossplay import cross_play
from .entrants import free_for_all, is_checkpoint, played_greedy, resolve, resolve_all
from .ffa import per_deal, play_seatings
from .stats import DRAWS, format_difference, mean_interval, paired_difference
from .tournament import SCHEMA, check_database_file, read_only

SCORING_SEED = 1_000_003  # a seed no trainer uses by default: deals never seen in training
REFERENCE = "heuristic"


def _block(name_rates: list[tuple[str, np.ndarray]], lower_is_better: bool) -> dict:
    """``mean``, ``worst`` and ``members`` of one policy's per-deal outcomes by member: each
    with its 95% interval (Wilson's for a win rate, the bootstrap's for mean positions and for
    the mean over members)."""
    members = []
    for name, x in name_rates:
        rate, lo, hi = mean_interval(x)
        members.append({"name": name, "rate": rate, "interval": [lo, hi]})
    stacked = np.stack([x for _, x in name_rates], axis=1)  # [deals, members]
    mean, lo, hi = mean_interval(stacked.mean(axis=1))
    pick = max if lower_is_better else min
    worst = pick(members, key=lambda m: m["rate"])
    return {"mean": {"rate": mean, "interval": [lo, hi]}, "worst": dict(worst),
            "members": members}


def met_in_training(policy: str) -> tuple[str, ...]:
    """The population members ``policy`` met in training, as its own record says: a zoo
    policy's ``agents.zoo.met``, a checkpoint's ``seen_in_training`` (what its run imitated,
    trained against or was taught by). A scripted player met nothing."""
    source = policy.partition("@")[2] or policy
    if zoo.is_zoo(source):
        return zoo.met(source)
    if is_checkpoint(source):
        from agents.checkpoint import load_checkpoint
        from training.run_checkpoint import seen_in_training

        return tuple(sorted(seen_in_training(load_checkpoint(source)["metadata"].get("args")
                                             or {})))
    return ()


def _left_out(member: str, spec, params, exclude) -> bool:
    """A member is left out when ``exclude`` names its label or its source."""
    entrant = resolve(member, spec, params)
    return entrant.label in exclude or member.partition("@")[2] in exclude


def _outcomes(game, team, policy, members, games, seed, workers, params, seats, greedy=False
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict | None, str, str]:
    """``{label: {member: per-deal outcome}}`` for the policy and the reference, the same for
    draws (1 where the deal was drawn; None in a free-for-all), and their labels. A team's
    outcome on a deal is 1 if it won, else 0 (a draw is not a win)."""
    spec = envs.registry[game]
    mine = resolve(policy, spec, params)
    if greedy:
        mine = played_greedy(mine)
    reference = resolve(REFERENCE, spec, params)
    entrants = resolve_all(members, spec, params)
    if free_for_all(spec):
        if team != "player":
            raise ValueError(f"{game} is a free-for-all: its only team is 'player'")
        n = params["num_players"]
        out: dict[str, dict[str, np.ndarray]] = {}
        for side in ({mine.label: mine, reference.label: reference}).values():
            out[side.label] = {}
            for member in entrants:
                logs, plans = play_seatings(game, params, side, member, games, seed, seats,
                                            workers)
                out[side.label][member.label] = per_deal(logs, plans, n)["a_pos"]
        return out, None, mine.label, reference.label
    if seats is not None:
        raise ValueError(f"--seats is for a free-for-all game; {game} has teams")
    if team not in spec.teams:
        raise ValueError(f"{game} has no team {team!r}; its teams are {list(spec.teams)}")
    if team not in mine.roles:
        raise ValueError(f"{mine.source} plays {list(mine.roles)}, not {team}")
    others = [t for t in spec.teams if t != team]
    if len(others) != 1:
        raise ValueError(f"benchmark needs a two-team game; {game} has {list(spec.teams)}")
    for member in entrants:
        if others[0] not in member.roles:
            raise ValueError(f"population member {member.label} does not play {others[0]}")
    lineup = [f"{mine.label}@{mine.source}"]
    if reference.label != mine.label:
        lineup.append(REFERENCE)
    result = cross_play(game, {team: lineup, others[0]: members}, games, seed=seed,
                        workers=workers, **params)
    k = spec.teams.index(team)
    out = {mine.label: {}, reference.label: {}}
    drawn = {mine.label: {}, reference.label: {}}
    for cell in result.cells:
        log = cell.log
        order = np.argsort(log.index)
        if not (log.index[order] == np.arange(games)).all():
            raise RuntimeError("a cross-play cell did not play deals 0 .. games-1")
        out[cell.sides[k]][cell.sides[1 - k]] = (log.winner[order] == k).astype(np.float64)
        drawn[cell.sides[k]][cell.sides[1 - k]] = (log.winner[order] < 0).astype(np.float64)
    return out, drawn, mine.label, reference.label


def _difference(d: tuple[float, float, float]) -> dict:
    return {"mean": d[0], "interval": [d[1], d[2]]}


def benchmark(game: str, team: str, policy: str, population_name: str = DEFAULT,
              games: int = 2000, seed: int = SCORING_SEED, workers: int | None = None,
              db: str | Path | None = None, exclude: tuple[str, ...] = (),
              seats: int | None = None, per_deal_outcomes: bool = False, greedy: bool = False,
              **params) -> dict:
    """The policy's and the heuristic's blocks against the population, and their differences.
    ``exclude``: member labels (or sources) left out, such as the opponents a policy met in
    training (``met_in_training``): a score against them is not a held-out one; the report
    names the members left out. ``seats``: a free-for-all's seats for the policy (default half
    the table, rounded down; 1 for "one seat against the rest"). ``per_deal_outcomes``: also
    return each deal's mean over members for the policy and the reference (``per_deal``), for
    intervals across runs scored on the same deals. ``greedy``: the policy (a checkpoint) takes
    its most likely action; the report says which play was scored. Stored in the results
    database ``db`` when given."""
    spec = envs.registry[game]
    params = spec.resolve(**params)
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise ValueError(f"games must be an integer >= 2 (an interval needs two), got {games!r}")
    ffa = free_for_all(spec)
    other = "player" if ffa else next((t for t in spec.teams if t != team), None)
    if other is None:
        raise ValueError(f"{game} has no team other than {team!r}")
    if ffa:
        seats = params["num_players"] // 2 if seats is None else seats
        if not 1 <= seats < params["num_players"]:
            raise ValueError(f"seats must be between 1 and {params['num_players'] - 1} at "
                             f"{params['num_players']} players, got {seats}")
    everyone = population(game, other, population_name, params["num_players"])
    members = [m for m in everyone if not _left_out(m, spec, params, exclude)]
    if not members:
        raise ValueError(f"every member of population {population_name} is excluded")
    if db is not None:
        check_results_file(db)
    out, drawn, mine, reference = _outcomes(game, team, policy, members, games, seed, workers,
                                            params, seats, greedy)
    labels = [resolve(m, spec, params).label for m in members]
    left_out = [resolve(m, spec, params).label for m in everyone if m not in members]
    blocks = {who: _block([(m, out[who][m]) for m in labels], ffa) for who in (mine, reference)}
    for row in blocks[mine]["members"]:
        m = row["name"]
        row["reference_rate"] = float(out[reference][m].mean())
        row["difference"] = _difference(paired_difference(out[mine][m], out[reference][m]))
        if drawn is not None:  # the draw share, and the score a zero-sum tool would give
            row["draws"] = float(drawn[mine][m].mean())
            row["reference_draws"] = float(drawn[reference][m].mean())
            row["score_draw_half"] = row["rate"] + row["draws"] / 2
            row["reference_score_draw_half"] = row["reference_rate"] + row["reference_draws"] / 2
    per_deal_mean = {who: np.stack([out[who][m] for m in labels], axis=1).mean(axis=1)
                     for who in (mine, reference)}
    worst = blocks[mine]["worst"]["name"]
    report = {
        "game": game, "version": spec.version, "params": params, "team": team,
        "policy": policy, "label": mine, "population": population_name, "members_play": other,
        "play": "greedy" if greedy else "sampled", "excluded": sorted(left_out),
        "seed": seed, "games": games,
        "measure": ("mean position (1 = best)" if ffa
                    else f"{team} win rate ({DRAWS})"),
        "lower_is_better": ffa,
        "mean": blocks[mine]["mean"], "worst": blocks[mine]["worst"],
        "members": blocks[mine]["members"],
        "reference": {"policy": REFERENCE, **blocks[reference]},
        "difference": {
            "mean": _difference(paired_difference(per_deal_mean[mine],
                                                  per_deal_mean[reference])),
            "worst": {"member": worst, **next(m["difference"] for m in blocks[mine]["members"]
                                              if m["name"] == worst)}},
    }
    if ffa:
        report["seats"] = seats
    if db is not None:
        store(db, report)
    if per_deal_outcomes:
        report["per_deal"] = {"mean": per_deal_mean[mine].tolist(),
                              "reference": per_deal_mean[reference].tolist()}
    return report


def benchmark_sizes(game: str, team: str, policy: str, sizes: tuple[int, ...],
                    population_name: str = DEFAULT, **kwargs) -> dict[int, dict]:
    """``benchmark`` at each of ``sizes`` (``kwargs``: its other arguments and the game's
    other parameters), by size; the seat network a checkpoint names plays every size."""
    if not sizes or len(set(sizes)) != len(sizes):
        raise ValueError(f"table sizes must be distinct and at least one, got {list(sizes)}")
    return {n: benchmark(game, team, policy, population_name, num_players=n, **kwargs)
            for n in sizes}


def trained_sizes(policy: str) -> tuple[int, ...]:
    """The table sizes a checkpoint (or zoo policy) trained at, as its metadata records them
    (``table_sizes``; before mixed sizes, its one table); () for a scripted player."""
    source = policy.partition("@")[2] or policy
    if zoo.is_zoo(source):
        source = str(zoo.path(source))
    if not is_checkpoint(source):
        return ()
    from agents.checkpoint import load_checkpoint

    metadata = load_checkpoint(source)["metadata"]
    return tuple(metadata.get("table_sizes") or (metadata["params"]["num_players"],))


def format_sizes(reports: dict[int, dict], trained_at: tuple[int, ...] = ()) -> str:
    """One row a table size: the held-out mean, the heuristic's on the same deals, and the
    paired difference with its 95% interval, each size marked trained at or never met."""
    first = next(iter(reports.values()))
    lib = first["lower_is_better"]
    lines = [f"{first['label']} as {first['team']} against population {first['population']}, "
             f"by table size; {first['measure']}{' (lower is better)' if lib else ''}",
             f"  {'players':<8} {'trained':<11} {'policy [95%]':>22} {'heuristic':>10} "
             f"{'difference [paired 95%]':>28}"]
    for n, r in reports.items():
        mean, d = r["mean"], r["difference"]["mean"]
        met = "trained at" if n in trained_at else "never met" if trained_at else "-"
        lines.append(f"  {n:<8} {met:<11} {mean['rate']:>7.3f} [{mean['interval'][0]:.3f}, "
                     f"{mean['interval'][1]:.3f}] {r['reference']['mean']['rate']:>10.3f} "
                     f"{format_difference((d['mean'], *d['interval'])):>28}")
    return "\n".join(lines)


BENCHMARK_SCHEMA = """
CREATE TABLE IF NOT EXISTS benchmarks (
    id INTEGER PRIMARY KEY, utc TEXT NOT NULL, game TEXT NOT NULL, version INTEGER NOT NULL,
    params TEXT NOT NULL, team TEXT NOT NULL, policy TEXT NOT NULL, population TEXT NOT NULL,
    seed INTEGER NOT NULL, games INTEGER NOT NULL, report TEXT NOT NULL);
"""


# What a results database may hold: the tournament's tables and view, the benchmarks, and
# SQLite's own; anything else belongs to another application, whose file is not written to.
HIDDENDECK_TABLES = frozenset(re.findall(r"CREATE (?:TABLE|VIEW) IF NOT EXISTS (\w+)",
                                         SCHEMA + BENCHMARK_SCHEMA))


def check_results_file(db: str | Path) -> None:
    """Refuse, before anything is played or written, a file that is not a sound hiddendeck
    results database (as ``tournament`` does): not SQLite, damaged (``PRAGMA integrity_check``)
    or holding another application's tables. A missing or empty file becomes one."""
    check_database_file(db)
    path = Path(db)
    if not path.is_file() or not path.stat().st_size:
        return
    with read_only(path) as con:
        damage = con.execute("PRAGMA integrity_check").fetchone()[0]
        names = {row[0] for row in con.execute("SELECT name FROM sqlite_master "
                                               "WHERE type IN ('table', 'view')")}
    if damage != "ok":  # its first finding, on one line
        first = next((line for line in damage.splitlines() if not line.startswith("*")), damage)
        raise ValueError(f"{path}: a damaged SQLite database (integrity_check: {first}); "
                         f"give another --db")
    others = sorted(n for n in names if n not in HIDDENDECK_TABLES and not n.startswith("sqlite_"))
    if others:
        raise ValueError(f"{path}: not a hiddendeck results database (it holds {others}); "
                         f"give another --db")


def store(db: str | Path, report: dict) -> None:
    path = Path(db)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = sqlite3.connect(path)
        with con:
            con.executescript(BENCHMARK_SCHEMA)
            con.execute(
                "INSERT INTO benchmarks (utc, game, version, params, team, policy, population, "
                "seed, games, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (datetime.now(timezone.utc).isoformat(timespec="seconds"), report["game"],
                 report["version"], json.dumps(report["params"], sort_keys=True),
                 report["team"], report["policy"], report["population"], report["seed"],
                 report["games"], json.dumps(report)))
        con.close()
    except sqlite3.DatabaseError as e:
        raise ValueError(f"{path}: cannot store the benchmark ({e})") from None


def format_report(r: dict) -> str:
    lib = r["lower_is_better"]
    seats = (f"{r['seats']} seat{'s' if r['seats'] > 1 else ''} of {r['params']['num_players']}"
             f" against the member in the rest, " if "seats" in r else "")
    greedy = " (greedy)" if r.get("play") == "greedy" else ""
    head = (f"{r['game']} v{r['version']} {r['params']['num_players']}p: {r['label']}{greedy} as "
            f"{r['team']} against population {r['population']} ({r['members_play']}), "
            f"{seats}{r['games']} paired deals, seed {r['seed']}; {r['measure']}"
            f"{' (lower is better)' if lib else ''}")
    w = max(12, *(len(m["name"]) for m in r["members"]))
    lines = [head]
    if r["excluded"]:
        lines.append(f"  left out (met in training, or --exclude): {', '.join(r['excluded'])}")
    lines.append(f"  {'member':<{w}} {'policy [95%]':>22} {'heuristic':>10} "
                 f"{'difference [paired 95%]':>28}")
    draws = any(m.get("draws", 0) or m.get("reference_draws", 0) for m in r["members"])
    if draws:
        lines[-1] += f"  {'draws (policy, heuristic)':>26}"
    for m in r["members"]:
        lo, hi = m["interval"]
        d = m["difference"]
        lines.append(f"  {m['name']:<{w}} {m['rate']:>7.3f} [{lo:.3f}, {hi:.3f}] "
                     f"{m['reference_rate']:>10.3f} "
                     f"{format_difference((d['mean'], *d['interval'])):>28}")
        if draws:
            lines[-1] += f"  {m['draws']:>12.3f}, {m['reference_draws']:.3f}"
    mean, ref = r["mean"], r["reference"]["mean"]
    d = r["difference"]["mean"]
    lines.append(f"  {'mean':<{w}} {mean['rate']:>7.3f} [{mean['interval'][0]:.3f}, "
                 f"{mean['interval'][1]:.3f}] {ref['rate']:>10.3f} "
                 f"{format_difference((d['mean'], *d['interval'])):>28}")
    worst, rw, dw = r["worst"], r["reference"]["worst"], r["difference"]["worst"]
    lines.append(f"  worst: {worst['name']} {worst['rate']:.3f} [{worst['interval'][0]:.3f}, "
                 f"{worst['interval'][1]:.3f}], minus the heuristic's against the same member "
                 f"{format_difference((dw['mean'], *dw['interval']))} (paired); the "
                 f"heuristic's own worst: {rw['name']} {rw['rate']:.3f}")
    if draws:
        mine = min(m["score_draw_half"] for m in r["members"])
        theirs = min(m["reference_score_draw_half"] for m in r["members"])
        lines.append(f"  a draw is not a win; counting a draw as half a win (as metagame and "
                     f"tournament do), the lowest: policy {mine:.3f}, heuristic {theirs:.3f}")
    return "\n".join(lines)


def tables(games: int, seed: int = SCORING_SEED, workers: int | None = None) -> str:
    """docs/evaluation.md's population tables: random and the heuristic (random's reference, on
    the same deals) on every side of every game at the reference sizes, every member's row."""
    out = [f"Population {DEFAULT}, {games} paired deals per member (seed {seed}); generated by "
           f"`python -m evaluation.benchmark --tables --games {games}`.", ""]
    for game, sizes in REFERENCE_SIZES.items():
        spec = envs.registry[game]
        ffa = free_for_all(spec)
        for n in sizes:
            for team in (["player"] if ffa else spec.teams):
                r = benchmark(game, team, "random", games=games, seed=seed, workers=workers,
                              num_players=n)
                h = r["reference"]
                out += [f"**{game} v{spec.version}, {n} players, {team}** ({r['measure']}"
                        f"{', lower is better' if ffa else ''}; the members play "
                        f"{r['members_play']})", "",
                        "| member | random [95%] | heuristic [95%] | heuristic - random "
                        "[paired 95%] |", "|---|---|---|---|"]
                for a, b in zip(r["members"], h["members"]):
                    out.append(f"| {a['name']} | {_cell(a)} | {_cell(b)} | "
                               f"{_negated(a['difference'])} |")
                out.append(f"| **mean** | {_cell(r['mean'])} | {_cell(h['mean'])} | "
                           f"{_negated(r['difference']['mean'])} |")
                out.append(f"| **worst** | {r['worst']['rate']:.3f} ({r['worst']['name']}) | "
                           f"{h['worst']['rate']:.3f} ({h['worst']['name']}) | |")
                out.append("")
    return "\n".join(out)


def _cell(block: dict) -> str:
    return f"{block['rate']:.3f} [{block['interval'][0]:.3f}, {block['interval'][1]:.3f}]"


def _negated(d: dict) -> str:
    """The heuristic minus random, from random's difference (random minus the heuristic)."""
    return format_difference((-d["mean"], -d["interval"][1], -d["interval"][0]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.benchmark",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", action="store_true", required=True,
                        help="print docs/evaluation.md's population tables (Markdown)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=SCORING_SEED)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    print(tables(args.games, args.seed, args.workers))


if __name__ == "__main__":
    main()
