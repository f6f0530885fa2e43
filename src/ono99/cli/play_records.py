"""The records ``ono99 play`` saves and goes on with: where a game is saved, how, and which
saved game ``--resume`` continues (the record's meta names the seats, the bots and the
language, so a game goes on as it was)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from ..engine import Ono99Error, State, load_record, record_of, replay
from ..invocation import ono99_home, program
from .options import CliError


def default_record_path(seed: int) -> Path:
    folder = ono99_home() / "records"
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}-seed{seed}.json"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-seed{seed}-{n}.json"
        n += 1
    return path


def save_record(state: State, path: Path, meta: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record_of(state, meta=meta).to_json() + "\n", encoding="utf-8")


PROGRAM = "ono99 play"  # the records' meta "program": the games this command can resume
LAST = "last"  # ``--resume`` with no record: the last unfinished game saved


class Resumed:
    """A saved game to go on with: its record's rules, seed, seats and bots, and the state its
    actions lead to (replayed through the engine)."""

    def __init__(self, path: Path) -> None:
        try:
            record = load_record(path.read_bytes())
            state = replay(record)
        except OSError as exc:
            raise CliError(f"{path}: cannot read the record ({exc.strerror or exc})") from None
        except Ono99Error as exc:
            raise CliError(f"{path}: {exc}") from None
        meta = record.meta
        human, names, bots = meta.get("human"), meta.get("names"), meta.get("bots")
        n = record.rules.players
        if not (
            meta.get("program") == PROGRAM
            and isinstance(human, int)
            and 0 <= human < n
            and isinstance(names, list)
            and len(names) == n
            and all(isinstance(x, str) for x in names)
            and isinstance(bots, list)
            and len(bots) == n
            and all(isinstance(b, str) == (s != human) for s, b in enumerate(bots))
        ):
            raise CliError(f"{path}: not a game saved by {PROGRAM}: it names no seats to resume")
        if state.over:
            raise CliError(f"{path}: that game is over; {program()} replay shows it")
        self.path, self.record, self.state = path, record, state
        self.human: int = human
        self.names: list[str] = names
        self.bots: list[str | None] = bots
        self.lang = meta.get("lang") if isinstance(meta.get("lang"), str) else None


def last_unfinished(folder: Path) -> Path:
    """The newest record in ``folder`` of a game of this command that is not over."""
    paths = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in paths:
        try:
            record = load_record(path.read_bytes())
            if record.meta.get("program") == PROGRAM and not replay(record).over:
                return path
        except (OSError, Ono99Error):
            continue
    raise CliError(f"no unfinished game to resume in {folder}")
