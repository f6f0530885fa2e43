"""The expert's compiled search (``ExpertBot(compiled=True)``, ``bots/compiled_search.py``):
its worlds are consistent with the view, it reads nothing hidden, it estimates what the Python
search estimates, and it stays out of what it does not play. (Its rollouts are held to the
engine in tests/fast/test_compiled_rollouts.py.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from hidden import hide
from invariants import config_id, random_states, sweep_configs
from ono99.bots import ExpertBot
from ono99.bots.compiled_search import (
    _value,
    compiled_search,
    hand_weights,
    planner_values,
    points_values,
    resample,
    settled,
    supports,
)
from ono99.bots.determinize import Determinizer
from ono99.bots.expert import BOOST, HIGH_ROOM, WHOLE_ROUND, candidates
from ono99.bots.greedy import RANKED
from ono99.bots.heuristic import Constants, Planner
from ono99.bots.inference import Inference
from ono99.bots.tuned import constants_for
from ono99.bots.values import SearchResult
from ono99.engine import DRAW, IN, PLAY, Rules, make_rules, view
from ono99.engine.cards import counts
from ono99.fast.layout import EMPTY
from ono99.fast.rollout_policy import PLANNER_FIELDS
from ono99.fast.rollouts import CompiledRollouts, outcomes, record_of
from ono99.fast.worlds import deal_worlds
from tiers import sampled, slow

CONFIGS = [r for r in sweep_configs() if supports(r)]
TINY = {"worlds": 3, "max_rollouts": 9}


def _positions(rules: Rules, seed: int, every: int = 5):  # type: ignore[no-untyped-def]
    for i, state in enumerate(random_states(rules, seed)):
        if state.over or i % every:
            continue
        for seat in range(rules.players):
            if state.status[seat] == IN and len(view(state, seat).legal) > 1:
                yield state, seat


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS[::7])), 4, ids=lambda c: config_id(c[1]))
)
def test_compiled_worlds_are_consistent_with_the_view(index: int, rules: Rules) -> None:
    """Every world ``fast.worlds`` deals, made an engine state, shows the seat its own view;
    the hidden cards are the unseen ones dealt again, and the forced ones are in hands."""
    rng = random.Random(index)
    checked = 0
    for state, seat in _positions(rules, 700 + index):
        v = view(state, seat)
        sampler = Determinizer(v)
        template = record_of(sampler.sample(rng))
        worlds = deal_worlds(
            template, 8, index, sampler.hidden, sampler.sizes, sampler.free, sampler.forced
        )
        unseen = counts(sampler.free + sampler.forced)
        for r in worlds:
            hands = [tuple(sorted(int(c) for c in h if c != EMPTY)) for h in r["hands"]]
            pile = tuple(int(c) for c in r["pile"][: r["pile_len"]])
            world = sampler.state(hands[: rules.players], pile, 1)
            assert view(world, seat) == v
            held = [c for s in sampler.hidden for c in hands[s]]
            assert counts(held + list(pile)) == unseen
            assert all(f <= h for f, h in zip(counts(sampler.forced), counts(held), strict=True))
            checked += 1
    assert checked


def test_compiled_worlds_vary_and_keep_forced_cards_in_hands() -> None:
    """A reshuffled pile forces cards into the hidden hands (determinize.py); the compiled
    deal keeps them there, and deals different worlds."""
    rules = make_rules("1980", players=3, max_total=400)
    forced = 0
    for state, seat in _positions(rules, 3, every=7):
        sampler = Determinizer(view(state, seat))
        if not sampler.forced:
            continue
        forced += 1
        worlds = deal_worlds(
            record_of(state), 20, 9, sampler.hidden, sampler.sizes, sampler.free, sampler.forced
        )
        seen = {bytes(r["hands"].tobytes()) + bytes(r["pile"].tobytes()) for r in worlds}
        assert len(seen) > 10
        for r in worlds:
            held = [int(c) for s in sampler.hidden for c in r["hands"][s] if c != EMPTY]
            assert all(f <= h for f, h in zip(counts(sampler.forced), counts(held), strict=True))
        if forced >= 5:
            break
    assert forced


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS[3::23])), 3, ids=lambda c: config_id(c[1]))
)
def test_the_compiled_expert_sees_only_its_view(index: int, rules: Rules) -> None:
    """V1: two states that differ only in what the seat cannot see give the compiled expert,
    seeded alike, the same choice and the same estimates; with every opponent played as the
    heuristic; tuned, with the adaptive budget and worlds weighed by the opponents' play and
    the opponents read as a mixture (the network among them); and (at two positions) with the
    network playing every seat of the rollouts."""
    rng = random.Random(f"peek-compiled:{index}")
    checked = 0
    for state, seat in _positions(rules, 500 + index, every=4):
        other = hide(state, seat, rng)
        mine, theirs = view(state, seat), view(other, seat)
        assert mine == theirs
        network = [{"prior": "neural", "rollout": "neural-all"}] if checked < 2 else []
        for options in (
            {},
            {"opponents": "heuristic"},
            {"tuned": True, "budget": "adaptive", "weigh": True, "opponents": "mixture"},
            *network,  # a step of the network per action of a rollout: two positions
        ):

            def bot(options: dict[str, object] = options) -> ExpertBot:
                return ExpertBot(index, compiled=True, **TINY, **options)  # type: ignore[arg-type]

            assert bot().choose(mine) is bot().choose(theirs)
            assert bot().evaluate(mine) == bot().evaluate(theirs)
        checked += 1
    assert checked


@pytest.mark.parametrize(
    ("rules", "worlds", "apart", "within", "rollout"),
    [
        pytest.param(make_rules("2022", players=2), 2000, 0.15, 0.05, "heuristic", marks=slow),
        (make_rules("1980", players=4, match="tokens"), 600, 0.04, 0.02, "heuristic"),
        (make_rules("2022", players=3, match="points"), 600, 0.0, 0.03, "heuristic"),  # close
        pytest.param(make_rules("2022", players=2), 1000, 0.15, 0.07, "neural", marks=slow),
    ],
    ids=lambda x: config_id(x) if isinstance(x, Rules) else str(x),
)
def test_the_compiled_search_estimates_what_the_python_search_does(
    rules: Rules, worlds: int, apart: float, within: float, rollout: str
) -> None:
    """The same search on other draws of the same worlds: each action's estimated chance of
    winning agrees with the Python search's within sampling error (``worlds`` each, about 2.5
    standard errors), at positions where the actions' values lie ``apart`` (so a mix-up
    would show); with ``rollout="neural"``, the network playing the searcher's seat in both
    (Python: ``bots/network_rollouts.py``; compiled: waiting for it, ``NETWORK``)."""
    budget = {"worlds": worlds, "max_rollouts": 10**6, "rollout": rollout}
    compared = 0
    for state, seat in _positions(rules, 41, every=3):
        v = view(state, seat)
        python = dict(ExpertBot(1, **budget).evaluate(v))
        if max(python.values()) - min(python.values()) < apart:
            continue
        compiled = dict(ExpertBot(2, compiled=True, **budget).evaluate(v))
        for action, value in python.items():
            assert abs(compiled[action] - value) < within, (config_id(rules), action)
        compared += 1
        if compared == 3:
            break
    assert compared


def test_the_compiled_search_refuses_what_it_does_not_play() -> None:
    for options in ({"cutoff": 1}, {"search": "ismcts"}):
        with pytest.raises(ValueError, match="compiled=True"):
            ExpertBot(1, compiled=True, **options)  # type: ignore[arg-type]


def test_the_compiled_search_plays_the_draw_penalty() -> None:
    """X2: owed draws are taken at once (instant), and every other decision is searched."""
    rules = make_rules("2022", players=3, draw_penalty=True)
    assert supports(rules)
    searched = 0
    for state, seat in _positions(rules, 5, every=2):
        v = view(state, seat)
        estimates = ExpertBot(4, compiled=True, **TINY).evaluate(v)
        assert [a for a, _ in estimates] == list(v.legal)
        assert all(0.0 <= x <= 1.0 for _, x in estimates)
        searched += 1
    assert searched


@pytest.mark.parametrize("rules", [r for r in CONFIGS if r.match == "points"][::5], ids=config_id)
def test_points_ends_are_valued_as_match_value_values_them(rules: Rules) -> None:
    """``points_values`` (NumPy, all ends at once) gives exactly what ``match_value`` gives
    each end (through ``_value``, held to ``value_of`` in test_compiled_rollouts.py)."""
    rng = random.Random(config_id(rules))
    checked = 0
    for state, seat in _positions(rules, 61, every=6):
        sampler = Determinizer(view(state, seat))
        worlds = deal_worlds(
            record_of(state), 30, 7, sampler.hidden, sampler.sizes, sampler.free, sampler.forced
        )
        actions = candidates(view(state, seat).legal)
        games = np.repeat(worlds, len(actions))
        CompiledRollouts(rules, RANKED, None, seat).run(games, [a.index for a in actions] * 30)
        ends, index = outcomes(games, rules.players)
        want = [_value(rules, ends[i], seat) for i in index]
        assert points_values(games, rules, seat).tolist() == want
        checked += len(want)
        if rng.random() < 0.3:
            break
    assert checked


def test_settled_stops_only_when_no_candidate_could_beat_the_first() -> None:
    """The adaptive budget's early stop: every other candidate trails the first by ``z``
    paired errors, or ties it in every world; one that might still win keeps the search on."""
    result = SearchResult([DRAW, PLAY[1], PLAY[2]])
    first, worse, other = [1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]
    result.values = [first * 25, worse * 25, other * 25]
    assert settled(result, 2.0)
    result.values[2] = list(result.values[0])  # a tie in every world: nothing to learn
    assert settled(result, 2.0)
    result.values[2][0] = 0.0
    result.values[2][1] = 2.0  # level on average: it might still be better
    assert not settled(result, 2.0)
    result.values = [v[:1] for v in result.values]  # one world: no error to judge by
    assert not settled(result, 2.0)


def test_the_adaptive_budget_spends_more_where_it_matters() -> None:
    """``budget="adaptive"``: ``BOOST`` times the worlds at a high total or owing two, the
    fixed budget elsewhere; it is a budget of the compiled search only."""
    rules = make_rules("2022", players=2)
    bot = ExpertBot(1, compiled=True, budget="adaptive", worlds=100, max_rollouts=10**6)
    fixed = ExpertBot(1, compiled=True, worlds=100, max_rollouts=10**6)
    seen = set()
    for state, seat in _positions(rules, 9, every=1):
        v = view(state, seat)
        high = v.owed == 2 or v.total >= rules.max_total - HIGH_ROOM
        assert bot._worlds(v, 3) == (100 * BOOST if high else 100)
        assert fixed._worlds(v, 3) == 100
        seen.add(high)
    assert seen == {True, False}
    with pytest.raises(ValueError, match="compiled=True"):
        ExpertBot(1, budget="adaptive")
    with pytest.raises(ValueError, match="budget must be one of fixed, adaptive"):
        ExpertBot(1, compiled=True, budget="lavish")


def test_the_compiled_planner_reads_the_constants_in_their_order() -> None:
    """``planner_values`` lays a planner's ``Constants`` out as ``PLANNER_FIELDS`` names them,
    after the 14 chances."""
    assert [f.lower() for f in PLANNER_FIELDS[14:]] == list(Constants._fields)
    planner = Planner(make_rules("2022"), [1] * 16, constants_for(make_rules("2022", players=2)))
    assert planner_values(planner)[14:] == [float(x) for x in planner.constants]


def test_weighing_needs_the_compiled_search() -> None:
    with pytest.raises(ValueError, match="compiled=True"):
        ExpertBot(1, weigh=True)
    with pytest.raises(ValueError, match="infer=True"):
        ExpertBot(1, compiled=True, weigh=True, infer=True)


def test_worlds_are_weighed_and_drawn_by_how_well_they_fit_the_opponents_play() -> None:
    """``weigh``: every dealt world's weight is ``Inference.weight`` of its hands (between the
    floor and 1, and not all alike once an opponent's plays say something); the search's
    worlds are drawn in proportion, a world drawn twice with its pile in another order."""
    rules = make_rules("2022", players=4)
    leaning = 0
    for state, seat in _positions(rules, 17, every=2):
        v = view(state, seat)
        inference = Inference(v, depth=WHOLE_ROUND)
        if not inference.constraints:
            continue
        sampler = Determinizer(v)
        worlds = deal_worlds(
            record_of(state), 400, 5, sampler.hidden, sampler.sizes, sampler.free, sampler.forced
        )
        weights = hand_weights(inference, worlds)
        for r, w in zip(worlds, weights, strict=True):
            hands = [[int(c) for c in h if c != EMPTY] for h in r["hands"][: rules.players]]
            assert w == pytest.approx(inference.weight(hands))
        leaning += len(set(weights.tolist())) > 1
        heavy = int(np.argmax(weights))
        only = np.zeros(len(worlds))
        only[heavy] = 1.0
        drawn = resample(worlds, only, 20, random.Random(1))
        assert all(np.array_equal(r["hands"], worlds[heavy]["hands"]) for r in drawn)
        size = int(worlds[heavy]["pile_len"])
        piles = {bytes(r["pile"][:size].tobytes()) for r in drawn}
        assert len(piles) > 10 or size < 3
        assert all(sorted(r["pile"][:size]) == sorted(worlds[heavy]["pile"][:size]) for r in drawn)
        assert len(set(drawn["rng"].tolist())) == 20
        result = compiled_search(
            sampler, seat, candidates(v.legal), random.Random(3), rules, None, worlds=150,
            weigh=inference,
        )  # fmt: skip
        assert all(len(values) == 150 for values in result.values)
    assert leaning
