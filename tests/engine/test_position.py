"""The position text form (``ono99.engine.position``), like FEN for chess: it round-trips, play
from a parsed position goes on exactly as from the game it was written from, and a malformed
text is refused in one line that names the field.

Every state of one random game in every configuration is checked by the conformance sweep
(``invariants.check_position``, run by ``play_checked_game``); these are the targeted cases.
"""

from __future__ import annotations

import random

import pytest

from invariants import check_position, random_states
from ono99.engine import (
    PositionError,
    RecordError,
    apply,
    legal_actions,
    load_record,
    make_position,
    make_rules,
    new_game,
    parse_card,
    parse_position,
    position_text,
    record_of,
    replay_states,
    summarize,
)
from ono99.engine.position import FIELDS

START = position_text(new_game(make_rules("2022", players=3), 42))


def with_field(text: str, name: str, value: str) -> str:
    """``text`` with one field's value replaced."""
    parts = text.split("; ")
    i = FIELDS.index(name)
    assert parts[i].startswith(name + " ")
    parts[i] = f"{name} {value}"
    return "; ".join(parts)


def field(text: str, name: str) -> str:
    return text.split("; ")[FIELDS.index(name)].partition(" ")[2]


def test_a_text_is_one_line_of_every_field_in_order() -> None:
    assert "\n" not in START
    assert [part.split(" ")[0] for part in START.split("; ")] == list(FIELDS)
    assert field(START, "rules") == "2022 players=3"
    assert field(START, "out") == "-" and field(START, "tokens") == "-"
    assert position_text(parse_position(START)) == START


def test_a_position_from_its_parts() -> None:
    """make_position fills the rest of the deck in wherever it is asked (the draw pile here),
    and checks what it builds: seat 1 owes two cards at 95 and may only deflect or play 0–3."""
    rules = make_rules("2022", players=3)
    hands = [["1", "2", "10", "ono99"], ["0", "3", "reverse", "play2"], ["8", "8", "8", "8"]]
    rest = list(rules.deck)
    for card in (c for h in hands for c in h):
        rest.remove(parse_card(card))
    state = make_position(rules, hands, rest, total=95, to_play=1, owed=2)
    assert [str(a) for a in legal_actions(state)] == ["play 0", "play 3", "play reverse",
                                                      "play play2"]  # fmt: skip
    assert state.dealer == 0 and state.round == 1
    text = position_text(state)
    assert parse_position(text) == state
    assert field(text, "total") == "95" and field(text, "owed") == "2"
    after = apply(state, 1, "play reverse")  # P2: deflected back, against the new direction
    assert after.to_play == 0 and after.owed == 2


def test_play_from_a_position_goes_on_to_the_same_end() -> None:
    """From a position in the middle of a replayed record — whose later decks and reshuffles
    are spelled out, so the text carries them (``decks``, ``reshuffles``) — the same actions
    reach the very same end, across rounds and reshuffles. (A six-player 1980 tokens match:
    23 rounds, each from its own deck, and a small deck that runs out.)"""
    *_, final = random_states(make_rules("1980", players=6), 0)
    record = load_record(record_of(final).to_json())
    states = list(replay_states(record))
    deals = [i for i, s in enumerate(states) if s.round < final.round]
    shuffles = [i for i, s in enumerate(states) if s.reshuffle_count < final.reshuffle_count]
    assert deals and shuffles  # the game has later deals and reshuffles to carry
    rng = random.Random(1)
    for i in sorted(rng.sample(deals, 3) + rng.sample(shuffles, 3)):
        text = position_text(states[i])
        assert (field(text, "decks") != "-") == (i in deals)
        assert (field(text, "reshuffles") != "-") == (i in shuffles)
        state = parse_position(text)
        for seat, action in record.actions[i:]:
            state = apply(state, seat, action)
        assert position_text(state) == position_text(final)
        assert summarize(state) == summarize(final)


def test_a_seeded_game_goes_on_from_its_position_with_the_same_shuffles() -> None:
    """No orders given: the seed and the reshuffle count are the whole random state."""
    for state in list(random_states(make_rules("2022", players=2), 3))[::7]:
        check_position(state)
        assert field(position_text(state), "decks") == "-"


def test_a_position_has_no_past_and_no_record() -> None:
    *_, state = list(random_states(make_rules("2022", players=4), 2))[:40]
    parsed = parse_position(position_text(state))
    assert parsed.events() == [] and parsed.actions() == [] and parsed.moves == 0
    with pytest.raises(RecordError, match="no past to record"):
        record_of(parsed)


ACTIVE = position_text(list(random_states(make_rules("2022", players=3), 42))[5])


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("", "position: expected field 'rules' here, found nothing"),
        (
            START.replace("; total 0", ""),
            "position: expected field 'total' here, found 'direction'",
        ),
        (START.rsplit("; ", 1)[0], "position: field 'reshuffles' is missing"),
        (START + "; moves 3", "position: unexpected 'moves' after the last field"),
        (with_field(START, "rules", ""), "rules: must name the edition"),
        (with_field(START, "round", "1_0"), "round: must be a whole number, not '1_0'"),
        (with_field(START, "rules", "2023 players=3"), "rules: option 'edition': must be one of"),
        (
            with_field(START, "rules", "2022 players=9"),
            "rules: option 'players': must be at most 6",
        ),
        (with_field(START, "rules", "2022 speed=3"), "rules: 'speed=3' is not option=value"),
        (with_field(START, "total", "x"), "total: must be a whole number, not 'x'"),
        (with_field(START, "total", "-10"), "total: -10 is below 0 without negative_totals (K2)"),
        (with_field(START, "direction", "up"), "direction: must be one of cw, ccw, not 'up'"),
        (with_field(START, "to_play", "7"), "to_play: 7 is not a seat from 0 to 2"),
        (with_field(START, "owed", "3"), "owed: must be 1 or 2, not 3"),
        (with_field(START, "hands", "1,2 / 3"), "hands: must give 3 seats' cards"),
        (with_field(START, "status", "in,in,gone"), "status: must be one of in, out, out_of_round"),
        (with_field(START, "out", "1"), "out: must be the seats whose status is out, not [1]"),
        (with_field(START, "tokens", "3,3,3"), "tokens: this match format has none"),
        (with_field(START, "owes_draw", "1"), "owes_draw: only the draw penalty (X2)"),
        (with_field(START, "winners", "0"), "winners: only a game that is over has winners"),
        (with_field(START, "seed", "4.2"), "seed: must be a whole number, not '4.2'"),
        (with_field(START, "decks", "0,1"), "decks[0]: not a permutation of the deck"),
    ],
)
def test_a_malformed_text_names_what_is_wrong(text: str, wrong: str) -> None:
    with pytest.raises(PositionError) as caught:
        parse_position(text)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(wrong), message
    assert isinstance(caught.value, ValueError)


def test_impossible_cards_are_named() -> None:
    hands = field(ACTIVE, "hands").split(" / ")
    five = with_field(ACTIVE, "hands", " / ".join([hands[0] + ",7", *hands[1:]]))
    with pytest.raises(PositionError, match=r"^hands: seat 0 holds 5 cards, at most 4$"):
        parse_position(five)
    typo = with_field(ACTIVE, "pile", "sept," + field(ACTIVE, "pile"))
    with pytest.raises(PositionError, match=r"^pile\[0\]: unknown card 'sept'"):
        parse_position(typo)
    extra = with_field(ACTIVE, "discard", (field(ACTIVE, "discard") + ",ono99").lstrip("-,"))
    with pytest.raises(PositionError, match=r"^cards: hands, pile and discard together are not"):
        parse_position(extra)


def test_a_seat_that_cannot_play_is_not_a_position() -> None:
    """After every transition the engine has resolved what follows (E1, M2, M3): a text whose
    seat to play has no legal action is one the game never stops in."""
    rules = make_rules("2022", players=2)
    rest = list(rules.deck)
    for card in (10, 10, 9, 9, 8, 8, 7, 7):
        rest.remove(card)
    stuck = ["10", "10", "9", "9"]
    with pytest.raises(PositionError, match=r"^to_play: seat 0 has no legal action"):
        make_position(rules, [stuck, ["8", "8", "7", "7"]], rest, total=95, to_play=0)
