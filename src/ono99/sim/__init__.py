"""Playing many games: drivers, self-play and statistics."""

from .driver import play_game

__all__ = ["play_game"]
