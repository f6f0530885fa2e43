"""What a bot is: something that picks one of a seat's legal actions from that seat's view.

Bots receive a ``View`` and nothing else, so they cannot see hidden cards by construction.
"""

from __future__ import annotations

from typing import Protocol

from ..engine import Action, View


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Action:
        """One of ``view.legal``."""
        ...
