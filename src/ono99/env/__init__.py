"""Reinforcement-learning environments for ONO 99 (the ``rl`` extra: gymnasium, pettingzoo).

- ``ono99.env.pettingzoo_env.env(...)``: a PettingZoo AEC environment, every seat an agent.
- ``Ono99Env(...)``, or ``gymnasium.make("ono99/Ono99-v0", ...)``: one learner against bots.
- ``VectorEnv`` (``ono99.env.vector``): many matches at once over the batch simulator.

The observation vector, built from a seat's ``View`` only, is ``ono99.features`` (below the
environments, so the ``learned`` bot can share it without loading them).

See ``docs/rl.md``. Importing this package registers ``ono99/Ono99-v0`` with Gymnasium: its
``entry_point`` is ``Ono99Env`` and its ``vector_entry_point`` the ``VectorEnv``, so
``gym.make_vec("ono99/Ono99-v0", num_envs=…)`` is the fast vector environment.
"""

from __future__ import annotations

from multiprocessing import forkserver

from gymnasium.envs.registration import register, registry

from ..features import NUM_ACTIONS
from . import pettingzoo_env
from .gym_env import Ono99Env
from .pettingzoo_env import Ono99AECEnv, raw_env
from .rewards import ILLEGAL, LOSS, WIN, final_reward

GYM_ID = "ono99/Ono99-v0"

if GYM_ID not in registry:
    register(
        id=GYM_ID,
        entry_point="ono99.env.gym_env:Ono99Env",
        vector_entry_point="ono99.env.vector:VectorEnv",
    )


def _registered_in_forked_workers() -> None:
    """Have the forkserver import this package, so the workers it forks know ``GYM_ID``.

    Gymnasium 1.x loads no entry-point plugins: an id is known in a process only once its
    package is imported there. SB3's ``SubprocVecEnv`` starts its workers from a forkserver
    (its default wherever there is one), which imports nothing but ``__main__``, so
    ``make_vec_env("ono99/Ono99-v0", vec_env_cls=SubprocVecEnv)`` failed in the workers
    whenever the main module did not import this package itself (``python -c``, a notebook,
    an import inside a function). A spawned worker imports only ``__main__`` and can never be
    reached from here: there ``"ono99.env:ono99/Ono99-v0"`` has Gymnasium import it."""
    server = forkserver._forkserver  # the one forkserver of every context
    modules = list(getattr(server, "_preload_modules", ["__main__"]))
    if __name__ not in modules:
        server.set_forkserver_preload([*modules, __name__])


_registered_in_forked_workers()

__all__ = [
    "GYM_ID",
    "ILLEGAL",
    "LOSS",
    "NUM_ACTIONS",
    "WIN",
    "Ono99AECEnv",
    "Ono99Env",
    "final_reward",
    "pettingzoo_env",
    "raw_env",
]
