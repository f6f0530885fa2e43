"""Playing many games: the game loop (``driver``), the seeding rule (``seeding``), the runner of
batches (``batches``, with its worker ``processes``), tournaments, statistics and the analysis."""

from .driver import BotError, play_game

__all__ = ["BotError", "play_game"]
