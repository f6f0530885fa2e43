"""Reinforcement-learning environments for ONO 99 (the ``rl`` extra: gymnasium, pettingzoo).

- ``ono99.env.pettingzoo_env.env(...)``: a PettingZoo AEC environment, every seat an agent.
- ``Ono99Env(...)``, or ``gymnasium.make("ono99/Ono99-v0", ...)``: one learner against bots.
- ``VectorEnv`` (``ono99.env.vector``): many matches at once over the batch simulator.

The observation vector, built from a seat's ``View`` only, is ``ono99.features`` (below the
environments, so the ``learned`` bot can share it without loading them).

See ``docs/rl.md``. Importing this package registers ``ono99/Ono99-v0`` with Gymnasium.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from . import pettingzoo_env
from .core import ILLEGAL, LOSS, NUM_ACTIONS, WIN, final_reward
from .gym_env import Ono99Env
from .pettingzoo_env import Ono99AECEnv, raw_env

GYM_ID = "ono99/Ono99-v0"

if GYM_ID not in registry:
    register(id=GYM_ID, entry_point="ono99.env.gym_env:Ono99Env")

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
