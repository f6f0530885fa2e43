"""Elimination and winning in the single game (RULES.md §5, E1–E2; M1)."""

from __future__ import annotations

import json

import pytest

from ono99.engine import (
    IN,
    OUT,
    OUT_OF_ROUND,
    IllegalActionError,
    State,
    Status,
    apply,
    legal_actions,
    make_rules,
    summarize,
    view,
)
from positions import events_since, hand, position


def stuck_seat_1(players: int = 3, edition: str = "2022") -> tuple[State, State]:
    """At 90, seat 0 plays 5 (95); seat 1 holds only cards that reach 99 or more.
    Returns the states before and after seat 0's play."""
    rules = make_rules(edition, players=players, match="single")
    hands = {0: ["5", "-10", "2", "3"], 1: ["10", "9", "8", "ono99"]}
    if players > 2:
        hands[2] = ["-10", "2", "3", "4"]
    if players > 3:
        hands[3] = ["-10", "2", "3", "4"]
    s = position(rules, hands, total=90, to_play=0)
    return s, apply(s, 0, "play 5")


def test_E1_player_with_no_legal_action_is_eliminated() -> None:
    _, s = stuck_seat_1()
    assert s.out == (1,)
    assert view(s).status == ("in", "out", "in")
    assert summarize(s)["out"] == [1]


def test_a_seat_status_is_one_value_in_the_state_every_view_and_json() -> None:
    _, s = stuck_seat_1()
    assert s.status == view(s).status == view(s, 0).status == (IN, OUT, IN)
    assert all(type(st) is Status for st in view(s, 2).status)
    assert json.dumps(view(s).status) == '["in", "out", "in"]'
    assert [st.code for st in (IN, OUT, OUT_OF_ROUND)] == [0, 1, 2]  # arrays' form (sim.fast)
    assert Status("out_of_round") is OUT_OF_ROUND


def test_E1_eliminated_player_plays_nothing_and_the_total_is_unchanged() -> None:
    before, s = stuck_seat_1()
    assert s.total == 95
    assert len(s.discard) == len(before.discard) + 1  # only seat 0's card
    kinds = [e.kind for e in events_since(before, s)]
    assert kinds == ["play", "eliminated"]


def test_E1_eliminated_hand_is_laid_down_face_up() -> None:
    before, s = stuck_seat_1()
    laid = (8, 9, 10, 15)
    assert s.hands[1] == laid
    assert events_since(before, s)[-1].data == laid
    # Public: every other seat and a spectator see it.
    assert view(s, 0).laid_down[1] == laid
    assert view(s, 2).laid_down[1] == laid
    assert view(s).laid_down[1] == laid


def test_E1_hands_of_players_still_in_are_not_laid_down() -> None:
    _, s = stuck_seat_1()
    assert view(s, 1).laid_down[0] == ()
    assert view(s, 1).laid_down[2] == ()


def test_E1_eliminated_player_has_no_legal_action() -> None:
    _, s = stuck_seat_1()
    assert legal_actions(s, 1) == []
    assert view(s, 1).legal == ()
    with pytest.raises(IllegalActionError, match="seat 1 tried 'play 8'"):
        apply(s, 1, "play 8")


def test_E1_eliminated_player_is_skipped_for_the_rest_of_the_game() -> None:
    _, s = stuck_seat_1(players=4)
    assert s.to_play == 2
    s = apply(s, 2, "play -10")
    s = apply(s, 3, "play -10")
    s = apply(s, 0, "play -10")
    assert s.to_play == 2
    assert s.out == (1,)


def test_E1_next_player_after_an_elimination_owes_one() -> None:
    _, s = stuck_seat_1()
    assert (s.to_play, s.owed) == (2, 1)


def test_E1_laid_down_hand_stays_out_of_play() -> None:
    _, s = stuck_seat_1()
    s = apply(s, 2, "play -10")
    s = apply(s, 0, "play -10")
    assert hand(s, 1) == ["8", "9", "10", "ono99"]
    assert s.to_play == 2


def test_E2_two_players_the_game_ends_when_one_is_eliminated() -> None:
    before, s = stuck_seat_1(players=2)
    assert s.over
    assert s.winners == (0,)
    assert (s.to_play, s.owed) == (None, 0)
    assert legal_actions(s) == []
    assert [e.kind for e in events_since(before, s)] == ["play", "eliminated", "over"]


def test_E2_three_players_the_game_goes_on_after_one_elimination() -> None:
    _, s = stuck_seat_1(players=3)
    assert not s.over and s.winners == ()


def test_E2_game_ends_the_moment_one_player_remains() -> None:
    rules = make_rules("2022", players=3)
    hands = {0: ["5", "-10", "2", "3"], 1: ["10", "9", "8", "ono99"], 2: ["10", "9", "7", "6"]}
    s = position(rules, hands, total=90, to_play=0)
    s = apply(s, 0, "play 5")
    # Seat 1 (95: nothing fits) and then seat 2 (nothing fits either) are out: 0 wins.
    assert s.over
    assert s.out == (1, 2)
    assert s.winners == (0,)
    summary = summarize(s)
    assert (summary["over"], summary["winners"], summary["legal"]) == (True, [0], [])


def test_E2_no_action_is_accepted_once_the_game_is_over() -> None:
    _, s = stuck_seat_1(players=2)
    with pytest.raises(IllegalActionError, match="the game is over"):
        apply(s, 0, "play -10")


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_E2_winner_view_reports_the_win(edition: str) -> None:
    _, s = stuck_seat_1(players=2, edition=edition)
    v = view(s, 0)
    assert v.over and v.winners == (0,) and v.legal == ()
