"""Messages written straight to the socket (server/protocols.py's ``FRAMES``, issue 42): the
lobby's list framed once for all its watchers, any message written at once when nothing waits
before it. The frame is checked against the websockets library's own; a real server's
connections take the straight way; and a reader who stops is still closed with 1013."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request
from websockets.server import ServerProtocol

from ono99.server import lobby as lobby_module
from ono99.server.protocols import text_frame
from server_support import TIMEOUT, running_server

TEXTS = [
    "",
    "x",
    "a" * 125,  # the longest length said in the frame's second byte
    "a" * 126,  # the shortest said in two bytes more
    "b" * 65535,
    "c" * 65536,  # the shortest said in eight bytes more
    json.dumps({"type": "lobby", "tables": [{"names": ["Αλέξης", "Անի", "Ngọc", "आई"]}]}),
    "d" * 300_000,
]


def _library_frame(text: str) -> bytes:
    """What the websockets library's server protocol writes for ``text`` (the first
    implementation: uvicorn writes its bytes)."""
    server = ServerProtocol()
    server.receive_data(
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    [request] = server.events_received()
    assert isinstance(request, Request)
    server.send_response(server.accept(request))
    server.data_to_send()  # the handshake's answer
    server.send_text(text.encode())
    return b"".join(server.data_to_send())


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t)} chars")
def test_a_frame_made_once_is_the_library_s_own(text: str) -> None:
    assert text_frame(text) == _library_frame(text)


def _public_table(base: str) -> None:
    body = {"seats": [{"kind": "human"}] * 4, "name": "Ana", "turn_seconds": 0, "public": True}
    r = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text


def test_the_lobby_s_watchers_are_written_to_straight(tmp_path: Path) -> None:
    with running_server(tmp_path / "t.db") as server:
        lobby = server.app.state.lobby  # type: ignore[attr-defined]

        async def main() -> None:
            watchers = [await connect(f"{server.ws_url}/ws/lobby") for _ in range(20)]
            for ws in watchers:
                assert json.loads(await ws.recv()) == {"type": "lobby", "tables": []}
            conns = list(lobby.watchers)
            assert len(conns) == 20
            assert all(c.write_frame is not None for c in conns), "the scope offers FRAMES"
            await asyncio.to_thread(_public_table, server.url)
            for ws in watchers:
                listed = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                assert listed["type"] == "lobby" and len(listed["tables"]) == 1
            # Nothing went by the queue and the writer task: all of it was written at once.
            assert all(c.queue.empty() and not c.writing for c in conns)
            for ws in watchers:
                await ws.close()

        asyncio.run(main())


def test_a_lobby_watcher_that_stops_reading_is_closed_with_1013(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written straight to the socket while it takes them, the lists wait in the queue once
    the socket's buffer is full (uvicorn pauses its writing), and past ``queue_limit`` the
    watcher is closed with 1013 and let go, as any connection that does not read."""
    monkeypatch.setattr(lobby_module, "GATHER", 0.0)  # every change its own list: many, soon
    with running_server(tmp_path / "t.db", queue_limit=4) as server:
        held: dict[str, int] = server.app.state.sockets.counts  # type: ignore[attr-defined]
        server.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)

        async def main() -> None:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            async with connect(
                f"{server.ws_url}/ws/lobby", sock=sock, ping_interval=None, max_size=None
            ) as ws:
                await ws.recv()
                assert held == {"127.0.0.1": 1}
                ws.transport.pause_reading()
                end = time.monotonic() + TIMEOUT
                opened = 0
                while held and time.monotonic() < end:  # each table a longer list
                    await asyncio.to_thread(_public_table, server.url)
                    opened += 1
                assert not held, f"still held after {opened} lists it did not read"
                ws.transport.resume_reading()
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013

        asyncio.run(main())
