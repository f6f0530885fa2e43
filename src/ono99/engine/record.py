"""Game records (RULES.md N3): reading, validating, writing and replaying them.

A record is JSON. ``load_record`` turns text or parsed JSON into a validated ``Record``
(or raises ``RecordError`` naming the first bad entry); ``replay`` plays it to its final
state; ``record_of`` writes the record of a state with every shuffle spelled out, so any
implementation of RULES.md can replay it. No file I/O happens here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .cards import CARD_NAMES
from .errors import Ono99Error, RecordError, RulesError, SetupError
from .game import apply, new_game
from .rules import Rules
from .state import State

FORMAT = "ono99-record/1"
_KEYS = ("format", "rules", "seed", "dealer", "decks", "reshuffles", "actions", "meta")


@dataclass(frozen=True)
class Record:
    rules: Rules
    seed: int
    dealer: int | None = None
    decks: tuple[tuple[str, ...], ...] = ()
    reshuffles: tuple[tuple[str, ...], ...] = ()
    actions: tuple[tuple[int, Action], ...] = ()
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json_obj(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
        }
        if self.dealer is not None:
            obj["dealer"] = self.dealer
        obj["decks"] = [list(d) for d in self.decks]
        obj["reshuffles"] = [list(r) for r in self.reshuffles]
        obj["actions"] = [[seat, str(action)] for seat, action in self.actions]
        if self.meta:
            obj["meta"] = self.meta
        return obj

    def to_json(self) -> str:
        """One JSON object on one line, as the example records are written."""
        return json.dumps(self.to_json_obj(), ensure_ascii=False)

    def start(self) -> State:
        """The state before the first action."""
        try:
            return new_game(
                self.rules, self.seed, dealer=self.dealer, decks=self.decks,
                reshuffles=self.reshuffles,
            )  # fmt: skip
        except SetupError as exc:
            raise RecordError(exc.where, exc.detail) from None


def load_record(data: str | bytes | dict[str, Any]) -> Record:
    """A validated ``Record`` from JSON text or an already parsed object."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError("record", f"not valid JSON ({exc})") from None
        except RecursionError:
            raise RecordError("record", "not valid JSON (nested too deeply)") from None
        except UnicodeDecodeError:
            raise RecordError("record", "not UTF-8 text") from None
    if not isinstance(data, dict):
        raise RecordError("record", f"must be a JSON object, not {type(data).__name__}")
    for key in data:
        if key not in _KEYS:
            raise RecordError(key, f"unknown entry; a record has {', '.join(_KEYS)}")
    if data.get("format") != FORMAT:
        raise RecordError("format", f"must be {FORMAT!r}, not {data.get('format')!r}")
    if not isinstance(data.get("rules", {}), dict):
        raise RecordError("rules", f"must be an object of options, not {data['rules']!r}")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as exc:
        raise RecordError(f"rules.{exc.option}", str(exc).split(": ", 1)[1]) from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError("seed", f"must be a whole number, not {seed!r}")
    dealer = data.get("dealer")
    if dealer is not None and (
        isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players
    ):
        raise RecordError("dealer", f"must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
    decks = _card_lists(data.get("decks", []), "decks")
    reshuffles = _card_lists(data.get("reshuffles", []), "reshuffles")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("meta", "must be a JSON object")
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise RecordError("actions", "must be a list of [seat, action] pairs")
    actions = []
    for i, entry in enumerate(raw_actions):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise RecordError(f"actions[{i}]", f"must be a [seat, action] pair, not {entry!r}")
        seat, text = entry
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RecordError(f"actions[{i}]", f"seat must be a whole number, not {seat!r}")
        try:
            actions.append((seat, parse_action(text)))
        except Ono99Error as exc:
            raise RecordError(f"actions[{i}]", str(exc)) from None
    record = Record(rules, seed, dealer, decks, reshuffles, tuple(actions), meta)
    record.start()  # checks the decks against the edition
    return record


def _card_lists(value: Any, key: str) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(key, "must be a list of card lists")
    out = []
    for i, cards in enumerate(value):
        if not isinstance(cards, list):
            raise RecordError(f"{key}[{i}]", "must be a list of card names")
        for j, card in enumerate(cards):
            if card not in CARD_NAMES:
                raise RecordError(f"{key}[{i}][{j}]", f"unknown card {card!r}")
        out.append(tuple(cards))
    return tuple(out)


def replay_states(record: Record) -> Iterator[State]:
    """The state before the first action, then after each action."""
    state = record.start()
    yield state
    for i, (seat, action) in enumerate(record.actions):
        try:
            state = apply(state, seat, action)
        except Ono99Error as exc:
            raise RecordError(f"actions[{i}]", str(exc)) from None
        yield state


def replay(record: Record | str | dict[str, Any]) -> State:
    """The state a record's actions lead to."""
    if not isinstance(record, Record):
        record = load_record(record)
    *_, state = replay_states(record)
    return state


def record_of(state: State, meta: dict[str, Any] | None = None) -> Record:
    """The record of the game that led to ``state``, every shuffle spelled out (N3).

    It holds the seed and the full deck order: for a live game it reveals hidden cards,
    so it is for finished games, or for the referee's own storage. A state without its past
    (built from a position, or imagined from a view) has no record."""
    if len(state.decks_used) != state.round:
        raise RecordError("state", "it has no past to record: it was built from its parts")
    return Record(
        rules=state.rules,
        seed=state.setup.seed,
        dealer=state.setup.dealer,
        decks=tuple(tuple(CARD_NAMES[c] for c in d) for d in state.decks_used),
        reshuffles=tuple(tuple(CARD_NAMES[c] for c in r) for r in state.reshuffles_used),
        actions=tuple(state.actions()),
        meta=dict(meta or {}),
    )
