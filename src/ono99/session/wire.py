"""What a table sends: the ``table``, ``state`` and ``update`` messages of docs/protocol.md,
built from a ``Table`` (session/table.py) as each audience may see it.

A seat's messages carry ``view(state, seat)`` and the public events only (``encode.py``):
never another hand, the draw pile or the seed. Spectators (``None``) get the view of nobody.
"""

from __future__ import annotations

from typing import Any

from ..engine import view
from .credentials import same_hash
from .effects import Step
from .encode import encode_events, encode_view
from .phases import LOBBY, OVER, PLAYING
from .table import Table


def table_message(table: Table, now: float) -> dict[str, Any]:
    host_seat = next(
        (s.index for s in table.seats if same_hash(s.token_hash, table.host_hash)), None
    )
    return {
        "type": "table",
        "code": table.code,
        "phase": table.phase,
        "game": table.game,
        "host_seat": host_seat,
        "rules": table.rules.to_dict(minimal=False),
        "turn_seconds": table.config.turn_seconds,
        "hints": table.config.hints,
        "tally": list(table.wins),
        "pause": table.pause.to_json(table.seating.people(), now),
        "seats": [s.to_json() for s in table.seats],
        "turn": turn_info(table, now),
        "next": next_info(table, now),
        "public": table.config.public,
        "rated": table.config.rating,
        "quick": quick_info(table, now),
    }


def quick_info(table: Table, now: float) -> dict[str, Any] | None:
    """A table Play now opened, in its lobby: which bots fill its open seats, and when."""
    quick = table.config.quick
    if quick is None or table.phase != LOBBY or table.fill_due is None:
        return None
    return {"bot": quick.bot, "ms_left": max(0, round((table.fill_due - now) * 1000))}


def next_info(table: Table, now: float) -> dict[str, Any] | None:
    """Between games: who is ready for the next one, and the host's countdown to it."""
    if table.phase != OVER:
        return None
    left = None if table.countdown is None else max(0, round((table.countdown - now) * 1000))
    return {"ready": sorted(table.ready), "waiting": table.waiting_for(), "ms_left": left}


def state_message(table: Table, seat: int | None, now: float) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may know of the current game."""
    if table.state is None:
        return {"type": "state", "game": 0, "moves": 0, "view": None, "log": [], "by": []}
    v = view(table.state, seat)
    return {
        "type": "state",
        "game": table.game,
        "moves": table.state.moves,
        "view": encode_view(v),
        "log": encode_events(v.events),
        "by": list(table.by),
        "turn": turn_info(table, now),
    }


def update_messages(
    table: Table, step: Step, audiences: list[int | None], now: float
) -> dict[int | None, dict[str, Any]]:
    """The message announcing ``step`` to each audience (a seat, or None: spectators)."""
    state = step.state
    common = {
        "type": "update",
        "game": table.game,
        "moves": state.moves,
        "seat": step.seat,
        "action": step.action,
        "by": step.by,
        "events": encode_events(state.events(step.first_event)),
        "turn": turn_info(table, now),
    }
    return {a: {**common, "view": encode_view(view(state, a))} for a in audiences}


def turn_info(table: Table, now: float) -> dict[str, Any] | None:
    if table.phase != PLAYING or table.state is None:
        return None
    seat = table.state.to_play
    deadline = table.clock.turn_deadline
    return {
        "seat": seat,
        "seconds": table.config.turn_seconds or None,
        "ms_left": None if deadline is None else max(0, round((deadline - now) * 1000)),
        "auto": seat is not None and table.seats[seat].auto,
    }
