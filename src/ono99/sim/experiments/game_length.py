"""How long do games last? Actions, turns and rounds per game for each edition and match
format, ``bot`` in every seat. (The figures of a published run: docs/analysis/report.md,
section 2.)"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cells import BOT, EDITIONS, MATCHES, PLAYERS, Cell, OnGame, run_cells, self_play
from .estimates import Distribution
from .events import count_turns


@dataclass(frozen=True)
class LengthCell:
    """How long games last under one edition and match format."""

    edition: str
    match: str
    players: int
    bot: str
    games: int
    actions: Distribution
    turns: Distribution
    rounds: Distribution


Length = tuple[int, int, int]  # actions, turns, rounds of one game


def cells(editions: Sequence[str], matches: Sequence[str], players: int, bot: str) -> list[Cell]:
    return [(ed, players, {"match": m}, bot) for ed in editions for m in matches]


def length_game(
    edition: str, players: int, options: dict[str, Any], bot: str, seed: int, index: int
) -> Length:
    final = self_play(edition, players, options, bot, seed, index)
    return final.moves, count_turns(final.events()), final.round


def lengths(games: Iterable[Length]) -> tuple[list[int], list[int], list[int]]:
    """Per-game actions, turns and rounds, in game order."""
    played = list(games)
    return [g[0] for g in played], [g[1] for g in played], [g[2] for g in played]


def game_length(
    games: int,
    seed: int,
    *,
    editions: Sequence[str] = EDITIONS,
    matches: Sequence[str] = MATCHES,
    players: int = PLAYERS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[LengthCell]:
    """Actions, turns and rounds per game for each edition and match format (other options
    at the edition's defaults)."""
    played = cells(editions, matches, players, bot)
    out = []
    for (ed, n, opts, _), results in zip(
        played, run_cells(length_game, played, games, seed, workers, on_game), strict=True
    ):
        actions, turns, rounds = lengths(results)
        out.append(
            LengthCell(
                edition=ed,
                match=opts["match"],
                players=n,
                bot=bot,
                games=games,
                actions=Distribution.of(Counter(actions)),
                turns=Distribution.of(Counter(turns)),
                rounds=Distribution.of(Counter(rounds)),
            )
        )
    return out
