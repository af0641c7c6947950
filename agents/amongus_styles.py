"""Scripted styles of Among Us that a reference population holds (``agents.populations``).

- ``passive``: a crew that never acts: no trade, no vote, no clear; at an investigation it
  shows the first card it may. An outside audit found it forces a draw in every game against
  the heuristic impostor (it waits out the round limit), so a crew that only ever wins or
  loses is measured against a side that refuses to play.
"""

from __future__ import annotations

import numpy as np

from envs.amongus import actions as A

from .policy import Policy

# The passive choices, in order of preference: whichever of these the decision allows.
PASSIVE = np.array([A.PASS, A.NO_TRADE, A.NO_SABOTAGE], np.int64)


class AmongUsPassive(Policy):
    """Never trades, votes, clears or sabotages; otherwise the first legal action."""

    name = "passive"
    teams = ("crew",)

    def __init__(self, spec=None, params=None):
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        mask = np.asarray(action_mask, bool)
        out = mask.argmax(axis=1).astype(np.int64)
        for action in PASSIVE[::-1]:  # the most preferred last, so it wins
            out[mask[:, action]] = action
        return out

