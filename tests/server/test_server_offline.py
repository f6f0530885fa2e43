"""Issue 43, item 4: the offline app as ``ono99 serve`` serves it (server/offline.py), over real
HTTP: the runtime under /app/ named by version, gzip to a browser that accepts it, immutable;
nothing else under its names; and a server without the build (no Node, no ``ono99 app build``)
working as before, its /app/runtime.json a clear 404 ``not_built``."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx

from ono99.server import BackgroundServer, ServerConfig
from ono99.server.offline import RUNTIME, RUNTIME_FILES, package_zip, runtime_version
from server_support import ServerProcess

SRC = Path(__file__).parents[2] / "src"


def test_the_runtime_is_served_by_version_gzipped_and_kept_for_good(tmp_path: Path) -> None:
    version = runtime_version(RUNTIME)
    with BackgroundServer(ServerConfig(db=str(tmp_path / "t.db"), http_rate=0)) as server:
        info = httpx.get(server.url + "/app/runtime.json")
        assert info.status_code == 200 and info.headers["cache-control"] == "no-cache"
        body = info.json()
        assert body["pyodide"] == f"/app/pyodide-{version}/"
        digest, data = package_zip()
        assert body["package"] == f"/app/ono99-{digest}.zip"
        assert set(body["files"]) == {
            f"/app/pyodide-{version}/{n}" for n in RUNTIME_FILES if n != "package.json"
        } | {body["package"]}
        wasm = f"{server.url}/app/pyodide-{version}/pyodide.asm.wasm"
        zipped = httpx.get(wasm, headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["content-type"] == "application/wasm"
        assert "immutable" in zipped.headers["cache-control"]
        raw = (RUNTIME / "pyodide.asm.wasm").read_bytes()
        assert zipped.content == raw  # httpx undid the gzip: the same bytes
        assert int(zipped.headers["content-length"]) < len(raw) / 2
        plain = httpx.get(wasm, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == raw
        package = httpx.get(server.url + body["package"])
        assert package.content == data and "immutable" in package.headers["cache-control"]
        # Another version, another file, another hash: not found, and no file outside is read.
        for path in (
            "/app/pyodide-0.0.1/pyodide.asm.wasm",
            f"/app/pyodide-{version}/package.json.gz",
            "/app/ono99-0123456789abcdef.zip",
        ):
            r = httpx.get(server.url + path)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path
        r = httpx.get(f"{server.url}/app/pyodide-{version}/..%2F..%2Fapp.py")
        assert r.status_code == 404 and b"import" not in r.content
        # The page's policy lets the worker compile WebAssembly, and JavaScript's eval stays out.
        policy = httpx.get(server.url + "/offline").headers["content-security-policy"]
        assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy


def test_a_server_without_the_build_serves_everything_else_and_says_so(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("runtime", "__pycache__"))
    args = ["-m", "ono99", "serve", "--port", "0", "--db", str(tmp_path / "t.db")]
    server = ServerProcess(args, src=copy)
    try:
        url = server.url
        assert httpx.get(url + "/").status_code == 200
        assert httpx.get(url + "/offline").status_code == 200  # the page, which says it
        r = httpx.get(url + "/app/runtime.json")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_built"
        assert "ono99 app build" in r.json()["error"]["message"]
        r = httpx.get(url + "/app/pyodide-0.29.3/pyodide.asm.wasm")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_built"
        made = httpx.post(
            url + "/api/tables",
            json={"seats": [{"kind": "human"}, {"kind": "bot"}], "name": "Ana"},
        )
        assert made.status_code == 201  # tables as ever
    finally:
        server.stop()
