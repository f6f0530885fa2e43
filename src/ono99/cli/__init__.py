"""The ``ono99`` command line: the terminal game, replays and bot simulations.

Nothing else in the package imports this; it may import everything else.
"""

from .main import main

__all__ = ["main"]
