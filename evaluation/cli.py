"""The hiddendeck command: train, match, evaluate and benchmark agents on hidden-role card games,
or play a seat yourself; every command is listed below, with hiddendeck COMMAND --help for its
options. Every subcommand that takes a game lists the games and their parameters in its --help.
A policy is --policy where one is scored or played and --against for the other seats'.
Errors are one line, "hiddendeck: ...", with exit status 2 (hiddendeck --debug COMMAND adds
the traceback); Ctrl-C, SIGTERM and SIGHUP end a command with one line and status 130, 143 and
129, its worker processes with it."""

from __future__ import annotations

# nothing heavy is imported before main's try: a Ctrl-C while numba and torch load (seconds on
# a busy machine) is an interruption like any other, one line and no traceback
import argparse
import math
import signal
import sys
import threading
import traceback


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults shown after every option's help (where there is one to show and the help does
    not already give it); a description or epilog with line breaks kept as written, others
    wrapped."""

    def _get_help_string(self, action):
        text = action.help or ""
        if action.default in (None, False, [], argparse.SUPPRESS) or "default" in text:
            return text
        return super()._get_help_string(action)

    def _fill_text(self, text, width, indent):
        if "\n" in text.strip():
            return super()._fill_text(text, width, indent)
        return argparse.HelpFormatter._fill_text(self, text, width, indent)


class _Parser(argparse.ArgumentParser):
    """argparse's usage errors as one line, like every other error of the command."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        command = self.prog.removeprefix("hiddendeck").strip()  # empty: the top-level parser
        where = f"{command}: " if command else ""
        self.exit(2, f"hiddendeck: {where}{message} (see {self.prog} --help)\n")


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def games_help() -> str:
    """Every registered game with its table sizes and parameters (default, range, meaning)."""
    import envs

    lines = ["games and their parameters (--param NAME=VALUE):"]
    for name, spec in envs.registry.items():
        lines.append(f"  {name} (v{spec.version}, {spec.min_players}-{spec.max_players} players)"
                     f": {spec.doc}")
        for p in spec.params:
            kind = "0 or 1" if p.dtype == "bool" else f"{p.low}..{p.high}"
            lines.append(f"    {p.name}={p.default}  ({kind}) {p.doc}")
    return "\n".join(lines)


def _params(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--param expects NAME=VALUE, got {pair!r}")
        try:
            out[key] = int(value)
        except ValueError:
            raise ValueError(f"--param {key}: {value!r} is not an integer") from None
    return out


def cmd_bench(args) -> int:
    import json

    import envs

    from .bench import format_bench, run_bench

    if args.balance:
        from .balance import format_balance, run_balance

        result = run_balance(args.game)
        print(json.dumps(result) if args.json else format_balance(result))
        return 0
    params = _params(args.param)
    if args.players is not None:
        params["num_players"] = args.players
    envs.registry[args.game].resolve(**params)  # a bad parameter fails before any measuring
    result = run_bench(args.game, seconds=args.seconds, repeat=args.repeat, **params)
    print(json.dumps(result) if args.json else format_bench(result))
    return 0


def cmd_demo(args) -> int:
    from .demo import GAMES, STEPS, run_demo

    run_demo(steps=args.steps or STEPS, seconds=args.seconds, games=args.games or GAMES,
             out=args.out, seed=args.seed)
    return 0


def cmd_play(args) -> int:
    from .play import play

    params = _params(args.param)
    if args.players is not None:
        params["num_players"] = args.players
    opponents = args.against or ["heuristic"]
    try:
        play(args.game, args.seat, opponents=opponents, seed=args.seed, **params)
    except EOFError:
        print("\nhiddendeck: end of input: game abandoned", file=sys.stderr)
    return 0


def cmd_serve(args) -> int:
    import secrets

    from .serve.app import require_web, serve

    require_web()  # before numba compiles anything
    import envs

    from .serve.table import HUMAN, Table

    params = _params(args.param)
    if args.players is not None:
        params["num_players"] = args.players
    players = envs.registry[args.game].resolve(**params)["num_players"]
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else \
        [HUMAN] + ["heuristic"] * (players - 1)
    labels = {}
    for item in args.label or []:
        seat, sep, name = item.partition("=")
        if not sep or not seat.isdigit():
            raise ValueError(f"--label expects SEAT=NAME, got {item!r}")
        labels[int(seat)] = name
    seed = secrets.randbits(62) if args.seed is None else args.seed
    print(f"seed {seed} (deals are numbered from 0; --seed {seed} deals them again)")
    table = Table(args.game, seats, labels, seed=seed, pace=args.pace, db=args.db, **params)
    serve(table, host=args.host, port=args.port)
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hiddendeck")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _describe_games(sub) -> None:
    """Every subcommand with a ``game`` argument (whoever registered it) lists the games and
    their parameters, and refuses an unknown game before doing anything."""
    import envs

    for parser in sub.choices.values():
        for action in parser._actions:
            if action.dest == "game" and not action.option_strings:
                if action.choices is None:
                    action.choices = list(envs.registry)
                parser.epilog = "\n\n".join(filter(None, [parser.epilog, games_help()]))


class Stopped(BaseException):
    """SIGTERM or SIGHUP, raised wherever the command is, so that it unwinds as from Ctrl-C:
    workers stopped and reaped, files closed, nothing half-written (a BaseException, as
    KeyboardInterrupt is, so that no ``except Exception`` takes it for an error)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


STOPPED_BY = {"SIGTERM": "terminated", "SIGHUP": "hung up"}


def _stop(signum, frame) -> None:
    raise Stopped(signum)


def main(argv: list[str] | None = None) -> int:
    debug, args = False, None
    on_main_thread = threading.current_thread() is threading.main_thread()
    caught = [getattr(signal, name) for name in STOPPED_BY if hasattr(signal, name)]
    saved = {s: signal.signal(s, _stop) for s in caught} if on_main_thread else {}
    try:
        args = _parser().parse_args(argv)
        debug = args.debug
        from .progress import set_quiet

        set_quiet(args.no_progress)
        rc = args.run(args)
        if getattr(args, "deprecated", None):
            _say(f"hiddendeck: {'; '.join(args.deprecated)}")
        return rc
    except KeyboardInterrupt:
        _say("\nhiddendeck: interrupted")
        return 130
    except Stopped as stop:
        _say(f"\nhiddendeck: {STOPPED_BY[signal.Signals(stop.signum).name]}")
        return 128 + stop.signum
    except (ValueError, OSError) as err:  # bad input, a bad checkpoint, a full disk
        if debug:
            traceback.print_exception(err)
        lines = str(err).strip().splitlines() or [type(err).__name__]
        notes = getattr(args, "deprecated", None) if args is not None else None
        _say(f"hiddendeck: {lines[0]}" + (f" ({'; '.join(notes)})" if notes else ""))
        return 2
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)


def _say(line: str) -> None:
    """One line on stderr, which may be gone (SIGHUP: the terminal was closed)."""
    try:
        print(line, file=sys.stderr)
    except OSError:
        pass


def _parser() -> _Parser:
    import envs

    from .commands import deprecated_alias, seed

    parser = _Parser(prog="hiddendeck", description=__doc__)
    parser.add_argument("--version", action="version", version=f"hiddendeck {_version()}")
    parser.add_argument("--quiet", dest="no_progress", action="store_true",
                        help="no progress bars (hiddendeck --quiet COMMAND ...)")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, its traceback before the one line "
                        "(hiddendeck --debug COMMAND ...)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    bench = sub.add_parser("bench", help="engine speed: batched vs AEC agent-steps/s",
                           description="Engine speed: agent-steps/s of the batched engine at "
                           "B = 1, 256, 4096\nagainst the AEC env, with random legal actions.")
    bench.add_argument("game", choices=list(envs.registry), help="the game")
    bench.add_argument("--players", type=positive_int, default=None,
                       help="seats at the table (default: the game's)")
    bench.add_argument("--param", action="append", metavar="NAME=VALUE",
                       help="a game parameter (repeatable)")
    bench.add_argument("--seconds", type=positive_float, default=2.0,
                       help="time per measurement")
    bench.add_argument(
        "--repeat", type=int, default=1,
        help="measure everything this many times and report medians (noisy machines)",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--balance", action="store_true", help="win rates by table size instead of speed"
    )
    bench.set_defaults(run=cmd_bench)

    demo = sub.add_parser(
        "demo", help="the main job: train crew and menace, then score them, the zoo's and the "
        "heuristic against the reference population",
        description="Train crew and menace by self-play on The Menace Among Us, then score the\n"
        "fresh policies, the zoo's trained ones and the heuristic against every member of the\n"
        "reference population on the same deals.",
    )
    demo.add_argument("--steps", type=positive_int, default=None,
                      help="PPO agent-steps after the warm start (default: the demo's own)")
    demo.add_argument("--seconds", type=positive_float, default=None,
                      help="also stop training after this wall time, start-up included (then "
                      "the result depends on the machine's load)")
    demo.add_argument("--games", type=positive_int, default=None,
                      help="paired deals per population member (default: the demo's own)")
    demo.add_argument("--out", default="runs/demo", help="run directory for checkpoints and logs")
    demo.add_argument("--seed", type=seed, default=0, help="seed of training and evaluation")
    demo.set_defaults(run=cmd_demo)

    from training.cli import register as register_train

    register_train(sub)

    from training.sweep import register as register_sweep

    register_sweep(sub)

    from .commands import register as register_evaluation

    register_evaluation(sub)

    play = sub.add_parser(
        "play", help="play one seat yourself at the terminal",
        description="Play one seat at the terminal against policies. Type an action's number\n"
        "or words at the prompt, help for the commands and the rules, card NAME for a card's\n"
        "text; Ctrl-D or Ctrl-C quits. docs/screens/ shows a game of each.",
    )
    play.add_argument("game", choices=list(envs.registry), help="the game")
    play.add_argument("--seat", type=int, default=0, help="your seat, from 0")
    play.add_argument("--players", type=positive_int, default=None,
                      help="seats at the table (default: the game's)")
    against = play.add_argument(
        "--against",
        action="append",
        metavar="[TEAM=]NAME",
        help="the other seats' policy: random, heuristic, another scripted name, a checkpoint "
        "file (it plays the team it was trained for), zoo:NAME or py:MODULE:ATTR; TEAM=NAME "
        "for one team; repeatable; teams not named: heuristic",
    )
    deprecated_alias(play, "--opponents", against)
    play.add_argument("--param", action="append", metavar="NAME=VALUE",
                      help="a game parameter (repeatable)")
    play.add_argument("--seed", type=seed, default=0, help="seed of the deal")
    play.set_defaults(run=cmd_play)

    serve = sub.add_parser(
        "serve", help="a browser table: people take seats beside policies (needs the web extra)",
        description="Serve one table as a local web app: each seat gets a link with its own "
        "token; people play by clicking, policies fill the other seats at --pace. Finished "
        "games go to --db with who sat where; a replay viewer steps through them.",
    )
    serve.add_argument("game", choices=list(envs.registry), help="the game")
    serve.add_argument("--players", type=positive_int, default=None,
                       help="seats at the table (default: the game's)")
    serve.add_argument("--seats", default=None, metavar="A,B,...",
                       help="one item per seat: human, or a policy (random, heuristic, zoo:NAME, "
                       "X.pt, py:MOD:ATTR); NAME+NAME for a seat whose first policy plays only "
                       "one team (default: human, then heuristic)")
    serve.add_argument("--label", action="append", metavar="SEAT=NAME",
                       help="the name a person at SEAT is recorded by (default: human)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default %(default)s: this machine only)")
    serve.add_argument("--port", type=positive_int, default=8000)
    serve.add_argument("--db", default=None, help="store every finished game in this results "
                       "database (replays list its games too)")
    serve.add_argument("--pace", type=float, default=1.0,
                       help="seconds before each policy move (default %(default)s)")
    serve.add_argument("--param", action="append", metavar="NAME=VALUE",
                       help="a game parameter (repeatable)")
    serve.add_argument("--seed", type=seed, default=None,
                       help="seed of the deals (default: a fresh random one, printed)")
    serve.set_defaults(run=cmd_serve)

    _describe_games(sub)
    return parser


if __name__ == "__main__":
    sys.exit(main())
