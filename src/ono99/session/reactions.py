"""Quick reactions a seated person may send, shown on their seat: one of a fixed few (nothing
typed freely), at most one each ``REACTION_SECONDS``. Nothing is stored."""

from __future__ import annotations

from typing import Any

from .errors import SessionError

REACTIONS = ("👍", "👏", "😮", "😂", "🎉", "😬", "🙈", "🔥")
REACTION_SECONDS = 2.0


class Reactions:
    def __init__(self) -> None:
        self._reacted: dict[int, float] = {}  # seat: when it last reacted

    def react(self, seat: int | None, reaction: str, now: float) -> dict[str, Any]:
        """``seat`` (None: a spectator, refused) reacts; the message to announce."""
        if seat is None:
            raise SessionError("not_seated", "spectators cannot react")
        if reaction not in REACTIONS:
            raise SessionError(
                "bad_request", "reaction must be one of the offered ones", reactions=REACTIONS
            )
        last = self._reacted.get(seat)
        if last is not None and now - last < REACTION_SECONDS:
            raise SessionError("rate_limited", "one reaction at a time; slow down")
        self._reacted[seat] = now
        return {"type": "reaction", "seat": seat, "reaction": reaction}
