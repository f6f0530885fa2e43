"""One table: its seats, its current game, and every command a connection can send.

The core of the multiplayer server, with no I/O: each command takes the time ``now`` (any
monotonic clock, in seconds) and returns an ``Effects`` — the changes the caller must store
*before* it announces anything, and what to announce. Bots do not move by themselves: the
table says when a move is due (``next_deadline``, ``pending_move``), the caller asks the bot
(perhaps on another thread) and hands the choice back (``complete``). What the table sends
to each audience is built by ``session/wire.py``; the pause between rounds is ``pause.py``.

Seats and timing:
- A bot seat moves ``bot_delay`` seconds after it may; under the draw penalty it takes the
  draw its card owes in the same move (no quick neighbour can make it lost).
- A person's turn has a timer (``turn_seconds``, 0 for none). When it runs out, the stand-in
  bot (``greedy``) finishes that turn for them.
- A person whose last connection drops keeps the seat for ``grace`` seconds; after that the
  stand-in plays for them at bot speed until they come back with their link.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..bots import Bot, make_opponent, offered_bots
from ..bots.expert import advisor, warm_advisor
from ..engine import (
    DRAW,
    Action,
    IllegalActionError,
    NotationError,
    Rules,
    State,
    View,
    apply,
    legal_actions,
    new_game,
    parse_action,
    record_of,
    view,
)
from .clock import Clock
from .credentials import new_seed, new_token, same_hash, token_hash
from .errors import SessionError
from .pause import RoundPause
from .setup import (
    BOT,
    HUMAN,
    TableConfig,
    check_name,
    check_seat,
    parse_rules_change,
    same_name,
)

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
OPEN = "open"  # the seat command's word for a seat opened for a person
# The quick reactions a seated person may send (nothing typed freely), and how often.
REACTIONS = ("👍", "👏", "😮", "😂", "🎉", "😬", "🙈", "🔥")
REACTION_SECONDS = 2.0
BOT_NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eun", "Femi", "Gus")


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


@dataclass
class Seat:
    index: int
    kind: str  # HUMAN or BOT
    bot: str | None = None
    name: str | None = None  # None: an open seat, waiting for someone to join
    token_hash: str | None = None
    # Not stored: these describe the connections of this server process.
    connections: int = 0
    grace_deadline: float | None = None
    away: bool = False  # gone past the grace period: the stand-in plays for them

    @property
    def open(self) -> bool:
        return self.kind == HUMAN and self.name is None

    @property
    def auto(self) -> bool:
        """A bot plays this seat: its own, or the stand-in for a person away or a seat left
        open during a game (until someone takes it)."""
        return self.kind == BOT or self.away or self.open

    def empty(self) -> None:
        """Open the seat for a person: whoever held it (and their link) is gone."""
        self.kind, self.bot, self.name, self.token_hash = HUMAN, None, None, None
        self.grace_deadline, self.away = None, False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "open": self.open,
            "connected": self.kind == BOT or self.connections > 0,
            "away": self.away,
        }


class Identity(NamedTuple):
    """Who is on a connection: a seat (or None for a spectator), and whether they host."""

    seat: int | None
    host: bool


# ------------------------------------------------------------------ what to store


class TableCreated(NamedTuple):
    code: str
    config: str  # TableConfig as JSON
    host_hash: str


class SeatChanged(NamedTuple):
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None


class GameStarted(NamedTuple):
    game: int
    seed: int  # hidden until the game is over
    dealer: int


class ActionTaken(NamedTuple):
    game: int
    position: int  # 0-based position in the game's actions
    seat: int
    action: str  # N2 text
    by: str  # "seat", "bot", "timer" (the stand-in after the timer ran out) or "away"


class GameFinished(NamedTuple):
    game: int
    record: str  # the N3 record, JSON


class TableClosed(NamedTuple):
    """Idle too long (the server's choice, docs/deploy.md): nobody plays or joins it again."""

    code: str


class ConfigChanged(NamedTuple):
    config: str  # TableConfig as JSON: the host's rules for the games to come


Change = (
    TableCreated
    | SeatChanged
    | GameStarted
    | ActionTaken
    | GameFinished
    | ConfigChanged
    | TableClosed
)


class Step(NamedTuple):
    """An accepted action, to announce."""

    seat: int
    action: str
    by: str
    first_event: int  # index of the first public event it caused
    state: State  # the game after it (each audience is shown its view of this)


@dataclass
class Effects:
    """What a command did: the changes to store, then what to announce."""

    changes: list[Change] = field(default_factory=list)
    table: bool = False  # seats, phase or timers changed: announce the table
    snapshot: bool = False  # a new game: send everyone a full state
    steps: list[Step] = field(default_factory=list)  # actions: an update each, in order

    @property
    def step(self) -> Step | None:
        """The last action taken, if any."""
        return self.steps[-1] if self.steps else None

    def merge(self, other: Effects) -> Effects:
        self.changes += other.changes
        self.table |= other.table
        self.snapshot |= other.snapshot
        self.steps += other.steps
        return self


class Move(NamedTuple):
    """A move the table wants made by a bot: ask ``choose()`` (off the event loop: a search
    may take a while), then ``complete``."""

    seat: int
    by: str  # "bot", "timer" or "away"
    bot: Bot
    view: View
    game: int
    moves: int

    def choose(self) -> Action:
        """The bot's choice for this move, from the seat's view."""
        return self.bot.choose(self.view)


class Hint(NamedTuple):
    """A person's request for the expert's hint at one decision: ask ``compute()`` (off the
    event loop: it is a search), and send its message to that person alone."""

    seat: int
    game: int
    moves: int
    view: View

    def compute(self) -> dict[str, Any]:
        """The expert's move and each legal action's estimated chance of winning (the match,
        under tokens or points), searched from the seat's view alone, as the terminal's
        ``hint`` does."""
        choice, scored = advisor(secrets.randbits(63)).advise(self.view)
        return {
            "type": "hint",
            "game": self.game,
            "moves": self.moves,
            "seat": self.seat,
            "choice": None if choice is None else str(choice),
            "actions": [{"action": str(a), "chance": round(p, 3)} for a, p in scored],
        }


def prepare_hints() -> None:
    """Make the first hint as quick as the next (``bots.expert.warm_advisor``): a server
    calls it on a worker thread when it starts."""
    warm_advisor()


# ------------------------------------------------------------------ the table


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
        self.clock = Clock(settings.bot_delay)  # when bots move and turn timers run out
        self._bots: dict[int, Bot] = {}
        self._stand_ins: dict[int, Bot] = {}
        self._reacted: dict[int, float] = {}  # seat: when it last reacted (not stored)
        # Between games (not stored; a restart asks again): who has said they are ready for
        # the next one, and when the host's countdown to it ends.
        self.ready: set[int] = set()
        self.countdown: float | None = None
        # The running tally: games won by each seat at this table (stored in each finished
        # game's record, meta.winners; a restart counts them again).
        self.wins = [0] * len(seats)
        self.pause = RoundPause()  # between rounds (not stored)

    # ---------------------------------------------------------------- making one

    @classmethod
    def create(
        cls, code: str, config: TableConfig, creator: str | None, settings: Settings
    ) -> tuple[Table, str, Identity, Effects]:
        """A new table in its lobby. The creator hosts it and sits in the first human seat
        (or watches, when every seat is a bot). Returns the creator's token."""
        token = new_token()
        hashed = token_hash(token)
        humans = [i for i, s in enumerate(config.seats) if s.kind == HUMAN]
        host_seat = humans[0] if humans else None
        seats = []
        names = _BotNames({creator} if creator else set())
        for i, setup in enumerate(config.seats):
            if setup.kind == BOT:
                seats.append(Seat(i, BOT, setup.bot, names.next()))
            elif i == host_seat:
                seats.append(Seat(i, HUMAN, None, creator, hashed))
            else:
                seats.append(Seat(i, HUMAN))
        table = cls(code, config, hashed, seats, settings)
        changes: list[Change] = [TableCreated(code, json.dumps(config.to_json()), hashed)]
        changes += [table._seat_change(s) for s in seats]
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
        """A table rebuilt from storage: its latest game is replayed action by action, under
        the rules it was played with (``record``, when it is finished: the host may have
        changed the table's since)."""
        table = cls(code, config, host_hash, seats, settings)
        table.game = game
        for seat, count in (wins or {}).items():
            if 0 <= seat < len(seats):
                table.wins[seat] = count
        if game:
            assert seed is not None
            rules = config.rules if record is None else Rules.from_dict(json.loads(record)["rules"])
            state = new_game(rules, seed, dealer=dealer)
            for seat, action, by in actions:
                state = apply(state, seat, action)
                table.by.append(by)
            table.state = state
            table.phase = OVER if finished or state.over else PLAYING
            if state.over:
                table._count_win()
            table._make_bots()
        table._schedule(now)
        return table

    # ---------------------------------------------------------------- who is who

    def identify(self, token: str | None) -> Identity:
        if token is None:
            return Identity(None, False)
        hashed = token_hash(token)
        seat = next((s.index for s in self.seats if same_hash(s.token_hash, hashed)), None)
        host = same_hash(self.host_hash, hashed)
        if seat is None and not host:
            raise SessionError("bad_token", "this link does not hold a seat at this table")
        return Identity(seat, host)

    def connect(self, who: Identity, now: float) -> Effects:
        if who.seat is None:
            return Effects()
        seat = self.seats[who.seat]
        seat.connections += 1
        if seat.connections > 1:
            return Effects()
        seat.grace_deadline = None
        seat.away = False
        self._schedule(now)
        return Effects(table=True)

    def disconnect(self, who: Identity, now: float) -> Effects:
        if who.seat is None:
            return Effects()
        seat = self.seats[who.seat]
        seat.connections = max(0, seat.connections - 1)
        if seat.connections:
            return Effects()
        self._schedule(now)
        return Effects(table=True)

    def set_connections(self, seat: int, count: int, now: float) -> Effects:
        """Every connection ``seat`` has, on every server process (when several serve the
        table, each counts its own and hears of the others')."""
        s = self.seats[seat]
        before, s.connections = s.connections, max(0, count)
        if (before > 0) == (s.connections > 0):
            return Effects()
        if s.connections:
            s.grace_deadline = None
            s.away = False
        elif self.phase == OVER and self.ready and self._people() and not self.waiting_for():
            # The one the next game waited for has gone: everyone still here is ready.
            return self._new_game(now)
        self._schedule(now)
        return Effects(table=True)

    def adopt(self, old: Table, now: float) -> None:
        """Take over what ``old`` (this table as this process held it before reloading it
        from storage) knew of connections: counts, grace periods, who is away."""
        if len(old.seats) == len(self.seats):
            for mine, theirs in zip(self.seats, old.seats, strict=True):
                mine.connections = theirs.connections
                mine.grace_deadline = theirs.grace_deadline
                mine.away = theirs.away
        self._schedule(now)

    def went_away(self, seat: int, now: float) -> Effects:
        """Another server process found ``seat`` gone past its grace period (its stand-in
        moved): so it is here, unless the seat has a connection again."""
        s = self.seats[seat]
        if s.away or s.connections or s.kind != HUMAN:
            return Effects()
        s.away, s.grace_deadline = True, None
        self._schedule(now)
        return Effects(table=True)

    def replay(self, seat: int, text: str, by: str, now: float) -> Effects:
        """An action another server process took and stored: play it here too, to announce
        it. (Its changes are already stored; the caller does not store them again.)"""
        if self.phase != PLAYING or self.state is None:
            raise SessionError("server_error", "no game to replay an action in")
        try:
            return self._apply(seat, parse_action(text), by, now)
        except (NotationError, IllegalActionError) as exc:
            raise SessionError("server_error", f"a stored action does not fit: {exc}") from None

    # ---------------------------------------------------------------- the lobby

    def join(self, name: Any, now: float) -> tuple[int, str, Effects]:
        """Take the first open seat; returns the seat and its token.

        Two people at a table never share a name (``same_name``: case, spacing and accents
        typed either way aside), so that the log never says "Ana plays 7" about two players:
        a newcomer named like a seated person is refused (``name_taken``), and a bot named
        like the newcomer (bots are "Ana", "Ben", ...) takes another name."""
        name = check_name(name)
        seat = next((s for s in self.seats if s.open), None)
        if seat is None:
            raise SessionError("full", "every seat at this table is taken")
        person = next(
            (
                s
                for s in self.seats
                if s.kind == HUMAN and s.name is not None and same_name(s.name, name)
            ),
            None,
        )
        if person is not None:
            raise SessionError(
                "name_taken",
                f"{name!r} is taken: seat {person.index} is {person.name!r}",
                name=person.name,  # as the one who has it wrote it
            )
        token = new_token()
        seat.name = name
        seat.token_hash = token_hash(token)
        seat.away, seat.grace_deadline = False, None  # mid-game: the stand-in hands it over
        changes: list[Change] = [self._seat_change(seat)]
        for bot in self.seats:
            if bot.kind == BOT and bot.name is not None and same_name(bot.name, name):
                bot.name = _BotNames({s.name for s in self.seats if s.name}).next()
                changes.append(self._seat_change(bot))
        self._schedule(now)
        return seat.index, token, Effects(changes, table=True)

    def leave(self, who: Identity, now: float) -> Effects:
        """A person gives up their seat and watches instead; the seat opens for anyone with
        the table's link, and during a game the stand-in plays it until someone takes it.
        Their link holds no seat any more (a host's still hosts)."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators have no seat to leave")
        seat = self.seats[who.seat]
        if seat.kind != HUMAN or seat.name is None:
            raise SessionError("not_seated", "that seat is no longer yours")
        seat.empty()
        self._schedule(now)
        return Effects([self._seat_change(seat)], table=True)

    def relink(self, who: Identity, index: int) -> tuple[str, Effects]:
        """The host gives a person's seat a new personal link (the old one leaked, say): the
        old link holds no seat from now on, and its connections close. Returns the new
        token, for the host to pass on."""
        self._host_only(who)
        if not 0 <= index < len(self.seats):
            raise SessionError("bad_seat", f"there is no seat {index}", seat=index)
        seat = self.seats[index]
        if seat.kind != HUMAN or seat.name is None:
            raise SessionError("bad_seat", f"nobody sits at seat {index}", seat=index)
        if index == who.seat:
            raise SessionError("bad_seat", "your own link also hosts the table", seat=index)
        token = new_token()
        seat.token_hash = token_hash(token)
        return token, Effects([self._seat_change(seat)], table=True)

    def set_seat(
        self, who: Identity, index: int, kind: str, bot: str | None, now: float
    ) -> Effects:
        """The host opens a seat for a person (``kind`` "open", or "human"), whoever holds
        it, at any time: during a game the stand-in plays it until someone takes it. Between
        games (and in the lobby) the host may also make an open seat or a bot's a bot."""
        self._host_only(who)
        if not 0 <= index < len(self.seats):
            raise SessionError("bad_seat", f"there is no seat {index}", seat=index)
        entry: dict[str, Any] = {"kind": HUMAN if kind == OPEN else kind}
        if bot is not None:
            entry["bot"] = bot
        setup = check_seat(entry, self.settings.bots)
        seat = self.seats[index]
        if setup.kind == HUMAN:
            seat.empty()
        else:
            if self.phase == PLAYING:
                raise SessionError("started", "a bot can take a seat only between games")
            if seat.kind == HUMAN and seat.name is not None:
                raise SessionError("seat_taken", f"seat {index} is taken by a player", seat=index)
            taken = {s.name for s in self.seats if s.index != index and s.name}
            seat.kind, seat.bot = BOT, setup.bot
            seat.name = seat.name or _BotNames(taken).next()
            seat.token_hash = None
        self._schedule(now)
        return Effects([self._seat_change(seat)], table=True)

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
        waiting = [s.index for s in self.seats if s.open]
        if waiting:
            raise SessionError(
                "not_ready", "some seats are still waiting for a player", seats=waiting
            )
        return self._new_game(now)

    def again(self, who: Identity, now: float) -> Effects:
        """The host asks for the next game (same seats, a new shuffle): it starts at once when
        everyone connected is ready, else after a countdown that everyone sees (``countdown``
        in the table message), so that it never starts under someone still reading the end."""
        self._host_only(who)
        if self.phase != OVER:
            raise SessionError("not_over", "the game is not over yet")
        if who.seat is not None:
            self.ready.add(who.seat)
        if not self.waiting_for():
            return self._new_game(now)
        if self.countdown is None:
            self.countdown = now + self.settings.countdown
        return Effects(table=True)

    def mark_ready(self, who: Identity, now: float) -> Effects:
        """A person is ready for the next game; the last one to be starts it."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators do not play the next game")
        if self.phase != OVER:
            raise SessionError("not_over", "the game is not over yet")
        self.ready.add(who.seat)
        if not self.waiting_for():
            return self._new_game(now)
        return Effects(table=True)

    def merge_next(self, ready: Sequence[int], ms_left: int | None, now: float) -> Effects:
        """What another server process knows of the next game (its ready marks, the host's
        countdown there): taken in here too; the game starts when nobody is waited for."""
        if self.phase != OVER:
            return Effects()
        self.ready |= {s for s in ready if 0 <= s < len(self.seats)}
        if ms_left is not None and self.countdown is None:
            self.countdown = now + ms_left / 1000
        if not self.waiting_for():
            return self._new_game(now)
        return Effects(table=True)

    def waiting_for(self) -> list[int]:
        """The people the next game waits for: seated, connected, not yet ready (bots always
        are, and nobody waits for someone who is not there)."""
        return [
            s.index
            for s in self.seats
            if s.kind == HUMAN and not s.open and s.connections > 0 and s.index not in self.ready
        ]

    def carry_on(self, who: Identity, now: float) -> Effects:
        """A person has read the round's summary; the last one to do so ends the pause. Sent
        when there is no pause (it ran out meanwhile), it does nothing."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators do not hold up the next round")
        return self.merge_continued([who.seat], now)

    def merge_continued(self, seats: Sequence[int], now: float) -> Effects:
        """Seats that said "continue" (here, or on another server process)."""
        if not self.pause.active(now):
            return Effects()
        self.pause.continued |= {s for s in seats if 0 <= s < len(self.seats)}
        if not self.pause.waiting(self._people()):
            self._end_pause(now)
        return Effects(table=True)

    def _people(self) -> list[int]:
        return [s.index for s in self.seats if s.kind == HUMAN and not s.open and s.connections]

    def _end_pause(self, now: float) -> None:
        self.pause.end()
        self.clock.restart()
        self._schedule(now)

    # ---------------------------------------------------------------- playing

    def act(self, who: Identity, text: str, moves: int | None, now: float) -> Effects:
        """A person's action. Refused (``SessionError``, nothing changed) when it is not
        theirs to take; ``moves``, when given, must be the number of actions they have seen."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators cannot play")
        if self.phase == LOBBY or self.state is None:
            raise SessionError("not_started", "the game has not started yet")
        if self.phase == OVER:
            raise SessionError("over", "the game is over")
        state = self.state
        if self.pause.active(now):
            raise SessionError("paused", "the next round starts when everyone has read the last")
        if moves is not None and moves != state.moves:
            raise SessionError("stale", "the game moved on before this arrived", moves=state.moves)
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise SessionError("bad_action", str(exc)) from None
        try:
            return self._apply(who.seat, action, "seat", now)
        except IllegalActionError as exc:
            # The engine's reason, as data for the client to word (illegal.<reason>).
            why = {"action": str(action), "reason": exc.code, "rule": exc.rule, **exc.params}
            if exc.code == "not_your_turn":
                raise SessionError("not_your_turn", str(exc), **why) from None
            raise SessionError("illegal", str(exc), **why) from None

    def hint(self, who: Identity) -> Hint:
        """What a hint for ``who`` needs: refused when the host has switched hints off, for a
        spectator, and when the seat has nothing to decide."""
        if not self.config.hints:
            raise SessionError("hints_off", "the host has switched hints off at this table")
        if who.seat is None:
            raise SessionError("not_seated", "spectators get no hints")
        if self.phase != PLAYING or self.state is None:
            raise SessionError("not_started", "there is no game being played")
        v = view(self.state, who.seat)
        # A draw owed out of turn (X2) is no decision: "draw" is the one thing to do.
        if v.to_play != who.seat or not v.legal:
            raise SessionError("not_your_turn", "there is nothing for you to decide now")
        return Hint(who.seat, self.game, self.state.moves, v)

    def react(self, who: Identity, reaction: str, now: float) -> dict[str, Any]:
        """A quick reaction from a seated person, to show on their seat: one of ``REACTIONS``,
        at most one each ``REACTION_SECONDS``. Nothing is stored; the message to announce."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators cannot react")
        if reaction not in REACTIONS:
            raise SessionError(
                "bad_request", "reaction must be one of the offered ones", reactions=REACTIONS
            )
        last = self._reacted.get(who.seat)
        if last is not None and now - last < REACTION_SECONDS:
            raise SessionError("rate_limited", "one reaction at a time; slow down")
        self._reacted[who.seat] = now
        return {"type": "reaction", "seat": who.seat, "reaction": reaction}

    def pending_move(self, now: float) -> Move | None:
        """The bot move that is due now, if any; the seat counts as thinking until
        ``complete`` or ``abandon``."""
        if self.phase != PLAYING or self.state is None:
            return None
        due = self.clock.due(self.state.to_play, now)
        if due is None:
            return None
        seat, timer = due
        by = "timer" if timer else "bot" if self.seats[seat].kind == BOT else "away"
        bot = self._bots[seat] if by == "bot" else self._stand_in(seat)
        return Move(seat, by, bot, view(self.state, seat), self.game, self.state.moves)

    def complete(self, move: Move, action: Action, now: float) -> Effects:
        """Play the action a bot chose for ``move``; nothing happens when the game moved
        on meanwhile (the move is asked again if still due)."""
        self.clock.done(move.seat)
        state = self.state
        if (
            self.phase != PLAYING
            or state is None
            or (self.game, state.moves)
            != (
                move.game,
                move.moves,
            )
        ):
            self._schedule(now)
            return Effects()
        if action not in legal_actions(state, move.seat):
            action = legal_actions(state, move.seat)[0]  # a bot's mistake must not stop play
        effects = self._apply(move.seat, action, move.by, now)
        after = self.state
        assert after is not None
        if self.phase == PLAYING and move.seat in after.owes_draw:
            # X2: a bot (or a stand-in) takes the draw its card owes at once, in the same
            # turn: no quick neighbour's card can make it lost, and a person whose timer ran
            # out loses the turn, not a card as well.
            effects.merge(self._apply(move.seat, DRAW, move.by, now))
            after = self.state
            assert after is not None
        if (
            move.by == "timer"
            and self.phase == PLAYING
            and after.to_play == move.seat
            and after.round == state.round  # a new round is a new turn (held by a pause)
        ):
            self.clock.finish_turn(now)
        return effects

    def abandon(self, move: Move, now: float) -> None:
        """The bot could not choose (it raised): ask again later."""
        self.clock.again_later(move.seat, now)

    def expire(self, now: float) -> Effects:
        """Grace periods that ran out: the stand-in takes over those seats; a countdown to
        the next game that ran out: it starts."""
        if self.phase == OVER and self.countdown is not None and self.countdown <= now:
            return self._new_game(now)
        effects = Effects()
        if self.pause.until is not None and self.pause.until <= now:
            self.pause.end()
            effects.table = True
        for seat in self.seats:
            if seat.grace_deadline is not None and seat.grace_deadline <= now:
                seat.grace_deadline = None
                seat.away = True
                effects.table = True
        if effects.table:
            self._schedule(now)
        return effects

    def next_deadline(self) -> float | None:
        """When something will next be due: a bot's move, a turn timer, a grace period."""
        state = self.state
        times = []
        if (clock := self.clock.next_deadline(state.to_play if state else None)) is not None:
            times.append(clock)
        times += [s.grace_deadline for s in self.seats if s.grace_deadline is not None]
        if self.phase == OVER and self.countdown is not None:
            times.append(self.countdown)
        if self.pause.until is not None:
            times.append(self.pause.until)
        return min(times, default=None)

    # ---------------------------------------------------------------- records

    def record_json(self) -> str:
        """The N3 record of the current game. It reveals every card: only for a game that
        is over (or for storage)."""
        assert self.state is not None and self.state.over
        meta = {
            "names": [s.name for s in self.seats],
            "players": [s.bot if s.kind == BOT else HUMAN for s in self.seats],
            "by": list(self.by),
            "winners": list(self.state.winners),  # the table's tally is counted from these
        }
        return record_of(self.state, meta).to_json()

    # ---------------------------------------------------------------- inside

    def _host_only(self, who: Identity) -> None:
        if not who.host:
            raise SessionError("not_host", "only the table's host may do that")

    def _seat_change(self, seat: Seat) -> SeatChanged:
        return SeatChanged(seat.index, seat.kind, seat.bot, seat.name, seat.token_hash)

    def _make_bots(self) -> None:
        self._bots = {
            s.index: make_opponent(s.bot, secrets.randbits(63))
            for s in self.seats
            if s.kind == BOT and s.bot is not None
        }
        self._stand_ins = {}

    def _stand_in(self, seat: int) -> Bot:
        bot = self._stand_ins.get(seat)
        if bot is None:
            bot = self._stand_ins[seat] = make_opponent(
                self.settings.stand_in, secrets.randbits(63)
            )
        return bot

    def replay_new_game(self, game: int, seed: int, dealer: int, now: float) -> Effects:
        """A game another server process started and stored (its seed read from storage):
        begin it here too, to announce it. Nothing to store again."""
        if self.phase == PLAYING or game != self.game + 1:
            raise SessionError("server_error", f"game {game} does not follow game {self.game}")
        effects = self._new_game(now, (seed, dealer))
        return Effects(table=effects.table, snapshot=effects.snapshot)

    def _new_game(self, now: float, stored: tuple[int, int] | None = None) -> Effects:
        seed, dealer = stored if stored is not None else (new_seed(), None)
        self.game += 1
        self.state = new_game(self.rules, seed, dealer=dealer)
        self.by = []
        self.phase = PLAYING
        self.ready, self.countdown = set(), None
        self.pause.end()
        self.clock.stop()
        self._make_bots()
        changes: list[Change] = [GameStarted(self.game, seed, self.state.dealer)]
        if self.state.over:  # possible in principle: nobody dealt in can play at all
            self.phase = OVER
            self._count_win()
            changes.append(GameFinished(self.game, self.record_json()))
        self._schedule(now)
        return Effects(changes, table=True, snapshot=True)

    def _apply(self, seat: int, action: Action, by: str, now: float) -> Effects:
        assert self.state is not None
        before = self.state
        self.state = apply(before, seat, action)
        self.by.append(by)
        self.clock.moved(seat)
        changes: list[Change] = [ActionTaken(self.game, before.moves, seat, str(action), by)]
        table = False
        if self.state.over:
            self.phase = OVER
            self._count_win()
            changes.append(GameFinished(self.game, self.record_json()))
            table = True
        elif self.state.round != before.round and self.settings.round_pause > 0 and self._people():
            # A round ended: hold the next one's first turn while the people read its summary.
            self.pause.begin(before.round, self.settings.round_pause, now)
            self.clock.restart()
            table = True
        self._schedule(now)
        step = Step(seat, str(action), by, before.event_count, self.state)
        return Effects(changes, table=table, steps=[step])

    def _count_win(self) -> None:
        assert self.state is not None
        for seat in self.state.winners:
            self.wins[seat] += 1

    def _schedule(self, now: float) -> None:
        """Bring the timers in line with the state: who moves when."""
        state = self.state
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


class _BotNames:
    """Names for bots, none of them the same name (``same_name``) as one already taken."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = list(taken)

    def next(self) -> str:
        numbered = (f"Bot {i}" for i in itertools.count(len(self.taken) + 1))
        name = next(
            c
            for c in itertools.chain(BOT_NAMES, numbered)
            if not any(same_name(c, t) for t in self.taken)
        )
        self.taken.append(name)
        return name
