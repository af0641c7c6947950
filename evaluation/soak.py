"""Soak test: play many random games of any registered game and check every invariant at
every step, so that a rule edit that breaks the engine's contract shows up as a named violation.

    python -m evaluation.soak menace --games 1000000          # every table size in turn
    python -m evaluation.soak amongus --games 100000 --players 5 --param max_rounds=2

Checked after every step, for every game of the batch:
- the records stay inside their declared ranges (``envs/<game>/limits.py``), so a snapshot
  always loads back with ``set_records`` (and it is loaded back every ``--reload`` steps);
- every live game has a legal action; observations and ``state()`` are finite, in [0, 2];
- ``teams()`` names a team; ``current_seat`` is a seat;
- rewards are zero except on a game's last step, where they lie in the spec's reward range,
  and are zero for a truncated game (a decided free-for-all may pay all zero on a tie);
- ``terminated`` and ``truncated`` never both; ``winner`` names a team exactly when a game
  ended terminated;
- a finished game restarts: ``episode`` counts one more, ``decisions`` start again at 0;
- no game runs to ``max_decisions``.
It prints one line per table size and a total, and exits 1 at the first violation, naming the
game, the step and the invariant.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import envs
from agents.policy import RandomPolicy
from envs.core.limits import check_records

OBSERVATION_HIGH = 2.0


class Violation(AssertionError):
    pass


def _fail(vec, what: str, rows: np.ndarray, step: int) -> None:
    b = int(np.flatnonzero(rows)[0]) if rows.dtype == np.bool_ else int(rows)
    raise Violation(
        f"{vec.spec.name} {vec.params}: step {step}, game {b} (seat {int(vec.current_seat[b])}):"
        f" {what}"
    )


def soak_one(
    game: str, games: int, num_envs: int = 256, seed: int = 0, reload_every: int = 97, **params
) -> dict:
    """Play until ``games`` games have finished; raise ``Violation`` at the first broken
    invariant. Returns counts: games, agent-steps, truncations."""
    vec = envs.make_vec(game, num_envs, seed=seed, **params)
    spec = vec.spec
    low, high = spec.reward_range
    max_decisions = spec.max_decisions(vec.params)
    policy = RandomPolicy(seed)
    finished = steps = truncations = 0
    t = 0
    while finished < games:
        episode = vec.records["episode"].copy()
        decisions = vec.records["decisions"].copy()
        rewards, terminated, truncated = vec.step(policy.act(vec.observation, vec.action_mask))
        t += 1
        steps += num_envs
        ended = terminated | truncated
        if (terminated & truncated).any():
            _fail(vec, "terminated and truncated at once", terminated & truncated, t)
        if ((rewards != 0).any(1) & ~ended).any():
            _fail(vec, "a reward before the game's last step", (rewards != 0).any(1) & ~ended, t)
        if ((rewards < low) | (rewards > high)).any():
            _fail(vec, f"a reward outside {spec.reward_range}", ((rewards < low) |
                  (rewards > high)).any(1), t)
        if (truncated & (rewards != 0).any(1)).any():
            _fail(vec, "a truncated game pays rewards", truncated & (rewards != 0).any(1), t)
        won = (vec.winner >= 0) & (vec.winner < len(spec.teams))
        if (terminated != won).any():
            _fail(vec, f"winner {vec.winner[terminated != won][0]} does not match terminated",
                  terminated != won, t)
        records = vec.records
        restarted = records["episode"] == episode + 1
        if (restarted != ended).any():
            _fail(vec, "episode did not count exactly the finished games", restarted != ended, t)
        if (ended & (records["decisions"] != 0)).any():
            _fail(vec, "a restarted game kept its decisions", ended & (records["decisions"] != 0),
                  t)
        if (~ended & (records["decisions"] != decisions + 1)).any():
            _fail(vec, "decisions did not count the step", ~ended & (records["decisions"] !=
                  decisions + 1), t)
        if (decisions + 1 >= max_decisions).any():
            _fail(vec, f"a game reached max_decisions {max_decisions}",
                  decisions + 1 >= max_decisions, t)
        if not vec.action_mask.any(1).all():
            _fail(vec, "a live game with no legal action", ~vec.action_mask.any(1), t)
        if ((vec.current_seat < 0) | (vec.current_seat >= vec.num_players)).any():
            _fail(vec, "current_seat is not a seat", (vec.current_seat < 0) |
                  (vec.current_seat >= vec.num_players), t)
        for what, x in (("observation", vec.observation), ("state()", vec.state())):
            bad = ~np.isfinite(x) | (x < 0) | (x > OBSERVATION_HIGH)
            if bad.any():
                _fail(vec, f"{what} outside [0, {OBSERVATION_HIGH}]: "
                      f"{x[bad.any(1)][0][bad[bad.any(1)][0]][:5]}", bad.any(1), t)
        teams = vec.teams()
        if ((teams < 0) | (teams >= len(spec.teams))).any():
            _fail(vec, "teams() names no team", ((teams < 0) | (teams >= len(spec.teams))).any(1),
                  t)
        try:
            check_records(spec, records, vec.params)
        except ValueError as e:
            raise Violation(f"{spec.name} {vec.params}: step {t}: records left their declared "
                            f"ranges: {e}") from None
        if t % reload_every == 0:
            vec.set_records(records.copy())
        finished += int(ended.sum())
        truncations += int(truncated.sum())
    return {"games": finished, "agent_steps": steps, "truncations": truncations}


def copy_cost(game: str, num_envs: int = 4096, seconds: float = 10.0, **params) -> dict:
    """What ``VecEnv.step`` pays to return fresh arrays: the time of a step (which includes the
    copies) against the time of the copies alone, measured alternately in one process."""
    vec = envs.make_vec(game, num_envs, seed=0, **params)
    policy = RandomPolicy(0)
    for _ in range(5):  # the first steps compile or load the kernels
        vec.step(policy.act(vec.observation, vec.action_mask))
    actions = [policy.act(vec.observation, vec.action_mask)]
    step_time = copy_time = 0.0
    steps = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        vec.step(actions[0])
        t1 = time.perf_counter()
        vec.rewards.copy(), vec.terminated.copy(), vec.truncated.copy()
        t2 = time.perf_counter()
        step_time += t1 - t0
        copy_time += t2 - t1
        steps += 1
        actions[0] = policy.act(vec.observation, vec.action_mask)
    return {
        "game": game, "num_envs": num_envs, "steps": steps,
        "step_us": 1e6 * step_time / steps, "copy_us": 1e6 * copy_time / steps,
        "copy_share": copy_time / step_time,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.soak", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=list(envs.registry))
    parser.add_argument("--games", type=int, default=100_000,
                        help="finished games in all, split over the table sizes (default 100000)")
    parser.add_argument("--players", type=int, action="append",
                        help="table size (repeatable; default: every size the game allows)")
    parser.add_argument("--envs", type=int, default=256, help="games in flight (default 256)")
    parser.add_argument("--seed", type=int, default=0, help="default 0")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a game parameter (repeatable)")
    parser.add_argument("--copy-cost", action="store_true",
                        help="instead: measure what returning fresh arrays costs a step at "
                        "--envs games (use --envs 4096)")
    args = parser.parse_args(argv)
    if args.copy_cost:
        r = copy_cost(args.game, args.envs)
        print(f"{r['game']} B={r['num_envs']}: step {r['step_us']:.0f} us, of which copying "
              f"the returned arrays {r['copy_us']:.1f} us ({r['copy_share']:.2%}; {r['steps']} "
              f"steps)")
        return 0
    if args.games < 1 or args.envs < 1 or args.seed < 0:
        parser.error("--games and --envs must be positive, --seed non-negative")
    spec = envs.registry[args.game]
    params = {}
    for pair in args.param:
        key, sep, value = pair.partition("=")
        if not sep or not value.lstrip("-").isdigit():
            parser.error(f"--param expects NAME=INTEGER, got {pair!r}")
        params[key] = int(value)
    sizes = args.players or list(range(spec.min_players, spec.max_players + 1))
    total = {"games": 0, "agent_steps": 0, "truncations": 0}
    start = time.perf_counter()
    for k, n in enumerate(sizes):
        share = args.games // len(sizes) + (k < args.games % len(sizes))
        t0 = time.perf_counter()
        try:
            counts = soak_one(args.game, share, args.envs, args.seed + k, num_players=n, **params)
        except Violation as v:
            print(f"VIOLATION: {v}", flush=True)
            return 1
        for key in total:
            total[key] += counts[key]
        print(f"{args.game} {n} players {params or ''}: {counts['games']:,} games, "
              f"{counts['agent_steps']:,} agent-steps, {counts['truncations']:,} truncated, "
              f"0 violations ({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"{args.game} total: {total['games']:,} games, {total['agent_steps']:,} agent-steps, "
          f"{total['truncations']:,} truncated, 0 violations "
          f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
