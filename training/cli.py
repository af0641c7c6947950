"""``hiddendeck train``: the trainer from the command line, and ``train_teams`` for the demo.

``evaluation/cli.py`` owns the ``hiddendeck`` command and calls ``register(subparsers)``; the
module also runs on its own (``python -m training.cli train amongus ...``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict
from pathlib import Path

import envs
from evaluation.commands import game_param, seed
from agents.neural import DEVICES, MODEL_KINDS
from training.evaluate import below_random
from training.pool import SAMPLING
from training.ppo import Args, train
from training.recipes import MAX_WIDTH


def _varied(text: str) -> tuple[str, tuple[int, int]]:
    """``--vary NAME=LOW:HIGH``: a per-game parameter spread over the training games."""
    name, sep, span = text.partition("=")
    low, colon, high = span.partition(":")
    try:
        if not sep or not name or not colon:
            raise ValueError
        return name, (int(low), int(high))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected NAME=LOW:HIGH, e.g. max_rounds=5:30, got {text!r}"
        ) from None


def _fixed(text: str) -> tuple[str, str]:
    team, sep, name = text.partition("=")
    if not sep or not team or not name:
        raise argparse.ArgumentTypeError(f"expected TEAM=NAME, e.g. crew=heuristic, got {text!r}")
    return team, name


def _team_setting(text: str, parse, form: str):
    """``TEAM=VALUE`` for the per-team options, the value read by ``parse``."""
    team, sep, value = text.partition("=")
    if not sep or not team:
        raise argparse.ArgumentTypeError(f"expected {form}, got {text!r}")
    return team, parse(value)


def _team_weight(text: str) -> tuple[str, float]:
    return _team_setting(text, _non_negative, "TEAM=X, e.g. menace=0")


def _team_share(text: str) -> tuple[str, float]:
    return _team_setting(text, _positive, "TEAM=X, e.g. impostor=0.5")


def _team_widths(text: str) -> tuple[str, tuple[int, ...]]:
    return _team_setting(text, _widths, "TEAM=WIDTHS, e.g. crew=256,256")


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _non_negative(text: str) -> float:
    value = _finite(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def _positive(text: str) -> float:
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def _name_or_none(text: str) -> str | None:
    return None if text.lower() == "none" else text


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected widths like 64,64, got {text!r}") from None
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"widths must be positive, got {text!r}")
    if max(widths) > MAX_WIDTH:  # as a recipe's: a typo fails here, not deep in torch
        raise argparse.ArgumentTypeError(f"a layer wider than {MAX_WIDTH:,}, got {text!r}")
    return widths


def parse_players(text: str) -> tuple[int, ...]:
    """``--players 6``, or a mixed-size run's ``--players 4,5,6``."""
    try:
        sizes = tuple(int(n) for n in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a table size or sizes like 4,5,6, got "
                                         f"{text!r}") from None
    return sizes


def _shares(text: str) -> tuple[float, ...]:
    return tuple(_positive(w) for w in text.split(","))


def register(subparsers) -> argparse.ArgumentParser:
    """Add the ``train`` subcommand to an ``argparse`` subparsers object."""
    d = Args()
    p = subparsers.add_parser(
        "train",
        help="self-play PPO for every team of a game",
        description="Self-play PPO over the batched engine; one policy per team (in a "
        "free-for-all game such as maniacal, one shared policy for every seat), checkpoints "
        "under OUT/checkpoints/step_N/{team}.pt, TensorBoard logs under OUT/tb.",
    )
    p.add_argument("game", nargs="?", default=None,
                   help="a registered game, e.g. amongus (not with --recipe)")
    p.add_argument("--recipe", default=None, metavar="NAME",
                   help="train a recipe (recipes/NAME.toml, or a .toml path): its game, table, "
                   "step budget and options; only --seed, --out, --threads, --device, --resume, "
                   "--quiet, --no-tensorboard and --allow-code go with it")
    p.add_argument("--players", type=parse_players, default=None,
                   help="seats at the table (default the game's own table size), or several "
                   "sizes, e.g. 4,5,6: one seat network (--model seats) trained on games "
                   "dealt at each")
    p.add_argument("--table-shares", type=_shares, default=(),
                   help="with several --players, each size's weight in the split of the games, "
                   "e.g. 1,2 (default equal shares)")
    p.add_argument("--steps", type=int, default=None,
                   help=f"agent decisions to train on, all seats together (default "
                   f"{d.total_steps:,}, or no limit when --seconds is given)")
    p.add_argument("--seconds", type=_positive, default=None,
                   help="also stop after this wall time (imitation and evaluation included)")
    p.add_argument("--out", default=None, help="run directory (default runs/GAME-SEED)")
    p.add_argument("--seed", type=seed, default=d.seed, help="an integer in [0, 2**63)")
    p.add_argument("--param", type=game_param, action="append", default=[], metavar="NAME=VALUE",
                   help="another game parameter, e.g. --param max_rounds=20 (repeatable)")
    p.add_argument("--vary", type=_varied, action="append", default=[], metavar="NAME=LOW:HIGH",
                   help="spread a per-game parameter over the training games, e.g. "
                   "--vary max_rounds=5:30 (held-out curves play the game as given)")
    p.add_argument("--num-envs", type=int, default=d.num_envs, help="games stepped together")
    p.add_argument("--num-steps", type=int, default=d.num_steps, help="batched steps per rollout")
    p.add_argument("--lr", type=_positive, default=d.learning_rate,
                   help="Adam learning rate at the start (also on --resume)")
    p.add_argument("--no-anneal-lr", action="store_true",
                   help="keep the learning rate constant instead of decaying it to 0")
    p.add_argument("--epochs", type=int, default=d.update_epochs, help="PPO epochs per update")
    p.add_argument("--ent-coef", type=_non_negative, default=d.ent_coef,
                   help="entropy bonus at the start (default %(default)s)")
    p.add_argument("--ent-coef-final", type=_non_negative, default=d.ent_coef_final,
                   help="entropy bonus at the end of the budget (default %(default)s)")
    p.add_argument("--model", choices=MODEL_KINDS, default=d.model,
                   help="the network: mlp, gru (a recurrent actor) or seats (seat tokens, one "
                   "network for every table size)")
    p.add_argument("--hidden", type=_widths, default=d.hidden, help="MLP widths, e.g. 64,64")
    p.add_argument("--team-hidden", type=_team_widths, action="append", default=[],
                   metavar="TEAM=WIDTHS", help="that team's MLP widths instead of --hidden, "
                   "e.g. crew=256,256 (repeatable)")
    p.add_argument("--centralised-critic", action="store_true",
                   help="the critic also reads the god-view state()")
    p.add_argument("--shared-policy", action="store_true",
                   help="one policy for every seat (always so in a free-for-all game)")
    p.add_argument("--belief-coef", type=_non_negative, default=d.belief_coef,
                   help="weight of the auxiliary role-prediction head's loss, trained on the "
                   "true teams and never fed back to the actor (default %(default)s; 0: no "
                   "head; team games only)")
    p.add_argument("--belief-input", action="store_true",
                   help="the actor reads the role head's beliefs and the head's loss shapes the "
                   "actor's features (needs --belief-coef > 0; team games only)")
    p.add_argument("--deduction", type=_name_or_none, default=d.deduction, metavar="NAME",
                   help="counts the agent makes from its own observation, read by its actor "
                   "beside it (amongus-counts: the count over deals; menace-suspicion: the "
                   "Menace heuristic's reading of each seat's evidence; default none)")
    p.add_argument("--opponent-share", type=float, default=d.opponent_share,
                   help="share of game sides played by league members (default %(default)s)")
    p.add_argument("--pool-size", type=_count, default=d.pool_size,
                   help="recent snapshots kept per team in the league (default %(default)s)")
    p.add_argument("--league-sampling", choices=SAMPLING, default=d.league_sampling,
                   help="which league member a draw picks: uniform, or pfsp (toward those the "
                   "learner does worst against; default %(default)s)")
    p.add_argument("--pfsp-power", type=float, default=d.pfsp_power,
                   help="pfsp weight (1 - score) ** power (default %(default)s)")
    p.add_argument("--pfsp-decay", type=float, default=d.pfsp_decay,
                   help="weight of a pfsp result one rollout older (default %(default)s)")
    p.add_argument("--scripted-opponent", action="append", default=[], metavar="NAME",
                   help="also put this scripted player (random, heuristic, or a team's .pt) in "
                   "the league (repeatable); then the run is not pure self-play")
    p.add_argument("--fixed", type=_fixed, action="append", default=[], metavar="TEAM=NAME",
                   help="do not train TEAM: a scripted player or a .pt of that team plays it in "
                   "every game, e.g. --fixed crew=heuristic (repeatable)")
    p.add_argument("--imitate", type=_name_or_none, default=d.imitate, metavar="NAME",
                   help="warm start: trained teams first learn to choose as this scripted player "
                   "does (default %(default)s; none: start from scratch)")
    p.add_argument("--imitate-also", action="append", default=[],
                   metavar="NAME", help="the warm start also imitates this scripted player's "
                   "games, drawn per game beside --imitate's (repeatable)")
    p.add_argument("--imitation-steps", type=int, default=d.imitation_steps,
                   help="decisions played for the warm start (default %(default)s)")
    p.add_argument("--imitation-epochs", type=int, default=d.imitation_epochs,
                   help="epochs over each batch of the teacher's decisions (default %(default)s)")
    p.add_argument("--imitation-lr", type=_positive, default=d.imitation_lr,
                   help="Adam's rate for the warm start (default %(default)s)")
    p.add_argument("--imitation-noise", type=float, default=d.imitation_noise,
                   help="share of the warm start's decisions played at random, still labelled "
                   "with the teacher's choice (default %(default)s)")
    p.add_argument("--imitation-share", type=_positive, default=d.imitation_share,
                   help="with --seconds, the warm start stops after this share of the budget "
                   "at the latest (default %(default)s)")
    p.add_argument("--teacher-coef", type=_non_negative, default=d.teacher_coef,
                   help="weight of the cross-entropy to the imitated player's choices in the "
                   "learner's own positions, decaying to 0 (default %(default)s; 0: off)")
    p.add_argument("--teacher-until", type=_positive, default=d.teacher_until,
                   help="share of the budget over which it decays (default %(default)s)")
    p.add_argument("--teacher-final", type=_non_negative, default=d.teacher_final,
                   help="its weight from then on (default %(default)s; 0: gone)")
    p.add_argument("--team-teacher-final", type=_team_weight, action="append", default=[],
                   metavar="TEAM=X", help="that team's teacher weight from --teacher-until on, "
                   "instead of --teacher-final, e.g. menace=0 (repeatable)")
    p.add_argument("--team-teacher-until", type=_team_share, action="append", default=[],
                   metavar="TEAM=X", help="that team's share of the budget over which its "
                   "teacher term decays, instead of --teacher-until, e.g. impostor=0.5 "
                   "(repeatable)")
    p.add_argument("--team-train-until", type=_team_share, action="append", default=[],
                   metavar="TEAM=X", help="that team's learner stops learning after this share "
                   "of the budget and plays on as it is, e.g. crew=0.7 (repeatable; default: "
                   "to the end)")
    p.add_argument("--critic-warmup", type=_count, default=d.critic_warmup,
                   help="updates after the warm start that train the critic only "
                   "(default %(default)s)")
    p.add_argument("--eval-every", type=_count, default=d.eval_every,
                   help="updates between held-out evaluations, 0 for none (default %(default)s)")
    p.add_argument("--eval-games", type=int, default=d.eval_games,
                   help="games per team and held-out opponent (default %(default)s)")
    p.add_argument("--eval-opponent", action="append", default=None, metavar="NAME",
                   help="a held-out reference the curves are scored against (repeatable; "
                   "default: random and every scripted player of the game)")
    p.add_argument("--snapshot-every", type=int, default=d.snapshot_every,
                   help="updates between league snapshots (default %(default)s)")
    p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every,
                   help="updates between checkpoints (default %(default)s)")
    p.add_argument("--threads", type=int, default=d.threads, help="CPU threads")
    p.add_argument("--device", choices=DEVICES, default=d.device,
                   help="where the networks learn (default %(default)s; auto: cuda where torch "
                   "sees a GPU); the games stay on the CPU")
    p.add_argument("--resume", default=None, help="checkpoint directory or run directory")
    p.add_argument("--allow-code", action="store_true",
                   help="let --recipe name py:MODULE:ATTR policies, code it imports and runs")
    p.add_argument("--no-tensorboard", action="store_true")
    p.add_argument("--wandb", default=None, metavar="PROJECT",
                   help="also log to this Weights & Biases project (it mirrors the TensorBoard "
                   "scalars; needs the wandb package, pip install 'hiddendeck[wandb]')")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=run)
    return p


def args_from_namespace(ns: argparse.Namespace) -> Args:
    params = dict(ns.param)
    if "num_players" in params:
        raise ValueError("give the number of players with --players, not --param")
    sizes = ns.players or (envs.registry[ns.game].resolve()["num_players"],)
    return Args(
        game=ns.game,
        num_players=sizes[0],
        table_sizes=sizes if len(sizes) > 1 else (),
        table_shares=ns.table_shares,
        params=params,
        vary=dict(ns.vary),
        seed=ns.seed,
        total_steps=ns.steps if ns.steps is not None or ns.seconds else Args.total_steps,
        seconds=ns.seconds,
        out=ns.out or f"runs/{ns.game}-{ns.seed}",
        num_envs=ns.num_envs,
        num_steps=ns.num_steps,
        learning_rate=ns.lr,
        anneal_lr=not ns.no_anneal_lr,
        update_epochs=ns.epochs,
        ent_coef=ns.ent_coef,
        ent_coef_final=ns.ent_coef_final,
        model=ns.model,
        hidden=ns.hidden,
        team_hidden=dict(ns.team_hidden),
        centralised_critic=ns.centralised_critic,
        belief_coef=ns.belief_coef,
        belief_input=ns.belief_input,
        deduction=ns.deduction,
        shared_policy=ns.shared_policy,
        opponent_share=ns.opponent_share,
        pool_size=ns.pool_size,
        league_sampling=ns.league_sampling,
        pfsp_power=ns.pfsp_power,
        pfsp_decay=ns.pfsp_decay,
        scripted_opponents=tuple(ns.scripted_opponent),
        fixed_teams=dict(ns.fixed),
        imitate=ns.imitate,
        imitate_also=tuple(ns.imitate_also),
        imitation_steps=ns.imitation_steps,
        imitation_epochs=ns.imitation_epochs,
        imitation_lr=ns.imitation_lr,
        imitation_noise=ns.imitation_noise,
        imitation_share=ns.imitation_share,
        teacher_coef=ns.teacher_coef,
        teacher_until=ns.teacher_until,
        teacher_final=ns.teacher_final,
        team_teacher_final=dict(ns.team_teacher_final),
        team_teacher_until=dict(ns.team_teacher_until),
        team_train_until=dict(ns.team_train_until),
        critic_warmup=ns.critic_warmup,
        eval_every=ns.eval_every,
        eval_games=ns.eval_games,
        eval_opponents=tuple(ns.eval_opponent) if ns.eval_opponent else Args.eval_opponents,
        snapshot_every=ns.snapshot_every,
        checkpoint_every=ns.checkpoint_every,
        threads=ns.threads,
        device=ns.device,
        resume=ns.resume,
        tensorboard=not ns.no_tensorboard,
        progress=not ns.quiet,
    )


# what may go with --recipe: how to run it, never what is trained
RUN_OPTIONS = {"recipe", "seed", "out", "threads", "device", "resume", "quiet",
               "no_tensorboard", "allow_code", "wandb"}


def args_from_recipe(ns: argparse.Namespace) -> Args:
    """The recipe's arguments for this seed; any trainer option given beside it is refused,
    so a run called by a recipe's name is that recipe."""
    from training.recipes import load

    sub = argparse.ArgumentParser().add_subparsers()
    defaults = vars(register(sub).parse_args([]))
    given = sorted(k for k, v in vars(ns).items()
                   if k in defaults and k not in RUN_OPTIONS and k != "run" and v != defaults[k])
    if given:
        flags = ", ".join("--" + k.replace("_", "-") if k != "game" else "GAME" for k in given)
        raise ValueError(f"--recipe sets every trainer option; also given: {flags} (edit a "
                         f"copy of the recipe instead)")
    recipe = load(ns.recipe, ns.allow_code)
    run = {"threads": ns.threads, "device": ns.device, "resume": ns.resume,
           "progress": not ns.quiet, "tensorboard": not ns.no_tensorboard}
    return recipe.args(ns.seed, ns.out or f"runs/{recipe.name}-{ns.seed}", **run)


def run(ns: argparse.Namespace) -> int:
    if ns.recipe is not None:
        args = args_from_recipe(ns)
    elif ns.game is None:
        raise ValueError("train needs a GAME or --recipe NAME")
    else:
        args = args_from_namespace(ns)
    logger = start_wandb(ns.wandb, args) if ns.wandb else None
    try:
        paths = train(args)
    finally:
        if logger is not None:
            logger.finish()
    for team, path in paths.items():
        print(f"{team}: {path}")
    out = Path(args.out)
    for curves in ([out / "curves.json"] if not args.mixed else
                   [out / f"players-{n}" / "curves.json" for n in args.sizes]):
        if args.eval_every and curves.exists():  # this run's held-out curve (at each size)
            for line in below_random(json.loads(curves.read_text())):
                print(line if not args.mixed else f"{curves.parent.name}: {line}",
                      file=sys.stderr)
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


class OneLineParser(argparse.ArgumentParser):
    """Errors as one line, ``hiddendeck: ...``, exit status 2 (argparse's own status)."""

    def error(self, message: str):
        sys.stderr.write(f"hiddendeck: {self.prog.split()[-1]}: {message}\n")
        raise SystemExit(2)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m training.cli")
    register(parser.add_subparsers(dest="command", required=True))
    ns = parser.parse_args(argv)
    try:
        return ns.run(ns)
    except ValueError as e:  # bad settings or checkpoints: one clear line, not a traceback
        sys.stderr.write(f"hiddendeck: {e}\n")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())


def start_wandb(project: str, args: Args):
    """A Weights & Biases run that mirrors this run's TensorBoard scalars (``sync_tensorboard``),
    so the trainer writes its metrics once, for both. wandb is imported only here: it is no
    dependency of hiddendeck, and a run without --wandb never loads it."""
    if not args.tensorboard:
        raise ValueError("--wandb mirrors the TensorBoard logs: drop --no-tensorboard")
    try:
        import wandb
    except ImportError:
        raise ValueError("--wandb needs the wandb package: pip install 'hiddendeck[wandb]'") \
            from None
    config = json.loads(json.dumps(asdict(args), default=str))
    return wandb.init(project=project, name=Path(args.out).name, dir=args.out, config=config,
                      sync_tensorboard=True)
