"""A heuristic player of Among Us – The Card Game, for either side, from its observation alone.

Crewmates collect their own colour and never feed the impostor: they trade away spare colours
and show one decoy colour all game (as the impostor does: a show that changes rules out one
more colour each time), keep impostor-colour cards out of circulation, clear as soon as they
can and look at the seat most likely to be the impostor, and vote for it once that is 7 times
in 10 (or in the last round).
The impostor hides its colour, fishes for its own cards from the seats that showed them (from 5
players, in the second half of the game, from any seat), kills when it can, and sabotages once
it would guess every other seat's colour right six times in ten: at its own decisions but the
investigation's, or in the window after a card is turned face up, which is where votes and
clears hand it colours. When the crew must know who it is, or a crew voting in seating order
will name it next, it guesses at once rather than be named; while such a crew names other seats,
it lets their votes turn colours up. It reads a show as the table plays: a seat that shows a
colour hides its own until the seats turned face up turn out to have shown theirs. A card given
to it it reads as 2 to 1 against the giver holding that colour (a crewmate that never clears may
give its own), and from 5 players it gives away cards of its own colour, while it holds one to
three, as crewmates might (the crew takes no word from such a gift: a handshake the impostor
could fake). At 5 players a crewmate lets its last decoy card go once it holds three of its own
colour, to clear.

It counts as a careful player does, from its raw observation alone (``envs/amongus/counting.py``,
the count ``assist=1`` would put in the observation): every seat holds one colour, so a colour
that another seat must hold is not this one's, and each guess is the colour most likely once
every way of dealing the rest is counted, under a prior of how players show and give (``CREW``,
``IMPOSTOR``). Judging each seat alone by the colours it showed (as this player did before
2026-12-01) left it at 0.59 against the heuristic crew at 6 players where counting wins 0.78.
The crew counts the same way, from its own view (``counting.impostor_odds``): the seats it
cannot see hold the colours left, the impostor's among them. Until 2026-12-01 it looked at the
seat that had shown the impostor's colour most, which the impostor never does, and random crews
beat it: at 6 players it won 23% against the heuristic impostor, the counting crew 81%.
"""

from __future__ import annotations

import numpy as np

from envs.amongus import actions as A
from envs.amongus.cards import HAND_SIZE
from envs.amongus.counting import SHOWN, impostor_counts, impostor_odds
from envs.amongus.pieces import (
    CLEARED,
    FIRST_PLAYER,
    HAND,
    IMPOSTOR_COLOUR,
    IS_IMPOSTOR,
    KNOWN_COLOUR,
    NOT_IMPOSTOR,
    OWN_COLOUR,
    PHASE,
    RECEIVED_FROM,
    REVEALED,
    ROUND,
    SHOWN_TOTAL,
    TURN_OWNER,
    VOTED,
    VOTED_FOR,
)
from envs.amongus.rules import (
    END_OF_TURN, INVESTIGATION, REPLY, SABOTAGE_GUESS, SABOTAGE_WINDOW, TRADE,
)
from envs.amongus.spec import NUM_PHASES
from envs.core.jit import kernel, njit

from .policy import ScriptedPolicy


@kernel
def _argmax_colour(hand, n, skip1, skip2):
    """The colour held most, skipping two colours; -1 if nothing else is held."""
    best, best_count = -1, 0.0
    for c in range(n):
        if c != skip1 and c != skip2 and hand[c] > best_count:
            best, best_count = c, hand[c]
    return best


@kernel
def decoy_colour(hand, shown_total, n, skip1, skip2):
    """The colour this seat has shown most and still holds, skipping two colours; -1 if it holds
    none it showed. Showing it again rules out no colour the table had not ruled out already."""
    best, most = -1, 0.0
    for c in range(n):
        shown = shown_total[c]  # row 0: the observer's own shows
        if c != skip1 and c != skip2 and hand[c] > 0 and shown > most:
            best, most = c, shown
    return best


@kernel
def _show(hand, shown_total, n, skip1, skip2, decoy):
    """The colour to show: with ``decoy``, the one shown most that it still holds, else the one
    held most (skipping two colours); -1 if nothing else is held."""
    c = decoy_colour(hand, shown_total, n, skip1, skip2) if decoy else -1
    return c if c >= 0 else _argmax_colour(hand, n, skip1, skip2)


@kernel
def _known_colour(known, r, n):
    for c in range(n):
        if known[r * n + c] > 0.5:
            return c
    return -1


@kernel
def _unknown_seats(known, n):
    count = 0
    for r in range(1, n):
        if _known_colour(known, r, n) < 0:
            count += 1
    return count


@kernel
def _evidence_against(shown_total, received, r, c, n):
    """Crewmates keep their own colour: each time seat r showed or gave colour c counts against
    r being colour c."""
    return shown_total[r * n + c] + received[r * n + c]


@kernel
def _likely_holder(known, shown_total, received, mask_base, mask, c, imp, n):
    """The seat most likely to be colour c among those an offer may go to; -1 if none."""
    best, best_score = -1, 1e9
    for r in range(1, n):
        if not mask[mask_base + r - 1]:
            continue
        k = _known_colour(known, r, n)
        if k == imp:
            continue
        score = _evidence_against(shown_total, received, r, c, n)
        if k == c:
            score = -1e6
        elif k >= 0:
            score += 1e3
        if score < best_score:
            best, best_score = r, score
    return best


# The impostor sabotages once its guesses would all be right this often. Version 5's 0.9 was far
# from its best at every size (an outside audit: 0.5 won 17-30 points more against the crew).
# 0.6 since 2026-12-08 (issue 46): against random crews, which vote early and at random, 0.5
# guessed too soon (random crews won 0.632 / 0.613 / 0.658 at 7 / 8 / 10 players, 0.526 / 0.538
# / 0.504 at 0.6; seed 77, 1,000 games), and against the heuristic crew it moved nothing there.
SURE = 0.6

# A crewmate votes once the seat it suspects most is the impostor this often. Against the
# heuristic impostor at 6 players (4,000 games) the crew won 47% voting at 0.35, 69% at 0.5, 81%
# at 0.7, 80% at 0.8, 73% at 0.9 and 55% voting only when sure or in the last round: a wrong
# vote turns two colours face up for the impostor's count.
VOTE_SURE = 0.7


@kernel
def _cornered(revealed, not_impostor, voted, n):
    """Whether the crew can name the impostor (the observer) for sure: every other seat is face
    up or publicly cleared, or all but one, who then knows, holding its vote as everyone face
    down does. Then the next vote ends the game, and a guess is worth more than waiting."""
    suspects, votes_left = 0, 0
    for r in range(1, n):
        if revealed[r] < 0.5 and not_impostor[r] < 0.5:
            suspects += 1
        if voted[r] < 0.5:
            votes_left += 1
    return suspects == 1 or (suspects == 0 and votes_left > 0)


# The prior each side counts under (``counting.PRIOR``'s order: how likely a seat holds a
# colour once it has shown it, given it to this seat, shown the impostor's colour, shown it and
# no other at least twice). A show costs nothing, so styles that show their own colour on
# purpose broke version 5's single prior (``agents/amongus_styles.py``): the crew takes no word
# from a show of the impostor's colour (the impostor may show its own; version 5's crew fell
# from 0.81 to 0.18 against ``flash``), and the impostor reads a seat that shows one colour
# only as holding it (against ``liar``). The crew takes no word from such a seat either way:
# every seat of its own shows one decoy (below), and version 6's reading of it as held was a
# weight ``mono_impostor`` pulled (audit turn 4, AU-4). Measured at 6 players against the
# population (``docs/evaluation.md``).
# A card given costs a card, but since a crewmate keeps its last decoy it can never clear from 5
# players, and its own colour's cards are then worth nothing to it: the impostor reads a card
# given to it as 2 to 1 against the giver holding its colour, not 20 to 1. The exploit search of
# issue 46 found a crew trade that gives random cards, its own colour among them, worth +0.23 at
# 6 players; as a script (a random card of its hand where the heuristic offers one), 0.832 crew
# wins against 0.587 at 20 to 1, 0.673 at 2 to 1, 0.591 unread (6 players, seed 77, 1,000
# games). Unread it cost the impostor against ``late_vote``, whose replies are honest: 0.308
# against 0.410 at 2 to 1 (0.413 at 20 to 1).
# The crew takes no word from a card of the impostor's colour given to it (``_crew_odds``): the
# heuristic impostor never gave one, so the crew's count read one as 20 to 1 that the giver is a
# crewmate, a handshake the same search found (the ``handshake`` style) and an impostor can fake.
CREW = (0.05, 0.05, 1.0, 1.0)
IMPOSTOR = (0.1, 0.5, 0.05, 10.0)

# How likely the impostor takes a seat to hold a colour it showed once the table has shown
# that its crewmates show their own colour: a seat turned face up had shown its own colour,
# and no more face-up seats had shown only others.
HONEST_SHOW = 5.0

# Both sides show one decoy colour (the one they have shown most and still hold) and, from a
# table size, keep their last card of it, so that their shows rule out one colour and no more
# (outside audit, turn 4: the crew's changing shows handed the impostor colour after colour, and
# a crew showing one decoy held the impostor to 3% at 6-10 players; AU-1 to AU-3). A crewmate
# that keeps its decoy cannot clear (it needs five cards of its own colour); at 4 players, where
# a clear decides the short game, it lets the decoy go (crew wins against ``flash``, 300 games:
# 0.26 keeping, 0.36 not). At 5 players it keeps it until it holds three cards of its own
# colour, then lets it go to clear (``LET_GO_AT``, below ``LET_GO_BELOW``): keeping it all game,
# the crew never cleared at 5, and an impostor that waits at the investigations
# (``mono_impostor``) held it to 0.509 where a random crew won 0.609 (issue 46, seed 4601). On
# the tuning seed (77, 1,000 games, against the impostor below that waits at investigations and
# fakes at 5, sabotaging at 0.5): 0.593 letting it go at four, 0.688 at three, 0.618 for a random
# crew. From 6 players letting it go at three made the crew too strong for the impostor's 35%
# (0.664 against 0.591 at 6, against the impostor of before these changes).
KEEP_DECOY_FROM = 5
LET_GO_AT, LET_GO_BELOW = 3, 6

# From this table size the impostor fakes that handshake: while it holds one to three cards of
# its own colour it offers one in its trades and gives one in its replies (at 6 players, 1,000
# games, seed 77: against the heuristic crew, which reads no such gift, 0.409 either way;
# against ``handshake``, which does, 0.072 -> 0.397). Crewmates hoard such cards, which stops their
# clears: at 4 players, where they clear, the fake dropped the heuristic crew to 0.32 against
# ``hider``, so there it does not fake. At 5 it does since crewmates there took to clearing
# again (``LET_GO_AT``, issue 46): without the fake that crew won 0.739 against the heuristic
# impostor, with it 0.688 (sabotaging at 0.5; seed 77, 1,000 games), a random crew 0.611 and
# 0.618.
FAKE_FROM = 5

# Its settings as one array, so that a style or a sweep changes numbers, not code: the
# impostor's sabotage threshold, the crew's vote threshold, each side's prior, the impostor's
# weight of a show at an honest table, whether each side shows its decoy (1) or the colour it
# holds most (0), the table size from which each side keeps its last decoy card; whether a
# crewmate that keeps it trades on (``_trade_on``: 0 for the heuristic, 1 for ``handshake``),
# giving its own colour too, whether the crew reads a gift of the impostor's colour (both 0 for
# the heuristic), the table size from which the impostor fakes the handshake, and how many
# cards of its own colour a crewmate holds before it lets its last decoy card go (at 5 players).
SURE_AT, VOTE_AT, CREW_PRIOR, IMPOSTOR_PRIOR, HONEST_AT, CREW_DECOY, IMPOSTOR_DECOY = (
    0, 1, 2, 6, 10, 11, 12)
CREW_KEEP_FROM, IMPOSTOR_KEEP_FROM = 13, 14
CREW_TRADES_ON, CREW_OWN_OUT, CREW_IMP_GIFTS, IMPOSTOR_FAKES_FROM = 15, 16, 17, 18
CREW_LET_GO_AT = 19
SETTINGS = np.array((SURE, VOTE_SURE) + CREW + IMPOSTOR
                    + (HONEST_SHOW, 1.0, 1.0, KEEP_DECOY_FROM, 4.0, 0.0, 0.0, 0.0, FAKE_FROM,
                       LET_GO_AT))

# From this table size the impostor, in the second half of the game, also trades with seats
# that never showed its colour: a crew that sits still until the last round (``late_vote``)
# otherwise leaves it nothing to fish for, and the game to that vote (against late_vote, 1,000
# games: 0.144 -> 0.529 at 5 players, 0.103 -> 0.515 at 6). At 4 players trading singles it
# out among three (0.468 -> 0.308), so there it waits.
BLIND_TRADE_FROM = 5


@kernel
def _show_weight(known, shown_total, cleared, n, base, most):
    """How likely the impostor takes a seat to hold a colour it showed, against one it never let
    go, from the seats it has seen turned face up by a vote: each that had shown its own colour
    is one for an honest table, each that had shown only others one against, with one against
    to start; at least ``base`` (a table that hides) and at most ``most``. A clearer is no
    witness: with a hand of its own colour it had nothing else to show."""
    honest, other = 0, 1
    for r in range(1, n):
        k = _known_colour(known, r, n)
        if k < 0 or cleared[r] > 0.5:
            continue
        shows = 0.0
        for c in range(n):
            shows += shown_total[r * n + c]
        if shown_total[r * n + k] > 0:
            honest += 1
        elif shows > 0:
            other += 1
    # a show of its own colour against one of the n - 2 others a seat may hold
    return min(max(base, honest * (n - 2) / other), most)


# What a crew that votes in seating order (the chain) means for the impostor's next decision.
NO_CHAIN, CHAIN_PASSES, CHAIN_NAMES = 0, 1, 2


@kernel
def _vote_chain(obs, off, n, phase, revealed, not_impostor, voted):
    """Whether the crew has voted in seating order at every end of turn this round, and if so
    whether it names the impostor (the observer) before its next decision. Such a crew votes
    for a seat that took its turn without voting (only the impostor cannot vote) or else for
    the nearest seat clockwise that may be the impostor, so the next seat to end a turn names
    it when it sits first in that order: a guess then is worth more than any wait. Until then
    each of its wrong votes turns two colours face up for nothing: the guess can wait."""
    first = np.argmax(obs[off[FIRST_PLAYER] : off[FIRST_PLAYER] + n])
    owner = np.argmax(obs[off[TURN_OWNER] : off[TURN_OWNER] + n])
    if phase == SABOTAGE_WINDOW:
        ended, after = (owner - first) % n + 1, (owner + 1) % n  # the owner has acted
    elif phase == REPLY:
        ended, after = (owner - first) % n, owner
    elif owner == 0 and (phase == TRADE or phase == END_OF_TURN):
        ended, after = (owner - first) % n + 1, 1
    else:
        return NO_CHAIN
    ballots = off[VOTED_FOR]
    votes = 0
    for i in range(ended):
        r = (first + i) % n
        if r == 0:
            continue
        if voted[r] < 0.5:
            return NO_CHAIN  # a crewmate ended its turn without a vote: this crew waits
        for d in range(1, n):  # its ballot named the nearest seat clockwise still in doubt
            t = (r + d) % n
            if obs[ballots + r * n + t] > 0.5:
                break
            if t == 0 or (revealed[t] < 0.5 and not_impostor[t] < 0.5):
                return NO_CHAIN
        votes += 1
    if votes == 0 or after == 0 or voted[after] > 0.5:
        return NO_CHAIN
    if (0 - first) % n < ended:
        return CHAIN_NAMES  # the impostor took its turn this round without voting
    for d in range(1, n):
        r = (after + d) % n
        if r == 0:
            return CHAIN_NAMES
        if revealed[r] < 0.5 and not_impostor[r] < 0.5:
            return CHAIN_PASSES
    return NO_CHAIN


@kernel
def decide(obs, mask, off, n):
    return decide_with(obs, mask, off, n, SETTINGS)


@kernel
def decide_with(obs, mask, off, n, settings):
    """``decide`` under ``settings`` (``SETTINGS``' layout): ``_decide``'s choice, unless it
    would trade or give away the seat's last card of its decoy (from the table size the settings
    say), which it keeps: a seat that must show a new colour rules one more out of its own."""
    choice = _decide(obs, mask, off, n, settings)
    impostor = obs[off[IS_IMPOSTOR]] > 0.5
    if n < settings[IMPOSTOR_KEEP_FROM if impostor else CREW_KEEP_FROM]:
        return choice
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    if phase != TRADE and phase != REPLY:
        return choice
    own = np.argmax(obs[off[OWN_COLOUR] : off[OWN_COLOUR] + n])
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    hand = obs[off[HAND] : off[HAND] + n]
    decoy = decoy_colour(hand, obs[off[SHOWN_TOTAL] : off[SHOWN_TOTAL] + n], n, own, imp)
    if decoy < 0 or hand[decoy] * HAND_SIZE > 1.5:  # more than one: it may part with one
        return choice
    near_clear = hand[own] * HAND_SIZE > settings[CREW_LET_GO_AT] - 0.5
    if not impostor and n < LET_GO_BELOW and near_clear:
        return choice  # near a clear, the decoy goes
    if phase == TRADE and A.OFFER + decoy * A.O <= choice < A.OFFER + (decoy + 1) * A.O:
        if not impostor and settings[CREW_TRADES_ON] > 0.5:
            return _trade_on(obs, mask, off, n, settings, own, imp, hand, decoy)
        return A.NO_TRADE
    if phase == REPLY and choice == A.GIVE + decoy:
        for c in range(n):
            if c != decoy and c != own and c != imp and mask[A.GIVE + c]:
                return A.GIVE + c
        for c in (imp, own):
            if mask[A.GIVE + c]:
                return A.GIVE + c
    return choice


@kernel
def _crew_odds(obs, off, n, settings, odds):
    """The crew's count (``counting.impostor_odds``) under its prior; a card of the impostor's
    colour given to it is read as no word about the giver unless ``CREW_IMP_GIFTS``: the
    impostor may give one to look like a crewmate."""
    if settings[CREW_IMP_GIFTS] > 0.5:
        impostor_odds(obs, off, n, settings[CREW_PRIOR : CREW_PRIOR + 4], odds)
        return
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    view = obs.copy()
    for r in range(n):
        view[off[RECEIVED_FROM] + r * n + imp] = 0.0
    impostor_odds(view, off, n, settings[CREW_PRIOR : CREW_PRIOR + 4], odds)


@kernel
def _trade_on(obs, mask, off, n, settings, own, imp, hand, decoy):
    """A crewmate that keeps its last decoy card still trades: another spare colour to the
    seat most likely to hold it, else a card of the impostor's colour to the seat least likely
    to be the impostor (with ``CREW_OWN_OUT``, else a card of its own colour to the seat most
    likely to be it); no trade only when it holds nothing else."""
    best, most = -1, 0.0
    for c in range(n):
        if c != own and c != imp and c != decoy and hand[c] > most:
            best, most = c, hand[c]
    known = obs[off[KNOWN_COLOUR] : off[KNOWN_COLOUR] + n * n]
    if best >= 0:
        r = _likely_holder(known, obs[off[SHOWN_TOTAL] : off[SHOWN_TOTAL] + n * n],
                           obs[off[RECEIVED_FROM] : off[RECEIVED_FROM] + n * n],
                           A.OFFER + best * A.O, mask, best, imp, n)
        return A.OFFER + best * A.O + r - 1 if r > 0 else A.NO_TRADE
    c = imp if hand[imp] > 0 else (own if settings[CREW_OWN_OUT] > 0.5 and hand[own] > 0 else -1)
    if c < 0:
        return A.NO_TRADE
    odds = np.zeros(n)
    _crew_odds(obs, off, n, settings, odds)
    pick, pick_odds = -1, 0.0
    for r in range(1, n):
        if not mask[A.OFFER + c * A.O + r - 1]:
            continue
        # the impostor's colour to the seat least likely to be it, the own to the most likely
        score = -odds[r] if c == imp else odds[r]
        if pick < 0 or score > pick_odds + 1e-9:
            pick, pick_odds = r, score
    return A.OFFER + c * A.O + pick - 1 if pick > 0 else A.NO_TRADE


@kernel
def _decide(obs, mask, off, n, settings):
    sure = settings[SURE_AT]
    own = np.argmax(obs[off[OWN_COLOUR] : off[OWN_COLOUR] + n])
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    impostor = obs[off[IS_IMPOSTOR]] > 0.5
    hand = obs[off[HAND] : off[HAND] + n]
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    final_round = obs[off[ROUND]] >= 1.0 - 1e-6
    revealed = obs[off[REVEALED] : off[REVEALED] + n]
    not_impostor = obs[off[NOT_IMPOSTOR] : off[NOT_IMPOSTOR] + n]
    voted = obs[off[VOTED] : off[VOTED] + n]
    cleared = obs[off[CLEARED] : off[CLEARED] + n]
    known = obs[off[KNOWN_COLOUR] : off[KNOWN_COLOUR] + n * n]
    shown_total = obs[off[SHOWN_TOTAL] : off[SHOWN_TOTAL] + n * n]
    received = obs[off[RECEIVED_FROM] : off[RECEIVED_FROM] + n * n]

    if impostor:
        unknown = _unknown_seats(known, n)
        if mask[A.KILL]:
            return A.KILL
        odds = np.zeros(n)
        prior = settings[IMPOSTOR_PRIOR : IMPOSTOR_PRIOR + 4].copy()
        prior[SHOWN] = _show_weight(known, shown_total, cleared, n, prior[SHOWN],
                                    settings[HONEST_AT])
        chance = impostor_counts(obs, off, n, prior, odds)
        chain = _vote_chain(obs, off, n, phase, revealed, not_impostor, voted)
        desperate = (_cornered(revealed, not_impostor, voted, n)
                     or (final_round and unknown <= 2) or chain == CHAIN_NAMES)
        # at an investigation it shows and waits (unless it must guess now): the round's shows
        # and ends of turn are still to come, and ``mono_impostor``, which did so, beat it at
        # 4-6 players
        patient = phase == INVESTIGATION
        if mask[A.SABOTAGE] and ((chance >= sure and chain != CHAIN_PASSES and not patient)
                                 or desperate):
            return A.SABOTAGE
        if phase == SABOTAGE_WINDOW:
            return A.NO_SABOTAGE
        if phase == SABOTAGE_GUESS:
            return A.GUESS + np.argmax(odds)  # one-hot where the colour is known
        if phase == INVESTIGATION:
            c = _show(hand, shown_total, n, imp, imp, settings[IMPOSTOR_DECOY] > 0.5)
            return A.SHOW + (c if c >= 0 else imp)
        # a card of its own colour, given while it holds one to three: the handshake a crew
        # that reads such a gift as a crewmate's would take it by (``handshake``)
        fake = n >= settings[IMPOSTOR_FAKES_FROM] and 0.5 < hand[imp] * HAND_SIZE < 3.5
        if phase == REPLY:
            if fake and mask[A.GIVE + imp]:
                return A.GIVE + imp
            c = _argmax_colour(hand, n, imp, imp)
            return A.GIVE + (c if c >= 0 else imp)
        if phase == TRADE:
            c = _argmax_colour(hand, n, imp, imp)
            best, best_score = -1, -1.0
            for r in range(1, n):
                score = shown_total[r * n + imp]
                if c >= 0 and mask[A.OFFER + c * A.O + r - 1] and score > best_score:
                    best, best_score = r, score
            if fake:
                for d in range(n - 1):  # the seat it would fish from, else the first it may
                    r = (best - 1 + d) % (n - 1) + 1 if best > 0 else d + 1
                    if mask[A.OFFER + imp * A.O + r - 1]:
                        return A.OFFER + imp * A.O + r - 1
            if best > 0 and (best_score > 0 or (n >= BLIND_TRADE_FROM and obs[off[ROUND]] >= 0.5)):
                return A.OFFER + c * A.O + best - 1
            return A.NO_TRADE
        return A.PASS

    # crewmate
    if phase == SABOTAGE_WINDOW:
        return A.NO_SABOTAGE
    if phase == REPLY:
        owner = np.argmax(obs[off[TURN_OWNER] : off[TURN_OWNER] + n])
        best, best_score = -1, 1e9
        for c in range(n):
            if hand[c] > 0 and c != own and c != imp:
                score = _evidence_against(shown_total, received, owner, c, n)
                if score < best_score:
                    best, best_score = c, score
        if best >= 0:
            return A.GIVE + best
    if phase == INVESTIGATION or phase == REPLY:
        if phase == INVESTIGATION:
            c = _show(hand, shown_total, n, own, imp, settings[CREW_DECOY] > 0.5)
        else:
            c = _argmax_colour(hand, n, own, imp)
        if c < 0:
            c = imp if hand[imp] > 0 else own
        return (A.SHOW if phase == INVESTIGATION else A.GIVE) + c
    if phase == TRADE:
        c = _argmax_colour(hand, n, own, imp)
        if c < 0:
            return A.NO_TRADE
        r = _likely_holder(known, shown_total, received, A.OFFER + c * A.O, mask, c, imp, n)
        return A.OFFER + c * A.O + r - 1 if r > 0 else A.NO_TRADE
    if phase == END_OF_TURN:
        odds = np.zeros(n)
        _crew_odds(obs, off, n, settings, odds)
        top, top_odds = -1, 0.0
        for r in range(1, n):
            if odds[r] > top_odds + 1e-6:  # a tie goes to the first clockwise
                top, top_odds = r, odds[r]
        if top > 0 and mask[A.CLEAR + top - 1]:
            return A.CLEAR + top - 1
        if top > 0 and mask[A.VOTE + top - 1] and (top_odds >= settings[VOTE_AT] or final_round):
            return A.VOTE + top - 1
        return A.PASS
    return A.PASS


@njit
def _decide_batch(obs, mask, off, n, out):
    # The same loop as the other game's: a loop given its decide as an argument is not cached
    # on disk by numba, and would recompile this player in every process.
    for b in range(obs.shape[0]):
        out[b] = decide(obs[b], mask[b], off, n)


class AmongUsHeuristic(ScriptedPolicy):
    """Plays whichever side its observation says it is on."""

    game = "amongus"
    decide_batch = _decide_batch
