"""``oracle``: the expert's search on the *true* state — it sees every hand and the draw pile.

It exists only to measure how much skill matters: the gap between the expert and the oracle
is the value of the hidden information, the gap between greedy and the oracle the room for
skill. It is never offered as an opponent (``ono99.bots.ORACLES``, not ``BOTS``). It is an
``OmniscientBot``: it has no ``choose(view)``, and the game loop hands it the full state
through ``choose_state(state, seat)``.

What it does not know is the future: every world it searches is the true state with a fresh
seed for the reshuffles still to come (no card anyone holds or could see decides those).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import Action, Setup, State, View, legal_actions, view
from ..fast.playout import Playout
from .base import OmniscientBot
from .determinize import unseen_counts
from .expert import DEFAULT_MAX_ROLLOUTS, candidates, prior_bot, search
from .greedy import RANKED
from .heuristic import Planner
from .network_rollouts import check_rollout, network_rollouts
from .values import SearchResult, playout_value

DEFAULT_WORLDS = 16  # the cards are known, only future reshuffles vary between worlds


class OracleBot(OmniscientBot):
    """The omniscient ceiling (see the module doc)."""

    name = "oracle"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        max_rollouts: int = DEFAULT_MAX_ROLLOUTS,
        prior: str = "heuristic",
        rollout: str = "heuristic",
    ) -> None:
        self._rng = random.Random(seed)
        self.worlds = worlds
        self.max_rollouts = max_rollouts
        self._prior = prior_bot(prior)  # whose move the search keeps unless another is better
        self.rollout = check_rollout(rollout)  # who plays the rollouts, as ExpertBot's option

    def choose_state(self, state: State, seat: int) -> Action:
        legal = legal_actions(state, seat)
        actions = candidates(legal)
        if len(actions) == 1:
            return actions[0]
        own = view(state, seat)
        prior = self._prior.choose(own)
        actions.sort(key=lambda a: a is not prior)
        result = self._search(state, seat, own, actions)
        return result.best()

    def evaluate_state(self, state: State, seat: int) -> list[tuple[Action, float]]:
        """Every legal action of ``seat`` with its chance of winning the match, searched with
        every hand known (a game review's second lens, once the game is over), in the order
        of ``legal_actions``. Every action is scored on the same worlds, as ``choose_state``
        scores its candidates."""
        legal = list(legal_actions(state, seat))
        if not legal:
            return []
        result = self._search(state, seat, view(state, seat), legal)
        scores = dict(zip(result.actions, result.means(), strict=True))
        return [(a, scores[a]) for a in legal]

    def _search(self, state: State, seat: int, own: View, actions: list[Action]) -> SearchResult:
        """The search of ``actions`` for ``seat`` (``own``: its view, for the planner's count
        of unseen cards) on worlds made from the true state (``worlds_from``)."""
        return search(
            self.worlds_from(state),
            seat,
            actions,
            self._rng,
            Playout(state.rules, RANKED, Planner(state.rules, unseen_counts(own)), seat),
            worlds=self.worlds,
            max_rollouts=self.max_rollouts,
            network=network_rollouts(self.rollout, state.rules, seat, state.dealer, playout_value),
        )

    def worlds_from(self, state: State) -> Callable[[random.Random], State]:
        """How a world to search is made: the true state, with a fresh seed for the
        reshuffles to come."""

        def world(rng: random.Random) -> State:
            return state._replace(setup=Setup(rng.getrandbits(62), state.setup.dealer))

        return world
