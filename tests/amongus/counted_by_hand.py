"""The colour odds of ``envs/amongus/counting.py``, counted by listing every deal: the
reference its subset sums are checked against, from one observation's own pieces."""

from itertools import permutations

import numpy as np

from envs.amongus.counting import SHOWN_OWN


def deals(o: dict, n: int) -> tuple[list[int], list[tuple[tuple[int, ...], float]]]:
    """The seats (relative) whose colour the observer does not know, and every way to deal
    them the colours left, with its weight."""
    known = o["known_colour"].reshape(n, n)
    let_go = (o["shown_total"] + o["received_from"]).reshape(n, n) > 0
    impostor_colour = int(o["impostor_colour"].argmax())
    seats = [r for r in range(n) if not known[r].any()]
    left = [c for c in range(n) if not known[:, c].any()]
    ways = []
    for deal in permutations(left):
        weight = 1.0
        for r, c in zip(seats, deal):
            if c == impostor_colour and o["not_impostor"][r]:
                weight = 0.0  # a look cleared it
            weight *= SHOWN_OWN if let_go[r, c] else 1.0
        ways.append((deal, weight))
    return seats, ways


def colour_odds(o: dict, n: int) -> np.ndarray:
    odds = o["known_colour"].reshape(n, n).astype(float).copy()
    seats, ways = deals(o, n)
    total = sum(w for _, w in ways)
    for deal, w in ways:
        for r, c in zip(seats, deal):
            odds[r, c] += w / total
    return odds


def impostor_odds(o: dict, n: int) -> np.ndarray:
    """How likely each seat is the impostor: the odds of holding its colour."""
    return colour_odds(o, n)[:, int(o["impostor_colour"].argmax())]


def sabotage_chance(o: dict, n: int) -> float:
    """Guessing the unknown seats clockwise, each as its likeliest colour among the deals that
    agree with the guesses before it."""
    seats, ways = deals(o, n)
    chance = 1.0
    for i in range(len(seats)):
        total = sum(w for _, w in ways)
        by_colour: dict[int, float] = {}
        for deal, w in ways:
            by_colour[deal[i]] = by_colour.get(deal[i], 0.0) + w
        best = max(sorted(by_colour), key=lambda c: by_colour[c])
        chance *= by_colour[best] / total
        ways = [(deal, w) for deal, w in ways if deal[i] == best]
    return chance
