"""ONO 99 on tens (RULES.md §6 X3, option ``ono99_on_tens``)."""

from __future__ import annotations

import pytest

from ono99.engine import (
    DISCARD,
    PLAY,
    IllegalActionError,
    State,
    apply,
    legal_actions,
    make_rules,
)
from ono99.engine.cards import ONO99
from positions import events_since, position


def tens(edition: str = "2022", total: int | None = None, **hands: list[str]) -> State:
    rules = make_rules(edition, players=3, ono99_on_tens=True)
    given = {int(k[1:]): v for k, v in hands.items()}
    return position(rules, given, total=total, to_play=0)


def test_X3_off_by_default_an_ono99_is_not_playable_on_a_ten() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["ono99", "5", "6", "7"]}, total=50, to_play=0)
    assert PLAY[ONO99] not in legal_actions(s)


def test_X3_ono99_playable_at_zero() -> None:
    s = tens(s0=["ono99", "5", "6", "7"])
    assert s.total == 0
    assert PLAY[ONO99] in legal_actions(s)


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_X3_ono99_playable_on_a_multiple_of_ten(edition: str) -> None:
    s = tens(edition, 50, s0=["ono99", "5", "6", "7"])
    assert PLAY[ONO99] in legal_actions(s)


def test_X3_ono99_playable_at_ninety() -> None:
    s = tens("2022", 90, s0=["ono99", "9", "9", "9"])
    assert [str(a) for a in legal_actions(s)] == ["play ono99"]


@pytest.mark.parametrize("total", [55, 1, 91, 98])
def test_X3_ono99_not_playable_off_a_ten(total: int) -> None:
    s = tens("2022", total, s0=["ono99", "-10", "reverse", "0"])
    assert PLAY[ONO99] not in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"needs a total ending in 0.*\(X3\)"):
        apply(s, 0, "play ono99")


@pytest.mark.parametrize("total", [-10, -20, -40])
def test_X3_ono99_playable_on_a_negative_multiple_of_ten(total: int) -> None:
    s = tens("1980", total, s0=["ono99", "2", "3", "4"])
    assert PLAY[ONO99] in legal_actions(s)


def test_X3_ono99_not_playable_on_a_negative_total_off_a_ten() -> None:
    s = tens("1980", -15, s0=["ono99", "2", "3", "4"])
    assert s.total == -15
    assert PLAY[ONO99] not in legal_actions(s)


def test_X3_ono99_adds_nothing_and_passes_the_turn() -> None:
    s = tens("2022", 40, s0=["ono99", "5", "6", "7"])
    after = apply(s, 0, "play ono99")
    assert (after.total, after.to_play, after.owed) == (40, 1, 1)
    assert after.discard[-1] == ONO99
    assert events_since(s, after)[0].card == ONO99


def test_X3_only_one_ono99_per_turn_when_owing_two() -> None:
    s = tens("2022", 40, s0=["play2"], s1=["ono99", "ono99", "3", "4"])
    s = apply(s, 0, "play play2")
    s = apply(s, 1, "play ono99")
    assert (s.to_play, s.owed, s.total) == (1, 1, 40)
    assert PLAY[ONO99] not in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"only one ONO 99 may be played per turn"):
        apply(s, 1, "play ono99")


def test_X3_ono99_does_not_deflect_a_play2() -> None:
    s = tens("2022", 40, s0=["play2"], s1=["ono99", "ono99", "3", "4"])
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play ono99")
    assert after.to_play == 1  # seat 1 still owes its second card
    assert events_since(s, after)[0].data is None


def test_X3_next_turn_may_play_an_ono99_again() -> None:
    s = tens("2022", 40, s0=["ono99"], s1=["ono99"])
    s = apply(s, 0, "play ono99")
    assert PLAY[ONO99] in legal_actions(s)
    assert apply(s, 1, "play ono99").total == 40


def test_X3_four_ono99s_still_have_only_the_discard() -> None:
    s = tens("2022", 40, s0=["ono99"] * 4)
    assert legal_actions(s) == [DISCARD]
