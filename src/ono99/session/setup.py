"""A table's setup: the rules, who sits where (a person or a bot), and the turn timer.

``parse_table_request`` checks what a browser sends to create a table; every problem is a
``SessionError`` naming the field, and a bad rule option keeps the engine's own message.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine import EDITIONS, OPTIONS, Rules, RulesError, defaults, make_rules
from .confusables import skeleton
from .errors import SessionError

HUMAN, BOT = "human", "bot"
MAX_NAME = 24
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEFAULT_TURN_SECONDS = 30.0
TURN_CHOICES = (0, 15, 30, 60, 120)  # what the browser offers; 0 is no timer


@dataclass(frozen=True)
class SeatSetup:
    kind: str  # HUMAN or BOT
    bot: str | None = None  # the registry name of a bot seat

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "bot": self.bot} if self.bot else {"kind": self.kind}


@dataclass(frozen=True)
class Quick:
    """A table that Play now opened (``session/quick.py``): when nobody else has come by
    ``fill_at`` (wall-clock seconds, ``time.time()``: every server process agrees on it),
    ``bot`` bots take the seats still open and the game starts."""

    bot: str
    fill_at: float

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "fill_at": self.fill_at}


@dataclass(frozen=True)
class TableConfig:
    rules: Rules
    seats: tuple[SeatSetup, ...]
    turn_seconds: float  # 0: no turn timer
    hints: bool = True  # a seated person may ask for the expert's hint (the host decides)
    public: bool = False  # listed in the lobby while it waits for players (the host decides)
    lang: str | None = None  # the host's language, for the lobby's list
    quick: Quick | None = None  # opened by Play now
    # Its games count toward the players' ratings: a public table's always, a private one's
    # when the host asks (``rated``), since friends trying things out need not be rated.
    rated: bool = False
    # Who the host removed from this public table, who may not sit down at it again: each a
    # name as ``name_key`` folds it ("n:…") or a profile ("p:…"). Stored, never sent.
    barred: tuple[str, ...] = ()

    @property
    def rating(self) -> bool:
        return self.public or self.rated

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "seats": [s.to_json() for s in self.seats],
            "turn_seconds": self.turn_seconds,
            "hints": self.hints,
        }
        if self.public:
            data["public"] = True
        if self.lang:
            data["lang"] = self.lang
        if self.quick:
            data["quick"] = self.quick.to_json()
        if self.rated:
            data["rated"] = True
        if self.barred:
            data["barred"] = list(self.barred)
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableConfig:
        """Read back what ``to_json`` stored (trusted: it comes from our own database)."""
        quick = data.get("quick")
        return TableConfig(
            rules=Rules.from_dict(data["rules"]),
            seats=tuple(SeatSetup(s["kind"], s.get("bot")) for s in data["seats"]),
            turn_seconds=float(data["turn_seconds"]),
            hints=bool(data.get("hints", True)),  # tables stored before hints had them
            public=bool(data.get("public", False)),
            lang=data.get("lang"),
            quick=Quick(str(quick["bot"]), float(quick["fill_at"])) if quick else None,
            rated=bool(data.get("rated", False)),
            barred=tuple(str(x) for x in data.get("barred", ())),
        )


def check_edition(value: Any) -> str:
    """One of the editions (RULES.md), as a request names it."""
    if value not in EDITIONS:
        raise SessionError(
            "bad_request", f"edition is one of {', '.join(EDITIONS)}", field="edition"
        )
    return str(value)


def check_name(value: Any) -> str:
    """A display name: 1 to 24 printable characters, spaces collapsed, in Unicode's composed
    form (NFC), so that "Chloé" is one name however the keyboard typed the é."""
    if not isinstance(value, str):
        raise SessionError("bad_name", "a name must be text", field="name")
    name = unicodedata.normalize("NFC", " ".join(value.split()))
    if not name or len(name) > MAX_NAME:
        raise SessionError(
            "bad_name", f"a name must be 1 to {MAX_NAME} characters", field="name", max=MAX_NAME
        )
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise SessionError("bad_name", "a name may not hold control characters", field="name")
    return name


def same_name(a: str, b: str) -> bool:
    """Whether two names would read as one at the table: case, spacing and the way accents
    were typed aside ("Ana", " ana ", "ANA" are one name; "Chloé" with a composed or a
    combining é too), and letters that look alike ("Chlоé" with a Cyrillic о, full-width
    "Ｌｅｏ" and "Leo"). An accent is a letter's own: "Léo" and "Leo" are two names."""
    return name_key(a) == name_key(b)


def name_key(name: str) -> str:
    """What ``same_name`` compares: the name folded so that look-alikes are one."""
    # Compatibility forms are one name (NFKC: full-width "Ｌｅｏ" is "Leo"), then the skeleton
    # of UTS #39 (a Cyrillic о reads as a Latin o, a capital I as an l), case folded, and the
    # skeleton again (a folded capital may have one of its own).
    plain = unicodedata.normalize("NFKC", " ".join(name.split()))
    return skeleton(unicodedata.normalize("NFKC", skeleton(plain).casefold()))


def check_turn_seconds(value: Any, limits: tuple[float, float]) -> float:
    low, high = limits
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SessionError("bad_request", "turn_seconds must be a number", field="turn_seconds")
    if value != 0 and not low <= value <= high:
        raise SessionError(
            "bad_request",
            f"turn_seconds must be 0 (no timer) or from {low:g} to {high:g}",
            field="turn_seconds",
            low=low,
            high=high,
        )
    return float(value)


def rule_options() -> dict[str, Any]:
    """What a table's rules may be, for the browser's form: each edition's defaults, and every
    option but the player count (the seats give it) with its type and allowed values."""
    specs = []
    for spec in OPTIONS:
        if spec.name == "players":
            continue  # the number of seats
        kind = "bool" if spec.type is bool else "int" if spec.type is int else "choice"
        entry: dict[str, Any] = {"name": spec.name, "type": kind}
        if spec.choices:
            entry["choices"] = list(spec.choices)
        if spec.low is not None:
            entry["low"], entry["high"] = spec.low, spec.high
        specs.append(entry)
    return {"editions": {e: defaults(e) for e in EDITIONS}, "options": specs}


_TABLE_FIELDS = ("rules", "seats", "name", "turn_seconds", "hints", "public", "lang", "rated")


def parse_table_request(
    data: Any, *, bots: Sequence[str], turn_limits: tuple[float, float] = (5, 600)
) -> tuple[TableConfig, str | None]:
    """The config and the creator's name from a create-table request:
    ``{"rules": {"edition": "2022", ...}, "seats": [{"kind": "human"}, {"kind": "bot",
    "bot": "greedy"}], "name": "Ana", "turn_seconds": 30, "hints": true}``."""
    if not isinstance(data, dict):
        raise SessionError("bad_request", "the request must be a JSON object")
    for key in data:
        if key not in _TABLE_FIELDS:
            raise SessionError("bad_request", f"unknown field {key!r}", field=str(key)[:40])
    seats = _seats(data.get("seats"), bots)
    rules, turn, hints = _rules_timer_hints(data, seats, turn_limits)
    name = None
    if any(s.kind == HUMAN for s in seats):
        name = check_name(data.get("name"))
    elif data.get("name") is not None:
        check_name(data.get("name"))
    public, rated = data.get("public", False), data.get("rated", False)
    for field, value in (("public", public), ("rated", rated)):
        if not isinstance(value, bool):
            raise SessionError("bad_request", f"{field} must be true or false", field=field)
    lang = check_lang(data.get("lang"))
    return TableConfig(rules, seats, turn, hints, public, lang, rated=rated), name


_LANG = re.compile(r"[a-z]{2,3}")


def check_lang(value: Any) -> str | None:
    """A language code for the lobby's list ("el", "hy"), or None when not given."""
    if value is None:
        return None
    if not isinstance(value, str) or not _LANG.fullmatch(value):
        raise SessionError("bad_request", "lang is a language code such as 'en'", field="lang")
    return value


def parse_rules_change(
    data: Any, config: TableConfig, *, turn_limits: tuple[float, float] = (5, 600)
) -> TableConfig:
    """A host's new rules for the next game (the ``configure`` message's ``config``):
    ``{"rules": {...}, "turn_seconds": 30, "hints": true}``, checked as a create request's
    (the seats stay: the host changes those one by one). Whatever is left out takes its
    default, as at creation."""
    if not isinstance(data, dict):
        raise SessionError("bad_request", "config must be a JSON object", field="config")
    for key in data:
        if key not in ("rules", "turn_seconds", "hints"):
            raise SessionError("bad_request", f"unknown field {key!r}", field=str(key)[:40])
    rules, turn, hints = _rules_timer_hints(data, config.seats, turn_limits)
    return replace(config, rules=rules, turn_seconds=turn, hints=hints)


def _rules_timer_hints(
    data: dict[str, Any], seats: tuple[SeatSetup, ...], turn_limits: tuple[float, float]
) -> tuple[Rules, float, bool]:
    rules_in = data.get("rules", {})
    if not isinstance(rules_in, dict) or len(rules_in) > 20:
        raise SessionError("bad_request", "rules must be an object of options", field="rules")
    options = dict(rules_in)
    edition = options.pop("edition", "2022")
    players = options.pop("players", len(seats))
    if players != len(seats):
        raise SessionError(
            "bad_request",
            f"rules.players is {players!r} but {len(seats)} seats were given",
            field="seats",
        )
    try:
        rules = make_rules(edition, players=len(seats), **options)
    except RulesError as exc:
        raise SessionError("bad_rules", str(exc), field="rules", option=exc.option) from None
    except TypeError:  # an option name that is not a keyword at all
        raise SessionError("bad_rules", "unknown option", field="rules") from None
    turn = check_turn_seconds(data.get("turn_seconds", DEFAULT_TURN_SECONDS), turn_limits)
    hints = data.get("hints", True)
    if not isinstance(hints, bool):
        raise SessionError("bad_request", "hints must be true or false", field="hints")
    return rules, turn, hints


def _seats(value: Any, bots: Sequence[str]) -> tuple[SeatSetup, ...]:
    if not isinstance(value, list) or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise SessionError(
            "bad_request",
            f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats",
            field="seats",
        )
    return tuple(check_seat(entry, bots) for entry in value)


def check_seat(entry: Any, bots: Sequence[str]) -> SeatSetup:
    """One seat: ``{"kind": "human"}`` or ``{"kind": "bot", "bot": NAME}``."""
    if not isinstance(entry, dict) or not set(entry) <= {"kind", "bot"}:
        raise SessionError("bad_request", "a seat is {kind, bot}", field="seats")
    kind = entry.get("kind")
    if kind == HUMAN and entry.get("bot") is None:
        return SeatSetup(HUMAN)
    if kind == BOT:
        return SeatSetup(BOT, check_bot(entry.get("bot", "greedy"), bots, "seats"))
    raise SessionError("bad_request", "a seat's kind is 'human' or 'bot'", field="seats")


def check_bot(bot: Any, bots: Sequence[str], field: str) -> str:
    """One of the server's ``bots`` by name, or a refusal that names them."""
    if bot not in bots:
        raise SessionError(
            "bad_request",
            f"unknown bot {str(bot)[:40]!r}; the bots are {', '.join(bots)}",
            field=field,
            bots=list(bots),
        )
    return str(bot)
