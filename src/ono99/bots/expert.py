"""``expert``: information-set Monte Carlo search over determinized rollouts.

At a decision with more than one sensible action, the expert repeats, ``worlds`` times:
sample a full state consistent with its view (``determinize.py``: the cards it has not seen
dealt at random to the other hands and the draw pile, a fresh seed for future shuffles), then,
for *every* candidate action, apply it and play the imagined game on. All candidates are
scored on the same worlds (common random numbers), so their comparison is paired and far less
noisy than the raw estimates. Wide choices get fewer worlds (``max_rollouts`` caps worlds ×
candidates), so the time per move stays bounded.

The heuristic's choice is the default: another action is played only when its paired mean
beats it by more than ``z`` standard errors. Searching "from" a good policy this way keeps the
heuristic's judgement where the samples cannot tell the actions apart, and overrules it where
they clearly can. ``prior="neural"`` starts from the ``neural`` bot's choice instead (its
network, ``bots/neural.py``, in NumPy).

Rollouts run on ``ono99.fast.playout.Playout``, the rules again on plain lists (a declared
second implementation, checked against the engine action by action): the expert's own seat
plays the heuristic's ``Planner``, every other seat plays ``greedy``'s rules of thumb (its one
table, ``greedy.RANKED``) — a fast, reasonable model of an opponent. This is the expert's own
imagined world, so nothing real is revealed. Owed draws (X2) are always taken at once, as
greedy and the heuristic take theirs (and the terminal game has every bot take its own).

What a rollout plays to, and what it scores (RULES.md §7; the values are ``values.py``'s):

- **single** game: to the end of the game; 1 for a win (a shared win counts its share), else 0.
- **tokens**: to the end of the *round* (whole matches are too long to roll out many times).
  The tokens after it become a chance of winning the match with an exact small model in which
  each later round is lost by a player chosen uniformly among those still in: losing a round
  costs most when it costs the last token.
- **points**: to the end of the round. The scores after it (and who leaves or wins, M3, which
  the playout plays out as the engine does) become a chance of winning from the room each
  player has left below the target (room² shares).

Those chances are the estimates ``evaluate`` returns for hints. Instant answers: a single legal
action, and an owed draw (drawing first only adds a card to choose from; a lost draw leaves the
hand short for the round).

``cutoff=k`` stops each rollout at the seat's ``k``-th next decision and takes the ``neural``
network's value of the position there instead of playing on (``bots/cutoff.py``); ``mix``
blends that value with the rollout played on to its end, and ``weights`` names another
network for the prior and the cut-off. Both are off by default: in 424 paired 2-player games
the pure cut-off was weaker and the blend no stronger (docs/bots.md, "The network inside the
search").

``rollout="neural"`` has the ``neural`` network play the searcher's seat in the rollouts
instead of the planner, and ``rollout="neural-all"`` every seat; a decision's rollouts are then
played in lockstep, one forward pass per turn for all of them (``bots/network_rollouts.py``),
and a cut-off takes its value from the same pass.

``infer=True`` samples the worlds with ``inference.InferringSampler``, which leans each
opponent's hand towards what its recent plays suggest (under a greedy model of play). It is
off by default: paired games against ``greedy`` showed no significant gain (the figures are
in docs/bots.md, "Tried, measured, and left out").

``compiled=True`` plays the same rollouts in Numba, many at once (``bots/compiled_search.py``,
the ``fast`` extra), in every edition, option and player count; with ``rollout="neural"`` (or
``"neural-all"``) a rollout waits where the network is to choose, and the network chooses for
all the waiting rollouts at once.

``tuned=True`` plans with the constants tuned for the setting (``bots/tuned.py``): the
planner in the rollouts and, with the heuristic prior, the move the search starts from.
``budget="adaptive"`` (compiled only) spends ``BOOST`` times the worlds at a high total or
owing two, and stops a search early once no candidate could be shown better than the first.

``weigh=True`` (compiled only) reads hands by importance instead: eight times the worlds are
dealt uniformly, each weighted by how well its hands fit every opponent's plays of the whole
round (``inference.Inference.weight``), and the search's worlds are drawn from them in
proportion (``compiled_search.resample``): no cap on tries, no play forgotten.

``opponents="mixture"`` (compiled only) plays each other seat of the rollouts by a model —
greedy, the heuristic, a noisy player or the ``neural`` network — drawn per world from
weights that the seat's own plays of the whole game update (``bots/opponents.py``), instead
of greedy at every seat; ``opponents="heuristic"`` plays every other seat by the heuristic's
planner, whatever it played (heads up against another searching expert: −0.2 ± 1.4 points over
5,000 paired games, docs/bots.md).

``search="ismcts"`` replaces this search by an information-set MCTS over the seat's own
decisions, making as many rollouts as it would (``bots/ismcts.py``); ``"pimc"`` is the above.
"""

from __future__ import annotations

import functools
import importlib.util
import random
import time
from collections.abc import Callable

from ..engine import DRAW, Action, State, View, make_rules, new_game, view
from ..fast.playout import Playout
from ..invocation import pip_install
from .base import Bot
from .cutoff import Cutoff
from .determinize import Determinizer, unseen_counts
from .greedy import RANKED
from .heuristic import DEFAULT, Constants, HeuristicBot, Planner
from .inference import DEFAULT_ERROR, Inference, InferringSampler
from .ismcts import ismcts
from .network import numpy_for
from .network_rollouts import NetworkRollouts, check_rollout, network_rollouts
from .opponents import OpponentModels
from .tuned import constants_for
from .values import SearchResult, playout_value, rollout_value

_HEURISTIC = HeuristicBot()

DEFAULT_WORLDS = 200  # worlds sampled per decision, each scoring every candidate action
DEFAULT_MAX_ROLLOUTS = 800  # cap on worlds × candidates, so wide choices stay fast
DEFAULT_Z = 1.25  # standard errors by which an action must beat the heuristic's choice
PRIORS = ("heuristic", "neural")  # the bots whose move the search starts from
SEARCHES = ("pimc", "ismcts")  # determinized rollouts of every action, or ISMCTS (ismcts.py)
BUDGETS = ("fixed", "adaptive")  # the same worlds everywhere, or more where it matters
HIGH_ROOM = 25  # adaptive: a total within this of the limit is a high one
BOOST = 4  # adaptive: the worlds at a high total or owing two, times the fixed budget
STOP_Z = 2.0  # adaptive: stop once no candidate is within this many errors of the first
WHOLE_ROUND = 1000  # weigh: constraints kept per opponent (every play of the round)
OPPONENTS = ("greedy", "mixture", "heuristic")  # how the rollouts play the others (opponents.py)


def prior_bot(prior: str, weights: str | None = None) -> Bot:
    """The bot of a search's prior (one of ``PRIORS``): the heuristic, or the ``neural`` bot
    (it needs NumPy: imported only when asked for) with ``weights`` (None: the shipped ones)."""
    if prior not in PRIORS:
        raise ValueError(f"prior must be one of {', '.join(PRIORS)}, not {prior!r}")
    if prior == "heuristic":
        return _HEURISTIC
    from .neural import NeuralBot

    return NeuralBot(weights=weights)


# The advisor's options where Numba is installed: the strongest measured settings of the
# compiled search, and the opponents read from their own plays (docs/bots.md).
ADVISOR = {"compiled": True, "tuned": True, "budget": "adaptive", "opponents": "mixture"}


@functools.cache
def compiled_available() -> bool:
    """Whether the compiled search can run here: the ``fast`` extra, and a Numba that loads
    (one built for another NumPy is there but fails on import, and then Python searches)."""
    if importlib.util.find_spec("numba") is None:
        return False
    try:
        from . import compiled_search  # noqa: F401
    except ImportError:
        return False
    return True


def advisor(seed: int | None = None) -> ExpertBot:
    """The expert a person's hint asks, in the terminal and the browser: with Numba, the
    compiled search with ``ADVISOR``'s options, so the chances it shows are a best reply to the
    players at the table as their plays show them (``opponents.py``), not to greedy ones;
    without it, the default search (every opponent modelled as greedy)."""
    if compiled_available():
        return ExpertBot(seed, **ADVISOR)  # type: ignore[arg-type]
    return ExpertBot(seed)


def warm_advisor() -> None:
    """One search by the advisor, so that the first person to ask for a hint does not wait
    while Numba loads the compiled search (half a second) or, on a new install, compiles it
    (half a minute): a server calls it on a worker thread when it starts."""
    state = new_game(make_rules("2022", players=3), 1)
    assert state.to_play is not None
    advisor(1).advise(view(state, state.to_play))


# --------------------------------------------------------------------------- search


def candidates(legal: tuple[Action, ...] | list[Action]) -> list[Action]:
    """The actions worth searching. Drawing when owed is always right (it only adds a card)."""
    if DRAW in legal:
        return [DRAW]
    return list(legal)


def worlds_for(candidates: int, worlds: int, max_rollouts: int) -> int:
    """How many worlds a search of ``candidates`` actions samples: ``worlds``, fewer where
    worlds × candidates would pass ``max_rollouts``, and at least one."""
    return max(1, min(worlds, max_rollouts // max(1, candidates)))


def search(
    sample: Callable[[random.Random], State],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    playout: Playout,
    *,
    worlds: int,
    max_rollouts: int,
    time_limit: float | None = None,
    cutoff: Cutoff | None = None,
    network: NetworkRollouts | None = None,
) -> SearchResult:
    """Score each of ``actions`` by rollouts from the same sampled worlds: to the horizon, or,
    with a ``cutoff``, to the seat's next decision(s), valued there all at once; with a
    ``network``, played by it in lockstep (``bots/network_rollouts.py``)."""
    result = SearchResult(actions)
    n_worlds = worlds_for(len(actions), worlds, max_rollouts)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    later: list[tuple[int, int]] = []  # (candidate, world) valued at the cut-off, or batched
    batch: list[Playout] = []  # the network's rollouts, in the order of ``later``
    for _ in range(n_worlds):
        world = sample(rng)
        for i, action in enumerate(actions):
            if network is not None:
                rollout = network.playout()
                rollout.load(world)
                if rollout.act(seat, action):
                    result.values[i].append(playout_value(rollout, seat))
                    continue
                later.append((i, len(result.values[i])))
                batch.append(rollout)
                result.values[i].append(0.0)
                continue
            if cutoff is None:
                result.values[i].append(rollout_value(playout, world, seat, action))
                continue
            playout.load(world)
            if playout.act(seat, action) or cutoff.rollout(playout):
                result.values[i].append(playout_value(playout, seat))
                continue
            later.append((i, len(result.values[i])))
            outcome = 0.0
            if cutoff.mix < 1.0:  # the rollout's own outcome too, to blend with the value
                playout.run()
                outcome = playout_value(playout, seat)
            result.values[i].append(outcome)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    if network is not None:
        for (i, j), value in zip(later, network.finish(batch), strict=True):
            result.values[i][j] = value
    elif cutoff is not None:
        mix = cutoff.mix
        for (i, j), value in zip(later, cutoff.values(), strict=True):
            result.values[i][j] = mix * value + (1.0 - mix) * result.values[i][j]
    return result


class ExpertBot:
    """Determinized Monte Carlo search from the seat's view (see the module doc)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        max_rollouts: int = DEFAULT_MAX_ROLLOUTS,
        time_limit: float | None = None,
        plan: bool = True,
        z: float = DEFAULT_Z,
        infer: bool = False,
        error: float = DEFAULT_ERROR,
        prior: str = "heuristic",
        cutoff: int = 0,
        weights: str | None = None,
        mix: float = 1.0,
        rollout: str = "heuristic",
        search: str = "pimc",
        compiled: bool = False,
        tuned: bool = False,
        budget: str = "fixed",
        weigh: bool = False,
        opponents: str = "greedy",
    ) -> None:
        self._rng = random.Random(seed)
        self.worlds = worlds
        self.max_rollouts = max_rollouts
        self.time_limit = time_limit
        self.plan = plan  # rollouts play the expert's own seat with the heuristic's planner
        self.z = z  # how sure the search must be to overrule the heuristic (standard errors)
        self.infer = infer  # lean the sampled hands towards what the opponents' play suggests
        self.error = error
        self.prior = prior  # whose move the search keeps unless another is clearly better
        self.weights = weights  # the network of the neural prior and the cut-off (None: shipped)
        self._prior_bot = prior_bot(prior, weights)
        if cutoff < 0:
            raise ValueError(f"cutoff must be 0 (to the end) or a number of turns, not {cutoff}")
        self.cutoff = cutoff  # rollouts stop at the seat's cutoff-th next decision (0: never)
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix must be between 0 and 1, not {mix}")
        self.mix = mix  # the network's share of a cut-off rollout's value; the rest its outcome
        self.rollout = check_rollout(rollout)  # who plays the rollouts: rules of thumb or network
        if rollout != "heuristic" or cutoff:  # the network: say now if NumPy is missing
            numpy_for("an expert searching with the network")
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
        if search == "ismcts" and (cutoff or rollout != "heuristic"):
            raise ValueError("search='ismcts' plays its rollouts to the end with the heuristic's "
                             "planner: it takes no cutoff and no network rollouts")  # fmt: skip
        self.search = search
        # Rollouts in Numba (``compiled_search.py``, the ``fast`` extra).
        self.compiled = compiled
        if compiled:
            if search != "pimc" or cutoff:
                raise ValueError(
                    "compiled=True plays PIMC rollouts to the end: no ismcts or cutoff"
                )
            try:
                from . import compiled_search  # noqa: F401 - say now if Numba is missing
            except ImportError as error:
                raise ImportError(f"compiled=True needs numba: {pip_install('fast')}") from error
        # The planner's constants tuned for the setting (``tuned.py``), in the rollouts and,
        # with the heuristic prior, in the move the search starts from.
        self.tuned = tuned
        if budget not in BUDGETS:
            raise ValueError(f"budget must be one of {', '.join(BUDGETS)}, not {budget!r}")
        if budget == "adaptive" and not compiled:
            raise ValueError("budget='adaptive' is a budget of the compiled search: compiled=True")
        self.budget = budget
        # Hand reading by importance: uniform worlds, each weighted by how well every
        # opponent's hand fits its whole round's play (compiled only).
        if weigh and (not compiled or infer):
            raise ValueError("weigh=True weighs the compiled search's worlds: compiled=True, "
                             "and not infer=True (which samples them another way)")  # fmt: skip
        self.weigh = weigh
        # Every other seat played by greedy, or by a model drawn from a mixture that the
        # seat's own plays weigh (compiled only).
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}, not {opponents!r}")
        if opponents != "greedy" and not compiled:
            raise ValueError(f"opponents={opponents!r} models the compiled rollouts' players: "
                             "compiled=True")  # fmt: skip
        self.opponents = opponents

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        actions = candidates(legal)
        if len(actions) == 1:
            return actions[0]
        # The prior's choice first (the heuristic's by default): ties and near-ties keep it.
        prior = self._prior(view).choose(view)
        actions.sort(key=lambda a: a is not prior)
        return self._search(view, actions).best(self.z)

    def evaluate(self, view: View) -> list[tuple[Action, float]]:
        """Every legal action with its estimated chance of winning the match, computed from
        the view only (for hints), in the order of ``view.legal``."""
        return self.advise(view)[1]

    def advise(self, view: View) -> tuple[Action | None, list[tuple[Action, float]]]:
        """The move ``choose`` would make, found by one search over *every* legal action, and
        each action's estimated chance of winning (in the order of ``view.legal``)."""
        legal = list(view.legal)
        if not legal:
            return None, []
        prior = DRAW if DRAW in legal else self._prior(view).choose(view)
        actions = sorted(legal, key=lambda a: a is not prior)
        result = self._search(view, actions)
        choice = prior if prior is DRAW else result.best(self.z)
        scores = dict(zip(result.actions, result.means(), strict=True))
        return choice, [(a, scores[a]) for a in legal]

    def _constants(self, view: View) -> Constants:
        return constants_for(view.rules) if self.tuned else DEFAULT

    def _prior(self, view: View) -> Bot:
        if self.tuned and self.prior == "heuristic":
            return HeuristicBot(constants=self._constants(view))
        return self._prior_bot

    def _opponents(self, view: View) -> OpponentModels | None:
        """How the compiled rollouts play the other seats: greedy (None), a mixture read from
        their plays, or every one the heuristic's planner."""
        if self.opponents == "mixture":
            return OpponentModels(view)
        if self.opponents == "heuristic":
            return OpponentModels(view, fixed="heuristic")
        return None

    def _worlds(self, view: View, candidates: int) -> int:
        """The worlds of one search: the fixed budget's, times ``BOOST`` where the adaptive
        budget spends more (a high total, or two cards owed)."""
        n = worlds_for(candidates, self.worlds, self.max_rollouts)
        if self.budget == "adaptive" and (
            view.owed == 2 or view.total >= view.rules.max_total - HIGH_ROOM
        ):
            n *= BOOST
        return n

    def _search(self, view: View, actions: list[Action]) -> SearchResult:
        seat = view.seat
        assert seat is not None
        plain = Determinizer(view)
        sampler = (
            InferringSampler(plain, Inference(view, error=self.error)) if self.infer else plain
        )
        planner = (
            Planner(view.rules, unseen_counts(view), self._constants(view)) if self.plan else None
        )
        # What both searches take: worlds, the seat, its candidates, randomness, a rollout.
        given = (
            sampler.sample,
            seat,
            actions,
            self._rng,
            Playout(view.rules, RANKED, planner, seat),
        )
        if self.compiled:
            from .compiled_search import compiled_search

            return compiled_search(
                sampler,
                seat,
                actions,
                self._rng,
                view.rules,
                planner,
                worlds=self._worlds(view, len(actions)),
                time_limit=self.time_limit,
                stop_z=STOP_Z if self.budget == "adaptive" else None,
                weigh=Inference(view, depth=WHOLE_ROUND, error=self.error) if self.weigh else None,
                opponents=self._opponents(view),
                rollout=self.rollout,
                weights=self.weights,
            )
        if self.search == "ismcts":
            return ismcts(
                *given,
                # As many rollouts as ``search`` would make: worlds × candidates, capped.
                iterations=worlds_for(len(actions), self.worlds, self.max_rollouts) * len(actions),
                time_limit=self.time_limit,
            )
        return search(
            *given,
            worlds=self.worlds,
            max_rollouts=self.max_rollouts,
            time_limit=self.time_limit,
            cutoff=(
                Cutoff(view.rules, seat, view.dealer, self.cutoff, self.weights, self.mix)
                if self.cutoff and self.rollout == "heuristic"
                else None
            ),
            network=network_rollouts(
                self.rollout,
                view.rules,
                seat,
                view.dealer,
                playout_value,
                weights=self.weights,
                cutoff=self.cutoff,
                mix=self.mix,
            ),
        )
