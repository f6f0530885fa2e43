"""The multiplayer core without I/O: tables, seats, commands in, events out.

``Table`` holds one table and its current game; ``parse_message`` checks what a browser
sends; ``encode_view`` / ``encode_event`` (and ``encode_replay`` for a finished game,
``review_request`` for its review) are the only way game facts become JSON for a connection;
``rule_options`` says what a table's rules may be. The server (``ono99.server``) decodes,
calls this core, stores the changes it returns, and only then fans the announcements out — it
imports the session and storage, never the engine or the bots (docs/architecture.md).
"""

from .autoplay import Move
from .credentials import new_code, normalize_code, token_hash
from .effects import (
    ActionTaken,
    Change,
    Effects,
    GameFinished,
    GameStarted,
    ListingChanged,
    SeatChanged,
    Step,
    TableClosed,
    TableCreated,
)
from .encode import encode_event, encode_events, encode_replay, encode_view, replay_steps
from .errors import SessionError
from .phases import LOBBY, OVER, PLAYING
from .protocol import MAX_MESSAGE_BYTES, Command, RateLimiter, message_id, parse_message
from .quick import Listing, QuickRequest, listing, parse_quick_request, quick_config
from .review import ReviewRequest, review_request
from .seats import Identity, Seat
from .setup import (
    BOT,
    HUMAN,
    TURN_CHOICES,
    SeatSetup,
    TableConfig,
    parse_table_request,
    rule_options,
)
from .table import Settings, Table

__all__ = [
    "BOT",
    "HUMAN",
    "LOBBY",
    "MAX_MESSAGE_BYTES",
    "OVER",
    "PLAYING",
    "TURN_CHOICES",
    "ActionTaken",
    "Change",
    "Command",
    "Effects",
    "GameFinished",
    "GameStarted",
    "Identity",
    "Listing",
    "ListingChanged",
    "Move",
    "QuickRequest",
    "RateLimiter",
    "ReviewRequest",
    "Seat",
    "SeatChanged",
    "SeatSetup",
    "SessionError",
    "Settings",
    "Step",
    "Table",
    "TableClosed",
    "TableConfig",
    "TableCreated",
    "encode_event",
    "encode_events",
    "encode_replay",
    "encode_view",
    "listing",
    "message_id",
    "new_code",
    "normalize_code",
    "parse_message",
    "parse_quick_request",
    "parse_table_request",
    "quick_config",
    "replay_steps",
    "review_request",
    "rule_options",
    "token_hash",
]
