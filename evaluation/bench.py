"""Engine speed: agent-steps/s of the batched engine and of the AEC env, in one run.

An agent-step is one decision of one seat, with the next observation and legal-action mask
written. Both paths are driven by uniform random legal actions; the batched path samples them
with a compiled sampler so that the figure is the engine's, not Python's.
"""

from __future__ import annotations

import random
import time

import numpy as np

import envs
from agents.policy import RandomPolicy
from envs.core.aec import RawEnv
from envs.core.registry import game as game_def


def batched_steps_per_s(name: str, num_envs: int, seconds: float, seed: int = 0, **params) -> float:
    vec = envs.make_vec(name, num_envs, seed=seed, **params)
    policy = RandomPolicy(seed)
    for _ in range(3):  # compile and warm caches outside the clock
        vec.step(policy.act(vec.observation, vec.action_mask))
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(10):
            vec.step(policy.act(vec.observation, vec.action_mask))
        steps += 10 * num_envs
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def aec_steps_per_s(name: str, seconds: float, seed: int = 0, **params) -> float:
    """The plain PettingZoo loop a user writes: ``agent_iter``, ``last``, ``step``."""
    env = RawEnv(game_def(name), **params)
    pick = random.Random(seed).choice
    env.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else pick(np.flatnonzero(obs["action_mask"]))
            env.step(action)
            steps += 1
        env.reset()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def run_bench(name: str, batch_sizes=(1, 256, 4096), seconds: float = 2.0, **params) -> dict:
    batched = {str(b): batched_steps_per_s(name, b, seconds, **params) for b in batch_sizes}
    aec = aec_steps_per_s(name, seconds, **params)
    largest = str(max(batch_sizes))
    return {
        "game": name,
        "params": envs.registry[name].resolve(**params),
        "batched_steps_per_s": batched,
        "aec_steps_per_s": aec,
        "ratio": batched[largest] / aec,
        "ratio_batch_size": int(largest),
    }


def format_bench(result: dict) -> str:
    lines = [f"{result['game']} {result['params']}", "  batched engine, random legal actions:"]
    for b, rate in result["batched_steps_per_s"].items():
        lines.append(f"    B={b:>5}: {rate:>12,.0f} agent-steps/s")
    lines.append(f"  AEC env loop:  {result['aec_steps_per_s']:>12,.0f} agent-steps/s")
    lines.append(f"  ratio (B={result['ratio_batch_size']} / AEC): {result['ratio']:.0f}x")
    return "\n".join(lines)
