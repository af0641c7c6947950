"""Train Among Us crew with sb3-contrib's MaskablePPO against random impostors, then evaluate.

    python -m training.sb3_example --steps 20000

The environment is ``training.sb3.TeamEnv``; nothing in MaskablePPO is changed or subclassed.
"""

from __future__ import annotations

import argparse

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy

from agents.policy import RandomPolicy
from training.sb3 import make_sb3_vec_env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.sb3_example")
    parser.add_argument("--game", default="amongus")
    parser.add_argument("--team", default="crew")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    ns = parser.parse_args(argv)

    opponents = RandomPolicy(seed=ns.seed)
    env = make_sb3_vec_env(ns.game, ns.team, opponents, n_envs=4, seed=ns.seed,
                           num_players=ns.players)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, seed=ns.seed, verbose=0)
    before, _ = evaluate_policy(model, env, n_eval_episodes=200, warn=False)
    model.learn(total_timesteps=ns.steps)
    after, _ = evaluate_policy(model, env, n_eval_episodes=200, warn=False)
    print(f"{ns.team} mean reward vs random opponents: {before:+.3f} before, {after:+.3f} after "
          f"{ns.steps} steps of MaskablePPO")


if __name__ == "__main__":
    main()
