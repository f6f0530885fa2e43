"""The connections this server process has at each table it holds: who listens to which
audience (one pub/sub channel per seat, ``CODE:3``, and ``CODE:watch`` for spectators), how
many connections each seat has here (``local``: the cluster adds the other processes'), and the
link each seat's connections came with, so that a seat given up or opened closes them.

A connection says hello (``attach``): it gets the welcome, the table and the game, then every
announcement after them, in order; when it goes (``detach``) a table nobody here is at is let go
(``Hub.forget``), to reload from storage on demand.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from ..session import PLAYING, Effects, Identity, SessionError, Table, wire
from ..session.encode import dumps
from .catchup import Stale
from .cluster import notice
from .pubsub import PubSub, Subscriber

if TYPE_CHECKING:
    from .hub import Hub


def channel(code: str, seat: int | None) -> str:
    return f"{code}:{'watch' if seat is None else seat}"


class Connections:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.pubsub = PubSub()
        self.local: dict[str, dict[int, int]] = {}  # our connections, per table and seat
        # The link each seat's connections here came with (its hash), per table and seat: a
        # seat given up or opened since closes them (``drop_lost_seats``).
        self.links: dict[str, dict[int, str | None]] = {}

    # ---------------------------------------------------------------- coming and going

    def attach(self, code: str, who: Identity, sub: Subscriber) -> bool:
        """A connection said hello: it gets the welcome, the table and the game, then
        everything announced after them, in order. False: there is no such table."""
        hub = self.hub
        table = hub.fresh(code)  # e.g. its writer died before its note went out
        if table is None:
            return False
        now = hub.now()
        sub.send(
            dumps(
                {
                    "type": "welcome",
                    "protocol": 1,
                    "code": table.code,
                    "seat": who.seat,
                    "host": who.host,
                }
            )
        )
        if not hub.cluster.up:
            sub.send(dumps(notice(False)))
        effects = self.count(table, who, +1)
        if who.seat is not None:
            self.links.setdefault(code, {})[who.seat] = table.seats[who.seat].token_hash
        sub.send(dumps(wire.table_message(table, now)))
        sub.send(dumps(wire.state_message(table, who.seat, now)))
        self.pubsub.subscribe(channel(table.code, who.seat), sub)
        with contextlib.suppress(Stale):
            hub.commit(table, effects)
        return True

    def detach(self, code: str, who: Identity, sub: Subscriber) -> None:
        hub = self.hub
        self.pubsub.unsubscribe(channel(code, who.seat), sub)
        table = hub.tables.get(code)
        if table is None:
            return
        with contextlib.suppress(Stale):
            hub.commit(table, self.count(table, who, -1))
        self.let_go(table)

    def let_go(self, table: Table) -> None:
        """Forget a table nobody here is at and nothing will happen at (it is not being
        played, or nobody is at it anywhere: it waits): it reloads from storage on demand."""
        if not self.audiences(table) and (table.phase != PLAYING or not self.attended(table)):
            self.hub.forget(table)

    def attended(self, table: Table) -> bool:
        """Whether a person is at the table (on any process) or someone watches it here."""
        return any(s.connections for s in table.seats) or self.pubsub.listening(
            channel(table.code, None)
        )

    def forget(self, code: str) -> None:
        self.local.pop(code, None)
        self.links.pop(code, None)

    # ---------------------------------------------------------------- counting

    def count(self, table: Table, who: Identity, delta: int) -> Effects:
        """One connection more or fewer here; what it changes at the table (to commit)."""
        if who.seat is None:
            return Effects()
        mine = self.local.setdefault(table.code, {})
        mine[who.seat] = max(0, mine.get(who.seat, 0) + delta)
        self.hub.cluster.connections_changed(table.code)
        return table.set_connections(who.seat, self.total(table.code, who.seat), self.hub.now())

    def total(self, code: str, seat: int) -> int:
        return self.local.get(code, {}).get(seat, 0) + self.hub.cluster.elsewhere(code, seat)

    def recount(self, table: Table) -> None:
        """Give each seat the sum of its connections on every live process."""
        hub = self.hub
        now = hub.now()
        for seat in range(len(table.seats)):
            total = self.total(table.code, seat)
            if total != table.seats[seat].connections:
                with contextlib.suppress(Stale, SessionError):
                    hub.commit(table, table.set_connections(seat, total, now))

    # ---------------------------------------------------------------- sending

    def audiences(self, table: Table) -> list[int | None]:
        """The seats (and None for spectators) that have a connection listening."""
        code = table.code
        out: list[int | None] = [
            s for s in range(len(table.seats)) if self.pubsub.listening(channel(code, s))
        ]
        if self.pubsub.listening(channel(code, None)):
            out.append(None)
        return out

    def publish(self, code: str, audience: int | None, text: str) -> None:
        self.pubsub.publish(channel(code, audience), text)

    def shout(self, code: str, message: dict[str, Any]) -> None:
        """A message the same for everyone at the table (a reaction): built once, sent to
        every audience here."""
        table = self.hub.tables.get(code)
        if table is None:
            return
        text = dumps(message)
        for a in self.audiences(table):
            self.publish(code, a, text)

    def broadcast(self, message: dict[str, Any]) -> None:
        """A message for every connection here, at every table (a notice)."""
        text = dumps(message)
        for code, table in list(self.hub.tables.items()):
            for a in self.audiences(table):
                self.publish(code, a, text)

    def end(self, table: Table, message: dict[str, Any]) -> None:
        """Tell everyone at the table here ``message``, then close their connections."""
        text = dumps(message)
        for a in self.audiences(table):
            self.publish(table.code, a, text)
            self.pubsub.end(channel(table.code, a))

    def drop_lost_seats(self, table: Table) -> None:
        """Close every connection here of a seat whose link has changed since it connected
        (given up, opened by the host), before anything more is announced to that seat: the
        next person to take it must be the only one who hears it. Whichever process made the
        change, every process comes here as it announces it."""
        links = self.links.get(table.code)
        if not links:
            return
        for seat, link in list(links.items()):
            if table.seats[seat].token_hash != link:
                del links[seat]
                self.pubsub.drop(channel(table.code, seat))
