"""Both stores, SQLite and PostgreSQL (a real server, a schema of this run's own), through
the one ``Store`` interface: what is written comes back, a batch is all or nothing, and the
compare-and-swap on a table's sequence number lets exactly one of two racing writers in."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ono99.storage import Conflict, SqliteStore, Store, open_store
from ono99.storage.postgres import PostgresStore, split_url
from services import drop_schema, fresh_schema, need_postgres, postgres_url

Opener = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a store on one database (call it twice: two processes' connections)."""
    opened: list[Store] = []
    if request.param == "sqlite":
        url = str(tmp_path / "ono99.db")
    else:
        need_postgres()
        schema = fresh_schema()
        url = postgres_url(schema)

    def open_one() -> Store:
        store = open_store(url)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()
    if request.param == "postgres":
        drop_schema(schema)


def fill(store: Store, code: str = "abc") -> None:
    with store.transaction():
        store.create_table(code, '{"x": 1}', "hosthash")
        store.put_seat(code, 0, "human", None, "Ana", "h0")
        store.put_seat(code, 1, "bot", "greedy", "Ben", None)
    with store.transaction():
        store.bump(code, 0)
        store.put_seat(code, 1, "bot", "random", "Ben", None)  # replaced, not added
        store.start_game(code, 1, 2**62 + 5, 1)
    with store.transaction():
        store.bump(code, 1)
        store.add_action(code, 1, 0, 1, "7", "bot")
        store.add_action(code, 1, 1, 0, "draw", "seat")


def test_what_is_written_comes_back(opener: Opener) -> None:
    store = opener()
    assert store.load_table("abc") is None and store.seq("abc") is None
    fill(store)
    table = store.load_table("abc")
    assert table is not None
    assert (table.config, table.host_hash, table.seq) == ({"x": 1}, "hosthash", 2)
    assert [(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in table.seats] == [
        (0, "human", None, "Ana", "h0"),
        (1, "bot", "random", "Ben", None),
    ]
    assert (table.game, table.seed, table.dealer, table.finished) == (1, 2**62 + 5, 1, False)
    assert table.actions == [(1, "7", "bot"), (0, "draw", "seat")]
    assert store.active_codes() == ["abc"]
    assert store.unfinished(["abc", "nope"]) == {"abc"} and store.unfinished([]) == set()
    assert store.games("abc") == [(1, False)]
    assert store.record("abc", 1) is None  # never the record of a game still being played
    with store.transaction():
        store.bump("abc", 2)
        store.finish_game("abc", 1, '{"record": true}')
    assert store.record("abc", 1) == '{"record": true}'
    assert store.active_codes() == [] and store.games("abc") == [(1, True)]
    assert store.unfinished(["abc"]) == set()  # its game is over
    assert store.count_tables() == 1 and store.seq("abc") == 3
    assert store.seqs(["abc", "nope"]) == {"abc": 3} and store.seqs([]) == {}
    assert opener().load_table("abc") == store.load_table("abc")  # another connection agrees


def test_a_seat_left_keeps_its_person_s_name_apart_from_the_seat_s_holder(opener: Opener) -> None:
    """An open seat's ``left_name`` (docs/protocol.md, ``left``) is stored beside ``name``,
    which stays None (nobody holds the seat), and cleared when someone takes it."""
    store = opener()
    fill(store)
    with store.transaction():
        store.bump("abc", 2)
        store.put_seat("abc", 0, "human", None, None, None, "Ana")
    table = store.load_table("abc")
    assert table is not None and (table.seats[0].name, table.seats[0].left_name) == (None, "Ana")
    assert table.seats[1].left_name is None
    with store.transaction():
        store.bump("abc", 3)
        store.put_seat("abc", 0, "human", None, "Zoé", "h9")
    table = store.load_table("abc")
    assert table is not None and (table.seats[0].name, table.seats[0].left_name) == ("Zoé", None)


def test_a_closed_table_keeps_its_games_and_is_no_longer_active(opener: Opener) -> None:
    store = opener()
    fill(store)
    assert store.idle_codes(time.time() + 60, 10) == ["abc"]  # unchanged since a minute ago
    assert store.idle_codes(time.time() - 60, 10) == []  # but changed within the minute
    with store.transaction():
        store.bump("abc", 2)  # a write marks it changed now
        store.close_table("abc")
    table = store.load_table("abc")
    assert table is not None and table.closed and table.seq == 3
    assert len(table.actions) == 2 and store.games("abc") == [(1, False)]
    assert store.active_codes() == [] and store.idle_codes(time.time() + 60, 10) == []
    assert store.unfinished(["abc"]) == set()  # closed


def test_a_stale_writer_writes_nothing(opener: Opener) -> None:
    store = opener()
    fill(store)
    with pytest.raises(Conflict), store.transaction():
        store.bump("abc", 1)  # the table is at 2: this writer missed a batch
        store.add_action("abc", 1, 2, 1, "5", "bot")
    table = store.load_table("abc")
    assert table is not None and table.seq == 2 and len(table.actions) == 2
    with pytest.raises(Conflict), store.transaction():
        store.bump("nope", 0)  # no such table


def test_one_action_is_appended_with_its_compare_and_swap(opener: Opener) -> None:
    store = opener()
    fill(store)
    store.append_action("abc", 2, 1, 2, 1, "5", "bot")
    with pytest.raises(Conflict):
        store.append_action("abc", 2, 1, 3, 0, "6", "seat")  # stale: the table is at 3
    table = store.load_table("abc")
    assert table is not None and table.seq == 3
    assert table.actions[2:] == [(1, "5", "bot")]


def test_a_failed_batch_is_rolled_back_whole(opener: Opener) -> None:
    store = opener()
    fill(store)
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"), store.transaction():
        store.bump("abc", 2)
        store.add_action("abc", 1, 2, 1, "5", "bot")
        store.add_action("abc", 1, 2, 1, "5", "bot")  # the same position twice
    table = store.load_table("abc")
    assert table is not None and table.seq == 2 and len(table.actions) == 2
    with store.transaction():  # and the store is still usable
        store.bump("abc", 2)
    assert store.seq("abc") == 3


def race(store: Store, who: str, seq: int, barrier: threading.Barrier, out: list[str]) -> None:
    barrier.wait()
    try:
        with store.transaction():
            store.bump("abc", seq)
            store.add_action("abc", 1, seq, 0, who, "seat")
        out.append(who)
    except Conflict:
        out.append("conflict")


def test_of_two_writers_racing_from_one_sequence_number_exactly_one_wins(
    opener: Opener,
) -> None:
    """Two connections (as two server processes) write the next action of one table at the
    same instant, 30 times over: each time exactly one batch is stored."""
    first, second = opener(), opener()
    fill(first)
    for round_ in range(30):
        results: list[str] = []
        barrier = threading.Barrier(2)
        threads = [
            threading.Thread(target=race, args=(s, w, 2 + round_, barrier, results))
            for s, w in ((first, "a"), (second, "b"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(results) in (["a", "conflict"], ["b", "conflict"]), results
    table = second.load_table("abc")
    assert table is not None and table.seq == 32 and len(table.actions) == 32


def test_sqlite_files_of_the_first_schema_are_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE tables (code TEXT PRIMARY KEY, config TEXT NOT NULL, "
        "host_hash TEXT NOT NULL, created REAL NOT NULL);"
        "CREATE TABLE seats (code TEXT NOT NULL REFERENCES tables(code), seat INTEGER, "
        "kind TEXT NOT NULL, bot TEXT, name TEXT, token_hash TEXT, PRIMARY KEY (code, seat));"
        "INSERT INTO tables VALUES ('old', '{}', 'h', 0);"
        "INSERT INTO seats VALUES ('old', 0, 'human', NULL, 'Ana', 'h'); PRAGMA user_version=1;"
    )
    db.close()
    store = SqliteStore(path)
    assert store.seq("old") == 0
    assert store.idle_codes(1.0, 10) == ["old"]  # unchanged since it was made, at time 0
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 7
    assert db.execute("SELECT name, left_name, player FROM seats").fetchall() == [
        ("Ana", None, None)
    ]
    db.close()


@pytest.mark.parametrize("background", [False, True])
def test_a_server_s_sqlite_log_is_copied_to_the_database_on_a_thread_of_its_own(
    tmp_path: Path, background: bool
) -> None:
    """A checkpoint syncs the disk: a server's commits (on its event loop) never run one;
    a thread does. Seen in the log's header, whose checkpoint sequence number counts the
    times the log was copied whole and started again: without the thread (and commits not
    checkpointing) it never is."""
    path = tmp_path / "ono99.db"
    store = SqliteStore(path)
    if background:
        store.checkpoint_in_background(every=0.02)
    else:
        store._db.execute("PRAGMA wal_autocheckpoint=0")  # the thread's absence
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    pages = 3000  # three times the 1,000 pages at which a commit would checkpoint by itself
    for i in range(pages):
        with store.transaction():
            store.create_table(f"t{i}", "x" * 4000, "h")  # a page of its own, at least
        if i % 50 == 0:
            time.sleep(0.01)  # a server's commits have gaps between them
    if background:
        assert store._checkpointer is not None
        passes = store._checkpointer.passes
        deadline = time.monotonic() + 30
        while store._checkpointer.passes < passes + 2 and time.monotonic() < deadline:
            time.sleep(0.01)  # a whole pass after the last write: the log is copied whole
    with store.transaction():
        store.create_table("last", "{}", "h")  # starts the log again if it was copied whole
    restarts = int.from_bytes(Path(f"{path}-wal").read_bytes()[12:16], "big")
    assert (restarts > 0) is background
    store.close()
    assert not Path(f"{path}-wal").exists()  # closed: everything is in the database
    again = SqliteStore(path)
    assert again.count_tables() == pages + 1
    again.close()


def test_postgres_migrations_run_once_and_the_schema_name_is_checked() -> None:
    need_postgres()
    schema = fresh_schema()
    try:
        stores = [PostgresStore(postgres_url(schema)) for _ in range(2)]
        versions = stores[1]._db.execute("SELECT version FROM schema_version").fetchall()
        assert versions == [(1,), (2,), (3,), (4,), (5,), (6,)]
        for store in stores:
            store.close()
    finally:
        drop_schema(schema)
    assert split_url("postgresql://h/db?schema=abc&sslmode=disable") == (
        "postgresql://h/db?sslmode=disable",
        "abc",
    )
    with pytest.raises(ValueError, match="schema must be"):
        split_url("postgresql://h/db?schema=x;drop")


def test_the_tally_counts_the_winners_of_finished_games_before_the_latest(
    opener: Opener,
) -> None:
    """The running tally comes from each finished record's meta.winners; the latest game's
    winners are left to the table, which replays that game."""
    store = opener()
    fill(store)
    with store.transaction():
        store.bump("abc", 2)
        store.finish_game("abc", 1, '{"meta": {"winners": [1]}}')
        store.start_game("abc", 2, 7, 0)
    with store.transaction():
        store.bump("abc", 3)
        store.finish_game("abc", 2, '{"meta": {"winners": [0, 1]}}')
        store.start_game("abc", 3, 8, 1)
    table = store.load_table("abc")
    assert table is not None and table.wins == {1: 2, 0: 1}
    with store.transaction():
        store.bump("abc", 4)
        store.finish_game("abc", 3, '{"meta": {}}')  # a record from before the tally
    table = store.load_table("abc")
    assert table is not None and table.wins == {1: 2, 0: 1}


def test_the_host_s_new_config_and_the_finished_game_s_record_come_back(opener: Opener) -> None:
    store = opener()
    fill(store)
    with store.transaction():
        store.bump("abc", 2)
        store.finish_game("abc", 1, '{"rules": {"edition": "2022"}}')
        store.set_config("abc", '{"y": 2}')
    table = store.load_table("abc")
    assert table is not None and table.config == {"y": 2}
    assert table.finished and table.record == '{"rules": {"edition": "2022"}}'


def test_the_lobby_lists_tables_oldest_first_and_forgets_closed_ones(opener: Opener) -> None:
    """Issue 42: the lobby's lines (server/lobby.py), and Play now's tables with a seat free
    for a setting, the oldest first (server/quick.py)."""
    store = opener()
    for code in ("t1", "t2", "t3"):
        with store.transaction():
            store.create_table(code, "{}", "h")
    with store.transaction():
        store.list_table("t2", "2022/4", 3, '{"code": "t2", "free": 3}')
    with store.transaction():
        store.list_table("t1", "2022/4", 2, '{"code": "t1", "free": 2}')
        store.list_table("t3", "", 1, '{"code": "t3", "free": 1}')
    assert [t["code"] for t in store.listings(10)] == ["t2", "t1", "t3"]
    assert store.waiting("2022/4") == ["t2", "t1"]
    assert store.waiting("1980/4") == []
    with store.transaction():
        store.list_table("t2", "2022/4", 0, '{"code": "t2", "free": 0}')  # still its place
    assert [t["code"] for t in store.listings(10)] == ["t2", "t1", "t3"]
    assert store.waiting("2022/4") == ["t1"], "a table with no seat free is not waiting"
    with store.transaction():
        store.unlist_table("t2")
        store.close_table("t1")
    assert [t["code"] for t in opener().listings(10)] == ["t3"], "seen from another connection"
    assert store.listings(10)[0]["opened"] > 0


def test_a_server_wide_lock_is_held_by_one_store_at_a_time(opener: Opener) -> None:
    first = opener()
    assert first.try_lock("quick:2022/4")
    assert not first.try_lock("quick:2022/4"), "not twice, even by its holder"
    assert first.try_lock("quick:1980/4"), "another key is another lock"
    if isinstance(first, PostgresStore):
        second = opener()  # another process's connection
        assert not second.try_lock("quick:2022/4")
        first.unlock("quick:2022/4")
        assert second.try_lock("quick:2022/4")
        second.close()  # a process that dies lets go of its locks ...
        deadline = time.monotonic() + 10  # ... once its backend has ended (not at once)
        while not first.try_lock("quick:2022/4"):
            assert time.monotonic() < deadline, "the closed connection's lock was kept"
            time.sleep(0.05)
    else:
        first.unlock("quick:2022/4")
        assert first.try_lock("quick:2022/4")
