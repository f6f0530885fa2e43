"""Stable-Baselines3 on the fast vector environment, with no glue (the ``train`` extra).

SB3 has its own vector API (``VecEnv``: ``step_async``/``step_wait``, one ``done`` per game, a
list of infos with ``terminal_observation``), not Gymnasium's. ``SB3VecEnv(env)`` presents a
``VectorEnv`` (``ono99.env.vector``) as one, so that ``MaskablePPO("MlpPolicy", SB3VecEnv(env))``
trains on it and sb3-contrib finds the learner's legal actions through ``action_masks``::

    from sb3_contrib import MaskablePPO
    from ono99.env.sb3 import SB3VecEnv
    from ono99.env.vector import VectorEnv

    venv = SB3VecEnv(VectorEnv(players=4, opponents="greedy", num_envs=64))
    model = MaskablePPO("MlpPolicy", venv).learn(10_000)

``make_vec_env(**kwargs)`` builds both in one call. For self-play, ``policy_of(model)`` is the
model's current policy as an opponent (``VectorEnv(opponents=policy_of(model))``, or
``set_opponents`` once the model exists) and ``snapshot_of(model)`` a frozen copy of it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..invocation import pip_install
from .vector import VectorEnv

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(f"ono99.env.sb3 needs Stable-Baselines3: {pip_install('train')}") from error


class SB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over an ono99 ``VectorEnv``; the episode semantics are the vector
    environment's (same-step autoreset: SB3's own convention)."""

    def __init__(self, env: VectorEnv) -> None:
        self.env = env
        self.render_mode = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(env.num_envs)
        self._lengths = np.zeros(env.num_envs, dtype=np.int64)

    def reset(self) -> np.ndarray:
        seeds = self._seeds
        seed: int | list[int] | None = None
        if all(s is not None for s in seeds):
            seed = [int(s) for s in seeds if s is not None]
        elif seeds[0] is not None:
            seed = int(seeds[0])
        obs, info = self.env.reset(seed=seed)
        self.reset_infos = [{"seat": int(s)} for s in info["seat"]]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        obs, reward, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            final = info["final_info"]
            for i in np.flatnonzero(done):
                entry = infos[i]
                entry["terminal_observation"] = info["final_obs"][i]
                entry["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                entry["illegal_action"] = bool(final["illegal_action"][i])
                if "winners" in final and final["_winners"][i]:
                    entry["winners"] = final["winners"][i]
        return obs, reward.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """B × 18 bool: the learner's legal actions (what MaskablePPO asks for)."""
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    # SB3 asks its sub-environments for attributes and methods; here there is one environment
    # object for all of them, so each sub-environment's answer is its row of the batch's.

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.env, attr_name)


def make_vec_env(**kwargs: Any) -> SB3VecEnv:
    """``SB3VecEnv(VectorEnv(**kwargs))``."""
    return SB3VecEnv(VectorEnv(**kwargs))


def policy_of(model: Any, *, deterministic: bool = False) -> Any:
    """The model's policy as an opponent ``policy(obs, mask) -> actions``; it follows the
    model as it learns (self-play against the learner's own current policy)."""

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        actions, _ = model.policy.predict(
            obs, deterministic=deterministic, action_masks=mask.astype(bool)
        )
        return np.asarray(actions)

    return policy


class Snapshot:
    """A frozen copy of an SB3 model's policy (``policy``) as an opponent ``(obs, mask) ->
    actions``: it keeps the weights it was taken with while the model learns on."""

    def __init__(self, model: Any, *, deterministic: bool = False) -> None:
        live = model.policy
        self.policy = type(live)(**live._get_constructor_parameters()).to(live.device)
        self.policy.load_state_dict(copy.deepcopy(live.state_dict()))
        self.policy.set_training_mode(False)
        self.deterministic = deterministic

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        actions, _ = self.policy.predict(
            obs, deterministic=self.deterministic, action_masks=mask.astype(bool)
        )
        return np.asarray(actions)


def snapshot_of(model: Any, *, deterministic: bool = False) -> Snapshot:
    """A frozen copy of the model's policy now, as an opponent (it does not learn on)."""
    return Snapshot(model, deterministic=deterministic)


__all__ = ["SB3VecEnv", "Snapshot", "make_vec_env", "policy_of", "snapshot_of"]
