"""Bots by name. Every bot chooses from a seat's ``View`` only (RULES.md V1).

``BOTS`` holds the opponents anyone may play against, from the weakest up; ``BOT_INFO`` gives
each one's difficulty and a line describing it. The ``oracle``, which sees every card, is kept
apart in ``ORACLES``: it measures the ceiling of skill in tournaments and is never offered as
an opponent. ``make_bot`` knows both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import Bot
from .expert import ExpertBot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .oracle import OracleBot
from .random_bot import RandomBot


@dataclass(frozen=True)
class BotInfo:
    """A registered bot: its name, difficulty (1 = easiest) and what it does."""

    name: str
    difficulty: int
    level: str
    description: str
    factory: Callable[..., Bot]


_OPPONENTS = (
    BotInfo("random", 1, "beginner", "plays a random legal card", RandomBot),
    BotInfo(
        "greedy",
        2,
        "easy",
        "plays its highest number that fits and keeps the special cards for emergencies",
        GreedyBot,
    ),
    BotInfo(
        "learned",
        3,
        "medium",
        "a small neural network trained by reinforcement learning against greedy players",
        LearnedBot,
    ),
    BotInfo(
        "heuristic",
        3,
        "medium",
        "counts the cards seen, manages its safe cards, aims Play 2 at the likeliest to fail "
        "and leaves the next player a dangerous total",
        HeuristicBot,
    ),
    BotInfo(
        "expert",
        4,
        "hard",
        "searches: imagines the hidden cards many times over, consistently with all it has "
        "seen, and plays each move out to the end",
        ExpertBot,
    ),
)
_CEILING = (
    BotInfo(
        "oracle",
        5,
        "ceiling",
        "sees every hand and the draw pile; measures how much skill matters, never an opponent",
        OracleBot,
    ),
)

BOT_INFO: dict[str, BotInfo] = {info.name: info for info in _OPPONENTS}
BOTS: dict[str, Callable[..., Bot]] = {info.name: info.factory for info in _OPPONENTS}
ORACLE_INFO: dict[str, BotInfo] = {info.name: info for info in _CEILING}
ORACLES: dict[str, Callable[..., Bot]] = {info.name: info.factory for info in _CEILING}


class UnknownBotError(ValueError):
    pass


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by registry name (the oracle included); an unknown name lists the known
    ones."""
    factory = BOTS.get(name) or ORACLES.get(name)
    if factory is None:
        known = ", ".join([*BOTS, *ORACLES])
        raise UnknownBotError(f"unknown bot {name!r}; the bots are {known}")
    try:
        return factory(seed)
    except ImportError as exc:  # e.g. ``learned`` without the rl extra
        raise UnknownBotError(f"bot {name!r} is not available here: {exc}") from None


__all__ = [
    "BOTS",
    "BOT_INFO",
    "ORACLES",
    "ORACLE_INFO",
    "Bot",
    "BotInfo",
    "ExpertBot",
    "GreedyBot",
    "HeuristicBot",
    "LearnedBot",
    "OracleBot",
    "RandomBot",
    "UnknownBotError",
    "make_bot",
]
