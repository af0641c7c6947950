"""Intervals for comparing policies: Wilson for one rate, paired bootstrap for a difference.

Every comparison in the harness plays both policies on the same numbered deals, so a
difference is measured deal by deal: the luck of the deal cancels, and the interval on the
difference is much narrower than two separate intervals would suggest (or wider, where the
two policies do well on different deals). Two overlapping Wilson intervals say nothing about
whether one policy is better; the paired interval does.
"""

from __future__ import annotations

import math

import numpy as np

RESAMPLES = 2000  # bootstrap resamples: the percentile ends move by ~0.1 of a point between seeds
Z95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion: inside [0, 1], sound near 0 and 1."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _resampled_means(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Means of ``values`` (deals along the first axis) over bootstrap resamples of the deals."""
    n = values.shape[0]
    rng = np.random.default_rng(seed)
    out = np.empty((resamples,) + values.shape[1:])
    for k in range(resamples):
        out[k] = values[rng.integers(0, n, n)].mean(axis=0)
    return out


def bootstrap_mean(values, resamples: int = RESAMPLES, seed: int = 0
                   ) -> tuple[float, float, float]:
    """``(mean, low, high)``: the percentile bootstrap 95% interval of a mean over deals. Its
    ends are means of the data, so a rate's interval stays inside [0, 1]."""
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"bootstrap_mean needs a non-empty 1-D array, got shape {x.shape}")
    means = _resampled_means(x, resamples, seed)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return float(x.mean()), float(lo), float(hi)


def paired_difference(a, b, resamples: int = RESAMPLES, seed: int = 0
                      ) -> tuple[float, float, float]:
    """``(mean(a - b), low, high)`` for two policies' outcomes on the same deals (``a[i]`` and
    ``b[i]`` from deal i): a bootstrap over deals, each resample keeping a deal's pair
    together."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise ValueError(f"paired_difference needs two 1-D arrays over the same deals, got "
                         f"shapes {a.shape} and {b.shape}")
    return bootstrap_mean(a - b, resamples, seed)


def format_difference(d: tuple[float, float, float], digits: int = 3) -> str:
    """``+0.273 [+0.255, +0.289]``."""
    mean, lo, hi = (x + 0.0 for x in d)  # + 0.0: no "-0.000"
    return f"{mean:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"
