"""The store's cost per action: ``python -m bench store [--database URL]``.

Every action a table makes is appended to its log and committed before anything is shown
(``Store.append_action``: one transaction that takes the table's append lock, reads the
next index and inserts the row). This measures that call as the host makes it — wall time
from the call to its return, committed — on SQLite (a file in a temporary directory, WAL,
as the bot runs it) and on PostgreSQL (a fresh schema of the given database, dropped
afterwards):

* ``one table``: actions appended one after another to a single table (the latency a
  player's click pays, with nothing else going on);
* ``N tables at once``: N tables appending concurrently, each one action after the other
  (a busy process: calls queue behind each other's transactions), with the throughput;
* ``N tables, busy loop``: the same while a task keeps the event loop 80 % busy with pure
  Python, in slices of :data:`BUSY_SLICE` seconds, as the gateway, the tables' logic and
  sending images do in a loaded bot. This is what a store that hands its statements to a
  thread pays: the thread needs the GIL back for every step of a statement. (SQLite's
  statements run on the loop and do not yield to the busy task between them: compare the
  latencies, not the throughput.)

Each shape also reports ``loop lag``: the longest a 1 ms timer of the event loop fired late
while the appends ran — how long the store held the loop up (a statement run on the loop's
thread holds it for its whole length, a checkpoint's fsync included). In the busy-loop
shape it includes the busy task's own slices. The bench runs with the bot's GIL switch
interval (``bot.__main__.SWITCH_INTERVAL``), as a thread serving the loop waits for the GIL
in the bot.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench import percentile
from bot.store import Store

LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
#: How long the busy loop's task runs before it sleeps a quarter of that (``busy loop``).
BUSY_SLICE = 0.004


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = f"{parts.query}&search_path={schema}" if parts.query else f"search_path={schema}"
    return urlunsplit(parts._replace(query=query))


class PostgresSchema:
    """A fresh schema in the database at ``url`` for the length of a benchmark."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = f"bench_{uuid.uuid4().hex[:10]}"

    async def __aenter__(self) -> str:
        import asyncpg

        conn = await asyncpg.connect(self.url, timeout=10)
        try:
            await conn.execute(f"CREATE SCHEMA {self.name}")
        finally:
            await conn.close()
        return with_search_path(self.url, self.name)

    async def __aexit__(self, *exc: object) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url, timeout=10)
        try:
            await conn.execute(f"DROP SCHEMA {self.name} CASCADE")
        finally:
            await conn.close()


async def postgres_url(given: str | None) -> str | None:
    """The PostgreSQL database to measure: ``given``, else ``TEAHOUSE_TEST_POSTGRES``, else
    the local server if it answers; None if there is none."""
    url = given or os.environ.get("TEAHOUSE_TEST_POSTGRES") or LOCAL_POSTGRES
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=3)
    except Exception:
        if given:
            raise
        return None
    await conn.close()
    return url


async def _keep_busy(stop: asyncio.Event) -> None:
    while not stop.is_set():
        until = time.perf_counter() + BUSY_SLICE
        while time.perf_counter() < until:
            pass
        await asyncio.sleep(BUSY_SLICE / 4)


async def _watch_loop(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append(time.perf_counter() - started - 0.001)


async def append_latency(
    database: str, *, tables: int, actions: int, busy_loop: bool = False
) -> dict[str, Any]:
    """Append ``actions`` actions to each of ``tables`` tables at once; per-call figures.
    ``busy_loop``: while a task keeps the event loop busy."""
    store = await Store.open(database)
    stop = asyncio.Event()
    busy = [asyncio.create_task(_keep_busy(stop)) for _ in range(1 if busy_loop else 0)]
    lags: list[float] = [0.0]
    watch: asyncio.Task[None] | None = None
    try:
        ids = [
            await store.create_table(
                guild_id=1, channel_id=1, game="koikoi", options={}, seed=f"bench{i}", host_id=1
            )
            for i in range(tables)
        ]
        latencies: list[float] = []

        async def one(table_id: int) -> None:
            for idx in range(actions):
                started = time.perf_counter()
                await store.append_action(table_id, idx, idx % 2, f"play {idx}", "player")
                latencies.append((time.perf_counter() - started) * 1000)

        watch = asyncio.create_task(_watch_loop(stop, lags))
        started = time.perf_counter()
        await asyncio.gather(*(one(t) for t in ids))
        wall = time.perf_counter() - started
    finally:
        stop.set()
        await asyncio.gather(*busy)
        if watch is not None:
            await watch
        await store.close()
    return {
        "tables": tables,
        "actions": len(latencies),
        "p50_ms": round(percentile(latencies, 50), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
        "max_ms": round(max(latencies), 2),
        "actions_per_s": round(len(latencies) / wall, 1),
        "loop_lag_max_ms": round(max(lags) * 1000, 2),
    }


async def run_store(
    *, database: str | None = None, tables: int = 50, actions: int = 200
) -> dict[str, Any]:
    """Both backends (PostgreSQL when a server answers), every shape."""
    from bot.__main__ import SWITCH_INTERVAL

    sys.setswitchinterval(SWITCH_INTERVAL)
    shapes = {
        "one table": (1, actions * 2, False),
        "tables at once": (tables, actions, False),
        "tables, busy loop": (tables, actions, True),
    }
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="teahouse-store-bench-") as tmp:
        for shape, (n, k, busy) in shapes.items():
            path = str(Path(tmp) / f"{uuid.uuid4().hex[:6]}.db")
            out[f"sqlite, {shape}"] = await append_latency(
                path, tables=n, actions=k, busy_loop=busy
            )
    url = await postgres_url(database)
    if url is None:
        out["postgres"] = f"skipped: no server at {LOCAL_POSTGRES} (give --database)"
        return out
    for shape, (n, k, busy) in shapes.items():
        async with PostgresSchema(url) as schema_url:
            out[f"postgres, {shape}"] = await append_latency(
                schema_url, tables=n, actions=k, busy_loop=busy
            )
    return out
