"""A table on one device: the offline app's game, with no server (docs/offline.md).

The server's one path (``server/hub.py``: a command in, the table changes, the changes kept,
then announced) without storage, pub/sub or threads, so that it runs in the browser under
Pyodide, in a Web Worker (``server/static/js/device/worker.js``), and under CPython in the
tests. The messages are the websocket's (docs/protocol.md), built by ``wire.py`` as for any
seat, so the browser's table is the same one that plays online.

The people on the device hold seats of one table: one person against bots, or two to six
passing the device round (pass-and-play). The screen shows one of them at a time
(``hello``); messages go to that seat only, so what is on the screen is that seat's view and
nothing more. Whoever holds the device may do what a host does (they are all at the table).
Bots move when the table says a move is due: the caller asks ``deadline`` and calls ``wake``
then (the bot's search runs right there, in the worker).

What is kept (``kept``, JSON) is what storage keeps of a table online: its config, seats,
tally and the current game's seed, dealer and actions, so ``restore`` replays the game to
where it was (``Table.restore``), as a server process does after a restart. The browser keeps
it in IndexedDB after every change.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ..bots import Bot, make_opponent
from ..bots.expert import ExpertBot
from .effects import (
    ActionTaken,
    ConfigChanged,
    Effects,
    GameFinished,
    GameStarted,
    SeatChanged,
    TableCreated,
)
from .encode import dumps
from .errors import SessionError
from .phases import PLAYING
from .protocol import MAX_MESSAGE_BYTES, parse_message
from .seats import Identity, Seat
from .setup import (
    BOT,
    HUMAN,
    MAX_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURN_CHOICES,
    TableConfig,
    check_name,
    parse_table_request,
    rule_options,
    same_name,
)
from .table import Settings, Table
from .wire import state_message, table_message, update_messages

KEPT_VERSION = 1
# The expert's most time for a move on a device, in seconds of the clock: on a fast one it never
# runs out (its worlds are searched in about 0.1 s), on a phone four times slower it moves
# within about a second instead of 1.5 s (benchmarks/bench_offline.py).
EXPERT_SECONDS = 0.5


def device_bot(name: str, seed: int) -> Bot:
    """A seat's bot on a device: the registry's, the expert with ``EXPERT_SECONDS`` at most."""
    if name == "expert":
        return ExpertBot(seed, time_limit=EXPERT_SECONDS)
    return make_opponent(name, seed)


def device_settings() -> Settings:
    return Settings(make_bot=device_bot)


CODE = "device"  # the table's code: there is only one on a device at a time


class Device:
    """One table and the people on this device who sit at it."""

    def __init__(self, table: Table, tokens: dict[int, str], kept: dict[str, Any]) -> None:
        self.table = table
        self.tokens = tokens  # seat -> token, for every person on this device
        self.kept = kept
        self.shown: int | None = None  # whose screen it is (``hello``)

    # ------------------------------------------------------------ making one

    @classmethod
    def create(cls, request: str, now: float, settings: Settings | None = None) -> Device:
        """A new table from ``{"table": <a create request, docs/protocol.md>, "people":
        [names], "bot_delay": seconds}``: the first name hosts it, the others take the next
        human seats in order; every human seat must have its person (nobody else can come).
        ``bot_delay`` (0 to 5, default the server's 1 s) is how long a bot waits to move."""
        data = _json_object(request)
        settings = settings or device_settings()
        delay = data.get("bot_delay", settings.bot_delay)
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 5:
            raise SessionError("bad_request", "bot_delay must be 0 to 5 seconds", field="bot_delay")
        settings = replace(settings, bot_delay=float(delay))
        people = data.get("people")
        if not isinstance(people, list) or not people:
            raise SessionError("bad_request", "people must be a list of names", field="people")
        names = [check_name(p) for p in people]
        for i, a in enumerate(names):
            if any(same_name(a, b) for b in names[:i]):
                raise SessionError("name_taken", "two people have that name", field="people")
        table_request = data.get("table")
        if not isinstance(table_request, dict):
            raise SessionError("bad_request", "table must be an object", field="table")
        config, _ = parse_table_request(
            {**table_request, "name": names[0]}, bots=settings.bots, turn_limits=(0, 600)
        )
        humans = sum(1 for s in config.seats if s.kind == HUMAN)
        if humans != len(names):
            raise SessionError("bad_request", "each human seat needs a person", field="people")
        table, token, who, effects = Table.create(CODE, config, names[0], settings)
        kept: dict[str, Any] = {"version": KEPT_VERSION, "bot_delay": settings.bot_delay}
        _fold(kept, effects)
        assert who.seat is not None
        tokens = {who.seat: token}
        for name in names[1:]:
            seat, token, joined = table.join(name, now)
            _fold(kept, joined)
            tokens[seat] = token
        kept["tokens"] = {str(s): t for s, t in tokens.items()}
        device = cls(table, tokens, kept)
        device._attend(now)
        return device

    @classmethod
    def restore(cls, kept_json: str, now: float, settings: Settings | None = None) -> Device:
        """The table ``kept`` describes, its current game replayed to where it was."""
        kept = _json_object(kept_json)
        if kept.get("version") != KEPT_VERSION:
            raise SessionError("bad_request", "this game was kept by another version")
        settings = settings or device_settings()
        try:
            settings = replace(settings, bot_delay=float(kept.get("bot_delay", settings.bot_delay)))
            seats = [
                Seat(int(i), s["kind"], s["bot"], s["name"], s["token_hash"])
                for i, s in sorted(kept["seats"].items(), key=lambda kv: int(kv[0]))
            ]
            game = kept.get("game", 0)
            table = Table.restore(
                CODE,
                TableConfig.from_json(kept["config"]),
                kept["host_hash"],
                seats,
                settings,
                now,
                game=game,
                seed=kept.get("seed"),
                dealer=kept.get("dealer"),
                actions=[tuple(a) for a in kept.get("actions", [])],
                finished=kept.get("finished", False),
                wins=dict(enumerate(kept.get("wins", []))),
                record=kept.get("record"),
            )
            tokens = {int(s): t for s, t in kept["tokens"].items()}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SessionError("bad_request", f"the kept game is damaged ({exc})") from None
        device = cls(table, tokens, kept)
        device._attend(now)
        return device

    def _attend(self, now: float) -> None:
        """Everyone on the device is here: nobody's seat goes to the stand-in for being away."""
        for seat in self.tokens:
            self.table.set_connections(seat, 1, now)
        self.table.schedule(now)

    # ------------------------------------------------------------ the screen

    def people(self) -> list[dict[str, Any]]:
        """The seats of the people on this device, in order, with their names."""
        return [{"seat": s, "name": self.table.seats[s].name} for s in sorted(self.tokens)]

    def hello(self, seat: int, now: float) -> list[str]:
        """Show ``seat``'s screen: the welcome, table and state a connection gets online."""
        if seat not in self.tokens:
            raise SessionError("bad_token", "nobody on this device holds that seat")
        self.shown = seat
        welcome = {"type": "welcome", "protocol": 1, "code": CODE, "seat": seat, "host": True}
        return [
            dumps(welcome),
            dumps(table_message(self.table, now)),
            dumps(state_message(self.table, seat, now)),
        ]

    def handle(self, frame: str, now: float) -> list[str]:
        """A command from the screen's seat, as the websocket would carry it: the messages
        that seat gets (an ``error`` for one refused, which changes nothing)."""
        ref = None
        try:
            cmd = parse_message(frame)
            ref = cmd.id
            if self.shown is None:
                raise SessionError("bad_request", "nobody's screen is shown")
            # Everyone at one device is at the table together: whoever holds it may do what
            # the host does (start, change the rules, the next game).
            return self._run(cmd, Identity(self.shown, True), now)
        except SessionError as exc:
            error = {"type": "error", **exc.to_json()}
            return [dumps(error if ref is None else {**error, "id": ref})]

    def _run(self, cmd: Any, who: Identity, now: float) -> list[str]:
        table = self.table
        if cmd.type == "ping":
            return [dumps({"type": "pong", "id": cmd.id})]
        if cmd.type == "react":
            return [dumps(table.react(who, cmd.reaction, now))]
        if cmd.type == "hint":
            message = table.hint(who).compute()
            return [dumps(message if cmd.id is None else {**message, "id": cmd.id})]
        if cmd.type == "act":
            effects = table.act(who, cmd.action, cmd.moves, now)
        elif cmd.type == "start":
            effects = table.start(who, now)
        elif cmd.type == "again":
            effects = table.again(who, now)
        elif cmd.type == "ready":
            effects = table.mark_ready(who, now)
        elif cmd.type == "continue":
            effects = table.carry_on(who, now)
        elif cmd.type == "configure":
            effects = table.configure(who, cmd.config, now)
        elif cmd.type == "seat":
            if cmd.kind != BOT:
                # An open seat would wait for someone who cannot come: refused before the
                # table is asked, so nothing changes.
                raise SessionError("bad_request", "a game on one device has no open seats")
            effects = table.set_seat(who, cmd.seat, cmd.kind, cmd.bot, now)
        else:  # leave, relink, hello: nothing to do with nobody else here
            raise SessionError("bad_request", f"{cmd.type!r} means nothing on one device")
        return self._commit(effects, now)

    def wake(self, now: float) -> list[str]:
        """What is due by ``now``: turn timers, the countdown, the bots' moves (each searched
        here and now), in order."""
        table = self.table
        out = self._commit(table.expire(now), now)
        move = table.pending_move(now)
        while move is not None:
            out += self._commit(table.complete(move, move.choose(), now), now)
            move = table.pending_move(now)
        return out

    def deadline(self) -> float | None:
        """When ``wake`` has something to do next (on the caller's clock), or None."""
        return self.table.next_deadline()

    def _commit(self, effects: Effects, now: float) -> list[str]:
        """Keep what changed, then the messages the screen's seat gets (``Hub.announce``)."""
        _fold(self.kept, effects)
        self.kept["wins"] = list(self.table.wins)
        self.table.schedule(now)
        if self.shown is None:
            return []
        table, seat, out = self.table, self.shown, []
        if effects.snapshot:
            out.append(dumps(state_message(table, seat, now)))
        else:
            for step in effects.steps:
                out.append(dumps(update_messages(table, step, [seat], now)[seat]))
        if effects.table:
            out.append(dumps(table_message(table, now)))
        return out

    # ------------------------------------------------------------ what is kept

    def kept_json(self) -> str:
        return json.dumps(self.kept, separators=(",", ":"))

    def summary(self) -> dict[str, Any]:
        """What the list of kept games shows of this one (no hand, no seed)."""
        t = self.table
        return {
            "edition": t.rules.edition,
            "players": len(t.seats),
            "people": [p["name"] for p in self.people()],
            "game": t.game,
            "moves": t.state.moves if t.state else 0,
            "phase": t.phase,
            "to_play": t.state.to_play if t.state and t.phase == PLAYING else None,
        }

    def record_json(self) -> str | None:
        """The N3 record of the latest game, once it is over (None before)."""
        return self.kept.get("record") if self.kept.get("finished") else None


def open_device(kind: str, text: str, now: float) -> tuple[Device | None, str | None]:
    """``Device.create`` (kind "create") or ``Device.restore`` ("restore") for the worker:
    the device, or the refusal as the JSON of an ``error`` message (nothing made)."""
    try:
        device = Device.create(text, now) if kind == "create" else Device.restore(text, now)
    except SessionError as exc:
        return None, dumps({"type": "error", **exc.to_json()})
    return device, None


def options_json(settings: Settings | None = None) -> str:
    """What ``/api/options`` answers online, for a table on this device: the bots that can
    run here (in Pyodide: the ones needing NumPy cannot), and no timer unless one is chosen."""
    settings = settings or device_settings()
    low, high = settings.turn_limits
    return dumps(
        {
            **rule_options(),
            "players": {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "default": 2},
            "bots": list(settings.bots),
            "stand_in": settings.stand_in,
            "turn": {
                "choices": [c for c in TURN_CHOICES if c == 0 or low <= c <= high],
                "default": 0,
                "low": low,
                "high": high,
            },
            "limits": {"name": MAX_NAME, "message_bytes": MAX_MESSAGE_BYTES},
            "quick": {"wait": 0},
        }
    )


def _fold(kept: dict[str, Any], effects: Effects) -> None:
    """Keep ``effects``' changes as storage would (``server/saving.py``)."""
    for ch in effects.changes:
        if isinstance(ch, TableCreated):
            kept["config"] = json.loads(ch.config)
            kept["host_hash"] = ch.host_hash
        elif isinstance(ch, ConfigChanged):
            kept["config"] = json.loads(ch.config)
        elif isinstance(ch, SeatChanged):
            kept.setdefault("seats", {})[str(ch.seat)] = {
                "kind": ch.kind,
                "bot": ch.bot,
                "name": ch.name,
                "token_hash": ch.token_hash,
            }
        elif isinstance(ch, GameStarted):
            kept.update(game=ch.game, seed=ch.seed, dealer=ch.dealer, actions=[])
            kept.update(finished=False, record=None)
        elif isinstance(ch, ActionTaken):
            kept.setdefault("actions", []).append([ch.seat, ch.action, ch.by])
        elif isinstance(ch, GameFinished):
            kept.update(finished=True, record=ch.record)
        # TableClosed and ListingChanged: a device's table is never closed nor listed.


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise SessionError("bad_json", "that is not JSON") from None
    if not isinstance(data, dict):
        raise SessionError("bad_request", "that must be a JSON object")
    return data
