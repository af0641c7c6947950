"""Scripted styles of MANIACAL that a reference population holds (``agents.populations``).

An outside audit beat the heuristic with few-line scripts; these are its two plans, each a
seat that plays for itself like every MANIACAL player:

- ``sellhire``: never builds. In every draft it sells the dearest room it may; in the Contract
  Phase it hires a Mercenary at Lucifer's Lounge while 5 or more weeks are left, else attempts
  the legal contract worth the most expected Infamy, else passes. Every other decision is the
  heuristic's. It works because the designed Mercenaries (5-6 dice, no hiring price) stand in
  for the whole room, Attraction and recruiting engine (the audit's 2.09 mean place at 4
  players, par 2.5).
- ``biggest``: the heuristic, except that on its turn it attempts the hardest legal contract
  (Legendary before Hard before Easy, then the most expected Infamy) whenever one is
  legal: the heuristic's contract choice is cautious (the audit's 2.24 at 4 players).

Population v3 adds the turn-4 audit's MA-1 (``shared/audits/turn4/amongus-maniacal.md``):

- ``hard_first``: the heuristic, except that on its turn, when a Hard or Legendary contract
  is legal, it attempts the hardest one (by difficulty, then team size); with only Easy ones
  legal it chooses as the heuristic does. It beat the version-2 heuristic because that one
  valued contracts without its Lackey's re-roll; the heuristic now counts it (issue 46), and
  a ``hard_first`` seat no longer places better than the heuristics beside it.
"""

from __future__ import annotations

from envs.core.jit import kernel, njit
from envs.maniacal import actions as A
from envs.maniacal import rules as R
from envs.maniacal.cards import HARD
from envs.maniacal.observe import (
    DECISION,
    MAP_DIFFICULTY,
    MAP_PRESENT,
    MAP_TEAM,
    ROUND,
    TIME_LEFT,
)
from envs.maniacal.tables import N_CONTINENTS, N_ROOM_KINDS, ROOM_COST

from .maniacal_heuristic import contract_worth, count, decide, one_hot, spare_room_dice
from .policy import ScriptedPolicy

SELL_HIRE, BIGGEST, HARD_FIRST = 0, 1, 2  # the styles
HIRE_WEEKS = 5  # weeks left at which the sell-and-hire seat still hires


@kernel
def best_contract(obs, mask, off, n, hardest):
    """The legal contract with the most expected Infamy (with ``hardest``, the most difficult
    first), or -1."""
    rnd = one_hot(obs, off[ROUND], 3) + 1
    extra = spare_room_dice(obs, off, n)
    best, best_value = -1, -1e9
    for k in range(N_CONTINENTS):
        if obs[off[MAP_PRESENT] + k] < 0.5 or not mask[A.CONTRACT + k]:
            continue
        worth, _ = contract_worth(obs, off, n, k, extra, rnd)
        value = worth
        if hardest:
            value += 100.0 * one_hot(obs, off[MAP_DIFFICULTY] + 3 * k, 3)
        if value > best_value:
            best, best_value = A.CONTRACT + k, value
    return best


@kernel
def hardest_contract(obs, mask, off):
    """The legal Hard or Legendary contract of the greatest difficulty, then team size; -1 if
    none is legal."""
    best, best_rank = -1, -1
    for k in range(N_CONTINENTS):
        if obs[off[MAP_PRESENT] + k] < 0.5 or not mask[A.CONTRACT + k]:
            continue
        difficulty = one_hot(obs, off[MAP_DIFFICULTY] + 3 * k, 3)
        team = one_hot(obs, off[MAP_TEAM] + 4 * k, 4)
        if difficulty >= HARD and 4 * difficulty + team > best_rank:
            best, best_rank = A.CONTRACT + k, 4 * difficulty + team
    return best


@kernel
def style_decide(obs, mask, off, n, style):
    decision = one_hot(obs, off[DECISION], R.FIRE + 1)
    if style == HARD_FIRST:
        choice = hardest_contract(obs, mask, off) if decision == R.TURN else -1
        return choice if choice >= 0 else decide(obs, mask, off, n)
    if style == SELL_HIRE and decision == R.DRAFT:
        best, dearest = -1, -1
        for k in range(N_ROOM_KINDS):
            if mask[A.SELL + k] and ROOM_COST[k] > dearest:
                best, dearest = A.SELL + k, ROOM_COST[k]
        if best >= 0:
            return best
    if decision == R.TURN:
        if style == SELL_HIRE:
            lounge = A.VISIT + A.LOUNGE
            if mask[lounge] and count(obs[off[TIME_LEFT]], 10.0) >= HIRE_WEEKS:
                return lounge
        choice = best_contract(obs, mask, off, n, style == BIGGEST)
        if choice >= 0:
            return choice
        if style == SELL_HIRE and mask[A.PASS]:
            return A.PASS
    return decide(obs, mask, off, n)


@njit
def _sell_hire_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = style_decide(obs[b], mask[b], off, n, SELL_HIRE)


@njit
def _biggest_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = style_decide(obs[b], mask[b], off, n, BIGGEST)


class ManiacalSellHire(ScriptedPolicy):
    """Sells every room, hires Mercenaries, takes the best contract: never builds."""

    name = "sellhire"
    game = "maniacal"
    decide_batch = _sell_hire_batch


class ManiacalBiggest(ScriptedPolicy):
    """The heuristic, attempting the hardest legal contract whenever it may."""

    name = "biggest"
    game = "maniacal"
    decide_batch = _biggest_batch


@njit
def _hard_first_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = style_decide(obs[b], mask[b], off, n, HARD_FIRST)


class ManiacalHardFirst(ScriptedPolicy):
    """Audit turn 4, MA-1, a player's style (every MANIACAL seat plays for itself): the
    heuristic, attempting the hardest legal Hard or Legendary contract whenever one is legal
    (``biggest`` also takes the hardest Easy one). One such seat against three heuristics
    placed 2.314 on average at 4 players (par 2.5)."""

    name = "hard_first"
    game = "maniacal"
    decide_batch = _hard_first_batch
