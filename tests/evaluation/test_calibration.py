"""Every interval the project prints holds the truth as often as it says: simulated data with a
known truth, scored by the project's own interval functions (``evaluation.calibration``)."""

import pytest

from evaluation import calibration

DATASETS = 1000  # Monte Carlo se of a coverage near 95%: 0.0069; 93-97% is +-2.9 se


@pytest.mark.parametrize("name", list(calibration.SCENARIOS))
def test_a_nominal_95_percent_interval_covers_the_truth_95_percent_of_the_time(name):
    scenario, (low, high) = calibration.SCENARIOS[name]
    assert low <= scenario(DATASETS, 1) <= high
