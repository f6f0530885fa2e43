"""What every HTTP endpoint does with its request: find the hub and the settings, rate-limit
the address, read a bounded JSON body, check a name against the blocklist, and answer a
refusal as ``{"error": {"code", "message", "params"?}}`` with a fitting status."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from ..session import RateLimiter, SessionError
from .config import ServerConfig
from .hub import Hub
from .metrics import Metrics
from .names import BlockedNames

_STATUS = {
    "not_found": 404,
    "not_built": 404,
    "closed": 410,
    "bad_origin": 403,
    "timeout": 408,
    "too_big": 413,
    "rate_limited": 429,
    "too_many_tables": 429,
    "full": 409,
    "name_taken": 409,
    "name_held": 409,
    "already_seated": 409,
    "no_player": 401,
    "banned": 403,
    "removed": 403,
    "bad_link": 410,
    "started": 409,
    "busy": 503,
    "review_limited": 429,
    "review_busy": 503,
    "server_error": 500,
}


def error_response(exc: SessionError) -> JSONResponse:
    return JSONResponse({"error": exc.to_json()}, status_code=_STATUS.get(exc.code, 400))


def refused(request: Request, exc: SessionError) -> JSONResponse:
    metrics: Metrics = request.app.state.metrics
    metrics.refused(exc.code)
    return error_response(exc)


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def config_of(request: Request) -> ServerConfig:
    config: ServerConfig = request.app.state.config
    return config


def client_address(request: Request) -> str:
    """The client's address: the peer's, or what a trusted proxy says it saw (uvicorn reads
    X-Forwarded-For only from ``forwarded_allow_ips``)."""
    return request.client.host if request.client else "?"


def rate_limit(request: Request) -> None:
    """Creating, joining and looking tables up are rate-limited per client address."""
    config = config_of(request)
    if config.http_rate <= 0:
        return
    limiters: dict[str, RateLimiter] = request.app.state.limiters
    now = hub_of(request).now()
    host = client_address(request)
    limiter = limiters.get(host)
    if limiter is None:
        if len(limiters) > 10_000:
            limiters.clear()  # crude, but bounded
        limiter = limiters[host] = RateLimiter(config.http_rate, config.http_burst, now)
    if not limiter.allow(now):
        raise SessionError("rate_limited", "too many requests; slow down")


async def json_body(request: Request) -> Any:
    limit = config_of(request).max_body
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise SessionError("too_big", f"a request may be at most {limit} bytes", limit=limit)
    body = b""
    try:
        async with asyncio.timeout(config_of(request).header_timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise SessionError(
                        "too_big", f"a request may be at most {limit} bytes", limit=limit
                    )
    except TimeoutError:
        raise SessionError("timeout", "the request's body came too slowly") from None
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise SessionError("bad_json", "the request must be JSON") from None


def check_allowed_name(request: Request, name: object) -> None:
    blocked: BlockedNames = request.app.state.blocked_names
    blocked.check(name)
