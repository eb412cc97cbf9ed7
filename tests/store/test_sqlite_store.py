"""What is particular to the SQLite backend: the writer's group commit, the read
connection, and faults (a lock held too long, a full disk) answered with StoreUnavailable
and nothing half-written."""

import asyncio
import sqlite3
from pathlib import Path

import pytest

import bot.store.sqlite
from bot.store import ResultInput, SeatRow, Store, StoreError, StoreUnavailable
from bot.store.sqlite import SQLiteStore

GUILD = 100


async def new_table(store: Store) -> int:
    return await store.create_table(
        guild_id=GUILD, channel_id=200, game="koikoi", options={}, seed="s33d", host_id=1
    )


async def writer_statements(store: SQLiteStore) -> list[str]:
    """Every statement the writer connection runs from now on (SQLite's trace callback)."""
    seen: list[str] = []
    await store.connection.set_trace_callback(seen.append)
    return seen


def inserts_of_actions(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().startswith("INSERT INTO actions")]


async def test_appends_made_together_are_committed_in_one_statement(tmp_path: Path):
    """Group commit: 40 tables appending at once cost one INSERT (one implicit
    transaction), not 40; every caller's row is there when its await returns."""
    store = await Store.open(tmp_path / "t.db")
    try:
        tables = [await new_table(store) for _ in range(40)]
        statements = await writer_statements(store)

        async def append_and_read(tid: int) -> list[tuple[int, str]]:
            await store.append_action(tid, 0, 0, f"play {tid}", "player")
            return await store.actions(tid)

        seen = await asyncio.gather(*(append_and_read(t) for t in tables))
        assert seen == [[(0, f"play {t}")] for t in tables]
        assert len(inserts_of_actions(statements)) == 1
    finally:
        await store.close()


async def test_appends_arriving_during_a_commit_go_into_the_next_one(tmp_path: Path):
    """While one group commit is in flight, later appends wait and are committed together;
    appends to one table stay in order (one per table per commit)."""
    store = await Store.open(tmp_path / "t.db")
    try:
        a, b = await new_table(store), await new_table(store)
        statements = await writer_statements(store)
        first = asyncio.ensure_future(store.append_action(a, 0, 0, "a0", "player"))
        await asyncio.sleep(0)  # the writer takes the first batch
        later = [
            store.append_action(a, 1, 1, "a1", "player"),
            store.append_action(b, 0, 0, "b0", "player"),
            store.append_action(a, 2, 0, "a2", "player"),
        ]
        await asyncio.gather(first, *later)
        assert await store.actions(a) == [(0, "a0"), (1, "a1"), (0, "a2")]
        assert await store.actions(b) == [(0, "b0")]
        # a0 alone; a1 with b0; a2 (the same table as a1) in a commit of its own.
        assert len(inserts_of_actions(statements)) == 3
    finally:
        await store.close()


async def test_a_refused_append_fails_only_its_own_caller(tmp_path: Path):
    """In one group commit: a repeated index, an index too far and an unknown table each
    fail their own caller with a StoreError; the other appends of the batch are written."""
    store = await Store.open(tmp_path / "t.db")
    try:
        good, repeated = await new_table(store), await new_table(store)
        await store.append_action(repeated, 0, 0, "first", "player")
        skipping = await new_table(store)
        outcomes = await asyncio.gather(
            store.append_action(good, 0, 0, "ok", "player"),
            store.append_action(repeated, 0, 1, "again", "player"),
            store.append_action(skipping, 5, 0, "gap", "player"),
            store.append_action(9999, 0, 0, "nowhere", "player"),
            return_exceptions=True,
        )
        assert outcomes[0] is None
        assert all(isinstance(o, StoreError) for o in outcomes[1:]), outcomes
        assert "next is 1" in str(outcomes[1]) and "next is 0" in str(outcomes[2])
        assert "9999" in str(outcomes[3])
        assert await store.actions(good) == [(0, "ok")]
        assert await store.actions(repeated) == [(0, "first")]
        assert await store.actions(skipping) == []
    finally:
        await store.close()


async def test_a_read_does_not_wait_for_writes_made_after_it(tmp_path: Path):
    """Reads have their own connection: one made before a write that is stuck (another
    connection holds the lock) answers at once with what was committed."""
    store = await Store.open(tmp_path / "t.db")
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    try:
        tid = await new_table(store)
        await store.append_action(tid, 0, 0, "a0", "player")
        other.execute("BEGIN IMMEDIATE")
        read = asyncio.ensure_future(store.actions(tid))
        raw = asyncio.ensure_future(store.query("SELECT COUNT(*) FROM actions"))  # (history)
        stuck = asyncio.ensure_future(store.append_action(tid, 1, 1, "a1", "player"))
        assert await asyncio.wait_for(read, 10) == [(0, "a0")]
        assert (await asyncio.wait_for(raw, 10))[0][0] == 1
        assert not stuck.done()
        other.execute("COMMIT")
        await stuck
        assert await store.actions(tid) == [(0, "a0"), (1, "a1")]
    finally:
        other.close()
        await store.close()


async def test_a_lock_held_beyond_the_busy_timeout_is_store_unavailable(
    tmp_path: Path, monkeypatch
):
    """Another connection holds the write lock longer than the busy timeout: appends,
    single statements and transactions fail with StoreUnavailable, nothing of them is
    written, and the same calls succeed once the lock is gone."""
    monkeypatch.setattr(bot.store.sqlite, "BUSY_TIMEOUT", 0.1)
    store = await Store.open(tmp_path / "t.db")
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    try:
        tid = await new_table(store)
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreUnavailable, match="locked"):
            await store.append_action(tid, 0, 0, "a0", "player")
        with pytest.raises(StoreUnavailable, match="locked"):
            await store.update_table(tid, status="active")
        with pytest.raises(StoreUnavailable, match="locked"):
            await store.set_seats(tid, [SeatRow(0, 11, "alice")])
        other.execute("ROLLBACK")
        assert await store.actions(tid) == []
        assert await store.get_seats(tid) == []
        assert (await store.get_table(tid)).status == "lobby"
        await store.append_action(tid, 0, 0, "a0", "player")
        await store.set_seats(tid, [SeatRow(0, 11, "alice")])
        assert await store.actions(tid) == [(0, "a0")]
    finally:
        other.close()
        await store.close()


async def test_a_transaction_cancelled_while_waiting_for_the_lock_leaves_no_lock_behind(
    tmp_path: Path,
):
    """A transaction's BEGIN waits in the connection's thread for another connection's
    write lock; its task is cancelled meanwhile (a closing host's lease renewal). Once the
    other connection lets go, the cancelled BEGIN must not keep the lock: the old code left
    that transaction open, and every other process was locked out for good."""
    store = await Store.open(tmp_path / "t.db")
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    third = sqlite3.connect(tmp_path / "t.db", isolation_level=None, timeout=0.2)
    try:
        tid = await new_table(store)
        other.execute("BEGIN IMMEDIATE")
        waiting = asyncio.ensure_future(store.set_seats(tid, [SeatRow(0, 11, "alice")]))
        await asyncio.sleep(0.3)  # (its BEGIN IMMEDIATE is waiting for the lock now)
        assert not waiting.done()
        waiting.cancel()
        other.execute("ROLLBACK")
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await asyncio.sleep(0.5)  # (SQLite's busy handler retries: the BEGIN gets the lock)
        third.execute("BEGIN IMMEDIATE")  # the lock is free: nobody holds it
        third.execute("ROLLBACK")
        assert await store.get_seats(tid) == []  # and nothing was written
        await store.set_seats(tid, [SeatRow(0, 11, "alice")])  # the store writes on
        assert [s.user_id for s in await store.get_seats(tid)] == [11]
    finally:
        third.close()
        other.close()
        await store.close()


async def _fill_the_disk(store: SQLiteStore) -> int:
    """Simulate a full disk: the database may not grow past the pages it has now."""
    pages = (await store.query("PRAGMA page_count"))[0][0]
    await store.query(f"PRAGMA max_page_count = {pages}")
    return pages


async def test_a_full_disk_is_store_unavailable_and_nothing_is_half_written(tmp_path: Path):
    """SQLITE_FULL: a group commit and a transaction (a result: rows, status, ratings) fail
    whole with StoreUnavailable; once there is room again the same calls succeed."""
    store = await Store.open(tmp_path / "t.db")
    try:
        tables = [await new_table(store) for _ in range(3)]
        await store.set_seats(tables[0], [SeatRow(0, 11, "alice"), SeatRow(1, 22, "bob")])
        pages = await _fill_the_disk(store)
        long_code = "x" * 20_000  # more than the free room left in the database's pages
        outcomes = await asyncio.gather(
            *(store.append_action(t, 0, 0, long_code, "player") for t in tables),
            return_exceptions=True,
        )
        assert all(isinstance(o, StoreUnavailable) for o in outcomes), outcomes
        assert "full" in str(outcomes[0])
        # A long name: the result rows do not fit either.
        rows = [
            ResultInput(0, 11, "alice" + long_code, 30, 1, team=0),
            ResultInput(1, 22, "bob", 10, 2, team=1),
        ]
        with pytest.raises(StoreUnavailable, match="full"):
            await store.record_result(tables[0], guild_id=GUILD, game="koikoi", rows=rows)
        for t in tables:
            assert await store.actions(t) == []
        assert (await store.query("SELECT COUNT(*) FROM results"))[0][0] == 0
        assert (await store.query("SELECT COUNT(*) FROM ratings"))[0][0] == 0
        assert (await store.get_table(tables[0])).status == "lobby"

        await store.query(f"PRAGMA max_page_count = {pages * 100}")
        await asyncio.gather(*(store.append_action(t, 0, 0, long_code, "player") for t in tables))
        assert await store.record_result(tables[0], guild_id=GUILD, game="koikoi", rows=rows)
        assert (await store.get_table(tables[0])).status == "finished"
    finally:
        await store.close()


async def test_memory_database_is_private_and_removed_at_close():
    """``:memory:`` is a temporary file the writer and the reader share, gone at close."""
    first, second = await Store.open(":memory:"), await Store.open(":memory:")
    try:
        tid = await new_table(first)
        await first.append_action(tid, 0, 0, "a0", "player")
        assert await first.actions(tid) == [(0, "a0")]
        assert await second.get_table(tid) is None
        scratch = first._scratch
        assert scratch is not None and scratch.is_dir()
    finally:
        await first.close()
        await second.close()
    assert not scratch.exists()


def test_a_process_that_does_not_close_the_store_still_exits(tmp_path: Path):
    """The connections' threads do not keep a process alive (a crash skips close())."""
    import subprocess
    import sys

    script = (
        "import asyncio, sys\n"
        "from bot.store import Store\n"
        "async def main():\n"
        f"    s = await Store.open({str(tmp_path / 't.db')!r})\n"
        "    t = await s.create_table(guild_id=1, channel_id=1, game='koikoi', options={},"
        " seed='x', host_id=1)\n"
        "    await s.append_action(t, 0, 0, 'a0', 'player')\n"
        "asyncio.run(main())\n"
        "print('exited')\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "exited" in done.stdout, done.stderr
