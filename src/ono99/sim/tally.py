"""What a run of games adds up to, seat by seat: the one tally of ``ono99 simulate`` and of
tournaments (whose ``Results`` add per-bot figures and ratings on top).

A win shared by tied winners counts as a share (1/k each); each seat's win rate comes with its
95% Wilson interval (``stats.wilson_interval``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .stats import wilson_interval


@dataclass
class Tally:
    """Games, wins per seat (shares for tied winners), actions, rounds and shared wins."""

    seats: int
    games: int = 0
    actions: int = 0
    rounds: int = 0
    shared: int = 0  # games won by tied winners
    wins: list[float] = field(default_factory=list)  # per seat

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0.0] * self.seats

    def add(self, winners: Sequence[int], actions: int, rounds: int) -> None:
        """One finished game: its winning seats, its actions and its rounds."""
        self.games += 1
        self.actions += actions
        self.rounds += rounds
        self.shared += len(winners) > 1
        share = 1 / len(winners)
        for seat in winners:
            self.wins[seat] += share

    def win_rates(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]

    def intervals(self) -> list[tuple[float, float]]:
        """Each seat's 95% Wilson interval of its win rate."""
        return [wilson_interval(w, self.games) for w in self.wins]

    def averages(self) -> tuple[float, float]:
        """Actions and rounds per game (0 before any game)."""
        per_game = max(1, self.games)
        return self.actions / per_game, self.rounds / per_game


__all__ = ["Tally"]
