"""What the reliability tests share: running a script in a fresh interpreter (so that a crash
fails a test instead of killing pytest) and a small checkpoint to corrupt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
SLOW = os.environ.get("HIDDENDECK_SLOW") == "1"


def run_python(code_or_args, timeout: float = 300, env: dict | None = None, stdin=None):
    """``python -c code`` (a str) or ``python args...`` (a list) from the repository root."""
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else list(code_or_args)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, stdin=stdin,
    )


def make_checkpoint(path: Path, game: str = "amongus", team: str = "crew", **params) -> Path:
    """An untrained policy checkpoint, saved the way the trainer saves one."""
    from agents.checkpoint import game_metadata, save_policy
    from agents.neural import ActorCritic
    from envs import make_vec

    vec = make_vec(game, 1, **params)
    config = dict(kind="mlp", observation_size=vec.observation_size,
                  num_actions=vec.num_actions, critic_input_size=vec.observation_size,
                  hidden=[16])
    torch.manual_seed(0)
    model = ActorCritic(config)
    metadata = {**game_metadata(game, params), "team": team, "steps": 0, "seed": 0,
                "model": config}
    return save_policy(path, metadata, model.state_dict())
