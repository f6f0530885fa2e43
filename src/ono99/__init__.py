"""ono99 — the ONO 99 card game: rules engine, bots, terminal game and tools."""

from .engine import *  # noqa: F403
from .engine import __all__ as __all__

__version__ = "0.1.0"
