"""Play 2 / Double Play (RULES.md §4, P1–P7), in two- and three-player games, and the
second owed card as every view reports it, against the transitions in every configuration."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from invariants import config_id, random_states, sweep_configs
from ono99.engine import (
    CCW,
    CW,
    DRAW,
    PLAY,
    IllegalActionError,
    State,
    apply,
    legal_actions,
    make_rules,
    view,
)
from ono99.engine.cards import PLAY2
from positions import events_since, hand, position

# Deflectors per edition (P2): 2022 — Reverse, Play 2; 1980 — Reverse, Hold.
DEFLECTORS = [("2022", "reverse"), ("2022", "play2"), ("1980", "reverse"), ("1980", "hold")]


def owing(
    edition: str,
    players: int,
    seat1: list[str],
    pile: Sequence[str] = (),
    total: int | None = None,
    **options: object,
) -> State:
    """Seat 0 (holding play2, 2, 4, 6) has just laid a Play 2 at ``total`` and drawn a 9;
    seat 1, holding ``seat1``, owes two cards and draws ``pile``. Seat 2 holds −10, 5, 6, 7."""
    rules = make_rules(edition, players=players, **options)
    hands: dict[int, list[str]] = {0: ["play2", "2", "4", "6"], 1: seat1}
    if players > 2:
        hands[2] = ["-10", "5", "6", "7"]
    s = position(rules, hands, pile=["9", *pile], to_play=0, total=total)
    return apply(s, 0, "play play2")


# --------------------------------------------------------------------------- P1


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_P1_owing_player_plays_then_draws_then_owes_one_more(edition: str) -> None:
    s = owing(edition, 3, ["2", "3", "4", "5"], pile=["7", "8"])
    assert (s.to_play, s.owed) == (1, 2)
    after = apply(s, 1, "play 3")
    assert (after.to_play, after.owed, after.total) == (1, 1, 3)
    assert hand(after, 1) == ["2", "4", "5", "7"]


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_P1_after_the_second_card_and_draw_the_next_player_owes_one(edition: str) -> None:
    s = owing(edition, 3, ["2", "3", "4", "5"], pile=["7", "8"])
    after = apply(apply(s, 1, "play 3"), 1, "play 4")
    assert (after.to_play, after.owed, after.total) == (2, 1, 7)
    assert hand(after, 1) == ["2", "5", "7", "8"]


def test_P1_other_seats_may_not_play_while_a_player_owes_two() -> None:
    s = owing("2022", 3, ["2", "3", "4", "5"])
    s = apply(s, 1, "play 3")
    assert legal_actions(s, 2) == []
    with pytest.raises(IllegalActionError, match="it is seat 1's turn"):
        apply(s, 2, "play 5")


def seconds(state: State) -> list[bool]:
    """``second_card`` as every seat and a spectator see it (it is public: all agree)."""
    return [view(state, seat).second_card for seat in (*range(state.rules.players), None)]


@pytest.mark.parametrize("draw_penalty", [False, True])
def test_P1_every_view_says_when_the_second_owed_card_is_due(draw_penalty: bool) -> None:
    s = owing("2022", 3, ["2", "3", "4", "5"], pile=["7", "8"], draw_penalty=draw_penalty)
    assert seconds(s) == [False] * 4  # two owed: the first is due
    first = apply(s, 1, "play 3")
    assert seconds(first) == [True] * 4
    if draw_penalty:  # the owed draw taken, the second card is still due
        drawn = apply(first, 1, "draw")
        assert drawn.to_play == 1 and seconds(drawn) == [True] * 4
    after = apply(first, 1, "play 4")
    assert after.to_play == 2 and seconds(after) == [False] * 4


@pytest.mark.parametrize(("edition", "card"), DEFLECTORS)
def test_P2_a_deflected_play2_owes_no_second_card(edition: str, card: str) -> None:
    s = owing(edition, 3, [card, "2", "3", "4"], pile=["7"])
    assert seconds(apply(s, 1, f"play {card}")) == [False] * 4


def test_P6_no_second_card_is_owed_once_the_obligation_lapses() -> None:
    s = owing("2022", 3, ["3", "10", "10", "10"], pile=["10"], total=95)
    assert seconds(apply(s, 1, "play 3")) == [False] * 4


def test_P1_second_card_agrees_with_the_transitions_in_every_configuration() -> None:
    """``second_card`` reads the log; here it is checked against the transitions instead, in
    one random game per configuration of the sweep: it holds from a first owed card that
    left the turn with its player (owing two, now one) until their next card, through
    their draw."""
    due_somewhere = 0
    for i, rules in enumerate(sweep_configs()):
        states = list(random_states(rules, i))
        due = False
        for before, after in itertools.pairwise(states):
            ((_seat, action),) = after.actions(before.moves)
            same_turn = (
                not after.over and after.round == before.round and after.to_play == before.to_play
            )
            if action is DRAW:
                due = due and same_turn
            else:
                due = same_turn and before.owed == 2 and after.owed == 1
            assert view(after).second_card == due, (config_id(rules), i, after.moves)
            due_somewhere += due
    assert due_somewhere > 100  # the games did reach the second card, often


# --------------------------------------------------------------------------- P2


@pytest.mark.parametrize(("edition", "card"), DEFLECTORS)
def test_P2_deflector_as_first_card_is_the_whole_turn(edition: str, card: str) -> None:
    s = owing(edition, 3, [card, "2", "3", "4"], pile=["7"])
    after = apply(s, 1, f"play {card}")
    assert after.to_play != 1 and after.owed == 2
    assert events_since(s, after)[0].data == "deflect"
    assert len(after.hands[1]) == 4  # it still draws


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_P2_reverse_deflects_back_to_whoever_laid_the_play2_with_three(edition: str) -> None:
    s = owing(edition, 3, ["reverse", "2", "3", "4"])
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 0, 2)


def test_P2_reverse_deflects_back_to_whoever_laid_the_play2_with_four() -> None:
    s = owing("2022", 4, ["reverse", "2", "3", "4"])
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 0, 2)


def test_P2_play2_deflects_on_to_the_next_player_in_2022() -> None:
    s = owing("2022", 3, ["play2", "2", "3", "4"])
    after = apply(s, 1, "play play2")
    assert (after.direction, after.to_play, after.owed) == (CW, 2, 2)


def test_P2_hold_deflects_on_to_the_next_player_in_1980() -> None:
    s = owing("1980", 3, ["hold", "2", "3", "4"])
    after = apply(s, 1, "play hold")
    assert (after.direction, after.to_play, after.owed) == (CW, 2, 2)


def test_P2_deflected_obligation_skips_an_eliminated_seat() -> None:
    # Four players; seat 2 holds four ONO 99s with K7 off and is out at its first turn.
    rules = make_rules("2022", players=4, four_ono99_discard=False)
    hands = {0: ["play2"], 1: ["2", "play2"], 2: ["ono99"] * 4, 3: ["3"]}
    s = position(rules, hands, to_play=1)
    s = apply(s, 1, "play 2")
    s = apply(s, 3, "play 3")
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play play2")
    assert (after.to_play, after.owed) == (3, 2)


def test_P2_receiver_of_a_deflection_owes_the_full_two_cards() -> None:
    s = owing("2022", 3, ["play2", "2", "3", "4"])
    s = apply(s, 1, "play play2")
    after = apply(s, 2, "play 5")
    assert (after.to_play, after.owed) == (2, 1)


def test_P2_non_deflector_first_card_is_not_marked_as_a_deflection() -> None:
    s = owing("2022", 3, ["2", "3", "4", "5"])
    after = apply(s, 1, "play 2")
    assert events_since(s, after)[0].data is None


# --------------------------------------------------------------------------- P3


def test_P3_obligation_passed_on_twice_is_still_two() -> None:
    rules = make_rules("2022", players=3)
    hands = {0: ["play2", "1", "2", "3"], 1: ["play2"], 2: ["play2"]}
    s = position(rules, hands, to_play=0)
    s = apply(s, 0, "play play2")
    s = apply(s, 1, "play play2")
    after = apply(s, 2, "play play2")
    assert (after.to_play, after.owed) == (0, 2)
    after = apply(after, 0, "play 1")
    assert (after.to_play, after.owed) == (0, 1)


def test_P3_play2_as_second_card_asks_two_not_three() -> None:
    s = owing("2022", 3, ["2", "play2", "3", "4"])
    after = apply(apply(s, 1, "play 2"), 1, "play play2")
    assert (after.to_play, after.owed) == (2, 2)


def test_P3_reverses_back_and_forth_with_two_players_stay_at_two() -> None:
    rules = make_rules("2022", players=2)
    hands = {0: ["play2", "reverse", "1", "2"], 1: ["reverse", "3", "4", "5"]}
    s = position(rules, hands, to_play=0)
    s = apply(s, 0, "play play2")
    s = apply(s, 1, "play reverse")
    assert (s.to_play, s.owed) == (0, 2)
    s = apply(s, 0, "play reverse")
    assert (s.to_play, s.owed) == (1, 2)
    after = apply(s, 1, "play 3")
    assert (after.to_play, after.owed) == (1, 1)


# --------------------------------------------------------------------------- P4


def test_P4_1980_double_play_is_not_legal_as_the_first_owed_card() -> None:
    s = owing("1980", 3, ["play2", "2", "3", "4"])
    assert PLAY[PLAY2] not in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"may not be the first of two owed cards \(P4\)"):
        apply(s, 1, "play play2")


def test_P4_1980_double_play_is_legal_as_the_second_owed_card() -> None:
    s = owing("1980", 3, ["play2", "2", "3", "4"])
    s = apply(s, 1, "play 2")
    assert PLAY[PLAY2] in legal_actions(s)
    after = apply(s, 1, "play play2")
    assert (after.to_play, after.owed) == (2, 2)


def test_P4_1980_double_play_is_legal_when_owing_one() -> None:
    s = position(make_rules("1980", players=3), {0: ["play2", "2", "3", "4"]}, to_play=0)
    assert PLAY[PLAY2] in legal_actions(s)


def test_P4_1980_hand_of_double_play_and_ono99s_cannot_answer_a_double_play() -> None:
    rules = make_rules("1980", players=3, match="single")
    hands = {0: ["play2", "2", "4", "6"], 1: ["play2", "ono99", "ono99", "ono99"]}
    s = position(rules, hands, to_play=0)
    after = apply(s, 0, "play play2")
    assert after.out == (1,)


# --------------------------------------------------------------------------- P5


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_P5_play2_as_second_card_puts_a_new_obligation_on_the_next_player(edition: str) -> None:
    s = owing(edition, 3, ["2", "play2", "3", "4"])
    after = apply(apply(s, 1, "play 2"), 1, "play play2")
    assert (after.direction, after.to_play, after.owed) == (CW, 2, 2)


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_P5_reverse_as_second_card_only_flips_direction(edition: str) -> None:
    s = owing(edition, 3, ["2", "reverse", "3", "4"])
    s = apply(s, 1, "play 2")
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 0, 1)
    assert events_since(s, after)[0].data is None


def test_P5_hold_as_second_card_has_no_effect_in_1980() -> None:
    s = owing("1980", 3, ["2", "hold", "3", "4"])
    after = apply(apply(s, 1, "play 2"), 1, "play hold")
    assert (after.direction, after.to_play, after.owed) == (CW, 2, 1)


# --------------------------------------------------------------------------- P6


def test_P6_failure_on_the_first_card_eliminates_and_the_obligation_lapses() -> None:
    s = owing("2022", 3, ["10", "10", "10", "9"], total=95)
    assert s.out == (1,)
    assert (s.to_play, s.owed) == (2, 1)


def test_P6_failure_on_the_second_card_eliminates_and_the_obligation_lapses() -> None:
    s = owing("2022", 3, ["3", "10", "10", "10"], pile=["10"], total=95)
    s2 = apply(s, 1, "play 3")
    assert s2.out == (1,)
    assert s2.total == 98
    assert (s2.to_play, s2.owed) == (2, 1)
    assert s2.hands[1] == (10, 10, 10, 10)  # it drew after the first card, then laid down


def test_P6_failure_in_1980_eliminates_and_the_obligation_lapses() -> None:
    s = owing("1980", 3, ["10", "10", "10", "9"], match="single", total=95)
    assert s.out == (1,)
    assert (s.to_play, s.owed) == (2, 1)


def test_P6_failure_after_a_deflection_lapses_too() -> None:
    rules = make_rules("2022", players=3)
    hands = {0: ["play2"], 1: ["play2"], 2: ["10", "10", "10", "9"]}
    s = position(rules, hands, total=95, to_play=0)
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play play2")
    assert after.out == (2,)
    assert (after.to_play, after.owed) == (0, 1)


# --------------------------------------------------------------------------- P7


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_P7_two_players_reverse_sends_the_obligation_back(edition: str) -> None:
    s = owing(edition, 2, ["reverse", "2", "3", "4"])
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 0, 2)
    assert events_since(s, after)[0].data == "deflect"


def test_P7_two_players_play2_sends_the_obligation_back_in_2022() -> None:
    s = owing("2022", 2, ["play2", "2", "3", "4"])
    after = apply(s, 1, "play play2")
    assert (after.direction, after.to_play, after.owed) == (CW, 0, 2)


def test_P7_two_players_hold_sends_the_obligation_back_in_1980() -> None:
    s = owing("1980", 2, ["hold", "2", "3", "4"])
    after = apply(s, 1, "play hold")
    assert (after.direction, after.to_play, after.owed) == (CW, 0, 2)


def test_P7_two_players_reverse_as_second_card_passes_one_card_on() -> None:
    s = owing("2022", 2, ["2", "reverse", "3", "4"])
    after = apply(apply(s, 1, "play 2"), 1, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 0, 1)
