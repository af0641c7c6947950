"""Throughput of the evaluation harness: a large paired-deal match between two MLP policies,
and the harness's cost over a bare ``play_match`` loop measured side by side.

    python -m evaluation.eval_bench                    # 100,000 Menace games, default workers
    python -m evaluation.eval_bench --games 20000 --overhead-games 4000 --json

The two policies are untrained MLP checkpoints (the trainer's default widths, 64-64, sampled
actions), one per team, so the figure counts the network's forward passes as an evaluation of
trained policies would. Overhead: the same games in this process through ``play_batch`` (paired
deals, refills, the seat dealing and every action recorded) and through ``play_match``, in
alternating rounds, so both see the same moments of a shared machine; the ratio of medians is
reported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import envs


def _checkpoints(directory: Path, game: str, params: dict, hidden=(64, 64)) -> dict[str, str]:
    import torch

    from agents.checkpoint import game_metadata, save_policy
    from agents.neural import ActorCritic

    spec = envs.registry[game]
    size = spec.observation_layout(params).size
    config = {"kind": "mlp", "observation_size": size, "num_actions": spec.num_actions,
              "critic_input_size": size, "hidden": list(hidden)}
    paths = {}
    for k, team in enumerate(spec.teams):
        torch.manual_seed(k)
        meta = game_metadata(game, params)
        meta.update(team=team, teams=list(spec.teams), steps=0, seed=k, model=config)
        paths[team] = str(save_policy(directory / f"{team}.pt", meta,
                                      ActorCritic(config).state_dict()))
    return paths


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the workers, once joined): on a
    shared machine the wall time says how busy the neighbours were, this says what we used."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(game: str = "menace", games: int = 100_000, overhead_games: int = 4_000,
        rounds: int = 3, workers: int | None = None, slots: int = 512, **params) -> dict:
    import numba
    import torch

    from agents.neural import load_policy

    from .crossplay import cross_play
    from .entrants import resolve
    from .harness import Batch
    from .match import play_match
    from .runner import play_here, default_workers

    spec = envs.registry[game]
    params = spec.resolve(**params)
    with tempfile.TemporaryDirectory() as tmp:
        paths = _checkpoints(Path(tmp), game, params)
        lineups = {team: [f"mlp-{team}@{paths[team]}"] for team in spec.teams}
        cross_play(game, lineups, 2 * slots, workers=1, slots=slots, **params)  # warm caches
        start, cpu = time.perf_counter(), _cpu_seconds()
        result = cross_play(game, lineups, games, workers=workers, slots=slots, **params)
        wall, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
        cell = result.as_dict()["cells"][0]

        sides = tuple(resolve(lineups[t][0], spec, params) for t in spec.teams)
        harness_s, bare_s = [], []
        for r in range(rounds):
            batch = Batch(game, params, sides, seed=100 + r, start=0, stop=overhead_games,
                          slots=slots)
            t = time.perf_counter()
            list(play_here([batch]))
            harness_s.append(time.perf_counter() - t)
            policies = {t: load_policy(paths[t], game, seed=r, **params) for t in spec.teams}
            t = time.perf_counter()
            saved = numba.get_num_threads(), torch.get_num_threads()
            numba.set_num_threads(1)
            torch.set_num_threads(1)
            try:
                play_match(game, policies, overhead_games, num_envs=slots, seed=100 + r, **params)
            finally:
                numba.set_num_threads(saved[0])
                torch.set_num_threads(saved[1])
            bare_s.append(time.perf_counter() - t)
    harness, bare = statistics.median(harness_s), statistics.median(bare_s)
    return {
        "game": game, "params": params, "games": games, "seconds": wall,
        "games_per_second": games / wall, "cpu_seconds": cpu,
        "games_per_cpu_second": games / cpu, "mean_length": cell["mean_length"],
        "decisions_per_second": games * cell["mean_length"] / wall,
        "workers": workers or default_workers(), "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "overhead": {"games": overhead_games, "rounds": rounds, "slots": slots,
                     "harness_s": harness_s, "play_match_s": bare_s,
                     "ratio": harness / bare},
    }


def format_result(r: dict) -> str:
    o = r["overhead"]
    return "\n".join([
        f"{r['game']} {' '.join(f'{k}={v}' for k, v in r['params'].items())}",
        f"{r['games']:,} games, two MLP policies (64-64, sampled), {r['workers']} workers on "
        f"{r['cpus']} CPUs: {r['seconds']:.1f} s, {r['games_per_second']:,.0f} games/s, "
        f"{r['decisions_per_second']:,.0f} decisions/s (mean length {r['mean_length']:.1f})",
        f"CPU time {r['cpu_seconds']:.1f} s (this process and its workers): "
        f"{r['games_per_cpu_second']:,.0f} games per CPU-second, so "
        f"{r['games'] / r['games_per_cpu_second'] / r['workers']:.1f} s on {r['workers']} idle "
        f"cores",
        f"harness vs bare play_match, {o['games']:,} games in one process, {o['rounds']} "
        f"alternating rounds: {statistics.median(o['harness_s']):.2f} s vs "
        f"{statistics.median(o['play_match_s']):.2f} s, ratio {o['ratio']:.3f} "
        f"(overhead {o['ratio'] - 1:+.1%})",
        f"load average at the end: {', '.join(f'{x:.2f}' for x in r['load_average'])}",
    ])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.eval_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="menace")
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--overhead-games", type=int, default=4_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--slots", type=int, default=512)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    params = {} if args.players is None else {"num_players": args.players}
    r = run(args.game, args.games, args.overhead_games, args.rounds, args.workers, args.slots,
            **params)
    print(json.dumps(r) if args.json else format_result(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
