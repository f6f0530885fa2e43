"""Play now and the lobby's list in the session core (issue 42), without a server: the table
Play now opens, its last seat starting the game, bots filling it when its wait is over
(``Quick.fill_at``, on the wall clock every process shares), and how tables are listed."""

from __future__ import annotations

import json

import pytest

from ono99.session import (
    Identity,
    SessionError,
    Settings,
    Table,
    TableConfig,
    listing,
    parse_quick_request,
    parse_table_request,
    quick_config,
)
from ono99.session.phases import LOBBY, PLAYING

BOTS = ("random", "greedy")


class Wall:
    """A wall clock the test moves."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def quick_table(players: int = 3, wait: float = 20.0) -> tuple[Table, Wall]:
    wall = Wall(1_000_000.0)
    ask = parse_quick_request(
        {"edition": "2022", "players": players, "bot": "random", "name": "Ana", "lang": "hy"},
        bots=BOTS,
        default_bot="greedy",
    )
    config = quick_config(ask, wall.now + wait)
    settings = Settings(bot_delay=1.0, grace=30.0, bots=BOTS, wall=wall)
    table, _token, _host, _effects = Table.create("q" * 12, config, ask.name, settings)
    table.schedule(0.0)
    return table, wall


def test_play_now_opens_a_public_table_of_people_seats_with_the_edition_s_rules() -> None:
    table, _ = quick_table(4)
    config = table.config
    assert config.public and config.quick is not None and config.quick.bot == "random"
    assert [s.kind for s in config.seats] == ["human"] * 4
    assert table.rules.players == 4 and table.rules.edition == "2022"
    again = TableConfig.from_json(json.loads(json.dumps(config.to_json())))
    assert again == config, "stored and read back whole"


def test_the_last_seat_taken_starts_the_game() -> None:
    table, _ = quick_table(3)
    table.join("Ben", 1.0)
    assert table.phase == LOBBY
    _seat, _token, effects = table.join("Chloé", 2.0)
    assert table.phase == PLAYING and effects.snapshot
    assert listing(table) is None, "a game being played is not listed"


def test_when_the_wait_is_over_the_chosen_bots_fill_the_open_seats_and_it_starts() -> None:
    table, wall = quick_table(4, wait=20.0)
    wall.now += 5.0
    table.join("Ben", 5.0)  # 5 s into the wait, on both clocks
    assert table.next_deadline() == pytest.approx(20.0, abs=0.01)
    wall.now += 5.0
    assert table.expire(10.0).changes == [], "not yet"
    wall.now += 10.0
    effects = table.expire(20.0)
    assert table.phase == PLAYING
    assert [s.kind for s in table.seats] == ["human", "human", "bot", "bot"]
    assert {s.bot for s in table.seats if s.kind == "bot"} == {"random"}
    assert all(s.name for s in table.seats), "bots take names"
    assert effects.snapshot and effects.table


def test_a_table_restored_after_its_wait_ran_out_fills_at_once() -> None:
    table, wall = quick_table(2, wait=5.0)
    wall.now += 60.0  # the server was down meanwhile
    table.schedule(100.0)
    assert table.next_deadline() == 100.0
    table.expire(100.0)
    assert table.phase == PLAYING


def test_a_table_not_from_play_now_never_fills_itself() -> None:
    data = {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana", "public": True}
    config, name = parse_table_request(data, bots=BOTS)
    table, *_ = Table.create("p" * 12, config, name, Settings(bots=BOTS))
    table.schedule(0.0)
    assert table.next_deadline() is None
    assert table.expire(1e9).changes == []
    assert table.phase == LOBBY


def test_a_public_table_s_line_in_the_lobby_says_only_public_facts() -> None:
    table, _ = quick_table(3)
    line = listing(table)
    assert line is not None and line.setting == "2022/3" and line.free == 2
    assert line.entry["names"] == ["Ana"] and line.entry["lang"] == "hy"
    assert line.entry["quick"] is True and line.entry["bot"] == "random"
    assert not {"token", "token_hash", "seed", "hand"} & set(line.entry)
    host = Identity(0, True)
    table.leave(host, 1.0)
    assert listing(table) is not None and listing(table).free == 3  # type: ignore[union-attr]
    private, name = parse_table_request(
        {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana"}, bots=BOTS
    )
    hidden, *_ = Table.create("r" * 12, private, name, Settings(bots=BOTS))
    assert listing(hidden) is None, "private by default"


def test_the_host_s_rule_change_keeps_the_table_public() -> None:
    table, _ = quick_table(3)
    table.configure(Identity(0, True), {"rules": {"edition": "2022"}, "turn_seconds": 15}, 0.0)
    assert table.config.public and table.config.quick is not None
    assert table.config.turn_seconds == 15


@pytest.mark.parametrize(
    "data",
    [
        {"name": "Ana", "edition": "2023"},
        {"name": "Ana", "players": 1},
        {"name": "Ana", "players": "4"},
        {"name": "Ana", "bot": "oracle"},
        {"name": "Ana", "lang": "EN"},
        {"name": "Ana", "rules": {}},
        {"name": ""},
        [],
    ],
)
def test_a_bad_play_now_request_is_refused_naming_its_field(data: object) -> None:
    with pytest.raises(SessionError) as refused:
        parse_quick_request(data, bots=BOTS, default_bot="greedy")
    assert refused.value.code in ("bad_request", "bad_name")
