"""Does the order of play decide games? ``bot`` in every seat, each edition's default rules, a
random first dealer; win rates by position relative to that dealer, and a χ² test against
equal shares. (The figures of a published run: docs/analysis/report.md, section 1.)"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import defaults
from .cells import BOT, EDITIONS, PLAYER_COUNTS, Cell, OnGame, run_cells, self_play
from .estimates import Distribution, Estimate, chi_square_sf, proportion
from .events import count_turns, position_of


@dataclass(frozen=True)
class SeatOrderCell:
    """Win rates by position at the table, with the same bot in every seat."""

    edition: str
    players: int
    match: str
    bot: str
    games: int
    wins: tuple[float, ...]  # by position: 0 plays first in round 1, players - 1 dealt
    rates: tuple[Estimate, ...]
    fair: float
    chi2: float  # against equal shares
    p_value: float
    turns: Estimate  # mean turns per game


def cells(editions: Sequence[str], players: Sequence[int], bot: str) -> list[Cell]:
    return [(ed, n, {}, bot) for ed in editions for n in players]


def _seat_game(
    edition: str, players: int, options: dict[str, Any], bot: str, seed: int, index: int
) -> tuple[tuple[tuple[int, float], ...], int]:
    """(position, share of the win) of each winner, and the game's turns."""
    final = self_play(edition, players, options, bot, seed, index)
    dealer = final.setup.dealer
    share = 1 / len(final.winners)
    wins = tuple((position_of(w, dealer, players), share) for w in final.winners)
    return wins, count_turns(final.events())


def seat_order(
    games: int,
    seed: int,
    *,
    editions: Sequence[str] = EDITIONS,
    players: Sequence[int] = PLAYER_COUNTS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[SeatOrderCell]:
    """Does the order of play decide games? ``bot`` in every seat, each edition's default
    rules, a random first dealer; win rates by position relative to that dealer."""
    played = cells(editions, players, bot)
    out = []
    for (ed, n, _, _), results in zip(
        played, run_cells(_seat_game, played, games, seed, workers, on_game), strict=True
    ):
        wins = [0.0] * n
        turns: Counter[int] = Counter()
        for game_wins, game_turns in results:
            for position, share in game_wins:
                wins[position] += share
            turns[game_turns] += 1
        expected = games / n
        chi2 = sum((w - expected) ** 2 / expected for w in wins)
        out.append(
            SeatOrderCell(
                edition=ed,
                players=n,
                match=defaults(ed)["match"],
                bot=bot,
                games=games,
                wins=tuple(wins),
                rates=tuple(proportion(w, games) for w in wins),
                fair=1 / n,
                chi2=chi2,
                p_value=chi_square_sf(chi2, n - 1),
                turns=Distribution.of(turns).mean,
            )
        )
    return out
