"""The message bus between server processes: ``Bus``, with two implementations.

``server/pubsub.py`` fans a table's announcements out to *this* process's connections. When
several processes serve the same tables they also need to tell each other what they did; that
is the bus. What travels on it is small and public: "table ABC is at sequence number 17, and
the change was seat 2 playing 7" (never a view, never a hand: each process renders the views of
its own connections from the table it holds), "process p has 2 connections on seat 1" and
"process p is alive". Every message is only a hint: the database is the truth, and a process
that misses one (a gap in the sequence numbers, or the bus being down) reads the table again.

- ``LocalBus``: processes that are really hubs in one Python process (tests), through a
  shared ``LocalBroker``.
- ``RedisBus``: Redis pub/sub (redis-py asyncio). It reconnects by itself when Redis goes
  away, and tells the hub when the bus is down and up again (the hub then re-reads its tables).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("ono99.server")

# (channel, text); text None: "you are now subscribed to channel" (catch up from storage).
Deliver = Callable[[str, str | None], None]
Health = Callable[[bool], None]  # the bus went up (True) or down (False)


class Bus(Protocol):
    async def start(self, deliver: Deliver, health: Health) -> None: ...

    def subscribe(self, channel: str) -> None:
        """Start hearing ``channel`` (soon: ``deliver(channel, None)`` says when)."""
        ...

    def unsubscribe(self, channel: str) -> None: ...

    def publish(self, channel: str, text: str) -> None:
        """Send ``text`` to every other process hearing ``channel``, in the order published;
        never blocks, and drops what it cannot send while the bus is down."""
        ...

    async def stop(self) -> None: ...


def open_bus(url: str | None) -> Bus | None:
    """``redis://…`` for Redis; None (one process alone needs no bus)."""
    if url is None:
        return None
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBus(url)
    raise ValueError(f"a bus is redis://…, not {url!r}")


class LocalBroker:
    """Connects the ``LocalBus`` of hubs that share one Python process."""

    def __init__(self) -> None:
        self.channels: dict[str, set[LocalBus]] = {}


class LocalBus:
    def __init__(self, broker: LocalBroker) -> None:
        self.broker = broker
        self._deliver: Deliver | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self, deliver: Deliver, health: Health) -> None:
        self._deliver = deliver
        self._loop = asyncio.get_running_loop()
        health(True)

    def subscribe(self, channel: str) -> None:
        self.broker.channels.setdefault(channel, set()).add(self)
        self._post(channel, None)

    def unsubscribe(self, channel: str) -> None:
        self.broker.channels.get(channel, set()).discard(self)

    def publish(self, channel: str, text: str) -> None:
        for bus in list(self.broker.channels.get(channel, ())):
            if bus is not self:
                bus._post(channel, text)

    def _post(self, channel: str, text: str | None) -> None:
        if self._loop is not None and self._deliver is not None:
            self._loop.call_soon_threadsafe(self._deliver, channel, text)

    async def stop(self) -> None:
        for subs in self.broker.channels.values():
            subs.discard(self)


class RedisBus:
    """Redis pub/sub: one connection listens (and (un)subscribes), another publishes, in
    batches (a pipeline per turn of the loop). Down: health(False), retry every ``retry``
    seconds; up again: resubscribe everything, health(True)."""

    def __init__(self, url: str, *, retry: float = 0.25) -> None:
        self.url = url
        self.retry = retry
        self.channels: set[str] = set()
        self.up = False
        self._deliver: Deliver | None = None
        self._health: Health | None = None
        self._changes: asyncio.Queue[tuple[bool, str]] = asyncio.Queue()
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self, deliver: Deliver, health: Health) -> None:
        self._deliver, self._health = deliver, health
        self._task = asyncio.create_task(self._run())

    def subscribe(self, channel: str) -> None:
        self.channels.add(channel)
        self._changes.put_nowait((True, channel))

    def unsubscribe(self, channel: str) -> None:
        self.channels.discard(channel)
        self._changes.put_nowait((False, channel))

    def publish(self, channel: str, text: str) -> None:
        if self.up:
            self._out.put_nowait((channel, text))
            self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def _set_health(self, up: bool) -> None:
        if up != self.up:
            self.up = up
            if not up:
                while not self._out.empty():
                    self._out.get_nowait()  # receivers will read the database instead
            assert self._health is not None
            self._health(up)

    async def _run(self) -> None:
        import redis.asyncio as redis

        first = True
        while True:
            client: Any = redis.Redis.from_url(
                self.url, socket_connect_timeout=2, socket_timeout=None, health_check_interval=2
            )
            try:
                await client.ping()
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                while not self._changes.empty():
                    self._changes.get_nowait()  # all of self.channels is subscribed below
                await pubsub.subscribe("ono99:hello", *sorted(self.channels))
                self._set_health(True)
                if not first:
                    for channel in list(self.channels):
                        self._post(channel, None)
                first = False
                async with asyncio.TaskGroup() as group:
                    group.create_task(self._listen(pubsub))
                    group.create_task(self._send(client))
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await client.aclose()
                raise
            except BaseException as exc:  # the connection, or a TaskGroup of its failures
                log.warning("the Redis bus is down (%s); retrying", _first_error(exc))
            self._set_health(False)
            with contextlib.suppress(Exception):
                await client.aclose()
            await asyncio.sleep(self.retry)

    def _post(self, channel: str, text: str | None) -> None:
        assert self._deliver is not None
        try:
            self._deliver(channel, text)
        except Exception:
            log.exception("a bus message on %s could not be handled", channel)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            while not self._changes.empty():
                add, channel = self._changes.get_nowait()
                if add:
                    await pubsub.subscribe(channel)
                    self._post(channel, None)
                else:
                    await pubsub.unsubscribe(channel)
            message = await pubsub.get_message(timeout=0.02)
            while message is not None:
                if message["type"] == "message":
                    channel, data = message["channel"], message["data"]
                    self._post(channel.decode(), data.decode())
                message = await pubsub.get_message(timeout=0)

    async def _send(self, client: Any) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch = []
            while not self._out.empty():
                batch.append(self._out.get_nowait())
            if not batch:
                continue
            pipe = client.pipeline(transaction=False)
            for channel, text in batch:
                pipe.publish(channel, text)
            await pipe.execute()


def _first_error(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc
