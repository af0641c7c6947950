"""Golden playthroughs: a seeded game written out with every seat's view at every decision.

Reviewing a diff of such a file is how an information leak or a rule change gets noticed
(OpenSpiel keeps the same kind of file). Only non-zero observation entries are written.
"""

from __future__ import annotations

import numpy as np

import envs
from agents.policy import Policy, RandomPolicy


def _view(layout, vector: np.ndarray) -> str:
    parts = []
    for name, piece in layout.split(vector).items():
        nz = np.argwhere(piece != 0)
        if len(nz):
            cells = " ".join(
                f"{','.join(map(str, idx)) if len(idx) else ''}={piece[tuple(idx)]:.3g}" for idx in nz
            )
            parts.append(f"{name}[{cells}]")
    return " ".join(parts)


def playthrough(
    game: str, seed: int = 0, policy: Policy | None = None, max_decisions: int = 2000, **params
) -> str:
    """One game from deal to end, every seat's view at each decision; random play by default."""
    vec = envs.make_vec(game, 1, seed=seed, **params)
    policy = policy or RandomPolicy(seed)
    n = vec.num_players
    lines = [f"# {game} v{vec.spec.version} {vec.params} seed={seed} policy={policy!r}", ""]
    for step in range(max_decisions):
        lines.append(f"## decision {step}")
        lines.append(vec.render(0))
        for seat in range(n):
            lines.append(f"  view of player_{seat}: {_view(vec.observation_layout, vec.observe(seat)[0])}")
        action = policy.act(vec.observation, vec.action_mask)
        lines.append(
            f"  player_{int(vec.current_seat[0])} legal: {vec.legal_action_names(0)}"
        )
        lines.append(f"  player_{int(vec.current_seat[0])} plays: {vec.spec.action_names[action[0]]}")
        rewards, terminated, truncated = vec.step(action)
        if terminated[0] or truncated[0]:
            outcome = "truncated" if truncated[0] else f"won by {vec.spec.teams[vec.winner[0]]}"
            lines.append(f"## game over: {outcome}; rewards {rewards[0].tolist()}")
            break
    return "\n".join(lines) + "\n"
