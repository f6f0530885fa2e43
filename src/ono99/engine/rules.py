"""Rule sets: an edition plus option overrides (RULES.md §8).

``make_rules("1980", players=3, draw_penalty=True)`` builds a frozen ``Rules``; anything
that makes no sense raises ``RulesError`` naming the option.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .cards import HOLD, PLAY2, REVERSE, deck
from .errors import RulesError

EDITIONS = ("2022", "1980")
MATCHES = ("single", "tokens", "points")
VARIANTS = ("last_standing", "lowest_score")
BUST_TOTALS = ("unchanged", "keep", "reset")

# Defaults that differ between the editions; everything else is shared (§8).
_EDITION_DEFAULTS: dict[str, dict[str, Any]] = {
    "2022": {
        "negative_totals": False,
        "four_ono99_discard": True,
        "play2_deflects_play2": True,
        "match": "single",
    },
    "1980": {
        "negative_totals": True,
        "four_ono99_discard": False,
        "play2_deflects_play2": False,
        "match": "tokens",
    },
}


@dataclass(frozen=True)
class OptionSpec:
    """One rule option: its name, type, allowed values and a line of help."""

    name: str
    type: type
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", int, "number of players", low=2, high=6),
    OptionSpec("max_total", int, "highest legal total; house rule: 99", low=10, high=999),
    OptionSpec("negative_totals", bool, "a −10 may take the total below 0"),
    OptionSpec("four_ono99_discard", bool, "four ONO 99s in hand must be laid down and replaced"),
    OptionSpec(
        "play2_deflects_play2",
        bool,
        "a Play 2 (1980: Double Play) may answer a Play 2 (Double Play) and pass it on",
    ),
    OptionSpec("ono99_on_tens", bool, "an ONO 99 may be played on a total ending in 0"),
    OptionSpec("draw_penalty", bool, "players draw by hand; a draw not taken in time is lost"),
    OptionSpec("match", str, "match format", choices=MATCHES),
    OptionSpec("tokens", int, "tokens each player starts with (tokens match)", low=0, high=99),
    OptionSpec("target", int, "score that ends a points match", low=1, high=100_000),
    OptionSpec("variant", str, "how a points match ends", choices=VARIANTS),
    OptionSpec("bust_total", str, "what a bust does to the total (points)", choices=BUST_TOTALS),
)
OPTION_NAMES = tuple(spec.name for spec in OPTIONS)
_SPECS = {spec.name: spec for spec in OPTIONS}


@dataclass(frozen=True)
class Rules:
    """An edition with every option resolved. Build it with ``make_rules``."""

    edition: str = "2022"
    players: int = 4
    max_total: int = 98
    negative_totals: bool = False
    four_ono99_discard: bool = True
    play2_deflects_play2: bool = True
    ono99_on_tens: bool = False
    draw_penalty: bool = False
    match: str = "single"
    tokens: int = 3
    target: int = 200
    variant: str = "last_standing"
    bust_total: str = "unchanged"
    # Derived tables, filled in __post_init__.
    deck: tuple[int, ...] = field(init=False, repr=False, compare=False)
    deflectors: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck", deck(self.edition))
        deflectors = {REVERSE, HOLD} | ({PLAY2} if self.play2_deflects_play2 else set())
        object.__setattr__(self, "deflectors", frozenset(deflectors))

    def to_dict(self, *, minimal: bool = True) -> dict[str, Any]:
        """The options as JSON-ready data; with ``minimal``, the edition, the player count and
        only the options that differ from the edition's defaults (the N3 ``rules`` entry)."""
        base = defaults(self.edition)
        out: dict[str, Any] = {"edition": self.edition}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if not minimal or name == "players" or value != base[name]:
                out[name] = value
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """The inverse of ``to_dict``; raises ``RulesError`` on anything unknown or wrong."""
        if not isinstance(data, dict):
            raise RulesError("rules", f"must be an object of options, not {data!r}")
        options = dict(data)
        edition = options.pop("edition", "2022")
        return make_rules(edition, **options)


def defaults(edition: str) -> dict[str, Any]:
    """Every option's default value for an edition."""
    edition = _check_edition(edition)
    base = {spec.name: Rules.__dataclass_fields__[spec.name].default for spec in OPTIONS}
    base.update(_EDITION_DEFAULTS[edition])
    return base


def make_rules(edition: str | int = "2022", **options: Any) -> Rules:
    """The rules of an edition with ``options`` overriding its defaults (RULES.md §8)."""
    edition = _check_edition(edition)
    values = defaults(edition)
    for name, value in options.items():
        if value is None:
            continue  # "not given": keep the edition's default
        spec = _SPECS.get(name)
        if spec is None:
            known = ", ".join(OPTION_NAMES)
            raise RulesError(name, f"unknown option; the options are {known}")
        values[name] = _check_value(spec, value)
    return Rules(edition=edition, **values)


def _check_edition(edition: object) -> str:
    text = str(edition) if isinstance(edition, (str, int)) and not isinstance(edition, bool) else ""
    if text not in EDITIONS:
        raise RulesError("edition", f"must be one of {', '.join(EDITIONS)}, not {edition!r}")
    return text


def _check_value(spec: OptionSpec, value: Any) -> Any:
    if spec.type is bool:
        if not isinstance(value, bool):
            raise RulesError(spec.name, f"must be true or false, not {value!r}")
        return value
    if spec.type is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(spec.name, f"must be a whole number, not {value!r}")
        if spec.low is not None and value < spec.low:
            raise RulesError(spec.name, f"must be at least {spec.low}, not {value}")
        if spec.high is not None and value > spec.high:
            raise RulesError(spec.name, f"must be at most {spec.high}, not {value}")
        return value
    if value not in spec.choices:
        raise RulesError(spec.name, f"must be one of {', '.join(spec.choices)}, not {value!r}")
    return value


def option_fields() -> tuple[str, ...]:
    """Names of the ``Rules`` fields that are options (everything but derived tables)."""
    return tuple(f.name for f in fields(Rules) if f.init)
