"""Game reviews for the browser (``GET /api/tables/{code}/games/{game}/review``, docs/review.md):
a search per decision of a finished game, seconds of CPU, so it runs on a worker thread (the
event loop never waits for one), once per (table, game, seat, lens) however often it is asked
for, at most ``review_workers`` at once (``review_busy`` past that), and new ones are
rate-limited per client address (``review_limited``); a review already worked out, or being
worked out, is answered without counting."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..session import RateLimiter, ReviewRequest, SessionError
from .config import ServerConfig

log = logging.getLogger("ono99.server")
KEPT = 512  # reviews kept for a repeated ask
ADDRESSES = 10_000  # rate limiters kept before they are all forgotten (crude, but bounded)

Key = tuple[str, int, int, str]  # table, game, seat, lens


class Reviews:
    def __init__(self, config: ServerConfig, clock: Callable[[], float]) -> None:
        self._config = config
        self._clock = clock
        self._done: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self._running: dict[Key, asyncio.Future[dict[str, Any]]] = {}
        self._limiters: dict[str, RateLimiter] = {}

    async def answer(
        self, code: str, game: int, ask: ReviewRequest, address: str
    ) -> dict[str, Any]:
        """The review ``ask`` of game ``game`` at table ``code``, asked from ``address``."""
        key = (code, game, ask.seat, ask.lens)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is None:
            self._admit(address)
            running = asyncio.ensure_future(asyncio.to_thread(ask.compute))
            self._running[key] = running
            running.add_done_callback(lambda future: self._finished(key, future))
        try:
            return await asyncio.shield(running)
        except Exception:
            log.exception("table %s: the review of game %d failed", code, game)
            raise SessionError("server_error", "the review could not be worked out") from None

    def _admit(self, address: str) -> None:
        config = self._config
        if len(self._running) >= config.review_workers:
            raise SessionError("review_busy", "too many reviews are being worked out; try again")
        now = self._clock()
        limiter = self._limiters.get(address)
        if limiter is None:
            if len(self._limiters) > ADDRESSES:
                self._limiters.clear()
            limiter = RateLimiter(config.reviews_per_minute / 60, config.review_burst, now)
            self._limiters[address] = limiter
        if not limiter.allow(now):
            raise SessionError("review_limited", "too many reviews asked for; wait a minute")

    def _finished(self, key: Key, future: asyncio.Future[dict[str, Any]]) -> None:
        del self._running[key]
        if future.cancelled() or future.exception() is not None:
            return
        self._done[key] = future.result()
        while len(self._done) > KEPT:
            self._done.popitem(last=False)
