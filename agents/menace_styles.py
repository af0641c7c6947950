"""Scripted styles of The Menace Among Us that a reference population holds (``agents.populations``).

Each is a few-line variation a careful player would try, named for what it does and entered on
the side it was written for (``teams``):

- ``reserve7``: the heuristic Crew, repairing only with 7 Oxygen to spare beyond the worst case
  of a round (the heuristic keeps 2-6 by table size). An outside audit's crew script: one
  changed constant beat the heuristic Menace in more than 80% of games at 6 players.
- ``tell``: the vote-reading Crew. It calls a vote every round and abstains, so that a seat
  casting a ballot unlike its own (any ballot, where it abstained) stands out; from then on it
  votes out the seat that did so in most remembered votes, and abstains while none has. It
  reads only the public ballots of past rounds; everything else it plays as the heuristic
  Crew. With ``reserve7`` it held the audit's heuristic Menace below 18% at 4 and 6 players,
  because that Menace votes in every vote.

The Menace's scripts (drain, careful, saboteur, wounder) live in ``agents.menace_drain``.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import kernel, njit
from envs.menace import actions as A
from envs.menace import cards as c
from envs.menace import rules as R
from envs.menace.observe import DECISION, OWN_AGENDA, PAST_BALLOTS, PAST_ROUND
from envs.menace.spec import MIN_PLAYERS, N_DECISIONS

from .menace_heuristic import RESERVE, decide_with, on_menace_side
from .policy import ScriptedPolicy

LARGE_RESERVE = 7  # Oxygen kept beyond the worst case of a round


@njit
def _reserve_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_with(obs[b], mask[b], off, n, LARGE_RESERVE)


@kernel
def odd_ballots(obs, off, n, out):
    """For each seat (relative), the remembered past votes in which it cast a ballot for someone
    while the observer abstained."""
    out[:] = 0
    window = off[PAST_ROUND + 1] - off[PAST_ROUND]
    for k in range(window):
        if obs[off[PAST_ROUND] + k] < 0.5:
            break
        at = off[PAST_BALLOTS] + k * n * (n + 1)
        if obs[at + n] < 0.5:  # the observer's own row: it did not abstain (or no vote was held)
            continue
        for r in range(1, n):
            for t in range(n):
                if obs[at + r * (n + 1) + t] > 0.5:
                    out[r] += 1


@kernel
def tell_decide(obs, mask, off, n):
    """Calls every vote and votes out the seat with the most odd ballots, or abstains; the
    heuristic Crew otherwise (and on the Menace's side, the heuristic Menace)."""
    agenda = np.argmax(obs[off[OWN_AGENDA] : off[OWN_AGENDA] + c.N_AGENDAS])
    decision = np.argmax(obs[off[DECISION] : off[DECISION] + N_DECISIONS])
    if not on_menace_side(obs, off, agenda):
        if decision == R.CALL_VOTE and mask[A.YES]:
            return A.YES
        if decision == R.VOTE:
            odd = np.zeros(n, np.int64)
            odd_ballots(obs, off, n, odd)
            best, most = -1, 0
            for r in range(1, n):
                if odd[r] > most and mask[A.SEAT + r]:
                    best, most = A.SEAT + r, odd[r]
            if best >= 0:
                return best
            if mask[A.PASS]:
                return A.PASS
    return decide_with(obs, mask, off, n, RESERVE[n - MIN_PLAYERS])


@njit
def _tell_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = tell_decide(obs[b], mask[b], off, n)


class MenaceLargeReserve(ScriptedPolicy):
    """The heuristic Crew with a 7-Oxygen reserve; on the Menace's side, the heuristic."""

    name = "reserve7"
    teams = ("crew",)
    game = "menace"
    decide_batch = _reserve_batch
    strategy_for = ("crew",)


class MenaceTell(ScriptedPolicy):
    """The vote-reading Crew: calls every vote, abstains, then votes out whoever did not."""

    name = "tell"
    teams = ("crew",)
    game = "menace"
    decide_batch = _tell_batch
    strategy_for = ("crew",)
