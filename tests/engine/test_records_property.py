"""Values have text forms that round-trip (STYLE.md principle 5), checked as properties over
generated rule sets, seeds and random prefixes of play: rules (§8), cards (N1), actions (N2),
records (N3) and summaries (N4)."""

from __future__ import annotations

import json
import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ono99.engine import (
    ALL_ACTIONS,
    CARD_NAMES,
    FORMAT,
    Rules,
    State,
    card_name,
    load_record,
    make_rules,
    parse_action,
    parse_card,
    record_of,
    replay,
    replay_states,
    summarize,
)
from strategies import play_prefix, rule_sets

SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- rules


@SETTINGS
@given(rule_sets())
def test_rules_round_trip_through_their_dict_and_json(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(rules.to_dict(minimal=False)) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    again = Rules.from_dict(rules.to_dict())
    assert (again.deck, again.deflectors) == (rules.deck, rules.deflectors)
    minimal = rules.to_dict()
    assert list(minimal)[:2] == ["edition", "players"]
    assert make_rules(rules.edition) == Rules.from_dict({"edition": rules.edition})


# --------------------------------------------------------------------------- cards, actions


def test_every_action_round_trips_through_its_text() -> None:
    assert len(ALL_ACTIONS) == 18
    for i, action in enumerate(ALL_ACTIONS):
        assert parse_action(str(action)) is action
        assert action.index == i


def test_every_card_round_trips_through_its_names() -> None:
    for card, name in enumerate(CARD_NAMES):
        assert card_name(card) == name
        assert parse_card(name) == card
        assert parse_card(name.upper()) == card


@SETTINGS
@given(
    st.sampled_from(ALL_ACTIONS),
    st.text(" \t", max_size=3),
    st.text(" \t", max_size=3),
    st.booleans(),
)
def test_action_text_tolerates_case_and_spacing(action, before, after, upper) -> None:
    text = str(action).upper() if upper else str(action)
    assert parse_action(f"{before}{text}{after}") is action


# --------------------------------------------------------------------------- records


@SETTINGS
@given(rule_sets(playable=True), st.integers(0, 2**40), st.integers(0, 400))
def test_records_round_trip_and_replay_to_the_same_state(rules, seed, steps) -> None:
    state = play_prefix(rules, seed, steps)
    record = record_of(state)
    text = record.to_json()
    assert "\n" not in text
    obj = json.loads(text)
    assert obj == record.to_json_obj()
    assert obj["format"] == FORMAT
    assert load_record(text) == record
    assert load_record(obj) == record
    again = replay(text)
    assert summarize(again) == summarize(state)
    assert again.events() == state.events()
    assert again.actions() == state.actions()
    assert record_of(again).to_json() == text
    states = list(replay_states(load_record(text)))
    assert len(states) == state.moves + 1
    assert summarize(states[-1]) == summarize(state)


@SETTINGS
@given(rule_sets(playable=True), st.integers(0, 2**40), st.integers(0, 200))
def test_record_meta_is_kept(rules, seed, steps) -> None:
    state = play_prefix(rules, seed, steps)
    meta = {"players": ["ana", "bo"], "bots": {"1": "random"}, "date": "2026-01-01"}
    record = record_of(state, meta=meta)
    loaded = load_record(record.to_json())
    assert loaded.meta == meta
    assert loaded.to_json() == record.to_json()
    assert summarize(replay(loaded)) == summarize(state)


@SETTINGS
@given(rule_sets(playable=True), st.integers(0, 2**40), st.integers(0, 400))
def test_summaries_round_trip_through_json(rules, seed, steps) -> None:
    state = play_prefix(rules, seed, steps)
    summary = summarize(state)
    assert json.loads(json.dumps(summary, indent=1)) == summary
    assert json.loads(json.dumps(summary)) == summary
    assert summarize(state) == summary  # summarizing changes nothing


# --------------------------------------------------------------------------- long games


def long_game() -> State:
    """A finished 6-player tokens match with well over a thousand events."""
    state = play_prefix(make_rules("2022", players=6, match="tokens", tokens=6), 3, 100_000)
    assert state.over and len(state.events()) > 1500
    return state


def test_long_games_compare_equal_to_their_replay() -> None:
    """States are values (STYLE.md 2): two replays of one record are equal states. (The
    event log and history grow with the game; comparing them must not exhaust the stack.)"""
    state = long_game()
    text = record_of(state).to_json()
    assert replay(text) == replay(text)


def test_long_games_pickle() -> None:
    """Simulators hand states between processes; a long game must survive pickling."""
    state = long_game()
    assert summarize(pickle.loads(pickle.dumps(state))) == summarize(state)
