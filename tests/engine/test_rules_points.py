"""The points match (RULES.md §7 M3): busts, going out of the round, scoring, the variants."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ono99.engine import (
    CW,
    IN,
    OUT,
    OUT_OF_ROUND,
    PLAY,
    IllegalActionError,
    Rules,
    State,
    apply,
    is_bust,
    legal_actions,
    make_rules,
    summarize,
    view,
)
from ono99.engine.cards import ONO99
from positions import events_since, hand, position, stacked_deck


def points(edition: str = "2022", players: int = 3, **options: object) -> Rules:
    return make_rules(edition, players=players, match="points", **options)


def bust_ready(players: int = 3, **options: object) -> State:
    """At 95 seat 0 holds 10, 9, 8 and an ONO 99: nothing is legal. The others hold −10s;
    the pile starts with a 1."""
    hands: dict[int, list[str]] = {0: ["10", "9", "8", "ono99"]}
    for seat in range(1, players):
        hands[seat] = ["-10", "-10", "2", "3"]
    return position(points(players=players, **options), hands, pile=["1"], total=95, to_play=0)


def round_gains(before: State, after: State) -> tuple[int, ...]:
    ends = [e for e in events_since(before, after) if e.kind == "round_end"]
    assert len(ends) == 1
    return ends[0].data[1]


# --------------------------------------------------------------------------- busts


def test_M3_player_with_no_legal_action_busts_with_any_non_ono99_card() -> None:
    s = bust_ready()
    assert [str(a) for a in legal_actions(s)] == ["play 8", "play 9", "play 10"]
    assert all(is_bust(s, a) for a in legal_actions(s))


def test_M3_a_normal_play_is_not_a_bust() -> None:
    s = position(points(), {0: ["5"]}, to_play=0)
    assert not is_bust(s, PLAY[5])


def test_M3_ono99_can_never_be_played_as_a_bust() -> None:
    s = bust_ready()
    assert PLAY[ONO99] not in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"cannot be played, even as a bust \(M3\)"):
        apply(s, 0, "play ono99")


def test_M3_bust_leaves_the_total_unchanged_by_default() -> None:
    after = apply(bust_ready(), 0, "play 9")
    assert after.total == 95


def test_M3_bust_total_keep_adds_the_card_as_usual() -> None:
    after = apply(bust_ready(bust_total="keep"), 0, "play 9")
    assert after.total == 104


def test_M3_bust_total_reset_takes_the_total_back_to_zero() -> None:
    after = apply(bust_ready(bust_total="reset"), 0, "play 9")
    assert after.total == 0


def test_M3_busting_player_draws_and_is_out_of_the_round() -> None:
    after = apply(bust_ready(), 0, "play 9")
    assert hand(after, 0) == ["1", "8", "10", "ono99"]
    assert after.status[0] == OUT_OF_ROUND
    assert after.out_of_round == (0,)
    assert after.out == ()
    assert view(after, 1).status[0] == "out_of_round"
    assert summarize(after)["out_of_round"] == [0]
    assert (after.to_play, after.owed) == (1, 1)


def test_M3_bust_is_marked_in_the_event_log() -> None:
    s = bust_ready()
    after = apply(s, 0, "play 9")
    assert [(e.kind, e.seat, e.card, e.data) for e in events_since(s, after)] == [
        ("play", 0, 9, "bust"),
        ("out_of_round", 0, None, None),
    ]


def keep_over_the_top(card: str) -> State:
    """Four players, bust_total keep: seat 0 busts a 10 at 95 (105); at 105 even ``card``
    held by seat 1 is illegal (T1), so seat 1 busts with it."""
    rules = points(players=4, bust_total="keep")
    hands = {
        0: ["10", "10", "9", "9"],
        1: [card, "8", "9", "10"],
        2: ["-10", "-10", "-10", "2"],
        3: ["-10", "-10", "-10", "3"],
    }
    s = position(rules, hands, total=95, to_play=0)
    s = apply(s, 0, "play 10")
    assert s.total == 105 and [str(a) for a in legal_actions(s)][-1] == f"play {card}"
    return apply(s, 1, f"play {card}")


def test_M3_bust_with_a_reverse_does_not_reverse() -> None:
    s = keep_over_the_top("reverse")
    assert s.direction == CW
    assert (s.to_play, s.total) == (2, 105)


def test_M3_bust_with_a_play2_puts_no_obligation() -> None:
    s = keep_over_the_top("play2")
    assert (s.to_play, s.owed) == (2, 1)


def test_M3_bust_while_owing_two_lapses_the_play2() -> None:
    rules = points()
    hands = {0: ["play2"], 1: ["10", "9", "8", "7"], 2: ["-10", "2", "3", "4"]}
    s = position(rules, hands, total=95, to_play=0)
    s = apply(s, 0, "play play2")
    after = apply(s, 1, "play 7")
    assert after.out_of_round == (1,)
    assert (after.to_play, after.owed) == (2, 1)


def test_M3_bust_on_the_second_owed_card() -> None:
    rules = points()
    hands = {0: ["play2"], 1: ["3", "10", "10", "10"], 2: ["-10", "2", "3", "4"]}
    s = position(rules, hands, pile=["9", "10"], total=95, to_play=0)
    s = apply(s, 0, "play play2")
    s = apply(s, 1, "play 3")
    assert (s.to_play, s.owed, s.total) == (1, 1, 98)
    assert all(is_bust(s, a) for a in legal_actions(s))
    after = apply(s, 1, "play 10")
    assert after.total == 98
    assert after.out_of_round == (1,)
    assert (after.to_play, after.owed) == (2, 1)


def test_M3_player_with_only_ono99s_is_out_of_the_round_without_playing() -> None:
    rules = points("1980")
    s = position(rules, {0: ["5"], 1: ["ono99"] * 4}, to_play=0)
    after = apply(s, 0, "play 5")
    assert after.out_of_round == (1,)
    assert after.hands[1] == (ONO99,) * 4
    assert after.draw_pile_size == s.draw_pile_size - 1  # only seat 0 drew
    assert [(e.kind, e.seat) for e in events_since(s, after)] == [
        ("play", 0),
        ("out_of_round", 1),
    ]


def test_M3_seat_out_of_the_round_is_skipped() -> None:
    s = apply(bust_ready(players=4), 0, "play 9")
    s = apply(s, 1, "play -10")
    s = apply(s, 2, "play -10")
    s = apply(s, 3, "play -10")
    assert s.to_play == 1


# --------------------------------------------------------------------------- round end


def two_busts(
    h2: list[str], later_decks: Sequence[Sequence[int]] = (), **options: object
) -> tuple[State, State]:
    """1980, three players, at 95: seat 0 busts a 9 and seat 1 an 8 (each then drawing a 2);
    seat 2, holding ``h2``, is the one left in. Seats 0 and 1 score 32 + 25 = 57."""
    rules = points("1980", **options)
    hands = {0: ["10", "10", "10", "9"], 1: ["10", "10", "10", "8"], 2: h2}
    s = position(rules, hands, pile=["2", "2"], total=95, to_play=0, decks=later_decks)
    s = apply(s, 0, "play 9")
    return s, apply(s, 1, "play 8")


LOW = ["2", "3", "4", "5"]  # 14
EVEN = ["ono99", "ono99", "hold", "2"]  # 57
HIGH = ["ono99", "ono99", "ono99", "hold"]  # 75


def test_M3_round_ends_when_one_player_remains() -> None:
    before, s = two_busts(LOW)
    kinds = [e.kind for e in events_since(before, s)]
    assert kinds == ["play", "out_of_round", "round_end", "deal"]
    assert s.round == 2


def test_M3_next_round_is_dealt_as_in_M2() -> None:
    before, s = two_busts(LOW)
    assert s.dealer == (before.dealer + 1) % 3
    assert s.to_play == (s.dealer + 1) % 3
    assert (s.total, s.direction, s.owed) == (0, CW, 1)
    assert s.status == (IN, IN, IN)
    assert s.out_of_round == ()
    assert [len(h) for h in s.hands] == [4, 4, 4]


def test_M3_scores_are_added_at_the_round_end() -> None:
    before, s = two_busts(LOW)
    assert round_gains(before, s) == (57, 57, 14)
    assert s.scores == (57, 57, 14)
    assert summarize(s)["scores"] == [57, 57, 14]


def test_M3_out_of_the_round_adds_25() -> None:
    # Seats 0 and 1 hold 2, 10, 10, 10 (32) and went out: 57.
    before, s = two_busts(LOW)
    assert (hand(before, 0), round_gains(before, s)[0]) == (["2", "10", "10", "10"], 57)


def test_M3_example_ono99_double_play_4_5_scores_44() -> None:
    rules = points("1980", players=2)
    hands = {0: ["ono99", "play2", "4", "5"], 1: ["10", "10", "10", "9"]}
    s = position(rules, hands, pile=["2"], total=95, to_play=1)
    after = apply(s, 1, "play 9")
    assert round_gains(s, after) == (44, 57)


def test_M3_action_cards_score_15_each() -> None:
    rules = points("1980", players=2)
    hands = {0: ["reverse", "-10", "play2", "hold"], 1: ["10", "10", "10", "9"]}
    s = position(rules, hands, pile=["2"], total=95, to_play=1)
    assert round_gains(s, apply(s, 1, "play 9"))[0] == 60


def test_M3_all_ono99_hand_scores_80() -> None:
    # 2022: seat 0 draws its fourth ONO 99 just before seat 1 busts and the round ends.
    rules = points("2022", players=2)
    hands = {0: ["5", "ono99", "ono99", "ono99"], 1: ["10", "10", "10", "9"]}
    s = position(rules, hands, pile=["ono99", "1"], total=90, to_play=0)
    s = apply(s, 0, "play 5")
    assert s.hands[0] == (ONO99,) * 4
    assert round_gains(s, apply(s, 1, "play 9")) == (80, 1 + 30 + 25)


def test_M3_all_ono99_hand_out_of_the_round_scores_105() -> None:
    rules = points("1980", players=2)
    s = position(rules, {0: ["2", "3", "4", "5"], 1: ["ono99"] * 4}, pile=["6"], to_play=0)
    after = apply(s, 0, "play 2")
    assert round_gains(s, after) == (3 + 4 + 5 + 6, 80 + 25)


def test_M3_each_card_short_of_four_scores_15() -> None:
    # Draw penalty: seat 0's draw is lost when seat 1 plays first, so it ends with 3 cards.
    rules = points("2022", players=2, draw_penalty=True)
    hands = {0: ["5", "0", "2", "3"], 1: ["0", "8", "9", "10"]}
    s = position(rules, hands, pile=["7", "1"], total=90, to_play=0)
    s = apply(s, 0, "play 5")
    s = apply(s, 1, "play 0")
    s = apply(s, 1, "draw")
    s = apply(s, 0, "play 0")
    s = apply(s, 0, "draw")
    assert hand(s, 0) == ["1", "2", "3"]
    before = s
    s = apply(s, 1, "play 7")  # a bust: seat 1 goes out, seat 0 is the last one in
    assert round_gains(before, s)[0] == 1 + 2 + 3 + 15


def test_M3_scores_add_up_over_rounds() -> None:
    # Round 2: seat 0 plays a 2 and draws a 6; seat 1 holds the four ONO 99s and is out at
    # its first turn, so the round ends (seat 0 scores 3 + 4 + 5 + 6).
    rules = points("1980", players=2)
    hands = {0: ["ono99", "play2", "4", "5"], 1: ["10", "10", "10", "9"]}
    round2 = {0: ["2", "3", "4", "5"], 1: ["ono99"] * 4}
    later = [stacked_deck(rules, round2, ["6"], dealer=1)]  # M2: the deal passes to seat 1
    s = position(rules, hands, pile=["2"], total=95, to_play=1, dealer=0, decks=later)
    s = apply(s, 1, "play 9")
    assert (s.round, s.scores, s.to_play) == (2, (44, 57), 0)
    after = apply(s, 0, "play 2")
    assert after.round == 3
    assert after.scores == (44 + 18, 57 + 105)


def test_M3_single_match_has_no_scores() -> None:
    s = position(make_rules("2022", players=3), {})
    assert s.scores is None and summarize(s)["scores"] is None


# --------------------------------------------------------------------------- last_standing


def test_M3_last_standing_below_the_target_everyone_plays_on() -> None:
    _, s = two_busts(LOW, target=100)
    assert not s.over and s.out == () and s.round == 2


def test_M3_last_standing_players_at_or_over_the_target_leave() -> None:
    _, s = two_busts(HIGH, target=75)  # (57, 57, 75): seat 2 is exactly at the target
    assert s.out == (2,)
    assert s.status == (IN, IN, OUT)
    assert not s.over
    assert [len(h) for h in s.hands] == [4, 4, 0]  # not dealt into round 2


def test_M3_last_standing_players_who_left_score_no_more() -> None:
    # Round 1 was dealt by seat 2, so seat 0 deals round 2 to seats 0 and 1 (seat 2 has left):
    # its first player, seat 1, holds the four ONO 99s and is out at once, ending round 2.
    rules = points("1980", target=75)
    later = [stacked_deck(rules, {1: ["ono99"] * 4}, dealer=0, seats=[0, 1])]
    _, s = two_busts(HIGH, later, target=75)
    ends = [e.data for e in s.events() if e.kind == "round_end"]
    assert [end[0] for end in ends] == [1, 2]
    assert ends[1][1][2] == 0
    assert s.scores[2] == 75


def test_M3_last_standing_the_last_one_left_wins() -> None:
    _, s = two_busts(LOW, target=50)  # (57, 57, 14): seats 0 and 1 leave
    assert s.over and s.winners == (2,)
    assert s.out == (0, 1)


def test_M3_last_standing_all_leaving_together_lowest_score_wins() -> None:
    _, s = two_busts(LOW, target=10)  # (57, 57, 14): everyone leaves
    assert s.over and s.winners == (2,)


def test_M3_last_standing_all_leaving_together_ties_share_the_win() -> None:
    _, s = two_busts(HIGH, target=10)  # (57, 57, 75): 0 and 1 share the lowest
    assert s.over and s.winners == (0, 1)


def test_M3_last_standing_three_way_tie_shares_the_win() -> None:
    _, s = two_busts(EVEN, target=50)  # (57, 57, 57)
    assert s.over and s.winners == (0, 1, 2)


# --------------------------------------------------------------------------- lowest_score


def test_M3_lowest_score_no_one_at_the_target_plays_on() -> None:
    _, s = two_busts(LOW, variant="lowest_score", target=100)
    assert not s.over and s.round == 2


def test_M3_lowest_score_ends_after_the_first_round_anyone_reaches_the_target() -> None:
    _, s = two_busts(HIGH, variant="lowest_score", target=60)  # (57, 57, 75)
    assert s.over
    assert summarize(s)["over"] is True and s.to_play is None


def test_M3_lowest_score_lowest_below_the_target_wins() -> None:
    _, s = two_busts(LOW, variant="lowest_score", target=50)  # (57, 57, 14)
    assert s.winners == (2,)


def test_M3_lowest_score_ties_below_the_target_share_the_win() -> None:
    _, s = two_busts(HIGH, variant="lowest_score", target=60)  # (57, 57, 75)
    assert s.winners == (0, 1)


def test_M3_lowest_score_no_one_below_the_target_lowest_overall_wins() -> None:
    _, s = two_busts(LOW, variant="lowest_score", target=10)  # (57, 57, 14)
    assert s.winners == (2,)


def test_M3_lowest_score_no_one_below_ties_share_the_win() -> None:
    _, s = two_busts(HIGH, variant="lowest_score", target=10)  # (57, 57, 75)
    assert s.winners == (0, 1)
