"""What a bot is: something that picks one of a seat's legal actions from that seat's view.

Bots receive a ``View`` and nothing else, so they cannot see hidden cards by construction.
The one exception has a protocol of its own: an ``OmniscientBot`` (the oracle, which measures
the ceiling of skill) is handed the whole state and has no ``choose`` at all, so asking a bot
for a move from a view never fails. The game loop (``ono99.sim.driver``) tells them apart by
type; the registry's ``BotInfo.sees_all`` says which registered bots are omniscient.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol, TypeAlias

from ..engine import Action, State, View


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Action:
        """One of ``view.legal``."""
        ...


class OmniscientBot(ABC):
    """A bot that plays from the whole state: every hand and the draw pile. Never an
    opponent (RULES.md V1 holds for everyone a person plays against); only tournaments seat
    one, to measure how much the hidden information is worth."""

    name: str

    @abstractmethod
    def choose_state(self, state: State, seat: int) -> Action:
        """One of ``legal_actions(state, seat)``."""


Agent: TypeAlias = Bot | OmniscientBot  # whatever can sit at a seat the game loop drives
