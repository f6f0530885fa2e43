"""The operator's names blocklist (``--blocked-names FILE``), read again when the file
changes, so that a name added while the server runs is refused from the next request on, on
every process (each reads the file itself). The matching is the session's
(``session/blocklist.py``)."""

from __future__ import annotations

import logging
import os
import time

from ..session.blocklist import Blocklist

_log = logging.getLogger(__name__)
LOOK_EVERY = 1.0  # seconds between looks at the file's modification time


class BlockedNames:
    def __init__(self, path: str | None) -> None:
        self.path = path
        self.list = Blocklist()
        self._stamp: tuple[int, int] | None = None
        self._looked = 0.0
        self._look()

    def _look(self) -> None:
        if self.path is None:
            return
        self._looked = time.monotonic()
        try:
            st = os.stat(self.path)
            stamp = (st.st_mtime_ns, st.st_size)
            if stamp == self._stamp:
                return
            with open(self.path, encoding="utf-8", errors="replace") as f:
                self.list = Blocklist.parse(f.read())
            self._stamp = stamp
            _log.info("names blocklist read: %d entries", len(self.list))
        except OSError as exc:  # keep the list last read: a name is never let in by a typo
            _log.warning("names blocklist %s unreadable: %s", self.path, exc.strerror)

    def check(self, name: object) -> None:
        """Refuse ``name`` (``name_blocked``) when the list blocks it; a name that is not
        text is left for the usual checks to refuse."""
        if self.path is None or not isinstance(name, str):
            return
        if time.monotonic() - self._looked >= LOOK_EVERY:
            self._look()
        self.list.check(name)
