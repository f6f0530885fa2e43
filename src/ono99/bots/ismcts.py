"""``ismcts``: single-observer information-set MCTS over the searcher's own decisions.

The expert's default search (``expert.search``, PIMC) scores every candidate action on the
same sampled worlds and plays each rollout on with fixed policies. This is the alternative of
Cowling, Powley & Whitehouse (2012), SO-ISMCTS, cut down to what the expert's rollouts can
model: each iteration samples one world consistent with the seat's view, picks a root action by
UCB1, and then walks a tree of the searcher's *own* later decisions, choosing there by UCB as
well, down to ``depth`` of them; the rest of the game is the usual rollout (the heuristic's
planner at the searcher's seat, ``greedy``'s table elsewhere, ``Playout.run``). The other seats
are not in the tree: between two of the searcher's decisions they play greedy's moves inside
``Playout.run``, exactly as in the PIMC rollouts. So the tree learns a better plan for the
searcher against that model of the opponents, not how the opponents would answer it.

Nodes. A node is the searcher's information set as far as this search can tell it: the key is
the searcher's own actions since the root, its hand (sorted), the total, the cards owed (one,
or two after a PLAY 2) and whether ONO 99 was just played — what the seat observes at that
decision that decides which cards it may play, and most of what the choice depends on. The
actions alone would mix different hands in one node (the card drawn after a play is random),
so its statistics would average over choices that are not even the same moves; the other
observable facts left out (the hand sizes, the direction, the discard pile) merge positions
that differ a little, which keeps the nodes few enough to be visited more than once.

Selection. At the root, UCB1 over ``actions`` (untried first, in order, so the prior's move is
tried first). Below, the actions available are those legal in the iteration's world; a node
counts, for each action, how often it was available when the node was visited, and UCB uses
that count in place of the parent's visits (the ISMCTS rule). Untried actions come first, the
rollout's own choice (the planner's card) first among them, so a node met only once plays the
rollout's move and the iteration is then a plain rollout. Values are the chances of
``values.playout_value`` (0 … 1), so ``c`` is on that scale.

``ExpertBot(search="ismcts")`` runs as many iterations as its PIMC search would make rollouts
(worlds × candidates, capped by ``max_rollouts``), with the same prior, sampler (``infer``) and
``z``; it refuses a ``cutoff`` and network rollouts (every iteration is played to the horizon
by the hand-written policies).
Each iteration samples its own world, where PIMC's one world serves every candidate, so a move
costs more time at the same number of rollouts.

The result is an ``IsmctsResult``: per root action, the value of every iteration that took it.
Those are not on common worlds (each iteration samples its own), so ``best`` compares the prior's
move with the others by the unpaired standard error of the difference of means.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..engine import ALL_ACTIONS, Action, State
from ..fast.playout import Playout
from .values import SearchResult, playout_value

DEFAULT_C = 0.7  # UCB exploration constant for values in 0 … 1 (Cowling et al. used 0.7)
DEFAULT_DEPTH = 2  # the searcher's decisions below the root that the tree chooses

NodeKey = tuple[tuple[int, ...], tuple[int, ...], int, int, bool]


class Node:
    """The statistics of one information set of the searcher: per action (``ALL_ACTIONS``
    index), its visits, the sum of their values, and how often it was available."""

    __slots__ = ("avail", "n", "visits", "w")

    def __init__(self) -> None:
        self.visits = 0  # how often an iteration reached this node (within the depth)
        self.n: dict[int, int] = {}
        self.w: dict[int, float] = {}
        self.avail: dict[int, int] = {}

    def select(self, legal: list[int], first: int, c: float) -> int:
        """Count a visit and the availability of every legal action, then pick one: an untried
        one if any (``first``, the rollout's choice, before the others), else by UCB."""
        self.visits += 1
        avail, n = self.avail, self.n
        for a in legal:
            avail[a] = avail.get(a, 0) + 1
        if first in legal and first not in n:
            return first
        best, top = -1, -math.inf
        for a in legal:
            k = n.get(a, 0)
            if k == 0:
                return a
            score = self.w[a] / k + c * math.sqrt(math.log(avail[a]) / k)
            if score > top:
                best, top = a, score
        return best

    def update(self, a: int, value: float) -> None:
        self.n[a] = self.n.get(a, 0) + 1
        self.w[a] = self.w.get(a, 0.0) + value


class IsmctsResult(SearchResult):
    """``SearchResult`` of an ISMCTS: ``values[i]`` holds the value of every iteration through
    root action ``i``, each on its own world (so the lists differ in length, and are unpaired)."""

    def best(self, z: float = 1.0) -> Action:
        """The first candidate (the caller's preferred one) unless another beats it by more
        than ``z`` standard errors of the difference of the two means (unpaired)."""
        base = self.values[0]
        if len(base) < 2:
            return self.actions[0]
        means = self.means()
        var0 = _variance(base, means[0]) / len(base)
        choice, top = 0, means[0]
        for i in range(1, len(self.actions)):
            values = self.values[i]
            if len(values) < 2 or means[i] <= top:
                continue
            d = means[i] - means[0]
            if d > z * (var0 + _variance(values, means[i]) / len(values)) ** 0.5:
                choice, top = i, means[i]
        return self.actions[choice]


def _variance(values: list[float], mean: float) -> float:
    return sum((x - mean) ** 2 for x in values) / (len(values) - 1)


def ismcts(
    sample: Callable[[random.Random], State],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    playout: Playout,
    *,
    iterations: int,
    c: float = DEFAULT_C,
    time_limit: float | None = None,
    depth: int = DEFAULT_DEPTH,
    tree: dict[NodeKey, Node] | None = None,
) -> IsmctsResult:
    """Run ``iterations`` ISMCTS iterations (fewer if ``time_limit`` seconds pass first) from
    the seat's view, whose worlds ``sample`` draws, over the root ``actions`` (the prior's
    first). ``tree``, when given, receives the nodes below the root (for inspection)."""
    result = IsmctsResult(actions)
    m = len(actions)
    root_n = [0] * m
    root_w = [0.0] * m
    nodes: dict[NodeKey, Node] = {} if tree is None else tree
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    for it in range(iterations):
        # The root: UCB1, every action tried once first, in order.
        if it < m:
            i = it
        else:
            log_n = math.log(it)
            i, top = 0, -math.inf
            for j in range(m):
                score = root_w[j] / root_n[j] + c * math.sqrt(log_n / root_n[j])
                if score > top:
                    i, top = j, score
        playout.load(sample(rng))
        action = actions[i]
        ended = playout.act(seat, action)
        history: tuple[int, ...] = (action.index,)
        path: list[tuple[Node, int]] = []
        while not ended and len(path) < depth:
            if playout.run(seat, 1):
                ended = True
                break
            key = (
                history,
                tuple(sorted(playout.hands[seat])),
                playout.total,
                playout.owed,
                playout.ono_played,
            )
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = Node()
            legal = playout.legal()
            assert legal, "the searcher is to play, so it has a legal action"
            a = node.select(legal, playout.choice(), c)
            path.append((node, a))
            ended = playout.act(seat, ALL_ACTIONS[a])
            history += (a,)
        if not ended:
            playout.run()
        value = playout_value(playout, seat)
        result.values[i].append(value)
        root_n[i] += 1
        root_w[i] += value
        for node, a in path:
            node.update(a, value)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return result
