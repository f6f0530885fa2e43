"""Play now, and the lobby's list: what a quick-match request asks for, the table it opens,
and how a public table waiting for players is listed.

A quick match is for a *setting* (an edition and a number of players, each edition's default
rules otherwise): it seats a person at the oldest public table Play now opened for that setting
that still has a seat, or opens one (``quick_config``) whose seats are all for people. The
table starts as soon as its last seat is taken; if nobody else has come by its ``fill_at``
(``Quick``), bots of the level its opener chose take the seats still open and it starts then
(``Table.expire``). Finding the table and taking its seat, or opening one, is one step for the
whole server (``server/quick.py`` holds the setting's lock in storage), so that two people
never get one seat and one setting never has two half-full tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import make_rules
from .errors import SessionError
from .phases import LOBBY
from .setup import (
    DEFAULT_TURN_SECONDS,
    HUMAN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Quick,
    SeatSetup,
    TableConfig,
    check_bot,
    check_edition,
    check_lang,
    check_name,
)

if TYPE_CHECKING:
    from .table import Table


class QuickRequest(NamedTuple):
    edition: str
    players: int
    bot: str  # the bots that fill the seats nobody takes
    name: str
    lang: str | None

    @property
    def setting(self) -> str:
        return setting_key(self.edition, self.players)


def setting_key(edition: str, players: int) -> str:
    """The setting a quick match is for: ``"2022/4"``."""
    return f"{edition}/{players}"


def parse_quick_request(data: Any, *, bots: Sequence[str], default_bot: str) -> QuickRequest:
    """``{"edition": "2022", "players": 4, "bot": "greedy", "name": "Ana", "lang": "el"}``;
    the edition, players and bot may be left out (2022, 4, the server's default)."""
    if not isinstance(data, dict):
        raise SessionError("bad_request", "the request must be a JSON object")
    for key in data:
        if key not in ("edition", "players", "bot", "name", "lang"):
            raise SessionError("bad_request", f"unknown field {key!r}", field=str(key)[:40])
    edition = check_edition(data.get("edition", "2022"))
    players = data.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int):
        raise SessionError("bad_request", "players must be a number", field="players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SessionError(
            "bad_request",
            f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}",
            field="players",
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    bot = check_bot(data.get("bot", default_bot), bots, "bot")
    name = check_name(data.get("name"))
    return QuickRequest(edition, players, bot, name, check_lang(data.get("lang")))


def quick_config(ask: QuickRequest, fill_at: float) -> TableConfig:
    """The table Play now opens: the edition's default rules, every seat for a person."""
    return TableConfig(
        rules=make_rules(ask.edition, players=ask.players),
        seats=tuple(SeatSetup(HUMAN) for _ in range(ask.players)),
        turn_seconds=DEFAULT_TURN_SECONDS,
        hints=True,
        public=True,
        lang=ask.lang,
        quick=Quick(ask.bot, fill_at),
    )


class Listing(NamedTuple):
    """How a public table waiting for players is listed in the lobby."""

    setting: str  # Play now's setting, for the tables it opened; "" for the others
    free: int  # seats open
    entry: dict[str, Any]  # what a watcher is shown (public facts only)


def listing(table: Table) -> Listing | None:
    """The table's line in the lobby, or None: it is not public, its game has begun, or
    every seat is taken."""
    config = table.config
    if not config.public or table.phase != LOBBY:
        return None
    free = table.seating.open_seats()
    if not free:
        return None
    rules = table.rules
    quick = config.quick
    entry = {
        "code": table.code,
        "edition": rules.edition,
        "players": rules.players,
        "match": rules.match,
        "free": len(free),
        "names": [s.name for s in table.seats if s.kind == HUMAN and not s.open and s.name],
        "bots": sum(1 for s in table.seats if s.kind != HUMAN),
        "lang": config.lang,
        "quick": quick is not None,
        "bot": quick.bot if quick else None,
        "fill_at": quick.fill_at if quick else None,
    }
    setting = setting_key(rules.edition, rules.players) if quick else ""
    return Listing(setting, len(free), entry)
