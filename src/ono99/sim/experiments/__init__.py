"""The experiments behind ``ono99 analyze``: many bot games, reduced to plain numbers.

One module per experiment — ``seat_order``, ``game_length``, ``card_effects``,
``house_rules`` — each with a function of the same name (the one this package exports) that
plays games and returns frozen dataclasses of numbers (``to_dict()`` gives JSON-ready data);
``ono99.sim.report`` turns them into Markdown and plots, and ``run`` plays them all, phase by
phase. Shared by all: ``core`` (settings, bots, cells played as one batch of games),
``estimates`` (every estimate carries a 95% interval: Wilson for proportions, the normal
approximation for means and for paired differences) and ``events`` (reading a game's events).

Reproducibility: game ``i`` of every cell has the seeds of game ``i`` of the run, by the one
seeding rule of ``ono99.sim.seeding.game_seeds`` (the deal's seed and each bot's seed hashed from
SEED and ``i``, the first dealer drawn from the deal's seed), so every cell plays the same
deals. The games can run in other processes (``workers``); they come back in game order, so
the results do not depend on the number of workers.

Words used throughout (the report defines them the same way):

- **knocked out**: the moment a player must play and cannot — eliminated in a single game
  (E1), losing the round in a tokens match (M2), out of the round in a points match (M3,
  a bust included).
- **turn**: one player's go — one card, or two when they owe a Play 2 (P1).
- **dangerous total**: a total of at least ``max_total - DANGER_MARGIN`` before the card.

The figures of the published run are in docs/analysis/report.md (its one home).
"""

from __future__ import annotations

from .card_effects import CardEffects, CardRow, card_effects
from .cells import (
    BOT,
    DANGER_MARGIN,
    EDITIONS,
    MATCHES,
    PLAYER_COUNTS,
    PLAYERS,
    STRONG_SHARE,
    build_bot,
    default_strong_games,
    strong_default,
    strong_settings,
)
from .estimates import (
    MIN_GAMES,
    Distribution,
    Estimate,
    chi_square_sf,
    mean_of,
    paired_difference,
    proportion,
    to_plain,
)
from .events import count_turns, danger_outcomes, is_knockout, position_of
from .game_length import LengthCell, game_length
from .house_rules import HOUSE_RULES, HouseRuleCell, house_rule_sets, house_rules
from .run import EXPERIMENTS, Analysis, Phase, Run, game_counts, plan
from .seat_order import SeatOrderCell, seat_order

__all__ = [
    "BOT",
    "DANGER_MARGIN",
    "EDITIONS",
    "EXPERIMENTS",
    "HOUSE_RULES",
    "MATCHES",
    "MIN_GAMES",
    "PLAYERS",
    "PLAYER_COUNTS",
    "STRONG_SHARE",
    "Analysis",
    "CardEffects",
    "CardRow",
    "Distribution",
    "Estimate",
    "HouseRuleCell",
    "LengthCell",
    "Phase",
    "Run",
    "SeatOrderCell",
    "build_bot",
    "card_effects",
    "chi_square_sf",
    "count_turns",
    "danger_outcomes",
    "default_strong_games",
    "game_counts",
    "game_length",
    "house_rule_sets",
    "house_rules",
    "is_knockout",
    "mean_of",
    "paired_difference",
    "plan",
    "position_of",
    "proportion",
    "seat_order",
    "strong_default",
    "strong_settings",
    "to_plain",
]
