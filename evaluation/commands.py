"""``hiddendeck eval | tournament | ffa | replay | report``: the evaluation harness, command line.

``evaluation/cli.py`` owns the ``hiddendeck`` command and calls ``register(subparsers)``.
A bad name, checkpoint or option raises ``ValueError`` (``CheckpointError`` is one) before any
game is played or file written; the CLI prints it as one line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import envs
from agents.populations import DEFAULT as POPULATION
from agents.populations import POPULATIONS, population


def game_param(text: str) -> tuple[str, int]:
    """``--param NAME=VALUE``: game parameters are integers (bools as 0/1)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name, int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: expected an integer, got {value!r}") from None


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be an integer in [0, 2**63), got {text!r}")
    return value


# One option name per meaning across the subcommands: --policy for the policy scored or
# played, --against for the policy in the other seats. Old names go on working through
# ``deprecated_alias``; each use is noted in ``args.deprecated``, which ``hiddendeck`` says
# on stderr in one line when the command ends (within the error's one line if it fails).


def deprecated(args, old: str, new: str) -> None:
    """Note that ``old`` was used where ``new`` is the name now."""
    notes = getattr(args, "deprecated", None) or []
    setattr(args, "deprecated", notes + [f"{old} is deprecated; use {new}"])


class _Deprecated(argparse.Action):
    def __init__(self, option_strings, dest, new: str, append: bool = False, **kwargs):
        self.new, self.append = new, append
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        deprecated(namespace, option_string, self.new)
        if self.append:
            values = (getattr(namespace, self.dest) or []) + [values]
        setattr(namespace, self.dest, values)


def deprecated_alias(parser, old: str, new: argparse.Action) -> None:
    """``old`` as another name of the option ``new`` (hidden from --help)."""
    parser.add_argument(old, dest=new.dest, action=_Deprecated, new=new.option_strings[0],
                        append=isinstance(new, argparse._AppendAction), metavar=new.metavar,
                        help=argparse.SUPPRESS)


MAX_GAMES = 10**9  # a match of more is a typo: its batch list alone would not fit in memory


def games_count(text: str) -> int:
    value = _positive(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"at most {MAX_GAMES:,} games, got {text}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _game_params(args) -> dict:
    params = dict(args.param)
    if args.players is not None:
        params["num_players"] = args.players
    return params


def _team_names() -> list[str]:
    """Every team name of every registered team game: each becomes an ``eval`` option."""
    from .entrants import free_for_all

    names: list[str] = []
    for spec in envs.registry.values():
        if not free_for_all(spec):
            names += [t for t in spec.teams if t not in names]
    return names


def _common(p: argparse.ArgumentParser, games: int) -> None:
    p.add_argument("game", choices=list(envs.registry))
    p.add_argument("--games", type=games_count, default=games,
                   help="paired deals per pairing (default %(default)s)")
    p.add_argument("--players", type=int, default=None, help="seats at the table")
    p.add_argument("--param", type=game_param, action="append", default=[], metavar="NAME=VALUE",
                   help="a game parameter, e.g. --param max_rounds=20 (repeatable)")
    p.add_argument("--seed", type=seed, default=0, help="the deals: game i is deal (seed, i)")
    p.add_argument("--workers", type=_positive, default=None,
                   help="local worker processes (default: one per CPU); results do not depend "
                   "on it")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="play the batches on a Ray cluster ('local' starts one here); needs the "
                   "[ray] extra")
    _transcripts_option(p)


def _transcripts_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--transcripts", metavar="DIR", default=None,
                   help="where llm: entrants write every prompt and reply, one JSONL file per "
                   "game and process (default: transcripts/ beside --db or in --out, else "
                   "$HIDDENDECK_TRANSCRIPTS or runs/transcripts)")


def keep_transcripts(args) -> None:
    """Tell the ``llm:`` players (here and in the workers, which inherit the environment) where
    their transcripts go: ``--transcripts``, else beside the results database or the output."""
    if args.transcripts:
        where = Path(args.transcripts)
    elif getattr(args, "db", None):
        where = Path(args.db).parent / "transcripts"
    elif getattr(args, "out", None):
        where = Path(args.out) / "transcripts"
    else:
        return
    os.environ["HIDDENDECK_TRANSCRIPTS"] = str(where)


def writable_directory(out: str) -> None:
    """Check an output directory before any game is played, creating nothing: a match whose
    results cannot be written is refused, not played and thrown away."""
    path = Path(out).absolute()
    if path.exists() and not path.is_dir():
        raise ValueError(f"--out {out}: exists and is not a directory")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"--out {out}: {existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"--out {out}: {existing} is not writable")


def cmd_eval(args) -> int:
    from .crossplay import cross_play
    from .entrants import split_list

    keep_transcripts(args)
    if args.out:
        writable_directory(args.out)

    lineups = {}
    for team in _team_names():
        given = getattr(args, f"team_{team}")
        if given:
            lineups[team] = [x for item in given for x in split_list(item)]
    spec = envs.registry[args.game]
    foreign = sorted(set(lineups) - set(spec.teams))
    if foreign:
        raise ValueError(f"{args.game} has no team(s) {foreign}; its teams are "
                         f"{', '.join('--' + t for t in spec.teams)}")
    result = cross_play(args.game, lineups, args.games, seed=args.seed, workers=args.workers,
                        ray_address=args.ray, replays=bool(args.out), **_game_params(args))
    if args.out:
        written = result.write(args.out)
        print(f"wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    print(json.dumps(result.as_dict()) if args.json else result.format_table())
    return 0


def cmd_tournament(args) -> int:
    from .tournament import run_tournament

    keep_transcripts(args)
    table = run_tournament(
        args.game, args.policies, args.games, db=args.db, seed=args.seed, workers=args.workers,
        ray_address=args.ray, wait=args.wait, **_game_params(args),
    )
    print(json.dumps(table.as_dict()) if args.json else table.format())
    return 0


def ffa_sides(args) -> tuple[str, str]:
    """``--policy`` and ``--against``, or the deprecated ``ffa GAME POLICY [AGAINST]``."""
    policy, against = args.policy, args.against
    if args.old_positional:
        if len(args.old_positional) > 2 or policy is not None:
            raise ValueError("ffa: give the policies as --policy POLICY [--against AGAINST]")
        deprecated(args, "ffa GAME POLICY [AGAINST]", "--policy and --against")
        policy, against = (args.old_positional + [against])[:2]
    if policy is None:
        raise ValueError("ffa: --policy is required")
    return policy, against or "heuristic"


def cmd_ffa(args) -> int:
    from .ffa import ffa_match

    args.policy, args.against = ffa_sides(args)
    keep_transcripts(args)
    result = ffa_match(args.game, args.policy, args.against, args.games, seed=args.seed,
                       seats=args.seats, workers=args.workers, ray_address=args.ray,
                       greedy=args.greedy, **_game_params(args))
    print(json.dumps(result.as_dict()) if args.json else result.format_table())
    return 0


def cmd_replay(args) -> int:
    from .replay import replay

    replay(args.file, args.game_number, seat=args.seat, pause=args.pause)
    return 0


def cmd_report(args) -> int:
    from .report import write_report

    path = write_report(args.path, out=args.out)
    print(path)
    return 0


def cmd_beliefs(args) -> int:
    from .beliefs import benchmark, format_result, write

    if args.out:
        writable_directory(args.out)

    result = benchmark(args.game, args.policy, args.games, against=args.against, seed=args.seed,
                       team=args.team, **_game_params(args))
    if args.out:
        written = write(result, args.out)
        print(f"wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    print(json.dumps(result) if args.json else format_result(result))
    return 0


def cmd_exploit(args) -> int:
    from .exploit import exploit, format_report

    report = exploit(args.game, args.against, args.steps, team=args.team,
                     population_name=args.population, warm_start=args.warm_start,
                     games=args.games, seed=args.seed, out=args.out, workers=args.workers,
                     params=_game_params(args), device=args.device)
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def cmd_exploit_search(args) -> int:
    from .entrants import split_list
    from .exploit_search import exploit_search, format_report

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    warm = None if args.warm is None else ([] if args.warm == "none" else split_list(args.warm))
    report = exploit_search(args.game, args.against, args.team, players=args.players,
                            steps=args.steps, games=args.games, seed=args.seed,
                            kinds=None if args.kinds is None else split_list(args.kinds),
                            base=args.base, warm=warm, population_name=args.population,
                            progress=say)
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def cmd_benchmark(args) -> int:
    from .benchmark import (benchmark, benchmark_sizes, format_report, format_sizes,
                            met_in_training, trained_sizes)
    from .entrants import resolve, split_list

    keep_transcripts(args)
    spec = envs.registry[args.game]
    args.table_sizes = _table_sizes(args.players, spec)
    args.players = args.table_sizes[0] if args.table_sizes else None
    params = spec.resolve(**_game_params(args))
    exclude = [x for item in args.exclude for x in split_list(item)]
    if exclude:
        from .entrants import free_for_all

        other = "player" if free_for_all(spec) else next(t for t in spec.teams if t != args.team)
        members = [(resolve(m, spec, params).label, m.partition("@")[2])
                   for m in population(args.game, other, args.population,
                                       params["num_players"])]
        unknown = [x for x in exclude if not any(x in m for m in members)]
        if unknown:
            raise ValueError(f"--exclude {', '.join(unknown)}: not a member of population "
                             f"{args.population} here; its members are "
                             f"{', '.join(label for label, _ in members)}")
    if not args.keep_seen:
        exclude += met_in_training(args.policy)
    run = dict(games=args.games, seed=args.seed, workers=args.workers, db=args.db,
               exclude=tuple(exclude), seats=args.seats, greedy=args.greedy)
    if len(args.table_sizes) > 1:  # a seat network, scored at each size in turn
        reports = benchmark_sizes(args.game, args.team, args.policy, args.table_sizes,
                                  args.population, **run, **dict(args.param))
        if args.json:
            print(json.dumps({str(n): r for n, r in reports.items()}))
        else:
            print("\n\n".join([*map(format_report, reports.values()),
                                format_sizes(reports, trained_sizes(args.policy))]))
        return 0
    report = benchmark(args.game, args.team, args.policy, args.population,
                       **run, **_game_params(args))
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def _table_sizes(text: str | None, spec) -> tuple[int, ...]:
    """``benchmark --players``: one size, ``N,N,...`` or ``all`` (every size the game deals);
    () for the game's default table. A size the game does not deal is refused by name."""
    if text is None:
        return ()
    every = tuple(range(spec.min_players, spec.max_players + 1))
    if text == "all":
        return every
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"--players {text}: expected N, N,N,... or 'all'") from None
    bad = [n for n in sizes if n not in every]
    if bad:
        raise ValueError(f"--players {text}: {bad[0]} is not a table size of {spec.name} (it "
                         f"deals {every[0]} to {every[-1]} players)")
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"--players {text}: names a table size twice")
    return sizes


def cmd_metagame(args) -> int:
    from .metagame import load

    view = load(args.path)
    print(json.dumps(view.as_dict()) if args.json else view.format_table())
    return 0


def cmd_results(args) -> int:
    from .tournament import SUMMARY_COLUMNS, export_csv, summary_rows

    if args.csv:
        n = export_csv(args.db, args.csv)
        print(f"wrote {n} pairings to {args.csv}", file=sys.stderr)
        return 0
    rows = [dict(zip(SUMMARY_COLUMNS, r)) for r in summary_rows(args.db)]
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        sides = ", ".join(f"{t}={s!r}" for t, s in zip(json.loads(r["teams"] or "[]"),
                                                        json.loads(r["sides"])))
        print(f"{r['game']} v{r['version']} {r['params']}: {sides} seed {r['seed']}: "
              f"{r['games']} games, side 1 won {r['first_side_wins']}, {r['draws']} draws, "
              f"mean length {r['mean_length']:.0f}; runs: {r['runs'] or 'unrecorded'}")
    return 0


def register(subparsers) -> None:
    """Add ``eval``, ``tournament``, ``ffa``, ``replay``, ``report``, ``beliefs``, ``exploit``
    and ``exploit-search`` to ``hiddendeck``."""
    p = subparsers.add_parser(
        "eval", help="cross-play matrix: every policy of one team against every other team's",
        description="Cross-play: every combination of one policy per team plays the same "
        "numbered deals. Policies: random, heuristic, other scripted bots, checkpoint paths "
        "(.pt: each plays the team it was trained for), or LABEL@SOURCE; comma-separated. "
        "Team options are the game's own team names (--crew/--menace, --crew/--impostor).",
    )
    _common(p, games=1000)
    for team in _team_names():
        p.add_argument(f"--{team}", dest=f"team_{team}", action="append", metavar="A,B",
                       help=f"policies for team {team}")
    p.add_argument("--json", action="store_true", help="print the matrix as one JSON object")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write matrix.md, .csv, .json, .png and games.jsonl.gz (replays) here")
    p.set_defaults(run=cmd_eval)

    p = subparsers.add_parser(
        "tournament", help="every policy in every role it can play; batch ratings with intervals",
        description="Every policy plays every role it can against every other policy on the "
        "same numbered deals; games are stored in a SQLite database keyed by game, version and "
        "parameters, so a tournament resumes where it stopped and grows with new entrants; "
        "ratings are batch Bradley-Terry fits (Plackett-Luce for free-for-all), per role and overall, with bootstrap intervals over deals.",
    )
    _common(p, games=500)
    p.add_argument("--policies", required=True, action="append", metavar="A,B,...",
                   help="the entrants (names, checkpoints, LABEL@SOURCE)")
    p.add_argument("--db", default="runs/results.sqlite", help="results database "
                   "(default %(default)s)")
    p.add_argument("--wait", action="store_true", help="if another tournament is writing the "
                   "database, wait for it and then play only what it left (default: refuse)")
    p.add_argument("--json", action="store_true", help="print the leaderboard as JSON")
    p.set_defaults(run=cmd_tournament)

    p = subparsers.add_parser(
        "ffa", help="free-for-all: one policy in part of the seats against another, by rank",
        description="POLICY in SEATS seats against AGAINST in the rest, every deal played once "
        "in every seating (at 4 players with 2 seats each: the six seat pairs), so the seat "
        "advantage cancels; each side's mean final position (1 = best) and share of first "
        "places, with 95% intervals over deals. Policies: names, checkpoints (.pt), "
        "LABEL@SOURCE.",
    )
    _common(p, games=1000)
    p.add_argument("--policy", dest="policy", default=None,
                   help="the policy scored (a name, a .pt checkpoint, LABEL@SOURCE, zoo:NAME, "
                   "py:MODULE:ATTR)")
    p.add_argument("--against", dest="against", default=None,
                   help="the policy in the other seats (default heuristic)")
    p.add_argument("old_positional", nargs="*", metavar="POLICY [AGAINST]",
                   help="deprecated: the same two as --policy and --against")
    p.add_argument("--seats", type=_positive, default=None,
                   help="POLICY's seats in each game (default: half the table, rounded down)")
    p.add_argument("--greedy", action="store_true",
                   help="POLICY (a checkpoint) takes its most likely action (default: sample)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(run=cmd_ffa)

    p = subparsers.add_parser(
        "replay", help="step through a recorded game, as one seat saw it or as the god view",
        description="Replays game K of a games file (eval --out DIR writes DIR/games.jsonl.gz) "
        "from its seed, deal and actions, and checks it ends as recorded.",
    )
    p.add_argument("file", help="a games.jsonl.gz file")
    p.add_argument("--game", dest="game_number", type=int, default=0, metavar="K",
                   help="which game of the file (0-based, default 0)")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--seat", type=int, default=None, help="show only what this seat saw")
    view.add_argument("--god", action="store_true", help="show everything (the default)")
    p.add_argument("--pause", action="store_true", help="wait for Enter after each decision")
    p.set_defaults(run=cmd_replay)

    p = subparsers.add_parser(
        "report", help="one Markdown page from an eval directory, a results database or a run",
    )
    p.add_argument("path", help="an eval --out directory, a .sqlite results file, or a run dir")
    p.add_argument("--out", default=None, help="where to write (default: PATH/report.md, or "
                   "next to the database)")
    p.set_defaults(run=cmd_report)

    p = subparsers.add_parser(
        "beliefs", help="score a policy's beliefs about who is on the other side",
        description="Plays GAMES games (POLICY in the roles it plays, AGAINST in the others) and "
        "scores, on the decisions of POLICY's seats in the odd-numbered games, its "
        "beliefs(observation) (if it has them), the base rate and a probe MLP trained on the "
        "raw observations of the even-numbered games: log-loss, Brier, ECE, top-1, by round.",
    )
    p.add_argument("game", choices=list(envs.registry))
    p.add_argument("--policy", required=True, help="the policy to score (name, checkpoint, "
                   "LABEL@SOURCE)")
    p.add_argument("--team", default=None, help="the team POLICY plays and is scored in "
                   "(default: every team it can play)")
    p.add_argument("--against", default="heuristic", help="the other teams' policy "
                   "(default %(default)s)")
    p.add_argument("--games", type=games_count, default=2000)
    p.add_argument("--players", type=int, default=None, help="seats at the table")
    p.add_argument("--param", type=game_param, action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--seed", type=seed, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write beliefs.json, beliefs.txt and calibration.png here")
    p.set_defaults(run=cmd_beliefs)

    p = subparsers.add_parser(
        "exploit", help="approximate exploitability: train a best response from scratch "
        "against a frozen policy, report its gain over the population",
        description="Freezes POLICY on TEAM and trains the other team from scratch (PPO, no "
        "imitation, no teacher term) against it alone for STEPS decisions; then the exploiter "
        "and every member of the reference population on its side play the frozen policy on "
        "the same held-out deals (win rates; a draw is not a win). The exploiter's rate is a "
        "lower bound on a best response's value; its gain over the best member has a paired "
        "95% interval that holds for every member at once, and when it does not clear 0 the "
        "report says no exploit was found at this budget. Stored in OUT/exploit.json.",
    )
    p.add_argument("game", choices=list(envs.registry))
    p.add_argument("--against", required=True, metavar="POLICY",
                   help="the frozen policy: a checkpoint, a scripted name, py:MODULE:ATTR")
    p.add_argument("--team", default=None, help="the team the frozen policy plays (default: "
                   "its only one)")
    p.add_argument("--steps", type=_positive, required=True, help="exploiter training decisions")
    p.add_argument("--warm-start", default=None, metavar="NAME",
                   help="opt in: imitate this scripted player before PPO (default: none)")
    p.add_argument("--population", default=POPULATION, choices=sorted(POPULATIONS),
                   help=f"the reference population (default {POPULATION})")
    p.add_argument("--players", type=int, default=None, help="seats at the table (a "
                   "checkpoint brings its own)")
    p.add_argument("--param", type=game_param, action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--games", type=games_count, default=2000, help="held-out evaluation deals")
    p.add_argument("--seed", type=seed, default=0, help="the exploiter's training seed")
    p.add_argument("--workers", type=_positive, default=None)
    p.add_argument("--out", default="runs/exploit", help="the exploiter's run directory")
    # agents.neural.DEVICES, not imported here: torch is slow to load for every command
    p.add_argument("--device", choices=("cpu", "cuda", "auto"), default="cpu",
                   help="where the exploiter learns (training's --device)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_exploit)

    p = subparsers.add_parser(
        "exploit-search", help="one small PPO exploiter per decision kind: does one decision "
        "changed beat the target?",
        description="For each kind of decision TEAM meets, a small PPO exploiter plays TEAM's "
        "decisions of that kind only, the base (POLICY itself, or --base) TEAM's others, and "
        "POLICY the other team; beside them one exploiter of every kind from scratch and one "
        "warm-started from each population member of TEAM. Each plays POLICY on the same "
        "held-out deals as the base alone: its win rate (a draw is not a win) and its gain over "
        "TEAM's own play with a paired 95%% interval and one simultaneous over every row; with "
        "no simultaneous lower bound above 0, no exploit was found at this budget. In a "
        "free-for-all (no --team) the exploiter holds one seat, turned over the deals, POLICY "
        "every other, and the score is that seat's mean place (lower is better) and share of "
        "first places.",
    )
    p.add_argument("game", choices=list(envs.registry))
    p.add_argument("--against", required=True, metavar="POLICY",
                   help="the target, on the other team: a name, a checkpoint, zoo:NAME")
    p.add_argument("--team", default=None, help="the team the exploiters play (a team game "
                   "only: in a free-for-all the exploiter holds one seat, turned over the deals)")
    p.add_argument("--base", default=None, metavar="POLICY", help="plays TEAM's other "
                   "decisions (default: the target itself)")
    p.add_argument("--players", type=int, default=None, help="seats at the table")
    p.add_argument("--steps", type=_positive, default=200_000,
                   help="engine decisions played while each exploiter trains")
    p.add_argument("--games", type=games_count, default=2000, help="held-out paired deals")
    p.add_argument("--seed", type=seed, default=0, help="the training seed")
    p.add_argument("--kinds", default=None, metavar="K1,K2", help="the kinds to search, by "
                   "name or a prefix naming one (default: every kind TEAM meets with a choice)")
    p.add_argument("--warm", default=None, metavar="A,B|none", help="the members to "
                   "warm-start from (default: every member of TEAM but random)")
    p.add_argument("--population", default=POPULATION, choices=sorted(POPULATIONS),
                   help=f"where the members come from (default {POPULATION})")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_exploit_search)

    p = subparsers.add_parser(
        "metagame", help="Nash averaging and alpha-Rank over an eval cross-play matrix",
        description="Scores each policy of a two-team cross-play matrix (eval --out DIR) "
        "against the other team's maximum-entropy Nash mixture (Nash averaging: copies of a "
        "policy change nobody's score), beside its plain mean over the other team and, with "
        "the [metagame] extra, its alpha-Rank mass.",
    )
    p.add_argument("path", help="an eval --out directory or its matrix.json")
    p.add_argument("--json", action="store_true", help="print the views as one JSON object")
    p.set_defaults(run=cmd_metagame)

    p = subparsers.add_parser(
        "results", help="what a results database holds: every pairing, its teams and runs",
        description="One row per stored pairing (the database's summary view): the game, "
        "version and parameters, the team names and the policy on each, games, side 1's wins, "
        "draws, mean length and the runs that stored them (UTC time, hiddendeck version, "
        "commit). Read-only.",
    )
    p.add_argument("db", help="a results database (tournament --db)")
    p.add_argument("--csv", metavar="FILE", default=None, help="write the rows as CSV instead")
    p.add_argument("--json", action="store_true", help="print the rows as one JSON list")
    p.set_defaults(run=cmd_results)

    from .benchmark import SCORING_SEED

    p = subparsers.add_parser(
        "benchmark", help="a policy's score against a reference population, beside the "
        "heuristic's on the same deals",
        description="POLICY plays TEAM against every member of the population on the other "
        "side, and the heuristic plays TEAM against the same members on the same deals: each "
        "member's win rate (a draw is not a win; MANIACAL: mean position, lower is better) "
        "with its 95% interval, the mean over members and the worst member, and each "
        "difference from the heuristic with a paired 95% interval over deals. Members the "
        "policy met in training (a zoo policy's record, a checkpoint's seen_in_training) are "
        "left out and named: a score against them is not a held-out one.",
    )
    p.add_argument("game", choices=list(envs.registry))
    p.add_argument("--team", required=True, help="the team POLICY plays (MANIACAL: player)")
    p.add_argument("--policy", required=True, help="a name, a .pt checkpoint, LABEL@SOURCE or "
                   "py:MODULE:ATTR")
    p.add_argument("--population", default=POPULATION, choices=sorted(POPULATIONS),
                   help=f"the reference population (default {POPULATION})")
    p.add_argument("--players", default=None, metavar="N|N,N,...|all",
                   help="seats at the table; several sizes (or 'all' the game deals) score a "
                   "seat network at each, one row a size")
    p.add_argument("--param", type=game_param, action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--games", type=games_count, default=2000, help="paired deals per member")
    p.add_argument("--seed", type=seed, default=SCORING_SEED,
                   help="the scoring deals (default %(default)s, a seed no trainer uses)")
    p.add_argument("--workers", type=_positive, default=None)
    p.add_argument("--db", default=None, help="also store the result in this results database")
    _transcripts_option(p)
    p.add_argument("--exclude", action="append", default=[], metavar="A,B",
                   help="also leave out these members (labels or sources; repeatable)")
    p.add_argument("--keep-seen", action="store_true",
                   help="keep the members the policy met in training (left out by default)")
    p.add_argument("--seats", type=_positive, default=None,
                   help="a free-for-all game: the policy's seats in each game (default half "
                   "the table, rounded down; 1: one seat against the member in every other)")
    p.add_argument("--greedy", action="store_true",
                   help="POLICY (a checkpoint) takes its most likely action (default: sample)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_benchmark)
