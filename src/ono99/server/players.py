"""Players who come back, with no password: the HTTP side of profiles (docs/protocol.md,
"Players").

A first visit registers a display name (``POST /api/players``) and gets a random *player key*
back, which the browser keeps and sends as ``Authorization: Bearer KEY`` when it creates, joins
or presses Play now (its seat then counts for the profile) and to read or forget its own
profile. The server keeps only the key's SHA-256. Names are unique on the server as people read
them (``same_name``'s folding: "Ana", "ANA" and "Аna" with a Cyrillic А are one name) and pass
the operator's blocklist; someone without a key cannot sit down under a profile's name.

Another device gets its own key for the same profile from a one-time code (``POST
/api/me/link``, valid ten minutes, used once). "Forget me" (``DELETE /api/me``) deletes the
profile, its keys and ratings; its games stay, with its seats unnamed.

A key is never logged, never in a metric's label, and never sent to anyone but its holder.
"""

from __future__ import annotations

import secrets
import time  # wall-clock: a profile's date is shown, a link expires on any process
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..ratings import ordinal
from ..session import SessionError
from ..session.credentials import MAX_TOKEN_LENGTH, new_token, token_hash
from ..session.setup import check_edition, check_name, name_key
from ..storage import Store, StoredPlayer
from .endpoint import check_allowed_name, hub_of, json_body, rate_limit, refused

LINK_SECONDS = 600  # a one-time code to another device is good for ten minutes
RECENT = 20  # games a profile lists
LEADERS = 50  # rows of a leaderboard


def _store(request: Request) -> Store:
    return hub_of(request).store


def bearer(request: Request) -> str | None:
    """The player key the request carries (None: none)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, key = header.partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key or len(key) > MAX_TOKEN_LENGTH:
        raise SessionError("no_player", "send Authorization: Bearer and this browser's key")
    return key


def player_of(request: Request, *, required: bool = False) -> StoredPlayer | None:
    """The profile whose key the request carries: refused when the key is unknown here (the
    browser should forget it) or its profile is banned."""
    key = bearer(request)
    if key is None:
        if required:
            raise SessionError("no_player", "this needs a player key (register a name first)")
        return None
    player = _store(request).player_of_key(token_hash(key))
    if player is None:
        raise SessionError("no_player", "this player key is not known on this server")
    if player.banned:
        raise SessionError("banned", "this player may not play on this server")
    return player


def seat_name(request: Request, name: Any, player: StoredPlayer | None) -> Any:
    """The name a seat is taken under: a profile's own, or one that no profile holds."""
    if player is not None:
        return player.name
    if isinstance(name, str):
        held = _store(request).player_named(name_key(check_name(name)))
        if held is not None:
            raise SessionError(
                "name_held", f"{held.name!r} is a player of this server", name=held.name
            )
    return name


def _me(player: StoredPlayer) -> dict[str, Any]:
    return {"name": player.name, "since": player.created, "profile": f"/p/{player.name}"}


async def register(request: Request) -> Response:
    """``{"name": "Ana"}`` → 201 ``{"name", "key", ...}``: a new profile."""
    try:
        rate_limit(request)
        data = await json_body(request)
        if not isinstance(data, dict) or set(data) != {"name"}:
            raise SessionError("bad_request", "send {name}")
        name = check_name(data["name"])
        check_allowed_name(request, name)
        key = new_token()
        store, now = _store(request), time.time()
        if not store.add_player(
            secrets.token_urlsafe(12), name, name_key(name), token_hash(key), now
        ):
            raise SessionError("name_held", f"{name!r} is taken on this server", name=name)
        player = store.player_of_key(token_hash(key))
        assert player is not None
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse({**_me(player), "key": key}, status_code=201)


async def me(request: Request) -> Response:
    try:
        player = player_of(request, required=True)
        assert player is not None
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse(_me(player))


async def forget(request: Request) -> Response:
    """Forget me: the profile, its keys and ratings go; its games stay, unnamed."""
    try:
        rate_limit(request)
        player = player_of(request, required=True)
        assert player is not None
        _store(request).forget_player(player.id)
    except SessionError as exc:
        return refused(request, exc)
    return Response(status_code=204)


async def make_link(request: Request) -> Response:
    """A one-time code that gives another device a key of this profile."""
    try:
        rate_limit(request)
        player = player_of(request, required=True)
        assert player is not None
        code = new_token()
        _store(request).add_link(token_hash(code), player.id, time.time() + LINK_SECONDS)
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse({"code": code, "seconds": LINK_SECONDS, "link": f"/link#{code}"})


async def claim(request: Request) -> Response:
    """``{"code": …}`` from another device's link → a new key of that profile."""
    try:
        rate_limit(request)
        data = await json_body(request)
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= MAX_TOKEN_LENGTH:
            raise SessionError("bad_request", "send {code}")
        store, now = _store(request), time.time()
        owner = store.take_link(token_hash(code), now)
        player = store.player(owner) if owner is not None else None
        if player is None:
            raise SessionError("bad_link", "this link has been used or has expired")
        if player.banned:
            raise SessionError("banned", "this player may not play on this server")
        key = new_token()
        store.add_key(player.id, token_hash(key), now)
    except SessionError as exc:
        return refused(request, exc)
    return JSONResponse({**_me(player), "key": key})


def _rating(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {"rating": round(ordinal(mu, sigma), 2), "mu": mu, "sigma": sigma, "games": games}


async def profile(request: Request) -> Response:
    """A profile: games and wins per edition and number of players, ratings, recent games
    (finished ones only: each links to its replay and review)."""
    try:
        rate_limit(request)
        name = request.path_params.get("name", "")
        store = _store(request)
        player = store.player_named(name_key(check_name(name)))
        if player is None or player.hidden:
            raise SessionError("not_found", "there is no such player")
    except SessionError as exc:
        if exc.code == "bad_name":
            exc = SessionError("not_found", "there is no such player")
        return refused(request, exc)
    return JSONResponse(
        {
            "name": player.name,
            "since": player.created,
            "tally": [
                {"edition": e, "players": n, "games": g, "wins": w}
                for e, n, g, w in store.tally(player.id)
            ],
            "ratings": [
                {"edition": e, **_rating(*r)} for e, r in sorted(store.rated(player.id).items())
            ],
            "recent": [
                {
                    "code": r.code,
                    "game": r.game,
                    "seat": r.seat,
                    "edition": r.edition,
                    "players": r.players,
                    "place": r.place + 1,
                    "won": r.won,
                    "rated": r.rated,
                    "rating": None if r.rating is None else round(r.rating, 2),
                    "finished": r.finished,
                }
                for r in store.results_of(player.id, RECENT)
            ],
        }
    )


async def leaderboard(request: Request) -> Response:
    """``?edition=2022``: the rated, people and bots on one scale, the highest first."""
    try:
        rate_limit(request)
        edition = check_edition(request.query_params.get("edition", "2022"))
    except SessionError as exc:
        return refused(request, exc)
    rows = _store(request).leaderboard(edition, LEADERS)
    return JSONResponse(
        {
            "edition": edition,
            "leaders": [
                {
                    "name": name,
                    "bot": who[4:] if name is None else None,
                    **_rating(mu, sigma, games),
                }
                for who, name, mu, sigma, games in rows
            ],
        }
    )
