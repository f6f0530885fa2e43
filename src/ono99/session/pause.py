"""The pause between the rounds of a tokens or points match (issue 25): each round ends on a
summary, and the next round's first turn (its timer, its bots) waits until every person
connected has said "continue", or ``Settings.round_pause`` seconds pass, whichever is first.

Kept in memory, as the ready marks between games are: after a restart play simply goes on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RoundPause:
    until: float | None = None  # when the pause ends by itself; None: no pause
    round: int = 0  # the round that ended
    continued: set[int] = field(default_factory=set)  # seats that said "continue"

    def active(self, now: float) -> bool:
        return self.until is not None and now < self.until

    def begin(self, round_: int, seconds: float, now: float) -> None:
        self.until, self.round, self.continued = now + seconds, round_, set()

    def end(self) -> None:
        self.until, self.continued = None, set()

    def waiting(self, people: Iterable[int]) -> list[int]:
        """The people still reading the summary (of ``people``, those connected)."""
        return [s for s in people if s not in self.continued]

    def to_json(self, people: Iterable[int], now: float) -> dict[str, Any] | None:
        if self.until is None:
            return None
        return {
            "round": self.round,
            "ms_left": max(0, round((self.until - now) * 1000)),
            "continued": sorted(self.continued),
            "waiting": self.waiting(people),
        }
