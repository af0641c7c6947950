"""An SB3 MaskablePPO policy entering hiddendeck's evaluation through ``py:``.

Trains an Among Us crew briefly with SB3 (``training.sb3`` over the batched engine, against the
heuristic impostor), saves it, and then enters it as ``sb3@py:examples.sb3_policy:SB3Crew`` in
``eval`` (a cross-play matrix), ``benchmark`` (the reference population) and ``tournament``
(batch ratings). The same text works on the command line from the repository root:

    python -m examples.sb3_policy --steps 20000
    SB3_CREW_MODEL=runs/sb3/crew.zip hiddendeck benchmark amongus --team crew \\
        --policy sb3@py:examples.sb3_policy:SB3Crew --players 6

Any object with ``act(observation, action_mask)`` enters the same way; ``teams`` says which
side it plays (``agents/outside.py``).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

import envs
from agents import make_policy
from training.sb3 import make_sb3_vec_env

ENTRANT = "sb3@py:examples.sb3_policy:SB3Crew"


def model_path() -> Path:
    return Path(os.environ.get("SB3_CREW_MODEL", "runs/sb3/crew.zip"))


class SB3Crew:
    """The saved MaskablePPO crew, acting on hiddendeck's batched rows (greedy)."""

    teams = ("crew",)

    def __init__(self):
        from sb3_contrib import MaskablePPO

        path = model_path()
        if not path.is_file():
            raise ValueError(f"{path}: no SB3 model; run python -m examples.sb3_policy first "
                             f"or set SB3_CREW_MODEL")
        self.model = MaskablePPO.load(path, device="cpu")

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        actions, _ = self.model.predict(observation, action_masks=action_mask,
                                        deterministic=True)
        return np.asarray(actions, dtype=np.int64)


def train(steps: int, players: int = 6, seed: int = 0) -> Path:
    """A crew trained by SB3 against the heuristic impostor, saved at ``model_path()``."""
    from sb3_contrib import MaskablePPO

    spec = envs.registry["amongus"]
    impostor = make_policy("heuristic", spec, spec.resolve(num_players=players), seed)
    vec = make_sb3_vec_env("amongus", "crew", impostor, n_envs=2, seed=seed,
                           num_players=players)
    model = MaskablePPO("MlpPolicy", vec, n_steps=min(128, steps), batch_size=64, seed=seed,
                        verbose=0, device="cpu")
    model.learn(total_timesteps=steps)
    path = model_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    return path


def main(steps: int = 20_000, games: int = 200, players: int = 6, seed: int = 0) -> dict:
    """Train, then enter the policy in eval, benchmark and tournament; returns their results."""
    from evaluation.benchmark import benchmark
    from evaluation.crossplay import cross_play
    from evaluation.tournament import run_tournament

    print(f"trained {train(steps, players, seed)}")
    matrix = cross_play("amongus", {"crew": [ENTRANT, "heuristic"], "impostor": ["heuristic"]},
                        games, seed=1, workers=1, num_players=players)
    print(matrix.format_table())
    bench = benchmark("amongus", "crew", ENTRANT, games=games, workers=1, num_players=players)
    print(f"benchmark: mean {bench['mean']['rate']:.3f}, worst {bench['worst']['name']} "
          f"{bench['worst']['rate']:.3f} (the heuristic: {bench['reference']['mean']['rate']:.3f})")
    table = run_tournament("amongus", [ENTRANT, "heuristic", "random"], games,
                           db=model_path().with_suffix(".sqlite"), workers=1,
                           num_players=players)
    print(table.format())
    return {"matrix": matrix, "benchmark": bench, "tournament": table}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
