"""The SQLite backend: aiosqlite, WAL, one writer connection and one reader connection.

No statement runs on the event loop's thread: each connection is an aiosqlite connection
with a thread of its own, so a slow disk (a checkpoint's fsync, a full or locked database)
holds up that thread, never the loop.

* **One writer.** Every write goes through one queue, served in the order the calls are
  made by one task (:class:`_Writer`) on the writer connection. A trip to its thread costs
  the loop little, but the thread needs the GIL back several times per trip, and while the
  loop is busy each of those waits lasts up to a switch interval; so the trips are few:
* **Group commit.** Appended actions, the bulk of the writes, are committed many per
  transaction: the appends waiting in the queue (those that arrived while the previous
  commit was in flight) are inserted by one statement, in one implicit transaction, one
  trip (:data:`_BATCH_INSERT`). Each caller's await returns once its own row is committed;
  an append refused (an index that is not the next one) fails only its caller. A batch holds
  at most one append per table, so an append is judged against the rows committed before
  it, as if alone; a batch the database refuses as a whole (an integrity error, e.g. an
  unknown table) is tried again one append at a time, so only the faulty caller fails.
* Other writes take the writer for their turn: a single statement is one trip in its own
  implicit transaction, a transaction of several statements runs in ``BEGIN IMMEDIATE`` …
  ``COMMIT`` (its body may await between statements; named locks have nothing to do).
* **Reads** run on a separate read-only connection: in WAL mode they see the last commit
  and never wait for the writer's lock or its queue. A read waits only for the writes
  already made when it is called (so whoever made a write reads it back, as on PostgreSQL),
  not for those made after it.
* **Faults.** SQLite's busy handler waits up to :data:`BUSY_TIMEOUT` for a lock held by
  another connection (on the connection's thread); beyond it, a full disk, or an I/O error,
  the call fails with :class:`~bot.store.rows.StoreUnavailable` and nothing of it is
  written (a batch is one statement, a transaction is rolled back whole).

``":memory:"`` opens a private database in a temporary file (removed at close), so that the
writer and the reader share it as they share a real one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import sqlite3
import tempfile
import threading
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.migrate import MIGRATIONS_DIR, migrate
from bot.store.rows import (
    ACTION_SOURCES,
    SharedClick,
    StoreError,
    StoreUnavailable,
    TableClosed,
)
from bot.store.store import (
    CLOSED_STATUSES,
    IntegrityViolation,
    Row,
    Store,
    Transaction,
    _click_params,
)

log = logging.getLogger(__name__)

#: How long a statement waits for a lock another connection holds before it fails.
BUSY_TIMEOUT = 5.0
#: The most appends one group commit takes (the rest wait for the next one).
BATCH_LIMIT = 500
#: Primary result codes that mean "not now" rather than "never": locked beyond the busy
#: timeout, the disk full, an I/O error, the file gone.
_UNAVAILABLE = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
    }
)

CLOCK_SQL = "((julianday('now') - 2440587.5) * 86400.0)"
#: A table that is aborted or finished takes no more actions (an abort wins a race with
#: a move that would end the match).
_OPEN_TABLE = (
    f"COALESCE((SELECT status FROM tables WHERE id = {{table}}), '') NOT IN {CLOSED_STATUSES!r}"
)
#: One append, inserted only if ``idx`` is the next index of its table and it is open.
_INSERT_ONE = (
    "INSERT INTO actions (table_id, idx, seat, code, source, created_at)"
    f" SELECT ?, ?, ?, ?, ?, {CLOCK_SQL}"
    " WHERE (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = ?) = ?"
    " AND " + _OPEN_TABLE.format(table="?")
)
#: A group commit: the batch is one JSON array of ``[table, idx, seat, code, source]``
#: (one statement text whatever the batch's size); the rows inserted come back.
_BATCH_INSERT = (
    "INSERT INTO actions (table_id, idx, seat, code, source, created_at)"
    f" SELECT a.table_id, a.idx, a.seat, a.code, a.source, {CLOCK_SQL} FROM ("
    "SELECT json_extract(value, '$[0]') AS table_id, json_extract(value, '$[1]') AS idx,"
    " json_extract(value, '$[2]') AS seat, json_extract(value, '$[3]') AS code,"
    " json_extract(value, '$[4]') AS source FROM json_each(?)) AS a"
    " WHERE a.idx = (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = a.table_id)"
    " AND " + _OPEN_TABLE.format(table="a.table_id") + " RETURNING table_id, idx"
)
_NEXT_INDEX = (
    "SELECT COALESCE(MAX(idx) + 1, 0), (SELECT status FROM tables WHERE id = ?)"
    " FROM actions WHERE table_id = ?"
)

T = TypeVar("T")


def _is_unavailable(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _UNAVAILABLE


def _translated(exc: sqlite3.Error) -> Exception:
    """SQLite's error as the store raises it: integrity errors as IntegrityViolation, the
    database locked, full or failing as StoreUnavailable, anything else as it is."""
    if isinstance(exc, sqlite3.IntegrityError):
        text = str(exc)
        return IntegrityViolation(text, duplicate=text.startswith("UNIQUE constraint failed"))
    if _is_unavailable(exc):
        return StoreUnavailable(f"SQLite: {exc}; nothing was written")
    return exc


async def _call(awaitable: Awaitable[T]) -> T:
    try:
        return await awaitable
    except sqlite3.Error as exc:
        error = _translated(exc)
        if error is exc:
            raise
        raise error from exc


class _SQLiteTransaction(Transaction):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await _call(self._db.execute(sql, params))).rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await _call(self._db.executemany(sql, rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await _call(self._db.execute_fetchall(sql, params)))

    async def insert_id(self, sql: str, params: Sequence[Any]) -> int:
        row_id = (await _call(self._db.execute(sql, params))).lastrowid
        assert row_id is not None  # (set by every INSERT)
        return row_id

    async def lock(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the database's write lock."""


# -- the writer's queue ----------------------------------------------------------------------


@dataclass(eq=False)
class _Append:
    table_id: int
    idx: int
    seat: int
    code: str
    source: str
    done: asyncio.Future[None]


@dataclass(eq=False)
class _Batch:
    """Appends committed together (at most one per table)."""

    served: asyncio.Future[None]
    appends: list[_Append] = field(default_factory=list)
    tables: set[int] = field(default_factory=set)

    def takes(self, append: _Append) -> bool:
        return len(self.appends) < BATCH_LIMIT and append.table_id not in self.tables

    def add(self, append: _Append) -> None:
        self.appends.append(append)
        self.tables.add(append.table_id)


@dataclass(eq=False)
class _Turn:
    """The writer connection lent to one caller: the writer sets ``start`` when it is
    theirs, the caller sets ``released`` when done with it (or gave up waiting)."""

    start: asyncio.Future[None]
    released: asyncio.Future[None]
    served: asyncio.Future[None]


_Job = _Batch | _Turn


class _Writer:
    """The one task that writes: jobs (batches of appends, turns) in the order made."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._jobs: deque[_Job] = deque()
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        #: ``served`` of the last job made: done once every write made so far is done (the
        #: writer serves the jobs in order).
        self._last: asyncio.Future[None] | None = None

    def _push(self, job: _Job) -> None:
        if self._closing:
            raise StoreError("the store is closed")
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._serve(), name="sqlite-writer")
        self._jobs.append(job)
        self._last = job.served
        assert self._wake is not None
        self._wake.set()

    async def append(self, append: _Append) -> None:
        tail = self._jobs[-1] if self._jobs else None
        if isinstance(tail, _Batch) and tail.takes(append):
            tail.add(append)
        else:
            batch = _Batch(asyncio.get_running_loop().create_future())
            batch.add(append)
            self._push(batch)
        await append.done

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[aiosqlite.Connection]:
        loop = asyncio.get_running_loop()
        job = _Turn(loop.create_future(), loop.create_future(), loop.create_future())
        self._push(job)
        try:
            await job.start
            yield self.db
        finally:
            job.start.cancel()  # a no-op once started; else the writer skips this turn
            job.released.set_result(None)

    async def settled(self) -> None:
        """Wait until every write made before this call is done (committed or failed)."""
        last = self._last
        if last is not None and not last.done():
            await asyncio.wait([last])

    async def close(self) -> None:
        """Serve what is queued, then stop."""
        self._closing = True
        await self.settled()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _serve(self) -> None:
        assert self._wake is not None
        while True:
            while not self._jobs:
                self._wake.clear()
                await self._wake.wait()
            job = self._jobs.popleft()
            try:
                if isinstance(job, _Batch):
                    await self._commit(job.appends)
                elif not job.start.cancelled():
                    job.start.set_result(None)
                    await asyncio.wait([job.released])
            except Exception as exc:  # keep serving: the callers are told below
                log.exception("the SQLite writer failed a job")
                if isinstance(job, _Batch):
                    for append in job.appends:
                        _fail(append, exc)
            finally:
                job.served.set_result(None)

    async def _commit(self, appends: list[_Append]) -> None:
        """One group commit: every append of the batch that is the next of its table."""
        payload = json.dumps([[a.table_id, a.idx, a.seat, a.code, a.source] for a in appends])
        try:
            rows = await self.db.execute_fetchall(_BATCH_INSERT, (payload,))
        except sqlite3.IntegrityError:
            # The statement wrote nothing; one by one, so only the faulty append fails.
            for append in appends:
                await self._commit_one(append)
            return
        except sqlite3.Error as exc:
            for append in appends:
                _fail(append, _translated(exc))
            return
        inserted = {(int(row[0]), int(row[1])) for row in rows}
        refused = []
        for append in appends:
            if (append.table_id, append.idx) in inserted:
                if not append.done.done():
                    append.done.set_result(None)
            else:
                refused.append(append)
        for append in refused:
            await self._refuse(append)

    async def _commit_one(self, append: _Append) -> None:
        a = append
        try:
            cursor = await _call(
                self.db.execute(
                    _INSERT_ONE,
                    (a.table_id, a.idx, a.seat, a.code, a.source, a.table_id, a.idx, a.table_id),
                )
            )
        except IntegrityViolation as violation:
            what = "is already taken" if violation.duplicate else f"cannot be logged ({violation})"
            _fail(a, StoreError(f"table {a.table_id}: action index {a.idx} {what}"))
        except Exception as exc:
            _fail(a, exc)
        else:
            if cursor.rowcount == 1:
                if not a.done.done():
                    a.done.set_result(None)
            else:
                await self._refuse(a)

    async def _refuse(self, append: _Append) -> None:
        """An append that was not taken: its table is closed, or the append was not the
        next of its table (its caller is told which is)."""
        try:
            rows = list(
                await _call(
                    self.db.execute_fetchall(_NEXT_INDEX, (append.table_id, append.table_id))
                )
            )
        except Exception as exc:
            _fail(append, exc)
            return
        status = rows[0][1]
        if status in CLOSED_STATUSES:
            _fail(append, TableClosed(f"table {append.table_id} is {status}: no action is logged"))
            return
        _fail(
            append,
            StoreError(
                f"table {append.table_id}: action index {append.idx} is out of order"
                f" (next is {int(rows[0][0])})"
            ),
        )


def _fail(append: _Append, error: BaseException) -> None:
    if not append.done.done():
        append.done.set_exception(error)


# -- opening ---------------------------------------------------------------------------------


def _migrate(path: str, migrations_dir: Path) -> list[int]:
    """Create or upgrade the schema (blocking: run on a worker thread), and switch the file
    to WAL (a setting of the file, kept)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA foreign_keys=ON")
        return migrate(db, migrations_dir)
    finally:
        db.close()


async def _connection(path: str, *, read_only: bool) -> aiosqlite.Connection:
    # isolation_level=None: no implicit transactions, we issue BEGIN/COMMIT ourselves.
    pending = aiosqlite.connect(path, isolation_level=None)
    # aiosqlite's thread is not a daemon: a process that ends without closing the store (a
    # crash) would wait for it forever at exit. SQLite's journal keeps the file whole if the
    # thread dies mid-commit (that call was never acknowledged).
    thread = getattr(pending, "_thread", None)
    if isinstance(thread, threading.Thread) and not thread.is_alive():
        thread.daemon = True
    db = await pending
    try:
        db.row_factory = sqlite3.Row
        for pragma in (
            f"busy_timeout={int(BUSY_TIMEOUT * 1000)}",
            "synchronous=NORMAL",
            "foreign_keys=ON",
            *(["query_only=ON"] if read_only else []),
        ):
            await db.execute(f"PRAGMA {pragma}")
    except BaseException:
        await db.close()
        raise
    return db


class SQLiteStore(Store):
    """The store on an SQLite file (or ``:memory:``: a private temporary file)."""

    def __init__(
        self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, scratch: Path | None
    ) -> None:
        self._writer = _Writer(writer)
        self._reader = reader
        self._scratch = scratch  # the temporary directory of a ":memory:" database

    @classmethod
    async def connect(cls, path: str | Path, *, migrations_dir: Path | None = None) -> SQLiteStore:
        scratch = None
        if str(path) == ":memory:":
            scratch = Path(tempfile.mkdtemp(prefix="teahouse-db-"))
            path = scratch / "memory.db"
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            applied = await asyncio.to_thread(_migrate, str(path), migrations_dir or MIGRATIONS_DIR)
            writer = await _connection(str(path), read_only=False)
            try:
                reader = await _connection(str(path), read_only=True)
            except BaseException:
                await writer.close()
                raise
        except sqlite3.Error as exc:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            if _is_unavailable(exc):
                raise StoreUnavailable(f"SQLite: cannot open {path}: {exc}") from exc
            raise
        except BaseException:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            raise
        if applied:
            log.info("database %s migrated to version %d", path, applied[-1])
        return cls(writer, reader, scratch)

    #: julianday('now') has millisecond precision; one machine, one clock.
    clock_sql = CLOCK_SQL

    @property
    def backend(self) -> str:
        return "sqlite"

    async def close(self) -> None:
        await self._writer.close()
        await self._writer.db.close()
        await self._reader.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The writer connection, for tests and maintenance scripts only."""
        return self._writer.db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        async with self._writer.turn() as db:
            # BEGIN IMMEDIATE may wait in the connection's thread for another connection's
            # write lock (up to the busy timeout). A task cancelled meanwhile (a closing
            # host's lease renewal) stops awaiting, but the BEGIN still completes in that
            # thread: the transaction would stay open, holding the write lock against every
            # other connection for good. So the BEGIN is always waited for, and rolled back
            # if its caller is gone.
            begin = asyncio.ensure_future(_call(db.execute("BEGIN IMMEDIATE")))
            try:
                await asyncio.shield(begin)
            except BaseException:
                await asyncio.wait([begin])
                if not begin.cancelled() and begin.exception() is None:
                    await self._roll_back(db)
                raise
            try:
                yield _SQLiteTransaction(db)
            except BaseException:
                await self._roll_back(db)
                raise
            try:
                await _call(db.execute("COMMIT"))
            except BaseException:
                await self._roll_back(db)
                raise

    @staticmethod
    async def _roll_back(db: aiosqlite.Connection) -> None:
        # SQLite may have rolled back by itself already (a full disk, an I/O error).
        if db.in_transaction:
            try:
                await db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("SQLite: rolling back failed")

    async def _write_one(self, sql: str, params: Sequence[Any]) -> int:
        """One statement in its own implicit transaction: one trip to the writer."""
        async with self._writer.turn() as db:
            return (await _call(db.execute(sql, params))).rowcount

    async def append_action(
        self,
        table_id: int,
        idx: int,
        seat: int,
        code: str,
        source: str,
        click: SharedClick | None = None,
    ) -> None:
        """As :meth:`Store.append_action`, group-committed with the other appends waiting
        for the writer (see the module's docstring). A ``click`` (only two hosts sharing
        one file share one: one process drives every table) is written after the append:
        a reader that comes between sees the action without it and sends plainly."""
        if source not in ACTION_SOURCES:
            raise StoreError(f"unknown action source {source!r}")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._writer.append(_Append(table_id, idx, seat, code, source, done))
        if click is not None:
            await self._write_one(self._share_click_sql, _click_params(table_id, seat, idx, click))

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        await self._writer.settled()  # read what was written before this call was made
        return list(await _call(self._reader.execute_fetchall(sql, params)))

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A raw statement, its errors SQLite's own (``bot/store/history.py`` reads with it;
        tests and maintenance scripts too): a SELECT is a read, on the read connection;
        anything else (it may write, or set a PRAGMA) takes the writer's turn."""
        if sql.lstrip()[:6].upper() == "SELECT":
            await self._writer.settled()
            return list(await self._reader.execute_fetchall(sql, params))
        async with self._writer.turn() as db:
            return list(await db.execute_fetchall(sql, params))
