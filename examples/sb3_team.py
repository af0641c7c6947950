"""SB3 MaskablePPO through ``training.sb3``: each role in turn learns against the scripted bots
of the other, over the batched engine (much faster than the AEC route, ``examples.sb3_aec``).

    python -m examples.sb3_team --steps 20000
"""

from __future__ import annotations

import argparse

import numpy as np

import envs
from agents import make_policy
from training.sb3 import make_sb3_vec_env


def main(steps: int = 20_000, seed: int = 0, players: int = 5) -> dict[str, float]:
    """Train one policy per role; returns each role's mean reward over its last games."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    spec = envs.registry["amongus"]
    params = spec.resolve(num_players=players)
    scores = {}
    for role in spec.teams:
        bots = make_policy("heuristic", spec, params, seed)
        vec = VecMonitor(make_sb3_vec_env("amongus", role, bots, n_envs=2, seed=seed,
                                          num_players=players))  # VecMonitor: game returns
        model = MaskablePPO("MlpPolicy", vec, n_steps=min(128, steps), batch_size=64,
                            seed=seed, verbose=0)
        model.learn(total_timesteps=steps)
        scores[role] = float(np.mean([info["r"] for info in model.ep_info_buffer]))
        print(f"{role}: mean reward {scores[role]:+.3f} over its last games")
    return scores


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
