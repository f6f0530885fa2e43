"""What every experiment shares: the default settings, the bots, and how a list of cells is
played as one batch of games.

A *cell* is what one kind of game is played under — ``(edition, players, options, bot, …)``
— and an experiment plays ``games`` games of each of its cells. The cells of an experiment
are one batch (``CellGames``, a ``ono99.sim.batches.Batch``): game ``i`` of every cell has the
seeds of game ``i`` of the run (``seeding.game_seeds``), so cells that differ only in their
rules play the same deals, and the games run here or in worker processes with the same
results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from ...bots import BOTS, Bot
from ...engine import State, make_rules
from ..batches import play_batch
from ..driver import play_game
from ..seeding import game_seeds

DANGER_MARGIN = 10
EDITIONS = ("2022", "1980")
PLAYER_COUNTS = (2, 3, 4, 5, 6)  # seat order is measured at every table size
PLAYERS = 4  # the table of every other experiment
BOT = "greedy"  # the bot of self-play, and the strong bot's opponents
MATCHES = ("single", "tokens", "points")
STRONG_PREFERENCE = ("expert", "heuristic", "greedy")
# By default the strong bot plays one game per rule set for every STRONG_SHARE games of a
# greedy cell: a game with the expert costs a few hundred greedy ones (see costs.py), so as many
# strong games as greedy ones would turn minutes of greedy games into hours.
STRONG_SHARE = 100

OnGame = Callable[[], None]
Cell = tuple[Any, ...]  # (edition, players, options, bot, ...): what one job plays
Job = Callable[..., Any]  # job(*cell, seed, index): game ``index`` of a cell, reduced


def strong_default() -> str:
    """The strongest registered bot: ``expert``, else ``heuristic``, else ``greedy``."""
    return next(name for name in STRONG_PREFERENCE if name in BOTS)


def default_strong_games(games: int) -> int:
    """The strong bot's games per rule set when not given: one per ``STRONG_SHARE`` games."""
    return max(1, math.ceil(games / STRONG_SHARE))


class Strong(NamedTuple):
    """The strong bot of the house rules' edge games, with its options and its games per
    rule set."""

    name: str
    options: dict[str, Any]
    games: int


def strong_settings(
    games: int,
    strong_games: int | None = None,
    strong: str | None = None,
    strong_options: dict[str, Any] | None = None,
) -> Strong:
    """The strong bot's settings with their defaults filled in: ``strong_default()``, no
    options, ``default_strong_games(games)`` games per rule set."""
    return Strong(
        strong or strong_default(),
        dict(strong_options or {}),
        default_strong_games(games) if strong_games is None else strong_games,
    )


def build_bot(name: str, seed: int, options: dict[str, Any] | None = None) -> Bot:
    """A bot from the registry, with constructor options such as a search budget."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
    if not options:
        return factory(seed)
    try:
        return cast(Any, factory)(seed, **options)
    except TypeError as exc:
        raise ValueError(f"bot {name!r} does not take the options {options}: {exc}") from None


def self_play(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    seed: int,
    index: int,
    on_state: Callable[[State], None] | None = None,
) -> State:
    """Game ``index`` of the run with seed ``seed``: ``bot`` in every seat."""
    rules = make_rules(edition, players=players, **options)
    seeds = game_seeds(seed, index, players)
    bots = [build_bot(bot, s) for s in seeds.bots]
    return play_game(rules, bots, seeds.deal, on_state=on_state)


@dataclass(frozen=True)
class CellGames:
    """The batch of ``games_per_cell`` games of every cell, cell after cell: game ``index``
    is game ``index mod games_per_cell`` of its cell, played by ``job``."""

    job: Job
    cells: tuple[Cell, ...]
    games_per_cell: int
    seed: int

    @property
    def games(self) -> int:
        return len(self.cells) * self.games_per_cell

    def play(self, index: int) -> Any:
        k, i = divmod(index, self.games_per_cell)
        return self.job(*self.cells[k], self.seed, i)


def run_cells(
    job: Job,
    cells: Sequence[Cell],
    games: int,
    seed: int,
    workers: int,
    on_game: OnGame | None,
) -> list[list[Any]]:
    """Play ``games`` games of every cell with ``job(*cell, seed, index)``; return, per cell,
    its games' results in game order. ``on_game()`` is called once per game finished (with
    several workers, as their chunks come in). A Ctrl-C stops the workers at once."""
    batch = CellGames(job, tuple(cells), games, seed)

    def done(k: int) -> None:
        for _ in range(k):
            on_game()  # type: ignore[misc]

    results = list(play_batch(batch, workers=workers, on_done=done if on_game else None))
    return [results[k * games : (k + 1) * games] for k in range(len(cells))]
