"""Reading hands from play (bots/inference.py): the greedy model of a play, the constraints it
gives, and the sampler that leans on them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from hidden import hide
from ono99.bots import ExpertBot, GreedyBot
from ono99.bots.determinize import Determinizer, hidden_seats
from ono99.bots.inference import Constraint, Inference, InferringSampler, kinds_not_held
from ono99.engine import Rules, State, apply_unchecked, make_rules, new_game, to_act, view
from ono99.engine.cards import HOLD, MINUS_TEN, PLAY2, REVERSE, counts

R2022 = make_rules("2022", players=4)
R1980 = make_rules("1980", players=4)


def test_a_number_played_is_the_highest_that_fitted() -> None:
    assert kinds_not_held(R2022, 50, 1, 3, False) == frozenset(range(4, 11))
    assert kinds_not_held(R2022, 80, 1, 10, False) == frozenset()  # 10 fits: nothing higher
    # At 91 only 0–7 fit, and greedy lays a Play 2 first when the total is high.
    assert kinds_not_held(R2022, 91, 1, 5, False) == {6, 7, PLAY2}


def test_a_special_card_played_means_no_number_fitted() -> None:
    # greedy's emergency order: Play 2, (Hold), Reverse, −10.
    assert kinds_not_held(R2022, 95, 1, MINUS_TEN, False) == {0, 1, 2, 3, PLAY2, REVERSE}
    assert kinds_not_held(R1980, 95, 1, REVERSE, False) == {2, 3, PLAY2, HOLD}  # no 0 or 1 (C2)
    # A Play 2 at a high total is played before any number: it says nothing.
    assert kinds_not_held(R2022, 90, 1, PLAY2, False) == frozenset()


def test_not_answering_a_play2_means_no_deflector() -> None:
    """P2: owing two, greedy deflects whenever it can."""
    assert kinds_not_held(R2022, 40, 2, 10, False) == {REVERSE, PLAY2}
    assert kinds_not_held(R1980, 40, 2, 10, False) == {REVERSE, HOLD}
    assert kinds_not_held(R2022, 40, 2, REVERSE, True) == frozenset()  # a deflection


def test_a_constraint_weighs_what_may_have_been_drawn_since() -> None:
    c = Constraint(frozenset({7, 8}), drawn=1)
    assert c.chance([1, 2, 3, 4]) == 1.0
    assert c.chance([7, 2, 3, 4]) == pytest.approx(1 / 4)  # the 7 must be the newest card
    assert c.chance([7, 8, 3, 4]) == 0.0  # two such cards, one draw
    assert Constraint(frozenset({7}), drawn=4).chance([7, 7, 7, 7]) == 1.0


def _greedy_states(rules: Rules, seeds: range) -> Iterator[tuple[State, int]]:
    bot = GreedyBot()
    for seed in seeds:
        state = new_game(rules, seed=seed)
        while not state.over:
            seat = to_act(state)
            yield state, seat
            state = apply_unchecked(state, seat, bot.choose(view(state, seat)))


CONFIGS = [
    make_rules("2022", players=4),
    make_rules("2022", players=2),
    make_rules("1980", players=6),
    make_rules("2022", players=3, match="points"),
    make_rules("2022", players=5, ono99_on_tens=True),
    make_rules("1980", players=3, negative_totals=False, play2_deflects_play2=True),
]


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda r: f"{r.edition}-{r.players}p-{r.match}")
def test_the_model_never_rules_out_a_greedy_players_real_hand(rules: Rules) -> None:
    """Every constraint read from greedy players' plays holds for their real hands, and the
    real hands fit the constraints better than random deals do."""
    rng = random.Random(5)
    checked = 0
    real = dealt = 0.0
    for state, seat in _greedy_states(rules, range(12)):
        v = view(state, seat)
        inference = Inference(v, error=0.0)
        for opponent, found in inference.constraints.items():
            for c in found:
                assert c.chance(state.hands[opponent]) > 0, (opponent, c.kinds, c.drawn)
                checked += 1
        if inference.constraints:
            real += inference.weight(state.hands)
            dealt += inference.weight(Determinizer(v).deal(rng)[0])
    assert checked > 100
    assert real > 1.5 * dealt  # the plays do say something about the hands


def test_the_leaning_sampler_keeps_to_the_view() -> None:
    rules = make_rules("2022", players=4)
    rng = random.Random(2)
    leaned = 0
    for i, (state, seat) in enumerate(_greedy_states(rules, range(4))):
        if i % 3:
            continue
        v = view(state, seat)
        inference = Inference(v)
        sampler = InferringSampler(Determinizer(v), inference)
        sample = sampler.sample(rng)
        assert view(sample, seat) == v
        hidden = [c for s in hidden_seats(v) for c in sample.hands[s]]
        hidden += sample.pile[sample.pile_pos :]
        real = [c for s in hidden_seats(v) for c in state.hands[s]]
        real += state.pile[state.pile_pos :]
        assert counts(hidden) == counts(real)
        leaned += bool(inference.constraints)
    assert leaned


def test_no_inference_under_the_draw_penalty() -> None:
    """X2: hands may stay short at will, so plays say too little to lean on."""
    rules = make_rules("1980", players=4, draw_penalty=True)
    for i, (state, seat) in enumerate(_greedy_states(rules, range(2))):
        if i % 7 == 0:
            assert not Inference(view(state, seat)).constraints


def test_the_leaning_expert_sees_only_its_view() -> None:
    """V1: with inference on, two states that differ only in what the seat cannot see still
    give the expert the same move and the same estimates."""
    rules = make_rules("2022", players=3)
    rng = random.Random(9)
    compared = 0
    for i, (state, seat) in enumerate(_greedy_states(rules, range(3))):
        v = view(state, seat)
        if i % 4 or len(v.legal) < 2:
            continue
        other = hide(state, seat, rng)
        assert view(other, seat) == v
        first = ExpertBot(i, worlds=6, max_rollouts=18, infer=True)
        second = ExpertBot(i, worlds=6, max_rollouts=18, infer=True)
        assert first.advise(v) == second.advise(view(other, seat))
        compared += 1
    assert compared
