"""The batch simulator: many games of one rule set stepped at once over integer arrays, with
Numba kernels (needs the ``fast`` extra: numpy and numba).

``FastBatch(rules, batch_size, seed)`` holds B matches; ``legal_mask()``, ``step(actions)``
(with auto-reset), ``random_actions()``, ``random_playout(steps)``, ``summary(i)`` (RULES.md
N4) and ``load(deals)`` to play given shuffles. Actions are the engine's ``ALL_ACTIONS``
indices. Every edition, option and match format is covered except the real-time draw penalty
(X2, option ``draw_penalty``), which raises ``RulesError``. ``tests/fast/test_fast_differential.py``
checks it against the engine, action by action.

This is its public import path. The code lives in ``ono99.fast`` (``batch``, ``kernels``,
``layout``), beside the other fast implementation of the rules, the bots' rollouts, which the
bots can import from there and not from here (``sim`` sits above ``bots``).
"""

from ...fast.batch import Deal, FastBatch, PlayoutStats
from ...fast.layout import GAME, NUM_ACTIONS, PARAMS

__all__ = ["GAME", "NUM_ACTIONS", "PARAMS", "Deal", "FastBatch", "PlayoutStats"]
