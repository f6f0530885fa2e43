"""Compiled rollouts (``ono99.fast.rollouts``) play on as the engine does, played by the same
policies, and as the Python ``Playout`` does.

From decision positions of random engine games, in every configuration of the conformance
sweep (the draw penalty, X2, included), after every first action,
with greedy at every seat and with the heuristic's planner at the searching seat: the
reference is the engine played as a rollout plays (``rollouts.engine_rollout``). The compiled
rollout is given the engine's reshuffles as scripts (``layout.scripts``; unscripted, it shuffles
with its own generator), so it must take the engine's actions one by one, end where it ends
(``round_end``, or the winners once the match is over) and be valued alike; the ``Playout``
from the same position must end there too.

One game a configuration (a second only where the first had no position with a choice): the
rules the rollouts play on are the batch simulator's kernel, which test_fast_differential holds
to the engine after every action of the whole sweep; what is the rollouts' own — the loop, owed
draws, greedy's ranks and the planner — is caught from one game. Three games a configuration
cost three times as much, and eleven mutants of ``fast/rollouts.py`` and ``rollout_policy.py``
(the planner's totals, deflectors, chances, keep values and targets, greedy's margin, the bust
rows, owed draws taken by seat 0) each failed the one-game sweep as they failed the three-game
one (issue 24).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from invariants import config_id, sweep_configs
from ono99.bots.compiled_search import _value, network_policy, planner_values
from ono99.bots.determinize import unseen_counts
from ono99.bots.greedy import RANKED
from ono99.bots.heuristic import DEFAULT, Constants, Planner
from ono99.bots.neural import NeuralBot
from ono99.bots.values import rollout_value, value_of
from ono99.engine import (
    DRAW,
    Rules,
    State,
    apply,
    apply_unchecked,
    legal_actions,
    make_rules,
    new_game,
    view,
)
from ono99.engine.cards import HOLD, PLAY2, REVERSE
from ono99.engine.state import chain_items
from ono99.fast import rollout_policy as policy
from ono99.fast.contract import facts, round_end
from ono99.fast.layout import PILE, params_of, scripts
from ono99.fast.playout import Playout
from ono99.fast.rollouts import CompiledRollouts, outcomes, record_of
from rollouts import engine_rollout
from tiers import sampled

TRACE = 4000  # room for every action of a rollout (a single game of max_total 400 is long)


def rollout_configs() -> list[Rules]:
    configs = {config_id(r): r for r in sweep_configs()}
    assert any(r.draw_penalty for r in configs.values())
    for edition in ("2022", "1980"):
        for match in ("single", "tokens", "points"):
            for players in range(2, 7):
                rules = make_rules(edition, players=players, match=match)
                configs.setdefault(config_id(rules), rules)
            # Long rounds: the draw pile runs out again and again (T3).
            rules = make_rules(edition, players=3, match=match, max_total=400)
            configs.setdefault(config_id(rules), rules)
    return list(configs.values())


CONFIGS = rollout_configs()
VARIED = Constants(8.5, 7.0, 11.0, 3.0, 11.0, 0.7, 0.25, 1.8, 13.0, 0.4, 4, -80.0, 1.3, 2.5)
assert all(a != b for a, b in zip(VARIED, DEFAULT, strict=True))


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS)), 12, ids=lambda c: config_id(c[1]))
)
def test_compiled_rollouts_take_the_engines_actions(index: int, rules: Rules) -> None:
    rng = random.Random(f"compiled-rollouts:{index}")
    checked = 0
    game = 0
    while not checked:  # one game, or more where a game's positions had nothing to check
        state = new_game(rules, 1000 * index + game)
        game += 1
        while not state.over:
            legal = legal_actions(state)
            seat = state.to_play
            assert seat is not None
            if len(legal) > 1 and rng.random() < 0.25:
                checked += _compare(state, seat)
            if state.owes_draw and rng.random() < 0.5:  # X2: an owed draw taken, or lost
                state = apply(state, state.owes_draw[0], DRAW)
                continue
            state = apply(state, seat, rng.choice(legal))
        assert game < 20, "twenty games and no position with a choice"
    assert checked


class Recording(Playout):
    """A ``Playout`` that keeps the actions its policy chose (owed draws are taken without
    asking it)."""

    __slots__ = ("chosen",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.chosen: list[int] = []

    def choice(self) -> int:
        action = super().choice()
        self.chosen.append(action)
        return action


def _compare(state: State, seat: int) -> int:
    rules = state.rules
    # Constants other than the heuristic's in every field (as the expert's tuned ones are,
    # bots/tuned.py): both planners must read every one of them.
    planner = Planner(rules, unseen_counts(view(state, seat)), VARIED)
    compiled = CompiledRollouts(rules, RANKED, planner_values(planner), seat)
    checked = 0
    for plan in (None, planner):  # no first action given (-1): the policy's own, from here on
        end, _ = engine_rollout(state, state.round, seat, plan)
        trace = np.zeros((1, TRACE), dtype=np.int16)
        played = compiled.run(
            _scripted(end, games := record_of(state)), [-1], plan=plan is not None,
            script=_script(end), trace=trace,
        )  # fmt: skip
        assert games["error"][0] == 0
        want = [a.index for _, a in chain_items(end.history, state.moves)]
        assert trace[0, :played].tolist() == want, f"{config_id(rules)} move {state.moves}"
    for action in legal_actions(state, seat):
        after = apply_unchecked(state, seat, action)
        for plan in (None, planner):
            where = f"{config_id(rules)} seed {state.setup.seed} move {state.moves}, {action}"
            end, _ = engine_rollout(after, state.round, seat, plan)
            games = _scripted(end, record_of(state))
            trace = np.zeros((1, TRACE), dtype=np.int16)
            played = compiled.run(
                games, [action.index], plan=plan is not None, script=_script(end), trace=trace
            )
            assert games["error"][0] == 0, where
            got = trace[0, :played].tolist()
            want = [a.index for _, a in chain_items(end.history, state.moves)]
            assert got == want, where
            assert trace[0, played] == -1
            # Where it ended, and what the search makes of it.
            ends, index = outcomes(games, rules.players)
            outcome = ends[index[0]]
            winners, gone, tokens, scores = outcome
            ended = round_end(facts(end))
            assert winners == ended.winners and bool(games["over"][0]) == ended.over, where
            assert gone == ended.out_of_game, where
            if ended.tokens is not None:
                assert tokens == ended.tokens, where
            if ended.scores is not None:
                assert scores == ended.scores, where
            assert _value(rules, outcome, seat) == value_of(end, seat), where
            # The Python Playout, from the same position, chooses alike and ends there too.
            playout = Recording(rules, RANKED, plan, seat)
            assert rollout_value(playout, state, seat, action) == value_of(end, seat), where
            assert playout.chosen == [a for a in got[1:] if a != DRAW.index], where
            assert round_end(playout.facts()) == ended, where
            checked += 1
    return checked


def _script(end: State) -> np.ndarray:
    """The engine's reshuffles, from a position's on, as a rollout's scripts."""
    piles = end.reshuffles_used
    sc = scripts(1, len(piles))
    for k, pile in enumerate(piles):
        assert len(pile) <= PILE
        sc[0, k, 0] = len(pile)
        sc[0, k, 1 : 1 + len(pile)] = pile
    return sc


def _scripted(end: State, games: np.ndarray) -> np.ndarray:
    """``games`` (a position's record) told to take ``end``'s reshuffles from its script."""
    games["n_resh"] = len(end.reshuffles_used)
    return games


@pytest.mark.parametrize(
    "rules",
    [make_rules("2022", players=2), make_rules("2022", players=4), make_rules("1980", players=4)],
    ids=config_id,
)
@pytest.mark.parametrize("constants", [DEFAULT, VARIED], ids=["default", "varied"])
def test_the_compiled_planner_values_what_the_planner_values(
    rules: Rules, constants: Constants
) -> None:
    """The planner's parts, compiled, give the Python ``Planner``'s numbers exactly: a hand's
    keep value, a hidden hand's chance of being stuck for one card or two, and the worth of
    sending two on, at every total and hand size (choices alone would hide a small
    difference that seldom changes a move)."""
    unseen = [3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 3, 3, 2, 3, 1]
    planner = Planner(rules, unseen, constants)
    pl = np.array(planner_values(planner), dtype=np.float64)
    p = params_of(rules)[0]
    hands = random.Random(7)
    for total in range(-10, rules.max_total + 1):
        for size in range(7):
            assert policy._fail_one(p, pl, total, size) == planner.fail_one(total, size)
            assert policy._fail_two(p, pl, total, size) == planner.fail_two(total, size)
            for card in (PLAY2, REVERSE, HOLD):
                for n_in in (2, 3):
                    want = planner.attack(card, total, (size, 6 - size), n_in)
                    assert policy._attack(p, pl, card, total, size, 6 - size, n_in) == want
        hand = hands.choices(range(16), k=hands.randrange(1, 5))
        cnt = np.bincount(np.array(hand), minlength=16).astype(np.int64)
        assert policy._keep(p, pl, cnt, total) == planner.keep(hand, total)


# --------------------------------------------------------------------------- the others' models


def _choices(rules: Rules, seed: int, games: int, each: int) -> Iterator[tuple[State, int]]:
    """About a third of the positions with a choice in ``games`` random engine games from
    ``seed``, at most ``each`` more from each game, with the seat to play."""
    rng = random.Random(seed)
    found = 0
    for g in range(games):
        state = new_game(rules, seed + g)
        while not state.over and found < each * (g + 1):
            seat = state.to_play
            assert seat is not None
            legal = legal_actions(state)
            if len(legal) > 1 and rng.random() < 0.3:
                found += 1
                yield state, seat
            if state.owes_draw:
                state = apply(state, state.owes_draw[0], DRAW)
                continue
            state = apply(state, seat, rng.choice(legal))


def _takes_the_engines_actions(
    state: State, end: State, compiled: CompiledRollouts, **run: Any
) -> None:
    """The compiled rollout from ``state``, given ``end``'s reshuffles, plays exactly the
    actions the engine played from ``state`` to ``end``, then stops."""
    trace = np.zeros((1, TRACE), dtype=np.int16)
    games = _scripted(end, record_of(state))
    played = compiled.run(games, [-1], script=_script(end), trace=trace, **run)
    assert games["error"][0] == 0
    want = [a.index for _, a in chain_items(end.history, state.moves)]
    assert trace[0, :played].tolist() == want, f"seed {state.setup.seed} move {state.moves}"
    assert trace[0, played] == -1


@pytest.mark.parametrize(
    "rules",
    [make_rules("2022", players=4), make_rules("1980", players=3, match="tokens")],
    ids=config_id,
)
def test_seats_modelled_by_the_planner_plan_as_the_engine_played_by_it_does(rules: Rules) -> None:
    """Every other seat's model ``PLANNER`` (bots/opponents.py): the compiled rollout takes
    the engine's actions with the searcher's planner at its seat and the ``their`` planner at
    every other one, from the same position and reshuffles."""
    checked = 0
    for state, seat in _choices(rules, 300, 6, 6):
        me = view(state, seat)
        mine = Planner(rules, unseen_counts(me), VARIED)
        theirs = Planner(rules, unseen_counts(me), DEFAULT)
        compiled = CompiledRollouts(
            rules, RANKED, planner_values(mine), seat, their=planner_values(theirs)
        )
        models = np.full((1, rules.players), policy.PLANNER, dtype=np.int8)
        end, _ = engine_rollout(state, state.round, seat, mine, others=theirs)
        _takes_the_engines_actions(state, end, compiled, models=models)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("2022", players=4),
        make_rules("1980", players=3, match="tokens"),
        make_rules("2022", players=3, match="points"),
    ],
    ids=config_id,
)
def test_seats_modelled_by_the_network_play_as_the_engine_played_by_it_does(rules: Rules) -> None:
    """``NETWORK`` seats: the compiled rollout waits where the network is to choose, and
    ``network_policy`` chooses from the records as the ``neural`` bot does from the seat's
    view, so the rollout takes the engine's actions with that bot at those seats —
    alternately the searcher's own seat and the next one, and every other seat with the
    planner at the searcher's."""
    net = NeuralBot()
    network = network_policy(rules)
    calls: list[int] = []

    def counted(games: np.ndarray) -> np.ndarray:
        calls.append(len(games))
        return network(games)

    n = rules.players
    checked = 0
    for state, seat in _choices(rules, 400, 8, 4):
        mine = Planner(rules, unseen_counts(view(state, seat)), DEFAULT)
        others = {(seat + k) % n for k in range(1, n)}
        seats, planner = ({seat, (seat + 1) % n}, None) if checked % 2 == 0 else (others, mine)
        models = np.zeros((1, n), dtype=np.int8)
        models[0, sorted(seats)] = policy.NETWORK
        end, _ = engine_rollout(state, state.round, seat, planner, network=net, network_seats=seats)
        compiled = CompiledRollouts(
            rules, RANKED, None if planner is None else planner_values(planner), seat
        )
        run = {"plan": planner is not None, "models": models, "network": counted}
        _takes_the_engines_actions(state, end, compiled, **run)
        checked += 1
    assert checked >= 10
    assert len(calls) >= checked  # the network was asked, not bypassed


def test_a_network_seat_needs_the_network_and_its_rollouts_wait_together() -> None:
    """Rollouts waiting at a network seat are handed over in one batch per step; without a
    network, a ``NETWORK`` row is refused."""
    rules = make_rules("2022", players=2)
    state = new_game(rules, 5)
    seat = state.to_play
    assert seat is not None
    compiled = CompiledRollouts(rules, RANKED, None, seat)
    n = 50
    games = np.repeat(record_of(state), n)
    games["rng"] = np.arange(n, dtype=np.uint64)
    models = np.full((n, 2), policy.NETWORK, dtype=np.int8)
    with pytest.raises(ValueError, match="needs the network"):
        compiled.run(games.copy(), [-1] * n, plan=False, models=models)
    sizes = []
    network = network_policy(rules)

    def batched(records: np.ndarray) -> np.ndarray:
        sizes.append(len(records))
        assert (records["over"] == 0).all()
        return network(records)

    compiled.run(games, [-1] * n, plan=False, models=models, network=batched)
    assert sizes[0] == n  # every rollout waits at the first choice: one batch
    assert games["over"].all() and not games["error"].any()


def test_greedy_and_noiseless_models_are_greedy_and_noisy_ones_play_at_random() -> None:
    """``GREEDY`` rows (or ``NOISY`` with no noise) play exactly as no rows at all; with
    noise 1, a ``NOISY`` seat's decisions spread over its legal actions, and every game
    stays a game of the rules (no error)."""
    rules = make_rules("2022", players=3)
    state = new_game(rules, 41)
    seat = state.to_play
    assert seat is not None
    n = 200
    traces = {}
    for name, model, noise in (
        ("none", None, 0.0), ("greedy", policy.GREEDY, 0.0), ("quiet", policy.NOISY, 0.0),
        ("noisy", policy.NOISY, 1.0),
    ):  # fmt: skip
        compiled = CompiledRollouts(rules, RANKED, None, seat, noise=noise)
        games = np.repeat(record_of(state), n)
        games["rng"] = np.arange(n, dtype=np.uint64)  # each its own shuffles
        trace = np.zeros((n, TRACE), dtype=np.int16)
        models = np.full((n, 3), model, dtype=np.int8) if model is not None else None
        kw = {} if models is None else {"models": models}
        compiled.run(games, [-1] * n, plan=False, trace=trace, **kw)
        assert not games["error"].any(), name
        traces[name] = trace
    assert np.array_equal(traces["none"], traces["greedy"])
    assert np.array_equal(traces["none"], traces["quiet"])
    # The first two actions (the searcher's, then the next seat's): one pair under greedy,
    # several at random.
    assert not np.array_equal(traces["none"], traces["noisy"])
    assert len({tuple(t[:2]) for t in traces["noisy"].tolist()}) > len(
        {tuple(t[:2]) for t in traces["none"].tolist()}
    )


def test_models_must_fit_the_records_and_the_planner_must_be_given() -> None:
    rules = make_rules("2022", players=2)
    state = new_game(rules, 3)
    seat = state.to_play
    assert seat is not None
    compiled = CompiledRollouts(rules, RANKED, None, seat)
    games = np.repeat(record_of(state), 2)
    with pytest.raises(ValueError, match="a row of 2 per record"):
        compiled.run(games, [-1, -1], plan=False, models=np.zeros((1, 2), dtype=np.int8))
    with pytest.raises(ValueError, match="their planner"):
        compiled.run(games, [-1, -1], plan=False, models=np.ones((2, 2), dtype=np.int8))
    with pytest.raises(ValueError, match="noise is a share"):
        CompiledRollouts(rules, RANKED, None, seat, noise=1.5)
