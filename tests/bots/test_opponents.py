"""The opponents read as a mixture of models (bots/opponents.py): each opponent's weights
follow its own plays, from the public log alone, and the expert searches with them."""

from __future__ import annotations

import random

import pytest

from hidden import hide
from ono99.bots import make_opponent
from ono99.bots.expert import ExpertBot
from ono99.bots.opponents import MODELS, PRIOR, OpponentModels, likelihoods
from ono99.engine import State, make_rules, new_game, view
from ono99.engine.cards import MINUS_TEN
from ono99.sim import play_game

GREEDY, HEURISTIC, NOISY, NEURAL = (
    MODELS.index(m) for m in ("greedy", "heuristic", "noisy", "neural")
)


def _played(rules_name: str, lineup: list[str], seed: int) -> list[State]:
    rules = (
        make_rules("1980", players=len(lineup), match="tokens")
        if rules_name == "1980"
        else make_rules("2022", players=len(lineup))
    )
    states: list[State] = []
    bots = [make_opponent(name, seed * 10 + i) for i, name in enumerate(lineup)]
    play_game(rules, bots, seed, on_state=states.append)
    return states


def test_a_play_that_greedy_would_not_make_is_likelier_from_a_noisy_player() -> None:
    """A −10 at total 20 (greedy keeps it for emergencies, and some number nearly always
    fits) is far likelier from a noisy player; the highest number that fits, from greedy."""
    rules = make_rules("2022", players=4)
    minus = likelihoods(rules, 20, 1, False, MINUS_TEN)
    assert minus[NOISY] > 3 * minus[GREEDY]
    ten = likelihoods(rules, 60, 1, False, 10)
    assert ten[GREEDY] > ten[NOISY]
    assert all(0.0 < p <= 1.0 for p in (*minus, *ten))
    assert likelihoods(rules, 20, 1, False, MINUS_TEN) == minus  # the same hands every time


def test_before_any_play_the_weights_are_the_prior() -> None:
    rules = make_rules("2022", players=3)
    state = new_game(rules, 5)
    models = OpponentModels(view(state, 0))
    assert set(models.weights) == {1, 2}
    for w in models.weights.values():
        assert w == pytest.approx(PRIOR)


def test_each_opponent_is_read_from_its_own_plays() -> None:
    """Over 1980 tokens matches (long enough to say something), a random player reads as
    noisy, greedy as greedy more than noisy or the heuristic, the heuristic as the heuristic
    more than greedy, and the ``neural`` bot as the network more than anything else (weights
    averaged over 8 matches, every seat's view of every other seat). The network plays much
    as greedy does (it was trained against greedy): greedy reads as the network about as
    often as itself, which is why the test asks no more of it."""
    lineup = ["greedy", "heuristic", "random", "neural"]
    sums = {name: [0.0] * len(MODELS) for name in lineup}
    for g in range(8):
        order = lineup[g % 4 :] + lineup[: g % 4]
        states = _played("1980", order, 700 + g)
        middle = states[len(states) // 2]
        for me in range(4):
            for seat, w in OpponentModels(view(middle, me)).weights.items():
                sums[order[seat]] = [a + b for a, b in zip(sums[order[seat]], w, strict=True)]
    mean = {name: [x / sum(v) for x in v] for name, v in sums.items()}
    assert mean["random"][NOISY] > 0.8
    assert mean["greedy"][GREEDY] > mean["greedy"][NOISY]
    assert mean["greedy"][GREEDY] > mean["greedy"][HEURISTIC]
    assert mean["heuristic"][HEURISTIC] > mean["heuristic"][GREEDY]
    assert mean["neural"][NEURAL] == max(mean["neural"])


def test_the_weights_read_nothing_hidden_and_the_draw_follows_them() -> None:
    """V1: a state changed in everything the seat cannot see gives the same weights; the
    models drawn for the worlds follow them, and the searcher's own seat is left at 0."""
    rng = random.Random(3)
    states = _played("1980", ["greedy", "random", "heuristic"], 31)
    state = states[len(states) // 2]
    seat = 0
    models = OpponentModels(view(state, seat))
    assert OpponentModels(view(hide(state, seat, rng), seat)).weights == models.weights
    drawn = models.draw(random.Random(1), 4000)
    assert all(row[seat] == 0 for row in drawn)
    for other, w in models.weights.items():
        for m in range(len(MODELS)):
            share = sum(1 for row in drawn if row[other] == m) / len(drawn)
            assert share == pytest.approx(w[m], abs=0.03)


def test_fixed_models_read_nothing_and_draw_only_their_model() -> None:
    """``fixed``: every opponent is the model outright (a random player too, whose plays the
    mixture reads as noisy), and every world's rollouts play it so."""
    states = _played("1980", ["greedy", "random", "heuristic"], 31)
    v = view(states[len(states) // 2], 0)
    assert OpponentModels(v).weights[1][NOISY] > 0.5  # read from its plays: noisy
    fixed = OpponentModels(v, fixed="heuristic")
    assert fixed.weights == {1: (0.0, 1.0, 0.0, 0.0), 2: (0.0, 1.0, 0.0, 0.0)}
    assert all(row == [0, HEURISTIC, HEURISTIC] for row in fixed.draw(random.Random(2), 50))
    with pytest.raises(ValueError, match="a model is one of greedy, heuristic, noisy, neural"):
        OpponentModels(v, fixed="people")


def test_the_expert_reads_the_mixture_only_when_compiled() -> None:
    for opponents in ("mixture", "heuristic"):
        with pytest.raises(ValueError, match="compiled=True"):
            ExpertBot(1, opponents=opponents)
    with pytest.raises(ValueError, match="opponents must be one of greedy, mixture, heuristic"):
        ExpertBot(1, compiled=True, opponents="people")
    states = _played("2022", ["greedy", "random", "heuristic"], 8)
    for state in states[::9]:
        if state.over or state.to_play is None:
            continue
        v = view(state, state.to_play)
        bot = ExpertBot(2, compiled=True, opponents="mixture", worlds=40)
        assert bot.choose(v) in v.legal
