"""A person's request for the expert's hint at one decision (``Table.hint``): searched from
that seat's view alone, off the event loop (``server/hints.py``), and sent to that person only.
"""

from __future__ import annotations

import secrets
from typing import Any, NamedTuple

from ..bots.expert import advisor, warm_advisor
from ..engine import View


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
