"""What do the house rules change? Each house rule against the edition's defaults: the mean
length of ``bot`` self-play, and the strong bot's edge over ``bot`` opponents (its win rate
less the fair share), both paired game by game with the defaults (the same deals).
(The figures of a published run: docs/analysis/report.md, section 4.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import defaults, make_rules
from ..driver import play_game
from ..seeding import game_seeds
from .cells import (
    BOT,
    EDITIONS,
    PLAYERS,
    Cell,
    OnGame,
    build_bot,
    run_cells,
    strong_settings,
)
from .estimates import Estimate, mean_of, paired_difference, proportion
from .game_length import length_game, lengths

# The house rules compared with each edition's defaults: option -> value, None = the
# opposite of the edition's default (a boolean option).
HOUSE_RULES: tuple[tuple[str, Any], ...] = (
    ("max_total", 99),
    ("play2_deflects_play2", None),
    ("ono99_on_tens", True),
    ("negative_totals", None),
)


@dataclass(frozen=True)
class HouseRuleCell:
    """Game length (all ``bot``) and the strong bot's edge (one strong bot against
    ``bot`` opponents, rotating seats) under one rule set."""

    edition: str
    rule: str  # "defaults" or "option=value"
    options: dict[str, Any]
    players: int
    bot: str
    games: int
    actions: Estimate
    turns: Estimate
    rounds: Estimate
    turns_vs_default: Estimate  # difference of mean turns from the defaults
    strong: str
    strong_options: dict[str, Any]
    strong_games: int
    strong_wins: float
    win_rate: Estimate
    fair: float
    edge: Estimate  # win rate - fair share
    edge_vs_default: Estimate  # difference of edges from the defaults


def house_rule_sets(edition: str) -> list[tuple[str, dict[str, Any]]]:
    """``("defaults", {})`` and one ``("option=value", {option: value})`` per house rule."""
    base = defaults(edition)
    sets: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    for option, value in HOUSE_RULES:
        if value is None:
            value = not base[option]
        text = ("on" if value else "off") if isinstance(value, bool) else str(value)
        sets.append((f"{option}={text}", {option: value}))
    return sets


def rule_sets(editions: Sequence[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """(edition, rule label, options) for every rule set of the experiment."""
    return [(ed, label, opts) for ed in editions for label, opts in house_rule_sets(ed)]


def length_cells(editions: Sequence[str], players: int, bot: str) -> list[Cell]:
    return [(ed, players, opts, bot) for ed, _, opts in rule_sets(editions)]


def edge_cells(
    editions: Sequence[str], players: int, bot: str, strong: str, strong_options: dict[str, Any]
) -> list[Cell]:
    return [(ed, players, opts, bot, strong, strong_options) for ed, _, opts in rule_sets(editions)]


def _edge_game(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    strong: str,
    strong_options: dict[str, Any],
    seed: int,
    index: int,
) -> float:
    """The strong bot's share of the win in game ``index`` (a tie shares it)."""
    rules = make_rules(edition, players=players, **options)
    seeds = game_seeds(seed, index, players)
    seat = index % players  # the strong bot takes every seat in turn
    bots = [
        build_bot(strong, s, strong_options) if k == seat else build_bot(bot, s)
        for k, s in enumerate(seeds.bots)
    ]
    final = play_game(rules, bots, seeds.deal)
    return 1 / len(final.winners) if seat in final.winners else 0.0


def house_rules(
    games: int,
    seed: int,
    *,
    strong_games: int | None = None,
    strong: str | None = None,
    strong_options: dict[str, Any] | None = None,
    editions: Sequence[str] = EDITIONS,
    players: int = PLAYERS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
    on_edges: Callable[[], None] | None = None,
) -> list[HouseRuleCell]:
    """Each house rule against the edition's defaults: mean length of ``games`` games of
    ``bot`` self-play, and the win rate of ``strong`` (default: ``strong_default()``) over
    ``strong_games`` (default: ``default_strong_games(games)``) games against
    ``players - 1`` ``bot`` opponents, in every seat in turn. ``on_edges()`` is called
    between the two: the length games are done, the strong bot's begin."""
    strong, strong_options, n_strong = strong_settings(games, strong_games, strong, strong_options)
    sets = rule_sets(editions)
    length_games = run_cells(
        length_game, length_cells(editions, players, bot), games, seed, workers, on_game
    )
    if on_edges:
        on_edges()
    edge_games = run_cells(
        _edge_game,
        edge_cells(editions, players, bot, strong, strong_options),
        n_strong,
        seed,
        workers,
        on_game,
    )
    rows: list[HouseRuleCell] = []
    # Cells share their seeds, so the same game index deals the same first hands under
    # every rule set: differences from the defaults are paired, game by game.
    base_turns: list[int] = []
    base_wins: list[float] = []
    for (ed, label, opts), length_results, wins in zip(sets, length_games, edge_games, strict=True):
        actions, turns, rounds = lengths(length_results)
        if label == "defaults":
            base_turns, base_wins = turns, wins
        rate = proportion(sum(wins), n_strong)
        rows.append(
            HouseRuleCell(
                edition=ed,
                rule=label,
                options=opts,
                players=players,
                bot=bot,
                games=games,
                actions=mean_of(actions),
                turns=mean_of(turns),
                rounds=mean_of(rounds),
                turns_vs_default=paired_difference(turns, base_turns),
                strong=strong,
                strong_options=strong_options,
                strong_games=n_strong,
                strong_wins=sum(wins),
                win_rate=rate,
                fair=1 / players,
                edge=rate.shifted(-1 / players),
                edge_vs_default=paired_difference(wins, base_wins, bounds=(-1.0, 1.0)),
            )
        )
    return rows
