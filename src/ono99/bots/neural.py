"""``neural``: a policy/value network trained with PyTorch, played with NumPy alone.

The network (``examples/train_neural.py``, ``docs/bots.md``) is an MLP on the shared observation
(``ono99.features.encode``, 173 entries): two hidden layers of ReLU units, a policy head (18
scores, one per action index) and a value head (tanh: the expected reward of the seat to play,
−1 … +1). It was trained by PPO on the batch simulator's tables (2022 with 4 and 2 players,
1980 tokens with 4), against ``greedy`` bots. The weights ship as ``weights/neural.npz``;
``NeuralNet`` runs them in plain NumPy, so playing needs neither torch nor Gymnasium (the
``learned`` extra brings NumPy; so do ``fast`` and ``rl``).

The bot sees only its seat's ``View``, encodes it, and plays the legal action the policy scores
highest (deterministic); an owed draw (X2) is always taken, as every other bot takes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine import DRAW, Action, View
from .network import best_legal, numpy_for, shipped_weights

WEIGHTS = "neural.npz"
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
_DRAW = DRAW.index


def weights_path() -> Path:
    """Where the shipped weights are."""
    return shipped_weights(WEIGHTS)


class NeuralNet:
    """The network's forward pass in NumPy, on one observation or a batch of them."""

    def __init__(self, weights: str | Path | dict[str, Any] | None = None) -> None:
        np = numpy_for("the neural bot")
        self._np = np
        if isinstance(weights, dict):
            self.params = {k: np.asarray(weights[k], dtype=np.float32) for k in LAYERS}
        else:
            with np.load(weights or weights_path()) as data:
                self.params = {k: data[k].astype(np.float32) for k in LAYERS}

    def forward(self, obs: Any) -> tuple[Any, Any]:
        """Policy scores (before masking; (…, 18)) and values ((…,)) of observations."""
        p = self.params
        np = self._np
        h = np.maximum(obs @ p["w1"] + p["b1"], 0.0)
        h = np.maximum(h @ p["w2"] + p["b2"], 0.0)
        return h @ p["wp"] + p["bp"], np.tanh(h @ p["wv"] + p["bv"])[..., 0]

    def policy(self, obs: Any, mask: Any) -> Any:
        """The batched bot: per row, the legal action of highest score, an owed draw first
        (a ``policy(obs, mask)`` for ``ono99.env.vector.VectorEnv``'s opponents)."""
        np = self._np
        scores = self.forward(obs)[0]
        best = np.argmax(np.where(mask != 0, scores, -np.inf), axis=-1)
        return np.where(mask[..., _DRAW] != 0, _DRAW, best)


class NeuralBot:
    """Plays the network's favourite legal action for its view (see the module doc)."""

    name = "neural"

    def __init__(self, seed: int | None = None, weights: str | Path | None = None) -> None:
        del seed  # deterministic
        numpy_for("the neural bot")  # first: its error names the extra
        from ..features import encode

        self._encode = encode
        self.net = _net(str(weights or weights_path()))

    def evaluate(self, view: View) -> tuple[Any, float]:
        """The policy's scores of the 18 actions (before masking) and the value of the view."""
        scores, value = self.net.forward(self._encode(view))
        return scores, float(value)

    def choose(self, view: View) -> Action:
        return best_legal(view, lambda: self.net.forward(self._encode(view))[0])


_NETS: dict[str, NeuralNet] = {}


def _net(path: str) -> NeuralNet:
    """One loaded network per weights file, shared by every bot (they are read-only)."""
    net = _NETS.get(path)
    if net is None:
        net = _NETS[path] = NeuralNet(path)
    return net
