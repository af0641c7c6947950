"""Trainer speed: agent-steps/s end to end and the share of wall time outside the network.

    python -m training.bench --seconds 60
    python -m training.bench --recipe amongus6 --seconds 60 --threads 1

Runs the real trainer (default network and batch) once per thread count, one after the other
in one process, so the rows are measured under the same conditions. Rates exclude the first
update (numba and torch compile and warm up there). "Per CPU-second" divides by this process's
CPU time: on shared cores it is the figure that does not depend on the neighbours' load.
With ``--steps`` every row does the same work (and the schedules follow steps, not seconds).
The recipe's one-off stages (imitation warm start, held-out evaluation, which the clock leaves
out anyway) are off here: the figures are PPO's own collect and update.

``--recipe NAME`` trains that recipe's network, league and schedules instead of the defaults
(``recipes/NAME.toml``): its warm start cut to one rollout's worth of decisions, so the league
holds its anchors and the teacher labels the learners' decisions over the same share of the
row's seconds as of the recipe's steps. The script imports ``training`` from ``PYTHONPATH``,
so ``PYTHONPATH=/path/to/old/tree python training/bench.py ...`` measures an older trainer
with the same settings.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile

from training import recipes
from training.cli import parse_players
from training.ppo import Args, train


def bench_args(ns: argparse.Namespace, out: str, threads: int) -> Args:
    """One row's trainer arguments: the defaults, or the recipe's (see the module's text)."""
    run = dict(total_steps=ns.steps, seconds=None if ns.steps else ns.seconds, out=out,
               threads=threads, tensorboard=False, progress=False, eval_every=0)
    if ns.device != "cpu":  # an older trainer has no device option
        run["device"] = ns.device
    if ns.model is not None:  # nor a seat network
        run["model"] = ns.model
    if len(ns.players) > 1:  # a mixed-size run (nor has an older trainer one)
        run["table_sizes"] = ns.players
    if ns.recipe is None:
        return Args(game=ns.game, num_players=ns.players[0], seed=ns.seed, imitate=None, **run)
    args = recipes.load(ns.recipe).args(seed=ns.seed, out=out)
    for name, value in run.items():
        setattr(args, name, value)
    args.imitation_steps = args.num_envs * args.num_steps
    return args


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.bench")
    parser.add_argument("--game", default="amongus")
    parser.add_argument("--players", type=parse_players, default=(6,),
                        help="the table size, or sizes like 4,6 for a mixed-size run of a seat "
                        "network (--model seats)")
    parser.add_argument("--seconds", type=float, default=60.0, help="training time per row")
    parser.add_argument("--steps", type=int, default=None,
                        help="train this many agent-steps per row instead of --seconds: the "
                        "same work whatever the load, for trees compared side by side")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--recipe", default=None, metavar="NAME",
                        help="train this recipe's settings (its game; --game/--players unused)")
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    parser.add_argument("--device", default="cpu", help="where the networks learn (cpu, cuda, "
                        "auto)")
    parser.add_argument("--model", default=None, help="the network kind (mlp, gru, seats; "
                        "default: the trainer's or the recipe's)")
    ns = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print("| threads | agent-steps/s | per CPU-second | outside network |")
    print("|---|---|---|---|")
    for threads in ns.threads:
        with tempfile.TemporaryDirectory() as out:
            train(bench_args(ns, out, threads))
            with open(os.path.join(out, "summary.json")) as f:
                s = json.load(f)
        print(f"| {threads} | {s['steps_per_second']:,.0f} | {s['steps_per_cpu_second']:,.0f} | "
              f"{s['outside_network_share']:.1%} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
