"""The SQLite backend: one connection in WAL mode, used on the event loop's own thread.

Every write is committed before the call returns: a write of several statements runs in an
explicit ``BEGIN IMMEDIATE`` transaction, a single statement (an appended action, a seat's
update, every read) in its own implicit one. Transactions are serialised by one lock (a
transaction's body may await between its statements), so those of concurrent tables sharing
the connection never interleave (and :meth:`Transaction.lock` has nothing to do); a single
statement only waits for the lock while a transaction holds it.

Why on the loop's thread: a statement costs tens of microseconds of CPU (WAL, no fsync at
commit), but a statement handed to a worker thread (aiosqlite, before) needs the GIL back
several times, and while the loop is busy each of those waits lasts up to a switch interval.
``python -m bench store``'s busy-loop shape (50 tables appending while the loop is 80 % busy)
measured a median append of 30 ms and 1,700 appends a second through the thread, against
0.04 ms inline; in the bot at 1,000 tables the thread's queue grew to seconds. So the loop
runs them itself, and never blocks on a lock another connection holds: the connection's busy
timeout is 0, and a statement that finds the database locked (another process, or another
store on the same file) is tried again after a short sleep, for up to :data:`BUSY_TIMEOUT`
seconds, as SQLite's own busy handler would (but without holding up the loop). Opening a
database (its migrations) runs on a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.store.migrate import MIGRATIONS_DIR, migrate
from bot.store.rows import ACTION_SOURCES, TableClosed
from bot.store.store import (
    CLOSED_STATUSES,
    IntegrityViolation,
    Row,
    Store,
    StoreError,
    Transaction,
)

log = logging.getLogger(__name__)

#: How long a statement keeps trying while another connection holds the database's lock.
BUSY_TIMEOUT = 5.0
_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.05

T = TypeVar("T")


@contextmanager
def _violations() -> Iterator[None]:
    """SQLite's integrity errors, raised as the store's :class:`IntegrityViolation`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        text = str(exc)
        duplicate = text.startswith("UNIQUE constraint failed")
        raise IntegrityViolation(text, duplicate=duplicate) from exc


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


async def _patiently(attempt: Callable[[], Awaitable[T]]) -> T:
    """``await attempt()``, again after growing pauses while it finds the database locked by
    another connection, for up to :data:`BUSY_TIMEOUT` seconds (then its error stands)."""
    waited, pause = 0.0, _FIRST_PAUSE
    while True:
        try:
            return await attempt()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or waited >= BUSY_TIMEOUT:
                raise
        await asyncio.sleep(pause)
        waited += pause
        pause = min(2 * pause, _LONGEST_PAUSE)


def _changed(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    with _violations():
        return db.execute(sql, params).rowcount


class _SQLiteTransaction(Transaction):
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(self._db, sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _violations():
            self._db.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._db.execute(sql, params).fetchall()

    async def insert_id(self, sql: str, params: Sequence[Any]) -> int:
        with _violations():
            return int(self._db.execute(sql, params).lastrowid)

    async def lock(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the database's write lock."""


def _open(path: str, migrations_dir: Path) -> tuple[sqlite3.Connection, list[int]]:
    # isolation_level=None: no implicit transactions, we issue BEGIN/COMMIT ourselves.
    # check_same_thread=False: opened (and migrated) on a worker thread, then used on the
    # loop's thread only.
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.row_factory = sqlite3.Row
        # Migrating may wait for another process's lock: SQLite's own handler, on this thread.
        db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        applied = migrate(db, migrations_dir)
        db.execute("PRAGMA busy_timeout=0")  # from now on: _patiently, on the loop
    except BaseException:
        db.close()
        raise
    return db, applied


class SQLiteStore(Store):
    """The store on an SQLite file (or ``:memory:``)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        # Serialises transactions on the shared connection; a statement on its own waits for
        # it only while it is held (see ``_alone``).
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str | Path, *, migrations_dir: Path | None = None) -> SQLiteStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db, applied = await asyncio.to_thread(_open, str(path), migrations_dir or MIGRATIONS_DIR)
        if applied:
            log.info("database %s migrated to version %d", path, applied[-1])
        return cls(db)

    #: julianday('now') has millisecond precision; one machine, one clock.
    clock_sql = "((julianday('now') - 2440587.5) * 86400.0)"

    @property
    def backend(self) -> str:
        return "sqlite"

    async def close(self) -> None:
        async with self._lock:
            self._db.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection, for tests and maintenance scripts only."""
        return self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        async with self._lock:
            await _patiently(self._begin)
            try:
                yield _SQLiteTransaction(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    async def _begin(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    async def _alone(self, statement: Callable[[], T]) -> T:
        """Run one statement in its own implicit transaction: now, unless a transaction of
        this store is open (its body awaits between statements), then once it has ended."""

        async def attempt() -> T:
            if self._lock.locked():
                async with self._lock:
                    return statement()
            return statement()

        return await _patiently(attempt)

    async def _write_one(self, sql: str, params: Sequence[Any]) -> int:
        return await self._alone(lambda: _changed(self._db, sql, params))

    async def append_action(
        self, table_id: int, idx: int, seat: int, code: str, source: str
    ) -> None:
        """As :meth:`Store.append_action`, in one statement: the insert happens only if
        ``idx`` is the next index, in one implicit transaction (not BEGIN, a read, the insert
        and COMMIT)."""
        if source not in ACTION_SOURCES:
            raise StoreError(f"unknown action source {source!r}")
        try:
            changed = await self._write_one(
                "INSERT INTO actions (table_id, idx, seat, code, source, created_at)"
                f" SELECT ?, ?, ?, ?, ?, {self.clock_sql}"
                " WHERE (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = ?)"
                " = ? AND COALESCE((SELECT status FROM tables WHERE id = ?), '')"
                f" NOT IN {CLOSED_STATUSES!r}",
                (table_id, idx, seat, code, source, table_id, idx, table_id),
            )
        except IntegrityViolation as violation:
            if violation.duplicate:
                raise StoreError(
                    f"table {table_id}: action index {idx} is already taken"
                ) from violation
            raise StoreError(f"table {table_id}: cannot log action ({violation})") from violation
        if changed == 1:
            return
        rows = await self._fetchall(
            "SELECT COALESCE(MAX(idx) + 1, 0),"
            " (SELECT status FROM tables WHERE id = ?) FROM actions WHERE table_id = ?",
            (table_id, table_id),
        )
        expected = int(rows[0][0])
        if rows[0][1] in CLOSED_STATUSES:
            raise TableClosed(f"table {table_id} is {rows[0][1]}: no action is logged")
        raise StoreError(
            f"table {table_id}: action index {idx} is out of order (next is {expected})"
        )

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._alone(lambda: self._db.execute(sql, params).fetchall())
