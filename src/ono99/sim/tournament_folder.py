"""A tournament played into a folder: every game record appended to ``games.jsonl`` as it
arrives, in game order, and the results with how the run went written to ``summary.json`` —
also when the run is stopped early (``stop``, or a second Ctrl-C), so a stopped run keeps the
games it finished and says so (``"run": {"complete": false}``)."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..invocation import ono99_home
from .batches import Done, Stop
from .driver import BotError
from .tournament import GameResult, Results, Tournament, play_games

GAMES = "games.jsonl"
SUMMARY = "summary.json"


class FolderError(ValueError):
    """The folder cannot take a tournament: it holds one already, or cannot be made."""


@dataclass(frozen=True)
class FolderRun:
    """What a run into ``folder`` left: its summary (as written) and how long it took."""

    folder: Path
    summary: dict[str, Any]
    seconds: float

    @property
    def complete(self) -> bool:
        return bool(self.summary["run"]["complete"])

    @property
    def games_path(self) -> Path:
        return self.folder / GAMES

    @property
    def summary_path(self) -> Path:
        return self.folder / SUMMARY


def default_folder() -> Path:
    """A new folder under ``$ONO99_HOME/tournaments``, named for the time."""
    folder = ono99_home() / "tournaments"
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / stamp
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{n}"
        n += 1
    return path


def prepare_folder(out: Path | None) -> Path:
    """``out`` (or a ``default_folder``), made if need be; ``FolderError`` if it already
    holds a tournament or cannot be made."""
    path = default_folder() if out is None else out
    for name in (GAMES, SUMMARY):
        if (path / name).exists():
            raise FolderError(f"{path / name} already exists; choose another --out")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FolderError(f"cannot create {path}: {exc.strerror or exc}") from None
    return path


def write_summary(path: Path, summary: dict[str, Any]) -> None:
    """``summary`` as JSON at ``path``, whole or not at all (written aside, then renamed)."""
    partial = path.with_suffix(".json.part")
    partial.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


def play_into_folder(
    tournament: Tournament,
    folder: Path,
    *,
    workers: int = 1,
    address: str | None = None,
    on_done: Done | None = None,
    stop: Stop | None = None,
    made_folder: bool = False,
) -> FolderRun:
    """Play ``tournament`` (``play_games``: ``address`` a Dask scheduler, else ``workers``
    local processes) into ``folder``. A ``ConnectionError`` or ``BotError`` removes the
    games file (and the folder, when ``made_folder`` says it was made for this run) and is
    raised; a ``KeyboardInterrupt`` ends the run where it stands, its games kept."""
    results = Results.start(tournament)
    started_at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    start = time.monotonic()
    games_path = folder / GAMES
    try:
        with games_path.open("w", encoding="utf-8") as saved:
            run = play_games(
                tournament, workers=workers, address=address, on_done=on_done, stop=stop
            )
            _save_all(run, results, saved)
    except KeyboardInterrupt:
        pass  # a second Ctrl-C: stop at once, keep what there is
    except (ConnectionError, BotError):
        games_path.unlink()
        if made_folder:
            folder.rmdir()  # made for this run, and still empty
        raise
    seconds = time.monotonic() - start
    summary = results.summary()
    summary["run"] = {
        "complete": results.games == tournament.games,
        "executor": "dask" if address else "processes" if workers > 1 else "serial",
        "workers": None if address else workers,
        "address": address,
        "started": started_at,
        "seconds": round(seconds, 3),
        "games_per_second": round(results.games / seconds, 1) if seconds else None,
    }
    write_summary(folder / SUMMARY, summary)
    return FolderRun(folder, summary, seconds)


def _save_all(run: Generator[GameResult, None, None], results: Results, saved: IO[str]) -> None:
    """Append each game's record to the file and add it up, in game order, as they come."""
    try:
        for game in run:
            saved.write(game.record + "\n")
            results.add(game)
            if game.index % 64 == 63:
                saved.flush()
    finally:
        run.close()


__all__ = [
    "GAMES",
    "SUMMARY",
    "FolderError",
    "FolderRun",
    "default_folder",
    "play_into_folder",
    "prepare_folder",
    "write_summary",
]
