"""Messages from a browser over the websocket: size limit, JSON, schema (docs/protocol.md).

``parse_message`` turns one text frame into a ``Command`` or raises ``SessionError`` with
code ``too_big``, ``bad_json`` or ``bad_request``. Nothing here touches a table: a message
that passes is only well formed; whether it is allowed is the table's decision.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from .credentials import MAX_TOKEN_LENGTH
from .errors import SessionError

MAX_MESSAGE_BYTES = 2048
MAX_ID_LENGTH = 40

# Each command type and its fields: name -> allowed JSON types (besides "type" and "id").
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"token": (str,)},
    "act": {"action": (str,), "moves": (int,)},
    "start": {},
    "again": {},
    "seat": {"seat": (int,), "kind": (str,), "bot": (str,)},
    "leave": {},
    "relink": {"seat": (int,)},
    "hint": {},
    "react": {"reaction": (str,)},
    "ready": {},
    "continue": {},
    "configure": {"config": (dict,)},
    "ping": {},
}
_REQUIRED = {
    "act": ("action",),
    "seat": ("seat", "kind"),
    "react": ("reaction",),
    "relink": ("seat",),
    "configure": ("config",),
}
_MAX_TEXT = {"token": MAX_TOKEN_LENGTH, "action": 40, "kind": 10, "bot": 40, "reaction": 8}


class Command(NamedTuple):
    type: str
    id: str | int | None = None
    token: str | None = None
    action: str | None = None
    moves: int | None = None
    seat: int | None = None
    kind: str | None = None
    bot: str | None = None
    reaction: str | None = None
    config: dict[str, Any] | None = None  # configure: the new rules, timer and hints


def parse_message(frame: str | bytes) -> Command:
    if isinstance(frame, bytes):
        if len(frame) > MAX_MESSAGE_BYTES:
            raise _too_big()
        try:
            frame = frame.decode("utf-8")
        except UnicodeDecodeError:
            raise SessionError("bad_json", "a message must be UTF-8 JSON text") from None
    if len(frame) > MAX_MESSAGE_BYTES or len(frame.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise _too_big()
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        raise SessionError("bad_json", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise SessionError("bad_json", "a message must be one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise SessionError(
            "bad_request",
            f"unknown message type; the types are {', '.join(_FIELDS)}",
            types=list(_FIELDS),
        )
    ref = data.get("id")
    if ref is not None and not _valid_id(ref):
        raise SessionError("bad_request", "id must be a short string or a whole number")
    fields = _FIELDS[kind]
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("type", "id"):
            continue
        allowed = fields.get(key)
        if allowed is None:
            raise SessionError("bad_request", f"{kind!r} has no field {key[:40]!r}")
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, allowed):
            raise SessionError("bad_request", f"{kind}.{key} has the wrong type")
        if isinstance(value, str) and len(value) > _MAX_TEXT.get(key, 40):
            raise SessionError("bad_request", f"{kind}.{key} is too long")
        if isinstance(value, int) and not 0 <= value < 2**31:
            raise SessionError("bad_request", f"{kind}.{key} is out of range")
        values[key] = value
    for key in _REQUIRED.get(kind, ()):
        if key not in values:
            raise SessionError("bad_request", f"{kind} needs {key!r}")
    return Command(type=kind, id=ref, **values)


def message_id(frame: str | bytes) -> str | int | None:
    """The ``id`` of a frame that ``parse_message`` refused, when it has a valid one: its
    error answers with it (a client matches answers to what it sent)."""
    if len(frame) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    ref = data.get("id") if isinstance(data, dict) else None
    return ref if ref is not None and _valid_id(ref) else None


def _valid_id(ref: Any) -> bool:
    if isinstance(ref, bool):
        return False
    if isinstance(ref, int):
        return 0 <= ref < 2**53
    return isinstance(ref, str) and len(ref) <= MAX_ID_LENGTH


def _too_big() -> SessionError:
    return SessionError(
        "too_big", f"a message may be at most {MAX_MESSAGE_BYTES} bytes", limit=MAX_MESSAGE_BYTES
    )


class RateLimiter:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second. Time is
    passed in, so it is as testable as the rest of the core."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now
        self.refused = 0  # messages refused so far

    def allow(self, now: float) -> bool:
        if self.rate <= 0:
            return True
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False
