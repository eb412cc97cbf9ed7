"""The PostgreSQL backend: a pool of asyncpg connections.

Within one process, calls are served as on SQLite, in the order they are made: writes run
one at a time (each its own READ COMMITTED transaction), and a read waits for the writes
made before it, so whoever saw a write being made also reads it back; reads run side by
side on the pool. Between processes, what must not interleave takes a transaction-scoped
advisory lock (:meth:`Transaction.lock`): an append sharing a click, the results of one
table, the ratings of one (guild, game); an append without one is a single statement, the
log's unique index deciding between two writers. Several processes may share the database.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.migrate import MIGRATIONS_PG_DIR, migrate_postgres
from bot.store.store import IntegrityViolation, Outage, Row, Store, Transaction

log = logging.getLogger(__name__)

POOL_MIN_SIZE = 1
POOL_MAX_SIZE = 10
#: Seconds a statement may take before it is cancelled and fails (asyncpg's
#: ``command_timeout``): a stalled server or a lock held elsewhere fails the call instead
#: of freezing every table queued behind it.
COMMAND_TIMEOUT = 10.0
#: Seconds to open a connection, and to wait for a connection of the pool or for this
#: process's turn to write (the writes queued behind a stalled one fail too, in bounded
#: time, rather than each waiting out the one before).
CONNECT_TIMEOUT = 5.0
WAIT_TIMEOUT = 10.0
#: Pauses between attempts to listen again after the listening connection was lost.
RELISTEN_PAUSES = (0.1, 0.5, 1.0, 2.0, 5.0)

#: Errors that mean the server did not answer (gone, restarting, stalled, the connection
#: cut), not that it refused the request.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.OperatorInterventionError,  # admin shutdown, cannot connect now, cancelled
    # (a connection cut while the pool was resetting it: "cannot switch to state …")
    asyncpg.InternalClientError,
)


def connection_lost(error: BaseException) -> bool:
    """Whether ``error`` says the call's connection is gone or broken (the server closed
    it, a restart, a network cut), not merely slow (a timeout: the connection stays good)."""
    return isinstance(error, CONNECTION_ERRORS) and not isinstance(error, TimeoutError)


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


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What the pool runs on a connection given back, beyond rolling back a transaction left
    open (which asyncpg always does): nothing. Its default reset is a query of its own
    (``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``), one more round trip
    for every call of the store — a quarter of the bot's statements at 300 tables — and the
    store leaves nothing for it to undo: its advisory locks are transaction-scoped, it
    sets no session variable, opens no cursor and LISTENs on a connection of its own (the
    migration's session lock is taken on a connection outside the pool)."""


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

    outage: Outage

    def __init__(self, pool: asyncpg.Pool, url: str = "") -> None:
        self._pool = pool
        self._url = url
        self._listener: asyncpg.Connection | None = None
        self._listen_callback: Callable[[int, int], None] | None = None
        self._on_relisten: Callable[[], None] | None = None
        self._relisten_task: asyncio.Task[None] | None = None
        self._closed = False
        self._write_lock = asyncio.Lock()  # FIFO: writes in the order they are made
        self._pending_writes: set[asyncio.Future[None]] = set()
        #: Logs the start and the end of an outage (once each).
        self.outage = Outage("PostgreSQL")

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        migrations_dir: Path | None = None,
        command_timeout: float | None = None,
    ) -> PostgresStore:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
        try:
            applied = await migrate_postgres(conn, migrations_dir or MIGRATIONS_PG_DIR)
        finally:
            await conn.close()
        if applied:
            log.info("PostgreSQL database migrated to version %d", applied[-1])
        # A connection the server closed (a restart, pg_terminate_backend) is replaced by
        # the pool at its next acquire; the call that found it dead fails (a read is tried
        # once more, see _fetchall), and the pool's other connections are replaced too
        # (see _connection_lost).
        pool = await asyncpg.create_pool(
            url,
            min_size=POOL_MIN_SIZE,
            max_size=POOL_MAX_SIZE,
            command_timeout=command_timeout or COMMAND_TIMEOUT,
            timeout=CONNECT_TIMEOUT,
            reset=_keep_session,
        )
        return cls(pool, url)

    #: The server's clock (clock_timestamp(): the time of the call, not of the transaction's
    #: start); the bot processes' clocks may differ from it and from each other.
    clock_sql = "EXTRACT(EPOCH FROM clock_timestamp())::double precision"
    notify_sql = f"(SELECT pg_notify('{ACTIONS_CHANNEL}', ?)) AS told"

    @property
    def backend(self) -> str:
        return "postgres"

    async def close(self) -> None:
        self._closed = True
        if self._relisten_task is not None:
            self._relisten_task.cancel()
        if self._listener is not None:
            listener, self._listener = self._listener, None
            listener.terminate()
        await self._pool.close()

    @property
    def listening(self) -> bool:
        """The LISTEN connection is up (False while it is being connected again)."""
        return self._listener is not None and not self._listener.is_closed()

    async def listen_for_actions(
        self,
        callback: Callable[[int, int], None],
        on_relisten: Callable[[], None] | None = None,
    ) -> bool:
        """LISTEN on a connection of its own (notifications arrive between queries, so not
        on the pool): each append NOTIFYs ``teahouse_actions`` at its commit (a held pass
        too: ``"<table>:held"``, heard as index :attr:`HELD`).

        If that connection is lost (a restart of the server, a network cut, the backend
        terminated), it is connected again, after growing pauses, for as long as the store
        is open; ``on_relisten()`` is then called: appends notified while nobody listened
        are not heard, so the caller reads the logs it follows again (a catch-up read)."""
        if self._listen_callback is not None or not self._url:
            return self._listen_callback is not None
        self._listen_callback, self._on_relisten = callback, on_relisten
        await self._connect_listener()
        return True

    def _heard(self, conn: object, pid: int, channel: str, payload: str) -> None:
        table, _, idx = payload.partition(":")
        try:
            assert self._listen_callback is not None
            self._listen_callback(int(table), self.HELD if idx == "held" else int(idx))
        except Exception:
            log.exception("handling the notification %r failed", payload)

    async def _connect_listener(self) -> None:
        listener = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
        try:
            await listener.add_listener(ACTIONS_CHANNEL, self._heard)
        except BaseException:
            listener.terminate()
            raise
        listener.add_termination_listener(self._listener_lost)
        self._listener = listener

    def _listener_lost(self, conn: object) -> None:
        if self._closed or conn is not self._listener:
            return
        self._listener = None
        log.error("the LISTEN connection to PostgreSQL was lost; connecting it again")
        if self._relisten_task is None or self._relisten_task.done():
            self._relisten_task = asyncio.get_running_loop().create_task(
                self._relisten(), name="postgres-relisten"
            )

    async def _relisten(self) -> None:
        attempt = 0
        while not self._closed:
            pause = RELISTEN_PAUSES[min(attempt, len(RELISTEN_PAUSES) - 1)]
            await asyncio.sleep(pause)
            attempt += 1
            try:
                await self._connect_listener()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if attempt == 1 or attempt % 10 == 0:
                    log.warning("listening again failed (attempt %d): %r", attempt, e)
                continue
            log.warning("listening for appended actions again (after %d attempt(s))", attempt)
            if self._on_relisten is not None:
                try:
                    self._on_relisten()
                except Exception:
                    log.exception("the catch-up after listening again failed")
            return

    @property
    def connection(self) -> asyncpg.Pool:
        """The raw pool, for tests and maintenance scripts only."""
        return self._pool

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        async with self._writing() as conn, conn.transaction():
            yield _PostgresTransaction(conn)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection to write on, in this process's turn (writes run one at a time, in
        the order they are made; reads made meanwhile wait for them), the outage told of."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending_writes.add(done)
        began = time.monotonic()
        try:
            if self._write_lock.locked():
                async with asyncio.timeout(WAIT_TIMEOUT):  # this process's turn to write
                    await self._write_lock.acquire()
            else:  # (free: taken at once, no timer to set and cancel)
                await self._write_lock.acquire()
            try:
                async with self._connection() as conn:
                    yield conn
            finally:
                self._write_lock.release()
        except CONNECTION_ERRORS as e:
            await self._connection_lost(e)
            self.outage.failed(e, began)
            raise
        else:
            self.outage.answered()
        finally:
            self._pending_writes.discard(done)
            done.set_result(None)

    async def _write_one(self, sql: str, params: Sequence[Any]) -> int:
        """One writing statement in its own implicit transaction (PostgreSQL commits a
        statement sent alone): one round trip, not three (BEGIN, the statement, COMMIT) —
        a delivered DM's stored message id, a table's update. In the order of the other
        writes, as a transaction's (:meth:`_writing`)."""
        async with self._writing() as conn:
            try:
                return _rowcount(await conn.execute(to_postgres(sql), *params))
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise _violation(exc) from exc

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        began = time.monotonic()
        if self._pending_writes:  # read what was written before this call was made
            await asyncio.wait(list(self._pending_writes))
        try:
            try:
                rows = await self._fetch(sql, params)
            except CONNECTION_ERRORS as e:
                if not await self._connection_lost(e):
                    raise
                # A connection the server closed meanwhile: read on a new one.
                log.debug("a read found its connection closed (%r); reading again", e)
                rows = await self._fetch(sql, params)
        except CONNECTION_ERRORS as e:
            await self._connection_lost(e)
            self.outage.failed(e, began)
            raise
        self.outage.answered()
        return rows

    async def _connection_lost(self, error: BaseException) -> bool:
        """After a call found its connection lost: the pool replaces every connection it
        holds at their next acquire, not only that one. The server closes them together (a
        restart, an admin cutting them), and one it closed may still look open here: its
        last message read but not its close (on a loaded machine), so the pool, which only
        drops connections it knows are closed, would hand it out to the next call (and the
        next, each failing once). True if the connection was lost (not a timeout)."""
        if not connection_lost(error):
            return False
        await self._pool.expire_connections()
        return True

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        async with self._connection() as conn:
            return list(await conn.fetch(to_postgres(sql), *params))

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, waited for at most :data:`WAIT_TIMEOUT` s. (Not
        ``pool.acquire(timeout=…)``: on Python < 3.12 asyncpg runs a timed acquire as a task
        of its own, and times the release too — a task, two timers and a turn of the event
        loop more for every call of the store, a good part of the bot's loop at 300
        tables.)"""
        async with asyncio.timeout(WAIT_TIMEOUT):
            conn = await self._pool.acquire()
        try:
            yield conn
        finally:
            await self._pool.release(conn)
