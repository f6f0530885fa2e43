"""An in-memory publish/subscribe of text messages, by channel name.

The hub publishes each table's announcements on one channel per audience (``CODE:3`` for
seat 3, ``CODE:watch`` for spectators), so a message built from one seat's view can only
reach that seat's connections. The interface is small on purpose: a Redis-backed one would
offer the same three methods to run several server processes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol


class Subscriber(Protocol):
    def send(self, text: str) -> None:
        """Queue ``text`` for delivery; must not block."""
        ...

    def drop(self) -> None:
        """The seat this subscriber listens for is no longer its connection's (given up,
        opened by the host): close the connection, saying so; must not block."""
        ...

    def end(self) -> None:
        """The table has closed: close the connection once what was sent has gone; must
        not block."""
        ...


class PubSub:
    def __init__(self) -> None:
        self._channels: dict[str, dict[int, Subscriber]] = {}

    def subscribe(self, channel: str, subscriber: Subscriber) -> None:
        self._channels.setdefault(channel, {})[id(subscriber)] = subscriber

    def unsubscribe(self, channel: str, subscriber: Subscriber) -> None:
        subs = self._channels.get(channel)
        if subs is not None:
            subs.pop(id(subscriber), None)
            if not subs:
                del self._channels[channel]

    def publish(self, channel: str, text: str) -> int:
        """Send ``text`` to every subscriber of ``channel``; returns how many."""
        subs = self._channels.get(channel)
        if not subs:
            return 0
        for sub in list(subs.values()):
            sub.send(text)
        return len(subs)

    def drop(self, channel: str) -> int:
        """Unsubscribe everyone from ``channel`` at once, and tell each (``drop``); returns
        how many. Nothing published there afterwards reaches them."""
        subs = self._channels.pop(channel, {})
        for sub in subs.values():
            sub.drop()
        return len(subs)

    def end(self, channel: str) -> int:
        """Unsubscribe everyone from ``channel`` and close their connections (``end``)."""
        subs = self._channels.pop(channel, {})
        for sub in subs.values():
            sub.end()
        return len(subs)

    def listening(self, channel: str) -> bool:
        return bool(self._channels.get(channel))

    def channels(self) -> Iterator[str]:
        return iter(list(self._channels))
