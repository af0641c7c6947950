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

Its exploit, ``ChainExploit``, is the impostor a script can write against it: the chain names
seats in seating order, so the impostor knows which of its decisions is its last before it is
named, and sabotages there, with every colour the chain's votes have turned up by then. A
reference is only worth scoring against if such a script cannot crush it; the exploit also
marks how far above the heuristic impostor any impostor can be expected to get against the
chain without reading its script (``training.report`` plays it beside the chain's rows).
"""

from __future__ import annotations

import numpy as np

from envs.amongus import actions as A
from envs.amongus.pieces import (
    FIRST_PLAYER,
    IMPOSTOR_COLOUR,
    IS_IMPOSTOR,
    KNOWN_COLOUR,
    NOT_IMPOSTOR,
    PHASE,
    REVEALED,
    TURN_OWNER,
    VOTED,
)
from envs.amongus.rules import END_OF_TURN, INVESTIGATION, SABOTAGE_WINDOW, TRADE
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
    teams = ("crew",)  # a crew strategy: entered on the crew side only
    game = "amongus"
    decide_batch = _decide_batch
    strategy_for = ("crew",)
    exploit = "agents.amongus_chain:ChainExploit"


@kernel
def last_chance(obs, off, n):
    """Whether the chain names this impostor before its next decision. In the chain's first
    round every vote turns the next seat face up, so the seat before the impostor (relative
    ``n - 1``) names it on its turn, and nothing in between asks the impostor anything (the
    chain never trades). That turn comes next after the impostor's show when that seat opens
    the round, after the impostor's own end of turn when the impostor opens it, and after the
    window of the vote just before it (the turn owner is relative ``n - 2``)."""
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    first = np.argmax(obs[off[FIRST_PLAYER] : off[FIRST_PLAYER] + n])
    owner = np.argmax(obs[off[TURN_OWNER] : off[TURN_OWNER] + n])
    if phase == INVESTIGATION:
        return first == n - 1 and obs[off[VOTED] + n - 1] < 0.5
    if phase == END_OF_TURN:
        return first == 0 and owner == 0 and obs[off[VOTED] + 1] < 0.5
    if phase == SABOTAGE_WINDOW:
        return owner == n - 2 and obs[off[VOTED] + n - 1] < 0.5
    return False


@kernel
def decide_exploit(obs, mask, off, n):
    if obs[off[IS_IMPOSTOR]] > 0.5 and mask[A.SABOTAGE] and last_chance(obs, off, n):
        return A.SABOTAGE
    return heuristic_decide(obs, mask, off, n)


@njit
def _decide_exploit_batch(obs, mask, off, n, out):
    # Each player's own loop, as in every scripted player: a loop given its decide as an
    # argument is not cached on disk by numba, and would recompile in every process.
    for b in range(obs.shape[0]):
        out[b] = decide_exploit(obs[b], mask[b], off, n)


class ChainExploit(ScriptedPolicy):
    """The heuristic impostor that sabotages at its last decision before the chain names it; the
    heuristic crew on the other side."""

    name = "chain-exploit"
    game = "amongus"
    decide_batch = _decide_exploit_batch
    strategy_for = ("impostor",)
