"""Refused actions: ``IllegalActionError`` says who tried what and why, and the state is left
exactly as it was (T1, K6, K7, P4, X2, E2; STYLE principle 6)."""

from __future__ import annotations

import pytest

from ono99.engine import (
    IllegalActionError,
    NotationError,
    State,
    apply,
    make_rules,
    summarize,
)
from positions import position


def at_95() -> State:
    rules = make_rules("2022", players=3)
    hands = {0: ["10", "3", "reverse", "ono99"], 1: ["5", "6", "7", "8"]}
    return position(rules, hands, total=95, to_play=0)


def refused(state: State, seat: int, action: str) -> str:
    """The message of the refusal, after checking the state was not touched."""
    summary = summarize(state)
    events = state.events()
    with pytest.raises(IllegalActionError) as info:
        apply(state, seat, action)
    assert summarize(state) == summary
    assert state.events() == events
    return str(info.value)


def test_T1_refusal_names_seat_action_total_and_the_limit() -> None:
    message = refused(at_95(), 0, "play 10")
    assert message == "seat 0 tried 'play 10' at total 95, but that makes 105, above 98 (T1)"


def test_T4_refusal_of_the_wrong_seat_names_whose_turn_it_is() -> None:
    message = refused(at_95(), 1, "play 5")
    assert message == "seat 1 tried 'play 5', but it is seat 0's turn"


def test_refusal_of_a_card_not_in_hand() -> None:
    message = refused(at_95(), 0, "play 2")
    assert message == "seat 0 tried 'play 2', but has no '2' in hand"


def test_K6_refusal_of_an_ono99() -> None:
    message = refused(at_95(), 0, "play ono99")
    assert message == "seat 0 tried 'play ono99', but an ONO 99 can never be played (K6)"


def test_K7_refusal_of_a_discard_without_four_ono99s() -> None:
    message = refused(at_95(), 0, "discard ono99")
    assert "seat 0 tried 'discard ono99'" in message and "(K7)" in message


def test_K7_refusal_of_a_discard_in_1980() -> None:
    s = position(make_rules("1980", players=3), {0: ["ono99", "2", "3", "4"]}, to_play=0)
    message = refused(s, 0, "discard ono99")
    assert message == (
        "seat 0 tried 'discard ono99', but these rules have no four-ONO-99 discard (K7)"
    )


def test_X2_refusal_of_a_draw_not_owed() -> None:
    message = refused(at_95(), 0, "draw")
    assert message == "seat 0 tried 'draw', but owes no draw"


def test_refusal_of_a_seat_that_does_not_exist() -> None:
    message = refused(at_95(), 3, "play 5")
    assert message == "3 tried 'play 5', but seats are numbered 0 to 2"


def test_E2_refusal_after_the_game_is_over() -> None:
    rules = make_rules("2022", players=2)
    s = position(rules, {0: ["5"], 1: ["10", "10", "10", "9"]}, total=90, to_play=0)
    s = apply(s, 0, "play 5")
    assert s.over
    message = refused(s, 0, "play 10")
    assert message == "seat 0 tried 'play 10', but the game is over"


def test_refused_action_leaves_the_state_usable() -> None:
    s = at_95()
    with pytest.raises(IllegalActionError):
        apply(s, 0, "play 10")
    assert apply(s, 0, "play 3").total == 98


def test_refusal_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="seat 0 tried 'play 10'"):
        apply(at_95(), 0, "play 10")


def test_N2_unparseable_action_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="unknown action 'play eleven'"):
        apply(at_95(), 0, "play eleven")
