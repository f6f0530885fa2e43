"""The HTTP side: the options a table can have, creating and joining tables, public table
facts, and the records, replays and reviews of *finished* games (never of one still being
played).
Errors are ``{"error": {"code", "message", "params"?}}`` with a fitting status."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..session import (
    MAX_MESSAGE_BYTES,
    TURN_CHOICES,
    Effects,
    SessionError,
    Table,
    encode_replay,
    normalize_code,
    parse_quick_request,
    parse_table_request,
    review_request,
    rule_options,
    wire,
)
from ..session.setup import DEFAULT_TURN_SECONDS, MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from .endpoint import (
    check_allowed_name,
    client_address,
    config_of,
    hub_of,
    json_body,
    rate_limit,
    refused,
)
from .limits import Counts
from .lobby import Lobby
from .metrics import Metrics
from .players import player_of, seat_name
from .quick import Matcher
from .reviews import Reviews


def _table_code(request: Request) -> str:
    code = normalize_code(request.path_params.get("code", ""))
    if code is None:
        raise SessionError("not_found", "there is no such table")
    return code


async def options(request: Request) -> Response:
    hub = hub_of(request)
    low, high = config_of(request).turn_limits
    return JSONResponse(
        {
            **rule_options(),
            "players": {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "default": 4},
            "bots": list(hub.settings.bots),
            "stand_in": hub.settings.stand_in,
            "turn": {
                "choices": [c for c in TURN_CHOICES if c == 0 or low <= c <= high],
                "default": DEFAULT_TURN_SECONDS,
                "low": low,
                "high": high,
            },
            "limits": {"name": MAX_NAME, "message_bytes": MAX_MESSAGE_BYTES},
            "quick": {"wait": config_of(request).quick_wait},
        }
    )


async def create_table(request: Request) -> Response:
    try:
        rate_limit(request)
        data = await json_body(request)
        hub = hub_of(request)
        config, name = parse_table_request(
            data, bots=hub.settings.bots, turn_limits=config_of(request).turn_limits
        )
        player = player_of(request)
        if name is not None:
            name = seat_name(request, name, player)
            check_allowed_name(request, name)
        counting = _check_open_tables(request)
        await _wait_turn(request)
        table, token, who = hub.create(config, name, player.id if player and name else None)
        if counting:
            _created(request).setdefault(client_address(request), []).append(table.code)
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse(
        {"code": table.code, "seat": who.seat, "host": True, "token": token}, status_code=201
    )


async def _wait_turn(request: Request) -> None:
    """Wait for this new table's turn on the process's pace (``server/limits.py``): at once
    unless many tables are being created, refused as ``busy`` if the wait would be long. While
    it waits it counts among its address's unfinished tables."""
    wait = request.app.state.pace.turn(hub_of(request).now())
    if wait is None:
        raise SessionError("busy", "the server is setting up many tables; try again in a minute")
    if wait <= 0:
        return
    creating: Counts = request.app.state.creating
    metrics: Metrics = request.app.state.metrics
    host = client_address(request)
    creating.take(host)
    metrics.creates_waiting.inc()
    try:
        await asyncio.sleep(wait)
    finally:
        creating.give_back(host)
        metrics.creates_waiting.dec()


def _created(request: Request) -> dict[str, list[str]]:
    """The codes of the tables each client address created here (this process only)."""
    created: dict[str, list[str]] = request.app.state.created
    return created


def _check_open_tables(request: Request) -> bool:
    """A client address may have ``max_open_tables`` tables not over at once: a family needs
    a few, a script filling the database needs many. Whether the limit is on."""
    most = config_of(request).max_open_tables
    if most <= 0:
        return False
    created, host, hub = _created(request), client_address(request), hub_of(request)
    if len(created) > 10_000 and host not in created:
        created.clear()  # as crude as the rate limiters', and as bounded
    mine = created.get(host, [])
    still = hub.store.unfinished(mine) if mine else set()  # one query: no table is loaded
    codes = [c for c in mine if c in still]
    if codes:
        created[host] = codes
    else:
        created.pop(host, None)  # forgotten: the map holds only addresses with open tables
    waiting: Counts = request.app.state.creating
    if len(codes) + waiting.get(host) >= most:
        raise SessionError(
            "too_many_tables", f"at most {most} unfinished tables per address", most=most
        )
    return True


async def join_table(request: Request) -> Response:
    try:
        rate_limit(request)
        code = _table_code(request)
        data = await json_body(request)
        if not isinstance(data, dict) or set(data) - {"name"}:
            raise SessionError("bad_request", "send {name}")
        player = player_of(request)
        name = seat_name(request, data.get("name"), player)
        check_allowed_name(request, name)
        hub = hub_of(request)
        profile = player.id if player else None

        def take_seat(table: Table) -> tuple[tuple[int, str], Effects]:
            seat, token, effects = table.join(name, hub.now(), profile)
            return (seat, token), effects

        seat, token = hub.mutate(code, take_seat)
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse({"code": code, "seat": seat, "host": False, "token": token})


async def play_now(request: Request) -> Response:
    """Play now (``server/quick.py``): a seat at the oldest public table waiting for the
    setting, or at a new one; the same answer as a create or a join."""
    try:
        rate_limit(request)
        data = await json_body(request)
        hub = hub_of(request)
        ask = parse_quick_request(data, bots=hub.settings.bots, default_bot=hub.settings.stand_in)
        player = player_of(request)
        ask = ask._replace(name=seat_name(request, ask.name, player))
        check_allowed_name(request, ask.name)
        counting = _check_open_tables(request)
        matcher: Matcher = request.app.state.matcher
        seated = await matcher.seat(ask, player.id if player else None)
        if counting and seated.host:
            _created(request).setdefault(client_address(request), []).append(seated.code)
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse(
        {"code": seated.code, "seat": seated.seat, "host": seated.host, "token": seated.token},
        status_code=201 if seated.host else 200,
    )


async def lobby_list(request: Request) -> Response:
    """The public tables waiting for players, the oldest first (``/ws/lobby`` keeps it live)."""
    try:
        rate_limit(request)
    except SessionError as exc:
        return refused(request, exc)
    lobby: Lobby = request.app.state.lobby
    return JSONResponse({"tables": lobby.listing()})


async def table_info(request: Request) -> Response:
    try:
        rate_limit(request)
        code = _table_code(request)
        hub = hub_of(request)
        table = hub.look(code)
        if table is None:
            raise hub.missing(code)
    except SessionError as exc:
        return refused(request, exc)
    info = wire.table_message(table, hub.now())
    del info["type"]
    info["games"] = [{"game": g, "finished": f} for g, f in hub.store.games(code)]
    return JSONResponse(info)


def _finished_record(request: Request) -> tuple[str, int, str]:
    code = _table_code(request)
    game_text = request.path_params.get("game", "")
    if not game_text.isdigit() or len(game_text) > 9:
        raise SessionError("not_found", "there is no such game")
    game = int(game_text)
    text = hub_of(request).store.record(code, game)
    if text is None:
        raise SessionError("not_found", "there is no finished game by that number")
    return code, game, text


async def game_record(request: Request) -> Response:
    try:
        code, game, text = _finished_record(request)
    except SessionError as exc:
        return refused(request, exc)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ono99-{code}-game{game}.json"'},
    )


async def game_replay(request: Request) -> Response:
    try:
        code, game, text = _finished_record(request)
        replay = encode_replay(text)
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse({"code": code, "game": game, **replay})


async def game_review(request: Request) -> Response:
    """A finished game's review for ``?seat=N&lens=fair|known`` (docs/review.md): worked out
    off the event loop, once, and limited (``server/reviews.py``)."""
    try:
        code, game, text = _finished_record(request)
        query = request.query_params
        ask = review_request(text, query.get("seat"), query.get("lens"))
        reviews: Reviews = request.app.state.reviews
        review = await reviews.answer(code, game, ask, client_address(request))
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse({"code": code, "game": game, **review})
