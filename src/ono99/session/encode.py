"""Engine values as the JSON the browser reads (docs/protocol.md).

A live game reaches a connection only through ``encode_view(view(state, seat))`` and the
public events (``encode_event``): never a hand but the seat's own, never the draw pile or
the seed. Finished games may be shown whole (``replay_steps``), hands and all.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import (
    CARD_NAMES,
    CW,
    Event,
    Record,
    RecordError,
    View,
    load_record,
    replay_states,
    view,
)
from ..engine.state import State
from .errors import SessionError


def dumps(message: dict[str, Any]) -> str:
    """A message as the text a connection receives: compact JSON, UTF-8 as it is."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def cards(ids: tuple[int, ...] | list[int]) -> list[str]:
    return [CARD_NAMES[c] for c in ids]


def encode_view(v: View) -> dict[str, Any]:
    """Everything a seat (or a spectator, ``seat`` null) may see now (RULES.md V1)."""
    return {
        "seat": v.seat,
        "round": v.round,
        "dealer": v.dealer,
        "total": v.total,
        "direction": "cw" if v.direction == CW else "ccw",
        "to_play": v.to_play,
        "owed": v.owed,
        "second_card": v.second_card,  # P1: the first of two owed cards is down
        "ono99_played": v.ono99_played,
        "hand": None if v.hand is None else cards(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "status": list(v.status),
        "laid_down": [cards(h) for h in v.laid_down],
        "tokens": None if v.tokens is None else list(v.tokens),
        "scores": None if v.scores is None else list(v.scores),
        "out": list(v.out),
        "out_of_round": list(v.out_of_round),
        "owes_draw": list(v.owes_draw),
        "draw_pile": v.draw_pile,
        "discard_top": CARD_NAMES[v.discard_pile[-1]] if v.discard_pile else None,
        "discard_size": len(v.discard_pile),
        "over": v.over,
        "winners": list(v.winners),
        "legal": [str(a) for a in v.legal],
    }


def encode_event(e: Event) -> dict[str, Any]:
    """One public event, structured (the client words it in the reader's language)."""
    out: dict[str, Any] = {"kind": e.kind}
    if e.seat is not None:
        out["seat"] = e.seat
    if e.card is not None:
        out["card"] = CARD_NAMES[e.card]
    if e.total is not None:
        out["total"] = e.total
    data = e.data
    if e.kind == "play" and data is not None:
        out["how"] = data  # "deflect" or "bust"
    elif e.kind == "deal":
        out["round"] = data
    elif e.kind == "reshuffle":
        out["cards"] = data
    elif e.kind == "eliminated":
        out["hand"] = cards(data)
    elif e.kind == "round_end":
        round_, points = data
        out["round"] = round_
        out["points"] = None if points is None else list(points)
    elif e.kind == "lost_token":
        out["tokens_left"] = data
    elif e.kind == "over":
        out["winners"] = list(data)
    return out


def encode_events(events: list[Event]) -> list[dict[str, Any]]:
    return [encode_event(e) for e in events]


def full_state(state: State) -> dict[str, Any]:
    """A finished game's state with every hand face up: for replays only."""
    return {
        "round": state.round,
        "dealer": state.dealer,
        "total": state.total,
        "direction": "cw" if state.direction == CW else "ccw",
        "to_play": state.to_play,
        "owed": state.owed,
        "second_card": view(state).second_card,
        "hands": [cards(h) for h in state.hands],
        "status": list(state.status),
        "tokens": None if state.tokens is None else list(state.tokens),
        "scores": None if state.scores is None else list(state.scores),
        "owes_draw": list(state.owes_draw),
        "draw_pile": state.draw_pile_size,
        "discard_top": CARD_NAMES[state.discard[-1]] if state.discard else None,
        "discard_size": len(state.discard),
        "over": state.over,
        "winners": list(state.winners),
    }


def replay_steps(record: Record) -> list[dict[str, Any]]:
    """Every step of a finished game: the action, the public events it caused, and the
    state after it with all hands shown. Step 0 is the deal."""
    steps: list[dict[str, Any]] = []
    seen = 0
    for i, state in enumerate(replay_states(record)):
        events = state.events(seen)
        seen += len(events)
        step: dict[str, Any] = {"moves": i, "events": encode_events(events)}
        if i:
            seat, action = record.actions[i - 1]
            step["seat"] = seat
            step["action"] = str(action)
        step["state"] = full_state(state)
        steps.append(step)
    return steps


def encode_replay(text: str) -> dict[str, Any]:
    """A finished game's stored record as the replay the browser shows: the rules in full,
    who played (the record's ``meta``), and every step (``replay_steps``). A record that does
    not load is a ``server_error``: it came from our own database."""
    try:
        record = load_record(text)
    except RecordError:
        raise SessionError("server_error", "the stored record is damaged") from None
    meta = record.meta
    return {
        "rules": record.rules.to_dict(minimal=False),
        "names": meta.get("names"),
        "players": meta.get("players"),
        "by": meta.get("by"),
        "steps": replay_steps(record),
    }
