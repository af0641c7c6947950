"""docs/evaluation.md's population v3 grids: one row per member, one column per table size,
from ``hiddendeck benchmark ... --policy random --json`` reports (one file per size).

Each cell is the heuristic's rate / random's rate against the member on the same deals, then the
paired difference heuristic - random with its 95% interval; **bold** where the heuristic wins
under 35%. A member absent at a size (a zoo member plays only at its own) shows "-".

    python -m evaluation.population_grid bench-crew-4.json bench-crew-5.json ...
"""

from __future__ import annotations

import argparse
import json

BAR = 0.35


def cell(member: dict) -> str:
    heuristic, random = member["reference_rate"], member["rate"]
    d = member["difference"]  # the report's is random - heuristic (the policy - its reference)
    mean, (lo, hi) = -d["mean"], (-d["interval"][1], -d["interval"][0])
    shown = f"**{heuristic:.3f}**" if heuristic < BAR else f"{heuristic:.3f}"
    return f"{shown} / {random:.3f} ({mean:+.3f} [{lo:+.3f}, {hi:+.3f}])"


def grid(reports: list[dict]) -> str:
    """The Markdown table of these reports (one team, one population, one size each)."""
    if not reports:
        raise ValueError("no reports given")
    teams = {(r["game"], r["team"], r["population"], r["policy"]) for r in reports}
    if len(teams) != 1:
        raise ValueError(f"the reports mix games, teams, populations or policies: {sorted(teams)}")
    reports = sorted(reports, key=lambda r: r["params"]["num_players"])
    sizes = [r["params"]["num_players"] for r in reports]
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"two reports for one table size: {sizes}")
    names: list[str] = []
    for r in reports:
        names += [m["name"] for m in r["members"] if m["name"] not in names]
    lines = ["| member | " + " | ".join(f"{n} players" for n in sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    for name in names:
        cells = []
        for r in reports:
            member = next((m for m in r["members"] if m["name"] == name), None)
            cells.append(cell(member) if member else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.population_grid",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", help="benchmark --json reports, one per size")
    args = parser.parse_args(argv)
    reports = []
    for path in args.reports:
        with open(path) as f:
            reports.append(json.load(f))
    print(grid(reports))


if __name__ == "__main__":
    main()
