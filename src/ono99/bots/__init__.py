"""Bots by name. Every opponent chooses from a seat's ``View`` only (RULES.md V1).

``BOTS`` holds the opponents anyone may play against, from the weakest up; ``BOT_INFO`` gives
each one's difficulty, a line describing it, and what it needs beyond the core install. The
``oracle``, which sees every card, is kept apart in ``ORACLES``: it measures the ceiling of skill
in tournaments and is never offered as an opponent. ``make_bot`` builds either; ``make_opponent``
only an opponent. ``BotInfo.sees_all`` is the one statement of which registered bots play from
the whole state; each of them is an ``OmniscientBot`` (``ono99.bots.base``), the type by which
the game loop knows to hand it the state.

The registry is the one place that says which bots can be offered *here*: ``offered_bots()``
lists the opponents whose extra is installed, without building any of them, and
``check_bot`` says in one line why a name cannot be used (unknown, or its extra missing, with
the command that installs it). Every menu and ``--bots`` option asks these.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..invocation import pip_install
from .base import Agent, Bot, OmniscientBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .oracle import OracleBot
from .random_bot import RandomBot

A = TypeVar("A", bound=Agent)


@dataclass(frozen=True)
class BotInfo(Generic[A]):
    """A registered bot: its name, difficulty (1 = easiest) and what it does."""

    name: str
    difficulty: int
    level: str
    description: str
    factory: Callable[..., A]
    extra: str | None = None  # the extra it needs beyond the core install
    needs: tuple[str, ...] = ()  # the modules of that extra it imports
    sees_all: bool = False  # plays from the whole state (the oracle), never from a view

    def missing(self) -> str | None:
        """Why this bot cannot be built here (its extra is not installed), or None."""
        if all(importlib.util.find_spec(module) is not None for module in self.needs):
            return None
        return f"the {self.name} bot needs the {self.extra} extra: {pip_install(self.extra or '')}"


_OPPONENTS: tuple[BotInfo[Bot], ...] = (
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
        # NumPy alone (ono99.features encodes the view); the fast and rl extras bring it too.
        extra="learned",
        needs=("numpy",),
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
_CEILING: tuple[BotInfo[OmniscientBot], ...] = (
    BotInfo(
        "oracle",
        5,
        "ceiling",
        "sees every hand and the draw pile; measures how much skill matters, never an opponent",
        OracleBot,
        sees_all=True,
    ),
)

BOT_INFO: dict[str, BotInfo[Bot]] = {info.name: info for info in _OPPONENTS}
BOTS: dict[str, Callable[..., Bot]] = {info.name: info.factory for info in _OPPONENTS}
ORACLE_INFO: dict[str, BotInfo[OmniscientBot]] = {info.name: info for info in _CEILING}
ORACLES: dict[str, Callable[..., OmniscientBot]] = {info.name: info.factory for info in _CEILING}


class UnknownBotError(ValueError):
    """A bot name that is not registered, or whose extra is not installed here."""


def offered_bots() -> tuple[str, ...]:
    """The opponents that can be played against with what is installed, weakest first."""
    return tuple(info.name for info in _OPPONENTS if info.missing() is None)


def bot_info(name: str) -> BotInfo[Bot] | BotInfo[OmniscientBot]:
    """The registry entry of ``name`` (the oracle included), whether or not it can be built
    here; an unknown name lists the ones that can."""
    info = BOT_INFO.get(name) or ORACLE_INFO.get(name)
    if info is None:
        known = ", ".join([*offered_bots(), *ORACLES])
        raise UnknownBotError(f"unknown bot {name!r}; the bots are {known}")
    return info


def check_bot(name: str) -> BotInfo[Bot] | BotInfo[OmniscientBot]:
    """The registry entry of a bot that can be built here, or a one-line ``UnknownBotError``
    saying why not."""
    info = bot_info(name)
    missing = info.missing()
    if missing is not None:
        raise UnknownBotError(f"bot {name!r} is not available here: {missing}")
    return info


def make_bot(name: str, seed: int | None = None) -> Agent:
    """A new bot by registry name (the oracle included); an unknown name lists the known
    ones, and a bot whose extra is missing names the command that installs it."""
    return check_bot(name).factory(seed)


def make_opponent(name: str, seed: int | None = None) -> Bot:
    """A new bot to play against, as ``make_bot`` builds it: one of ``BOTS``, which choose
    from a view; a bot that sees every card is refused in one line."""
    info = check_bot(name)
    if info.sees_all or name not in BOT_INFO:
        raise UnknownBotError(f"bot {name!r} sees every card: it is never an opponent")
    return BOT_INFO[name].factory(seed)


__all__ = [
    "BOTS",
    "BOT_INFO",
    "ORACLES",
    "ORACLE_INFO",
    "Agent",
    "Bot",
    "BotInfo",
    "ExpertBot",
    "GreedyBot",
    "HeuristicBot",
    "LearnedBot",
    "OmniscientBot",
    "OracleBot",
    "RandomBot",
    "UnknownBotError",
    "bot_info",
    "check_bot",
    "make_bot",
    "make_opponent",
    "offered_bots",
]
