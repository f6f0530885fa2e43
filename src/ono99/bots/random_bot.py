"""``random``: a uniformly random legal action. The baseline every other bot must beat."""

from __future__ import annotations

import random

from ..engine import Action, View


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self._rng.choice(view.legal)
