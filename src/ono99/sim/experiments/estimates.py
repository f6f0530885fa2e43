"""The numbers the experiments report: estimates with 95% intervals, distributions, and
their JSON-ready form.

Wilson intervals for proportions, Student's t for means and for paired differences (two rule
sets played on the same seeds). Below ``MIN_GAMES`` observations a difference is not stated
at all: the reports say "too few games to tell"."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from ..stats import mean_interval, wilson_interval

# Fewer paired games than this tell nothing a reader should act on: with one game, a rule
# that turned a loss into a win read as a change of +100 pp [+100, +100].
MIN_GAMES = 30


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% interval, from ``n`` observations."""

    value: float
    low: float
    high: float
    n: int

    def shifted(self, by: float) -> Estimate:
        return Estimate(self.value + by, self.low + by, self.high + by, self.n)

    def excludes(self, x: float) -> bool:
        return x < self.low or x > self.high

    def too_few(self) -> bool:
        """Measured on fewer than ``MIN_GAMES`` observations: too few to tell a change."""
        return self.n < MIN_GAMES


def proportion(successes: float, trials: int) -> Estimate:
    """A proportion with its Wilson interval; 0 trials give NaN with the interval [0, 1]."""
    if trials <= 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    p = successes / trials
    low, high = wilson_interval(successes, trials)
    # Wilson bounds sit on the estimate at 0 and 1 only up to rounding.
    return Estimate(p, min(low, p), max(high, p), trials)


def mean_of(values: Sequence[float], bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean with its interval; ``bounds``, where the values cannot go beyond them, keep the
    interval inside (a single value's unbounded interval becomes the whole range)."""
    mean, low, high = mean_interval(list(values))
    if bounds is not None and not math.isnan(mean):
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(mean, low, high, len(values))


def paired_difference(
    a: Sequence[float], b: Sequence[float], bounds: tuple[float, float] | None = None
) -> Estimate:
    """The mean of ``a[i] - b[i]`` with its interval: the difference of two means measured
    on the same seeds, which cancels what the seeds share."""
    return mean_of([x - y for x, y in zip(a, b, strict=True)], bounds)


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom (closed forms for
    whole ``dof``, enough for testing that n seats win equally often)."""
    if dof < 1:
        return math.nan
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(x) * math.exp(-half) * math.sqrt(2 / math.pi)
    for i in range(1, (dof + 1) // 2):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, total)


@dataclass(frozen=True)
class Distribution:
    """Values per game: their counts, mean (with interval) and quantiles."""

    counts: tuple[tuple[int, int], ...]  # (value, games), by value
    mean: Estimate
    median: float
    p10: float
    p90: float
    low: int
    high: int

    @staticmethod
    def of(counter: Counter[int]) -> Distribution:
        values = sorted(counter.elements())
        if not values:
            nan = math.nan
            return Distribution((), Estimate(nan, nan, nan, 0), nan, nan, nan, 0, 0)
        return Distribution(
            tuple(sorted(counter.items())),
            mean_of(values),
            _quantile(values, 0.5),
            _quantile(values, 0.1),
            _quantile(values, 0.9),
            values[0],
            values[-1],
        )


def _quantile(values: Sequence[int], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = (len(values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def to_plain(value: Any) -> Any:
    """Dataclasses, tuples and dicts as JSON-ready data (NaN becomes None)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None  # NaN, or a single value's unbounded interval
    return value
