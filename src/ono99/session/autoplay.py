"""Who moves for a seat no person plays just now: the seat's own bot, or the stand-in
(``Settings.stand_in``) for a person whose timer ran out, who is away, or whose seat was left
open during a game. The table says when a move is due (``clock.py``); a ``Move`` is what the
caller asks the bot, perhaps on another thread, before handing the choice back to the table.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..bots import Bot, make_opponent
from ..engine import Action, State, View, view
from .seats import Seat
from .setup import BOT


class Move(NamedTuple):
    """A move the table wants made by a bot: ask ``choose()`` (off the event loop: a search
    may take a while), then ``complete``."""

    seat: int
    by: str  # "bot", "timer" or "away"
    bot: Bot
    view: View
    game: int
    moves: int

    def choose(self) -> Action:
        """The bot's choice for this move, from the seat's view."""
        return self.bot.choose(self.view)


class Autoplay:
    """The bots of one table's current game: each bot seat's own, and the stand-ins, made
    when first needed. A new game gets new ones (``reset``), each from a fresh seed."""

    def __init__(self, stand_in: str, make: Callable[[str, int], Bot] = make_opponent) -> None:
        self.stand_in = stand_in  # the registry name of the stand-in bot
        self.make = make  # a bot by its registry name and a seed (``Settings.make_bot``)
        self._bots: dict[int, Bot] = {}
        self._stand_ins: dict[int, Bot] = {}

    def reset(self, seats: Sequence[Seat]) -> None:
        self._bots = {
            s.index: self.make(s.bot, secrets.randbits(63))
            for s in seats
            if s.kind == BOT and s.bot is not None
        }
        self._stand_ins = {}

    def move(self, state: State, seats: Sequence[Seat], game: int, seat: int, timer: bool) -> Move:
        """The move due at ``seat`` in game ``game`` (``timer``: its person's turn timer ran
        out), and the bot that makes it."""
        by = "timer" if timer else "bot" if seats[seat].kind == BOT else "away"
        bot = self._bots[seat] if by == "bot" else self._stand_in(seat)
        return Move(seat, by, bot, view(state, seat), game, state.moves)

    def _stand_in(self, seat: int) -> Bot:
        bot = self._stand_ins.get(seat)
        if bot is None:
            bot = self._stand_ins[seat] = self.make(self.stand_in, secrets.randbits(63))
        return bot
