"""Scripted styles of The Menace Among Us that a reference population holds (``agents.populations``).

Each is a few-line variation a careful player would try, named for what it does and entered on
the side it was written for (``teams``):

- ``reserve7``: the heuristic Crew, repairing only with 7 Oxygen to spare beyond the worst case
  of a round (the heuristic keeps 2-6 by table size). An outside audit's crew script: one
  changed constant beat the heuristic Menace in more than 80% of games at 6 players.
"""

from __future__ import annotations

from envs.core.jit import njit

from .menace_heuristic import decide_with
from .policy import ScriptedPolicy

LARGE_RESERVE = 7  # Oxygen kept beyond the worst case of a round


@njit
def _reserve_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_with(obs[b], mask[b], off, n, LARGE_RESERVE)


class MenaceLargeReserve(ScriptedPolicy):
    """The heuristic Crew with a 7-Oxygen reserve; on the Menace's side, the heuristic."""

    name = "reserve7"
    teams = ("crew",)
    game = "menace"
    decide_batch = _reserve_batch
    strategy_for = ("crew",)

