"""The ``hiddendeck`` command: demo, train, bench, play."""

from __future__ import annotations

import argparse
import json
import sys

import envs


def _params(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--param expects NAME=VALUE, got {pair!r}")
        try:
            out[key] = int(value)
        except ValueError:
            raise SystemExit(f"--param {key}: {value!r} is not an integer") from None
    return out


def cmd_bench(args) -> int:
    from .bench import format_bench, run_bench

    if args.balance:
        from .balance import format_balance, run_balance

        result = run_balance(args.game)
        print(json.dumps(result) if args.json else format_balance(result))
        return 0
    params = _params(args.param)
    if args.players is not None:
        params["num_players"] = args.players
    result = run_bench(args.game, seconds=args.seconds, repeat=args.repeat, **params)
    print(json.dumps(result) if args.json else format_bench(result))
    return 0


def cmd_demo(args) -> int:
    from .demo import SECONDS, run_demo

    run_demo(seconds=args.seconds or SECONDS, games=args.games, out=args.out, seed=args.seed)
    return 0


def cmd_play(args) -> int:
    from .play import play

    params = _params(args.param)
    if args.players is not None:
        params["num_players"] = args.players
    opponents = args.opponents or ["heuristic"]
    play(args.game, args.seat, opponents=opponents, seed=args.seed, **params)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hiddendeck", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    bench = sub.add_parser("bench", help="engine speed: batched vs AEC agent-steps/s")
    bench.add_argument("game", choices=list(envs.registry))
    bench.add_argument("--players", type=int, default=None)
    bench.add_argument("--param", action="append", metavar="NAME=VALUE", help="a game parameter")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
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
        "demo", help="the main job: train crew and menace, then trained vs trained vs heuristics"
    )
    demo.add_argument("--seconds", type=float, default=None,
                      help="training time, start-up included (default: the demo's own)")
    demo.add_argument("--games", type=int, default=2_000, help="evaluation games per pairing")
    demo.add_argument("--out", default="runs/demo", help="run directory for checkpoints and logs")
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(run=cmd_demo)

    from training.cli import register as register_train

    register_train(sub)

    play = sub.add_parser("play", help="play one seat yourself at the terminal")
    play.add_argument("game", choices=list(envs.registry))
    play.add_argument("--seat", type=int, default=0)
    play.add_argument("--players", type=int, default=None)
    play.add_argument(
        "--opponents",
        action="append",
        metavar="[TEAM=]NAME",
        help="random, heuristic, or a checkpoint file (it plays the team it was trained for); "
        "TEAM=NAME for one team; repeatable; teams not named: heuristic",
    )
    play.add_argument("--param", action="append", metavar="NAME=VALUE", help="a game parameter")
    play.add_argument("--seed", type=int, default=0)
    play.set_defaults(run=cmd_play)

    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as err:
        print(f"hiddendeck: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
