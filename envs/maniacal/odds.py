"""What a face-down contract is worth to a seat that sees only its back.

The back shows difficulty, team size and recommended trait; the front (Target and results) is
one of the printed cards with that back. A seat can average those fronts against the dice it
would roll: the chance of success and the expected Infamy, money and Captured. The heuristic
values contracts this way, and observation version 1 hands the averages to every seat, since a
flat network cannot easily look a card table up by a back it reads as three one-hots.
"""

import numpy as np

from . import cards as c
from .spec import DIE_FACES
from .tables import CONTRACT_DIFFICULTY, CONTRACT_RESULT, CONTRACT_TARGET, CONTRACT_TEAM, CONTRACT_TRAIT

MAX_DICE, MAX_TARGET = 96, 48
N_BACKS = 3 * 16  # difficulty x team size x trait


# one die's chance of each face: blank, one success, two successes (R2)
FACE = np.bincount(np.array(DIE_FACES), minlength=3) / len(DIE_FACES)


def success_table(face: np.ndarray = FACE) -> np.ndarray:
    """``[d, t]``: the chance that d dice roll at least t successes, each die landing on the
    faces with chances ``face`` (R2's die by default)."""
    out = np.zeros((MAX_DICE + 1, MAX_TARGET + 1))
    dist = np.array([1.0])
    for d in range(MAX_DICE + 1):
        tail = np.cumsum(dist[::-1])[::-1]  # tail[t] = P(sum >= t)
        m = min(len(tail), MAX_TARGET + 1)
        out[d, :m] = tail[:m]
        dist = np.convolve(dist, face)
    out[:, 0] = 1.0
    return out


P_SUCCESS = success_table()

BACK = CONTRACT_DIFFICULTY * 16 + (CONTRACT_TEAM - 1) * 4 + CONTRACT_TRAIT


def _back_odds() -> np.ndarray:
    """``[back, d, 4]``: chance of success, expected Infamy, expected money and chance of being
    Captured, over every printed front with that back, for d dice."""
    out = np.zeros((N_BACKS, MAX_DICE + 1, 4))
    for back in range(N_BACKS):
        cards = np.flatnonzero(BACK == back)
        if not cards.size:
            continue
        p = P_SUCCESS[:, np.minimum(CONTRACT_TARGET[cards], MAX_TARGET)]  # [d, cards]
        win, lose = CONTRACT_RESULT[cards, 0], CONTRACT_RESULT[cards, 1]
        captured = (lose[:, 2] & c.CAPTURED) > 0
        out[back, :, 0] = p.mean(1)
        out[back, :, 1] = (p * win[:, 0] + (1 - p) * lose[:, 0]).mean(1)
        out[back, :, 2] = (p * win[:, 1] + (1 - p) * lose[:, 1]).mean(1)
        out[back, :, 3] = ((1 - p) * captured).mean(1)
    return out


BACK_ODDS = _back_odds()
