"""The learning report for ``docs/training.md``: trained teams against the scripted players.

    python -m training.report runs/amongus6-report --games 20000

The game and its parameters are the run's own (read from its checkpoints). For each team the
run trained (a team it did not train, ``--fixed``, has no row), that team's policy against each
scripted player of the other side, each row after its reference, the heuristic in the same
seats against the same player, and with the difference in points (``report``); a scripted
player with a written exploit (Among Us's chain crew) also meets the exploit, scored the same
way, as the most such a bar can fairly ask. Where the run trained every team, a last row
plays the trained teams against each other (the issue's bar: "trained crew vs trained menace
between 20% and 80%"). Every match plays the same numbered deals of the scoring seed, so each
gain is measured deal by deal and carries a paired bootstrap 95% interval
(``evaluation.stats``); win rates carry Wilson 95% intervals. The scoring seed may not be the
run's training seed, and a row against a scripted player the run imitated or trained against
says so ("seen in training"): it is not a held-out result. The header says whether trained
policies sampled or took their most likely action (``--greedy``).

A free-for-all run (MANIACAL) has one shared policy and no teams: it plays half the seats
against the heuristic in the others, every deal once in every seating (at 4 players, the six
seat pairs), and each side is scored by its mean final position (``evaluation.ffa``);
``--games`` counts deals there.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import envs
from agents import make_policy, policy_names, scripted
from agents.checkpoint import load_checkpoint
from agents.neural import load_policy
from evaluation.crossplay import batches_for
from evaluation.entrants import free_for_all
from evaluation.ffa import FFAResult, InProcess, ffa_match
from evaluation.harness import GameLog
from evaluation.runner import run_batches
from evaluation.stats import DRAWS, paired_difference, wilson_interval
from training.ppo import latest_checkpoint
from training.run_checkpoint import seen_in_training


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
    seen = seen_in_training(metadata["args"])
    rows, rates, wins = [], {}, {}
    for label, policies, team, reference in matches:
        result, winners = paired_match(game, params, policies, games, seed)
        rates[label] = result["win_rate"]
        wins[label] = winners
        row = {"match": label, "game": game, "params": params, "checkpoint": str(where),
               "trained": [t for t in spec.teams if policies[t] is trained_teams.get(t)],
               "seen_in_training": sorted({p.name for t, p in policies.items()
                                           if policies[t] is not trained_teams.get(t)}
                                          & seen),
               **result}
        if team is not None:
            k = spec.teams.index(team)
            diff = paired_difference(winners == k, wins[reference] == k)
            row.update(team=team, reference=reference,
                       gain=100.0 * (result["win_rate"][team] - rates[reference][team]),
                       gain_interval95=[100.0 * diff[1], 100.0 * diff[2]])
            if team not in row["trained"]:
                row["exploit"] = True
        rows.append(row)
    return rows


def paired_match(game: str, params: dict, policies: dict, games: int, seed: int
                 ) -> tuple[dict, np.ndarray]:
    """One policy per team on deals ``0 .. games-1`` of ``seed`` (the same deals for every
    match of the report, so gains are measured deal by deal); the summary and each deal's
    winning team index (-1: none)."""
    teams = envs.registry[game].teams
    sides = tuple(InProcess(f"{t}:{policies[t].name}", policies[t]) for t in teams)
    logs = list(run_batches(batches_for(game, params, sides, seed, games), workers=1))
    log = GameLog.concat(logs)
    winners = log.winner[np.argsort(log.index)]
    won = {t: int((winners == k).sum()) for k, t in enumerate(teams)}
    result = {"policies": {t: policies[t].name for t in teams}, "games": games, "wins": won,
              "draws": games - sum(won.values()),
              "win_rate": {t: won[t] / games for t in teams},
              "interval95": {t: list(wilson_interval(won[t], games)) for t in teams},
              "decisions_per_game": float(log.length.mean())}
    return result, winners


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
    if ns.seed == metadata["args"].get("seed"):
        parser.error(f"--seed {ns.seed} is the run's training seed: score on deals it never "
                     f"trained on")
    if free_for_all(envs.registry[metadata["game"]]):
        result = ffa_report(ns.run, ns.games, ns.seed, ns.workers, ns.greedy)
        print(json.dumps(result.as_dict(), indent=2) if ns.json else result.format_table())
        return
    rows = report(ns.run, ns.games, ns.seed, ns.greedy)
    if ns.json:
        print(json.dumps(rows, indent=2))
        return
    teams = envs.registry[rows[0]["game"]].teams
    seen = sorted(seen_in_training(metadata["args"]))
    print(f"{rows[0]['game']} {rows[0]['params']}; trained policies "
          f"{'greedy' if ns.greedy else 'sampled'}; scoring seed {ns.seed} (training seed "
          f"{metadata['args'].get('seed')}); {ns.games} paired deals per match ({DRAWS}); "
          f"scripted players "
          f"seen in training: {', '.join(seen) or 'none'}")
    print("| match | games | " + " | ".join(f"{t} wins (95% CI)" for t in teams)
          + " | draws | trained team vs the heuristic in its seats [paired 95%] |")
    print("|---|---|" + "---|" * len(teams) + "---|---|")
    for r in rows:
        cells = []
        for team in teams:
            lo, hi = r["interval95"][team]
            cells.append(f"{r['win_rate'][team]:.3f} [{lo:.3f}, {hi:.3f}]")
        if "gain" in r:
            whose = f"{r['team']}, the exploit" if "exploit" in r else r["team"]
            lo, hi = r["gain_interval95"]
            gain = f"{r['gain']:+.1f} [{lo:+.1f}, {hi:+.1f}] points ({whose})"
        else:
            gain = "(trained against trained)" if r["trained"] else "(reference)"
        if r["seen_in_training"]:
            gain += f" (seen in training: {', '.join(r['seen_in_training'])})"
        print(f"| {r['match']} | {r['games']} | {' | '.join(cells)} | "
              f"{r['draws'] / r['games']:.3f} | {gain} |")


if __name__ == "__main__":
    main()
