"""The rules again, for speed: the declared second implementations of ``ono99.engine.game``.

The engine is the reference. Where it is too slow, the rules are written once more here,
side by side, each checked against it action by action (STYLE.md 9 and 12):

- ``batch`` (with ``kernels`` and ``layout``): the batch simulator, B games stepped at once by
  Numba kernels over NumPy records. Needs the ``fast`` extra; its public import path is
  ``ono99.sim.fast``, which re-exports it.

This package sits between the engine and the bots (``engine`` ← ``fast`` ← ``bots``), so that
a bot may use a fast implementation; it imports nothing but the engine, and importing it loads
neither NumPy nor Numba.
"""
