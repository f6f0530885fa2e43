from __future__ import annotations

import math

from ono99.sim.stats import mean_interval, t95, wilson_interval


def test_wilson_interval_known_value() -> None:
    # 50 of 100: the Wilson 95% interval is about 0.4038 to 0.5962.
    low, high = wilson_interval(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)


def test_wilson_interval_edges_stay_in_range() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert math.isclose(wilson_interval(10, 10)[1], 1.0)
    assert 0 < wilson_interval(0, 10)[1] < 0.35
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low < 2.5 < high
    assert math.isclose(high - mean, 3.182 * math.sqrt((5 / 3) / 4))  # Student's t, 3 df


def test_intervals_of_a_few_values_are_honestly_wide() -> None:
    """Student's t, not the normal quantile: 1.96 made 4 values look 1.6 times as sure."""
    assert mean_interval([2.0]) == (2.0, -math.inf, math.inf)  # one value: no spread known
    assert [round(t95(df), 3) for df in (1, 2, 10, 30)] == [12.706, 4.303, 2.228, 2.042]
    assert 1.96 < t95(100) < 1.99 and math.isclose(t95(31), 2.040, abs_tol=1e-3)
    assert math.isclose(t95(120), 1.980, abs_tol=1e-3)
