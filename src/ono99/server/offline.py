"""The app that plays on the device with no server (docs/offline.md): its runtime and its page.

Offline, the browser runs this project's own Python — the engine, the bots and the session's
``device.py`` — in Pyodide, in a Web Worker (``static/js/device/worker.js``). What that needs
is served under ``/app/``, apart from the shell (``installable.py``), so that only a person who
chooses offline play ever downloads it:

- ``/app/runtime.json``: where the two parts are (never cached: it names their versions);
- ``/app/pyodide-<version>/<file>``: Pyodide's runtime, from its pinned npm package, copied
  by ``ono99 app build`` into ``RUNTIME`` with a gzip copy of each file beside it (the server
  sends that copy to a browser that accepts gzip);
- ``/app/ono99-<hash>.zip``: the pure-Python part of this package as the server runs it,
  zipped once per process on first ask.

Both are named by version, so they are kept for good (the service worker keeps them once
fetched). Without the build, ``/app/runtime.json`` says so (404, ``not_built``) and the rest of
the server works as before: the default install needs no Node.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from ..session import SessionError
from .endpoint import refused

PACKAGE = Path(__file__).parents[1]  # the ono99 package, as this process runs it
RUNTIME = Path(__file__).parent / "runtime"  # ``ono99 app build`` writes it (not in git)
# What Pyodide needs of its npm package to start (no packages of its own: ours is pure Python).
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
# What the device leaves out of the package: the parts that are never imported there.
LEFT_OUT = ("server", "cli", "storage", "env", "openspiel.py")
# ... and the data only those need: NumPy bots' weights (no NumPy there), catalogs, rules.
LEFT_OUT_DATA = (".npz", ".po", ".pot", ".md", ".pyc")
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}
NO_CACHE = {"Cache-Control": "no-cache"}
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".zip": "application/zip", ".json": "application/json"}  # fmt: skip


class NotBuilt(Exception):
    pass


def runtime_version(runtime: Path = RUNTIME) -> str:
    """The version of Pyodide that ``ono99 app build`` put in ``runtime``."""
    try:
        return str(json.loads((runtime / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        raise NotBuilt(
            "offline play is not built into this install: run `npm ci` and `ono99 app build`"
        ) from None


def build(source: Path, runtime: Path = RUNTIME) -> list[Path]:
    """Copy Pyodide's runtime from its npm package (``source``: node_modules/pyodide) into
    ``runtime``, each file with a gzip copy beside it. Returns the files written."""
    missing = [name for name in RUNTIME_FILES if not (source / name).is_file()]
    if missing:
        raise NotBuilt(f"{source} lacks {', '.join(missing)}: is it Pyodide's npm package?")
    if runtime.exists():
        shutil.rmtree(runtime)
    runtime.mkdir(parents=True)
    written = []
    for name in RUNTIME_FILES:
        data = (source / name).read_bytes()
        (runtime / name).write_bytes(data)
        (runtime / f"{name}.gz").write_bytes(gzip.compress(data, 9, mtime=0))
        written += [runtime / name, runtime / f"{name}.gz"]
    return written


@functools.cache
def package_zip() -> tuple[str, bytes]:
    """(hash, bytes) of a zip of the package's pure-Python modules (and their data) that the
    device may import, the
    same bytes for the same files (fixed timestamps), so that the hash names a version."""
    buffer = io.BytesIO()
    files = sorted(
        p
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.relative_to(PACKAGE).parts[0] not in LEFT_OUT
        and p.suffix not in LEFT_OUT_DATA
    )
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for p in files:
            info = zipfile.ZipInfo(
                "ono99/" + p.relative_to(PACKAGE).as_posix(), (2020, 1, 1, 0, 0, 0)
            )
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, p.read_bytes())
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:16], data


def runtime_info(runtime: Path = RUNTIME) -> dict[str, Any]:
    """What ``/app/runtime.json`` answers: where the worker finds Pyodide and the package."""
    version = runtime_version(runtime)
    digest, _ = package_zip()
    base = f"/app/pyodide-{version}/"
    return {
        "pyodide": base,
        "package": f"/app/ono99-{digest}.zip",
        "python_path": "/home/pyodide/ono99-app",
        # Everything the runtime fetches, for the page to keep (device/device.js).
        "files": [base + name for name in RUNTIME_FILES if name != "package.json"]
        + [f"/app/ono99-{digest}.zip"],
    }


async def runtime_json(request: Request) -> Response:
    try:
        info = runtime_info()
    except NotBuilt as exc:
        return refused(request, SessionError("not_built", str(exc)))
    return JSONResponse(info, headers=NO_CACHE)


async def pyodide_file(request: Request) -> Response:
    version, name = request.path_params["version"], request.path_params["name"]
    try:
        built = runtime_version()
    except NotBuilt as exc:
        return refused(request, SessionError("not_built", str(exc)))
    if version != built or name not in RUNTIME_FILES:
        return refused(request, SessionError("not_found", "there is no such file"))
    media = TYPES.get(Path(name).suffix, "application/octet-stream")
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers = {**IMMUTABLE, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return FileResponse(RUNTIME / f"{name}.gz", media_type=media, headers=headers)
    return FileResponse(
        RUNTIME / name, media_type=media, headers={**IMMUTABLE, "Vary": "Accept-Encoding"}
    )


async def package_file(request: Request) -> Response:
    digest, data = package_zip()
    if request.path_params["digest"] != digest:
        return refused(request, SessionError("not_found", "there is no such file"))
    return Response(data, media_type="application/zip", headers=IMMUTABLE)


def export(folder: Path, runtime: Path = RUNTIME) -> int:
    """Write the app as a static folder that any static host serves (no server: offline play
    only, docs/offline.md): the page, the shell, the rules, the runtime. Returns its bytes."""
    from ..i18n import LANGUAGES
    from ..i18n.export import browser_catalog, languages_document
    from .i18n import rules_html
    from .installable import MANIFEST, worker_script

    static = Path(__file__).parent / "static"
    info = runtime_info(runtime)
    if folder.exists() and any(folder.iterdir()):
        raise NotBuilt(f"{folder} is not empty: the export writes a folder of its own")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(static, folder / "static", ignore=shutil.ignore_patterns("*.map", "sw.js"))
    page = (static / "index.html").read_text(encoding="utf-8")
    page = page.replace('<html lang="en">', '<html lang="en" data-standalone="1">', 1)
    (folder / "index.html").write_text(page, encoding="utf-8")
    (folder / "sw.js").write_text(worker_script(static, standalone=True), encoding="utf-8")
    (folder / "manifest.webmanifest").write_text(json.dumps(MANIFEST), encoding="utf-8")
    i18n = folder / "i18n"
    i18n.mkdir()
    (i18n / "languages").write_text(json.dumps(languages_document("en")))
    for lang in LANGUAGES:
        (i18n / f"{lang}.json").write_text(json.dumps(browser_catalog(lang)), encoding="utf-8")
        page_dir = folder / "rules" / lang
        page_dir.mkdir(parents=True)
        (page_dir / "index.html").write_text(rules_html(lang), encoding="utf-8")
    app = folder / "app"
    (app / info["pyodide"].strip("/").split("/", 1)[1]).mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(runtime / name, folder / info["pyodide"].lstrip("/") / name)
    _, data = package_zip()
    (folder / info["package"].lstrip("/")).write_bytes(data)
    (app / "runtime.json").write_text(json.dumps(info), encoding="utf-8")
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
