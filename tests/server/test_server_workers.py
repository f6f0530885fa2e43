"""``ono99 serve --workers N``: N real server processes behind one address, on PostgreSQL
and Redis. Two people whose websockets were accepted by different processes play a whole
game through; SIGTERM to the supervisor stops every process. Without a shared database and
bus, ``--workers 2`` is refused in one line."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from server_support import TIMEOUT, Client, create_table, join
from services import REDIS, drop_schema, fresh_schema, need_postgres, need_redis, postgres_url
from tiers import slow

pytestmark = slow  # real `serve --workers` process trees

ROOT = Path(__file__).resolve().parents[2]


def serve(*args: str) -> subprocess.Popen[str]:
    path = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "ono99", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"},
    )


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError):
                continue
    return found


def accepted_by(pids: list[int], server_port: int, client_port: int) -> int:
    """Which of ``pids`` holds the server's end of the loopback connection from
    ``client_port``: its socket's inode in /proc/net/tcp, then whose descriptor it is."""
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                local, remote = fields[1].split(":")[1], fields[2].split(":")[1]
                if int(local, 16) == server_port and int(remote, 16) == client_port:
                    inode = fields[9]
    assert inode is not None, "no such connection"
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    raise AssertionError("no server process holds the connection")


@pytest.mark.parametrize(
    "args",
    [
        ["--workers", "2"],
        ["--workers", "2", "--database", "postgresql://127.0.0.1:5432/test"],
        ["--workers", "3", "--redis", "redis://127.0.0.1:6379"],
    ],
)
def test_many_workers_need_a_shared_database_and_bus(args: list[str]) -> None:
    proc = serve(*args)
    _, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "postgresql:// --database and a --redis bus" in lines[0] or "--redis joins" in lines[0]


def test_two_workers_behind_one_address_play_a_game_and_stop_together() -> None:
    need_postgres()
    need_redis()
    schema = fresh_schema()
    proc = serve(
        "--workers", "2",
        "--database", postgres_url(schema),
        "--redis", REDIS,
        "--bot-delay", "0.01",
        "--http-rate", "0",
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"served at (http://127\.0\.0\.1:(\d+))/ .*2 processes", line)
        assert match, line + (proc.stderr.read() if proc.poll() is not None else "")  # type: ignore[union-attr]
        url, port = match.group(1), int(match.group(2))
        ws_url = url.replace("http://", "ws://")
        workers = children(proc.pid)
        assert len(workers) == 2
        host = create_table(url, ["human", "human", "random"], edition="1980", match="single")
        code = host["code"]
        guest = join(url, code, "Ben")

        async def play() -> None:
            first = await Client.open(ws_url, code, host["token"], "host")
            where = accepted_by(workers, port, first.ws.local_address[1])
            # Connect again until the kernel gives the other process the second seat.
            for _ in range(40):
                second = await Client.open(ws_url, code, guest["token"], "guest")
                if accepted_by(workers, port, second.ws.local_address[1]) != where:
                    break
                await second.close()
            else:
                raise AssertionError("every connection went to the same process")
            people = {host["seat"]: first, guest["seat"]: second}
            await first.send({"type": "start"})
            for c in people.values():
                await c.expect("state", lambda m: m["game"] == 1)
            rng = random.Random(3)
            while True:
                v = first.view
                assert v is not None
                if v["over"]:
                    break
                mover = people.get(v["to_play"])
                if mover is not None:
                    while mover.moves < first.moves:
                        await mover.expect("update")
                    assert mover.view is not None
                    action = rng.choice(mover.view["legal"])
                    await mover.send({"type": "act", "action": action, "moves": mover.moves})
                await first.expect("update")
            while second.moves < first.moves:
                await second.expect("update")
            assert second.view is not None and second.view["over"]
            for c in people.values():  # every move once, in order, on either process
                updates = [m["moves"] for m in c.messages if m["type"] == "update"]
                start = next(m for m in c.messages if m["type"] == "state" and m["game"] == 1)
                assert updates == list(range(start["moves"] + 1, first.moves + 1)), c.label
                assert not c.errors(), c.errors()
                await c.close()

        asyncio.run(play())
        record = f"{url}/api/tables/{code}/games/1/record"

        assert httpx.get(record, timeout=TIMEOUT).status_code == 200
        proc.send_signal(signal.SIGTERM)
        proc.wait(TIMEOUT)
        assert proc.returncode == 0
        for pid in workers:
            assert not os.path.exists(f"/proc/{pid}") or _zombie(pid), f"{pid} still runs"
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        drop_schema(schema)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
