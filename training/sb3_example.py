"""Train an Among Us crew with sb3-contrib's MaskablePPO against a fixed impostor, then
evaluate.

    python -m training.sb3_example --steps 20000

The impostor is ``hider`` by default (population v1's impostor that never sabotages early; a
random crew wins 47% against it and the heuristic crew 87%, so learning has room to show,
unlike random impostors, against which a random crew already wins 998 games in 1,000). Any
policy text the evaluation commands take works: ``--opponent heuristic``, a ``.pt``. The
environment is ``training.sb3.TeamEnv``; nothing in MaskablePPO is changed or subclassed.
``examples/`` trains the same crew from four outside libraries and judges it on held-out deals.
"""

from __future__ import annotations

import argparse

import envs
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy

from evaluation.entrants import resolve
from training.sb3 import make_sb3_vec_env

HIDER = "hider@py:agents.amongus_styles:AmongUsHider"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.sb3_example")
    parser.add_argument("--game", default="amongus")
    parser.add_argument("--team", default="crew")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--opponent", default=None,
                        help="who plays the other team (default: hider in Among Us, else the "
                        "heuristic)")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    ns = parser.parse_args(argv)

    spec = envs.registry[ns.game]
    params = spec.resolve(num_players=ns.players)
    text = ns.opponent or (HIDER if ns.game == "amongus" else "heuristic")
    opponent = resolve(text, spec, params)
    opponents = opponent.build(spec, params, ns.seed)
    env = make_sb3_vec_env(ns.game, ns.team, opponents, n_envs=4, seed=ns.seed,
                           num_players=ns.players)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, seed=ns.seed, verbose=0)
    before, _ = evaluate_policy(model, env, n_eval_episodes=200, warn=False)
    model.learn(total_timesteps=ns.steps)
    after, _ = evaluate_policy(model, env, n_eval_episodes=200, warn=False)
    print(f"{ns.team} mean reward vs {opponent.label}: {before:+.3f} before, {after:+.3f} after "
          f"{ns.steps} steps of MaskablePPO")


if __name__ == "__main__":
    main()
