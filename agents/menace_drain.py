"""The ability-drain Menace: the scripted exploit an outside audit beat our heuristic Crew with.

Above Deck Actions that cost Oxygen drain it without using a card. This Menace picks the
offered character whose abilities cost the most Oxygen, spends Oxygen on one of them whenever
it may (the dearer first), and otherwise plays a Bad card at once, with no waiting for cover
(except Reactor Leak, which would wound itself). Everything else (targets, discards, votes) it
decides as the heuristic Menace does. Against version 2's heuristic Crew it won 98% at 5
players; the harness keeps scoring the Crew against it (``agents.make_policy("drain", ...)``).

Two plainer scripts a reference Crew must also hold against, played once and reported with
the balance table: the saboteur (`MenaceSaboteur`: Bad cards at once, the heuristic's
character) and the wounder (`MenaceWounder`: Backstab and Brawl at once, which are not Bad).
The careful drain (`MenaceCarefulDrain`) is the drain that also never plays a card that can
wound its own player (Reactor Leak, Backstab, Brawl) while anything else is legal: the audit's
strongest Menace script (74.5% against the heuristic Crew at 7 players), and half of it alone
("careful" on top of the heuristic) exposes the heuristic Menace's self-wounding.
On a Crew seat (the Coward back on the Crew's side) each plays as the heuristic Crew.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import kernel, njit
from envs.menace import actions as A
from envs.menace import cards as c
from envs.menace import rules as R
from envs.menace.observe import CHARACTER_OFFER, DECISION, MISSION_LEADER, OWN_AGENDA
from envs.menace.spec import N_DECISIONS
from envs.menace.tables import ABILITY_OXYGEN, CHARACTER_ABILITIES, CHARACTER_DECK

from .menace_heuristic import (
    MENACE_VALUE,
    decide,
    on_menace_side,
    oxygen_ability,
    pick_character,
)
from .policy import ScriptedPolicy

DRAIN, SABOTEUR, WOUNDER, CAREFUL = 0, 1, 2, 3  # the scripts' styles

# Bad cards played at once: Reactor Leak wounds its own player, so it waits for the heuristic.
AT_ONCE = np.array([c.AIRLOCK_BREACH, c.PANIC, c.EXPLOSION], np.int64)
# Cards that can wound their own player: the careful drain keeps them in hand.
SELF_WOUNDING = np.array([c.REACTOR_LEAK, c.BACKSTAB, c.BRAWL], np.int64)
# The Oxygen an ability costs, as the drain values it: what leaves the track with no card.
CHARACTER_DRAIN = np.array(
    [ABILITY_OXYGEN[CHARACTER_ABILITIES[ch, 0]] + ABILITY_OXYGEN[CHARACTER_ABILITIES[ch, 1]]
     for ch in range(c.N_CHARACTERS)],
    np.int64,
)


@kernel
def dearest_character(obs, off):
    """The offered character whose abilities cost the most Oxygen; ties go to the deck a
    Menace values most."""
    best, best_value = -1, -1e9
    for ch in range(c.N_CHARACTERS):
        if obs[off[CHARACTER_OFFER] + ch] > 0.5:
            value = 100.0 * CHARACTER_DRAIN[ch]
            for i in range(CHARACTER_DECK.shape[1]):
                value += MENACE_VALUE[CHARACTER_DECK[ch, i]]
            if value > best_value:
                best, best_value = ch, value
    return A.PICK + best if best >= 0 else -1


@kernel
def wound_at_once(obs, off, mask):
    """Backstab unless the observer holds the Mission Leader token (the first Backstab wounds
    the Mission Leader), else Brawl; -1 if neither is legal."""
    if mask[A.PLAY + c.BACKSTAB] and obs[off[MISSION_LEADER]] < 0.5:
        return A.PLAY + c.BACKSTAB
    if mask[A.PLAY + c.BRAWL]:
        return A.PLAY + c.BRAWL
    return -1


@kernel
def drain_decide(obs, mask, off, n, style):
    """The script's pick and turn on the Menace's side; the heuristic's choice otherwise."""
    agenda = np.argmax(obs[off[OWN_AGENDA] : off[OWN_AGENDA] + c.N_AGENDAS])
    menace = on_menace_side(obs, off, agenda)
    decision = np.argmax(obs[off[DECISION] : off[DECISION] + N_DECISIONS])
    if menace and decision == R.PICK_CHARACTER:
        choice = dearest_character(obs, off) if style == DRAIN else pick_character(obs, off, True)
        if choice >= 0 and mask[choice]:
            return choice
    if menace and style == CAREFUL:
        mask = without_self_wounding(mask)
    if menace and (decision == R.TURN or decision == R.DELEGATED or decision == R.RUSH_PLAY):
        if style == DRAIN or style == CAREFUL:
            choice, _ = oxygen_ability(obs, off, mask)
            if choice >= 0:
                return choice
        if style == WOUNDER:
            choice = wound_at_once(obs, off, mask)
            if choice >= 0:
                return choice
        for i in range(AT_ONCE.shape[0]):
            if mask[A.PLAY + AT_ONCE[i]]:
                return A.PLAY + AT_ONCE[i]
    return decide(obs, mask, off, n)


@kernel
def without_self_wounding(mask):
    """The mask with every self-wounding play taken out, unless nothing else would be legal."""
    kept = mask.copy()
    for i in range(SELF_WOUNDING.shape[0]):
        kept[A.PLAY + SELF_WOUNDING[i]] = False
    return kept if kept.any() else mask


@njit
def _drain_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = drain_decide(obs[b], mask[b], off, n, DRAIN)


@njit
def _saboteur_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = drain_decide(obs[b], mask[b], off, n, SABOTEUR)


@njit
def _wounder_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = drain_decide(obs[b], mask[b], off, n, WOUNDER)


class MenaceDrain(ScriptedPolicy):
    """The audit's ability-drain Menace."""

    name = "drain"
    teams = ("menace",)  # a menace strategy: entered on the menace side only
    game = "menace"
    decide_batch = _drain_batch
    strategy_for = ("menace",)


@njit
def _careful_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = drain_decide(obs[b], mask[b], off, n, CAREFUL)


class MenaceSaboteur(MenaceDrain):
    """Bad cards at once, the heuristic's character, no drain: a plainer exploit to check."""

    name = "saboteur"
    decide_batch = _saboteur_batch


class MenaceWounder(MenaceDrain):
    """Backstab and Brawl at once, then Bad cards: kills the Crew (2 Oxygen each) with cards
    that tell nothing, since neither is Bad."""

    name = "wounder"
    decide_batch = _wounder_batch


class MenaceCarefulDrain(MenaceDrain):
    """The drain that never plays Reactor Leak, Backstab or Brawl while anything else is legal."""

    name = "careful"
    decide_batch = _careful_batch
