"""A Gymnasium single-agent environment: one learner's seat, the others played by named bots.

``Ono99Env(edition, opponents=("greedy",), seat=0, **options)``, registered as
``ono99/Ono99-v0``. Observations are the learner's view as a float32 vector (``ono99.features``);
actions are the 18 engine action indices. The learner's legal actions are in
``info["action_mask"]`` (int8) and ``action_masks()`` (bool, for MaskablePPO).

One episode is one match (a single game, or every round of a tokens or points match), from the
learner's point of view: it ends when the match is over or the learner is out of the game.
The reward is 0 on every step but the last, which gives ``+1 / k`` when the learner is one of
``k`` winners, ``−1`` otherwise. An illegal action (a masked-out index, or anything but an
integer 0–17) ends the episode at once with reward ``illegal_reward`` (−1) and
``info["illegal_action"] = True``; the game is left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Agent, OmniscientBot, make_bot
from ..engine import ALL_ACTIONS, OUT, Rules, State, apply, make_rules, new_game, to_act, view
from ..features import NUM_ACTIONS, encode, observation_bounds
from ..sim.driver import advance
from .action_space import action_index, action_mask
from .render import check_render_mode, render_view
from .rewards import ILLEGAL, final_reward

Opponent = str | Agent
MAX_DEALS = 10_000  # re-deals allowed at a reset before giving up (see _deal)


class Ono99Env(gym.Env[np.ndarray, np.int64]):
    """ONO 99 from one seat; see the module docstring and ``docs/rl.md``."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        edition: str = "2022",
        *,
        opponents: Opponent | Sequence[Opponent] = ("greedy",),
        seat: int | str = 0,
        rules: Rules | None = None,
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL,
        **options: Any,
    ) -> None:
        if rules is not None and options:
            raise ValueError("give either rules= or rule options, not both")
        self.rules = rules if rules is not None else make_rules(edition, **options)
        n = self.rules.players
        given: tuple[Opponent, ...] = (
            tuple(opponents)
            if isinstance(opponents, Sequence) and not isinstance(opponents, str)
            else (opponents,)
        )
        if len(given) not in (1, n - 1):
            raise ValueError(
                f"{n} players need 1 or {n - 1} opponents (one per other seat), not {len(given)}"
            )
        for o in given:
            if isinstance(o, str):
                make_bot(o)  # an unknown name fails here, listing the known ones
            elif not callable(getattr(o, "choose", None)) and not isinstance(o, OmniscientBot):
                raise ValueError(f"an opponent is a bot name or a bot, not {o!r}")
        # The opponents sit in the seats after the learner's, clockwise.
        self.opponents = given * (n - 1) if len(given) == 1 else given
        if seat != "random" and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise ValueError(f"seat must be 0 to {n - 1} or 'random', not {seat!r}")
        self.seat_option = seat
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.illegal_reward = float(illegal_reward)
        low, high = observation_bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.seat = 0 if seat == "random" else int(seat)
        self.game: State | None = None  # the full state: the referee's, never the learner's
        self._bots: list[Agent | None] = []  # None at the learner's seat
        self._done = True

    # ------------------------------------------------------------------ the Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.game = self._deal()
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        game = self._game()
        index = action_index(action)
        if index is None or not self.action_masks()[index]:
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        game = self.game = self._play_opponents(apply(game, self.seat, ALL_ACTIONS[index]))
        terminated = game.over or game.status[self.seat] == OUT
        self._done = terminated
        reward = final_reward(game, self.seat) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as 18 booleans (all False once the episode ended)."""
        return self._mask().astype(bool)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        return render_view(view(self._game(), self.seat), self.render_mode)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ helpers

    def _game(self) -> State:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _deal(self) -> State:
        """A new match, played by the opponents up to the learner's first decision. A deal in
        which the learner is out before it ever acts carries nothing to learn from: it is dealt
        again from the next seed (rare, except with a tiny max_total)."""
        rng = self.np_random
        n = self.rules.players
        for _ in range(MAX_DEALS):
            if self.seat_option == "random":
                self.seat = int(rng.integers(n))
            self._bots = [None] * n
            for k, o in enumerate(self.opponents):
                bot = make_bot(o, int(rng.integers(2**62))) if isinstance(o, str) else o
                self._bots[(self.seat + 1 + k) % n] = bot
            game = self._play_opponents(new_game(self.rules, int(rng.integers(2**62))))
            if not game.over and game.status[self.seat] != OUT:
                return game
        raise RuntimeError(f"no deal in {MAX_DEALS} gave seat {self.seat} a decision")

    def _play_opponents(self, game: State) -> State:
        """Let the bots act until the learner is asked, is out of the game, or it is over."""
        return advance(game, self._bots, stop=self._learner_out)

    def _learner_out(self, game: State) -> bool:
        return game.status[self.seat] == OUT

    def _mask(self) -> np.ndarray:
        game = self._game()
        v = view(game, self.seat)
        return action_mask(v, not self._done and to_act(game) == self.seat)

    def _observation(self) -> np.ndarray:
        return encode(view(self._game(), self.seat))

    def _info(self) -> dict[str, Any]:
        game = self._game()
        info: dict[str, Any] = {
            "action_mask": self._mask(),
            "seat": self.seat,
            "illegal_action": False,
        }
        if game.over:
            info["winners"] = tuple(game.winners)
        return info
