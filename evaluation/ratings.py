"""Ratings that rank fixed policies: batch maximum-likelihood fits over every stored game.

An online rating system (OpenSkill, Elo) reads games one at a time, so its numbers depend on
the order the games were stored in and its uncertainty stops shrinking at a floor set by its
update rule. A fixed policy has one strength, so we fit it once over all games:

- **Team games** (the Menace, Among Us): Bradley-Terry *per role*. Each (policy, role) has a
  strength ``s``; the first team's policy ``a`` beats the second team's policy ``b`` with
  probability ``sigmoid(s[a, first] - s[b, second])``. A crew rating and a menace rating sit on
  one scale: equal numbers mean an even game. The **overall** view gives each policy one
  strength ``t`` and each role an advantage ``d`` (the game's side bias):
  ``P = sigmoid(t[a] + d[first] - t[b] - d[second])``; a policy's games against itself inform
  only ``d``.
- **Free-for-all** (MANIACAL): Plackett-Luce over each game's finishing order, seats of one
  policy sharing its strength; tied seats are taken as chosen together from the rest
  (Breslow's approximation).

Draws count half a win to each side (a zero-sum score; the harness's win rates count a draw
as not won, and docs/evaluation.md says which tool uses which). Every fit sees the games only
through counts summed per pairing or per finishing pattern, so the storage order cannot
matter. A weak prior (one virtual draw against an average opponent) keeps the overall view's
unbeaten or winless policies finite.

A (policy, role) that never won a game (or never lost one) has no finite strength: any number
the prior gave it would fall (or rise) without limit as games are added, and through the
centring drag every other per-role rating with it. It is left out of the per-role fit and its
centring, and shown as a one-sided 95% bound instead (``Rated.lo`` is -inf: "at most", or
``hi`` is +inf: "at least"): the strength at which its record, against the others' fitted
strengths, has probability 0.05. (Where one side never won a single game, no rating is finite
and all keep the prior's numbers.)

Intervals: a bootstrap over *deals* (game numbers; every pairing plays the same deals, so
resampling deals keeps the pairing), refitted each time; the 2.5% and 97.5% quantiles. Their
width falls about as ``1/sqrt(games)``. The bootstrap's own generator is seeded, so a table is
a function of the stored games alone.

Strengths are shown on an Elo-like scale: ``1500 + 400 * log10(e) * s``, centred so the mean
policy (per role: the mean finite (policy, role)) sits at 1500; 400 points are 10:1 odds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ELO = 400.0 / np.log(10.0)
CENTRE = 1500.0
PRIOR = 0.5  # a virtual draw (half a win, half a loss) against an average opponent
RESAMPLES = 200


@dataclass
class Rated:
    """A strength on the display scale with its bootstrap 95% interval; or a one-sided bound,
    ``lo`` = -inf (at most ``rating``) or ``hi`` = +inf (at least ``rating``)."""

    rating: float
    lo: float
    hi: float

    def as_list(self) -> list[float]:
        return [self.rating, self.lo, self.hi]


def _bradley_terry(design: np.ndarray, wins: np.ndarray, games: np.ndarray,
                   prior: np.ndarray) -> np.ndarray:
    """Coefficients maximising the likelihood of ``wins`` in ``games`` per row, each row's
    edge being ``design @ coefficients`` (+1 for the first side's strengths, -1 for the
    second's). Coefficients marked in ``prior`` also play the virtual draw against a zero
    strength; Newton's method on a concave objective."""
    beta = np.zeros(design.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        q = 1.0 / (1.0 + np.exp(-beta))
        grad = design.T @ (wins - games * p) + prior * PRIOR * (1.0 - 2.0 * q)
        hess = (design.T * (games * p * (1 - p))) @ design
        hess[np.diag_indices_from(hess)] += prior * 2.0 * PRIOR * q * (1 - q) + 1e-9
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def _plackett_luce(chosen: np.ndarray, pool: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Strengths [L] from choice events: in event k, ``chosen[k, l]`` seats of policy l were
    chosen together from a pool holding ``pool[k, l]`` seats of each policy; ``weight[k]``
    repeats it. Hunter's minorise-maximise iteration, with the prior as a virtual pairwise draw
    against a strength-one average."""
    gamma = np.ones(pool.shape[1])
    won = weight @ chosen + PRIOR
    taken = chosen.sum(axis=1)
    for _ in range(2000):
        denom = pool @ gamma
        new = won / ((weight * taken / denom) @ pool + 2.0 * PRIOR / (gamma + 1.0))
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-10:
            gamma = new
            break
        gamma = new
    return np.log(gamma)


def _bootstrap(fit, deals: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray]:
    """(estimate, lo, hi) of ``fit(deal_weights)`` and its refits on deals drawn with
    replacement; ``deals`` is the sorted list of deal numbers the weights index."""
    estimate = fit(np.ones(len(deals)))
    rng = np.random.default_rng(seed)
    draws = np.array([fit(np.bincount(rng.integers(0, len(deals), len(deals)),
                                      minlength=len(deals)).astype(float))
                      for _ in range(RESAMPLES)])
    lo, hi = np.quantile(draws, [0.025, 0.975], axis=0)
    return estimate, np.minimum(lo, estimate), np.maximum(hi, estimate)


def _scale(s: np.ndarray, centre: float) -> np.ndarray:
    return CENTRE + ELO * (s - centre)


def _unbounded(design: np.ndarray, score: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Items [I] with no finite maximum-likelihood strength: every game lost (or every game
    won) against the rest, found again after each such item's games are set aside (an item
    whose only losses were to one of them is then unbeaten). ``score``/``count`` [pairings]:
    the first side's score and the games."""
    out = np.zeros(design.shape[1], dtype=bool)
    while True:
        kept = ~(np.abs(design[:, out]) > 0).any(axis=1)
        won = np.maximum(design, 0).T @ (score * kept) + np.maximum(-design, 0).T @ (
            (count - score) * kept)
        played = np.abs(design).T @ (count * kept)
        new = ~out & (played > 0) & ((won == 0) | (won == played))
        if not new.any():
            return out
        out |= new


def _bound(item: int, design: np.ndarray, score: np.ndarray, count: np.ndarray,
           strength: np.ndarray, finite: np.ndarray) -> Rated:
    """A one-sided 95% bound on an unbounded item's strength, given the finite items' fitted
    strengths: the strength at which its record (every game lost, or every game won, against
    them) has probability 0.05. Shown as "at most" (never won) or "at least" (never lost); it
    takes no part in the fit or in the centring, so it moves no other rating."""
    rows = (design[:, item] != 0) & (np.abs(design[:, finite]) > 0).any(axis=1)
    sign = design[rows, item]  # +1: the item is the first side
    others = (design[rows][:, finite] @ strength[finite]) * sign  # opponents' strength
    games = count[rows]
    won = (np.where(sign > 0, score[rows], games - score[rows])).sum()
    never_won = won == 0
    lo, hi = -50.0, 50.0  # P(record | s) is monotone in s: bisection on the log-probability
    for _ in range(100):
        mid = (lo + hi) / 2
        p = 1.0 / (1.0 + np.exp(-(mid + others)))  # its chance to win each game
        log_p = (games * np.log(1 - p if never_won else p)).sum()
        if (log_p > np.log(0.05)) == never_won:
            lo = mid
        else:
            hi = mid
    rating = float(_scale(np.array(lo), 0.0))
    return Rated(rating, -np.inf if never_won else rating, rating if never_won else np.inf)


def team_ratings(games: list[tuple[int, tuple[str, ...], int]], roles: list[str],
                 seed: int = 0) -> tuple[dict, dict, dict]:
    """Bradley-Terry fits of two-team games ``(deal, (first label, second label), winner)``
    (winner -1: a draw). Returns (per-role {(label, role): Rated}, overall {label: Rated},
    role advantage {role: float, display points})."""
    deals = np.array(sorted({d for d, _, _ in games}))
    at = {d: k for k, d in enumerate(deals)}
    pairs = sorted({sides for _, sides, _ in games})
    pair_at = {p: k for k, p in enumerate(pairs)}
    # wins of the first side and games, per (deal, pairing): order-free sums
    score = np.zeros((len(deals), len(pairs)))
    count = np.zeros((len(deals), len(pairs)))
    for deal, sides, winner in games:
        k = pair_at[sides]
        score[at[deal], k] += 0.5 if winner < 0 else float(winner == 0)
        count[at[deal], k] += 1
    items = sorted({(p[0], roles[0]) for p in pairs} | {(p[1], roles[1]) for p in pairs})
    item_at = {it: k for k, it in enumerate(items)}
    design = np.zeros((len(pairs), len(items)))
    for k, p in enumerate(pairs):
        design[k, item_at[p[0], roles[0]]] += 1
        design[k, item_at[p[1], roles[1]]] -= 1
    unbounded = _unbounded(design, score.sum(axis=0), count.sum(axis=0))
    if unbounded.all():  # one side never won a game: nothing is finite, keep the prior's numbers
        unbounded[:] = False
    finite = ~unbounded  # items with a finite maximum-likelihood strength
    kept = ~(np.abs(design[:, unbounded]) > 0).any(axis=1)  # pairings between finite items

    def per_role(w):
        return _bradley_terry(design[kept][:, finite], w @ score[:, kept], w @ count[:, kept],
                              np.ones(int(finite.sum())))

    by_role = {}
    if finite.any():
        s, lo, hi = _bootstrap(per_role, deals, seed)
        centre = float(np.mean(s))
        for k, it in enumerate(it for it, f in zip(items, finite) if f):
            by_role[it] = Rated(*(_scale(x, centre)[k] for x in (s, lo, hi)))
        strength = np.zeros(len(items))
        strength[finite] = s - centre
        for it in (it for it, u in zip(items, unbounded) if u):
            by_role[it] = _bound(item_at[it], design, score.sum(axis=0), count.sum(axis=0),
                                 strength, finite)

    # overall: one strength per policy and the first role's edge over the second (last
    # column, no prior); a policy against itself leaves only that edge
    labels = sorted({lab for p in pairs for lab in p})
    lab_at = {lab: k for k, lab in enumerate(labels)}
    n = len(labels)
    design = np.zeros((len(pairs), n + 1))
    for k, (a, b) in enumerate(pairs):
        design[k, lab_at[a]] += 1
        design[k, lab_at[b]] -= 1
        design[k, n] = 1
    policies = np.r_[np.ones(n), 0.0]

    def overall(w):
        return _bradley_terry(design, w @ score, w @ count, policies)

    t, tlo, thi = _bootstrap(overall, deals, seed)
    centre = float(np.mean(t[:n]))
    overall_rated = {lab: Rated(*(_scale(x, centre)[k] for x in (t, tlo, thi)))
                     for lab, k in lab_at.items()}
    advantage = {roles[0]: float(ELO * t[n] / 2), roles[1]: float(-ELO * t[n] / 2)}
    return by_role, overall_rated, advantage


def free_for_all_ratings(games: list[tuple[int, tuple[str, ...], list[float]]],
                         seed: int = 0) -> dict:
    """Plackett-Luce fit of free-for-all games ``(deal, seat labels, seat rewards)``:
    {label: Rated}."""
    deals = np.array(sorted({d for d, _, _ in games}))
    at = {d: k for k, d in enumerate(deals)}
    labels = sorted({lab for _, sides, _ in games for lab in sides})
    lab_at = {lab: k for k, lab in enumerate(labels)}
    patterns: dict[tuple, int] = {}
    rows: list[tuple[int, int]] = []  # (deal index, pattern index) per event
    for deal, sides, rewards in games:
        remaining = list(range(len(sides)))
        for level in sorted(set(rewards), reverse=True):
            chosen = tuple(sorted(lab_at[sides[s]] for s in remaining if rewards[s] == level))
            pool = tuple(sorted(lab_at[sides[s]] for s in remaining))
            if len(chosen) < len(pool):  # the last group is chosen from itself: no information
                key = (chosen, pool)
                rows.append((at[deal], patterns.setdefault(key, len(patterns))))
            remaining = [s for s in remaining if rewards[s] != level]
    # patterns in a canonical order, not that of first appearance: sums are then taken in one
    # order whatever the games' order
    rank = {k: r for r, k in enumerate(k for _, k in sorted(patterns.items()))}
    patterns = {key: rank[k] for key, k in patterns.items()}
    rows = [(d, rank[k]) for d, k in rows]
    chosen_m = np.zeros((len(patterns), len(labels)))
    pool_m = np.zeros((len(patterns), len(labels)))
    for (chosen, pool), k in patterns.items():
        np.add.at(chosen_m[k], list(chosen), 1)
        np.add.at(pool_m[k], list(pool), 1)
    event_deal = np.array([d for d, _ in rows], dtype=np.int64)
    event_pattern = np.array([p for _, p in rows], dtype=np.int64)

    def fit(w):
        weight = np.bincount(event_pattern, w[event_deal], len(patterns))
        return _plackett_luce(chosen_m, pool_m, weight)

    s, lo, hi = _bootstrap(fit, deals, seed)
    centre = float(np.mean(s))
    return {lab: Rated(*(_scale(x, centre)[k] for x in (s, lo, hi)))
            for lab, k in lab_at.items()}
