"""The immediate vote chain: an Among Us crew that votes at once, in turn, for the next seat
not yet revealed.

An outside audit (``shared/audits/amongus-rules.md``) beat every impostor with it while the
impostor could sabotage only at its own decisions: the player before the impostor names it
before it learns a colour, and an impostor that moves first exposes itself by not voting. The
sabotage windows of version 2 are the answer, and this crew stays as a reference opponent that
the harness keeps scoring against.

Each crewmate, at its first end of turn, votes for a seat that took its turn this round and did
not vote (a crewmate would have: only the impostor cannot), or else for the nearest seat
clockwise that may still be the impostor. It never trades or clears, and shows and replies as
the heuristic crew does. Seated as the impostor it plays the heuristic impostor: the chain is a
crew strategy.
"""

from __future__ import annotations

import numpy as np

from envs.amongus import actions as A
from envs.amongus.observe import (
    FIRST_PLAYER,
    IMPOSTOR_COLOUR,
    IS_IMPOSTOR,
    KNOWN_COLOUR,
    NOT_IMPOSTOR,
    PHASE,
    REVEALED,
)
from envs.amongus.rules import END_OF_TURN, SABOTAGE_WINDOW, TRADE
from envs.amongus.spec import NUM_PHASES
from envs.core.jit import kernel, njit

from .amongus_heuristic import _known_colour
from .amongus_heuristic import decide as heuristic_decide
from .policy import ScriptedPolicy


@kernel
def _suspects(known, revealed, not_impostor, imp, n, out):
    """Seats that may still be the impostor (everything public or private rules out the rest)."""
    for r in range(1, n):
        c = _known_colour(known, r, n)
        out[r] = not (revealed[r] > 0.5 or not_impostor[r] > 0.5 or (c >= 0 and c != imp))


@kernel
def chain_target(obs, off, n):
    """The seat (relative, 1..n-1) this crewmate names at the end of its turn; -1 if none."""
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    known = obs[off[KNOWN_COLOUR] : off[KNOWN_COLOUR] + n * n]
    revealed = obs[off[REVEALED] : off[REVEALED] + n]
    not_impostor = obs[off[NOT_IMPOSTOR] : off[NOT_IMPOSTOR] + n]
    suspects = np.zeros(n, np.bool_)
    _suspects(known, revealed, not_impostor, imp, n, suspects)
    first = np.argmax(obs[off[FIRST_PLAYER] : off[FIRST_PLAYER] + n])
    if first > 0:  # seats first .. n-1 took their turns before this one, this round
        for r in range(first, n):
            if suspects[r]:
                return r
    for r in range(1, n):
        if suspects[r]:
            return r
    return -1


@kernel
def decide(obs, mask, off, n):
    if obs[off[IS_IMPOSTOR]] > 0.5:
        return heuristic_decide(obs, mask, off, n)
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    if phase == TRADE:
        return A.NO_TRADE
    if phase == END_OF_TURN:
        target = chain_target(obs, off, n)
        if target > 0 and mask[A.VOTE + target - 1]:
            return A.VOTE + target - 1
        return A.PASS
    if phase == SABOTAGE_WINDOW:
        return A.NO_SABOTAGE
    return heuristic_decide(obs, mask, off, n)


@njit
def _decide_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide(obs[b], mask[b], off, n)


class AmongUsChain(ScriptedPolicy):
    """The immediate vote chain on the crew side, the heuristic impostor on the other."""

    name = "chain"
    game = "amongus"
    decide_batch = _decide_batch
    strategy_for = ("crew",)
