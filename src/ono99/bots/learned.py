"""``learned``: a small neural policy trained by self-play against ``greedy`` bots.

The network (173 → 128, tanh → 18) was trained with PPO on the vectorized environment over the
batch simulator (``examples/train_policy.py``, ``docs/rl.md``); its weights ship with the package
as ``weights/learned-2022.npz``. The bot sees only its seat's ``View``: it encodes it with the
same encoder the environments use (``ono99.features.encode``, which needs only the engine and
NumPy) and plays the legal action with the highest score (deterministic). Inference is plain
NumPy: the ``learned`` extra brings it (so do ``fast`` and ``rl``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine import Action, View
from .network import best_legal, numpy_for, shipped_weights

WEIGHTS = "learned-2022.npz"


def weights_path() -> Path:
    """Where the shipped weights are."""
    return shipped_weights(WEIGHTS)


class LearnedBot:
    name = "learned"

    def __init__(self, seed: int | None = None, weights: str | Path | None = None) -> None:
        del seed  # deterministic
        np = numpy_for("the learned bot")
        from ..features import encode

        self._np = np
        self._encode = encode
        with np.load(weights or weights_path()) as data:
            self._params: dict[str, Any] = {k: data[k] for k in ("w1", "b1", "w2", "b2")}

    def scores(self, view: View) -> Any:
        """The network's score of each of the 18 actions for this view (before masking)."""
        p = self._params
        hidden = self._np.tanh(self._encode(view) @ p["w1"] + p["b1"])
        return hidden @ p["w2"] + p["b2"]

    def choose(self, view: View) -> Action:
        return best_legal(view, lambda: self.scores(view))
