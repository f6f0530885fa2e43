"""Refused actions: ``IllegalActionError`` says who tried what and why, and the state is left
exactly as it was (T1, K6, K7, P4, X2, E2; STYLE principle 6). The reason is data too (a code,
its rule and params, STYLE principle 12), and a seat's view gives the same answer as the state
(``why_illegal``), so interfaces that hold only a view never work it out again."""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import pytest

from invariants import config_id, random_states, sweep_configs
from ono99.engine import (
    ALL_ACTIONS,
    PLAY,
    REASONS,
    IllegalActionError,
    NotationError,
    SetupError,
    State,
    apply,
    legal_actions,
    make_rules,
    parse_action,
    summarize,
    view,
    why_illegal,
)
from positions import position


def at_95() -> State:
    rules = make_rules("2022", players=3)
    hands = {0: ["10", "3", "reverse", "ono99"], 1: ["5", "6", "7", "8"]}
    return position(rules, hands, total=95, to_play=0)


def refusal(state: State, seat: Any, action: str) -> IllegalActionError:
    """The refusal, after checking the state was not touched and that it says who tried
    what, and a reason the engine declares (REASONS), with the params it declares."""
    summary = summarize(state)
    events = state.events()
    with pytest.raises(IllegalActionError) as info:
        apply(state, seat, action)
    assert summarize(state) == summary
    assert state.events() == events
    error = info.value
    assert error.seat == seat and error.action is parse_action(action)
    assert error.rule == REASONS[error.code].rule
    assert tuple(error.params) == REASONS[error.code].params
    return error


def refused(state: State, seat: Any, action: str) -> str:
    """The message of the refusal (see ``refusal``)."""
    return str(refusal(state, seat, action))


def reason(state: State, seat: Any, action: str) -> tuple[str, str, dict[str, Any]]:
    error = refusal(state, seat, action)
    return error.code, str(error.rule), error.params


def test_T1_refusal_names_seat_action_total_and_the_limit() -> None:
    message = refused(at_95(), 0, "play 10")
    assert message == "seat 0 tried 'play 10' at total 95, but that makes 105, above 98 (T1)"
    params = {"card": "10", "total": 95, "after": 105, "max_total": 98}
    assert reason(at_95(), 0, "play 10") == ("too_high", "T1", params)


def test_T4_refusal_of_the_wrong_seat_names_whose_turn_it_is() -> None:
    message = refused(at_95(), 1, "play 5")
    assert message == "seat 1 tried 'play 5', but it is seat 0's turn"
    assert reason(at_95(), 1, "play 5") == ("not_your_turn", "T4", {"to_play": 0})


def test_refusal_of_a_card_not_in_hand() -> None:
    message = refused(at_95(), 0, "play 2")
    assert message == "seat 0 tried 'play 2', but has no '2' in hand"
    assert reason(at_95(), 0, "play 2") == ("not_in_hand", "T1", {"card": "2"})


def test_K6_refusal_of_an_ono99() -> None:
    message = refused(at_95(), 0, "play ono99")
    assert message == "seat 0 tried 'play ono99', but an ONO 99 can never be played (K6)"
    assert reason(at_95(), 0, "play ono99") == ("ono99_never", "K6", {})


def test_K7_refusal_of_a_discard_without_four_ono99s() -> None:
    message = refused(at_95(), 0, "discard ono99")
    assert "seat 0 tried 'discard ono99'" in message and "(K7)" in message
    assert reason(at_95(), 0, "discard ono99") == ("discard_needs_four", "K7", {"ono99s": 1})


def test_K7_refusal_of_a_discard_in_1980() -> None:
    s = position(make_rules("1980", players=3), {0: ["ono99", "2", "3", "4"]}, to_play=0)
    message = refused(s, 0, "discard ono99")
    assert message == (
        "seat 0 tried 'discard ono99', but these rules have no four-ONO-99 discard (K7)"
    )
    assert reason(s, 0, "discard ono99") == ("no_discard_rule", "K7", {})


def test_X2_refusal_of_a_draw_not_owed() -> None:
    message = refused(at_95(), 0, "draw")
    assert message == "seat 0 tried 'draw', but owes no draw"
    assert reason(at_95(), 0, "draw") == ("draw_automatic", "T2", {})  # no draw penalty


def test_refusal_of_a_seat_that_does_not_exist() -> None:
    message = refused(at_95(), 3, "play 5")
    assert message == "3 tried 'play 5', but seats are numbered 0 to 2"
    assert reason(at_95(), 3, "play 5") == ("no_such_seat", "C3", {"last_seat": 2})


def test_E2_refusal_after_the_game_is_over() -> None:
    rules = make_rules("2022", players=2)
    s = position(rules, {0: ["5"], 1: ["10", "10", "10", "9"]}, total=90, to_play=0)
    s = apply(s, 0, "play 5")
    assert s.over
    message = refused(s, 0, "play 10")
    assert message == "seat 0 tried 'play 10', but the game is over"
    assert reason(s, 0, "play 10") == ("game_over", "E2", {})


def test_refused_action_leaves_the_state_usable() -> None:
    s = at_95()
    with pytest.raises(IllegalActionError):
        apply(s, 0, "play 10")
    assert apply(s, 0, "play 3").total == 98


def test_a_refusal_survives_pickling_with_its_fields() -> None:
    """A tournament worker's error travels back to the parent process pickled."""
    error = refusal(at_95(), 0, "play 10")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is IllegalActionError and _fields(again) == _fields(error)


def test_refusal_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="seat 0 tried 'play 10'"):
        apply(at_95(), 0, "play 10")


def test_N2_unparseable_action_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="unknown action 'play eleven'"):
        apply(at_95(), 0, "play eleven")


# --------------------------------------------------------------------------- every reason


def test_X2_a_draw_not_owed_under_the_draw_penalty() -> None:
    s = position(make_rules("2022", players=3, draw_penalty=True), {0: ["5"]}, to_play=0)
    assert reason(s, 0, "draw") == ("no_draw_owed", "X2", {})


def test_X2_with_nothing_that_fits_the_owed_draw_comes_first() -> None:
    rules = make_rules("2022", players=2, draw_penalty=True)
    hands = {0: ["play2", "1", "10", "9"], 1: ["reverse", "10", "9", "8"]}
    s = position(rules, hands, total=90, to_play=0)
    s = apply(apply(s, 0, "play play2"), 1, "play reverse")  # deflected: seat 0 owes two
    s = apply(s, 0, "play 1")  # the first of the two, at 91; seat 0 owes its draw
    assert (s.to_play, s.owed, s.owes_draw) == (0, 1, (0,))
    assert legal_actions(s, 0) == [parse_action("draw")]
    assert reason(s, 0, "play 10") == ("must_draw", "X2", {"total": 91})


def test_K7_four_ono99s_must_be_laid_down() -> None:
    s = position(make_rules("2022", players=2), {0: ["ono99"] * 4}, to_play=0)
    assert reason(s, 0, "play ono99") == ("must_discard", "K7", {})


def test_M3_an_ono99_is_no_bust() -> None:
    rules = make_rules("2022", players=2, match="points")
    s = position(rules, {0: ["10", "9", "8", "ono99"]}, total=95, to_play=0)
    assert legal_actions(s, 0) == [PLAY[8], PLAY[9], PLAY[10]]  # busts
    assert reason(s, 0, "play ono99") == ("ono99_no_bust", "M3", {})


def test_X3_an_ono99_off_the_tens_and_a_second_one() -> None:
    rules = make_rules("2022", players=2, ono99_on_tens=True)
    s = position(rules, {1: ["3"], 0: ["ono99", "5"]}, to_play=1)
    s = apply(s, 1, "play 3")
    assert reason(s, 0, "play ono99") == ("ono99_needs_tens", "X3", {"total": 3})
    s = position(rules, {1: ["10", "ono99", "ono99"], 0: ["play2"]}, to_play=1)
    s = apply(apply(apply(s, 1, "play 10"), 0, "play play2"), 1, "play ono99")
    assert reason(s, 1, "play ono99") == ("one_ono99_per_turn", "X3", {})


def test_P4_a_double_play_first_of_two() -> None:
    s = position(make_rules("1980", players=2), {1: ["play2"], 0: ["play2", "5"]}, to_play=1)
    s = apply(s, 1, "play play2")
    assert reason(s, 0, "play play2") == ("play2_not_first", "P4", {"card": "play2"})


def test_M3_a_card_at_a_total_already_above_the_limit() -> None:
    rules = make_rules("2022", players=3, match="points", bust_total="keep")
    hands = {0: ["10", "9", "8", "7"], 1: ["reverse", "-10", "10", "9"]}
    s = position(rules, hands, total=95, to_play=0)
    s = apply(s, 0, "play 10")  # a bust that keeps its value: 105
    assert s.total == 105 and s.to_play == 1
    params = {"card": "reverse", "total": 105, "after": 105, "max_total": 98}
    assert reason(s, 1, "play reverse") == ("already_over", "T1", params)


CONFIGS = sweep_configs()[::9]  # 45 rule sets: every edition, format and option profile


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_the_view_and_the_state_give_the_same_reason_for_every_refusal(rules: Any) -> None:
    """Every (seat, action) in every state of a random game: ``apply`` refuses exactly what
    ``why_illegal`` refuses, with its error; and the seat's view gives the same answer."""
    for state in sample_states(rules):
        for seat in range(rules.players):
            v = view(state, seat)
            legal = legal_actions(state, seat)
            for action in ALL_ACTIONS:
                from_state = why_illegal(state, seat, action)
                from_view = why_illegal(v, seat, action)
                assert (from_state is None) is (action in legal) is (from_view is None)
                if from_state is None or from_view is None:
                    continue
                assert _fields(from_view) == _fields(from_state)
                assert _fields(refusal(state, seat, str(action))) == _fields(from_state)


def sample_states(rules: Any, count: int = 40) -> list[State]:
    """About ``count`` states spread over one random game, its final state included."""
    states = list(random_states(rules, 13))
    return states[:: max(1, len(states) // count)] + states[-1:]


def _fields(e: IllegalActionError) -> tuple[Any, ...]:
    return str(e), e.seat, e.action, e.code, e.rule, e.params


def test_every_reason_is_given_somewhere() -> None:
    """The scenario tests above and the sweep reach every code REASONS declares."""
    seen = set()
    for rules in CONFIGS:
        for state in sample_states(rules):
            for seat, action in itertools.product(range(rules.players), ALL_ACTIONS):
                e = why_illegal(state, seat, action)
                if e is not None:
                    seen.add(e.code)
    scenarios = {"no_such_seat", "must_draw", "ono99_no_bust", "one_ono99_per_turn",
                 "already_over"}  # fmt: skip
    assert set(REASONS) - seen <= scenarios


def test_a_view_answers_for_its_own_seat_only() -> None:
    s = at_95()
    assert why_illegal(view(s, 0), 0, "play 3") is None
    with pytest.raises(SetupError, match="seat 0's view cannot answer for seat 1"):
        why_illegal(view(s, 0), 1, "play 5")
    with pytest.raises(SetupError):
        why_illegal(view(s), 0, "play 3")  # a spectator's view answers for nobody
