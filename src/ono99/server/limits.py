"""Counting and pacing what clients ask of one process: how many of something each key has
now (``Counts``), and the pace at which new tables are set up (``Pace``).

Why new tables are paced. Setting one up is the most a request costs the event loop (the
request itself, its first rows stored, then the websocket that starts it, the deal, the
first bot moves and the records they write: about 4 ms of one core, measured with py-spy on
the 2-core development VM, issue 26), and the per-address limits do not stop a hundred
addresses from each creating its five tables at once: 500 tables in four seconds kept the
loop half busy in bursts, and a move between two people at another table then waited
20-40 ms instead of 2-4 (``benchmarks/bench_abuse.py``, the many-address flood). Paced, the
same 500 tables are set up over 25 s at 20 a second, each request waiting its turn, and the
tables being played do not notice them. A family never meets the pace (a burst of tables
is taken at once); in a flood a new table waits a few seconds, and past ``most_wait`` the
request is refused as ``busy`` rather than left hanging.
"""

from __future__ import annotations


class Counts:
    """How many of something each key has now (this process): connections per address,
    spectators per table, tables waiting to be created per address."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def get(self, key: str) -> int:
        return self.counts.get(key, 0)

    def take(self, key: str, most: int = 0) -> bool:
        """One more for ``key``, unless it has ``most`` already (0: no limit)."""
        n = self.counts.get(key, 0)
        if 0 < most <= n:
            return False
        self.counts[key] = n + 1
        return True

    def give_back(self, key: str) -> None:
        n = self.counts.pop(key, 1) - 1
        if n > 0:
            self.counts[key] = n


class Pace:
    """Turns for new tables: ``rate`` a second and ``burst`` at once, first come first served
    (the generic cell rate algorithm: each turn is the next free slot on a schedule, so a
    request knows its wait at once and costs nothing while it waits). Time is passed in, as
    in ``RateLimiter``."""

    def __init__(self, rate: float, burst: int, most_wait: float) -> None:
        self.rate = rate
        self.slack = (max(1, burst) - 1) / rate if rate > 0 else 0.0
        self.most_wait = most_wait
        self.due = 0.0  # when the next turn is due if nobody comes early

    def turn(self, now: float) -> float | None:
        """Seconds to wait for this request's turn (0: now), or ``None`` if it would wait
        more than ``most_wait`` (it is refused, and takes no turn). Rate 0: no pace."""
        if self.rate <= 0:
            return 0.0
        due = max(self.due, now)
        wait = due - now - self.slack
        if wait > self.most_wait:
            return None
        self.due = due + 1 / self.rate
        return max(0.0, wait)
