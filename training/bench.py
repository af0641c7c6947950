"""Trainer speed: agent-steps/s end to end and the share of wall time outside the network.

    python -m training.bench --seconds 60

Runs the real trainer (default network and batch) once per thread count, one after the other
in one process, so the rows are measured under the same conditions. Rates exclude the first
update (numba and torch compile and warm up there). "Per CPU-second" divides by this process's
CPU time: on shared cores it is the figure that does not depend on the neighbours' load.
The recipe's one-off stages (imitation warm start, held-out evaluation, which the clock leaves
out anyway) are off here: the figures are PPO's own collect and update.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile

from training.ppo import Args, train


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.bench")
    parser.add_argument("--game", default="amongus")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0, help="training time per row")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ns = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print("| threads | agent-steps/s | per CPU-second | outside network |")
    print("|---|---|---|---|")
    for threads in ns.threads:
        with tempfile.TemporaryDirectory() as out:
            train(Args(game=ns.game, num_players=ns.players, total_steps=None,
                       seconds=ns.seconds, out=out, threads=threads, tensorboard=False,
                       progress=False, imitate=None, eval_every=0))
            with open(os.path.join(out, "summary.json")) as f:
                s = json.load(f)
        print(f"| {threads} | {s['steps_per_second']:,.0f} | {s['steps_per_cpu_second']:,.0f} | "
              f"{s['outside_network_share']:.1%} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
