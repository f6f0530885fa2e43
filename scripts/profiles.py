"""Set up every install the README offers, each in a fresh copy of this checkout with a fresh
venv, and use it the way the README says (the profiles and their steps: profiles.toml).

    python3 scripts/profiles.py                 # all of them, as .ci/run does
    python3 scripts/profiles.py core launcher   # some
    python3 scripts/profiles.py --keep          # leave the copies, to look at them
    python3 scripts/profiles.py --jobs 2        # two at a time (.ci/run does: installs wait
                                                # on the disk and the network as much as the CPU)

A suite that installs every extra at once cannot see that a smaller install is broken; this
can. Standard library only: it must run before anything is installed. Run it with the test
venv's Python (``.venv/bin/python``) for the browser step, which drives Chromium.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROFILES = Path(__file__).with_name("profiles.toml")
STEP_SECONDS = 900  # one step at most: a fresh install of numba or dask, on a loaded machine
SERVE_SECONDS = 300  # the launcher's first run installs the server extra before it serves


def load(path: Path = PROFILES) -> list[dict[str, Any]]:
    profiles: list[dict[str, Any]] = tomllib.loads(path.read_text(encoding="utf-8"))["profile"]
    return profiles


def command_of(step: dict[str, Any]) -> str:
    """The shell command a step runs, before placeholders: a README command with its
    replacements made, or the step's own."""
    if "readme" in step:
        command: str = step["readme"]
        for old, new in step.get("replace", {}).items():
            if old not in command:
                raise ValueError(f"{command!r} has no {old!r} to replace")
            command = command.replace(old, new, 1)
        return command
    return str(step.get("run", ""))


class Failed(Exception):
    pass


@dataclass
class Run:
    profile: dict[str, Any]
    base: Path
    keep: bool
    values: dict[str, str] = field(default_factory=dict)
    servers: list[subprocess.Popen[str]] = field(default_factory=list)

    @property
    def copy(self) -> Path:
        return self.base / "ono99"

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ONO99_", "VIRTUAL_ENV"))}
        env["ONO99_HOME"] = str(self.base / "home")  # records go here, not to ~/.local
        env["PYTHONIOENCODING"] = "utf-8"
        if self.profile.get("program") != "./ono99":  # an activated venv
            env["VIRTUAL_ENV"] = str(self.copy / ".venv")
            env["PATH"] = f"{self.copy / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"
        for key, value in (extra or {}).items():
            env[key] = self.fill(value)
        return env

    def fill(self, text: str) -> str:
        return re.sub(r"\{(\w+)\}", lambda m: self.values.get(m.group(1), m.group(0)), text)

    # ------------------------------------------------------------------ setting up

    def set_up(self) -> None:
        for folder in ("home", "tmp", "elsewhere"):
            (self.base / folder).mkdir(parents=True)
        self.values.update(
            copy=str(self.copy),
            tmp=str(self.base / "tmp"),
            python=sys.executable,
            root=str(ROOT),
        )
        copy_checkout(ROOT, self.copy)
        install = self.profile.get("install")
        if install:
            subprocess.run([sys.executable, "-m", "venv", str(self.copy / ".venv")], check=True)
            self.shell(install, {"expect": []}, where=self.copy)

    def tear_down(self) -> None:
        for server in self.servers:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        if not self.keep:
            shutil.rmtree(self.base, ignore_errors=True)

    # ------------------------------------------------------------------ steps

    def step(self, step: dict[str, Any]) -> str:
        if "get" in step:
            return self.get(step)
        if "blocks" in step:
            return self.blocks(step)
        where = self.base / "elsewhere" if step.get("where") == "elsewhere" else self.copy
        command = command_of(step)
        if self.profile.get("program") == "ono99":
            command = re.sub(r"(^|\s)\./ono99 ", r"\1ono99 ", command)
        if step.get("serve"):
            return self.serve(self.fill(command), step, where)
        return self.shell(command, step, where)

    def shell(self, command: str, step: dict[str, Any], where: Path) -> str:
        command = self.fill(command)
        stdin = self.fill(step.get("stdin", "")) * int(step.get("repeat", 1))
        try:
            done = subprocess.run(
                ["bash", "-c", command], cwd=where, input=stdin, capture_output=True,
                text=True, encoding="utf-8", errors="replace", env=self.env(step.get("env")),
                timeout=STEP_SECONDS,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise Failed(f"{command}: still running after {STEP_SECONDS} s") from None
        out = done.stdout + done.stderr
        status = int(step.get("status", 0))
        if done.returncode != status:
            raise Failed(f"{command}: exit {done.returncode}, not {status}\n{tail(out)}")
        self.check(command, out, step)
        return out

    def serve(self, command: str, step: dict[str, Any], where: Path) -> str:
        log = self.base / "tmp" / f"server-{len(self.servers)}.log"
        with log.open("w") as sink:
            server = subprocess.Popen(
                ["bash", "-c", f"exec {command}"], cwd=where, stdout=sink, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, text=True, env=self.env(step.get("env")),
            )  # fmt: skip
        self.servers.append(server)
        patterns = [re.compile(self.fill(p)) for p in step.get("expect", [])]
        deadline = time.monotonic() + SERVE_SECONDS
        while time.monotonic() < deadline:
            out = log.read_text(encoding="utf-8", errors="replace")
            if all(p.search(out) for p in patterns):
                self.check(command, out, step)
                return out
            if server.poll() is not None:
                raise Failed(f"{command}: exited {server.returncode} before it served\n{tail(out)}")
            time.sleep(0.2)
        raise Failed(f"{command}: not serving after {SERVE_SECONDS} s\n{tail(out)}")

    def blocks(self, step: dict[str, Any]) -> str:
        """Run each ```python block of a page, as a reader pasting it into ``python`` would."""
        page = (self.copy / step["blocks"]).read_text(encoding="utf-8")
        code = re.findall(r"```python\n(.*?)```", page, re.S)
        if not code:
            raise Failed(f"{step['blocks']} has no python blocks")
        return "".join(self.shell("python -", {**step, "stdin": c}, self.copy) for c in code)

    def get(self, step: dict[str, Any]) -> str:
        url = self.values["url"].rstrip("/") + step["get"]
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                body = str(response.read().decode("utf-8"))
                status = response.status
        except OSError as exc:
            raise Failed(f"GET {url}: {exc}") from None
        if status != 200:
            raise Failed(f"GET {url}: status {status}")
        self.check(f"GET {url}", body, step)
        return body

    def check(self, command: str, out: str, step: dict[str, Any]) -> None:
        for pattern in step.get("expect", []):
            if not re.search(self.fill(pattern), out):
                raise Failed(f"{command}: no {self.fill(pattern)!r} in its output\n{tail(out)}")
        for pattern in ["Traceback", *step.get("reject", [])]:
            if re.search(self.fill(pattern), out):
                raise Failed(f"{command}: {pattern!r} in its output\n{tail(out)}")
        for name, pattern in step.get("capture", {}).items():
            found = re.search(self.fill(pattern), out)
            if not found:
                raise Failed(f"{command}: nothing for {{{name}}} ({pattern!r})\n{tail(out)}")
            self.values[name] = found.group(1).strip()


def copy_checkout(root: Path, to: Path) -> None:
    """The files a clone would have, as they are in the work tree (uncommitted changes too)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = root / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)


def tail(text: str, lines: int = 30) -> str:
    return "\n".join("    " + line for line in text.splitlines()[-lines:])


def run_profile(profile: dict[str, Any], keep: bool) -> tuple[bool, float, str]:
    start = time.monotonic()
    prefix = f"ono99-{profile['name'].replace(',', '-')}-"
    run = Run(profile, Path(tempfile.mkdtemp(prefix=prefix)), keep)
    try:
        run.set_up()
        installed = time.monotonic() - start
        for step in profile["step"]:
            run.step(step)
        steps = len(profile["step"])
        return True, time.monotonic() - start, f"{steps} steps, set up in {installed:.0f} s"
    except (Failed, subprocess.CalledProcessError) as exc:
        return False, time.monotonic() - start, str(exc)
    finally:
        run.tear_down()
        if keep:
            print(f"  kept {run.base}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="profiles to run [default: all]")
    parser.add_argument("--keep", action="store_true", help="keep each copy and its venv")
    parser.add_argument("--jobs", type=int, default=1, help="profiles run at once [default: 1]")
    args = parser.parse_args()
    profiles = load()
    unknown = set(args.names) - {p["name"] for p in profiles}
    if unknown:
        parser.error(f"unknown profiles {sorted(unknown)}; known: {[p['name'] for p in profiles]}")
    chosen = [p for p in profiles if not args.names or p["name"] in args.names]
    start = time.monotonic()
    lock = threading.Lock()

    def one(profile: dict[str, Any]) -> tuple[str, bool, float]:
        ok, seconds, detail = run_profile(profile, args.keep)
        with lock:  # a profile's lines together, whichever finishes first
            print(f"profile {profile['name']}: {profile['about']}", flush=True)
            print(f"  {'ok' if ok else 'FAILED'} in {seconds:.0f} s: {detail}", flush=True)
        return profile["name"], ok, seconds

    # The longest first (each profile's ``seconds``, as last measured): started last, train's
    # minute and a half would run alone at the end while the other lane sits idle.
    longest_first = sorted(chosen, key=lambda p: -float(p.get("seconds", 0)))
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        done = {r[0]: r for r in pool.map(one, longest_first)}
    results = [done[p["name"]] for p in chosen]
    print("\nprofile               result  seconds")
    for name, ok, seconds in results:
        print(f"{name:<22}{'ok' if ok else 'FAILED':<8}{seconds:>7.0f}")
    passed = sum(ok for _, ok, _ in results)
    print(f"{len(results)} profiles in {time.monotonic() - start:.0f} s, {args.jobs} at a time")
    print(f"profiles: {passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
