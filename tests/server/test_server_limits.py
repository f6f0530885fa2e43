"""Limits against abuse, over real sockets: which client address counts (a forged
X-Forwarded-For does not, a named proxy's does, behind a real nginx), the per-address and
per-table limits, a deadline for half-sent requests, and pages of other sites."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ono99.server.limits import Pace
from server_support import (
    ROOT,
    TIMEOUT,
    Client,
    ServerProcess,
    create_table,
    run,
    running_cluster,
    running_server,
)
from services import missing
from tiers import slow

BODY = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "turn_seconds": 0}


def post_table(base: str, client: httpx.Client | None = None, **headers: str) -> httpx.Response:
    send = client.post if client is not None else httpx.post
    return send(f"{base}/api/tables", json={**BODY, "name": "Ana"}, headers=headers)


def test_a_forged_forwarded_for_is_not_another_address(tmp_path: Path) -> None:
    """60 creates, each claiming another X-Forwarded-For, are one address: no proxy is
    named, so the header is nobody's word."""
    with running_server(tmp_path / "ono99.db", http_rate=0.01, http_burst=5) as server:
        codes = [
            post_table(server.url, **{"X-Forwarded-For": f"10.0.{i}.1"}).status_code
            for i in range(60)
        ]
    assert codes.count(201) == 5 and codes.count(429) == 55, codes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def deploy_nginx_headers() -> list[str]:
    """The proxy_* lines of docs/deploy.md's nginx example: the test runs what it says."""
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block is not None
    lines = [line.strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line.startswith("proxy_") and "proxy_pass" not in line]


@contextmanager
def nginx_in_front(backend: str, tmp: Path) -> Iterator[str]:
    """A real nginx on a free loopback port, proxying to ``backend`` as docs/deploy.md does."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        missing("nginx is not installed")
    port = free_port()
    headers = "\n".join(f"            {line}" for line in deploy_nginx_headers())
    (tmp / "logs").mkdir(exist_ok=True)
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"""
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass {backend};
{headers}
        }}
    }}
}}
"""
    )
    proc = subprocess.Popen(
        [nginx, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        end = time.monotonic() + TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    raise AssertionError(
                        f"nginx did not start: {proc.stderr and proc.stderr.read()}"
                    ) from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(TIMEOUT)
        if proc.stderr is not None:
            proc.stderr.close()


def from_address(host: str) -> httpx.Client:
    """HTTP from this source address (all of 127.0.0.0/8 is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=host), timeout=TIMEOUT)


def test_behind_nginx_each_client_has_its_own_address(tmp_path: Path) -> None:
    """``ono99 serve --forwarded-allow-ips 127.0.0.1`` behind nginx set up as docs/deploy.md
    says: two clients (127.0.0.1 and 127.0.0.2) count apart, and what a client writes in
    X-Forwarded-For itself changes nothing (nginx replaces it with the address it saw)."""
    server = ServerProcess(
        ["-m", "ono99", "serve", "--port", "0", "--db", str(tmp_path / "ono99.db")]
        + ["--forwarded-allow-ips", "127.0.0.1", "--max-open-tables", "2", "--http-rate", "0"]
    )
    try:
        with (
            nginx_in_front(server.url, tmp_path) as proxy,
            from_address("127.0.0.1") as one,
            from_address("127.0.0.2") as two,
        ):
            assert [post_table(proxy, one).status_code for _ in range(2)] == [201, 201]
            refused = post_table(proxy, one)
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "too_many_tables"
            # The other client is another address, even when it claims to be the first.
            assert post_table(proxy, two, **{"X-Forwarded-For": "127.0.0.1"}).status_code == 201
            assert post_table(proxy, two).status_code == 201
            # ... and claiming a fresh address does not free it from its own count.
            forged = post_table(proxy, two, **{"X-Forwarded-For": "10.9.9.9"})
            assert forged.status_code == 429, forged.text
    finally:
        server.stop()


def refusal(client: httpx.Response) -> str:
    code: str = client.json()["error"]["code"]
    return code


def test_lookups_are_rate_limited_like_creates(tmp_path: Path) -> None:
    with running_server(tmp_path / "ono99.db", http_rate=0.01, http_burst=3) as server:
        answers = [httpx.get(f"{server.url}/api/tables/abcdefghjkmn") for _ in range(4)]
    assert [r.status_code for r in answers] == [404, 404, 404, 429]
    assert refusal(answers[-1]) == "rate_limited"


def test_one_address_may_have_a_few_unfinished_tables(tmp_path: Path) -> None:
    """``max_open_tables``: the next create is refused, and allowed again once one of them is
    over (here the host lets the turn timer run out at every turn, and the stand-in plays)."""
    with running_server(tmp_path / "ono99.db", max_open_tables=2) as server:
        first = create_table(server.url, ["human", "greedy"], turn_seconds=0.05)
        create_table(server.url, ["human", "greedy"])
        refused = post_table(server.url)
        assert refused.status_code == 429 and refusal(refused) == "too_many_tables"
        assert refused.json()["error"]["params"] == {"most": 2}

        async def finish() -> None:
            host = await Client.open(server.ws_url, first["code"], first["token"])
            await host.send({"type": "start"})
            await host.expect("table", lambda m: m["phase"] == "over", timeout=60)
            await host.close()

        run(finish(), 90)
        assert httpx.get(f"{server.url}/api/tables/{first['code']}").json()["phase"] == "over"
        assert post_table(server.url).status_code == 201


def test_the_pace_takes_a_burst_then_gives_turns_and_refuses_a_long_wait() -> None:
    pace = Pace(rate=2, burst=3, most_wait=1.0)
    assert [pace.turn(0.0) for _ in range(5)] == [0.0, 0.0, 0.0, 0.5, 1.0]
    assert pace.turn(0.0) is None  # 1.5 s away: refused, and it takes no turn
    assert pace.turn(2.0) == 0.0  # the turn it did not take is free
    assert pace.turn(2.0) == 0.0 and pace.turn(2.0) == 0.5
    assert Pace(rate=0, burst=1, most_wait=0).turn(0.0) == 0.0  # no pace


async def post_from(base: str, address: str) -> tuple[httpx.Response, float]:
    """A create from ``address`` (a loopback address of its own) and the seconds it took."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=TIMEOUT) as http:
        start = time.perf_counter()
        r = await http.post(f"{base}/api/tables", json={**BODY, "name": "Ana"})
        return r, time.perf_counter() - start


def test_new_tables_are_set_up_in_turn_and_a_long_wait_is_busy(tmp_path: Path) -> None:
    """``create_rate``: past the burst each new table waits its turn (here one a second), a
    create that would wait past ``create_wait`` is refused at once as ``busy`` (503), and a
    waiting create counts among its address's unfinished tables (``/metrics`` shows it)."""
    options: dict[str, Any] = {"create_rate": 1, "create_burst": 1, "create_wait": 2.5}
    with running_server(tmp_path / "ono99.db", max_open_tables=2, metrics=True, **options) as s:

        async def four_addresses() -> list[tuple[httpx.Response, float]]:
            return await asyncio.gather(*(post_from(s.url, f"127.0.0.{i}") for i in (2, 3, 4, 5)))

        answers = sorted(run(four_addresses(), 30), key=lambda a: a[1])
        made = [took for r, took in answers if r.status_code == 201]
        busy = [(r, took) for r, took in answers if r.status_code == 503]
        assert len(made) == 3 and len(busy) == 1, [(r.status_code, t) for r, t in answers]
        assert made[1] >= 0.7 and made[2] >= 1.7, made  # turns 1 s apart (less the arrivals')
        refused, took = busy[0]
        assert refusal(refused) == "busy" and took < made[2]  # refused at once, not at its turn

        async def one_address() -> tuple[list[str], str]:
            first, _ = await post_from(s.url, "127.0.0.6")  # waits for the turn after the last
            waiting = asyncio.ensure_future(post_from(s.url, "127.0.0.6"))
            await asyncio.sleep(0.2)  # that one is waiting its turn: 1 open + 1 waiting = 2
            third, _ = await post_from(s.url, "127.0.0.6")
            page = (await asyncio.to_thread(httpx.get, f"{s.url}/metrics")).text
            second, _ = await waiting
            codes = [str(r.status_code) for r in (first, second, third)]
            return [*codes, refusal(third) if third.status_code != 201 else ""], page

        codes, page = run(one_address(), 30)
        assert codes == ["201", "201", "429", "too_many_tables"], codes
        assert re.search(r"^ono99_creates_waiting 1\.0$", page, re.M), page


def test_websockets_per_address_and_spectators_per_table(tmp_path: Path) -> None:
    options: dict[str, Any] = {"max_connections": 3, "max_spectators": 1}
    with running_server(tmp_path / "ono99.db", **options) as server:
        made = create_table(server.url, ["human", "human", "greedy"])

        async def refused(token: str | None) -> tuple[str, int | None]:
            async with connect(f"{server.ws_url}/ws/{made['code']}") as ws:
                hello = {"type": "hello"} if token is None else {"type": "hello", "token": token}
                with contextlib.suppress(ConnectionClosed):  # refused before hello, perhaps
                    await ws.send(json.dumps(hello))
                error = json.loads(await ws.recv())
                with pytest.raises(ConnectionClosed) as closed:
                    await ws.recv()
                return error["code"], closed.value.rcvd and closed.value.rcvd.code

        async def main() -> None:
            watcher = await Client.open(server.ws_url, made["code"], None)
            assert await refused(None) == ("table_full_of_spectators", 4429)
            host = await Client.open(server.ws_url, made["code"], made["token"])  # a seat: yes
            other = await Client.open(server.ws_url, made["code"], made["token"])
            assert await refused(made["token"]) == ("too_many_connections", 4429)
            await watcher.close()
            await asyncio.sleep(0.2)
            again = await Client.open(server.ws_url, made["code"], None)
            for c in (again, host, other):
                await c.close()

        run(main())


def test_a_half_sent_request_is_closed_and_a_slow_body_refused(tmp_path: Path) -> None:
    """uvicorn has no deadline for a request's head (only for an idle keep-alive connection):
    ours closes a connection that sent nothing, or half its headers, after ``header_timeout``;
    a body that does not come in time is refused as ``timeout`` (408); a head over 64 KiB gets
    431."""
    with running_server(tmp_path / "ono99.db", header_timeout=0.5) as server:
        port = int(server.url.rsplit(":", 1)[1])
        silent = socket.create_connection(("127.0.0.1", port), TIMEOUT)
        half = socket.create_connection(("127.0.0.1", port), TIMEOUT)
        half.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        body = socket.create_connection(("127.0.0.1", port), TIMEOUT)
        body.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        started = time.monotonic()
        with silent, half, body:
            assert silent.recv(100) == b"" and half.recv(100) == b""  # closed, no answer
            assert 0.4 < time.monotonic() - started < 5
            answer = body.recv(4096).decode()
            assert answer.startswith("HTTP/1.1 408") and '"code":"timeout"' in answer, answer
        # A head too large for any browser's request is refused before it fills memory.
        with socket.create_connection(("127.0.0.1", port), TIMEOUT) as big:
            big.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 70_000)
            assert big.recv(100).startswith(b"HTTP/1.1 431 ")
        # One that takes its time between requests, but sends each whole, is served.
        with httpx.Client() as client:
            assert client.get(f"{server.url}/healthz").status_code == 200
            time.sleep(0.3)
            assert client.get(f"{server.url}/healthz").status_code == 200


def test_past_the_concurrency_limit_requests_get_503(tmp_path: Path) -> None:
    with running_server(tmp_path / "ono99.db", max_concurrency=2, header_timeout=30) as server:
        port = int(server.url.rsplit(":", 1)[1])
        held = [socket.create_connection(("127.0.0.1", port), TIMEOUT) for _ in range(2)]
        try:
            assert httpx.get(f"{server.url}/healthz").status_code == 503
        finally:
            for s in held:
                s.close()
        time.sleep(0.2)
        assert httpx.get(f"{server.url}/healthz").status_code == 200


def test_pages_of_other_sites_are_refused(tmp_path: Path) -> None:
    """A POST or websocket upgrade whose Origin is another site's is refused (403
    ``bad_origin``); the server's own origin, one of ``allowed_origins``, and no Origin at all
    (curl, bots) go through."""
    allowed = ("https://friends.example",)
    with running_server(tmp_path / "ono99.db", allowed_origins=allowed) as server:
        own = server.url  # http://127.0.0.1:PORT, as a browser on this page sends it
        for origin, status in [
            ("https://evil.example", 403),
            ("null", 403),
            (own.replace("127.0.0.1", "localhost"), 403),  # another host name: another site
            (own.replace("http:", "https:"), 403),
            (own, 201),
            ("https://friends.example:443", 201),
        ]:
            answer = post_table(server.url, Origin=origin)
            assert answer.status_code == status, (origin, answer.text)
            if status == 403:
                assert refusal(answer) == "bad_origin"
        assert post_table(server.url).status_code == 201  # no Origin
        assert httpx.get(f"{server.url}/api/options", headers={"Origin": "https://evil.example"})

        made = create_table(server.url, ["human", "greedy"])
        where = f"{server.ws_url}/ws/{made['code']}"

        async def main() -> None:
            with pytest.raises(InvalidStatus) as refused:
                await connect(where, origin="https://evil.example")  # type: ignore[arg-type]
            assert refused.value.response.status_code == 403
            for origin in (own, None):
                async with connect(where, origin=origin) as ws:  # type: ignore[arg-type]
                    await ws.send('{"type": "hello"}')
                    assert json.loads(await ws.recv())["type"] == "welcome"

        run(main())


def test_a_client_that_stops_reading_is_closed_with_1013(tmp_path: Path) -> None:
    """A client that stops reading fills the socket's buffers, then its queue
    (``queue_limit``): the server closes it with 1013 at once, the close frame behind what the
    socket already holds, and lets go of it without waiting for it to read. It used to wait
    for ever to write (uvicorn writes nothing, a close neither, until the client reads): the
    client saw no close frame, or uvicorn's keepalive's 1011 40 s later."""
    with running_server(tmp_path / "ono99.db", ws_rate=1e6, ws_burst=1e6) as server:
        made = create_table(server.url, ["human", "greedy"])
        held: dict[str, int] = server.app.state.sockets.counts  # type: ignore[attr-defined]
        # Small kernel buffers (accepted sockets take the listening one's), so that a few
        # thousand pongs fill them rather than megabytes.
        server.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)

        async def main() -> None:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", int(server.url.rsplit(":", 1)[1])))
            where = f"{server.ws_url}/ws/{made['code']}"
            async with connect(where, sock=sock, ping_interval=None) as ws:
                await ws.send('{"type": "hello"}')
                assert json.loads(await ws.recv())["type"] == "welcome"
                assert held == {"127.0.0.1": 1}
                ws.transport.pause_reading()  # stop reading: what comes stays in the buffers
                ping = json.dumps({"type": "ping", "id": "x" * 40})
                end = time.monotonic() + TIMEOUT
                sent = 0
                while held and time.monotonic() < end:  # ask for pongs, at a pace the
                    if sent < 3000:  # server's writer keeps up with while it can write,
                        for _ in range(20):  # as many as overflow it several times over
                            await ws.send(ping)
                        sent += 20
                    await asyncio.sleep(0.005)
                assert not held, "the server still holds a connection that does not read"
                ws.transport.resume_reading()
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013

        run(main())


@slow
def test_server_processes_on_postgresql_keep_the_same_limits() -> None:
    """The settings reach server processes started from JSON (as ``--workers`` children are):
    the allowed origin, and X-Forwarded-For ignored when no proxy is named."""
    options: dict[str, Any] = {
        "allowed_origins": ["https://friends.example"],
        "http_rate": 0.01,
        "http_burst": 2,
    }
    with running_cluster(2, **options) as cluster:
        for process in cluster.processes:
            base = process.url
            assert refusal(post_table(base, Origin="https://evil.example")) == "bad_origin"
            answers = [
                post_table(
                    base, Origin="https://friends.example", **{"X-Forwarded-For": f"10.1.{i}.1"}
                )
                for i in range(3)
            ]
            assert [a.status_code for a in answers] == [201, 201, 429]
