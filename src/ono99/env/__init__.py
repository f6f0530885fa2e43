"""Reinforcement-learning environments for ONO 99 (the ``rl`` extra: gymnasium, pettingzoo).

- ``ono99.env.pettingzoo_env.env(...)``: a PettingZoo AEC environment, every seat an agent.
- ``Ono99Env(...)``, or ``gymnasium.make("ono99/Ono99-v0", ...)``: one learner against bots.
- ``ono99.env.encoding``: the observation vector, built from a seat's ``View`` only.

See ``docs/rl.md``. Importing this package registers ``ono99/Ono99-v0`` with Gymnasium.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from . import pettingzoo_env
from .core import ILLEGAL, LOSS, NUM_ACTIONS, WIN, final_reward
from .encoding import FEATURES, OBS_SIZE, encode, feature_table_markdown, observation_bounds
from .gym_env import Ono99Env
from .pettingzoo_env import Ono99AECEnv, raw_env

GYM_ID = "ono99/Ono99-v0"

if GYM_ID not in registry:
    register(id=GYM_ID, entry_point="ono99.env.gym_env:Ono99Env")

__all__ = [
    "FEATURES",
    "GYM_ID",
    "ILLEGAL",
    "LOSS",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "WIN",
    "Ono99AECEnv",
    "Ono99Env",
    "encode",
    "feature_table_markdown",
    "final_reward",
    "observation_bounds",
    "pettingzoo_env",
    "raw_env",
]
