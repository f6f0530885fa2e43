"""A whole run of ``ono99 analyze``: every experiment, phase by phase, with what it will
play priced beforehand (``plan``) so that progress can say how long is left."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ...engine import defaults
from .. import costs
from ..costs import game_seconds
from .card_effects import CardEffects, card_effects
from .card_effects import cells as card_cells
from .cells import (
    BOT,
    EDITIONS,
    MATCHES,
    PLAYER_COUNTS,
    PLAYERS,
    Cell,
    OnGame,
    strong_settings,
)
from .estimates import to_plain
from .game_length import LengthCell, game_length
from .game_length import cells as length_cells
from .house_rules import HouseRuleCell, edge_cells, house_rules
from .house_rules import length_cells as house_length_cells
from .seat_order import SeatOrderCell, seat_order
from .seat_order import cells as seat_cells


@dataclass(frozen=True)
class Analysis:
    """Every experiment of one run, and what it takes to repeat it.

    A run stopped early keeps the experiments it finished; the others are empty and
    ``stopped_during`` names the phase it was in."""

    games: int
    strong_games: int
    seed: int
    strong: str
    strong_options: dict[str, Any]
    seat_order: tuple[SeatOrderCell, ...]
    game_length: tuple[LengthCell, ...]
    card_effects: tuple[CardEffects, ...]
    house_rules: tuple[HouseRuleCell, ...]
    stopped_during: str | None = None

    @property
    def partial(self) -> bool:
        return self.stopped_during is not None

    def to_dict(self) -> dict[str, Any]:
        return cast(dict[str, Any], to_plain(self))


EXPERIMENTS = ("seat_order", "game_length", "card_effects", "house_rules")  # Analysis fields


@dataclass(frozen=True)
class Phase:
    """One stretch of a run: games of one kind, cell after cell.

    ``cells`` holds, in the order they are played, each cell's games and the seconds one of
    them is expected to take in one process (``costs.py``); ``known`` is False when those
    seconds are only right relative to each other (a strong bot with options, or one not
    measured). ``experiment`` is the ``Analysis`` field the phase feeds: the house rules
    take two phases, the greedy games and then the strong bot's."""

    name: str
    experiment: str
    bots: str  # who plays, in words
    cells: tuple[tuple[int, float], ...]
    known: bool = True

    @property
    def games(self) -> int:
        return sum(n for n, _ in self.cells)

    def prior_seconds(self, start: int = 0, stop: int | None = None) -> float:
        """The expected seconds of games ``start`` to ``stop`` of the phase."""
        stop = self.games if stop is None else stop
        total, first = 0.0, 0
        for n, cost in self.cells:
            overlap = min(stop, first + n) - max(start, first)
            if overlap > 0:
                total += overlap * cost
            first += n
        return total


def _phase(
    name: str, experiment: str, cells: Sequence[Cell], games: int, bot_options: bool = False
) -> Phase:
    """A phase playing ``games`` games of each cell (``bot_options``: its strong bot has
    options, which change what its games cost)."""
    priced: list[tuple[int, float]] = []
    lineups = []
    for ed, players, opts, bot, *strong in cells:
        lineup = [strong[0], *[bot] * (players - 1)] if strong else [bot] * players
        match = opts.get("match", defaults(ed)["match"])
        priced.append((games, game_seconds(ed, match, lineup)))
        lineups.append(lineup)
    bots = " vs ".join(dict.fromkeys(lineups[0]))
    known = not bot_options and all(costs.known(lineup) for lineup in lineups)
    return Phase(name, experiment, bots, tuple(priced), known)


def plan(
    games: int,
    strong_games: int | None = None,
    strong: str | None = None,
    strong_options: dict[str, Any] | None = None,
) -> tuple[Phase, ...]:
    """The phases ``Run.run`` goes through with these settings, in order."""
    strong, opts, n_strong = strong_settings(games, strong_games, strong, strong_options)
    e, n, b = EDITIONS, PLAYERS, BOT
    return (
        _phase("seat order", "seat_order", seat_cells(e, PLAYER_COUNTS, b), games),
        _phase("game length", "game_length", length_cells(e, MATCHES, n, b), games),
        _phase("card effects", "card_effects", card_cells(e, n, b), games),
        _phase("house rules", "house_rules", house_length_cells(e, n, b), games),
        _phase(
            "strong bot's edge",
            "house_rules",
            edge_cells(e, n, b, strong, opts),
            n_strong,
            bot_options=bool(opts),
        ),
    )


def game_counts(games: int, strong_games: int) -> int:
    """How many games ``Run.run`` plays."""
    return sum(p.games for p in plan(games, strong_games))


class Run:
    """One run of every experiment, phase by phase: ``phases`` says what it will play,
    ``run()`` plays it, and after an interruption ``partial()`` gives what it finished."""

    def __init__(
        self,
        games: int,
        seed: int,
        *,
        strong_games: int | None = None,
        strong: str | None = None,
        strong_options: dict[str, Any] | None = None,
        workers: int = 1,
    ) -> None:
        self.games = games
        self.seed = seed
        self.strong, self.strong_options, self.strong_games = strong_settings(
            games, strong_games, strong, strong_options
        )
        self.workers = workers
        self.phases = plan(games, self.strong_games, self.strong, self.strong_options)
        self.current: Phase | None = None  # the phase being played
        self.finished: dict[str, tuple[Any, ...]] = {}  # experiments done, by Analysis field

    def run(
        self, on_game: OnGame | None = None, on_phase: Callable[[Phase], None] | None = None
    ) -> Analysis:
        """Play every phase: ``on_phase(phase)`` as each begins, ``on_game()`` after each
        game (see ``core.run_cells`` for several workers)."""

        def begin(name: str) -> None:
            self.current = next(p for p in self.phases if p.name == name)
            if on_phase:
                on_phase(self.current)

        common: dict[str, Any] = {"workers": self.workers, "on_game": on_game}
        g, seed = self.games, self.seed
        begin("seat order")
        self.finished["seat_order"] = tuple(seat_order(g, seed, **common))
        begin("game length")
        self.finished["game_length"] = tuple(game_length(g, seed, **common))
        begin("card effects")
        self.finished["card_effects"] = tuple(card_effects(g, seed, **common))
        begin("house rules")
        played = house_rules(
            g,
            seed,
            strong_games=self.strong_games,
            strong=self.strong,
            strong_options=self.strong_options,
            on_edges=lambda: begin("strong bot's edge"),
            **common,
        )
        self.finished["house_rules"] = tuple(played)
        self.current = None
        return self._analysis()

    def partial(self) -> Analysis | None:
        """The experiments finished so far, marked as stopped during the current phase;
        None when none finished."""
        if not self.finished:
            return None
        return self._analysis()

    def _analysis(self) -> Analysis:
        return Analysis(
            games=self.games,
            strong_games=self.strong_games,
            seed=self.seed,
            strong=self.strong,
            strong_options=dict(self.strong_options),
            **{name: self.finished.get(name, ()) for name in EXPERIMENTS},
            stopped_during=None if self.current is None else self.current.name,
        )
