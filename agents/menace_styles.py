"""Scripted styles of The Menace Among Us that a reference population holds
(``agents.populations``).

Each is a few-line variation a careful player would try, named for what it does and entered on
the side it was written for (``teams``):

- ``reserve7``: the heuristic Crew, repairing only with 7 Oxygen to spare beyond the worst case
  of a round (the heuristic keeps 2-7 by table size, 7 at 5 players since issue 46). An outside
  audit's crew script: one changed constant beat the heuristic Menace in more than 80% of games
  at 6 players.
- ``tell``: the vote-reading Crew. It calls a vote every round and abstains, so that a seat
  casting a ballot unlike its own (any ballot, where it abstained) stands out; from then on it
  votes out the seat that did so in most remembered votes, and abstains while none has. It
  reads only the public ballots of past rounds; everything else it plays as the heuristic
  Crew. With ``reserve7`` it held the audit's heuristic Menace below 18% at 4 and 6 players,
  because that Menace votes in every vote.

The Menace's scripts (drain, careful, saboteur, wounder) live in ``agents.menace_drain``.

Population v3 adds the turn-4 audit's styles (``shared/audits/turn4/menace-v5.md``), each the
heuristic with one decision changed:

- ``killer`` (Menace, K1): a Brawl's Wound goes to the most wounded seat, so a second Wound kills.
- ``careful_menace`` (Menace, V2): never Reactor Leak, Backstab or Brawl while anything else is
  legal (the careful drain's rule without the drain).
- ``budget`` (Menace, V2): ``careful_menace`` that sabotages (a Bad card, an ability costing
  Oxygen or Energy) only while the table's evidence against it is under ``BUDGET``.
- ``pass_crew`` (Crew, H1): never calls a vote and always abstains.
- ``freeharm`` (Menace, V1 on top of K1): ``killer`` that takes a character with Veto or Prune
  when offered and uses it on every turn it would not sabotage; their cost, a discard, is
  evidence the Crew never counts.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import kernel, njit
from envs.menace import actions as A
from envs.menace import cards as c
from envs.menace import rules as R
from envs.menace.observe import (
    CHARACTER,
    CHARACTER_OFFER,
    DECISION,
    OWN_AGENDA,
    PAST_BALLOTS,
    PAST_ROUND,
    WOUNDS,
)
from envs.menace.spec import MIN_PLAYERS, N_DECISIONS, N_WOUND_KINDS
from envs.menace.tables import ABILITY_ENERGY, ABILITY_OXYGEN, CARD_CATEGORY, CHARACTER_ABILITIES

from .menace_drain import without_self_wounding
from .menace_heuristic import (
    RESERVE,
    best_seat,
    decide,
    decide_with,
    on_menace_side,
    own_abilities_slot,
    public_evidence,
    suspicion,
)
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


KILLER, CAREFUL_MENACE, BUDGET_MENACE, PASS_CREW, FREE_HARM = 0, 1, 2, 3, 4  # v3's styles
FREE_HARM_ORDER = np.array([c.VETO, c.PRUNE], np.int64)  # harm paid for with a discard
FREE_HARM_ABILITIES = np.zeros(c.N_ABILITIES, np.bool_)
FREE_HARM_ABILITIES[FREE_HARM_ORDER] = True
BUDGET = 0.40  # the public evidence against itself under which the budget Menace sabotages
WOUND_WEIGHT = 3.0  # a Wound outweighs any suspicion short of a seat shown to be the Menace


@kernel
def most_wounded(obs, mask, off, n):
    """The Brawl target with the most Wounds (a second Wound kills), the least suspected
    first among equals; never itself, nor a seat shown to be the Menace (+10 suspicion)."""
    scores = np.empty(n, np.float64)
    suspicion(obs, off, n, False, scores)
    for r in range(n):
        wounds = 0.0
        for w in range(N_WOUND_KINDS):
            wounds += obs[off[WOUNDS] + r * N_WOUND_KINDS + w]
        scores[r] = WOUND_WEIGHT * wounds - scores[r]
    scores[0] = -1e9
    return best_seat(mask, scores, n, True)


@kernel
def without_sabotage(obs, off, mask):
    """The mask with every Bad card and every own ability costing Oxygen or Energy taken out,
    unless nothing else would be legal."""
    kept = mask.copy()
    for card in range(CARD_CATEGORY.shape[0]):
        if CARD_CATEGORY[card] == c.BAD:
            kept[A.PLAY + card] = False
    for ch in range(c.N_CHARACTERS):
        if obs[off[CHARACTER] + ch] > 0.5:  # row 0: the observer's own character
            for slot in range(2):
                ability = CHARACTER_ABILITIES[ch, slot]
                if ABILITY_OXYGEN[ability] > 0 or ABILITY_ENERGY[ability] > 0:
                    kept[A.USE + slot] = False
    return kept if kept.any() else mask


@kernel
def free_harm_character(obs, off):
    """The offered character with Veto, else one with Prune; -1 if none is offered."""
    for i in range(FREE_HARM_ORDER.shape[0]):
        for ch in range(c.N_CHARACTERS):
            if obs[off[CHARACTER_OFFER] + ch] > 0.5:
                for slot in range(2):
                    if CHARACTER_ABILITIES[ch, slot] == FREE_HARM_ORDER[i]:
                        return A.PICK + ch
    return -1


@kernel
def sabotages(choice):
    """Whether a turn's action harms the ship openly: a Bad card or an ability (the heuristic
    Menace uses only abilities that cost Oxygen)."""
    if A.PLAY <= choice < A.PLAY + CARD_CATEGORY.shape[0]:
        return CARD_CATEGORY[choice - A.PLAY] == c.BAD
    return A.USE <= choice < A.USE + 2


@kernel
def v3_decide(obs, mask, off, n, style):
    """The heuristic with the style's one decision changed (on the side the style plays)."""
    agenda = np.argmax(obs[off[OWN_AGENDA] : off[OWN_AGENDA] + c.N_AGENDAS])
    menace = on_menace_side(obs, off, agenda)
    decision = np.argmax(obs[off[DECISION] : off[DECISION] + N_DECISIONS])
    if menace and style == FREE_HARM and decision == R.PICK_CHARACTER:
        choice = free_harm_character(obs, off)
        if choice >= 0 and mask[choice]:
            return choice
    if menace and style == FREE_HARM and (
        decision == R.TURN or decision == R.DELEGATED or decision == R.RUSH_PLAY
    ):
        choice = decide(obs, mask, off, n)
        harm = own_abilities_slot(obs, off, mask, FREE_HARM_ABILITIES)
        return harm if harm >= 0 and not sabotages(choice) else choice
    if menace and (style == KILLER or style == FREE_HARM) and decision == R.BRAWL_TARGET:
        choice = most_wounded(obs, mask, off, n)
        if choice >= 0:
            return choice
    if menace and (style == CAREFUL_MENACE or style == BUDGET_MENACE):
        mask = without_self_wounding(mask)
    if menace and style == BUDGET_MENACE:
        evidence = np.empty(n, np.float64)
        public_evidence(obs, off, n, False, evidence)
        if evidence[0] >= BUDGET:
            mask = without_sabotage(obs, off, mask)
    if not menace and style == PASS_CREW and (decision == R.CALL_VOTE or decision == R.VOTE):
        if mask[A.PASS]:
            return A.PASS
    return decide(obs, mask, off, n)


@njit
def _killer_batch(obs, mask, off, n, out):
    # One loop per style: a loop given its decide as an argument is not cached on disk.
    for b in range(obs.shape[0]):
        out[b] = v3_decide(obs[b], mask[b], off, n, KILLER)


@njit
def _careful_menace_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = v3_decide(obs[b], mask[b], off, n, CAREFUL_MENACE)


@njit
def _budget_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = v3_decide(obs[b], mask[b], off, n, BUDGET_MENACE)


@njit
def _free_harm_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = v3_decide(obs[b], mask[b], off, n, FREE_HARM)


@njit
def _pass_crew_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = v3_decide(obs[b], mask[b], off, n, PASS_CREW)


class MenaceKiller(ScriptedPolicy):
    """Audit turn 4, K1, a Menace style: the heuristic Menace, but a Brawl it chooses the target
    of wounds the most wounded seat (the heuristic wounds the least suspected), so a second
    Wound kills. It held the heuristic Crew to 13.8% at 5 players (heuristic Menace: 41.8%)."""

    name = "killer"
    teams = ("menace",)
    game = "menace"
    decide_batch = _killer_batch
    strategy_for = ("menace",)


class MenaceCareful(MenaceKiller):
    """Audit turn 4, V2, a Menace style: the heuristic Menace that never plays Reactor Leak,
    Backstab or Brawl while anything else is legal (no drain: population v2's ``careful`` is the
    careful drain). It held the heuristic Crew to 34.2% at 5 players."""

    name = "careful_menace"
    decide_batch = _careful_menace_batch


class MenaceBudget(MenaceKiller):
    """Audit turn 4, V2, a Menace style: ``careful_menace`` that sabotages (a Bad card, or an
    ability costing Oxygen or Energy) only while the table's public evidence against it is under
    ``BUDGET``. It held the heuristic Crew to 32.9% at 5 players."""

    name = "budget"
    decide_batch = _budget_batch


class MenacePassCrew(ScriptedPolicy):
    """Audit turn 4, H1, a Crew style: the heuristic Crew that never calls a vote and always
    abstains. It won 51.0% at 6 players against the heuristic Menace."""

    name = "pass_crew"
    teams = ("crew",)
    game = "menace"
    decide_batch = _pass_crew_batch
    strategy_for = ("crew",)


class MenaceFreeHarm(MenaceKiller):
    """Audit turn 4, V1 layered on K1, a Menace style: ``killer`` that picks Malumil Einum
    (Veto) or else Juno Saar (Prune) when offered and uses that ability on every turn it would
    not sabotage (the heuristic's Veto choice then cancels a Good card). Their cost is a
    discard, which the heuristic Crew's evidence (Oxygen and Energy spent) never counts. It
    held the heuristic Crew to 12.7% at 5 players, and below 35% at 5-8."""

    name = "freeharm"
    decide_batch = _free_harm_batch
