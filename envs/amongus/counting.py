"""Counting the colours a seat cannot see, as a careful player does.

Every seat holds exactly one colour, so a colour another seat must hold is not this seat's:
judged alone, a seat that showed nothing could be any colour left, but counted with the others
it may be only one. A crewmate keeps its own colour's task cards (it needs them to clear) and
the impostor keeps its own out of sight, so a seat that showed or gave a colour is taken to be
``SHOWN_OWN`` times as likely to hold it as a colour it never let go, short of proof: a player
with nothing else to show shows its own. The odds of seat ``r`` holding colour ``c`` are then
the weighted count of the ways to deal every unknown seat one of the colours left with ``r``
holding ``c``, over the count of all ways (a matrix permanent, summed over subsets of colours a
seat at a time: at most 9 seats, 2^9 subsets).

Nothing here reads the game record: every count is made from one seat's raw observation
(``observe``), the pieces it saw and remembers, so a scripted player counts exactly what the
seat could. With ``assist=1`` the observation carries three of these counts itself (the
impostor's ``sabotage_chance`` and ``sabotage_target_odds``, a crewmate's ``impostor_odds`` at
its end of turn), computed by these same functions from the raw pieces; they are counts under
the prior above, not the seat's real odds against players who break it. A flat network reads a
permanent badly, and a sabotage is n - 1 guesses that must all be right. With m seats unknown,
a count is one or two tables over the 2^m subsets of colours (m <= 9).
"""

import numpy as np

from ..core.jit import kernel
from .pieces import IMPOSTOR_COLOUR, KNOWN_COLOUR, NOT_IMPOSTOR, RECEIVED_FROM, SABOTAGE_TARGET
from .pieces import SHOWN_TOTAL

SHOWN_OWN = 0.05

# A prior: how likely a seat holds a colour, against one it never let go, once it has shown
# that colour, given it to the observer, shown the impostor's colour, or shown that colour and
# no other, at least twice. ``assist=1`` counts under ``PRIOR``; a scripted player may count
# under its own (a show costs nothing, so a player may show its own colour on purpose, where
# giving it away costs a card).
SHOWN, GIVEN, SHOWN_IMPOSTORS, ONLY_SHOWN = 0, 1, 2, 3
PRIOR = np.array([SHOWN_OWN, SHOWN_OWN, SHOWN_OWN, SHOWN_OWN])


@kernel
def _known(obs, off, n, r):
    """The colour the observer knows seat ``r`` (relative) holds, -1 if it does not."""
    for c in range(n):
        if obs[off[KNOWN_COLOUR] + r * n + c] > 0.5:
            return c
    return -1


@kernel
def unknown_seats(obs, off, n, prior, seats, colours, weight):
    """From one seat's observation: fill ``seats`` (relative, clockwise from the observer: the
    order of a sabotage's guesses) with the seats whose colour it does not know, ``colours``
    with the colours that none of the seats it knows holds, and ``weight[i, q]``: how likely
    ``seats[i]`` holds ``colours[q]`` before counting, under ``prior`` (not at all for the
    impostor's colour once a look cleared the seat). Returns how many (as many seats as
    colours)."""
    taken = np.zeros(n, np.bool_)
    m = 0
    for r in range(n):
        c = _known(obs, off, n, r)
        if c >= 0:
            taken[c] = True
        else:
            seats[m] = r
            m += 1
    k = 0
    for c in range(n):
        if not taken[c]:
            colours[k] = c
            k += 1
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    once = 1.0  # one show, / max_rounds: the smallest count in shown_total
    for x in range(n * n):
        v = obs[off[SHOWN_TOTAL] + x]
        if 0 < v < once:
            once = v
    for i in range(m):
        r = seats[i]
        cleared = obs[off[NOT_IMPOSTOR] + r] > 0.5
        shows = 0.0
        for c in range(n):
            shows += obs[off[SHOWN_TOTAL] + r * n + c]
        for q in range(m):
            c = colours[q]
            if c == imp and cleared:
                weight[i, q] = 0.0  # a look cleared it
            else:
                w = 1.0
                shown = obs[off[SHOWN_TOTAL] + r * n + c]
                if shown > 0 and shown == shows and shows > 1.5 * once:
                    w = prior[ONLY_SHOWN]
                elif shown > 0:
                    w = min(w, prior[SHOWN_IMPOSTORS] if c == imp else prior[SHOWN])
                if obs[off[RECEIVED_FROM] + r * n + c] > 0:
                    w = min(w, prior[GIVEN])
                weight[i, q] = w
    return m


@kernel
def _size(used):
    """How many colours are in the subset ``used`` (at most 10 bits)."""
    used = used - ((used >> 1) & 0x155)
    used = (used & 0x333) + ((used >> 2) & 0x333)
    return (used + (used >> 4) + (used >> 8)) & 0xF


@kernel
def deals_after(weight, m, ways):
    """``ways[used]``: the weighted count of ways to give the last ``|used|`` of seats
    ``0 .. m - 1`` one colour each from the subset ``used`` of colours ``0 .. m - 1``."""
    ways[0] = 1.0
    for used in range(1, 1 << m):
        seat = m - _size(used)
        total = 0.0
        for q in range(m):
            if (used >> q) & 1:
                total += weight[seat, q] * ways[used ^ (1 << q)]
        ways[used] = total


@kernel
def first_seat_odds(weight, m, ways, q):
    """The odds of seat 0 holding colour ``q``: the weighted deals with it there and the seats
    after it holding the rest, over all deals. ``ways`` must hold ``deals_after(weight, m,
    ways)``."""
    full = (1 << m) - 1
    return weight[0, q] * ways[full ^ (1 << q)] / ways[full]


@kernel
def holder_odds(weight, m, q, ways, before, odds):
    """``odds[i]``: how likely seat ``i`` holds colour ``q``, for every seat at once: the deals
    in which the seats before it hold some colours, it holds ``q`` and the seats after it the
    rest, over all deals. ``ways`` must hold ``deals_after(weight, m, ways)``; ``before[used]``
    is filled with the deals of the first ``|used|`` seats from the colours ``used``."""
    full, bit = (1 << m) - 1, 1 << q
    before[0] = 1.0
    for used in range(1, 1 << m):
        seat = _size(used) - 1
        total = 0.0
        for c in range(m):
            if (used >> c) & 1:
                total += weight[seat, c] * before[used ^ (1 << c)]
        before[used] = total
    for i in range(m):
        odds[i] = 0.0
    for used in range(1 << m):
        if not used & bit:
            i = _size(used)
            odds[i] += before[used] * weight[i, q] * ways[full ^ used ^ bit]
    for i in range(m):
        odds[i] /= ways[full]


@kernel
def chance_all_right(weight, m, ways):
    """How often a sabotage now names every unknown seat right, guessing them in order, each
    as its likeliest colour given that the guesses before it were right. ``ways`` must hold
    ``deals_after(weight, m, ways)``: with the colours ``left`` after some right guesses,
    ``ways[left]`` counts the deals of exactly the seats still to guess, so one table serves
    every guess."""
    left = (1 << m) - 1
    chance = 1.0
    for first in range(m):
        best, best_ways = 0, -1.0
        for q in range(m):
            if (left >> q) & 1:
                w = weight[first, q] * ways[left ^ (1 << q)]
                if w > best_ways:
                    best, best_ways = q, w
        chance *= best_ways / ways[left]
        left ^= 1 << best
    return chance


@kernel
def impostor_counts(obs, off, n, prior, target_odds):
    """The impostor's counts from its observation: returns how often a sabotage now would guess
    every colour right; in a sabotage, ``target_odds[c]`` (zeroed by the caller) gets the odds
    of the seat being guessed holding colour ``c``: the seats between the impostor and it are
    face up (guessed right), so it is the first unknown seat, or known (one-hot)."""
    seats_and_colours = np.empty(2 * n, np.int64)  # two allocations, not four
    seats, colours = seats_and_colours[:n], seats_and_colours[n:]
    scratch = np.empty(n * n + (1 << n))
    weight = scratch[: n * n].reshape((n, n))
    ways = scratch[n * n :]
    m = unknown_seats(obs, off, n, prior, seats, colours, weight)
    deals_after(weight, m, ways)
    target = np.argmax(obs[off[SABOTAGE_TARGET] : off[SABOTAGE_TARGET] + n])
    if obs[off[SABOTAGE_TARGET] + target] > 0.5:
        if m > 0 and seats[0] == target:
            for q in range(m):
                target_odds[colours[q]] = first_seat_odds(weight, m, ways, q)
        else:
            target_odds[_known(obs, off, n, target)] = 1.0
    return chance_all_right(weight, m, ways)


@kernel
def impostor_odds(obs, off, n, prior, odds):
    """A crewmate's count from its observation: ``odds[r]`` (zeroed by the caller) gets how
    likely relative seat ``r`` is the impostor. Returns False, counting nothing, when it knows
    the impostor's card (a vote or a look that found it ended the game)."""
    seats_and_colours = np.empty(2 * n, np.int64)
    seats, colours = seats_and_colours[:n], seats_and_colours[n:]
    scratch = np.empty(n * n + 2 * (1 << n) + n)
    weight = scratch[: n * n].reshape((n, n))
    ways = scratch[n * n : n * n + (1 << n)]
    before = scratch[n * n + (1 << n) : n * n + 2 * (1 << n)]
    found = scratch[n * n + 2 * (1 << n) :]
    m = unknown_seats(obs, off, n, prior, seats, colours, weight)
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    q = 0
    while q < m and colours[q] != imp:
        q += 1
    if q == m:
        return False
    deals_after(weight, m, ways)
    holder_odds(weight, m, q, ways, before, found)
    for i in range(m):
        odds[seats[i]] = found[i]
    return True
