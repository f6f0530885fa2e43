"""Options and their defaults (RULES.md §8), and the refusal of option sets that make no sense."""

from __future__ import annotations

from typing import Any

import pytest

from ono99.engine import OPTIONS, Rules, RulesError, defaults, make_rules

TABLE_2022 = {
    "players": 4,
    "max_total": 98,
    "negative_totals": False,
    "four_ono99_discard": True,
    "play2_deflects_play2": True,
    "ono99_on_tens": False,
    "draw_penalty": False,
    "match": "single",
    "tokens": 3,
    "target": 200,
    "variant": "last_standing",
    "bust_total": "unchanged",
}
TABLE_1980 = TABLE_2022 | {
    "negative_totals": True,
    "four_ono99_discard": False,
    "play2_deflects_play2": False,
    "match": "tokens",
}


@pytest.mark.parametrize(("edition", "table"), [("2022", TABLE_2022), ("1980", TABLE_1980)])
def test_options_defaults_per_edition_match_the_table(edition: str, table: dict) -> None:
    assert defaults(edition) == table


@pytest.mark.parametrize(("edition", "table"), [("2022", TABLE_2022), ("1980", TABLE_1980)])
def test_options_make_rules_without_options_gives_the_defaults(edition: str, table: dict) -> None:
    rules = make_rules(edition)
    assert rules.edition == edition
    assert {name: getattr(rules, name) for name in table} == table


def test_options_make_rules_defaults_to_the_2022_edition() -> None:
    assert make_rules() == make_rules("2022")


def test_options_every_option_in_the_table_is_listed() -> None:
    assert {spec.name for spec in OPTIONS} == set(TABLE_2022)


def test_options_given_values_override_the_edition_defaults() -> None:
    rules = make_rules("1980", players=6, match="points", target=150, variant="lowest_score")
    assert (rules.players, rules.match, rules.target, rules.variant) == (
        6,
        "points",
        150,
        "lowest_score",
    )
    assert rules.negative_totals is True  # untouched options keep the 1980 default


def test_options_house_rule_max_total_99_is_accepted() -> None:
    assert make_rules("2022", max_total=99).max_total == 99


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_options_players_two_to_six_are_accepted(players: int) -> None:
    assert make_rules("1980", players=players).players == players


def test_options_rules_round_trip_through_to_dict() -> None:
    rules = make_rules("1980", players=3, draw_penalty=True, tokens=5)
    assert rules.to_dict() == {"edition": "1980", "players": 3, "draw_penalty": True, "tokens": 5}
    assert Rules.from_dict(rules.to_dict()) == rules


REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"colour": "red"}, "colour"),
    ({"players": 7}, "players"),
    ({"players": 1}, "players"),
    ({"max_total": 9}, "max_total"),
    ({"target": 0}, "target"),
    ({"target": -50}, "target"),
    ({"tokens": -1}, "tokens"),
    ({"players": "4"}, "players"),
    ({"players": 4.0}, "players"),
    ({"players": True}, "players"),
    ({"draw_penalty": 1}, "draw_penalty"),
    ({"negative_totals": "yes"}, "negative_totals"),
    ({"match": "league"}, "match"),
    ({"variant": "highest"}, "variant"),
    ({"bust_total": "double"}, "bust_total"),
    ({"max_total": "98"}, "max_total"),
]


@pytest.mark.parametrize(("options", "name"), REFUSED, ids=[str(o) for o, _ in REFUSED])
def test_options_nonsense_is_refused_naming_the_option(options: dict[str, Any], name: str) -> None:
    with pytest.raises(RulesError) as info:
        make_rules("2022", **options)
    assert info.value.option == name
    assert repr(name) in str(info.value)


@pytest.mark.parametrize("edition", ["1999", "", 2022.0, None])
def test_options_unknown_edition_is_refused(edition: Any) -> None:
    with pytest.raises(RulesError) as info:
        make_rules(edition)
    assert info.value.option == "edition"


def test_options_unknown_option_error_lists_the_known_ones() -> None:
    with pytest.raises(RulesError, match="max_total"):
        make_rules("2022", colour="red")


def test_options_refusal_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="players"):
        make_rules("2022", players=7)
