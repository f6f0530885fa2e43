"""Issue 42: an operator keeps it civil — the names blocklist (``--blocked-names FILE``)
refuses a blocked name on create, join and Play now, on a real server, with one clear
message and nothing created; an entry added while the server runs holds from then on."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from ono99.server.config import ServerConfig
from ono99.server.names import LOOK_EVERY
from server_support import TIMEOUT, create_table, running_server


def refused(r: httpx.Response) -> None:
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "name_blocked"


def test_a_blocked_name_is_refused_everywhere_a_name_is_given(tmp_path: Path) -> None:
    names = tmp_path / "blocked.txt"
    names.write_text("rude\n~zork\n", encoding="utf-8")
    with running_server(tmp_path / "t.db", blocked_names=str(names)) as server:
        base = server.url
        seats = [{"kind": "human"}, {"kind": "human"}]
        r = httpx.post(f"{base}/api/tables", json={"name": "RUDE", "seats": seats}, timeout=TIMEOUT)
        refused(r)
        r = httpx.post(f"{base}/api/quick", json={"name": "xzorkx"}, timeout=TIMEOUT)
        refused(r)
        assert httpx.get(f"{base}/api/lobby", timeout=TIMEOUT).json()["tables"] == []

        table = create_table(base, ["human", "human"])
        code = table["code"]
        join = f"{base}/api/tables/{code}/join"
        r = httpx.post(join, json={"name": "the rude one"}, timeout=TIMEOUT)
        refused(r)
        info = httpx.get(f"{base}/api/tables/{code}", timeout=TIMEOUT).json()
        assert [s["open"] for s in info["seats"]] == [False, True]  # the seat is still free

        # The operator adds a name while the server runs: refused once the server has looked
        # at the file again (it looks at most once a second).
        names.write_text("rude\n~zork\nLeo\n", encoding="utf-8")
        time.sleep(LOOK_EVERY + 0.2)
        r = httpx.post(join, json={"name": "leo"}, timeout=TIMEOUT)
        refused(r)
        r = httpx.post(join, json={"name": "Ben"}, timeout=TIMEOUT)
        assert r.status_code == 200, r.text


def test_a_missing_blocklist_file_is_a_sentence_not_a_crash(tmp_path: Path) -> None:
    config = ServerConfig(db=str(tmp_path / "t.db"), blocked_names=str(tmp_path / "nope.txt"))
    with pytest.raises(ValueError, match="--blocked-names must be a file"):
        config.check()
