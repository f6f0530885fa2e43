"""Card effects (RULES.md §1 C1–C2, §3 K1–K7) and the limit on the total (T1).

Every scenario starts from a position (``tests/positions.py``): the hands, total and seat to
play it names, and nothing played before.
"""

from __future__ import annotations

import pytest

from ono99.engine import (
    CCW,
    CW,
    DISCARD,
    PLAY,
    IllegalActionError,
    State,
    apply,
    legal_actions,
    make_rules,
    parse_card,
    summarize,
)
from ono99.engine.cards import DECK_COUNTS, ONO99
from positions import drive, events_since, hand, position

# --------------------------------------------------------------------------- C1, C2 decks


def test_C1_2022_deck_has_112_cards_in_the_stated_counts() -> None:
    deck = make_rules("2022").deck
    assert len(deck) == 112
    want = {"0": 8, "10": 10, "ono99": 10, "reverse": 10, "-10": 10, "play2": 10, "hold": 0}
    want |= {str(n): 6 for n in range(1, 10)}
    assert {name: deck.count(parse_card(name)) for name in want} == want


def test_C2_1980_deck_has_54_cards_in_the_stated_counts() -> None:
    deck = make_rules("1980").deck
    assert len(deck) == 54
    want = {"0": 0, "1": 0, "10": 10, "hold": 4, "reverse": 6, "-10": 4, "play2": 2, "ono99": 4}
    want |= {str(n): 3 for n in range(2, 10)}
    assert {name: deck.count(parse_card(name)) for name in want} == want
    assert sum(DECK_COUNTS["1980"]) == 54


# --------------------------------------------------------------------------- K1 numbers

NUMBER_CASES = [("2022", n) for n in range(11)] + [("1980", n) for n in range(2, 11)]


@pytest.mark.parametrize(("edition", "card"), NUMBER_CASES)
def test_K1_number_card_adds_its_face_value(edition: str, card: int) -> None:
    s = position(make_rules(edition, players=3), {0: [str(card)]}, total=40, to_play=0)
    after = apply(s, 0, f"play {card}")
    assert after.total == 40 + card


def test_K1_zero_adds_nothing_and_passes_the_turn() -> None:
    s = position(make_rules("2022", players=3), {0: ["0", "9", "9", "9"]}, total=95, to_play=0)
    after = apply(s, 0, "play 0")
    assert (after.total, after.to_play, after.owed, after.direction) == (95, 1, 1, CW)


def test_K1_ten_adds_ten() -> None:
    s = position(make_rules("2022", players=3), {0: ["10"]}, total=88, to_play=0)
    assert apply(s, 0, "play 10").total == 98


def test_K1_number_card_has_no_other_effect() -> None:
    s = position(make_rules("2022", players=3), {0: ["7"]}, to_play=0)
    after = apply(s, 0, "play 7")
    assert (after.direction, after.to_play, after.owed) == (CW, 1, 1)


# --------------------------------------------------------------------------- K2 −10


def test_K2_minus_ten_subtracts_ten() -> None:
    s = position(make_rules("2022", players=3), {0: ["-10"]}, total=57, to_play=0)
    assert apply(s, 0, "play -10").total == 47


def test_K2_minus_ten_clamps_at_zero_in_2022() -> None:
    s = position(make_rules("2022", players=3), {0: ["-10"]}, total=6, to_play=0)
    after = apply(s, 0, "play -10")
    assert after.total == 0
    assert events_since(s, after)[0].total == 0


def test_K2_minus_ten_is_legal_at_zero_in_2022() -> None:
    s = position(make_rules("2022", players=3), {0: ["-10", "ono99", "ono99", "ono99"]})
    assert s.total == 0
    assert legal_actions(s) == [PLAY[parse_card("-10")]]
    assert apply(s, 0, "play -10").total == 0


def test_K2_minus_ten_goes_negative_in_1980() -> None:
    s = position(make_rules("1980", players=3), {0: ["-10"]}, total=4, to_play=0)
    assert apply(s, 0, "play -10").total == -6


def test_K2_minus_ten_goes_negative_in_2022_with_negative_totals() -> None:
    rules = make_rules("2022", players=3, negative_totals=True)
    s = position(rules, {0: ["-10"]}, total=3, to_play=0)
    assert apply(s, 0, "play -10").total == -7


def test_K2_minus_ten_clamps_in_1980_without_negative_totals() -> None:
    rules = make_rules("1980", players=3, negative_totals=False)
    s = position(rules, {0: ["-10"]}, total=4, to_play=0)
    assert apply(s, 0, "play -10").total == 0


def test_K2_X1_numbers_count_up_from_a_negative_total_in_1980() -> None:
    s = position(make_rules("1980", players=3), {0: ["7"]}, total=-20, to_play=0)
    assert apply(s, 0, "play 7").total == -13


# --------------------------------------------------------------------------- K3 Reverse


def test_K3_reverse_flips_direction_and_adds_nothing() -> None:
    s = position(make_rules("2022", players=4), {0: ["reverse"]}, total=30, to_play=0)
    after = apply(s, 0, "play reverse")
    assert (after.total, after.direction, after.to_play) == (30, CCW, 3)


def test_K3_second_reverse_flips_direction_back() -> None:
    rules = make_rules("2022", players=4)
    s = position(rules, {0: ["reverse"], 3: ["reverse"]}, to_play=0)
    s = apply(s, 0, "play reverse")
    after = apply(s, 3, "play reverse")
    assert (after.direction, after.to_play) == (CW, 0)


def test_K3_reverse_in_1980_flips_direction() -> None:
    s = position(make_rules("1980", players=3), {1: ["reverse"]}, to_play=1)
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play) == (CCW, 0)


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_K3_reverse_with_two_players_passes_play_to_the_other_player(edition: str) -> None:
    s = position(make_rules(edition, players=2), {0: ["reverse"]}, to_play=0)
    after = apply(s, 0, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 1, 1)


def test_K3_reverse_with_two_players_in_of_three_passes_to_the_other() -> None:
    # Seat 1 holds four ONO 99s with the K7 discard off: out at its first turn (E1).
    rules = make_rules("2022", players=3, four_ono99_discard=False)
    s = position(rules, {0: ["5", "reverse"], 1: ["ono99"] * 4, 2: ["6"]}, to_play=0)
    s = apply(s, 0, "play 5")
    assert s.out == (1,) and s.to_play == 2
    s = apply(s, 2, "play 6")
    after = apply(s, 0, "play reverse")
    assert (after.direction, after.to_play) == (CCW, 2)


# --------------------------------------------------------------------------- K4, K5


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_K4_play2_adds_nothing_and_next_player_owes_two(edition: str) -> None:
    s = position(make_rules(edition, players=3), {0: ["play2"]}, total=20, to_play=0)
    after = apply(s, 0, "play play2")
    assert (after.total, after.direction, after.to_play, after.owed) == (20, CW, 1, 2)


def test_K5_hold_adds_nothing_and_has_no_effect_outside_a_play2() -> None:
    s = position(make_rules("1980", players=3), {0: ["hold"]}, total=33, to_play=0)
    after = apply(s, 0, "play hold")
    assert (after.total, after.direction, after.to_play, after.owed) == (33, CW, 1, 1)


def test_K5_hold_does_not_exist_in_the_2022_deck() -> None:
    assert parse_card("hold") not in make_rules("2022").deck


# --------------------------------------------------------------------------- K6 ONO 99


def test_K6_ono99_is_never_a_legal_play() -> None:
    s = position(make_rules("2022", players=3), {0: ["ono99", "5", "6", "7"]})
    assert PLAY[ONO99] not in legal_actions(s)
    assert [str(a) for a in legal_actions(s)] == ["play 5", "play 6", "play 7"]


def test_K6_ono99_refused_with_a_reason() -> None:
    s = position(make_rules("1980", players=3), {0: ["ono99", "5", "6", "7"]})
    with pytest.raises(IllegalActionError, match=r"ONO 99 can never be played \(K6\)"):
        apply(s, 0, "play ono99")


def test_K6_ono99_stays_in_hand_after_a_turn() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["5", "ono99", "ono99", "ono99"]}, pile=["8"])
    after = apply(s, 0, "play 5")
    assert hand(after, 0) == ["8", "ono99", "ono99", "ono99"]


def test_K6_ono99_blocks_a_slot_so_one_bad_card_eliminates() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["ono99", "ono99", "ono99", "10"], 2: ["5"]}, total=85, to_play=2)
    s = apply(s, 2, "play 5")
    # Nothing is playable at 90: the player is out at once (E1).
    assert s.out == (0,)
    assert s.to_play == 1


# --------------------------------------------------------------------------- T1


def test_T1_a_card_making_98_is_legal() -> None:
    s = position(make_rules("2022", players=3), {0: ["8", "9", "9", "9"]}, total=90, to_play=0)
    assert [str(a) for a in legal_actions(s)] == ["play 8"]
    assert apply(s, 0, "play 8").total == 98


def test_T1_a_card_making_99_is_illegal() -> None:
    s = position(make_rules("2022", players=3), {0: ["8", "9"]}, total=90, to_play=0)
    assert PLAY[9] not in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"makes 99, above 98 \(T1\)"):
        apply(s, 0, "play 9")


def test_T1_a_player_whose_every_card_reaches_99_is_out() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["9", "9", "9", "9"], 2: ["5"]}, total=85, to_play=2)
    assert apply(s, 2, "play 5").out == (0,)


def test_T1_zero_and_action_cards_are_legal_at_98() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["0", "reverse", "play2", "-10"]}, total=98, to_play=0)
    assert [str(a) for a in legal_actions(s)] == [
        "play 0",
        "play -10",
        "play reverse",
        "play play2",
    ]


def test_T1_house_rule_max_total_99_allows_99() -> None:
    rules = make_rules("2022", players=3, max_total=99)
    s = position(rules, {0: ["9"]}, total=90, to_play=0)
    assert apply(s, 0, "play 9").total == 99


def test_T1_house_rule_max_total_99_refuses_100() -> None:
    rules = make_rules("2022", players=3, max_total=99)
    s = position(rules, {0: ["10", "9", "10", "10"]}, total=90, to_play=0)
    assert [str(a) for a in legal_actions(s)] == ["play 9"]


# --------------------------------------------------------------------------- K7 four ONO 99s


def four_ono99_game(**options: object) -> State:
    rules = make_rules("2022", players=3, **options)
    return position(
        rules,
        {0: ["5"], 1: ["ono99"] * 4, 2: ["6"]},
        pile=["1", "2", "3", "4", "7"],
        total=40,
        to_play=1,
    )


def test_K7_discard_is_the_only_legal_action_for_four_ono99s() -> None:
    s = four_ono99_game()
    assert s.to_play == 1
    assert legal_actions(s) == [DISCARD]


def test_K7_discard_keeps_the_total_and_draws_four_new_cards() -> None:
    s = four_ono99_game()
    after = apply(s, 1, "discard ono99")
    assert after.total == 40
    assert hand(after, 1) == ["1", "2", "3", "4"]
    assert after.discard[-4:] == (ONO99,) * 4
    assert after.draw_pile_size == s.draw_pile_size - 4
    kinds = [e.kind for e in events_since(s, after)]
    assert kinds == ["discard"]


def test_K7_discard_counts_as_the_card_for_the_turn() -> None:
    after = apply(four_ono99_game(), 1, "discard ono99")
    assert (after.to_play, after.owed) == (2, 1)


def test_K7_discard_counts_as_one_of_two_owed_cards() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["play2"], 1: ["ono99"] * 4}, pile=["9", "1", "2", "3", "7"], to_play=0)
    s = apply(s, 0, "play play2")
    assert (s.to_play, s.owed) == (1, 2)
    after = apply(s, 1, "discard ono99")
    assert (after.to_play, after.owed) == (1, 1)
    assert hand(after, 1) == ["1", "2", "3", "7"]
    after = apply(after, 1, "play 3")
    assert (after.to_play, after.owed) == (2, 1)


def test_K7_discard_does_not_deflect_a_play2() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["play2"], 1: ["ono99"] * 4}, pile=["9", "1", "2", "3"], to_play=0)
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "discard ono99")
    # The obligation stays with seat 1 (one card left), not passed to seat 2.
    assert after.to_play == 1
    assert events_since(s, after)[0].data is None


def test_K7_no_discard_in_1980() -> None:
    rules = make_rules("1980", players=3, match="single")
    s = position(rules, {0: ["5"], 1: ["ono99"] * 4}, to_play=0)
    after = apply(s, 0, "play 5")
    # Four ONO 99s and no discard: no legal action, out (E1).
    assert after.out == (1,)
    assert legal_actions(s, 1) == []


def test_K7_no_discard_in_2022_with_four_ono99_discard_off() -> None:
    rules = make_rules("2022", players=3, four_ono99_discard=False)
    s = position(rules, {0: ["5"], 1: ["ono99"] * 4}, to_play=0)
    assert apply(s, 0, "play 5").out == (1,)


def test_K7_discard_in_1980_with_four_ono99_discard_on() -> None:
    rules = make_rules("1980", players=3, four_ono99_discard=True)
    s = position(rules, {0: ["5"], 1: ["ono99"] * 4}, pile=["7", "2", "3", "4", "6"], to_play=0)
    s = apply(s, 0, "play 5")
    assert legal_actions(s) == [DISCARD]
    assert hand(apply(s, 1, "discard ono99"), 1) == ["2", "3", "4", "6"]


def test_K7_discard_refused_with_fewer_than_four_ono99s() -> None:
    s = position(make_rules("2022", players=3), {0: ["ono99", "ono99", "ono99", "5"]})
    assert DISCARD not in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"holds 3 ONO 99 cards, not four \(K7\)"):
        apply(s, 0, "discard ono99")


def test_K7_summary_lists_only_the_discard() -> None:
    assert summarize(four_ono99_game())["legal"] == ["discard ono99"]


def test_K7_discard_reshuffles_when_the_pile_runs_short() -> None:
    # With every other card played first, the ONO 99s come last off the pile.
    rules = make_rules("2022", players=2, max_total=999)
    s = drive(
        position(rules, {}),
        lambda st: st.draw_pile_size < 4 and legal_actions(st) == [DISCARD],
    )
    seat = s.to_play
    left = s.draw_pile_size
    after = apply(s, seat, "discard ono99")
    assert after.reshuffle_count == 1
    assert len(after.hands[seat]) == 4
    # The reshuffled pile held the old discard pile plus the four ONO 99s just laid down.
    assert events_since(s, after)[-1].data == len(s.discard) + 4
    assert after.draw_pile_size == len(s.discard) + 4 - (4 - left)
