"""The review of a finished game over HTTP (docs/review.md): the library's review of the stored
record, never of a game still being played, worked out once per (table, game, seat, lens) off
the event loop, and limited per address and in how many run at once."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from ono99.engine import load_record
from ono99.server.config import ServerConfig
from ono99.server.reviews import Reviews
from ono99.session import SessionError
from ono99.sim.review import review_game
from server_support import TIMEOUT, Client, create_table, run, running_server


def finished_and_live(base: str, ws: str) -> str:
    """A table whose game 1 is over (the person's stand-in played it) and game 2 is on."""
    host = create_table(base, ["human", "greedy"], turn_seconds=0.05)

    async def main() -> None:
        client = await Client.open(ws, host["code"], host["token"])
        await client.send({"type": "start"})
        await client.expect("update", lambda m: m["view"]["over"], timeout=60)
        await client.send({"type": "again"})
        await client.expect("state", lambda m: m["game"] == 2)
        await client.close()

    run(main())
    return str(host["code"])


def get(base: str, code: str, game: int, **query: Any) -> httpx.Response:
    return httpx.get(f"{base}/api/tables/{code}/games/{game}/review", params=query, timeout=60)


def test_a_finished_games_review_is_the_librarys_and_a_live_game_has_none(tmp_path: Path) -> None:
    with running_server(tmp_path / "ono99.db", reviews_per_minute=0.01, review_burst=3) as server:
        base = server.url
        code = finished_and_live(base, server.ws_url)
        # The game still being played has no review, in either lens (nor any game that never was).
        for game, query in ((2, {"seat": 0}), (2, {"seat": 1, "lens": "known"}), (3, {"seat": 0})):
            r = get(base, code, game, **query)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        record = load_record(
            httpx.get(f"{base}/api/tables/{code}/games/1/record", timeout=TIMEOUT).text
        )
        r = get(base, code, 1, seat=0)
        assert r.status_code == 200, r.text
        review = r.json()
        assert review == {"code": code, "game": 1, **review_game(record, 0, seed=0).to_dict()}
        assert review["lens"] == "fair" and review["decisions"]
        known = get(base, code, 1, seat=1, lens="known").json()
        assert known["lens"] == "known" and known["seat"] == 1
        assert known == {"code": code, "game": 1, **review_game(record, 1, lens="known").to_dict()}
        # Bad asks are refused before any search.
        for query in ({}, {"seat": 2}, {"seat": "x"}, {"seat": 0, "lens": "future"}):
            r = get(base, code, 1, **query)
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request", query
        # A third new review still fits the burst of 3; the fourth is refused with its own code,
        # but the ones already worked out are answered again, as often as asked.
        assert get(base, code, 1, seat=1).status_code == 200
        r = get(base, code, 1, seat=0, lens="known")
        assert r.status_code == 429 and r.json()["error"]["code"] == "review_limited"
        for _ in range(3):
            assert get(base, code, 1, seat=0).json() == review


class Slow:
    """A review that takes until it is let go, on its worker thread."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.lens = "fair"
        self.go = threading.Event()
        self.calls = 0

    def compute(self) -> dict[str, Any]:
        self.calls += 1
        assert self.go.wait(10)
        return {"seat": self.seat}


def test_few_reviews_run_at_once_and_each_runs_once() -> None:
    async def main() -> None:
        reviews = Reviews(ServerConfig(review_workers=1, reviews_per_minute=0), lambda: 0.0)
        first = Slow(0)
        asks = [asyncio.ensure_future(reviews.answer("t", 1, first, "a")) for _ in range(3)]  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        # The event loop is free while it runs; another review must wait its turn.
        with pytest.raises(SessionError) as refused:
            await reviews.answer("t", 1, Slow(1), "b")  # type: ignore[arg-type]
        assert refused.value.code == "review_busy"
        first.go.set()
        assert await asyncio.gather(*asks) == [{"seat": 0}] * 3
        assert first.calls == 1
        second = Slow(1)
        second.go.set()
        assert await reviews.answer("t", 1, second, "b") == {"seat": 1}  # type: ignore[arg-type]
        assert await reviews.answer("t", 1, first, "c") == {"seat": 0}  # type: ignore[arg-type]
        assert first.calls == 1

    asyncio.run(asyncio.wait_for(main(), 30))
