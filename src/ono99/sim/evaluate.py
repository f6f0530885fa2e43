"""Evaluating any policy against the bots: a win rate with its 95% interval, per seat too.

``evaluate(policy, opponents=…, players=…, games=…)`` plays ``games`` games of one rule set.
The policy takes one seat, the opponents the others; game ``i`` puts the policy at seat
``i mod players`` (seats rotated, so every seat is measured equally often when ``games`` is a
multiple of ``players``), and its deal and every bot's seed are hashed from (``seed``, ``i``),
so two policies evaluated with the same arguments meet exactly the same deals and opponents
(a paired comparison), and a run is the same on any machine.

A policy is any of:

- a callable ``policy(obs, mask) -> action``: ``obs`` is the seat's view encoded by
  ``ono99.features.encode`` (the observation of the RL environments), ``mask`` the int8 mask of
  the 18 actions (``ono99.engine.ALL_ACTIONS``) that are legal, and the answer an action index
  (an ``int`` or a NumPy integer) or an ``Action``. It is asked at every decision of its seat,
  owed draws (X2) included. An illegal answer stops the evaluation with a one-line
  ``IllegalPolicyAction``;
- a bot: an object with ``choose(view) -> Action`` (``ono99.bots.Bot``);
- a bot's name in the registry, or an outside bot's import path (``pkg.module:Factory``,
  see ``ono99.bots``): a new one is built for each game with that game's seed.

Opponents are a name (every other seat) or a sequence of ``players - 1`` names, the seats after
the policy's clockwise. Tied winners share a win (1/k each), as in tournaments. The measure is
the win rate; against ``players - 1`` equal opponents an equal policy wins ``1 / players``.

Lives in ``sim`` (it plays games with the driver and uses ``features``); ``ono99.evaluate`` is
this function, loaded on first use so that ``import ono99`` stays standard-library only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import Agent, Bot, check_bot, make_bot, make_opponent
from ..bots.network import numpy_for
from ..engine import ALL_ACTIONS, Action, Rules, State, View, make_rules, to_act
from .driver import BotError, play_game
from .seeding import derived_seed
from .stats import wilson_interval

Policy = Callable[[Any, Any], Any]


class IllegalPolicyAction(ValueError):
    """A policy answered with an action that is not legal (or not an action at all)."""


@dataclass(frozen=True)
class Rate:
    """Wins out of games, with the 95% Wilson interval of the win rate."""

    games: int
    wins: float  # a win shared by k tied winners counts 1/k
    win_rate: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, wins: float, games: int) -> Rate:
        return cls(games, wins, wins / games if games else 0.0, wilson_interval(wins, games))

    def __str__(self) -> str:
        low, high = self.ci95
        return f"{self.win_rate:.1%} ({low:.1%}–{high:.1%}, {self.games} games)"


@dataclass(frozen=True)
class Evaluation:
    """What ``evaluate`` measured."""

    policy: str
    opponents: tuple[str, ...]  # the seats after the policy's, clockwise
    rules: Rules
    seed: int
    overall: Rate
    seats: tuple[Rate, ...]  # the policy's results at each seat
    decisions: int  # the policy's decisions (its seat's actions)
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.overall.win_rate

    @property
    def ci95(self) -> tuple[float, float]:
        return self.overall.ci95

    @property
    def baseline(self) -> float:
        """The win rate of a policy no better than its opponents: one in ``players``."""
        return 1 / self.rules.players

    def to_dict(self) -> dict[str, Any]:
        def rate(r: Rate) -> dict[str, Any]:
            return {"games": r.games, "wins": r.wins, "win_rate": r.win_rate, "ci95": r.ci95}

        return {
            "policy": self.policy,
            "opponents": list(self.opponents),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            **rate(self.overall),
            "seats": [{"seat": k, **rate(r)} for k, r in enumerate(self.seats)],
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
        }


class PolicyBot:
    """A callable ``policy(obs, mask)`` seated as a bot: it encodes the view it is given."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        numpy_for("a policy of (obs, mask)")
        from ..features import encode, legal_mask

        self.name = name
        self._policy = policy
        self._encode = encode
        self._legal_mask = legal_mask
        self.decisions = 0

    def mask(self, view: View) -> Any:
        """The int8 mask of the 18 actions, 1 where legal (as the RL environments give it)."""
        return self._legal_mask(view)

    def choose(self, view: View) -> Action:
        mask = self.mask(view)
        answer = self._policy(self._encode(view), mask)
        self.decisions += 1
        return _as_action(answer, view)


def _as_action(answer: Any, view: View) -> Action:
    if isinstance(answer, Action):
        action = answer
    else:
        if hasattr(answer, "shape") and answer.shape == () and hasattr(answer, "item"):
            answer = answer.item()  # a 0-d NumPy array or a torch scalar
        if isinstance(answer, bool) or not hasattr(answer, "__index__"):
            raise IllegalPolicyAction(
                f"the policy answered {answer!r}; it must answer an action index from 0 to "
                f"{len(ALL_ACTIONS) - 1}"
            )
        index = answer.__index__()
        if not 0 <= index < len(ALL_ACTIONS):
            raise IllegalPolicyAction(
                f"the policy answered {index}; action indices go from 0 to {len(ALL_ACTIONS) - 1}"
            )
        action = ALL_ACTIONS[index]
    if action not in view.legal:
        legal = ", ".join(f"{a.index} ({a})" for a in view.legal)
        raise IllegalPolicyAction(
            f"the policy chose {action.index} ({action}) at seat {view.seat}, which is not "
            f"legal here; the legal actions were {legal}"
        )
    return action


def _describe(policy: object) -> str:
    if isinstance(policy, str):
        return policy
    name = getattr(policy, "name", None)
    if isinstance(name, str):
        return name
    return getattr(policy, "__qualname__", None) or type(policy).__name__


def _seat(policy: object, seed: int) -> Agent:
    """The policy as a bot for one game."""
    if isinstance(policy, str):
        return make_bot(policy, seed)
    if hasattr(policy, "choose"):
        return policy  # type: ignore[return-value]
    raise TypeError(f"not a policy: {policy!r}")  # pragma: no cover - checked before


def evaluate(
    policy: Policy | Bot | str,
    opponents: str | Sequence[str] = "greedy",
    players: int = 4,
    games: int = 400,
    *,
    seed: int = 0,
    edition: str = "2022",
    rules: Rules | None = None,
    **options: Any,
) -> Evaluation:
    """Play ``games`` games of ``policy`` against ``opponents`` and measure its win rate.

    The rules are ``rules`` if given (its player count must be ``players``), else
    ``make_rules(edition, players=players, **options)``. See the module's doc for what a
    policy may be and how seats and seeds are chosen."""
    if rules is None:
        rules = make_rules(edition, players=players, **options)
    elif options or rules.players != players:
        raise ValueError(
            "give either rules or edition and options, with players matching the rules' "
            f"{rules.players}"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    lineup = (opponents,) * (players - 1) if isinstance(opponents, str) else tuple(opponents)
    if len(lineup) != players - 1:
        raise ValueError(
            f"{players} players need {players - 1} opponents (one name for all), not {len(lineup)}"
        )
    for name in dict.fromkeys(lineup):
        check_bot(name)  # one line saying why a name cannot be used, before any game
    if isinstance(policy, str):
        check_bot(policy)
        seated: Any = policy
    elif hasattr(policy, "choose"):
        seated = policy
    elif callable(policy):
        seated = PolicyBot(policy, _describe(policy))
    else:
        raise TypeError(
            f"a policy is a callable policy(obs, mask), a bot or a bot's name, not {policy!r}"
        )

    wins = [0.0] * players
    played = [0] * players
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        seat = i % players
        bots: list[Agent] = []
        for k in range(players):
            bot_seed = derived_seed("evaluate", seed, i, "seat", k)
            if k == seat:
                bots.append(_seat(seated, bot_seed))
            else:
                bots.append(make_opponent(lineup[(k - seat - 1) % players], bot_seed))
        asked = [0]

        def count(state: State, seat: int = seat, asked: list[int] = asked) -> None:
            if not state.over and to_act(state) == seat:
                asked[0] += 1

        try:
            state = play_game(rules, bots, derived_seed("evaluate", seed, i), on_state=count)
        except BotError as exc:
            if isinstance(exc.__cause__, IllegalPolicyAction):
                raise exc.__cause__ from None  # the policy's own words, with its obs and mask
            raise
        decisions += asked[0]
        played[seat] += 1
        if seat in state.winners:
            wins[seat] += 1 / len(state.winners)
    seconds = time.perf_counter() - start
    return Evaluation(
        policy=_describe(policy),
        opponents=lineup,
        rules=rules,
        seed=seed,
        overall=Rate.of(sum(wins), games),
        seats=tuple(Rate.of(w, n) for w, n in zip(wins, played, strict=True)),
        decisions=decisions,
        seconds=seconds,
    )


__all__ = ["Evaluation", "IllegalPolicyAction", "PolicyBot", "Rate", "evaluate"]
