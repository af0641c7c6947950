"""``hiddendeck train``: the trainer from the command line, and ``train_teams`` for the demo.

``evaluation/cli.py`` owns the ``hiddendeck`` command and calls ``register(subparsers)``; the
module also runs on its own (``python -m training.cli train amongus ...``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from training.ppo import Args, train


def _param(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name, int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: expected an integer, got {value!r}") from None


def _fixed(text: str) -> tuple[str, str]:
    team, sep, name = text.partition("=")
    if not sep or not team or not name:
        raise argparse.ArgumentTypeError(f"expected TEAM=NAME, e.g. crew=heuristic, got {text!r}")
    return team, name


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected widths like 64,64, got {text!r}") from None
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"widths must be positive, got {text!r}")
    return widths


def register(subparsers) -> argparse.ArgumentParser:
    """Add the ``train`` subcommand to an ``argparse`` subparsers object."""
    d = Args()
    p = subparsers.add_parser(
        "train",
        help="self-play PPO for every team of a game",
        description="Self-play PPO over the batched engine; one policy per team, checkpoints "
        "under OUT/checkpoints/step_N/{team}.pt, TensorBoard logs under OUT/tb.",
    )
    p.add_argument("game", help="a registered game, e.g. amongus")
    p.add_argument("--players", type=int, default=d.num_players, help="seats at the table")
    p.add_argument("--steps", type=int, default=None,
                   help=f"agent decisions to train on, all seats together (default "
                   f"{d.total_steps:,}, or no limit when --seconds is given)")
    p.add_argument("--seconds", type=float, default=None, help="also stop after this wall time")
    p.add_argument("--out", default=None, help="run directory (default runs/GAME-SEED)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--param", type=_param, action="append", default=[], metavar="NAME=VALUE",
                   help="another game parameter, e.g. --param max_rounds=20 (repeatable)")
    p.add_argument("--num-envs", type=int, default=d.num_envs, help="games stepped together")
    p.add_argument("--num-steps", type=int, default=d.num_steps, help="batched steps per rollout")
    p.add_argument("--lr", type=float, default=d.learning_rate, help="Adam learning rate")
    p.add_argument("--epochs", type=int, default=d.update_epochs, help="PPO epochs per update")
    p.add_argument("--ent-coef", type=float, default=d.ent_coef, help="entropy bonus")
    p.add_argument("--model", choices=("mlp", "gru"), default=d.model,
                   help="gru: a recurrent actor with per-seat memory (default %(default)s)")
    p.add_argument("--hidden", type=_widths, default=d.hidden, help="MLP widths, e.g. 64,64")
    p.add_argument("--centralised-critic", action="store_true",
                   help="the critic also reads the god-view state()")
    p.add_argument("--shared-policy", action="store_true", help="one policy for every seat")
    p.add_argument("--opponent-share", type=float, default=d.opponent_share,
                   help="share of game sides played by past snapshots (default %(default)s)")
    p.add_argument("--scripted-opponent", action="append", default=[], metavar="NAME",
                   help="also put this scripted player (random, heuristic) in every team's "
                   "opponent pool (repeatable)")
    p.add_argument("--fixed", type=_fixed, action="append", default=[], metavar="TEAM=NAME",
                   help="do not train TEAM: a scripted player (random, heuristic) plays it in "
                   "every game, e.g. --fixed crew=heuristic (repeatable)")
    p.add_argument("--imitate", default=None, metavar="NAME",
                   help="warm start: trained teams first learn to choose as this scripted player "
                   "(e.g. heuristic) does")
    p.add_argument("--imitation-steps", type=int, default=d.imitation_steps,
                   help="decisions played for the warm start (default %(default)s)")
    p.add_argument("--threads", type=int, default=d.threads, help="CPU threads")
    p.add_argument("--resume", default=None, help="checkpoint directory or run directory")
    p.add_argument("--no-tensorboard", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=run)
    return p


def args_from_namespace(ns: argparse.Namespace) -> Args:
    params = dict(ns.param)
    if "num_players" in params:
        raise ValueError("give the number of players with --players, not --param")
    return Args(
        game=ns.game,
        num_players=ns.players,
        params=params,
        seed=ns.seed,
        total_steps=ns.steps if ns.steps is not None or ns.seconds else Args.total_steps,
        seconds=ns.seconds,
        out=ns.out or f"runs/{ns.game}-{ns.seed}",
        num_envs=ns.num_envs,
        num_steps=ns.num_steps,
        learning_rate=ns.lr,
        update_epochs=ns.epochs,
        ent_coef=ns.ent_coef,
        model=ns.model,
        hidden=ns.hidden,
        centralised_critic=ns.centralised_critic,
        shared_policy=ns.shared_policy,
        opponent_share=ns.opponent_share,
        scripted_opponents=tuple(ns.scripted_opponent),
        fixed_teams=dict(ns.fixed),
        imitate=ns.imitate,
        imitation_steps=ns.imitation_steps,
        threads=ns.threads,
        resume=ns.resume,
        tensorboard=not ns.no_tensorboard,
        progress=not ns.quiet,
    )


def run(ns: argparse.Namespace) -> int:
    paths = train(args_from_namespace(ns))
    for team, path in paths.items():
        print(f"{team}: {path}")
    return 0


def train_teams(
    game: str,
    num_players: int,
    out_dir: str | Path,
    steps: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    **options,
) -> dict[str, Path]:
    """Train every team of ``game`` for ``steps`` agent decisions and/or ``seconds`` of wall time;
    returns ``{team: checkpoint path}`` for ``agents.neural.load_policy``. ``options`` are further
    ``training.ppo.Args`` fields."""
    return train(
        Args(
            game=game,
            num_players=num_players,
            out=str(out_dir),
            total_steps=steps,
            seconds=seconds,
            seed=seed,
            **options,
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.cli")
    register(parser.add_subparsers(dest="command", required=True))
    ns = parser.parse_args(argv)
    try:
        return ns.run(ns)
    except ValueError as e:  # bad settings or checkpoints: one clear line, not a traceback
        parser.error(str(e))


if __name__ == "__main__":
    raise SystemExit(main())
