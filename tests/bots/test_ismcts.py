"""The expert's information-set MCTS (``bots/ismcts.py``, ``ExpertBot(search="ismcts")``)."""

from __future__ import annotations

import math
import random

import pytest

from invariants import config_id, sweep_configs
from ono99.bots import ExpertBot
from ono99.bots.determinize import Determinizer, unseen_counts
from ono99.bots.expert import search
from ono99.bots.greedy import RANKED
from ono99.bots.heuristic import HeuristicBot, Planner
from ono99.bots.ismcts import IsmctsResult, Node, NodeKey, ismcts
from ono99.bots.values import playout_value
from ono99.engine import ALL_ACTIONS, Action, Rules, State, View, make_rules, view
from ono99.fast.playout import Playout
from searches import SETTINGS, assert_searches_from_the_view_alone, decisions
from tiers import sampled

CONFIGS = sweep_configs()[1::6]  # both editions, every match format, 2 to 6 players


def tiny(seed: int) -> ExpertBot:
    """The ismcts expert at a test budget."""
    return ExpertBot(seed, worlds=3, max_rollouts=12, search="ismcts")


def searcher(state: State) -> tuple[View, int, list[Action], Playout]:
    """The view of the seat to play, its seat, its actions (the heuristic's first, as the
    expert orders them) and a playout as the expert builds it."""
    seat = state.to_play
    assert seat is not None
    v = view(state, seat)
    prior = HeuristicBot().choose(v)
    actions = sorted(v.legal, key=lambda a: a is not prior)
    return v, seat, actions, Playout(v.rules, RANKED, Planner(v.rules, unseen_counts(v)), seat)


# --------------------------------------------------------------------------- the bot


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS)), 3, ids=lambda c: config_id(c[1]))
)
def test_the_ismcts_expert_plays_legally_and_deterministically(index: int, rules: Rules) -> None:
    """Everywhere in the sweep: a legal move, the same one for the same seed, and estimates
    that are chances."""
    checked = 0
    for state in decisions(rules, 300 + index, every=4)[:6]:
        seat = state.to_play
        assert seat is not None
        v = view(state, seat)
        move = tiny(index).choose(v)
        assert move in v.legal
        assert tiny(index).choose(v) is move
        hints = tiny(index).evaluate(v)
        assert hints == tiny(index).evaluate(v)
        assert [a for a, _ in hints] == list(v.legal)
        assert all(0.0 <= p <= 1.0 for _, p in hints)
        checked += 1
    assert checked


@pytest.mark.parametrize("rules", SETTINGS, ids=config_id)
def test_the_ismcts_expert_sees_only_its_view(rules: Rules) -> None:
    """V1 for the ismcts search."""
    assert_searches_from_the_view_alone(rules, 9, search="ismcts")


@pytest.mark.parametrize(("worlds", "max_rollouts"), [(3, 12), (5, 8), (200, 30)])
def test_the_ismcts_expert_makes_as_many_rollouts_as_pimc(worlds: int, max_rollouts: int) -> None:
    """Equal budgets: the ISMCTS runs as many iterations as the PIMC search makes rollouts
    (worlds × candidates, capped by ``max_rollouts``, at least one world)."""
    rules = make_rules("2022", players=3)
    for state in decisions(rules, 12, every=4)[:5]:
        v, _, actions, _ = searcher(state)
        m = len(actions)
        counts = []
        for name in ("pimc", "ismcts"):
            bot = ExpertBot(1, worlds=worlds, max_rollouts=max_rollouts, search=name)
            counts.append(sum(len(x) for x in bot._search(v, actions).values))
        assert counts == [max(1, min(worlds, max_rollouts // m)) * m] * 2


def test_a_bad_search_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="pimc, ismcts") as error:
        ExpertBot(search="mcts")
    assert "\n" not in str(error.value)
    assert "'mcts'" in str(error.value)
    for other in ({"cutoff": 1}, {"rollout": "neural"}):
        with pytest.raises(ValueError, match="no cutoff and no network rollouts"):
            ExpertBot(search="ismcts", **other)


# --------------------------------------------------------------------------- the search


@pytest.mark.parametrize("players", [2, 4])
def test_every_iteration_is_accounted_for(players: int) -> None:
    """The root's values hold one value per iteration run, under the root action it took;
    UCB tries every root action once, in order, before it repeats one."""
    rules = make_rules("2022", players=players)
    for state in decisions(rules, 21, every=3)[:6]:
        v, seat, actions, playout = searcher(state)
        sampler = Determinizer(v)
        m = len(actions)
        for iterations in (1, m - 1, m, m + 1, 5 * m + 3):
            result = ismcts(
                sampler.sample, seat, actions, random.Random(1), playout, iterations=iterations
            )
            lengths = [len(x) for x in result.values]
            assert sum(lengths) == iterations
            if iterations <= m:
                assert lengths == [1] * iterations + [0] * (m - iterations)
            else:
                assert min(lengths) >= 1
        # A time limit already passed stops after the first iteration, counted.
        result = ismcts(
            sampler.sample, seat, actions, random.Random(1), playout, iterations=50, time_limit=0
        )
        assert [len(x) for x in result.values] == [1] + [0] * (m - 1)


@pytest.mark.parametrize("players", [2, 3])
def test_without_a_tree_the_iterations_are_the_pimc_rollouts(players: int) -> None:
    """Depth 0 (the root only), an exploration constant so large that UCB goes round the root
    actions in turn, and each world sampled once per root action: the values per action are,
    one by one, those of the PIMC search on the same worlds."""
    rules = make_rules("2022", players=players)
    states = decisions(rules, 33, every=4)[:6]
    assert states
    for state in states:
        check_against_pimc(state)


def check_against_pimc(state: State) -> None:
    """The test above at one decision."""
    v, seat, actions, playout = searcher(state)
    m = len(actions)
    sampler = Determinizer(v)
    rng = random.Random(5)
    worlds = [sampler.sample(rng) for _ in range(7)]
    served = iter(worlds)
    pimc = search(
        lambda _: next(served),
        seat,
        actions,
        random.Random(0),
        playout,
        worlds=len(worlds),
        max_rollouts=len(worlds) * m,
    )
    calls = [0]

    def repeated(_: random.Random) -> State:
        calls[0] += 1
        return worlds[(calls[0] - 1) // m]

    tree: dict[NodeKey, Node] = {}
    result = ismcts(
        repeated,
        seat,
        actions,
        random.Random(0),
        playout,
        iterations=len(worlds) * m,
        c=1e9,
        depth=0,
        tree=tree,
    )
    assert result.values == pimc.values
    assert tree == {}
    assert calls[0] == len(worlds) * m


def replay(playout: Playout, world: State, seat: int, history: tuple[int, ...]) -> bool:
    """Load ``world`` and play the searcher's ``history`` (its own actions, ALL_ACTIONS indices),
    the rollout playing everyone else in between; True if the horizon came first."""
    playout.load(world)
    for k, a in enumerate(history):
        if k and playout.run(seat, 1):
            return True
        if playout.act(seat, ALL_ACTIONS[a]):
            return True
    return False


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("2022", players=2),
        make_rules("2022", players=4),
        make_rules("1980", players=3, match="tokens"),
        make_rules("2022", players=3, match="points", target=60, draw_penalty=True),
    ],
    ids=config_id,
)
def test_the_tree_statistics_on_a_single_world(rules: Rules) -> None:
    """With one world always sampled, every node stands for one position, so its statistics
    can be checked exactly against rollouts replayed independently: each visit counted once
    and every legal action counted available at each visit; each action's value sum that of
    the node it leads to (or, at the depth limit or the horizon, its own rollout's value times
    its visits); the root's values those of the nodes below it; the rollout's own choice tried
    first; and no node deeper than the depth."""
    states = decisions(rules, 44, every=5)[:5]
    assert states
    for state in states:
        check_tree(state, depth=2)


def check_tree(state: State, depth: int) -> None:
    """The test above at one decision."""
    v, seat, actions, playout = searcher(state)
    world = Determinizer(v).sample(random.Random(2))
    tree: dict[NodeKey, Node] = {}
    iterations = 40
    result = ismcts(
        lambda _: world,
        seat,
        actions,
        random.Random(0),
        playout,
        iterations=iterations,
        depth=depth,
        tree=tree,
    )
    assert sum(len(x) for x in result.values) == iterations
    by_history = {key[0]: node for key, node in tree.items()}
    assert len(by_history) == len(tree)  # one world: one node per history
    reference = Playout(v.rules, RANKED, Planner(v.rules, unseen_counts(v)), seat)

    def outcome(history: tuple[int, ...]) -> float:
        ended = replay(reference, world, seat, history)
        if not ended:
            reference.run()
        return playout_value(reference, seat)

    def edge_total(history: tuple[int, ...], n: int) -> float:
        """The value sum of ``n`` iterations that played ``history``, from the tree below."""
        child = by_history.get(history)
        if child is None:  # the horizon came first, or the depth limit: one rollout
            return n * outcome(history)
        assert child.visits == n
        return sum(child.w.values())

    for history, node in by_history.items():
        assert 1 <= len(history) <= depth
        assert not replay(reference, world, seat, history)
        assert not reference.run(seat, 1)
        legal = reference.legal()
        first = reference.choice()
        assert node.visits == sum(node.n.values()) >= 1
        assert node.avail == dict.fromkeys(legal, node.visits)
        assert set(node.n) <= set(legal)
        assert first in node.n
        if node.visits >= len(legal):
            assert set(node.n) == set(legal)
        for a, n in node.n.items():
            below = history + (a,)
            if len(below) <= depth and below in by_history:
                assert math.isclose(node.w[a], edge_total(below, n))
            else:
                assert math.isclose(node.w[a], n * outcome(below))
    for i, action in enumerate(actions):
        values = result.values[i]
        assert values, "every root action tried"
        assert math.isclose(sum(values), edge_total((action.index,), len(values)))


def test_best_keeps_the_prior_unless_another_is_clearly_better() -> None:
    """The root's values are unpaired and of unequal lengths: ``best`` compares means by the
    unpaired standard error."""
    a, b, c = ALL_ACTIONS[1], ALL_ACTIONS[2], ALL_ACTIONS[3]
    result = IsmctsResult([a, b, c])
    result.values = [[0.0, 1.0] * 10, [1.0, 1.0, 0.0] * 20, [1.0]]
    assert result.best(1.0) is b  # 0.67 vs 0.5: 1.3 standard errors; one value is not enough
    assert result.best(1.5) is a
    result.values = [[0.0, 1.0] * 10, [1.0, 0.0] * 30, [1.0, 1.0]]
    assert result.best(0.0) is c
    result.values = [[0.5], [1.0] * 5, []]
    assert result.best(0.0) is a  # a single value of the prior: nothing to compare with
