"""Bots by name. Every bot chooses from a seat's ``View`` only (RULES.md V1)."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


class UnknownBotError(ValueError):
    pass


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by registry name; an unknown name lists the known ones."""
    factory = BOTS.get(name)
    if factory is None:
        raise UnknownBotError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
    return factory(seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "UnknownBotError", "make_bot"]
