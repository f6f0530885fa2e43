"""Table codes and seat tokens: random, unguessable, and never stored in the clear.

A table code is short enough to read out (twelve characters from an alphabet without
look-alikes, about 59 bits) and is what an invite link holds. A seat token is a 192-bit
``secrets.token_urlsafe`` string; only its SHA-256 is kept, so a copy of the database does
not let anyone take a seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i
CODE_LENGTH = 12
TOKEN_BYTES = 24
MAX_TOKEN_LENGTH = 64


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str | None:
    """The code in ``text`` ("ABCD-EFGH-JKMN", with any case and dashes or spaces), or None
    when it cannot be one."""
    if not isinstance(text, str) or len(text) > 3 * CODE_LENGTH:
        return None
    code = "".join(ch for ch in text.lower() if ch not in "- ")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def same_hash(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and hmac.compare_digest(a, b)


def new_seed() -> int:
    """The seed of a live game: from ``secrets``, never sent to anyone before the game ends."""
    return secrets.randbits(63)
