"""A PettingZoo AEC environment for 2–6 players: every seat is an agent.

``env(edition, render_mode=None, **options)`` is the wrapped environment (order enforcing);
``raw_env(...)`` the bare one. Agents are ``player_0`` … ``player_{n-1}``, one per seat. The
agent to act is the seat the engine asks next (``ono99.engine.to_act``): a seat owing a draw
under the draw penalty (X2) first, else the seat to play. The episode is the whole match: a
single game, or every round of a tokens or points match.

Observations are ``{"observation": float32 vector, "action_mask": int8[18]}``, built from the
seat's ``View`` only (``ono99.features``); the mask is all zeros except for the agent asked now.

Rewards come once per agent, when its episode ends: ``+1 / k`` to each of the ``k`` winners,
``−1`` to every other seat — when it leaves the game (eliminated, last token lost, over the
target), or at the end. Agents out of the game are terminated at once (PettingZoo's dead-agent
convention: they are selected, must step ``None`` and are then removed). An illegal action (a
masked-out index, or anything but an integer 0–17) ends the episode: the offender gets
``illegal_reward`` (−1) and ``infos[agent]["illegal_action"] = True``, everyone else 0, and
every agent is terminated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..engine import (
    ALL_ACTIONS,
    OUT,
    Rules,
    State,
    apply_unchecked,
    legal_actions,
    make_rules,
    new_game,
    to_act,
    view,
)
from ..features import NUM_ACTIONS, encode, observation_bounds
from .action_space import action_index, action_mask
from .render import check_render_mode, render_view
from .rewards import ILLEGAL, final_reward

Obs = dict[str, np.ndarray]


class Ono99AECEnv(AECEnv[str, Obs, int | None]):
    """ONO 99 for 2–6 agents; see the module docstring and ``docs/rl.md``."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "render_modes": ["human", "ansi"],
        "name": "ono99_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        edition: str = "2022",
        *,
        rules: Rules | None = None,
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL,
        **options: Any,
    ) -> None:
        super().__init__()
        if rules is not None and options:
            raise ValueError("give either rules= or rule options, not both")
        self.rules = rules if rules is not None else make_rules(edition, **options)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = observation_bounds()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game: State | None = None  # the full state: the referee's, never an agent's
        self._illegal = False

    # ------------------------------------------------------------------ the AEC API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._illegal = False
        self._select()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Obs:
        game = self._game()
        seat = self.agent_name_mapping[agent]
        v = view(game, seat)
        acting = not self._illegal and to_act(game) == seat
        return {"observation": encode(v), "action_mask": action_mask(v, acting)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        index = action_index(action)
        legal = {a.index for a in legal_actions(game, seat)} if to_act(game) == seat else set()
        if index is None or index not in legal:
            self._illegal = True
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": True}
        else:
            # Checked just above against legal_actions, so the engine's unchecked path (STYLE
            # principle 6); apply's own check cost a tenth of a step.
            game = self.game = apply_unchecked(game, seat, ALL_ACTIONS[index])
            for a in self.agents:
                s = self.agent_name_mapping[a]
                if game.over or game.status[s] == OUT:
                    self.terminations[a] = True
                    self.rewards[a] = final_reward(game, s)
            self._select()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        return render_view(view(self._game()), self.render_mode)  # the spectator's: public facts

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ helpers

    def _game(self) -> State:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _deal(self) -> State:
        """A new match. A deal where a seat is already out of the game before anyone acts (its
        first player stuck, e.g. holding four ONO 99s without K7) is dealt again from the
        next seed, so that every agent starts the episode alive."""
        while True:
            game = new_game(self.rules, int(self._rng.integers(2**62)))
            if not game.out:
                return game

    def _select(self) -> None:
        seat = to_act(self._game())
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]


def raw_env(
    edition: str = "2022",
    *,
    rules: Rules | None = None,
    render_mode: str | None = None,
    illegal_reward: float = ILLEGAL,
    **options: Any,
) -> Ono99AECEnv:
    """The bare AEC environment (no wrappers)."""
    return Ono99AECEnv(
        edition, rules=rules, render_mode=render_mode, illegal_reward=illegal_reward, **options
    )


def env(
    edition: str = "2022",
    *,
    rules: Rules | None = None,
    render_mode: str | None = None,
    illegal_reward: float = ILLEGAL,
    **options: Any,
) -> AECEnv[str, Obs, int | None]:
    """The AEC environment wrapped to enforce the call order (reset before step, …)."""
    bare = raw_env(
        edition, rules=rules, render_mode=render_mode, illegal_reward=illegal_reward, **options
    )
    return OrderEnforcingWrapper(bare)
