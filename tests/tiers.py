"""The two tiers of the suite (STYLE.md principle 14).

``./test --quick`` runs every test not marked ``slow``: each package's fast tests, a spread
sample of each sweep, one browser game and one server restart, in about a minute and a half
on two cores. ``./test``
runs everything, and is what CI runs. A test is slow when it costs seconds and a quicker test
already catches what a change usually breaks there; a sweep stays in the quick tier through a
sample of its cases (``sampled``), so a broken rule still fails the quick tier somewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

slow = pytest.mark.slow


def sampled(cases: Sequence[Any], quick: int, ids: Callable[[Any], str] | None = None) -> list[Any]:
    """``cases`` as ``pytest.param``s, all but ``quick`` of them, evenly spread from the first,
    marked ``slow``. A case is a tuple of the parametrized arguments (or a single value)."""
    step = max(1, len(cases) // max(1, quick))
    keep = set(range(0, len(cases), step)[:quick])
    out = []
    for i, case in enumerate(cases):
        values = case if isinstance(case, tuple) else (case,)
        marks = () if i in keep else (slow,)
        out.append(pytest.param(*values, marks=marks, id=ids(case) if ids else None))
    return out
