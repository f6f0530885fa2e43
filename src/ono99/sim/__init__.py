"""Playing many games: drivers, self-play and statistics."""

from .driver import BotError, play_game

__all__ = ["BotError", "play_game"]
