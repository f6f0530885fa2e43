"""The tokens match (RULES.md §7 M2, the 1980 default)."""

from __future__ import annotations

import pytest

from ono99.engine import (
    CW,
    IN,
    OUT,
    State,
    apply,
    make_rules,
    summarize,
    view,
)
from positions import events_since, position, stacked_deck


def lose_round(players: int = 3, **options: object) -> tuple[State, State]:
    """At 90 (after a reverse by seat 0: direction ccw) seat 2 plays 5 (95); seat 1 holds
    only cards that reach 99 or more and loses the round. Returns before/after seat 2's play."""
    rules = make_rules("1980", players=players, **options)
    hands = {0: ["reverse"], 1: ["10", "10", "9", "ono99"], 2: ["5"], 3: ["2"]}
    if players < 4:
        del hands[3]
    s = position(rules, hands, total=90, to_play=0)
    s = apply(s, 0, "play reverse")
    assert s.to_play == players - 1
    if players > 3:
        s = apply(s, 3, "play 2")  # 92: seat 2 plays 5 to 97 instead
    return s, apply(s, 2, "play 5")


def test_M2_losing_a_round_costs_a_token() -> None:
    before, s = lose_round()
    assert s.tokens == (3, 2, 3)
    kinds = [(e.kind, e.seat, e.data) for e in events_since(before, s)][1:3]
    assert kinds == [("round_end", 1, (1, None)), ("lost_token", 1, 2)]


def test_M2_player_who_loses_a_token_stays_in_the_game() -> None:
    _, s = lose_round()
    assert s.out == ()
    assert s.status == (IN, IN, IN)
    assert len(s.hands[1]) == 4


def test_M2_round_end_is_immediate_the_next_round_is_dealt() -> None:
    _, s = lose_round()
    summary = summarize(s)
    assert (summary["round"], summary["over"]) == (2, False)
    assert [len(h) for h in summary["hands"]] == [4, 4, 4]
    assert summary["discard_pile"] == 0
    assert summary["draw_pile"] == 54 - 12


def test_M2_next_round_dealt_by_the_next_seat_clockwise() -> None:
    before, s = lose_round()
    dealer = (before.dealer + 1) % 3
    assert s.dealer == dealer
    assert s.to_play == (dealer + 1) % 3  # left of the new dealer plays first
    assert events_since(before, s)[-1] == ("deal", dealer, None, 0, 2)


def test_M2_new_round_starts_at_zero_clockwise() -> None:
    before, s = lose_round()
    assert (before.total, before.direction) == (90, -1)
    assert (s.total, s.direction, s.owed) == (0, CW, 1)


def test_M2_tokens_are_public() -> None:
    _, s = lose_round()
    assert view(s, 0).tokens == (3, 2, 3)
    assert view(s).tokens == (3, 2, 3)


def test_M2_losing_with_no_tokens_puts_the_player_out_of_the_game() -> None:
    before, s = lose_round(players=4, tokens=0)
    assert s.out == (1,)
    assert s.status[1] == OUT
    assert s.tokens == (0, 0, 0, 0)
    assert ("left", 1) in [(e.kind, e.seat) for e in events_since(before, s)]


def test_M2_player_out_of_the_game_is_not_dealt_in() -> None:
    _, s = lose_round(players=4, tokens=0)
    assert s.round == 2
    assert [len(h) for h in s.hands] == [4, 0, 4, 4]
    assert s.draw_pile_size == 54 - 12


def test_M2_last_player_in_the_game_wins() -> None:
    rules = make_rules("1980", players=2, tokens=0)
    hands = {0: ["5"], 1: ["10", "10", "9", "ono99"]}
    s = position(rules, hands, total=90, to_play=0)
    after = apply(s, 0, "play 5")
    assert after.over and after.winners == (0,)
    assert after.out == (1,)


def test_M2_E1_tokens_match_lays_no_hands_down() -> None:
    rules = make_rules("1980", players=2, tokens=0)
    s = position(rules, {0: ["5"], 1: ["10", "10", "9", "ono99"]}, total=90, to_play=0)
    s = apply(s, 0, "play 5")
    assert s.over and len(s.hands[1]) == 4
    assert view(s, 0).laid_down == ((), ())


@pytest.mark.parametrize("tokens", [0, 1, 3, 5])
def test_M2_tokens_option_sets_the_starting_tokens(tokens: int) -> None:
    s = position(make_rules("1980", players=3, tokens=tokens), {})
    assert s.tokens == (tokens,) * 3
    assert summarize(s)["tokens"] == [tokens] * 3


def test_M2_single_match_has_no_tokens() -> None:
    s = position(make_rules("2022", players=3), {})
    assert s.tokens is None and summarize(s)["tokens"] is None


def test_M2_deal_skips_a_seat_out_of_the_game() -> None:
    # Four players, no tokens, dealer 1: seat 2 plays first, draws its fourth ONO 99, and is
    # out at its next turn. The deal would pass to seat 2: it goes to seat 3.
    rules = make_rules("1980", players=4, tokens=0)
    hands = {2: ["10", "ono99", "ono99", "ono99"]}
    s = position(rules, hands, pile=["ono99"], dealer=1)
    s = apply(s, 2, "play 10")
    for seat in (3, 0, 1):
        s = apply(s, seat, f"play {s.hands[seat][0]}")
    assert s.out == (2,)
    assert (s.round, s.dealer, s.to_play) == (2, 3, 0)


# --------------------------------------------------------------------------- four losses


def four_losses() -> list[State]:
    """Three players, three tokens each; seat 1 is dealt the four ONO 99s in every round, so it
    loses each round at its first turn. States after every action."""
    rules = make_rules("1980", players=3)
    stuck = {1: ["ono99"] * 4}
    later = [stacked_deck(rules, stuck, dealer=d) for d in (2, 0, 1)]  # rounds 2, 3, 4
    s = position(rules, stuck, dealer=1, decks=later)
    states = [s]
    # Round 1 (dealer 1): seats 2 and 0 play, seat 1 is stuck. Round 2 (dealer 2): seat 0
    # plays, seat 1 is stuck; round 3 (dealer 0) starts with seat 1: stuck at once.
    # Round 4 (dealer 1): seats 2 and 0 play, seat 1 is stuck with no token left.
    for seat in (2, 0, 0, 2, 0):
        s = apply(s, seat, f"play {s.hands[seat][0]}")
        states.append(s)
    return states


def test_M2_each_lost_round_costs_one_token() -> None:
    states = four_losses()
    assert [st.tokens[1] for st in states] == [3, 3, 2, 0, 0, 0]
    assert [st.round for st in states] == [1, 1, 2, 4, 4, 5]


def test_M2_fourth_lost_round_puts_the_player_out_with_three_tokens() -> None:
    s = four_losses()[-1]
    assert s.out == (1,)
    assert s.status[1] == OUT
    assert s.tokens == (3, 0, 3)
    lost = [e for e in s.events() if e.kind == "round_end"]
    assert [e.seat for e in lost] == [1, 1, 1, 1]


def test_M2_after_four_losses_the_others_play_on_without_the_player() -> None:
    s = four_losses()[-1]
    assert not s.over
    assert (s.round, s.dealer, s.to_play) == (5, 2, 0)
    assert [len(h) for h in s.hands] == [4, 0, 4]
