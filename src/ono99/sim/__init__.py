"""Playing many games: drivers, self-play and statistics."""

from .driver import next_actor, play_game

__all__ = ["next_actor", "play_game"]
