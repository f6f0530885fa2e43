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

Outside bots — a researcher's own, in a package of theirs — are known by two more kinds of
name, wherever a name is taken (``ono99 tournament --bots``, ``ono99.evaluate``, ``make_bot``):

- an import path ``package.module:Factory`` (or ``path/to/file.py:Factory``), where
  ``Factory`` (a class or a function; ``Outer.Inner`` reaches into the module) builds a bot —
  an object with ``name`` and ``choose(view) -> Action`` — from a seed (``Factory(seed)``;
  one that takes no argument is called with none). The module must be importable where the
  games are played (installed, or on ``PYTHONPATH``); worker processes import it again;
- a name an installed distribution registers in the entry-point group ``ono99.bots``
  (``[project.entry-points."ono99.bots"] mybot = "mypkg.bots:MyBot"``), listed by
  ``outside_bots()``.

Either way the bot sees views only, like every other; a bad path or a factory that builds no
bot is an ``UnknownBotError`` of one line. Outside bots are seated where they are named, never
offered in the menus (``offered_bots`` lists the registry's own).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.metadata
import importlib.util
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from ..invocation import pip_install
from .base import Agent, Bot, OmniscientBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .neural import NeuralBot
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
        "neural",
        3,
        "medium",
        "a policy/value network trained with PyTorch by reinforcement learning on 2 and 4 "
        "player tables of both editions; plays from NumPy alone",
        NeuralBot,
        extra="learned",
        needs=("numpy",),
    ),
    BotInfo(
        "heuristic",
        4,
        "hard",
        "counts the cards seen, manages its safe cards, aims Play 2 at the likeliest to fail "
        "and leaves the next player a dangerous total",
        HeuristicBot,
    ),
    BotInfo(
        "expert",
        5,
        "expert",
        "searches: imagines the hidden cards many times over, consistently with all it has "
        "seen, and plays each move out to the end",
        ExpertBot,
    ),
)
_CEILING: tuple[BotInfo[OmniscientBot], ...] = (
    BotInfo(
        "oracle",
        6,
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
    if info is None and ":" in name:
        info = _import_path(name)
    if info is None:
        info = _entry_point(name)
    if info is None:
        known = ", ".join([*offered_bots(), *ORACLES, *outside_bots()])
        raise UnknownBotError(
            f"unknown bot {name!r}; the bots are {known}, or an outside bot's import path "
            "package.module:Factory"
        )
    return info


# --------------------------------------------------------------------------- outside bots


def outside_bots() -> tuple[str, ...]:
    """The names installed distributions register in the entry-point group ``ono99.bots``
    (the registry's own names win a clash)."""
    names = {ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINTS)}
    return tuple(sorted(names - BOT_INFO.keys() - ORACLE_INFO.keys()))


ENTRY_POINTS = "ono99.bots"


def _entry_point(name: str) -> BotInfo[Bot] | None:
    if name in BOT_INFO or name in ORACLE_INFO:
        return None
    for ep in importlib.metadata.entry_points(group=ENTRY_POINTS, name=name):
        try:
            target = ep.load()
        except Exception as exc:
            raise UnknownBotError(
                f"bot {name!r} (entry point {ep.value!r} of group {ENTRY_POINTS}) cannot be "
                f"loaded: {type(exc).__name__}: {exc}"
            ) from None
        return _outside_info(name, target)
    return None


@functools.lru_cache(maxsize=64)
def _import_path(path: str) -> BotInfo[Bot]:
    """The bot an import path ``module:Factory`` (or ``file.py:Factory``) names."""
    module_name, _, attribute = path.rpartition(":")
    if not module_name or not attribute:
        raise UnknownBotError(f"bot {path!r}: an import path is package.module:Factory")
    try:
        if module_name.endswith(".py"):
            module = _load_file(Path(module_name))
        else:
            module = importlib.import_module(module_name)
    except UnknownBotError:
        raise
    except ModuleNotFoundError as exc:
        raise UnknownBotError(
            f"bot {path!r}: no module named {exc.name or module_name!r} "
            "(is it installed, or on PYTHONPATH?)"
        ) from None
    except Exception as exc:
        raise UnknownBotError(
            f"bot {path!r}: importing {module_name} failed: {type(exc).__name__}: {exc}"
        ) from None
    target: Any = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise UnknownBotError(f"bot {path!r}: {module_name} has no attribute {attribute!r}")
        target = getattr(target, part)
    return _outside_info(path, target)


def _load_file(file: Path) -> Any:
    if not file.is_file():
        raise UnknownBotError(f"bot file {str(file)!r} does not exist")
    name = f"ono99_outside_bot_{abs(hash(str(file.resolve())))}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise UnknownBotError(f"bot file {str(file)!r} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _outside_info(name: str, target: Any) -> BotInfo[Bot]:
    if not callable(target):
        raise UnknownBotError(
            f"bot {name!r}: {target!r} is not a class or function that builds a bot"
        )
    if inspect.isclass(target) and not callable(getattr(target, "choose", None)):
        raise UnknownBotError(f"bot {name!r}: class {target.__name__} has no choose(view) method")
    try:
        parameters = inspect.signature(target).parameters.values()
        takes_seed = any(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
            for p in parameters
        )
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        takes_seed = True

    def factory(seed: int | None = None) -> Bot:
        bot = target(seed) if takes_seed else target()
        if not callable(getattr(bot, "choose", None)):
            raise UnknownBotError(
                f"bot {name!r} built {type(bot).__name__}, which has no choose(view) method"
            )
        if not isinstance(getattr(bot, "name", None), str):
            with contextlib.suppress(AttributeError):
                bot.name = name
        return bot

    doc = (inspect.getdoc(target) or "an outside bot").strip().splitlines()[0]
    return BotInfo(name, 0, "outside", doc, factory)


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
    if info.sees_all:
        raise UnknownBotError(f"bot {name!r} sees every card: it is never an opponent")
    return cast(Bot, info.factory(seed))


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
    "NeuralBot",
    "OmniscientBot",
    "OracleBot",
    "RandomBot",
    "UnknownBotError",
    "bot_info",
    "check_bot",
    "make_bot",
    "make_opponent",
    "offered_bots",
    "outside_bots",
]
