"""A heuristic player of The Menace Among Us, for either side, from its observation alone.

The Crew repairs while Oxygen would survive the worst case of the round with a reserve to
spare, otherwise raises morale or gains Oxygen with an ability (Photosynthesis, Vigil); it picks
the character whose cards and abilities serve it best, never plays a Bad card while anything
else is legal, and votes out the seat most tied to Bad cards: its share of this
round's face-down cards when Bad ones were revealed, plus what Surveillance, Analyze and
Bloodwork showed and any agenda revealed. The Menace sabotages under cover (once others have
played this round, so the Bad card hides among theirs), finishes the Crew when Oxygen is low,
blows up Energy near the goal, plays Neutral cards or draws otherwise, and votes with the
table's suspicion against anyone but itself, since an exiled crewmember costs 3 Oxygen.

The policy has no memory: everything it weighs is in the observation of the decision, so the
same observation always gets the same action.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import kernel, njit
from envs.menace import actions as A
from envs.menace import cards as c
from envs.menace import rules as R
from envs.menace.observe import (
    ABILITY_IN_PLAY,
    ACCUSED,
    AGENDA_REVEALED,
    ALIVE,
    BEING_REVEALED,
    CHARACTER_OFFER,
    BLOODWORK_CARD,
    BLOODWORK_SEAT,
    CHARACTER,
    COWARD_SIDE,
    DECISION,
    ENERGY,
    EXILED,
    OWN_AGENDA,
    OXYGEN,
    PLAYED,
    REVEALED,
    SEEN_EMMA_TOP,
    SEEN_HAND,
    SURVEILLED_CARDS,
    SURVEILLED_SEAT,
)
from envs.menace.spec import MIN_PLAYERS, N_DECISIONS
from envs.menace.tables import AGENDA_SIDE, CARD_CATEGORY, CHARACTER_ABILITIES, CHARACTER_DECK

from .policy import ScriptedPolicy

T = c.N_CARD_TYPES
RM, AR, CMD, BR = c.RAISE_MORALE, c.ADVANCED_REPAIR, c.COMMAND, c.BASIC_REPAIR
REP, BS, BRAWL = c.REPLICATE, c.BACKSTAB, c.BRAWL
PANIC, AB, RL, EXP = c.PANIC, c.AIRLOCK_BREACH, c.REACTOR_LEAK, c.EXPLOSION

# Cards in the order a side would rather part with them (discards, gifts, Tinker).
CREW_DISCARD = np.array([RL, PANIC, AB, EXP, BS, BRAWL, REP, CMD, BR, RM, AR], np.int64)
MENACE_DISCARD = np.array([RM, AR, CMD, BR, REP, BRAWL, BS, RL, EXP, PANIC, AB], np.int64)
# What a seat shows when Bloodwork makes it reveal a card: the most innocent one.
SHOW_OFF = np.array([RM, AR, CMD, BR, REP, BRAWL, BS, RL, EXP, PANIC, AB], np.int64)
# Cover for the Menace: cards that neither help nor betray, then those that help least.
MENACE_COVER = np.array([BS, BRAWL, REP], np.int64)
MENACE_SABOTAGE = np.array([AB, PANIC, EXP, RL], np.int64)

# What a card in the deck is worth to each side when choosing a character (7 cards each).
CREW_VALUE = np.zeros(T, np.float64)
MENACE_VALUE = np.zeros(T, np.float64)
for _card, _crew, _menace in (
    (RM, 2.0, 0.0), (AR, 2.0, 0.0), (CMD, 1.0, 0.0), (BR, 1.0, 0.0), (REP, 0.5, 1.0),
    (BS, 0.0, 1.0), (BRAWL, 0.0, 1.0), (PANIC, -1.0, 2.0), (AB, -1.0, 2.0), (RL, -1.0, 2.0),
    (EXP, -1.0, 2.0),
):
    CREW_VALUE[_card], MENACE_VALUE[_card] = _crew, _menace

# Abilities aimed at a suspect (information, harm) and those aimed at a friend (help).
HOSTILE = np.zeros(c.N_ABILITIES, np.bool_)
for _ability in (
    c.BLOODWORK, c.COMMANDEER, c.CRUNCH, c.LASER_PISTOL, c.SURVEILLANCE, c.LOCKDOWN,
    c.INTERCEPT, c.ANALYZE, c.PILFER, c.PRUNE, c.SUPPRESS,
):
    HOSTILE[_ability] = True
# Abilities the Crew uses rather than draw, and what each adds to a character's worth when it
# picks one: Oxygen without a card (Photosynthesis, Vigil), a free draw for two, healing.
# Everything else costs a turn the Crew needs for cards, or Oxygen it cannot spare.
CREW_USES = np.zeros(c.N_ABILITIES, np.bool_)
CREW_ABILITY_VALUE = np.zeros(c.N_ABILITIES, np.float64)
for _ability, _value in (
    (c.PHOTOSYNTHESIS, 3.0), (c.VIGIL, 3.0), (c.SHARE_RATIONS, 1.0), (c.SERMON, 1.0),
    (c.SELF_REPAIR, 1.0),
):
    CREW_USES[_ability], CREW_ABILITY_VALUE[_ability] = True, _value

SUSPECT_THRESHOLD = 0.75  # suspicion at which the Crew calls a vote and votes
MENACE_CALL_THRESHOLD = 0.5  # suspicion of another seat at which the Menace calls a vote
# Oxygen the Crew keeps in hand beyond the worst case of a round, by table size (4 to 8). A
# larger reserve makes the heuristic Crew stronger at every size; these are set so that it
# wins 35-65% against the heuristic Menace at each size. The reserve is largest at 5 players,
# where the two Menaces hold the largest share of the table (2 of 5) and The Saint is not dealt.
RESERVE = np.array([2, 5, 1, 2, 0], np.int64)


@kernel
def count(x):
    """An observation entry times its scale, back to the integer it encodes."""
    return int(x + 0.5)


@kernel
def first_card(mask, base, order):
    """The first card of `order` whose action `base + card` is legal; -1 if none is."""
    for i in range(order.shape[0]):
        if mask[base + order[i]]:
            return base + order[i]
    return -1


@kernel
def suspicion(obs, off, n, out):
    """How strongly each other seat is tied to the Menace, from this round and revealed facts.

    A share of the round's Bad cards goes to each seat in proportion to the cards it played,
    leaving out the observer's own (assumed innocent); seen Bad cards weigh more; a revealed
    agenda settles it. Seats that cannot be voted for get -1e9.
    """
    total, bad = 0.0, 0.0
    for card in range(T):
        k = obs[off[REVEALED] + card] * 8.0
        total += k
        if CARD_CATEGORY[card] == c.BAD:
            bad += k
    own = obs[off[PLAYED]] * 3.0
    share = bad / max(total - own, 1.0)
    out[0] = -1e9
    for r in range(1, n):
        if obs[off[ALIVE] + r] < 0.5 or obs[off[EXILED] + r] > 0.5:
            out[r] = -1e9
            continue
        score = obs[off[PLAYED] + r] * 3.0 * share
        surveilled = obs[off[SURVEILLED_SEAT] + r]
        bloodwork = obs[off[BLOODWORK_SEAT] + r]
        for card in range(T):
            if CARD_CATEGORY[card] == c.BAD:
                score += 2.0 * surveilled * obs[off[SURVEILLED_CARDS] + card] * 2.0
                score += 1.0 * obs[off[SEEN_HAND] + r * T + card] * 8.0
                score += 2.0 * bloodwork * obs[off[BLOODWORK_CARD] + card]
            elif CARD_CATEGORY[card] == c.GOOD:
                score -= 0.5 * bloodwork * obs[off[BLOODWORK_CARD] + card]
        for a in range(c.N_AGENDAS):
            if obs[off[AGENDA_REVEALED] + r * c.N_AGENDAS + a] > 0.5:
                score += 10.0 if AGENDA_SIDE[a] == c.MENACE else -10.0
        if off[ACCUSED + 1] > off[ACCUSED]:  # the piece has rows only with table talk
            for j in range(1, n):  # accusations by other seats
                score += 0.25 * obs[off[ACCUSED] + j * n + r]
        out[r] = score


@kernel
def best_seat(mask, scores, n, highest):
    """The legal `seat +r` with the highest (or lowest) score; -1 if no seat is legal."""
    best, best_score = -1, 0.0
    for r in range(n):
        if not mask[A.SEAT + r]:
            continue
        score = scores[r] if highest else -scores[r]
        if best < 0 or score > best_score:
            best, best_score = r, score
    return A.SEAT + best if best >= 0 else -1


@kernel
def top_two(scores, n):
    """The highest score and the runner-up's, over the other seats."""
    top, second = -1e9, -1e9
    for r in range(1, n):
        if scores[r] > top:
            top, second = scores[r], top
        elif scores[r] > second:
            second = scores[r]
    return top, second


@kernel
def own_abilities_slot(obs, off, mask, wanted):
    """A legal `use ability` whose ability is in `wanted`; -1 if none."""
    for ch in range(c.N_CHARACTERS):
        if obs[off[CHARACTER] + ch] > 0.5:
            for slot in range(2):
                if mask[A.USE + slot] and wanted[CHARACTER_ABILITIES[ch, slot]]:
                    return A.USE + slot
    return -1


@kernel
def worst_drain(obs, off, n):
    """Oxygen this round could still lose if every face-down card and every seat yet to play
    took one: the Crew repairs only when it would survive that. (Counting only the Menace among
    the seats yet to play looks sharper but loses more games: the Crew's own Repairs drain too.)"""
    drain = 0
    for r in range(n):
        played = count(obs[off[PLAYED] + r] * 3.0)
        drain += played
        if r > 0 and played == 0 and obs[off[ALIVE] + r] > 0.5:
            drain += 1
    return drain


@kernel
def pick_character(obs, off, menace):
    """The offered character whose 7 cards are worth most to the picker's side."""
    best, best_value = -1, -1e9
    for ch in range(c.N_CHARACTERS):
        if obs[off[CHARACTER_OFFER] + ch] > 0.5:
            value = 0.0
            for i in range(CHARACTER_DECK.shape[1]):
                card = CHARACTER_DECK[ch, i]
                value += MENACE_VALUE[card] if menace else CREW_VALUE[card]
            if not menace:
                for slot in range(2):
                    value += CREW_ABILITY_VALUE[CHARACTER_ABILITIES[ch, slot]]
            if value > best_value:
                best, best_value = ch, value
    return A.PICK + best if best >= 0 else -1


@kernel
def crew_turn(obs, off, mask, oxygen, n):
    """Repair while Oxygen survives the worst case, else Raise Morale; help or draw; Bad last."""
    safe = oxygen - 1 - worst_drain(obs, off, n) >= RESERVE[n - MIN_PLAYERS]
    if safe:
        for card in (AR, BR):
            if mask[A.PLAY + card]:
                return A.PLAY + card
    if mask[A.PLAY + RM]:
        return A.PLAY + RM
    if safe and mask[A.PLAY + CMD]:
        return A.PLAY + CMD
    use = own_abilities_slot(obs, off, mask, CREW_USES)
    if use >= 0:
        return use
    if mask[A.DRAW]:
        return A.DRAW
    for card in (REP, CMD, BR, AR, BRAWL, BS):
        if mask[A.PLAY + card]:
            return A.PLAY + card
    return -1


@kernel
def menace_turn(obs, off, mask, oxygen, energy, n):
    """Explosion near the goal; sabotage under cover or to finish; else cover, else draw."""
    others = 0.0
    for r in range(1, n):
        others += obs[off[PLAYED] + r]
    if energy >= 12 and mask[A.PLAY + EXP]:
        return A.PLAY + EXP
    if oxygen <= 3 or others > 0.0 or not mask[A.DRAW]:
        choice = first_card(mask, A.PLAY, MENACE_SABOTAGE)
        if choice >= 0:
            return choice
    choice = first_card(mask, A.PLAY, MENACE_COVER)
    if choice >= 0:
        return choice
    return A.DRAW if mask[A.DRAW] else -1


@kernel
def decide(obs, mask, off, n):
    """One action for the pending decision of the observing seat; legal by construction (a
    choice the mask forbids falls back to the first legal action)."""
    agenda = np.argmax(obs[off[OWN_AGENDA] : off[OWN_AGENDA] + c.N_AGENDAS])
    menace = AGENDA_SIDE[agenda] == c.MENACE
    if agenda == c.THE_COWARD:
        menace = obs[off[COWARD_SIDE] + 1] > 0.5
    decision = np.argmax(obs[off[DECISION] : off[DECISION] + N_DECISIONS])
    oxygen = count(obs[off[OXYGEN]] * 20.0)
    energy = count(obs[off[ENERGY]] * 20.0)
    scores = np.empty(n, np.float64)
    suspicion(obs, off, n, scores)
    top, second = top_two(scores, n)
    choice = -1

    if decision == R.PICK_CHARACTER:
        choice = pick_character(obs, off, menace)
    elif decision == R.TURN or decision == R.DELEGATED or decision == R.RUSH_PLAY:
        if menace:
            choice = menace_turn(obs, off, mask, oxygen, energy, n)
        else:
            choice = crew_turn(obs, off, mask, oxygen, n)
    elif (
        decision == R.PAY_DISCARD
        or decision == R.HAND_LIMIT
        or decision == R.TINKER_DISCARD
        or decision == R.RELAY_GIFT
    ):
        choice = first_card(mask, A.CARD, MENACE_DISCARD if menace else CREW_DISCARD)
    elif decision == R.BLOODWORK_REVEAL:
        choice = first_card(mask, A.CARD, SHOW_OFF)
    elif decision == R.ABILITY_TARGET_CHOICE:
        ability = np.argmax(obs[off[ABILITY_IN_PLAY] : off[ABILITY_IN_PLAY] + c.N_ABILITIES])
        hostile = HOSTILE[ability]
        if not hostile and mask[A.SEAT]:
            choice = A.SEAT
        else:
            choice = best_seat(mask, scores, n, hostile != menace)
    elif decision == R.CALIBRATE_CHOICE:
        bad = False
        good = False
        for card in range(T):
            if obs[off[SEEN_EMMA_TOP] + card] > 0.5:
                bad = CARD_CATEGORY[card] == c.BAD
                good = CARD_CATEGORY[card] == c.GOOD
        choice = A.YES if (good if menace else bad) else A.PASS
    elif decision == R.VETO_CHOICE:
        for card in range(T):
            if obs[off[BEING_REVEALED] + card] > 0.5:
                category = CARD_CATEGORY[card]
                cancel = category == c.GOOD if menace else category == c.BAD
                choice = A.YES if cancel else A.PASS
    elif decision == R.BRAWL_TARGET or decision == R.AGENDA_TARGET:
        scores[0] = -1e9  # never oneself
        choice = best_seat(mask, scores, n, not menace)
        if decision == R.AGENDA_TARGET and agenda == c.THE_SAINT:  # heal the least suspect
            choice = best_seat(mask, scores, n, False)
    elif decision == R.CALL_VOTE:
        if menace:
            call = top >= MENACE_CALL_THRESHOLD
        else:
            call = top >= SUSPECT_THRESHOLD and top > second
        choice = A.YES if call else A.PASS
    elif decision == R.TALK_CLAIM:
        choice = A.CLAIM + c.GOOD
    elif decision == R.TALK_ACCUSE_SEAT:
        choice = A.PASS
        if top >= SUSPECT_THRESHOLD:
            choice = best_seat(mask, scores, n, True)
    elif decision == R.TALK_ACCUSE_CARD:
        choice = A.CARD + AB
    elif decision == R.VOTE:
        if menace or (top >= SUSPECT_THRESHOLD and top > second):
            choice = best_seat(mask, scores, n, True)
        if choice < 0 and not mask[A.PASS]:
            choice = best_seat(mask, scores, n, True)
        if choice < 0:
            choice = A.PASS
    if choice < 0 or not mask[choice]:
        for a in range(mask.shape[0]):  # whatever is legal: a pick, a forced play
            if mask[a]:
                return a
    return choice


@njit
def _decide_batch(obs, mask, off, n, out):
    # The same loop as the other game's: a loop given its decide as an argument is not cached
    # on disk by numba, and would recompile this player in every process.
    for b in range(obs.shape[0]):
        out[b] = decide(obs[b], mask[b], off, n)


class MenaceHeuristic(ScriptedPolicy):
    """Plays whichever side its observation says it is on (the Coward: the side it is on now)."""

    game = "menace"
    decide_batch = _decide_batch
