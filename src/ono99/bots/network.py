"""What the two network bots (``learned``, ``neural``) share: NumPy, asked for by the extra
that brings it; where their shipped weights are; and the move they make from the network's
scores of the 18 actions."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from ..engine import DRAW, Action, View
from ..invocation import pip_install


def numpy_for(who: str) -> Any:
    """NumPy, or an ImportError saying that ``who`` needs it and the command that installs it."""
    try:
        import numpy as np
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(f"{who} needs the learned extra: {pip_install('learned')}") from error
    return np


def shipped_weights(name: str) -> Path:
    """Where the weights file ``name`` that ships with the package is."""
    return Path(str(resources.files("ono99.bots") / "weights" / name))


def best_legal(view: View, scores: Callable[[], Any]) -> Action:
    """The legal action that ``scores()`` (one score per action index) rates highest; the
    network is not asked when there is one legal action, or an owed draw (X2: never let it be
    lost; the networks never met one)."""
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    if DRAW in legal:
        return DRAW
    s = scores()
    return max(legal, key=lambda a: float(s[a.index]))
