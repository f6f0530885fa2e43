"""One table: its seats, its current game, and every command a connection can send.

The core of the multiplayer server, with no I/O: each command takes the time ``now`` (any
monotonic clock, in seconds) and returns an ``Effects`` (``effects.py``) — the changes the
caller must store *before* it announces anything, and what to announce. Bots do not move by
themselves: the table says when a move is due (``next_deadline``, ``pending_move``), the caller
asks the bot (perhaps on another thread) and hands the choice back (``complete``).

``Table`` holds the table's facts and is the front door of its commands; each concern is a
collaborator of its own: ``seats.py`` who sits where (joining, leaving, links, connections),
``play.py`` the game-action path (actions, bots' moves, records), ``between.py`` the time
between games and rounds (ready, countdown, pause), ``clock.py`` when bots move and turn
timers run out, ``reactions.py``. What the table sends to each audience is ``wire.py``.

Seats and timing:
- A bot seat moves ``bot_delay`` seconds after it may; under the draw penalty it takes the
  draw its card owes in the same move (no quick neighbour can make it lost).
- A person's turn has a timer (``turn_seconds``, 0 for none). When it runs out, the stand-in
  bot (``greedy``) finishes that turn for them.
- A person whose last connection drops keeps the seat for ``grace`` seconds; after that the
  stand-in plays for them at bot speed until they come back with their link.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots import Bot, make_opponent, offered_bots
from ..engine import Action, State
from .autoplay import Move
from .between import Between
from .clock import Clock
from .credentials import new_token, token_hash
from .effects import Change, ConfigChanged, Effects, TableCreated
from .errors import SessionError
from .hint import Hint
from .pause import RoundPause
from .phases import LOBBY, PLAYING
from .play import Play
from .reactions import Reactions
from .seats import Identity, Seat, Seating, first_seats, seat_change
from .setup import HUMAN, TableConfig, check_name, name_key, parse_rules_change


@dataclass(frozen=True)
class Settings:
    """Server-wide timing, and the bots a table may seat."""

    bot_delay: float = 1.0
    grace: float = 60.0
    # Seconds the host's "next game" counts down when not everyone has said they are ready.
    countdown: float = 10.0
    stand_in: str = "greedy"
    # Seconds the next round's first turn waits, in a tokens or points match, for the people
    # there to read the round's summary (less when they all say "continue"); 0: no pause.
    round_pause: float = 0.0
    turn_limits: tuple[float, float] = (5.0, 600.0)  # the turn timers a table may have
    # The bots a table may seat: the registry's opponents that this install can build.
    bots: tuple[str, ...] = field(default_factory=offered_bots)
    # How a seat's bot is made from its registry name and a seed (a device limits the expert's
    # time: device.py).
    make_bot: Callable[[str, int], Bot] = make_opponent
    # Wall-clock time, which every server process shares (Play now's tables fill at a time
    # of it); the table's own ``now`` is any monotonic clock.
    wall: Callable[[], float] = time.time


UNKNOWN = object()  # ``Table.listed`` before this copy knows what storage lists


class Table:
    def __init__(
        self,
        code: str,
        config: TableConfig,
        host_hash: str,
        seats: list[Seat],
        settings: Settings,
    ) -> None:
        self.code = code
        self.config = config
        self.rules = config.rules
        self.host_hash = host_hash
        self.seats = seats
        self.settings = settings
        self.phase = LOBBY
        self.game = 0  # games started so far; the current one is numbered this
        self.state: State | None = None
        self.by: list[str] = []  # who made each action of the current game
        # The running tally: games won by each seat at this table (stored in each finished
        # game's record, meta.winners; a restart counts them again).
        self.wins = [0] * len(seats)
        self.clock = Clock(settings.bot_delay)  # when bots move and turn timers run out
        self.seating = Seating(seats, host_hash, settings.bots)
        self.between = Between(self)  # ready marks, the countdown, the pause (not stored)
        self.play = Play(self)
        self.reactions = Reactions()
        # When Play now's bots take the seats still open (``Quick.fill_at`` on our clock).
        self.fill_due: float | None = None
        # The table's line in the lobby as storage holds it (``server/hub.py`` writes it
        # when it changes); ``UNKNOWN`` until this copy has written or followed one.
        self.listed: object = UNKNOWN

    @property
    def ready(self) -> set[int]:
        return self.between.ready

    @property
    def countdown(self) -> float | None:
        return self.between.countdown

    @property
    def pause(self) -> RoundPause:
        return self.between.pause

    # ---------------------------------------------------------------- making one

    @classmethod
    def create(
        cls,
        code: str,
        config: TableConfig,
        creator: str | None,
        settings: Settings,
        player: str | None = None,
    ) -> tuple[Table, str, Identity, Effects]:
        """A new table in its lobby. The creator hosts it and sits in the first human seat
        (or watches, when every seat is a bot). Returns the creator's token."""
        token = new_token()
        hashed = token_hash(token)
        seats, host_seat = first_seats(config.seats, creator, hashed, player)
        table = cls(code, config, hashed, seats, settings)
        changes: list[Change] = [TableCreated(code, json.dumps(config.to_json()), hashed)]
        changes += [seat_change(s) for s in seats]
        return table, token, Identity(host_seat, True), Effects(changes, table=True)

    @classmethod
    def restore(
        cls,
        code: str,
        config: TableConfig,
        host_hash: str,
        seats: list[Seat],
        settings: Settings,
        now: float,
        *,
        game: int = 0,
        seed: int | None = None,
        dealer: int | None = None,
        actions: Sequence[tuple[int, str, str]] = (),
        finished: bool = False,
        wins: dict[int, int] | None = None,
        record: str | None = None,
    ) -> Table:
        """A table rebuilt from storage: its latest game is replayed action by action
        (``Play.resume``)."""
        table = cls(code, config, host_hash, seats, settings)
        table.game = game
        for seat, count in (wins or {}).items():
            if 0 <= seat < len(seats):
                table.wins[seat] = count
        if game:
            assert seed is not None
            table.play.resume(seed, dealer, actions, finished, record)
        table.schedule(now)
        return table

    # ---------------------------------------------------------------- who sits where

    def identify(self, token: str | None) -> Identity:
        return self.seating.identify(token)

    def connect(self, who: Identity, now: float) -> Effects:
        if who.seat is None or not self.seating.connect(who.seat):
            return Effects()
        self.schedule(now)
        return Effects(table=True)

    def disconnect(self, who: Identity, now: float) -> Effects:
        if who.seat is None or not self.seating.disconnect(who.seat):
            return Effects()
        self.schedule(now)
        return Effects(table=True)

    def set_connections(self, seat: int, count: int, now: float) -> Effects:
        """Every connection ``seat`` has, on every server process (when several serve the
        table, each counts its own and hears of the others')."""
        if not self.seating.count(seat, count):
            return Effects()
        if not self.seats[seat].connections and self.between.nobody_waited_for():
            return self.play.new_game(now)  # the one the next game waited for has gone
        self.schedule(now)
        return Effects(table=True)

    def adopt(self, old: Table, now: float) -> None:
        """Take over what ``old`` (this table as this process held it before reloading it
        from storage) knew of connections: counts, grace periods, who is away."""
        self.seating.adopt(old.seats)
        self.schedule(now)

    def went_away(self, seat: int, now: float) -> Effects:
        """Another server process found ``seat`` gone past its grace period (its stand-in
        moved): so it is here, unless the seat has a connection again."""
        if not self.seating.went_away(seat):
            return Effects()
        self.schedule(now)
        return Effects(table=True)

    def join(self, name: Any, now: float, player: str | None = None) -> tuple[int, str, Effects]:
        """Take the first open seat (``Seating.join``); returns the seat and its token. The
        last seat of a table Play now opened starts its game (``session/quick.py``)."""
        barred = self.config.barred
        if barred and (
            f"n:{name_key(check_name(name))}" in barred or (player and f"p:{player}" in barred)
        ):
            raise SessionError("removed", "the host removed you from this table")
        seat, token, changes = self.seating.join(name, player)
        effects = Effects(changes, table=True)
        if self.config.quick is not None and self.phase == LOBBY and not self.seating.open_seats():
            effects.merge(self.play.new_game(now))
        self.schedule(now)
        return seat, token, effects

    def fill(self, now: float) -> Effects:
        """Play now's wait is over: its bots take the seats still open, and the game starts."""
        quick = self.config.quick
        if quick is None or self.phase != LOBBY:
            return Effects()
        changes: list[Change] = [
            self.seating.set_seat(i, "bot", quick.bot, playing=False, started=False)
            for i in self.seating.open_seats()
        ]
        self.fill_due = None
        return Effects(changes, table=True).merge(self.play.new_game(now))

    def leave(self, who: Identity, now: float) -> Effects:
        """A person gives up their seat and watches instead; the seat opens for anyone with
        the table's link, and during a game the stand-in plays it until someone takes it.
        Their link holds no seat any more (a host's still hosts). Once a game has begun, the
        seat shows their name, as left, until then."""
        change = self.seating.leave(who, started=self.phase != LOBBY)
        self.schedule(now)
        return Effects([change], table=True)

    def relink(self, who: Identity, index: int) -> tuple[str, Effects]:
        """The host gives a person's seat a new personal link (the old one leaked, say): the
        old link holds no seat from now on, and its connections close. Returns the new
        token, for the host to pass on."""
        self._host_only(who)
        token, change = self.seating.relink(who, index)
        return token, Effects([change], table=True)

    def set_seat(
        self, who: Identity, index: int, kind: str, bot: str | None, now: float
    ) -> Effects:
        """The host opens a seat for a person (``kind`` "open", or "human"), whoever holds
        it, at any time: during a game the stand-in plays it until someone takes it. Between
        games (and in the lobby) the host may also make an open seat or a bot's a bot."""
        self._host_only(who)
        playing, started = self.phase == PLAYING, self.phase != LOBBY
        held = self.seats[index] if 0 <= index < len(self.seats) else None
        removed = (held.name, held.player) if held and held.kind == HUMAN and held.name else None
        change = self.seating.set_seat(index, kind, bot, playing=playing, started=started)
        changes: list[Change] = [change]
        if removed is not None and self.config.public and index != who.seat:
            # At a public table anyone may take the seat again: not the one removed.
            name, player = removed
            marks = {f"n:{name_key(name)}", *([f"p:{player}"] if player else [])}
            self.config = replace(self.config, barred=tuple(sorted({*self.config.barred, *marks})))
            changes.append(ConfigChanged(json.dumps(self.config.to_json())))
        self.schedule(now)
        return Effects(changes, table=True)

    # ---------------------------------------------------------------- the host

    def configure(self, who: Identity, data: Any, now: float) -> Effects:
        """The host changes the rules (edition, options), the turn timer or hints for the
        games to come: in the lobby or between games, never during one."""
        self._host_only(who)
        if self.phase == PLAYING:
            raise SessionError("started", "the rules can change only between games")
        config = parse_rules_change(data, self.config, turn_limits=self.settings.turn_limits)
        self.config, self.rules = config, config.rules
        return Effects([ConfigChanged(json.dumps(config.to_json()))], table=True)

    def start(self, who: Identity, now: float) -> Effects:
        self._host_only(who)
        if self.phase != LOBBY:
            raise SessionError("started", "the game has already started")
        waiting = self.seating.open_seats()
        if waiting:
            raise SessionError(
                "not_ready", "some seats are still waiting for a player", seats=waiting
            )
        return self.play.new_game(now)

    def _host_only(self, who: Identity) -> None:
        if not who.host:
            raise SessionError("not_host", "only the table's host may do that")

    # ---------------------------------------------------------------- between games

    def again(self, who: Identity, now: float) -> Effects:
        """The host asks for the next game (same seats, a new shuffle): it starts at once when
        everyone connected is ready, else after a countdown that everyone sees (``countdown``
        in the table message), so that it never starts under someone still reading the end."""
        self._host_only(who)
        return self.between.again(who, now)

    def mark_ready(self, who: Identity, now: float) -> Effects:
        return self.between.mark_ready(who, now)

    def merge_next(self, ready: Sequence[int], ms_left: int | None, now: float) -> Effects:
        return self.between.merge_next(ready, ms_left, now)

    def waiting_for(self) -> list[int]:
        return self.between.waiting_for()

    def carry_on(self, who: Identity, now: float) -> Effects:
        return self.between.carry_on(who, now)

    def merge_continued(self, seats: Sequence[int], now: float) -> Effects:
        return self.between.merge_continued(seats, now)

    # ---------------------------------------------------------------- playing (play.py)

    def act(self, who: Identity, text: str, moves: int | None, now: float) -> Effects:
        return self.play.act(who, text, moves, now)

    def replay(self, seat: int, text: str, by: str, now: float) -> Effects:
        return self.play.replay(seat, text, by, now)

    def replay_new_game(self, game: int, seed: int, dealer: int, now: float) -> Effects:
        return self.play.replay_new_game(game, seed, dealer, now)

    def hint(self, who: Identity) -> Hint:
        return self.play.hint(who)

    def react(self, who: Identity, reaction: str, now: float) -> dict[str, Any]:
        """A quick reaction from a seated person (``reactions.py``): the message to announce."""
        return self.reactions.react(who.seat, reaction, now)

    def pending_move(self, now: float) -> Move | None:
        return self.play.pending_move(now)

    def complete(self, move: Move, action: Action, now: float) -> Effects:
        return self.play.complete(move, action, now)

    def abandon(self, move: Move, now: float) -> None:
        self.play.abandon(move, now)

    def record_json(self) -> str:
        return self.play.record_json()

    # ---------------------------------------------------------------- time

    def expire(self, now: float) -> Effects:
        """Grace periods that ran out: the stand-in takes over those seats; a countdown to
        the next game that ran out: it starts."""
        if self.between.countdown_over(now):
            return self.play.new_game(now)
        if self.phase == LOBBY and self.fill_due is not None and self.fill_due <= now:
            return self.fill(now)
        effects = Effects(table=self.between.pause_over(now))
        for seat in self.seats:
            if seat.grace_deadline is not None and seat.grace_deadline <= now:
                seat.grace_deadline = None
                seat.away = True
                effects.table = True
        if effects.table:
            self.schedule(now)
        return effects

    def next_deadline(self) -> float | None:
        """When something will next be due: a bot's move, a turn timer, a grace period, the
        countdown to the next game, the end of a pause."""
        state = self.state
        times = []
        if (clock := self.clock.next_deadline(state.to_play if state else None)) is not None:
            times.append(clock)
        times += [s.grace_deadline for s in self.seats if s.grace_deadline is not None]
        if self.phase == LOBBY and self.fill_due is not None:
            times.append(self.fill_due)
        return min(times + self.between.deadlines(), default=None)

    def schedule(self, now: float) -> None:
        """Bring the timers in line with the state: who moves when."""
        state = self.state
        quick = self.config.quick
        if self.phase == LOBBY and quick is not None:
            self.fill_due = now + max(0.0, quick.fill_at - self.settings.wall())
        else:
            self.fill_due = None
        if self.phase != PLAYING or state is None:
            self.clock.stop()
            self.pause.end()
            for seat in self.seats:
                seat.grace_deadline = None
            return
        for seat in self.seats:
            if seat.kind == HUMAN and not seat.open and not seat.connections and not seat.away:
                if seat.grace_deadline is None:
                    seat.grace_deadline = now + self.settings.grace
            else:
                seat.grace_deadline = None
        start = max(now, self.pause.until or now)  # nothing moves before a pause ends
        self.clock.schedule(self.game, state, self.seats, self.config.turn_seconds, start, now)
