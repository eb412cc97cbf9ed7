"""The SQLite backend: one aiosqlite connection in WAL mode.

Every write is committed before the call returns: a write of several statements runs in an
explicit ``BEGIN IMMEDIATE`` transaction, a single statement (an appended action, a seat's
update, every read) in its own implicit one. Transactions are serialised by one lock, so
those of concurrent tables sharing the connection never interleave (and
:meth:`Transaction.lock` has nothing to do); a single statement only waits for the lock
while a transaction holds it (see ``SQLiteStore._alone``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.migrate import MIGRATIONS_DIR, migrate
from bot.store.rows import ACTION_SOURCES
from bot.store.store import IntegrityViolation, Row, Store, StoreError, Transaction

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000

T = TypeVar("T")


def _violation(exc: sqlite3.IntegrityError) -> IntegrityViolation:
    text = str(exc)
    return IntegrityViolation(text, duplicate=text.startswith("UNIQUE constraint failed"))


class _SQLiteTransaction(Transaction):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cur = await self._db.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _violation(exc) from exc
        return cur.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _violation(exc) from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def insert_id(self, sql: str, params: Sequence[Any]) -> int:
        try:
            cur = await self._db.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _violation(exc) from exc
        return int(cur.lastrowid)

    async def lock(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the database's write lock."""


class SQLiteStore(Store):
    """The store on an SQLite file (or ``:memory:``)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # Serialises transactions on the shared connection; a statement on its own does not
        # take it when it is free (see ``_alone``).
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str | Path, *, migrations_dir: Path | None = None) -> SQLiteStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions, we issue BEGIN/COMMIT ourselves.
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            applied = await migrate(db, migrations_dir or MIGRATIONS_DIR)
        except BaseException:
            await db.close()
            raise
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
            await self._db.close()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The raw connection, for tests and maintenance scripts only."""
        return self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _SQLiteTransaction(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _alone(self, statement: Callable[[], Awaitable[T]]) -> T:
        """Run one statement in its own implicit transaction. The connection's thread runs
        calls in the order they were queued, and ``statement()`` queues its call before it
        first yields: when no transaction holds the lock, the call is queued ahead of any
        later ``BEGIN`` and cannot land inside one. Statements so need no lock hand-over
        (each a turn of a busy event loop) and follow each other on the thread at once."""
        if self._lock.locked():
            async with self._lock:
                return await statement()
        return await statement()

    async def _write_one(self, sql: str, params: Sequence[Any]) -> int:
        try:
            cur = await self._alone(lambda: self._db.execute(sql, params))
        except sqlite3.IntegrityError as exc:
            raise _violation(exc) from exc
        return cur.rowcount

    async def append_action(
        self, table_id: int, idx: int, seat: int, code: str, source: str
    ) -> None:
        """As :meth:`Store.append_action`, in one statement: the insert happens only if
        ``idx`` is the next index, in one trip to the database thread and one implicit
        transaction (BEGIN, a read, the insert and COMMIT were four trips, each waiting for
        the event loop to come round, all under the connection's lock: at a few hundred
        actions a second that lock, not SQLite, capped the appends)."""
        if source not in ACTION_SOURCES:
            raise StoreError(f"unknown action source {source!r}")
        try:
            changed = await self._write_one(
                "INSERT INTO actions (table_id, idx, seat, code, source, created_at)"
                f" SELECT ?, ?, ?, ?, ?, {self.clock_sql}"
                " WHERE (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = ?)"
                " = ?",
                (table_id, idx, seat, code, source, table_id, idx),
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
            "SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = ?", (table_id,)
        )
        expected = int(rows[0][0])
        raise StoreError(
            f"table {table_id}: action index {idx} is out of order (next is {expected})"
        )

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # (the statement and its rows in one call on the connection's thread)
        return list(await self._alone(lambda: self._db.execute_fetchall(sql, params)))
