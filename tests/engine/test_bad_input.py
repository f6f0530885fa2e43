"""Bad input of every kind is refused with the right ``ValueError`` subclass, a one-line
message naming the problem, and nothing changed (STYLE.md principle 6; RULES.md §8, N1–N3).

Records name their first bad entry (``actions[3]``, ``decks[0]``, ``rules.players``), both in
``RecordError.where`` and at the start of the message."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from invariants import random_states
from ono99.engine import (
    CARD_NAMES,
    FORMAT,
    IllegalActionError,
    NotationError,
    Ono99Error,
    RecordError,
    Rules,
    RulesError,
    SetupError,
    State,
    apply,
    legal_actions,
    load_record,
    make_rules,
    new_game,
    parse_action,
    parse_card,
    record_of,
    replay,
    summarize,
    view,
)


def one_line(exc: BaseException) -> str:
    message = str(exc)
    assert message and "\n" not in message, f"not a one-line message: {message!r}"
    return message


def unchanged(state: State, call: Any, error: type[Exception]) -> str:
    """Run ``call(state)``; it must raise ``error`` and leave ``state`` as it was."""
    fields = tuple(state)
    summary = summarize(state)
    events = state.events()
    with pytest.raises(error) as info:
        call(state)
    assert all(a is b for a, b in zip(tuple(state), fields, strict=True))
    assert summarize(state) == summary
    assert state.events() == events
    return one_line(info.value)


def stacked(rules: Rules, hands: dict[int, list[str]], pile: tuple[str, ...] = ()) -> State:
    """A game dealt by seat 0 (so seat 1 plays first) with the given hands and the draw pile
    starting with ``pile``."""
    n = rules.players
    order = [(0 + i) % n for i in range(1, n + 1)]
    wanted = [parse_card(c) for s in sorted(hands) for c in hands[s]] + [
        parse_card(c) for c in pile
    ]
    rest = list(rules.deck)
    for c in wanted:
        rest.remove(c)
    dealt = {s: [parse_card(c) for c in hands.get(s, [])] for s in range(n)}
    for s in range(n):
        while len(dealt[s]) < 4:
            dealt[s].append(rest.pop())
    deck = [dealt[s][k] for k in range(4) for s in order]
    deck += [parse_card(c) for c in pile] + rest
    return new_game(rules, 1, dealer=0, decks=[[CARD_NAMES[c] for c in deck]])


# --------------------------------------------------------------------------- actions


def test_a_total_over_max_total_is_refused() -> None:
    rules = make_rules("2022", players=2, max_total=10)
    state = stacked(rules, {1: ["9", "2", "3", "4"], 0: ["5", "0", "reverse", "ono99"]})
    state = apply(state, 1, "play 9")
    message = unchanged(state, lambda s: apply(s, 0, "play 5"), IllegalActionError)
    assert message == "seat 0 tried 'play 5' at total 9, but that makes 14, above 10 (T1)"


def test_a_card_not_in_hand_is_refused() -> None:
    state = stacked(make_rules("2022", players=2), {1: ["1", "2", "3", "4"]})
    message = unchanged(state, lambda s: apply(s, 1, "play 7"), IllegalActionError)
    assert "'play 7'" in message and "no '7' in hand" in message


def test_an_ono99_is_refused() -> None:
    state = stacked(make_rules("2022", players=2), {1: ["ono99", "2", "3", "4"]})
    message = unchanged(state, lambda s: apply(s, 1, "play ono99"), IllegalActionError)
    assert "(K6)" in message


def test_a_double_play_first_of_two_is_refused_in_1980() -> None:
    rules = make_rules("1980", players=2)
    state = stacked(rules, {1: ["play2", "2", "3", "4"], 0: ["play2", "5", "6", "7"]})
    state = apply(state, 1, "play play2")
    assert state.to_play == 0 and state.owed == 2
    message = unchanged(state, lambda s: apply(s, 0, "play play2"), IllegalActionError)
    assert "(P4)" in message
    assert apply(apply(state, 0, "play 5"), 0, "play play2").owed == 2  # P4: second is fine


def test_a_draw_that_is_not_owed_is_refused() -> None:
    for draw_penalty in (False, True):
        rules = make_rules("2022", players=3, draw_penalty=draw_penalty)
        state = stacked(rules, {1: ["1", "2", "3", "4"]})
        message = unchanged(state, lambda s: apply(s, 1, "draw"), IllegalActionError)
        assert "owes no draw" in message
        if draw_penalty:
            state = apply(state, 1, "play 1")
            assert state.owes_draw == (1,)
            message = unchanged(state, lambda s: apply(s, 0, "draw"), IllegalActionError)
            assert "seat 0" in message and "owes no draw" in message


def test_a_discard_without_four_ono99s_is_refused() -> None:
    state = stacked(make_rules("2022", players=2), {1: ["ono99", "ono99", "ono99", "4"]})
    message = unchanged(state, lambda s: apply(s, 1, "discard ono99"), IllegalActionError)
    assert "(K7)" in message
    state = stacked(make_rules("1980", players=2), {1: ["ono99", "ono99", "ono99", "ono99"]})
    assert unchanged(state, lambda s: apply(s, 1, "discard ono99"), IllegalActionError)


def test_an_ono99_off_the_tens_or_twice_a_turn_is_refused() -> None:
    rules = make_rules("2022", players=2, ono99_on_tens=True)
    state = stacked(rules, {1: ["3", "1", "2", "4"], 0: ["ono99", "5", "6", "7"]})
    state = apply(state, 1, "play 3")
    message = unchanged(state, lambda s: apply(s, 0, "play ono99"), IllegalActionError)
    assert "(X3)" in message and "3" in message
    state = stacked(rules, {1: ["10", "ono99", "ono99", "4"], 0: ["play2", "5", "6", "7"]})
    state = apply(apply(state, 1, "play 10"), 0, "play play2")
    state = apply(state, 1, "play ono99")  # total 10: the first of two owed cards
    assert (state.to_play, state.owed, state.total) == (1, 1, 10)
    message = unchanged(state, lambda s: apply(s, 1, "play ono99"), IllegalActionError)
    assert "(X3)" in message


@pytest.mark.parametrize("seat", [2, 7, -1, True, "1", None, 1.0])
def test_a_seat_out_of_range_is_refused(seat: Any) -> None:
    state = stacked(make_rules("2022", players=2), {1: ["1", "2", "3", "4"]})
    message = unchanged(state, lambda s: apply(s, seat, "play 1"), IllegalActionError)
    assert repr(seat) in message or str(seat) in message


def test_a_seat_out_of_turn_is_refused() -> None:
    state = stacked(make_rules("2022", players=3), {1: ["1", "2", "3", "4"], 0: ["1", "5"]})
    message = unchanged(state, lambda s: apply(s, 0, "play 1"), IllegalActionError)
    assert message == "seat 0 tried 'play 1', but it is seat 1's turn"


def test_an_eliminated_seat_cannot_act() -> None:
    for state in random_states(make_rules("2022", players=4), 5):
        if state.out and not state.over:
            seat = state.out[0]
            assert legal_actions(state, seat) == []
            for action in ("play 0", "play -10", "draw"):
                unchanged(state, lambda s, a=action, t=seat: apply(s, t, a), IllegalActionError)
            return
    pytest.fail("no game state with an eliminated seat")


def test_actions_after_the_game_is_over_are_refused() -> None:
    *_, state = random_states(make_rules("2022", players=3), 11)
    assert state.over
    for seat in range(3):
        for action in ("play 0", "draw", "discard ono99"):
            message = unchanged(
                state, lambda s, a=action, t=seat: apply(s, t, a), IllegalActionError
            )
            assert "over" in message


@pytest.mark.parametrize("text", ["play 11", "jump", "", "play", "discard 7", "draw 2", 7, None])
def test_action_text_that_does_not_parse(text: Any) -> None:
    state = stacked(make_rules("2022", players=2), {1: ["1", "2", "3", "4"]})
    unchanged(state, lambda s: apply(s, 1, text), NotationError)
    with pytest.raises(NotationError) as info:
        parse_action(text)
    one_line(info.value)


@pytest.mark.parametrize("text", ["11", "-5", "joker", "", None, 3, "play2 "])
def test_card_names_that_do_not_parse(text: Any) -> None:
    if text == "play2 ":
        assert parse_card(text) == CARD_NAMES.index("play2")  # spacing is forgiven
        return
    with pytest.raises(NotationError) as info:
        parse_card(text)
    one_line(info.value)


def test_a_bad_viewer_seat_is_an_engine_error() -> None:
    """Ono99Error is documented as the base of every error the engine raises on bad input."""
    state = new_game(make_rules("2022", players=2), 1)
    for seat in (2, -1, True, "0"):
        with pytest.raises(Ono99Error) as info:
            view(state, seat)
        one_line(info.value)


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("players", 7), ("players", 1), ("players", "4"), ("players", 4.0), ("players", True),
        ("max_total", 5), ("max_total", 9), ("max_total", "99"), ("target", 0),
        ("target", -5), ("tokens", -1), ("tokens", 2.5), ("negative_totals", "yes"),
        ("negative_totals", 1), ("draw_penalty", "false"), ("match", "league"),
        ("match", 1), ("variant", "highest"), ("bust_total", "double"), ("colour", "red"),
    ],
)  # fmt: skip
def test_bad_options_are_refused_naming_the_option(option: str, value: Any) -> None:
    for edition in ("2022", "1980"):
        with pytest.raises(RulesError) as info:
            make_rules(edition, **{option: value})
        assert info.value.option == option
        assert option in one_line(info.value)
        with pytest.raises(RulesError):
            Rules.from_dict({"edition": edition, option: value})


@pytest.mark.parametrize("edition", ["1999", "", None, 2022.0, True, ["2022"]])
def test_bad_editions_are_refused(edition: Any) -> None:
    with pytest.raises(RulesError) as info:
        make_rules(edition)
    assert info.value.option == "edition"
    one_line(info.value)


# --------------------------------------------------------------------------- setup


def test_bad_seeds_and_dealers_are_refused() -> None:
    rules = make_rules("2022", players=4)
    for seed in ("1", 1.5, None, True):
        with pytest.raises(SetupError) as info:
            new_game(rules, seed)
        one_line(info.value)
    for dealer in (4, -1, True, "0", 1.0):
        with pytest.raises(SetupError) as info:
            new_game(rules, 1, dealer=dealer)
        one_line(info.value)


def deck_names(edition: str) -> list[str]:
    return [CARD_NAMES[c] for c in make_rules(edition).deck]


@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_decks_that_are_not_permutations_are_refused(edition: str) -> None:
    rules = make_rules(edition, players=3)
    good = deck_names(edition)
    other = deck_names("1980" if edition == "2022" else "2022")
    bad = {
        "a card too many": [*good, "10"],
        "a card missing": good[1:],
        "one card swapped for another": ["ono99" if good[0] != "ono99" else "10", *good[1:]],
        "the other edition's deck": other,
        "empty": [],
    }
    for name, deck in bad.items():
        with pytest.raises(SetupError) as info:
            new_game(rules, 1, decks=[good, deck])
        assert "decks[1]" in one_line(info.value), name
    for deck in ([*good[:-1], "joker"], [*good[:-1], 16], [*good[:-1], None], "7"):
        with pytest.raises(SetupError) as info:
            new_game(rules, 1, decks=[deck])
        assert "decks[0]" in one_line(info.value)


def test_decks_and_reshuffles_must_be_lists() -> None:
    rules = make_rules("2022", players=3)
    for value in (5, "abc"):
        with pytest.raises(SetupError):
            new_game(rules, 1, decks=value)
        with pytest.raises(SetupError):
            new_game(rules, 1, reshuffles=value)


@cache
def game_with_reshuffles() -> State:
    """A finished game with at least two reshuffles (a small deck, a long way to the top)."""
    rules = make_rules("1980", players=2, match="single", max_total=600, ono99_on_tens=True)
    for seed in range(100):
        *_, state = random_states(rules, seed)
        if state.reshuffle_count >= 2:
            return state
    raise AssertionError("no game with two reshuffles")


def reshuffle_index(state: State, k: int) -> int:
    """The index of the action during which reshuffle ``k`` happened."""
    count = 0
    moves = 0
    for e in state.events():
        if e.kind == "reshuffle":
            if count == k:
                return moves - 1
            count += 1
        if e.kind in ("play", "discard", "draw"):
            moves += 1
    raise AssertionError(f"no reshuffle {k}")


def bad_reshuffle(pile: tuple[int, ...]) -> dict[str, list[str]]:
    names = [CARD_NAMES[c] for c in pile]
    swap = "ono99" if names[0] != "ono99" else "10"
    return {
        "a card too many": [*names, names[0]],
        "a card missing": names[1:],
        "one card swapped": [swap, *names[1:]],
    }


def test_reshuffles_that_are_not_the_discard_pile_fail_when_used() -> None:
    final = game_with_reshuffles()
    record = record_of(final)
    used = final.reshuffles_used
    for k in (0, 1):
        at = reshuffle_index(final, k)
        for name, pile in bad_reshuffle(used[k]).items():
            reshuffles = [list(r) for r in record.to_json_obj()["reshuffles"]]
            reshuffles[k] = pile
            # The engine: new_game accepts it, the action that reshuffles is refused.
            state = new_game(
                final.rules, final.setup.seed, dealer=final.setup.dealer, decks=record.decks,
                reshuffles=reshuffles,
            )  # fmt: skip
            for seat, action in final.actions()[:at]:
                state = apply(state, seat, action)
            seat, action = final.actions()[at]
            message = unchanged(state, lambda s, t=seat, a=action: apply(s, t, a), SetupError)
            assert f"reshuffles[{k}]" in message, name
            # The record: it loads, and replaying names the action and the reshuffle.
            obj = record.to_json_obj()
            obj["reshuffles"] = reshuffles
            load_record(obj)
            with pytest.raises(RecordError) as info:
                replay(obj)
            assert info.value.where == f"actions[{at}]", name
            assert f"reshuffles[{k}]" in one_line(info.value), name


# --------------------------------------------------------------------------- records


def base_record() -> dict[str, Any]:
    return record_of(game_with_reshuffles()).to_json_obj()


def refuse_record(data: Any, where: str, *, loads: bool = True) -> str:
    """Replaying ``data`` (and, when ``loads``, loading it) raises RecordError at ``where``;
    a dict passed in is left as it was."""
    before = copy.deepcopy(data)
    calls = [load_record, replay] if loads else [replay]
    message = ""
    for call in calls:
        with pytest.raises(RecordError) as info:
            call(data)
        message = one_line(info.value)
        assert info.value.where == where, message
        assert message.startswith(f"{where}: "), message
        assert data == before
    if not loads:
        load_record(data)  # the problem only shows when the actions are played
    return message


@pytest.mark.parametrize(
    "text", ["{", "", "not json", '{"format": ', "[1, 2", b"\xff\xfe", "[" * 100_000]
)
def test_malformed_json(text: Any) -> None:
    refuse_record(text, "record")


@pytest.mark.parametrize("value", [[], 3, "x", None, True, [["format", FORMAT]]])
def test_a_record_must_be_an_object(value: Any) -> None:
    refuse_record(json.dumps(value), "record")
    refuse_record(value, "record")


def test_the_format_tag_is_checked() -> None:
    for tag in ("ono99-record/2", "", None, 1, "ONO99-RECORD/1"):
        data = base_record()
        data["format"] = tag
        refuse_record(data, "format")
    data = base_record()
    del data["format"]
    refuse_record(data, "format")


def test_unknown_top_level_keys_are_refused() -> None:
    for key in ("comment", "Rules", "action"):
        data = base_record()
        data[key] = 1
        refuse_record(data, key)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("players", 7), ("max_total", 5), ("target", 0), ("tokens", -1), ("colour", "red"),
        ("players", "4"), ("draw_penalty", "yes"), ("match", "league"), ("edition", "1999"),
    ],
)  # fmt: skip
def test_bad_rules_name_the_option(option: str, value: Any) -> None:
    data = base_record()
    data["rules"] = {**data["rules"], option: value}
    refuse_record(data, f"rules.{option}")


def test_rules_must_be_an_object() -> None:
    for value in (5, "2022", ["2022"], None):
        data = base_record()
        data["rules"] = value
        refuse_record(data, "rules")


def test_bad_seed_and_dealer() -> None:
    for value in ("42", 4.2, True, None, [1]):
        data = base_record()
        data["seed"] = value
        refuse_record(data, "seed")
    for value in (2, -1, "0", True, 0.5):
        data = base_record()
        data["dealer"] = value
        refuse_record(data, "dealer")


def test_bad_deck_lists() -> None:
    data = base_record()
    data["decks"] = "7"
    refuse_record(data, "decks")
    data = base_record()
    data["decks"] = [data["decks"][0], 5]
    refuse_record(data, "decks[1]")
    data = base_record()
    data["decks"][0][17] = "joker"
    refuse_record(data, "decks[0][17]")
    data = base_record()
    data["decks"][0][3] = 7  # ids are not names
    refuse_record(data, "decks[0][3]")


@pytest.mark.parametrize(
    "change",
    ["a card too many", "a card missing", "one card swapped", "the other edition's deck"],
)
def test_decks_that_are_not_permutations_name_the_deck(change: str) -> None:
    data = base_record()
    deck = data["decks"][0]
    if change == "a card too many":
        deck.append("10")
    elif change == "a card missing":
        deck.pop()
    elif change == "one card swapped":
        deck[0] = "ono99" if deck[0] != "ono99" else "10"
    else:
        data["decks"][0] = deck_names("2022")  # the record is a 1980 game
    message = refuse_record(data, "decks[0]")
    assert "permutation" in message


def test_bad_reshuffle_lists() -> None:
    data = base_record()
    data["reshuffles"] = {"0": []}
    refuse_record(data, "reshuffles")
    data = base_record()
    data["reshuffles"][1][2] = "joker"
    refuse_record(data, "reshuffles[1][2]")


def test_bad_action_lists() -> None:
    data = base_record()
    data["actions"] = "play 7"
    refuse_record(data, "actions")
    for entry in ([1], [1, "play 7", 2], {"seat": 1}, "play 7", [None, "play 7"], ["1", "draw"],
                  [True, "draw"], [1.0, "draw"], [1, "jump"], [1, 7], [1, None]):  # fmt: skip
        data = base_record()
        data["actions"][3] = entry
        refuse_record(data, "actions[3]")


def test_illegal_actions_name_the_first_bad_entry() -> None:
    final = game_with_reshuffles()
    at = replay_prefixes(final)[3]
    n = final.rules.players
    seat, action = final.actions()[3]
    cases = {
        "seat out of range": [n, str(action)],
        "negative seat": [-1, str(action)],
        "not their turn": [(seat + 1) % n, str(action)],
        "a draw not owed": [seat, "draw"],
        "a card not held": [
            seat,
            next(f"play {c}" for c in range(2, 11) if c not in at.hands[seat]),
        ],
    }
    for name, (who, text) in cases.items():
        assert who not in range(n) or parse_action(text) not in legal_actions(at, who), name
        data = base_record()
        data["actions"][3] = [who, text]
        data["actions"][5] = [n + 3, "draw"]  # later bad entries are not reported
        refuse_record(data, "actions[3]", loads=False)


def test_a_card_not_in_hand_and_a_total_too_high_name_the_entry() -> None:
    states = replay_prefixes(game_with_reshuffles())
    first = states[0]
    seat = first.to_play
    assert seat is not None
    missing = next(c for c in range(11) if c not in first.hands[seat])
    data = base_record()
    data["actions"][0] = [seat, f"play {missing}"]
    assert f"no '{missing}' in hand" in refuse_record(data, "actions[0]", loads=False)
    for seed in range(20):
        for state in random_states(make_rules("2022", players=3), seed):
            if state.over:
                break
            assert state.to_play is not None
            hand = state.hands[state.to_play]
            high = [c for c in hand if c <= 10 and state.total + c > state.rules.max_total]
            if high:
                data = record_of(state).to_json_obj()
                data["actions"].append([state.to_play, f"play {high[0]}"])
                message = refuse_record(data, f"actions[{state.moves}]", loads=False)
                assert "(T1)" in message
                return
    pytest.fail("no game had a card too high to play")


def replay_prefixes(final: State) -> list[State]:
    record = record_of(final)
    state = new_game(
        final.rules, final.setup.seed, dealer=final.setup.dealer, decks=record.decks,
        reshuffles=record.reshuffles,
    )  # fmt: skip
    out = [state]
    for seat, action in final.actions():
        state = apply(state, seat, action)
        out.append(state)
    return out


def test_actions_after_the_end_are_refused() -> None:
    final = game_with_reshuffles()
    assert final.over
    winner = final.winners[0]
    for action in ("play 0", "draw", "play 5"):
        data = base_record()
        data["actions"].append([winner, action])
        message = refuse_record(data, f"actions[{final.moves}]", loads=False)
        assert "over" in message


def test_meta_must_be_an_object() -> None:
    for value in ([], "x", 3):
        data = base_record()
        data["meta"] = value
        refuse_record(data, "meta")
