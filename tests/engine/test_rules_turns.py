"""Setup and the turn: the deal (S1), drawing (T2), reshuffling (T3), the next player (T4)."""

from __future__ import annotations

import pytest

from ono99.engine import (
    CCW,
    CW,
    SetupError,
    State,
    apply,
    legal_actions,
    make_rules,
    new_game,
    next_seat,
    parse_card,
    view,
)
from ono99.engine.cards import ONO99
from positions import deal_order, drive, events_since, hand, position, run, stacked_deck

# --------------------------------------------------------------------------- S1


def numbered_deck() -> list[int]:
    """A 2022 deck whose first 17 cards are all different kinds, so positions show."""
    top = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "-10", "reverse"]
    top += ["play2", "ono99", "0", "1", "2"]
    deck = [parse_card(c) for c in top]
    rest = list(make_rules("2022").deck)
    for c in deck:
        rest.remove(c)
    return deck + rest


def test_S1_deal_is_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = numbered_deck()
    s = new_game(make_rules("2022", players=4), 7, dealer=2, decks=[deck])
    # Dealing order: seats 3, 0, 1, 2; seat 3 gets deck[0], deck[4], deck[8], deck[12].
    for i, seat in enumerate([3, 0, 1, 2]):
        assert s.hands[seat] == tuple(sorted(deck[i::4][:4])), seat


def test_S1_player_left_of_the_dealer_plays_first() -> None:
    s = new_game(make_rules("2022", players=4), 7, dealer=2, decks=[numbered_deck()])
    assert (s.dealer, s.to_play) == (2, 3)


def test_S1_dealer_on_the_last_seat_means_seat_zero_plays_first() -> None:
    s = new_game(make_rules("1980", players=3), 7, dealer=2)
    assert s.to_play == 0


def test_S1_game_starts_at_zero_clockwise_owing_one() -> None:
    s = new_game(make_rules("2022", players=4), 7, dealer=2, decks=[numbered_deck()])
    assert (s.total, s.direction, s.owed, s.round, s.discard) == (0, CW, 1, 1, ())


def test_S1_rest_of_the_deck_is_the_draw_pile_top_first() -> None:
    deck = numbered_deck()
    s = new_game(make_rules("2022", players=4), 7, dealer=2, decks=[deck])
    assert s.draw_pile_size == 112 - 16
    assert s.pile[s.pile_pos :] == tuple(deck[16:])
    first = s.hands[3][0]
    after = apply(s, 3, f"play {first}")
    assert deck[16] in after.hands[3]


def test_S1_dealer_chosen_from_the_seed_when_not_given() -> None:
    rules = make_rules("2022", players=5)
    dealers = {new_game(rules, seed).dealer for seed in range(40)}
    assert dealers == set(range(5))
    assert new_game(rules, 11).dealer == new_game(rules, 11).dealer


def test_S1_a_stacked_deck_deals_what_it_is_asked() -> None:
    """``stacked_deck`` (tests/positions.py) is how a test fixes a later round's hands."""
    rules = make_rules("1980", players=3)
    hands = {0: ["2", "3", "4", "5"], 1: ["ono99", "hold", "10", "-10"], 2: ["7", "7", "8", "9"]}
    deck = stacked_deck(rules, hands, ["reverse"], dealer=1)
    s = new_game(rules, 0, dealer=1, decks=[deck])
    assert deal_order(1, range(3), 3) == [2, 0, 1]
    assert [hand(s, seat) for seat in range(3)] == [
        ["2", "3", "4", "5"],
        ["10", "-10", "hold", "ono99"],
        ["7", "7", "8", "9"],
    ]
    assert s.pile[s.pile_pos] == parse_card("reverse")


def test_the_positions_helper_builds_what_it_is_asked() -> None:
    """``position`` (tests/positions.py): the hands, total, seat to play and top of the pile
    asked for, the seat before it dealing, and no past: every event is the scenario's."""
    rules = make_rules("2022", players=4)
    hands = {1: ["7", "reverse", "play2", "ono99"], 3: ["-10", "-10", "0", "0"]}
    s = position(rules, hands, pile=["9", "ono99"], total=93, to_play=3)
    assert (s.total, s.to_play, s.dealer, s.owed, s.direction) == (93, 3, 2, 1, CW)
    assert hand(s, 1) == ["7", "reverse", "play2", "ono99"]
    assert hand(s, 3) == ["0", "0", "-10", "-10"]
    assert s.pile[s.pile_pos : s.pile_pos + 2] == (9, ONO99)
    assert s.events() == [] and s.discard == ()


# --------------------------------------------------------------------------- T2


def test_T2_player_draws_the_top_card_after_playing() -> None:
    s = position(make_rules("2022", players=3), {0: ["5", "6", "7", "8"]}, pile=["ono99"])
    after = apply(s, 0, "play 6")
    assert hand(after, 0) == ["5", "7", "8", "ono99"]
    assert after.draw_pile_size == s.draw_pile_size - 1


def test_T2_hands_stay_at_four_cards() -> None:
    s = position(make_rules("1980", players=3), {}, to_play=0)
    for _ in range(12):
        s = apply(s, s.to_play, legal_actions(s)[0])
        assert [len(h) for h in s.hands] == [4, 4, 4]


def test_T2_player_draws_after_each_of_two_owed_cards() -> None:
    rules = make_rules("2022", players=3)
    s = position(rules, {0: ["play2"], 1: ["1", "2", "3", "4"]}, pile=["9", "5", "6"])
    s = apply(s, 0, "play play2")
    s = apply(s, 1, "play 1")
    assert hand(s, 1) == ["2", "3", "4", "5"]
    s = apply(s, 1, "play 2")
    assert hand(s, 1) == ["3", "4", "5", "6"]


def test_T2_draws_are_not_events_without_the_draw_penalty() -> None:
    s = position(make_rules("2022", players=3), {0: ["5"]})
    after = apply(s, 0, "play 5")
    assert [e.kind for e in events_since(s, after)] == ["play"]


# --------------------------------------------------------------------------- T3


def until_pile_empty() -> State:
    """A two-player game driven (first legal action each turn) until the draw pile is
    empty, with the next action a play; a high max_total keeps both in for a whole pass."""
    rules = make_rules("2022", players=2, max_total=999)
    s = drive(new_game(rules, 5), lambda st: st.draw_pile_size == 0)
    assert s.reshuffle_count == 0 and legal_actions(s)[0].kind == "play"
    return s


def test_T3_reshuffle_when_a_draw_finds_the_pile_empty() -> None:
    s = until_pile_empty()
    seat = s.to_play
    after = apply(s, seat, legal_actions(s)[0])
    assert after.reshuffle_count == 1
    kinds = [e.kind for e in events_since(s, after)]
    assert kinds == ["play", "reshuffle"]


def test_T3_reshuffle_keeps_the_running_total() -> None:
    s = until_pile_empty()
    action = legal_actions(s)[0]
    after = apply(s, s.to_play, action)
    assert after.total == s.total + action.card


def test_T3_whole_discard_pile_becomes_the_draw_pile() -> None:
    s = until_pile_empty()
    after = apply(s, s.to_play, legal_actions(s)[0])
    reshuffled = len(s.discard) + 1  # the card just played is on the discard pile too
    assert events_since(s, after)[-1].data == reshuffled
    assert after.discard == ()
    assert after.draw_pile_size == reshuffled - 1  # one card drawn already
    assert sorted(after.pile) == sorted((*s.discard, legal_actions(s)[0].card))


def test_T3_explicit_reshuffle_order_is_honoured() -> None:
    probe = until_pile_empty()
    action = legal_actions(probe)[0]
    discard = sorted((*probe.discard, action.card), reverse=True)  # our chosen order
    s = new_game(probe.rules, 5, reshuffles=[discard])
    s = run(s, *((seat, str(a)) for seat, a in probe.actions()))
    assert s.hands == probe.hands
    after = apply(s, s.to_play, action)
    assert after.pile == tuple(discard)
    assert discard[0] in after.hands[probe.to_play]
    assert after.pile[after.pile_pos :] == tuple(discard[1:])


def laid_down_game() -> State:
    """1980 single game, three players: seat 1 is out at once with the four ONO 99s."""
    rules = make_rules("1980", players=3, match="single", max_total=999)
    s = position(rules, {0: ["2"], 1: ["ono99"] * 4}, to_play=0)
    s = apply(s, 0, "play 2")
    assert s.out == (1,)
    return s


def test_T3_laid_down_cards_are_not_reshuffled() -> None:
    s = drive(laid_down_game(), lambda st: st.draw_pile_size == 0)
    after = apply(s, s.to_play, legal_actions(s)[0])
    assert after.reshuffle_count == 1
    assert ONO99 not in after.pile
    assert view(after, 0).laid_down[1] == (ONO99,) * 4


def test_T3_laid_down_cards_never_come_back() -> None:
    s = laid_down_game()
    # Two full reshuffles later, the four ONO 99s are still only in seat 1's laid-down hand.
    while s.reshuffle_count < 2:
        s = apply(s, s.to_play, legal_actions(s)[0])
        live = s.hands[0] + s.hands[2] + s.pile[s.pile_pos :] + s.discard
        assert ONO99 not in live
        assert len(live) == 54 - 4
    assert s.hands[1] == (ONO99,) * 4


def test_T3_reshuffle_order_holding_laid_down_cards_is_refused() -> None:
    probe = drive(laid_down_game(), lambda st: st.draw_pile_size == 0)
    action = legal_actions(probe)[0]
    bad = [*probe.discard[1:], ONO99]  # one discard swapped for a laid-down ONO 99
    s = position(probe.rules, {0: ["2"], 1: ["ono99"] * 4}, to_play=0, reshuffles=[bad])
    s = run(s, *((seat, str(a)) for seat, a in probe.actions()))
    with pytest.raises(SetupError, match="reshuffles"):
        apply(s, s.to_play, action)


# --------------------------------------------------------------------------- T4


def test_T4_next_player_is_the_next_seat_clockwise() -> None:
    s = position(make_rules("2022", players=4), {2: ["5"], 3: ["6"]}, to_play=2)
    s = apply(s, 2, "play 5")
    assert s.to_play == 3
    assert apply(s, 3, "play 6").to_play == 0


def test_T4_next_player_follows_the_direction() -> None:
    s = position(make_rules("2022", players=4), {0: ["5"], 1: ["reverse"]}, to_play=1)
    after = apply(s, 1, "play reverse")
    assert (after.direction, after.to_play) == (CCW, 0)
    assert apply(after, 0, "play 5").to_play == 3


def out_seat_2_game() -> State:
    """Four players; seat 2 holds four ONO 99s (K7 off) and is out at its first turn."""
    rules = make_rules("2022", players=4, four_ono99_discard=False)
    hands = {0: ["reverse", "1"], 1: ["2", "3"], 2: ["ono99"] * 4, 3: ["4", "5"]}
    s = position(rules, hands, to_play=1)
    s = apply(s, 1, "play 2")
    assert s.out == (2,)
    return s


def test_T4_next_player_skips_an_eliminated_seat_clockwise() -> None:
    s = out_seat_2_game()
    assert s.to_play == 3
    s = apply(s, 3, "play 4")
    s = apply(s, 0, "play 1")
    assert apply(s, 1, "play 3").to_play == 3


def test_T4_next_player_skips_an_eliminated_seat_counter_clockwise() -> None:
    s = out_seat_2_game()
    s = apply(s, 3, "play 4")
    s = apply(s, 0, "play reverse")
    assert (s.direction, s.to_play) == (CCW, 3)
    s = apply(s, 3, "play 5")
    assert s.to_play == 1  # 3 → (2 is out) → 1


def test_T4_next_seat_is_who_plays_after_a_seat_asked_of_state_or_view() -> None:
    s = out_seat_2_game()  # seat 2 is out, clockwise, seat 3 to play
    for game in (s, view(s, 0), view(s)):
        assert [next_seat(game, seat) for seat in range(4)] == [1, 3, 3, 0]
    assert next_seat(s, 3) == apply(s, 3, "play 4").to_play
    reversed_ = apply(apply(s, 3, "play 4"), 0, "play reverse")
    for game in (reversed_, view(reversed_, 1)):
        assert [next_seat(game, seat) for seat in range(4)] == [3, 0, 1, 1]


def test_T4_next_seat_is_none_when_no_other_seat_is_in() -> None:
    rules = make_rules("2022", players=2, four_ono99_discard=False)
    s = apply(position(rules, {0: ["5"], 1: ["ono99"] * 4}, to_play=0), 0, "play 5")
    assert s.over and s.winners == (0,)  # seat 1 was stuck (E1): seat 0 is the only one in
    assert next_seat(s, 0) is None
    assert next_seat(s, 1) == 0
