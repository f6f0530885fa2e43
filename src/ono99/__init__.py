"""ono99 — the ONO 99 card game: rules engine, bots, terminal game and tools.

The package re-exports the engine (``ono99.engine``), standard library only. One name from a
higher layer is offered here for researchers, loaded on first use so that ``import ono99``
still loads nothing beyond the engine: ``ono99.evaluate`` (``ono99.sim.evaluate.evaluate``),
which measures any policy against the bots.
"""

from typing import Any

from .engine import *  # noqa: F403
from .engine import __all__ as __all__  # not evaluate: a star import stays the engine's

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Loaded on first use (docs/architecture.md: the one lazy name of the package).
    if name == "evaluate":
        from .sim.evaluate import evaluate

        return evaluate
    raise AttributeError(f"module 'ono99' has no attribute {name!r}")
