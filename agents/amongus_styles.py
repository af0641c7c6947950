"""Scripted styles of Among Us that a reference population holds (``agents.populations``).

- ``flash``: the heuristic impostor that, whenever it must show a card, shows one of the
  impostor's colour if it holds one. The audit's impostor script: it broke the counting crew
  (the heuristic crew fell from 0.807 to 0.181 at 6 players), whose counts assume a seat rarely
  shows that colour.
- ``liar``: the chain crew that shows its own colour whenever it may, the audit's crew script
  against the counting impostor (0.401 to 0.088).

- ``passive``: a crew that never acts: no trade, no vote, no clear; at an investigation it
  shows the first card it may. An outside audit found it forces a draw in every game against
  the heuristic impostor (it waits out the round limit), so a crew that only ever wins or
  loses is measured against a side that refuses to play.
"""

from __future__ import annotations

import numpy as np

from envs.amongus import actions as A
from envs.amongus.observe import IMPOSTOR_COLOUR, OWN_COLOUR

from .amongus_chain import AmongUsChain
from .amongus_heuristic import AmongUsHeuristic
from .policy import Policy


def show_colour(actions: np.ndarray, observation: np.ndarray, mask: np.ndarray, start: int,
                n: int) -> np.ndarray:
    """Where a row may show the card of the colour one-hot at ``observation[start:start+n]``,
    that show; elsewhere the action given."""
    colour = observation[:, start:start + n].argmax(axis=1)
    rows = np.arange(len(actions))
    shows = mask[rows, A.SHOW + colour] & (observation[rows, start + colour] > 0.5)
    return np.where(shows, A.SHOW + colour, actions).astype(np.int64)

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



class AmongUsFlash(AmongUsHeuristic):
    """The heuristic impostor, showing the impostor's colour whenever it may."""

    name = "flash"
    teams = ("impostor",)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        return show_colour(super().act(observation, action_mask), observation,
                           np.asarray(action_mask, bool), self._off[IMPOSTOR_COLOUR], self._n)


class AmongUsLiar(AmongUsChain):
    """The chain crew, showing its own colour whenever it may."""

    name = "liar"
    teams = ("crew",)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        return show_colour(super().act(observation, action_mask), observation,
                           np.asarray(action_mask, bool), self._off[OWN_COLOUR], self._n)
