"""The one error type of the session core: a code for programs and clients, a line of English
for people reading logs, and the parameters a client needs to say it in its own language."""

from __future__ import annotations

from typing import Any


class SessionError(ValueError):
    """A command that was refused. It changed nothing. ``code`` is one of the codes listed in
    docs/protocol.md; ``params`` are JSON values a client may show (never hidden cards)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = self.params
        return out
