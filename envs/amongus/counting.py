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

The observation carries these odds (``observe``): a flat network reads a permanent badly, and
the impostor's sabotage is n - 1 guesses that must all be right.
"""

import numpy as np

from ..core.jit import kernel

SHOWN_OWN = 0.05


@kernel
def unknown_seats(s, seat, seats, colours, weight):
    """Fill ``seats`` (clockwise from ``seat``, the order of a sabotage's guesses) with the
    seats whose colour ``seat`` does not know, ``colours`` with the colours that none of the
    seats it knows holds, and ``weight[i, q]``: how likely ``seats[i]`` holds ``colours[q]``
    before counting. Returns how many (as many seats as colours)."""
    n = s["num_players"]
    taken = np.zeros(n, np.bool_)
    m = 0
    for o in range(n):
        j = (seat + o) % n
        if j == seat or s["revealed"][j] or s["looked"][seat, j]:
            taken[s["colour"][j]] = True
        else:
            seats[m] = j
            m += 1
    k = 0
    for c in range(n):
        if not taken[c]:
            colours[k] = c
            k += 1
    for i in range(m):
        j = seats[i]
        for q in range(m):
            c = colours[q]
            let_go = s["shown_total"][j, c] + s["given"][j, seat, c]
            weight[i, q] = SHOWN_OWN if let_go > 0 else 1.0
    return m


@kernel
def _size(used):
    size = 0
    while used:
        size += used & 1
        used >>= 1
    return size


@kernel
def deals_after(weight, m, cols, ways):
    """``ways[used]``: the weighted count of ways to give the last ``|used|`` of seats
    ``0 .. m - 1`` one colour each from the subset ``used`` of colours ``0 .. cols - 1``."""
    ways[0] = 1.0
    for used in range(1, 1 << cols):
        seat = m - _size(used)
        total = 0.0
        for q in range(cols):
            if (used >> q) & 1:
                total += weight[seat, q] * ways[used ^ (1 << q)]
        ways[used] = total


@kernel
def colour_odds(weight, m, ways_before, ways_after, odds):
    """``odds[i, q]``: the chance that seat ``i`` holds colour ``q``, every way counted:
    the ways to deal the seats before it, times its own weight, times the ways to deal the
    seats after it, over every way."""
    full = (1 << m) - 1
    deals_after(weight, m, m, ways_after)
    ways_before[0] = 1.0  # ways to give the first |used| seats the colours in `used`
    for used in range(1, full + 1):
        seat = _size(used) - 1
        total = 0.0
        for q in range(m):
            if (used >> q) & 1:
                total += ways_before[used ^ (1 << q)] * weight[seat, q]
        ways_before[used] = total
    odds[:m, :m] = 0.0
    for used in range(full + 1):
        seat = _size(used)
        if seat == m:
            continue
        for q in range(m):
            if not (used >> q) & 1:
                after = ways_after[full ^ used ^ (1 << q)]
                odds[seat, q] += ways_before[used] * weight[seat, q] * after
    odds[:m, :m] /= ways_after[full]


@kernel
def chance_all_right(weight, m, ways):
    """How often a sabotage now names every unknown seat right, guessing them in order, each
    as its likeliest colour given that the guesses before it were right. ``weight`` is
    changed (each guessed colour is struck out of the rows after it)."""
    chance = 1.0
    for first in range(m):
        cols = m - first  # the colours still free, packed to the front of each row
        deals_after(weight, m, cols, ways)
        full = (1 << cols) - 1
        best, best_ways = 0, -1.0
        for q in range(cols):
            w = weight[first, q] * ways[full ^ (1 << q)]
            if w > best_ways:
                best, best_ways = q, w
        chance *= best_ways / ways[full]
        for i in range(first + 1, m):
            for q in range(best, cols - 1):
                weight[i, q] = weight[i, q + 1]
    return chance
