"""The 1980 edition's differences (RULES.md §6 X1; C2, K2, K5, K7, P2, P4) and how the
options that carry them behave when moved to the other edition."""

from __future__ import annotations

from ono99.engine import (
    CCW,
    CW,
    PLAY,
    apply,
    legal_actions,
    make_rules,
    parse_card,
)
from ono99.engine.cards import HOLD, PLAY2
from ono99.i18n import card_label, translator
from positions import events_since, position


def test_X1_1980_deck_has_no_zero_or_one_cards() -> None:
    deck = make_rules("1980").deck
    assert parse_card("0") not in deck and parse_card("1") not in deck


def test_X1_1980_calls_play2_double_play() -> None:
    english = translator("en")  # the engine names cards in notation only (N1); words are i18n's
    assert card_label(PLAY2, "1980", english) == "Double Play"
    assert card_label(PLAY2, "2022", english) == "Play 2"


def test_X1_1980_total_stays_negative_across_turns() -> None:
    rules = make_rules("1980", players=3)
    s = position(rules, {0: ["-10"], 1: ["-10"], 2: ["5"]}, to_play=0)
    s = apply(s, 0, "play -10")
    s = apply(s, 1, "play -10")
    assert s.total == -20
    assert apply(s, 2, "play 5").total == -15


def test_X1_1980_every_card_is_legal_at_a_negative_total() -> None:
    rules = make_rules("1980", players=3)
    s = position(rules, {0: ["10", "-10", "hold", "reverse"]}, total=-30, to_play=0)
    assert [str(a) for a in legal_actions(s)] == [
        "play 10",
        "play -10",
        "play reverse",
        "play hold",
    ]


def test_X1_1980_hold_deflects_a_double_play() -> None:
    rules = make_rules("1980", players=3)
    s = position(rules, {0: ["play2"], 1: ["hold", "2", "3", "4"]}, to_play=0)
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play hold")
    assert (after.to_play, after.owed) == (2, 2)
    assert events_since(s, after)[0].data == "deflect"


def test_X1_1980_double_play_may_not_answer_a_double_play() -> None:
    rules = make_rules("1980", players=3)
    s = position(rules, {0: ["play2"], 1: ["play2", "2", "3", "4"]}, to_play=0)
    s = apply(s, 0, "play play2")
    assert PLAY[PLAY2] not in legal_actions(s)


def test_X1_1980_with_play2_deflects_play2_a_double_play_deflects() -> None:
    rules = make_rules("1980", players=3, play2_deflects_play2=True)
    s = position(rules, {0: ["play2"], 1: ["play2", "2", "3", "4"]}, to_play=0)
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play play2")
    assert (after.to_play, after.owed) == (2, 2)


def test_X1_2022_with_play2_deflects_play2_off_a_play2_may_not_be_first() -> None:
    rules = make_rules("2022", players=3, play2_deflects_play2=False)
    s = position(rules, {0: ["play2"], 1: ["play2", "reverse", "3", "4"]}, to_play=0)
    s = apply(s, 0, "play play2")
    assert [str(a) for a in legal_actions(s)] == ["play 3", "play 4", "play reverse"]
    s = apply(s, 1, "play 3")
    assert PLAY[PLAY2] in legal_actions(s)


def test_X1_2022_with_play2_deflects_play2_off_reverse_still_deflects() -> None:
    rules = make_rules("2022", players=3, play2_deflects_play2=False)
    s = position(rules, {0: ["play2"], 1: ["reverse", "2", "3", "4"]}, to_play=0)
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play, after.owed) == (CCW, 0, 2)


def test_X1_hold_deflects_even_when_play2_deflects_play2_is_on() -> None:
    rules = make_rules("1980", players=3, play2_deflects_play2=True)
    assert HOLD in rules.deflectors and PLAY2 in rules.deflectors
    s = position(rules, {0: ["play2"], 1: ["hold", "2", "3", "4"]}, to_play=0)
    after = apply(apply(s, 0, "play play2"), 1, "play hold")
    assert (after.direction, after.to_play, after.owed) == (CW, 2, 2)


def test_X1_1980_four_ono99s_lose_the_round_in_the_default_tokens_match() -> None:
    rules = make_rules("1980", players=3)
    s = position(rules, {0: ["5"], 1: ["ono99"] * 4}, to_play=0)
    after = apply(s, 0, "play 5")
    assert after.tokens == (3, 2, 3)
    assert after.round == 2
