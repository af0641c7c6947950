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

The impostor's observation carries what a sabotage needs of them (``observe``): how often one
now would guess every colour right, and the odds of the seat being guessed. A crewmate's, at
its end of turn, where it may vote or look, carries how likely each seat is the impostor. A
flat network reads a permanent badly, and a sabotage is n - 1 guesses that must all be right.
Only those observations pay for the count: with m seats unknown, one or two tables over the
2^m subsets of colours (m <= 9).
"""

import numpy as np

from ..core.jit import kernel

SHOWN_OWN = 0.05


@kernel
def unknown_seats(s, seat, seats, colours, weight):
    """Fill ``seats`` (clockwise from ``seat``, the order of a sabotage's guesses) with the
    seats whose colour ``seat`` does not know, ``colours`` with the colours that none of the
    seats it knows holds, and ``weight[i, q]``: how likely ``seats[i]`` holds ``colours[q]``
    before counting (not at all for the impostor's colour once a look cleared the seat).
    Returns how many (as many seats as colours)."""
    n = s["num_players"]
    colour, revealed, looked = s["colour"], s["revealed"], s["looked"]
    shown_total, given = s["shown_total"], s["given"]
    taken = np.zeros(n, np.bool_)
    m = 0
    for o in range(n):
        j = (seat + o) % n
        if j == seat or revealed[j] or looked[seat, j]:
            taken[colour[j]] = True
        else:
            seats[m] = j
            m += 1
    k = 0
    for c in range(n):
        if not taken[c]:
            colours[k] = c
            k += 1
    imp, cleared = s["impostor_colour"], s["not_impostor"]
    for i in range(m):
        j = seats[i]
        for q in range(m):
            c = colours[q]
            if c == imp and cleared[j]:
                weight[i, q] = 0.0  # a look cleared it
            else:
                weight[i, q] = SHOWN_OWN if shown_total[j, c] + given[j, seat, c] > 0 else 1.0
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
