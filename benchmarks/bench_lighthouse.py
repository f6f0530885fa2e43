"""Lighthouse on the online pages, today's against a baseline revision, in the same run: did the
offline app (issue 43) make the online pages heavier or worse? A benchmark, not a test.

Two servers on loopback ports, each ``python -m ono99 serve`` on a temporary database: one of
this checkout, one of ``--baseline REV`` (default 85e4da4, main before the offline app: its
``src/`` taken from git, run with this venv's libraries). On each, Lighthouse (12.x, pinned in
``benchmarks/lighthouse/package-lock.json``; ``npm ci --prefix benchmarks/lighthouse`` once,
185 MB, not part of the tests' tools) audits the home page, a table's join page and the English
rules page with its default mobile settings (simulated slow 4G, 4x CPU), on Debian's Chromium,
``--runs`` times each, the two revisions alternately. Printed: the median score of each
category per page and revision, and the largest drop.

    npm ci --prefix benchmarks/lighthouse
    python benchmarks/bench_lighthouse.py
    python benchmarks/bench_lighthouse.py --runs 3 --json
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).parents[1]
LIGHTHOUSE = ROOT / "benchmarks" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = os.environ.get("ONO99_CHROMIUM", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cores"


@contextlib.contextmanager
def server(src: Path, tmp: Path) -> Iterator[str]:
    """``python -m ono99 serve`` of the package in ``src``; yields its address."""
    env = {**os.environ, "PYTHONPATH": str(src), "ONO99_HOME": str(tmp)}
    process = subprocess.Popen(
        [sys.executable, "-m", "ono99", "serve", "--port", "0", "--db", str(tmp / "t.db")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            found = re.search(r"served at (http://\S+?)/?\s", line)
            if found:
                yield found.group(1)
                break
        else:
            raise SystemExit(f"the server of {src} did not start")
    finally:
        process.terminate()
        process.wait(20)


def baseline_src(rev: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "archive", rev, "src"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def pages(base: str) -> dict[str, str]:
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "name": "Ana"}
    made = httpx.post(base + "/api/tables", json=body).raise_for_status().json()
    return {
        "home": base + "/",
        "join page": f"{base}/t/{made['code']}",
        "rules": base + "/rules/en",
    }


def audit(url: str, profile: Path) -> dict[str, float]:
    done = subprocess.run(
        [
            "node",
            str(LIGHTHOUSE),
            url,
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={FLAGS} --user-data-dir={profile}",
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    return {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}


def main(args: argparse.Namespace) -> dict[str, Any]:
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is not installed: npm ci --prefix benchmarks/lighthouse")
    version = json.loads((LIGHTHOUSE.parents[1] / "package.json").read_text())["version"]
    scores: dict[str, dict[str, list[dict[str, float]]]] = {"today": {}, "baseline": {}}
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        old = baseline_src(args.baseline, t / "baseline")
        (t / "a").mkdir()
        (t / "b").mkdir()
        with server(ROOT / "src", t / "a") as today, server(old, t / "b") as before:
            urls = {"today": pages(today), "baseline": pages(before)}
            for run in range(args.runs):
                for side in ("today", "baseline") if run % 2 == 0 else ("baseline", "today"):
                    for page, url in urls[side].items():
                        profile = t / f"profile-{side}-{page}-{run}".replace(" ", "-")
                        scores[side].setdefault(page, []).append(audit(url, profile))
    medians = {
        side: {
            page: {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
            for page, runs in per_page.items()
        }
        for side, per_page in scores.items()
    }
    drops = [
        medians["baseline"][p][c] - medians["today"][p][c]
        for p in medians["today"]
        for c in CATEGORIES
    ]
    return {
        "lighthouse": version,
        "baseline": args.baseline,
        "runs": args.runs,
        "medians": medians,
        "largest_drop": max(drops),
        "load": load(),
    }


def report(r: dict[str, Any]) -> None:
    print(f"Lighthouse {r['lighthouse']}, mobile defaults, median of {r['runs']} runs; {r['load']}")
    print(f"{'page':10} {'category':15} {'baseline ' + r['baseline']:>17} {'today':>6}")
    for page, today in r["medians"]["today"].items():
        for c in CATEGORIES:
            print(f"{page:10} {c:15} {r['medians']['baseline'][page][c]:>17.0f} {today[c]:>6.0f}")
    drop = r["largest_drop"]
    print("no score lower than the baseline's" if drop <= 0 else f"largest drop: {drop:.0f} points")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="85e4da4", help="the revision to compare with")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = main(args)
    print(json.dumps(result, indent=1)) if args.json else report(result)
