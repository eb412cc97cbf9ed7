"""PostgreSQL failing under the store: a stalled statement fails in bounded time instead of
freezing the process (the command timeout), connections the server closed are replaced
(the pool reconnects; a read is tried again), the LISTEN connection is connected again
after the server terminated it and the host reads the logs it follows (a catch-up), and an
outage is logged once when it begins and once when it ends.

On the real server (a database of the session's own, see conftest.py); the server itself
is never stopped: a lock held by another connection stalls statements, and
``pg_terminate_backend`` cuts connections as a restart would. Waits are bounded; the
assertions are about outcomes, not about how long things took."""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import SeatRow, Store, outage_error
from bot.store import postgres as pg
from tests.host.offline import offline_host, until

pytestmark = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


async def a_table(store: Store, status: str = "active") -> int:
    table_id = await store.create_table(
        guild_id=1, channel_id=2, game="koikoi", options={}, seed="pg-faults", host_id=7
    )
    await store.set_seats(
        table_id,
        [SeatRow(seat=0, user_id=7, name="Alice"), SeatRow(seat=1, user_id=8, name="Bob")],
    )
    if status == "active":
        assert await store.transition(table_id, ("lobby",), "active")
    return table_id


async def outcome(call: Any, guard: float = 60.0) -> BaseException | Any:
    """What ``call`` came to (its result or its error), or fail if it is still waiting
    after ``guard`` seconds (it froze)."""
    task = asyncio.ensure_future(call)
    done, _ = await asyncio.wait([task], timeout=guard)
    if task not in done:
        task.cancel()
        pytest.fail("the call never came back: it froze behind the stalled statement")
    return task.exception() or task.result()


async def test_a_stalled_statement_fails_in_bounded_time(
    backend: str, new_database, monkeypatch, caplog
) -> None:
    """Another connection holds a lock on ``tables``: a read and two writes queued behind
    each other fail with a timeout (an outage error), logged once; once the lock is let
    go, the store works again and says the database answers again."""
    monkeypatch.setattr(pg, "COMMAND_TIMEOUT", 1.0)
    monkeypatch.setattr(pg, "WAIT_TIMEOUT", 1.5)
    url = await new_database()
    store = await Store.open(url)
    holder = await asyncpg.connect(url)
    try:
        table_id = await a_table(store)
        caplog.set_level(logging.WARNING, logger="bot.store.store")
        transaction = holder.transaction()
        await transaction.start()
        await holder.execute("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE")
        read, write, queued = await asyncio.gather(
            outcome(store.get_table(table_id)),
            outcome(store.update_table(table_id, thread_id=5)),
            outcome(store.append_action(table_id, 0, 0, "play 1b", "player")),
        )
        for failure in (read, write, queued):
            assert isinstance(failure, BaseException) and outage_error(failure), failure
        assert store.outage.down
        await transaction.rollback()
        assert (await store.get_table(table_id)).thread_id is None
        await store.append_action(table_id, 0, 0, "play 1b", "player")
        assert await store.actions(table_id) == [(0, "play 1b")]
        assert not store.outage.down
        lines = [r.getMessage() for r in caplog.records]
        assert sum("is not answering" in line for line in lines) == 1, lines
        assert sum("answers again" in line for line in lines) == 1, lines
    finally:
        await holder.close()
        await store.close()


async def terminate_others(url: str, *, only: int | None = None) -> int:
    """Cut the server's connections to this database (all but the asking one, or ``only``
    that backend), as a restart of the server does. Returns how many."""
    admin = await asyncpg.connect(url)
    try:
        if only is not None:
            return int(bool(await admin.fetchval("SELECT pg_terminate_backend($1)", only)))
        return len(
            await admin.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    finally:
        await admin.close()


async def test_connections_the_server_closed_are_replaced(backend: str, new_database) -> None:
    """The server cuts the connection a read is running on (as a restart does): the read
    is made again on a new connection of the pool. A write is not repeated by the store
    (it may have been committed): after a cut it fails at most once."""
    url = await new_database()
    store = await Store.open(url)
    admin = await asyncpg.connect(url)
    try:
        table_id = await a_table(store)
        read = asyncio.ensure_future(store.query("SELECT 1 AS slept FROM pg_sleep(0.5)"))
        running = "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT 1 AS slept%'"
        while not (pids := await admin.fetch(running)):  # (bounded: the read takes 0.5 s)
            assert not read.done(), "the read ended before it could be cut"
            await asyncio.sleep(0.01)
        assert await terminate_others(url, only=pids[0]["pid"]) == 1
        assert [row["slept"] for row in await outcome(read)] == [1]
        assert await terminate_others(url) >= 1  # every connection of the pool, idle
        try:
            await store.update_table(table_id, thread_id=5)
        except Exception as e:
            assert outage_error(e), e
            await store.update_table(table_id, thread_id=5)
        assert (await store.get_table(table_id)).thread_id == 5
    finally:
        await admin.close()
        await store.close()


class LateClose:
    """A TCP relay between a store and the server. Once told to hold closes, it passes
    everything on but the server's closing of a connection: the store learns of it only
    when it next writes on that connection (the relay then closes it). A connection the
    server cut thus looks open to the pool, its last message ("terminating connection")
    read but not its close, as a loaded machine or a slow network leaves it for a while."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._url, self._target = parts, (parts.hostname, parts.port or 5432)
        self._held: list[asyncio.StreamWriter] = []  # closes not passed on yet
        self._holding = False
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        """The URL to reach the server through the relay."""
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return urlunsplit(self._url._replace(netloc=f"{self._url.username}@127.0.0.1:{port}"))

    def hold_closes(self) -> None:
        self._holding = True

    @property
    def held(self) -> int:
        """The server's closes held back so far."""
        return len(self._held)

    def pass_closes_on(self) -> None:
        """From now on, pass on the server's closes (those held, and any to come)."""
        self._holding = False
        for writer in self._held:
            writer.close()

    async def close(self) -> None:
        self.pass_closes_on()
        if self._server is not None:
            self._server.close()

    async def _relay(self, client: asyncio.StreamReader, to_client: asyncio.StreamWriter) -> None:
        server, to_server = await asyncio.open_connection(*self._target)
        gone = asyncio.Event()

        async def down() -> None:
            try:
                while data := await server.read(65536):
                    to_client.write(data)
                    await to_client.drain()
            except OSError:
                pass  # (a reset: closed too)
            gone.set()
            if self._holding:
                self._held.append(to_client)  # (the client is not told)
            else:
                to_client.close()

        downstream = asyncio.ensure_future(down())
        try:
            while (data := await client.read(65536)) and not gone.is_set():
                to_server.write(data)
                await to_server.drain()
        except OSError:
            pass
        finally:
            downstream.cancel()
            to_client.close()
            to_server.close()


async def test_a_cut_connection_is_not_handed_out_after_another_was_found_cut(
    backend: str, new_database
) -> None:
    """The server cuts both connections of the pool, and neither close has reached the
    store yet (they look open). The first write finds its connection cut and fails; the
    pool's other connection, cut alike, must not fail the next write too: one failure per
    cut, not one per connection the pool held."""
    url = await new_database()
    relay = LateClose(url)
    store = await Store.open(await relay.start())
    admin = await asyncpg.connect(url)
    try:
        table_id = await a_table(store)
        # Two reads at once (held up by a lock until both run): two connections in the pool.
        await admin.execute("SELECT pg_advisory_lock(42)")
        read = "SELECT 1 AS waited FROM pg_advisory_xact_lock_shared(42)"
        reads = asyncio.gather(store.query(read), store.query(read))
        waiting = (
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event = 'advisory'"
        )
        while await admin.fetchval(waiting) < 2:  # (bounded: the reads time out, and fail)
            assert not reads.done(), "a read ended before both were waiting"
            await asyncio.sleep(0.01)
        await admin.execute("SELECT pg_advisory_unlock(42)")
        assert [[row["waited"] for row in rows] for rows in await outcome(reads)] == [[1], [1]]
        assert store.connection.get_size() == 2
        relay.hold_closes()
        assert await terminate_others(url) == 3  # the pool's two, and admin
        await until(lambda: relay.held == 2)
        failures = []
        for _ in range(2):
            try:
                await store.update_table(table_id, thread_id=5)
                break
            except Exception as e:
                assert outage_error(e), e
                failures.append(e)
        assert len(failures) == 1, failures
        assert (await store.get_table(table_id)).thread_id == 5
    finally:
        relay.pass_closes_on()
        await admin.close()
        await store.close()
        await relay.close()


async def test_listening_is_connected_again_after_the_server_cut_it(
    backend: str, new_database
) -> None:
    url = await new_database()
    store, other = await Store.open(url), await Store.open(url)
    heard: list[tuple[int, int]] = []
    relistened = asyncio.Event()
    try:
        table_id = await a_table(store)
        assert await store.listen_for_actions(lambda t, i: heard.append((t, i)), relistened.set)
        assert store.listening
        listener_pid = store._listener.get_server_pid()
        assert await terminate_others(url, only=listener_pid) == 1
        await asyncio.wait_for(relistened.wait(), 60)
        assert store.listening and store._listener.get_server_pid() != listener_pid
        await other.append_action(table_id, 0, 0, "play 1b", "player")
        await until(lambda: (table_id, 0) in heard)
    finally:
        await other.close()
        await store.close()


async def test_a_host_reads_the_log_after_listening_again(
    backend: str, new_database, monkeypatch
) -> None:
    """A host driving a table (no looking at the log: ``log_poll`` 0, it relies on the
    notifications) loses its LISTEN connection; another process appends a move meanwhile,
    whose notification nobody hears. Once listening again the host reads the log and
    shows the move."""
    monkeypatch.setattr(pg, "RELISTEN_PAUSES", (0.5,))  # the move lands while deaf
    url = await new_database()
    host = await offline_host(
        url, record=True, lease_seconds=3600.0, log_poll=0.0, turn_seconds=3600.0
    )
    other = await Store.open(url)
    try:
        table_id = await a_table(host.store)
        assert await host.restore() == 1
        table = host.tables[table_id]
        await until(lambda: host.store.listening and not table.lock.locked())
        seat = table.state.to_act[0]
        code = table.state.legal_actions(seat)[0]
        version = table.state.version
        pid = host.store._listener.get_server_pid()
        assert await terminate_others(url, only=pid) == 1
        await until(lambda: not host.store.listening)
        await other.append_action(table_id, version, seat, code, "player")
        await until(lambda: table.state.version == version + 1, timeout=60)
        assert table.state.log == await other.actions(table_id)
        assert host.store.listening
    finally:
        await other.close()
        await host.close()
        await host.store.close()
