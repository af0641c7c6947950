"""Intervals for comparing policies: one rate, one mean, and a paired difference over deals.

Every comparison in the harness plays both policies on the same numbered deals, so a
difference is measured deal by deal: the luck of the deal cancels, and the interval on the
difference is much narrower than two separate intervals would suggest (or wider, where the
two policies do well on different deals). Two overlapping intervals say nothing about whether
one policy is better, and neither do two that barely touch; the paired interval does.

Which interval, and why (each is checked for coverage by ``evaluation.calibration``):

- A rate (0/1 outcomes): Wilson's score interval. Inside [0, 1], sound near 0 and 1 and at
  small n, where a bootstrap of rare outcomes undercovers.
- A difference of two rates on the same deals (0/1 outcomes paired): Tango's score interval
  for paired proportions. It reads only the deals where the two differ (one won, the other
  did not), and it never has zero width: two policies that agree on all N deals get an
  interval of about ±3.8/N around 0, not "+0.000 [+0.000, +0.000]".
- Any other mean over deals (mean positions, a mean over population members): the bootstrap
  over deals with Hesterberg's *expanded* percentile ends, which widen the plain percentile
  ends by the small-sample factor of Student's t. Its ends are still means of the data, so
  they stay inside the possible range.

A mean whose every deal gives the same value has no interval to give: its ends equal the mean,
and ``format_difference`` prints it as "the same on every deal", never as a zero-width
interval.
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np

DRAWS = "a draw is not a win"  # how a win rate scores draws: benchmark, exploit, eval, report
DRAWS_HALF = "a draw counts half"  # how a zero-sum score does: metagame, ratings
RESAMPLES = 2000  # bootstrap resamples: the ends move by ~0.2 of a point between seeds
Z95 = NormalDist().inv_cdf(0.975)  # 1.959964


def normal_quantile(p: float) -> float:
    return NormalDist().inv_cdf(p)


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Student's t quantile (p in (0.5, 1), any df >= 0.5) from its density integrated on a
    fine grid (no scipy in the default install); within 1e-5 of the exact value."""
    if not 0.5 < p < 1 or df < 0.5:
        raise ValueError(f"t_quantile needs 0.5 < p < 1 and df >= 0.5, got p={p}, df={df}")
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    reach = 8.0
    while True:
        x = np.linspace(0.0, reach, 40001)
        density = np.exp(log_c - (df + 1) / 2 * np.log1p(x * x / df))
        central = np.concatenate([[0.0], np.cumsum((density[1:] + density[:-1]) * np.diff(x))])
        if central[-1] >= 2 * p - 1:  # central[k] = P(|T| <= x[k])
            return float(np.interp(2 * p - 1, central, x))
        reach *= 4


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion: inside [0, 1], sound near 0 and 1."""
    if trials == 0:
        return (0.0, 1.0)
    lo, hi = wilson_arrays(np.asarray(successes, np.float64), np.asarray(trials, np.float64), z)
    return (float(lo), float(hi))


def wilson_arrays(successes: np.ndarray, trials: np.ndarray, z: float = Z95
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's interval for many proportions at once (trials > 0)."""
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * np.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # Wilson's interval always holds p; the min/max only undo rounding (1 - 1e-16 at p = 1)
    return (np.maximum(0.0, np.minimum(p, centre - half)),
            np.minimum(1.0, np.maximum(p, centre + half)))


def tango_arrays(only_a: np.ndarray, only_b: np.ndarray, n: np.ndarray, z: float = Z95
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Tango's (1998) score interval for p_a - p_b from paired 0/1 outcomes on ``n`` deals, of
    which ``only_a`` went to a alone and ``only_b`` to b alone; arrays, one interval each.

    For a candidate difference d, the discordant cells' maximum-likelihood probabilities under
    the constraint p(a alone) - p(b alone) = d give the score statistic
    Z(d) = (only_a - only_b - n d) / sqrt(n (2 q + d (1 - d))), q = p(b alone); the interval
    is every d with |Z(d)| <= z. Z falls as d rises, so each end is found by bisection."""
    b, c, n = (np.asarray(v, np.float64) for v in (only_a, only_b, n))

    def score(d):
        w = -b - c + (2 * n - b + c) * d
        q = (-w + np.sqrt(np.maximum(w * w + 8 * n * c * d * (1 - d), 0.0))) / (4 * n)
        var = n * np.maximum(2 * q + d * (1 - d), 0.0)
        num = b - c - n * d
        edge = np.where(num > 0, np.inf, np.where(num < 0, -np.inf, 0.0))
        return np.where(var > 0, num / np.sqrt(np.where(var > 0, var, 1.0)), edge)

    ends = []
    for target in (z, -z):  # the lower end solves Z = +z, the upper Z = -z
        lo, hi = np.full(b.shape, -1.0), np.full(b.shape, 1.0)
        for _ in range(60):
            mid = (lo + hi) / 2
            above = score(mid) > target
            lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
        ends.append((lo + hi) / 2)
    return ends[0], ends[1]


def _binary(x: np.ndarray) -> bool:
    return bool(np.all((x == 0) | (x == 1)))


def _resampled_means(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Means of ``values`` (deals along the first axis) over bootstrap resamples of the deals."""
    n = values.shape[0]
    rng = np.random.default_rng(seed)
    out = np.empty((resamples,) + values.shape[1:])
    chunk = max(1, (1 << 22) // max(1, n))  # resamples drawn at once: ~32 MB of indices
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        out[start:stop] = values[rng.integers(0, n, (stop - start, n))].mean(axis=1)
    return out


@functools.lru_cache(maxsize=4096)
def expanded_level(n: int, level: float = 0.95) -> float:
    """Hesterberg's expanded percentile: the tail probability whose normal quantile equals
    sqrt(n / (n - 1)) times Student's t quantile, so that the percentile ends widen as a t
    interval does at small n (at n = 50, 0.025 becomes 0.019; at 4,000, 0.0250)."""
    t = t_quantile(1 - (1 - level) / 2, n - 1)
    return 1.0 - NormalDist().cdf(math.sqrt(n / (n - 1)) * t)


def bootstrap_mean(values, resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95
                   ) -> tuple[float, float, float]:
    """``(mean, low, high)``: the bootstrap interval of a mean over deals at ``level`` (95%),
    with expanded percentile ends. Its ends are means of the data, so a rate's interval stays in
    [0, 1]. A level nearer 1 (a simultaneous interval) reads further into the tails: give it
    more resamples: 100 / (1 - level) keeps some fifty beyond each end, as 2,000 do at 95%."""
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1 or x.size < 2:
        raise ValueError(f"an interval needs a 1-D array of at least two deals, got shape "
                         f"{x.shape}")
    mean = float(x.mean())
    if np.all(x == x[0]):
        return mean, mean, mean
    tail = expanded_level(x.size, level)
    lo, hi = np.quantile(_resampled_means(x, resamples, seed), [tail, 1 - tail])
    return mean, float(min(lo, mean)), float(max(hi, mean))


def mean_interval(values, resamples: int = RESAMPLES, seed: int = 0
                  ) -> tuple[float, float, float]:
    """``(mean, low, high)`` over deals: Wilson's interval for 0/1 outcomes, else the
    bootstrap's (``bootstrap_mean``)."""
    x = np.asarray(values, dtype=np.float64)
    if x.ndim == 1 and x.size >= 2 and _binary(x):
        return (float(x.mean()), *wilson_interval(int(x.sum()), x.size))
    return bootstrap_mean(x, resamples, seed)


def paired_difference(a, b, resamples: int = RESAMPLES, seed: int = 0
                      ) -> tuple[float, float, float]:
    """``(mean(a - b), low, high)`` for two policies' outcomes on the same deals (``a[i]`` and
    ``b[i]`` from deal i): Tango's paired score interval when both are 0/1 outcomes, else the
    bootstrap over deals, each resample keeping a deal's pair together."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1 or a.size < 2:
        raise ValueError(f"paired_difference needs two 1-D arrays over the same deals (at "
                         f"least two), got shapes {a.shape} and {b.shape}")
    if _binary(a) and _binary(b):
        lo, hi = tango_arrays(np.sum(a > b), np.sum(a < b), a.size)
        return float(np.mean(a - b)), float(lo), float(hi)
    return bootstrap_mean(a - b, resamples, seed)


def best_member_difference(a, members: list, level: float = 0.95
                           ) -> tuple[float, float, float]:
    """``(mean(a) - max over members of mean(member), low, high)`` from 0/1 outcomes on the same
    deals, with a simultaneous interval: each member's paired difference at level
    1 - (1 - level) / K (Bonferroni over the K members), and the ends are the smallest of
    their ends. a - max(m) is at most every a - m_k, and equals the smallest of them, so the
    interval holds it whenever every member's interval holds its own difference: the best
    member is not picked on the same deals that judge it, since no member is picked."""
    if not members:
        raise ValueError("best_member_difference needs at least one member")
    a = np.asarray(a, np.float64)
    m = np.asarray(members, np.float64)  # [members, deals]
    if m.shape[1:] != a.shape or not (_binary(a) and _binary(m)):
        raise ValueError("best_member_difference needs 0/1 outcomes on the same deals")
    lo, hi = best_member_arrays(np.sum(a > m, axis=1), np.sum(a < m, axis=1), a.size, level)
    return float(a.mean() - m.mean(axis=1).max()), float(lo), float(hi)


def best_member_arrays(only_a: np.ndarray, only_members: np.ndarray, n, level: float = 0.95
                       ) -> tuple[np.ndarray, np.ndarray]:
    """``best_member_difference``'s ends from the discordant counts, members on the last axis
    (``only_a[..., k]``: deals a won and member k did not)."""
    only_a = np.asarray(only_a, np.float64)
    z = normal_quantile(1 - (1 - level) / (2 * only_a.shape[-1]))
    lo, hi = tango_arrays(only_a, only_members, np.broadcast_to(n, only_a.shape), z)
    return lo.min(axis=-1), hi.min(axis=-1)


# -- across training seeds (the sweep) ---------------------------------------------------

def iqm(x: np.ndarray, axis: int = -1) -> np.ndarray | float:
    """The interquartile mean: the mean of the middle half (scipy's ``trim_mean(x, 0.25)``),
    along ``axis``."""
    x = np.sort(np.asarray(x, np.float64), axis=axis)
    size = x.shape[axis]
    cut = int(0.25 * size)
    out = np.take(x, np.arange(cut, size - cut), axis=axis).mean(axis=axis)
    return float(out) if np.ndim(out) == 0 else out


def common_deal_variance(per_deal: np.ndarray) -> float:
    """The variance that every seed's mean shares because all seeds are scored on the same deals
    (and against the same heuristic games): the mean covariance, over deals, of two different
    seeds' per-deal outcomes, over the number of deals; per scoring seed, averaged over them.
    ``per_deal``: [seeds, scoring seeds, deals]. A negative estimate counts as 0."""
    seeds, scoring, deals = per_deal.shape
    total = 0.0
    for j in range(scoring):
        cov = np.cov(per_deal[:, j, :])  # [seeds, seeds] over deals
        pairs = (cov.sum() - np.trace(cov)) / (seeds * (seeds - 1))
        total += pairs / deals
    return max(0.0, total / scoring ** 2)


def seed_interval(per_seed: np.ndarray, per_deal: np.ndarray | None, seed: int = 0,
                  resamples: int = RESAMPLES) -> tuple[list[float] | None, str]:
    """The 95% interval of the IQM over training seeds of a per-seed score, and what kind of
    interval it is.

    Two sources of noise: the seeds (each trains a different policy), and the deals, which
    every seed shares (all seeds play the same scoring deals, against the same heuristic
    games), so their luck moves every seed alike and no spread between seeds shows it. With
    every seed's per-deal outcomes (``per_deal``, [seeds, scoring seeds, deals]): the seeds'
    part is the bootstrap variance of the IQM over seeds, scaled by seeds / (seeds - 1) as a
    sample variance is; the shared part is ``common_deal_variance``; the interval is the IQM
    plus or minus Student's t times the root of their sum, with Satterthwaite's degrees of
    freedom (seeds - 1 when the seeds' part dominates, more as the shared part grows).
    Resampling deals and seeds together instead counts each seed's own deal noise twice (it is
    already in the seeds' spread): 99.9% coverage in our simulation. The percentile bootstrap
    over seeds alone covered 76% at 3 seeds and 90% at 5 in the audit's; this one covers about
    95% from 3 seeds up (``python -m evaluation.calibration``).
    Without per-deal outcomes (a sweep scored before they were stored): the range of the
    seeds, which is not a 95% interval (at 5 seeds it covers at most 94%, at 3 at most 75%).
    One seed has no interval."""
    per_seed = np.asarray(per_seed, np.float64)
    seeds = len(per_seed)
    if seeds < 2:
        return None, "one seed: no interval"
    if per_deal is None:
        return [float(np.min(per_seed)), float(np.max(per_seed))], \
            "the range of the seeds, not a 95% interval (no per-deal outcomes stored)"
    rng = np.random.default_rng(seed)
    boot = iqm(per_seed[rng.integers(0, seeds, (resamples, seeds))], axis=1)
    between = float(np.var(boot, ddof=1)) * seeds / (seeds - 1)
    common = common_deal_variance(np.asarray(per_deal, np.float64))
    total = between + common
    centre = iqm(per_seed)
    if total == 0:
        return [centre, centre], "95%: every seed and deal alike"
    df = (seeds - 1) * total ** 2 / between ** 2 if between > 0 else 1e6
    half = t_quantile(0.975, min(df, 1e6)) * math.sqrt(total)
    return [centre - half, centre + half], \
        "95%: t over seeds, plus the deal noise the seeds share"


def format_difference(d: tuple[float, float, float], digits: int = 3) -> str:
    """``+0.273 [+0.255, +0.289]``; a difference with no spread at all (every deal gave the
    same difference) reads ``+0.000 (the same on every deal)``."""
    mean, lo, hi = (x + 0.0 for x in d)  # + 0.0: no "-0.000"
    if lo == hi:
        return f"{mean:+.{digits}f} (the same on every deal)"
    return f"{mean:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"
