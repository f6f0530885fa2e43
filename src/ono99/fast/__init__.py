"""The rules again, for speed: the declared second implementations of ``ono99.engine.game``.

The engine is the reference. Where it is too slow, the rules are written once more here, side
by side, under one contract (``contract``: what each must agree with the engine on, after every
action), and ``tests/fast/test_fast_differential.py`` runs that contract over all of them
(STYLE.md 9 and 12):

- ``playout``: ``Playout``, plain Python lists, standard library only — the rollouts of the
  searching bots (``expert``, ``oracle``), from an engine state to the end of the game or round.
- ``batch`` (with ``kernels`` and ``layout``): ``FastBatch``, B games stepped at once by Numba
  kernels over NumPy records. Needs the ``fast`` extra; its public import path is
  ``ono99.sim.fast``, which re-exports it.
- ``rollouts`` (with ``rollout_policy`` and ``worlds``): the searching expert's rollouts, many at
  once, on ``batch``'s kernels — not another copy of the rules, only the rollout's players
  (greedy's ranks, the heuristic's planner) and its horizon (``ExpertBot(compiled=True)``).
  Needs the ``fast`` extra. The kernels play the draw penalty (X2) for rollouts only.

This package sits between the engine and the bots (``engine`` ← ``fast`` ← ``bots``), so that
a bot may use a fast implementation; it imports nothing but the engine, and importing it (or
``playout``) loads neither NumPy nor Numba.
"""
