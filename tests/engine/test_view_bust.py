"""``View.must_bust`` (what greedy sheds by) agrees with the engine's ``is_bust`` (M3)."""

from __future__ import annotations

import random

import pytest

from ono99.engine import apply_unchecked, is_bust, legal_actions, make_rules, new_game, view


@pytest.mark.parametrize("bust_total", ["unchanged", "keep", "reset"])
@pytest.mark.parametrize("players", [2, 4])
def test_must_bust_matches_engine_in_points_matches(bust_total: str, players: int) -> None:
    rules = make_rules("1980", players=players, match="points", target=100, bust_total=bust_total)
    rng = random.Random(f"{bust_total}{players}")
    busts = 0
    for game in range(30):
        state = new_game(rules, seed=game)
        while not state.over:
            seat = state.to_play
            assert seat is not None
            legal = legal_actions(state)
            plays = [a for a in legal if a.kind == "play"]
            expected = bool(plays) and is_bust(state, plays[0])
            assert view(state, seat).must_bust == expected
            busts += expected
            state = apply_unchecked(state, seat, rng.choice(legal))
    assert busts > 0  # the sweep did reach busts


def test_must_bust_is_false_outside_points_matches() -> None:
    state = new_game(make_rules("2022"), seed=1)
    assert state.to_play is not None
    assert not view(state, state.to_play).must_bust
    assert not view(state, None).must_bust
