"""Who sits where at a table: its seats, the links (tokens) that hold them, and every change of
hands — a person joins, leaves, is given a new link, the host opens a seat or seats a bot —
and each seat's connections (the grace period, the stand-in while a person is away).

``Seating`` knows nothing of the game being played: the table (``table.py``) tells it whether
one has begun, and sets the timers after each change. A person who leaves once a game has begun
stays named on the seat, as having left (``Seat.left_name``), until someone takes it: the
games they played, and the tokens their seat lost, are still theirs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .credentials import new_token, same_hash, token_hash
from .effects import Change, SeatChanged
from .errors import SessionError
from .setup import BOT, HUMAN, SeatSetup, check_name, check_seat, same_name

OPEN = "open"  # the seat command's word for a seat opened for a person
BOT_NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eun", "Femi", "Gus")


@dataclass
class Seat:
    index: int
    kind: str  # HUMAN or BOT
    bot: str | None = None
    name: str | None = None  # None: an open seat, waiting for someone to join
    token_hash: str | None = None
    # An open seat's last person, who left it (or was removed) once a game had begun: the
    # seat shows their name, as left, until someone takes it. Never a name someone holds.
    left_name: str | None = None
    # The profile (server/players.py) of the person who holds the seat, or who left it once a
    # game had begun (their result is still theirs); None for a bot and for someone without.
    player: str | None = None
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

    @property
    def left(self) -> bool:
        """Open, and still named for the person who left it."""
        return self.open and self.left_name is not None

    def empty(self, *, keep_name: bool = False) -> None:
        """Open the seat for a person: whoever held it (and their link) is gone. With
        ``keep_name`` (a game has begun) a person who held it stays named on it, as left; a
        seat already open keeps what it had."""
        if self.kind == BOT:
            self.left_name = self.player = None
        elif self.name is not None:
            self.left_name = self.name if keep_name else None
            self.player = self.player if keep_name else None
        self.kind, self.bot, self.name, self.token_hash = HUMAN, None, None, None
        self.grace_deadline, self.away = None, False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.left_name if self.left else self.name,
            "open": self.open,
            "left": self.left,
            "connected": self.kind == BOT or self.connections > 0,
            "away": self.away,
        }


class Identity(NamedTuple):
    """Who is on a connection: a seat (or None for a spectator), and whether they host."""

    seat: int | None
    host: bool


def seat_change(seat: Seat) -> SeatChanged:
    """What storage keeps of ``seat``."""
    return SeatChanged(
        seat.index, seat.kind, seat.bot, seat.name, seat.token_hash, seat.left_name, seat.player
    )


def who_played(seat: Seat) -> str | None:
    """Whom a seat's result counts for: its bot ("bot:<name>"), a profile, or nobody."""
    return f"bot:{seat.bot}" if seat.kind == BOT else seat.player


def first_seats(
    setups: Sequence[SeatSetup], creator: str | None, host_hash: str, player: str | None = None
) -> tuple[list[Seat], int | None]:
    """A new table's seats: the creator in the first human seat (None: every seat is a
    bot's), the bots named, the other human seats open. Returns them and the creator's."""
    humans = [i for i, s in enumerate(setups) if s.kind == HUMAN]
    host_seat = humans[0] if humans else None
    seats = []
    names = BotNames({creator} if creator else set())
    for i, setup in enumerate(setups):
        if setup.kind == BOT:
            seats.append(Seat(i, BOT, setup.bot, names.next()))
        elif i == host_seat:
            seats.append(Seat(i, HUMAN, None, creator, host_hash, player=player))
        else:
            seats.append(Seat(i, HUMAN))
    return seats, host_seat


class Seating:
    """The seats of one table (the table's own list) and who holds them."""

    def __init__(self, seats: list[Seat], host_hash: str, bots: Sequence[str]) -> None:
        self.seats = seats
        self.host_hash = host_hash
        self.bots = bots  # the bots the host may seat

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

    def people(self) -> list[int]:
        """The seats of people connected now."""
        return [s.index for s in self.seats if s.kind == HUMAN and not s.open and s.connections]

    def open_seats(self) -> list[int]:
        return [s.index for s in self.seats if s.open]

    # ---------------------------------------------------------------- changing hands

    def join(self, name: Any, player: str | None = None) -> tuple[int, str, list[Change]]:
        """Take the first open seat; returns the seat, its token and the changes to store.

        Two people at a table never share a name (``same_name``: case, spacing and accents
        typed either way aside), so that the log never says "Ana plays 7" about two players:
        a newcomer named like a seated person is refused (``name_taken``), and a bot named
        like the newcomer (bots are "Ana", "Ben", ...) takes another name. A seat's left
        name (``Seat.left_name``) is nobody's: it refuses nobody, and anyone may take it.
        ``player``: the newcomer's profile, which holds at most one seat at a table."""
        name = check_name(name)
        if player is not None and any(s.player == player and not s.open for s in self.seats):
            raise SessionError("already_seated", "you already have a seat at this table")
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
        seat.name, seat.left_name, seat.player = name, None, player
        seat.token_hash = token_hash(token)
        seat.away, seat.grace_deadline = False, None  # mid-game: the stand-in hands it over
        changes: list[Change] = [seat_change(seat)]
        for bot in self.seats:
            if bot.kind == BOT and bot.name is not None and same_name(bot.name, name):
                bot.name = BotNames({s.name for s in self.seats if s.name}).next()
                changes.append(seat_change(bot))
        return seat.index, token, changes

    def leave(self, who: Identity, *, started: bool) -> SeatChanged:
        """A person gives up their seat (see ``Table.leave``); once a game has begun
        (``started``) it stays named for them, as left."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators have no seat to leave")
        seat = self.seats[who.seat]
        if seat.kind != HUMAN or seat.name is None:
            raise SessionError("not_seated", "that seat is no longer yours")
        seat.empty(keep_name=started)
        return seat_change(seat)

    def relink(self, who: Identity, index: int) -> tuple[str, SeatChanged]:
        """A new personal link for the person at seat ``index`` (``who`` hosts): the new
        token, and the change to store."""
        if not 0 <= index < len(self.seats):
            raise SessionError("bad_seat", f"there is no seat {index}", seat=index)
        seat = self.seats[index]
        if seat.kind != HUMAN or seat.name is None:
            raise SessionError("bad_seat", f"nobody sits at seat {index}", seat=index)
        if index == who.seat:
            raise SessionError("bad_seat", "your own link also hosts the table", seat=index)
        token = new_token()
        seat.token_hash = token_hash(token)
        return token, seat_change(seat)

    def set_seat(
        self, index: int, kind: str, bot: str | None, *, playing: bool, started: bool
    ) -> SeatChanged:
        """The host's ``seat`` command (see ``Table.set_seat``): ``playing``, a game is being
        played; ``started``, one has begun (a person removed stays named on the seat)."""
        if not 0 <= index < len(self.seats):
            raise SessionError("bad_seat", f"there is no seat {index}", seat=index)
        entry: dict[str, Any] = {"kind": HUMAN if kind == OPEN else kind}
        if bot is not None:
            entry["bot"] = bot
        setup = check_seat(entry, self.bots)
        seat = self.seats[index]
        if setup.kind == HUMAN:
            seat.empty(keep_name=started)
        else:
            if playing:
                raise SessionError("started", "a bot can take a seat only between games")
            if seat.kind == HUMAN and seat.name is not None:
                raise SessionError("seat_taken", f"seat {index} is taken by a player", seat=index)
            taken = {s.name for s in self.seats if s.index != index and s.name}
            seat.kind, seat.bot, seat.left_name = BOT, setup.bot, None
            seat.name = seat.name or BotNames(taken).next()
            seat.token_hash = None
        return seat_change(seat)

    # ---------------------------------------------------------------- connections

    def connect(self, index: int) -> bool:
        """One connection more; True when it is the seat's first (the person is back)."""
        seat = self.seats[index]
        seat.connections += 1
        if seat.connections > 1:
            return False
        seat.grace_deadline = None
        seat.away = False
        return True

    def disconnect(self, index: int) -> bool:
        """One connection fewer; True when it was the seat's last."""
        seat = self.seats[index]
        seat.connections = max(0, seat.connections - 1)
        return not seat.connections

    def count(self, index: int, count: int) -> bool:
        """Every connection the seat has, on every server process; True when that makes it
        connected or not where it was not before."""
        s = self.seats[index]
        before, s.connections = s.connections, max(0, count)
        if (before > 0) == (s.connections > 0):
            return False
        if s.connections:
            s.grace_deadline = None
            s.away = False
        return True

    def adopt(self, old: Sequence[Seat]) -> None:
        """Take over what ``old`` (the same seats, as held before a reload) knew of
        connections: counts, grace periods, who is away."""
        if len(old) == len(self.seats):
            for mine, theirs in zip(self.seats, old, strict=True):
                mine.connections = theirs.connections
                mine.grace_deadline = theirs.grace_deadline
                mine.away = theirs.away

    def went_away(self, index: int) -> bool:
        """Another process found the seat gone past its grace period; True when that is news
        here (and the seat has no connection again)."""
        s = self.seats[index]
        if s.away or s.connections or s.kind != HUMAN:
            return False
        s.away, s.grace_deadline = True, None
        return True


class BotNames:
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
