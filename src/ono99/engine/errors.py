"""The errors the engine raises. All are ``ValueError`` subclasses, so callers that only
care about "bad input" can catch ``ValueError``; each message is one line saying what was
wrong."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action


class Ono99Error(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(Ono99Error):
    """A card or action name that does not parse (RULES.md N1, N2)."""


class RulesError(Ono99Error):
    """An option set that makes no sense (RULES.md §8). ``option`` names the culprit."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"option {option!r}: {message}")
        self.option = option


class SetupError(Ono99Error):
    """A seed, dealer, deck or reshuffle order that cannot start or continue a game (N3).
    ``where`` names the bad input, e.g. ``decks[1]`` or ``reshuffles[0]``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.detail = message


class PositionError(Ono99Error):
    """A position text, or the parts of a position, that make no state the game can be in
    (``position.py``). ``where`` names the field, e.g. ``hands`` or ``total``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.detail = message


class IllegalActionError(Ono99Error):
    """An action that the seat may not take in this state; the state is left as it was. The
    message says who tried what, and why not; the same as data, for each interface to word in
    its own language: ``seat`` and ``action`` (what was tried), ``code`` (a key of
    ``engine.REASONS``, e.g. ``"too_high"``), ``rule`` (its RULES.md ID, e.g. ``"T1"``) and
    ``params`` (public facts, e.g. ``{"card": "10", "total": 95, "after": 105,
    "max_total": 98}``). The batch simulator, which does not say why, uses its own codes
    (``ono99.sim.fast.FastBatch``)."""

    def __init__(
        self,
        message: str,
        *,
        seat: object,
        action: Action | None,
        code: str,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.code = code
        self.rule = rule
        self.params = params or {}

    def __reduce__(self) -> tuple[Any, ...]:
        # The fields are keyword-only: spell them out, so that the error survives pickling
        # (a tournament worker's error travels back to the parent process).
        rebuild = partial(
            IllegalActionError,
            seat=self.seat,
            action=self.action,
            code=self.code,
            rule=self.rule,
            params=self.params,
        )
        return rebuild, (str(self),)


class RecordError(Ono99Error):
    """A game record that breaks N3. ``where`` names the first bad entry, e.g.
    ``actions[12]``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
