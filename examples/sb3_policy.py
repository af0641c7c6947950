"""An SB3 MaskablePPO policy entering hiddendeck's evaluation through ``py:``.

Trains an Among Us crew briefly with SB3 (``training.sb3`` over the batched engine, against the
fixed impostor of ``examples.setting``), saves it, and then enters it as
``sb3@py:examples.sb3_policy:SB3Crew`` in ``eval`` (its gain over a random crew on held-out
deals, ``examples.setting.judge``), ``benchmark`` (the reference population, impostors it never
met among them) and ``tournament`` (batch ratings). The same text works on the command line
from the repository root:

    python -m examples.sb3_policy --steps 20000
    SB3_CREW_MODEL=runs/sb3/crew.zip hiddendeck benchmark amongus --team crew \\
        --policy sb3@py:examples.sb3_policy:SB3Crew --players 5

Any object with ``act(observation, action_mask)`` enters the same way; ``teams`` says which
side it plays (``agents/outside.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import envs
from examples import setting
from training.sb3 import make_sb3_vec_env

ENTRANT = "sb3@py:examples.sb3_policy:SB3Crew"


class SB3Crew(setting.Saved):
    """The saved MaskablePPO crew, acting on hiddendeck's batched rows (greedy)."""

    variable, default = "SB3_CREW_MODEL", "runs/sb3/crew.zip"

    def __init__(self):
        from sb3_contrib import MaskablePPO

        path = self.existing("SB3 model")
        self.model = MaskablePPO.load(path, device="cpu")

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        actions, _ = self.model.predict(observation, action_masks=action_mask,
                                        deterministic=True)
        return np.asarray(actions, dtype=np.int64)


def train(steps: int, seed: int = 0) -> Path:
    """A crew trained by SB3 against the setting's impostor, saved at ``SB3Crew.path()``."""
    from sb3_contrib import MaskablePPO

    params = envs.registry[setting.GAME].resolve(num_players=setting.PLAYERS)
    vec = make_sb3_vec_env(setting.GAME, setting.TEAM, setting.opponent(params, seed=seed),
                           n_envs=2, seed=seed, num_players=setting.PLAYERS)
    model = MaskablePPO("MlpPolicy", vec, learning_rate=1e-3, n_steps=min(128, steps),
                        batch_size=64, seed=seed, verbose=0, device="cpu")
    model.learn(total_timesteps=steps)
    path = SB3Crew.path()
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    return path


def main(steps: int = 20_000, games: int = 2000, seed: int = 0) -> dict:
    """Train, then enter the policy in eval, benchmark and tournament; returns their results
    (``gain``: ``examples.setting.judge``'s)."""
    from evaluation.benchmark import benchmark
    from evaluation.tournament import run_tournament

    print(f"trained {train(steps, seed)}")
    gain = setting.judge(ENTRANT, games)
    players = setting.PLAYERS
    bench = benchmark(setting.GAME, setting.TEAM, ENTRANT, games=games, workers=1,
                      num_players=players)
    print(f"benchmark: mean {bench['mean']['rate']:.3f}, worst {bench['worst']['name']} "
          f"{bench['worst']['rate']:.3f} (the heuristic: {bench['reference']['mean']['rate']:.3f})")
    table = run_tournament(setting.GAME, [ENTRANT, "heuristic", "random"], games,
                           db=SB3Crew.path().with_suffix(".sqlite"), workers=1,
                           num_players=players)
    print(table.format())
    return {"gain": gain, "benchmark": bench, "tournament": table}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
