"""Hints for the browser (``{"type": "hint"}``, docs/protocol.md): the expert's search for a
seat's decision, from that seat's view alone (``session.hint.Hint``), run on a worker thread
once per decision however often it is asked for (a reload, a second tab): a search costs a
CPU-quarter-second, and the event loop must never wait for one."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from typing import Any

from ..session import SessionError
from ..session.encode import dumps
from ..session.hint import Hint, prepare_hints
from .pubsub import Subscriber

log = logging.getLogger("ono99.server")
KEPT = 256  # searches kept for a repeated ask


class Hints:
    def __init__(self) -> None:
        # Searched, or being searched, per (table, game, moves, seat).
        self._searches: OrderedDict[tuple[str, int, int, int], asyncio.Future[dict[str, Any]]] = (
            OrderedDict()
        )
        self.prepared = threading.Event()  # the search has loaded (or failed to)

    def warm(self) -> None:
        """One search on a thread of its own, so that the first hint asked for does not wait
        while the search loads (``session.hint.prepare_hints``). A daemon: stopping the
        server does not wait for it."""
        threading.Thread(
            target=_prepare, args=(self.prepared,), name="ono99-hints", daemon=True
        ).start()

    async def answer(self, code: str, hint: Hint, sub: Subscriber, ref: Any) -> None:
        """Search ``hint`` (once per decision) and send the answer to ``sub`` alone, with the
        ``id`` of the ask (``ref``)."""
        key = (code, hint.game, hint.moves, hint.seat)
        search = self._searches.get(key)
        if search is None:
            search = asyncio.ensure_future(asyncio.to_thread(hint.compute))
            self._searches[key] = search
            while len(self._searches) > KEPT:
                self._searches.popitem(last=False)
        try:
            message = await asyncio.shield(search)
        except Exception:
            log.exception("table %s: a hint failed", code)
            self._searches.pop(key, None)
            error = SessionError("server_error", "the hint could not be worked out")
            sub.send(dumps({"type": "error", **error.to_json(), "id": ref}))
            return
        sub.send(dumps({**message, "id": ref} if ref is not None else message))


def _prepare(done: threading.Event) -> None:
    try:
        prepare_hints()
    except Exception:
        log.exception("preparing the hints failed; the first hint will prepare them")
    finally:
        done.set()
