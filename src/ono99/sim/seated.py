"""Games with a fixed seating, the batch of ``ono99 simulate``: ``bots[s]`` at seat ``s`` in
every game, game ``i`` seeded by the one rule of ``seeding.game_seeds``, added up in one
``Tally`` (the tournaments' per-seat tally)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Rules
from .batches import play_batch
from .seeding import play_seeded
from .tally import Tally


@dataclass(frozen=True)
class Seated:
    """The batch: ``games`` games of ``rules``, ``bots[s]`` at seat ``s`` in every one."""

    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int

    def play(self, index: int) -> tuple[tuple[int, ...], int, int]:
        """Game ``index``: its winners, actions and rounds."""
        final = play_seeded(self.rules, self.bots, self.seed, index)
        return final.winners, final.moves, final.round


def run_seated(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    seed: int,
    on_game: Callable[[], None] | None = None,
) -> Tally:
    """Play ``games`` games between fresh ``bots`` (one per seat) and tally them."""
    tally = Tally(len(bots))
    for winners, actions, rounds in play_batch(Seated(rules, tuple(bots), games, seed)):
        tally.add(winners, actions, rounds)
        if on_game:
            on_game()
    return tally


__all__ = ["Seated", "run_seated"]
