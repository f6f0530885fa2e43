"""The draw penalty (RULES.md §6 X2, option ``draw_penalty``)."""

from __future__ import annotations

import pytest

from ono99.engine import (
    DISCARD,
    DRAW,
    IllegalActionError,
    State,
    apply,
    legal_actions,
    make_rules,
    summarize,
    to_act,
    view,
)
from positions import events_since, hand, position


def penalty_game(edition: str = "2022") -> State:
    """Seat 0 (5, 6, 7, 8) plays first; seat 1 holds 0, 1, 2, 3 (1980: 2, 3, 4, 4);
    the pile starts 9, 10, 9."""
    rules = make_rules(edition, players=3, draw_penalty=True)
    low = ["0", "1", "2", "3"] if edition == "2022" else ["2", "3", "4", "4"]
    return position(
        rules,
        {0: ["5", "6", "7", "8"], 1: low, 2: ["-10", "2", "3", "4"]},
        pile=["9", "10", "9"],
        to_play=0,
    )


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_X2_no_automatic_draw_the_player_owes_it(edition: str) -> None:
    s = apply(penalty_game(edition), 0, "play 5")
    assert hand(s, 0) == ["6", "7", "8"]
    assert s.owes_draw == (0,)
    assert s.to_play == 1


def test_X2_the_draw_is_legal_out_of_turn() -> None:
    s = apply(penalty_game(), 0, "play 5")
    assert legal_actions(s, 0) == [DRAW]
    assert view(s, 0).legal == (DRAW,)


def test_X2_the_seat_that_owes_a_draw_acts_before_the_seat_to_play() -> None:
    start = penalty_game()
    assert to_act(start) == 0 == start.to_play
    s = apply(start, 0, "play 5")
    assert (to_act(s), s.to_play) == (0, 1)
    assert all(to_act(view(s, seat)) == 0 for seat in (None, 0, 1, 2))  # a public fact
    assert to_act(apply(s, 0, "draw")) == 1


def test_X2_nobody_acts_once_the_game_is_over() -> None:
    rules = make_rules("2022", players=2, draw_penalty=True)
    stuck = position(rules, {0: ["5"], 1: ["10", "10", "10", "9"]}, total=90, to_play=0)
    s = apply(stuck, 0, "play 5")  # seat 1 can play nothing at 95 and is out (E1, E2)
    assert s.over and to_act(s) is None and to_act(view(s, 0)) is None


def test_X2_drawing_in_time_brings_the_hand_back_to_four() -> None:
    s = apply(penalty_game(), 0, "play 5")
    after = apply(s, 0, "draw")
    assert hand(after, 0) == ["6", "7", "8", "9"]
    assert after.owes_draw == ()
    assert [e.kind for e in events_since(s, after)] == ["draw"]


def test_X2_drawing_does_not_change_whose_turn_it_is() -> None:
    s = apply(penalty_game(), 0, "play 5")
    after = apply(s, 0, "draw")
    assert (after.to_play, after.owed, after.total) == (1, 1, 5)


def test_X2_draw_is_lost_when_another_seat_plays_first() -> None:
    s = apply(penalty_game(), 0, "play 5")
    after = apply(s, 1, "play 2")
    assert [(e.kind, e.seat) for e in events_since(s, after)] == [("lost_draw", 0), ("play", 1)]
    assert hand(after, 0) == ["6", "7", "8"]
    assert after.owes_draw == (1,)
    assert legal_actions(after, 0) == []


def test_X2_a_lost_draw_cannot_be_taken_later() -> None:
    s = apply(apply(penalty_game(), 0, "play 5"), 1, "play 2")
    with pytest.raises(IllegalActionError, match="seat 0 tried 'draw', but owes no draw"):
        apply(s, 0, "draw")


def test_X2_hand_stays_short_for_the_rest_of_the_round() -> None:
    s = apply(apply(penalty_game(), 0, "play 5"), 1, "play 2")
    s = apply(s, 1, "draw")
    s = apply(s, 2, "play 2")
    s = apply(s, 2, "draw")
    s = apply(s, 0, "play 6")
    s = apply(s, 0, "draw")
    assert len(s.hands[0]) == 3
    assert [len(h) for h in s.hands] == [3, 4, 4]


def test_X2_own_second_card_makes_the_first_draw_lost() -> None:
    rules = make_rules("2022", players=3, draw_penalty=True)
    s = position(rules, {0: ["play2"], 1: ["0", "1", "2", "3"]}, pile=["9"], to_play=0)
    s = apply(s, 0, "play play2")
    s = apply(s, 1, "play 0")
    assert s.owes_draw == (1,) and (s.to_play, s.owed) == (1, 1)
    after = apply(s, 1, "play 1")
    assert ("lost_draw", 1) in [(e.kind, e.seat) for e in events_since(s, after)]
    assert hand(after, 1) == ["2", "3"]
    assert after.owes_draw == (1,)


def test_X2_player_owing_a_draw_may_draw_before_the_second_card() -> None:
    rules = make_rules("2022", players=3, draw_penalty=True)
    s = position(rules, {0: ["play2"], 1: ["0", "1", "2", "3"]}, pile=["9"], to_play=0)
    s = apply(apply(s, 0, "play play2"), 1, "play 0")
    assert [str(a) for a in legal_actions(s)] == ["play 1", "play 2", "play 3", "draw"]
    after = apply(s, 1, "draw")
    assert (after.to_play, after.owed) == (1, 1)
    assert len(after.hands[1]) == 4


def stuck_on_second_card(drawn: str) -> State:
    """At 95 seat 1 owes two, plays 3 (98) and holds three 10s; ``drawn`` is next on the pile."""
    rules = make_rules("2022", players=3, draw_penalty=True)
    hands = {0: ["play2"], 1: ["3", "10", "10", "10"], 2: ["-10", "0", "0", "0"]}
    s = position(rules, hands, pile=[drawn], total=95, to_play=0)
    s = apply(s, 0, "play play2")
    return apply(s, 1, "play 3")


def test_X2_player_stuck_on_the_second_card_is_not_out_while_the_draw_is_theirs() -> None:
    s = stuck_on_second_card("0")
    assert s.total == 98
    assert s.out == ()
    assert (s.to_play, s.owed) == (1, 1)
    assert legal_actions(s) == [DRAW]


def test_X2_stuck_player_who_draws_a_playable_card_plays_it() -> None:
    s = apply(stuck_on_second_card("0"), 1, "draw")
    assert legal_actions(s) == [legal_actions(s)[0]]
    assert str(legal_actions(s)[0]) == "play 0"
    after = apply(s, 1, "play 0")
    assert (after.to_play, after.owed, after.out) == (2, 1, ())


def test_X2_stuck_player_who_draws_nothing_playable_is_then_out() -> None:
    after = apply(stuck_on_second_card("10"), 1, "draw")
    assert after.out == (1,)
    assert (after.to_play, after.owed) == (2, 1)


def ono99s_after_a_play() -> tuple[State, State]:
    rules = make_rules("2022", players=3, draw_penalty=True)
    hands = {0: ["5"], 1: ["ono99"] * 4}
    s = position(rules, hands, pile=["1", "2", "3", "4"], to_play=0)
    s = apply(s, 0, "play 5")
    return s, apply(s, 1, "discard ono99")


def test_X2_four_ono99_discard_draws_four_at_once() -> None:
    s, after = ono99s_after_a_play()
    assert legal_actions(s) == [DISCARD]
    assert hand(after, 1) == ["1", "2", "3", "4"]
    assert 1 not in after.owes_draw


def test_X2_four_ono99_discard_counts_as_playing_a_card() -> None:
    s, after = ono99s_after_a_play()
    assert s.owes_draw == (0,)
    assert after.owes_draw == ()
    kinds = [(e.kind, e.seat) for e in events_since(s, after)]
    assert kinds == [("lost_draw", 0), ("discard", 1)]
    assert len(after.hands[0]) == 3


def test_X2_an_elimination_is_not_a_card_played() -> None:
    rules = make_rules("2022", players=3, draw_penalty=True)
    hands = {0: ["5"], 1: ["10", "10", "10", "9"], 2: ["-10"]}
    s = position(rules, hands, total=90, to_play=0)
    s = apply(s, 0, "play 5")
    assert s.out == (1,)
    assert s.owes_draw == (0,)
    assert legal_actions(s, 0) == [DRAW]


def test_X2_summary_carries_owes_draw() -> None:
    s = apply(penalty_game(), 0, "play 5")
    assert summarize(s)["owes_draw"] == [0]
    assert summarize(apply(s, 0, "draw"))["owes_draw"] == []


def test_X2_summary_has_no_owes_draw_without_the_option() -> None:
    s = position(make_rules("2022", players=3), {0: ["5"]}, to_play=0)
    assert "owes_draw" not in summarize(apply(s, 0, "play 5"))


def test_X2_short_hand_lasts_only_until_the_next_deal() -> None:
    rules = make_rules("1980", players=3, draw_penalty=True)
    hands = {0: ["5"], 1: ["3", "2", "2", "2"], 2: ["10", "10", "9", "9"]}
    s = position(rules, hands, total=90, to_play=0)
    s = apply(s, 0, "play 5")
    s = apply(s, 1, "play 3")  # seat 0's draw is lost; seat 2 then has no legal card
    assert s.round == 2 and s.tokens == (3, 3, 2)
    assert [len(h) for h in s.hands] == [4, 4, 4]
    assert s.owes_draw == ()


def test_X2_M3_player_stuck_on_the_second_card_draws_before_any_bust() -> None:
    rules = make_rules("2022", players=3, match="points", draw_penalty=True)
    hands = {0: ["play2"], 1: ["3", "10", "10", "10"], 2: ["-10", "0", "0", "0"]}
    s = position(rules, hands, pile=["9"], total=95, to_play=0)
    s = apply(apply(s, 0, "play play2"), 1, "play 3")
    assert legal_actions(s) == [DRAW]  # not the busts: the draw is still theirs
    after = apply(s, 1, "draw")
    assert [str(a) for a in legal_actions(after)] == ["play 9", "play 10"]  # now busts
    assert after.out_of_round == ()


def test_X2_M2_player_stuck_on_the_second_card_does_not_lose_the_round_yet() -> None:
    rules = make_rules("1980", players=3, draw_penalty=True)
    hands = {0: ["play2"], 1: ["3", "10", "10", "10"], 2: ["-10", "2", "2", "2"]}
    s = position(rules, hands, pile=["10"], total=95, to_play=0)
    s = apply(apply(s, 0, "play play2"), 1, "play 3")
    assert (s.round, s.tokens) == (1, (3, 3, 3))
    after = apply(s, 1, "draw")
    assert (after.round, after.tokens) == (2, (3, 2, 3))
