"""``must_bust`` answers the same from the state and from the seat's view (what greedy sheds
by), agrees with ``is_bust``, and is what the play then does (M3); ``total_after`` is the total
the play leaves."""

from __future__ import annotations

import random

import pytest

from ono99.engine import (
    apply_unchecked,
    is_bust,
    legal_actions,
    make_rules,
    must_bust,
    new_game,
    total_after,
    view,
)
from ono99.engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE


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
            assert must_bust(state) == must_bust(view(state, seat)) == expected
            assert not must_bust(view(state, None))  # a spectator holds no hand to bust with
            busts += expected
            action = rng.choice(legal)
            after = apply_unchecked(state, seat, action)
            if action.kind == "play" and action.card is not None:
                event = next(e for e in after.events(state.event_count) if e.kind == "play")
                assert (event.data == "bust") == expected
                if not expected:
                    assert event.total == total_after(rules, state.total, action.card)
            state = after
    assert busts > 0  # the sweep did reach busts


def test_must_bust_is_false_outside_points_matches() -> None:
    state = new_game(make_rules("2022"), seed=1)
    assert state.to_play is not None
    assert not view(state, state.to_play).must_bust
    assert not view(state, None).must_bust


def test_total_after_adds_numbers_takes_ten_off_and_leaves_the_rest() -> None:
    plain, negative = make_rules("2022"), make_rules("2022", negative_totals=True)
    assert total_after(plain, 90, 9) == 99  # T1
    assert total_after(plain, 15, MINUS_TEN) == 5
    assert total_after(plain, 5, MINUS_TEN) == 0  # K2: not below 0 ...
    assert total_after(negative, 5, MINUS_TEN) == -5  # ... unless negative totals are on
    assert [total_after(plain, 40, c) for c in (REVERSE, PLAY2, HOLD, ONO99)] == [40] * 4
