"""Engine speed: agent-steps/s of the batched engine and of the AEC env, in one run.

An agent-step is one decision of one seat, with the next observation and legal-action mask
written. Every path is driven by uniform random legal actions picked as cheaply as the path
allows, so that the figures are the environments' own: the batched engine with a compiled
sampler; the AEC env in the loop a PettingZoo user writes (``env()`` with PettingZoo's standard
wrappers, ``agent_iter``, ``last``, ``step``) with ``random.choice`` over the mask. Beside it:
the bare ``raw_env()``, and the same loop sampling with ``action_space(agent).sample(mask)`` as
PettingZoo's own tests do, which costs more than the env itself.
"""

from __future__ import annotations

import os
import random
import time

import numba
import numpy as np

import envs
from agents.policy import RandomPolicy
from envs.core.aec import RawEnv, make_env
from envs.core.registry import game as game_def


class Batched:
    """The batched engine at one batch size, stepped a slice of time at a time."""

    def __init__(self, name: str, num_envs: int, seed: int = 0, **params):
        self.vec = envs.make_vec(name, num_envs, seed=seed, **params)
        self.policy = RandomPolicy(seed)
        self.steps, self.wall, self.cpu = 0, 0.0, 0.0
        for _ in range(3):  # compile and warm caches outside the clock
            self.vec.step(self.policy.act(self.vec.observation, self.vec.action_mask))

    def run(self, seconds: float) -> None:
        vec, policy = self.vec, self.policy
        start, cpu_start = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                vec.step(policy.act(vec.observation, vec.action_mask))
            self.steps += 10 * vec.num_envs
        self.wall += time.perf_counter() - start
        self.cpu += time.process_time() - cpu_start

    def rates(self) -> tuple[float, float]:
        """Agent-steps per second of wall time, and per second of this process's CPU time (all
        its threads): the second moves far less than the first with the other processes' load
        (a thread that waits its turn spends no CPU time), though shared caches still slow it.
        TBB's workers spin a moment before they sleep, and that counts as CPU time too."""
        return self.steps / self.wall, self.steps / max(self.cpu, 1e-9)


class AEC:
    """The PettingZoo AEC loop over ``env()`` (or the bare ``raw_env()`` with ``raw``), whole
    games a slice of time at a time."""

    def __init__(self, name: str, seed: int = 0, raw: bool = False, space_sample: bool = False,
                 **params):
        env = RawEnv(game_def(name), **params) if raw else make_env(game_def(name), **params)
        choice = random.Random(seed).choice
        if space_sample:
            self.pick = lambda agent, mask: env.action_space(agent).sample(mask)
        else:
            self.pick = lambda agent, mask: choice(np.flatnonzero(mask))
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed + i)
        env.reset(seed=seed)
        self.env, self.steps, self.wall = env, 0, 0.0
        self.play_one_game()  # compile and warm up outside the clock
        self.steps = 0

    def play_one_game(self) -> None:
        env, pick = self.env, self.pick
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else pick(agent, obs["action_mask"]))
            self.steps += 1
        env.reset()

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.play_one_game()
        self.wall += time.perf_counter() - start

    def rate(self) -> float:
        return self.steps / self.wall


SLICES = 8


def run_bench(
    name: str, batch_sizes=(1, 256, 4096), seconds: float = 2.0, repeat: int = 1, **params
) -> dict:
    """Every figure of one run. Each path runs ``seconds`` in all, in ``SLICES`` slices taken in
    turn with the other paths', so that every figure, and so the ratio, sees the same moments of
    a machine whose speed drifts (here the same command moved 2x within a minute).

    The load average is reported beside them: the batched engine's threads wait for one another
    at every step, so on a shared machine the other processes move its figures far more than
    the single-threaded AEC loop's. With ``repeat`` > 1 the whole set is measured that many
    times and each figure (the ratio too, taken within each repeat) is the median of its
    repeats."""
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive integer, got {repeat!r}")
    load_before = os.getloadavg()[0]
    largest = str(max(batch_sizes))
    runs = []
    for _ in range(repeat):
        batched = {str(b): Batched(name, b, **params) for b in batch_sizes}
        aec = {
            "aec_steps_per_s": AEC(name, **params),
            "aec_raw_steps_per_s": AEC(name, raw=True, **params),
            "aec_space_sample_steps_per_s": AEC(name, space_sample=True, **params),
        }
        for _ in range(SLICES):
            for path in (*batched.values(), *aec.values()):
                path.run(seconds / SLICES)
        run = {
            "batched_steps_per_s": {b: path.rates()[0] for b, path in batched.items()},
            "batched_steps_per_cpu_s": {b: path.rates()[1] for b, path in batched.items()},
            **{key: path.rate() for key, path in aec.items()},
        }
        run["ratio"] = run["batched_steps_per_s"][largest] / run["aec_steps_per_s"]
        runs.append(run)

    def median(key, b=None):
        return float(np.median([r[key] if b is None else r[key][b] for r in runs]))

    result = {"game": name, "params": envs.registry[name].resolve(**params)}
    for key in ("batched_steps_per_s", "batched_steps_per_cpu_s"):
        result[key] = {str(b): median(key, str(b)) for b in batch_sizes}
    for key in ("aec_steps_per_s", "aec_raw_steps_per_s", "aec_space_sample_steps_per_s",
                "ratio"):
        result[key] = median(key)
    result.update(
        ratio_batch_size=int(largest),
        repeat=repeat,
        load_average=[load_before, os.getloadavg()[0]],
        cpus=os.cpu_count(),
        threads=numba.get_num_threads(),
        threading_layer=_threading_layer(),
    )
    if repeat > 1:
        result["runs"] = runs
    return result


def _threading_layer() -> str:
    """The pool the parallel batch loops ran on ("none" if no batch was large enough)."""
    try:
        return numba.threading_layer()
    except ValueError:
        return "none"


def format_bench(result: dict) -> str:
    lines = [f"{result['game']} {result['params']}", "  batched engine, random legal actions:"]
    for b, rate in result["batched_steps_per_s"].items():
        per_cpu = result["batched_steps_per_cpu_s"][b]
        lines.append(f"    B={b:>5}: {rate:>12,.0f} agent-steps/s ({per_cpu:,.0f} per CPU-second)")
    for key, what in (
        ("aec_steps_per_s", "AEC env():    "),
        ("aec_raw_steps_per_s", "raw_env():    "),
        ("aec_space_sample_steps_per_s", "env(), space.sample(mask):"),
    ):
        lines.append(f"  {what} {result[key]:>12,.0f} agent-steps/s")
    lines.append(f"  ratio (B={result['ratio_batch_size']} / AEC): {result['ratio']:.0f}x")
    if result["repeat"] > 1:
        ratios = ", ".join(f"{r['ratio']:.0f}x" for r in result["runs"])
        lines.append(f"  medians of {result['repeat']} repeats (ratios {ratios})")
    before, after = result["load_average"]
    lines.append(
        f"  {result['threads']} threads ({result['threading_layer']}); load average {before:.1f}"
        f" before, {after:.1f} after, on {result['cpus']} CPUs"
    )
    if before > 0.5 or after > result["cpus"]:
        lines.append(
            "  other processes were busy: the batched figures are low (compare the per "
            "CPU-second ones); rerun on an idle machine, or with --repeat"
        )
    return "\n".join(lines)
