"""The PostgreSQL backend: a pool of asyncpg connections.

Within one process, calls are served as on SQLite, in the order they are made: writes run
one at a time (each its own READ COMMITTED transaction), and a read waits for the writes
made before it, so whoever saw a write being made also reads it back; reads run side by
side on the pool. Between processes, what must not interleave takes a transaction-scoped
advisory lock (:meth:`Transaction.lock`): the appends to one table's log, the results of one
table, the ratings of one (guild, game). Several processes may share the database.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.migrate import MIGRATIONS_PG_DIR, migrate_postgres
from bot.store.store import IntegrityViolation, Row, Store, Transaction

log = logging.getLogger(__name__)

POOL_MIN_SIZE = 1
POOL_MAX_SIZE = 10

_PLACEHOLDER = re.compile(r"\?")
#: The channel every append notifies (payload ``"<table>:<idx>"``).
ACTIONS_CHANNEL = "teahouse_actions"


@functools.lru_cache(maxsize=512)
def to_postgres(sql: str) -> str:
    """``?`` placeholders to ``$1, $2, ...`` (the shared SQL has no ``?`` in literals)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def _violation(exc: asyncpg.IntegrityConstraintViolationError) -> IntegrityViolation:
    return IntegrityViolation(str(exc), duplicate=isinstance(exc, asyncpg.UniqueViolationError))


def _rowcount(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTransaction(Transaction):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _rowcount(await self._conn.execute(to_postgres(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violation(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            await self._conn.executemany(to_postgres(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violation(exc) from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(to_postgres(sql), *params))

    async def insert_id(self, sql: str, params: Sequence[Any]) -> int:
        try:
            return int(await self._conn.fetchval(to_postgres(sql) + " RETURNING id", *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violation(exc) from exc

    async def lock(self, key: str) -> None:
        # A 64-bit hash of the key; a collision only makes two writers wait for each other.
        await self._conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "teahouse:" + key
        )


class PostgresStore(Store):
    """The store on a PostgreSQL database (``postgresql://user@host:port/db``)."""

    def __init__(self, pool: asyncpg.Pool, url: str = "") -> None:
        self._pool = pool
        self._url = url
        self._listener: asyncpg.Connection | None = None
        self._write_lock = asyncio.Lock()  # FIFO: writes in the order they are made
        self._pending_writes: set[asyncio.Future[None]] = set()

    @classmethod
    async def connect(cls, url: str, *, migrations_dir: Path | None = None) -> PostgresStore:
        conn = await asyncpg.connect(url)
        try:
            applied = await migrate_postgres(conn, migrations_dir or MIGRATIONS_PG_DIR)
        finally:
            await conn.close()
        if applied:
            log.info("PostgreSQL database migrated to version %d", applied[-1])
        pool = await asyncpg.create_pool(url, min_size=POOL_MIN_SIZE, max_size=POOL_MAX_SIZE)
        return cls(pool, url)

    #: The server's clock (clock_timestamp(): the time of the call, not of the transaction's
    #: start); the bot processes' clocks may differ from it and from each other.
    clock_sql = "EXTRACT(EPOCH FROM clock_timestamp())::double precision"
    notify_sql = f"SELECT pg_notify('{ACTIONS_CHANNEL}', ?)"

    @property
    def backend(self) -> str:
        return "postgres"

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        await self._pool.close()

    async def listen_for_actions(self, callback: Callable[[int, int], None]) -> bool:
        """LISTEN on a connection of its own (notifications arrive between queries, so not
        on the pool): each append NOTIFYs ``teahouse_actions`` at its commit."""
        if self._listener is not None or not self._url:
            return self._listener is not None

        def heard(conn: object, pid: int, channel: str, payload: str) -> None:
            table, _, idx = payload.partition(":")
            try:
                callback(int(table), int(idx))
            except Exception:
                log.exception("handling the notification %r failed", payload)

        self._listener = await asyncpg.connect(self._url)
        await self._listener.add_listener(ACTIONS_CHANNEL, heard)
        return True

    @property
    def connection(self) -> asyncpg.Pool:
        """The raw pool, for tests and maintenance scripts only."""
        return self._pool

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending_writes.add(done)
        try:
            async with self._write_lock:
                async with self._pool.acquire() as conn, conn.transaction():
                    yield _PostgresTransaction(conn)
        finally:
            self._pending_writes.discard(done)
            done.set_result(None)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._pending_writes:  # read what was written before this call was made
            await asyncio.wait(list(self._pending_writes))
        return list(await self._pool.fetch(to_postgres(sql), *params))
