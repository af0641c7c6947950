"""The interval functions: which interval each kind of outcome gets, and what they never say.
Their coverage is checked in test_calibration.py."""

import numpy as np
import pytest

from evaluation import stats


def test_two_policies_that_agree_on_every_deal_still_get_an_interval_with_width():
    won = np.array([1, 0, 1, 1] * 100)
    mean, lo, hi = stats.paired_difference(won, won)
    assert mean == 0.0 and lo == pytest.approx(-hi)
    assert hi == pytest.approx(3.84 / (400 + 3.84), rel=0.01)  # Tango with no discordant deal


def test_a_rate_gets_wilsons_interval_and_any_other_mean_the_bootstrap():
    won = np.array([1.0] * 3 + [0.0] * 47)
    assert stats.mean_interval(won)[1:] == stats.wilson_interval(3, 50)
    places = np.array([1.0, 2.5, 4.0, 2.0] * 10)
    assert stats.mean_interval(places) == stats.bootstrap_mean(places)


def test_a_difference_with_no_spread_says_so_instead_of_a_zero_width_interval():
    assert stats.bootstrap_mean(np.full(10, 2.5)) == (2.5, 2.5, 2.5)
    assert stats.format_difference((0.0, 0.0, 0.0)) == "+0.000 (the same on every deal)"
    assert stats.format_difference((0.1, 0.05, 0.15)) == "+0.100 [+0.050, +0.150]"


def test_the_expanded_bootstrap_widens_at_small_n_as_students_t_does():
    assert stats.expanded_level(50) < 0.0215 < 0.0249 < stats.expanded_level(4000) <= 0.025
    assert stats.t_quantile(0.975, 4) == pytest.approx(2.776445, abs=1e-5)
    assert stats.t_quantile(0.975, 1) == pytest.approx(12.706205, abs=1e-4)


def test_the_best_members_interval_holds_every_member_at_once():
    rng = np.random.default_rng(0)
    a = (rng.random(400) < 0.6).astype(float)
    members = [(rng.random(400) < p).astype(float) for p in (0.5, 0.55, 0.4)]
    mean, lo, hi = stats.best_member_difference(a, members)
    assert mean == pytest.approx(a.mean() - max(m.mean() for m in members))
    alone = [stats.paired_difference(a, m) for m in members]
    assert lo < min(d[1] for d in alone) and hi < min(d[2] for d in alone) + 0.02
    assert lo <= mean <= hi


def test_the_sweeps_interval_counts_the_deals_all_seeds_share():
    rng = np.random.default_rng(1)
    heuristic = rng.random(2000) < 0.5  # the same games for every seed
    policy = np.array([rng.random(2000) < 0.6 for _ in range(5)])
    per_deal = (policy.astype(float) - heuristic)[:, None, :]
    gains = per_deal.mean(axis=(1, 2))
    shared, kind = stats.seed_interval(gains, per_deal)
    no_shared_noise = np.broadcast_to(gains[:, None, None], per_deal.shape)
    alone, _ = stats.seed_interval(gains, no_shared_noise)
    assert shared[1] - shared[0] > 1.25 * (alone[1] - alone[0])
    # the shared part is the heuristic's games: their variance over the deals
    assert stats.common_deal_variance(per_deal) == pytest.approx(heuristic.var() / 2000,
                                                                 rel=0.2)
    assert kind.startswith("95%")
    assert stats.seed_interval(gains, None) == (
        [gains.min(), gains.max()],
        "the range of the seeds, not a 95% interval (no per-deal outcomes stored)")
    assert stats.seed_interval(gains[:1], per_deal[:1]) == (None, "one seed: no interval")
