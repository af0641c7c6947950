"""The learning report for ``docs/training.md``: trained teams against the scripted players.

    python -m training.report runs/amongus6-report --games 20000

The game and its parameters are the run's own (read from its checkpoints). For each team the
run trained (a team it did not train, ``--fixed``, has no row), that team's policy against each
scripted player of the other side, each row after its reference, the heuristic in the same
seats against the same player, and with the difference in points (``report``); a scripted
player with a written exploit (Among Us's chain crew) also meets the exploit, scored the same
way, as the most such a bar can fairly ask. Where the run trained every team, a last row
plays the trained teams against each other (the issue's bar: "trained crew vs trained menace
between 20% and 80%"). Win rates carry Wilson 95% intervals (``evaluation.match``).

A free-for-all run (MANIACAL) has one shared policy and no teams: it plays half the seats
against the heuristic in the others, every deal once in every seating (at 4 players, the six
seat pairs), and each side is scored by its mean final position (``evaluation.ffa``);
``--games`` counts deals there.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import envs
from agents import make_policy, policy_names, scripted
from agents.checkpoint import load_checkpoint
from agents.neural import load_policy
from evaluation.entrants import free_for_all
from evaluation.ffa import FFAResult, ffa_match
from evaluation.match import play_match
from training.ppo import latest_checkpoint


def _run_checkpoint(run: str) -> tuple[Path, dict]:
    where = latest_checkpoint(Path(run))
    team_file = next(p for p in sorted(where.glob("*.pt")) if p.name != "trainer.pt")
    return where, load_checkpoint(team_file)["metadata"]


def ffa_report(run: str, deals: int, seed: int, workers: int | None = None,
               greedy: bool = False) -> FFAResult:
    """The shared policy of a free-for-all run in half the seats, the heuristic in the rest
    (``greedy``: taking its most likely action)."""
    where, metadata = _run_checkpoint(run)
    if not free_for_all(envs.registry[metadata["game"]]):
        raise ValueError(f"{run}: a {metadata['game']} run has teams; use report()")
    return ffa_match(metadata["game"], f"trained@{where / 'shared.pt'}", "heuristic", deals,
                     seed=seed, workers=workers, greedy=greedy, **metadata["params"])


def _label(players: dict[str, str], teams) -> str:
    return " vs ".join(f"{players[t]} {t}" for t in teams)


def _exploit(bot, team: str, spec, params: dict):
    """``bot``'s exploit, if it has one that plays ``team``'s seats (else None)."""
    if bot.exploit is None:
        return None
    exploit = scripted(bot.exploit, spec, params)
    plays_team = exploit.strategy_for is None or team in exploit.strategy_for
    return exploit if plays_team else None


def report(run: str, games: int, seed: int, greedy: bool = False) -> list[dict]:
    """For each team the run trained (a team it did not train, ``--fixed``, has no rows), its
    policy against each scripted player on every other side (the heuristic first, then each
    bot with a strategy of its own for a side there: the Menace's drain, Among Us's chain), each
    after its reference: the heuristic in the trained team's seats against the same bot. A
    trained row's ``reference`` names that row and ``gain`` is its team's win rate minus the
    reference's, in points: the issue's bar ("10 points above the heuristic's own rate").
    A bot with an exploit (a script written against it: the chain's) has the exploit's row
    between the two, scored the same way and marked ``exploit``: the gain a policy that never
    saw the bot's script can hardly pass.
    Where every team was trained, the last row plays them against each other, each team's own
    network in its seats. A row's ``trained`` lists the teams its trained networks play."""
    where, metadata = _run_checkpoint(run)
    game, params = metadata["game"], metadata["params"]
    spec = envs.registry[game]
    if free_for_all(spec):
        raise ValueError(f"{run}: {game} is a free-for-all; use ffa_report()")
    names = ["heuristic"] + [n for n in policy_names(game) if n not in ("random", "heuristic")]
    bots = {name: make_policy(name, spec, params, seed) for name in names}
    untrained = metadata["args"].get("fixed_teams", {})  # not trained in this run
    matches = []  # (label, policies, team scored, label of its reference)
    trained_teams = {}  # each team's own network, from its own file (never one for both)
    for team in spec.teams:
        if team in untrained:
            continue
        trained = trained_teams[team] = load_policy(where / f"{team}.pt", game, team=team,
                                                    greedy=greedy, seed=seed, **params)
        others = [t for t in spec.teams if t != team]
        for name, bot in bots.items():
            if bot.strategy_for is not None and not set(bot.strategy_for) & set(others):
                continue  # it plays as the heuristic on every other side
            players = {t: name for t in others}
            reference = _label({**players, team: "heuristic"}, spec.teams)
            if reference not in [m[0] for m in matches]:
                matches.append((reference, {**{t: bot for t in others},
                                            team: bots["heuristic"]}, None, None))
            exploit = _exploit(bot, team, spec, params)
            if exploit is not None:
                matches.append((_label({**players, team: exploit.name}, spec.teams),
                                {**{t: bot for t in others}, team: exploit}, team, reference))
            matches.append((_label({**players, team: "trained"}, spec.teams),
                            {**{t: bot for t in others}, team: trained}, team, reference))
    if len(trained_teams) == len(spec.teams):  # the bar: between 20% and 80%
        matches.append((_label({t: "trained" for t in spec.teams}, spec.teams), trained_teams,
                        None, None))
    rows, rates = [], {}
    for label, policies, team, reference in matches:
        result = play_match(game, policies, games, seed=seed, **params).as_dict()
        rates[label] = result["win_rate"]
        row = {"match": label, "game": game, "params": params, "checkpoint": str(where),
               "trained": [t for t in spec.teams if policies[t] is trained_teams.get(t)],
               **result}
        if team is not None:
            row.update(team=team, reference=reference,
                       gain=100.0 * (result["win_rate"][team] - rates[reference][team]))
            if team not in row["trained"]:
                row["exploit"] = True
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.report")
    parser.add_argument("run", help="run directory (its latest checkpoint) or checkpoint dir")
    parser.add_argument("--games", type=int, default=20_000,
                        help="games per match (a free-for-all: deals, each in every seating)")
    parser.add_argument("--seed", type=int, default=12345, help="games unseen in training")
    parser.add_argument("--greedy", action="store_true",
                        help="trained policies take their most likely action (default: sample)")
    parser.add_argument("--workers", type=int, default=None,
                        help="free-for-all: local worker processes (default one per CPU)")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    _, metadata = _run_checkpoint(ns.run)
    if free_for_all(envs.registry[metadata["game"]]):
        result = ffa_report(ns.run, ns.games, ns.seed, ns.workers, ns.greedy)
        print(json.dumps(result.as_dict(), indent=2) if ns.json else result.format_table())
        return
    rows = report(ns.run, ns.games, ns.seed, ns.greedy)
    if ns.json:
        print(json.dumps(rows, indent=2))
        return
    teams = envs.registry[rows[0]["game"]].teams
    print(f"{rows[0]['game']} {rows[0]['params']}")
    print("| match | games | " + " | ".join(f"{t} wins (95% CI)" for t in teams)
          + " | draws | trained team vs the heuristic in its seats |")
    print("|---|---|" + "---|" * len(teams) + "---|---|")
    for r in rows:
        cells = []
        for team in teams:
            lo, hi = r["interval95"][team]
            cells.append(f"{r['win_rate'][team]:.3f} [{lo:.3f}, {hi:.3f}]")
        if "gain" in r:
            whose = f"{r['team']}, the exploit" if "exploit" in r else r["team"]
            gain = f"{r['gain']:+.1f} points ({whose})"
        else:
            gain = "(trained against trained)" if r["trained"] else "(reference)"
        print(f"| {r['match']} | {r['games']} | {' | '.join(cells)} | "
              f"{r['draws'] / r['games']:.3f} | {gain} |")


if __name__ == "__main__":
    main()
