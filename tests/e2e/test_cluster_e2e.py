"""Two ``python -m bot`` processes on one PostgreSQL database, each running one of two gateway
shards, as a deployment would run them (README: "When one process is not enough").

The fake Discord lives in the test process: guild A is on shard 0 (process P0, which also
gets every DM and DM click), guild B on shard 1 (process P1). Whole matches of every game
are played by clicking the controls the bots sent by DM, with AI seats to keep them short.
Everything is checked where a person or an operator would look: the fake (DMs, thread
posts) and the database (the log, results, ratings) — never the bots' memory.

* Both processes up: every match ends once (one log, one result, one rating, one
  "is over" post) although its DM clicks are served by P0 and its guild is P1's.
* P1 killed with SIGKILL mid-match: its tables go on through DMs, the surviving process
  drives their timers and AI seats; P1 restarted: nothing applied twice.
* P0 killed mid-match: DM clicks reach nobody, so players wait; P0 restarted: play resumes.

Handing a dead process's tables to another, and a single driver (and a single "is over"
post) per table, need the table leases of issue 10 item 3.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAME_NAMES
from bot.store import Store
from tests.e2e.cluster import (
    BotProcess,
    PlayedTable,
    Players,
    bot_environment,
    check_finished_once,
    describe,
    open_table,
    start_and_identify,
    until,
)
from tests.e2e.fakediscord import FakeDiscord
from tests.store.conftest import postgres_url, with_search_path  # noqa: F401 (a fixture)

log = logging.getLogger(__name__)

SHARDS = 2

#: Every process's settings: short timers and leases, AIs that barely wait.
SETTINGS = {
    "TEAHOUSE_SHARD_COUNT": str(SHARDS),
    "TEAHOUSE_SEED_BASE": "cluster-e2e",
    "TEAHOUSE_AI_DELAY": "0.05",
    "TEAHOUSE_EDIT_INTERVAL": "0.5",
    "TEAHOUSE_TURN_SECONDS": "60",
    "TEAHOUSE_CLAIM_SECONDS": "3",
    "TEAHOUSE_NEW_COOLDOWN": "0",
    "TEAHOUSE_LOG_POLL": "0.2",
    # Short leases, so a dead process's tables change hands within seconds; not shorter:
    # on a loaded 2-core machine a renewal (every third of it) must not lapse by accident.
    "TEAHOUSE_LEASE_SECONDS": "3",
    "TEAHOUSE_RENDER_PROCESSES": "1",
    "TEAHOUSE_LOG_LEVEL": "INFO",
}

#: Per table: the time each person has for a decision. Short where a process is killed
#: (timers of tables whose clicks cannot arrive matter then); long enough elsewhere that a
#: timeout means a click was refused or lost.
SHORT_TURN, LONG_TURN = 15, 60


@dataclass(frozen=True)
class Match:
    game: str
    options: dict[str, Any]
    humans: int
    ais: int


MATCHES = [
    Match("koikoi", {}, humans=1, ais=1),
    Match("mushi", {"hands": 6}, humans=1, ais=1),
    Match("panda", {"target": 200}, humans=2, ais=2),
    Match("sandayi", {"hands": 2}, humans=2, ais=2),
    Match("mahjong", {"max_hands": 1}, humans=1, ais=3),
]


@pytest.fixture
async def database(postgres_url: str) -> AsyncIterator[str]:  # noqa: F811
    """A fresh schema of the session's PostgreSQL database, dropped afterwards."""
    import asyncpg

    schema = f"cluster_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    yield with_search_path(postgres_url, schema)
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


@dataclass
class Cluster:
    fake: FakeDiscord
    store: Store
    bots: list[BotProcess]  # bots[i] runs shard i
    channels: dict[int, int]  # shard → a games channel in a guild on that shard
    players: Players

    async def restart(self, shard: int) -> None:
        await start_and_identify(self.fake, self.bots[shard], [shard])

    async def open(
        self, shard: int, match: Match, index: int, turn_seconds: int = SHORT_TURN
    ) -> PlayedTable:
        users = [self.fake.add_user(f"{match.game}{index}-p{i}") for i in range(match.humans)]
        options = {**match.options, "turn_seconds": turn_seconds}
        return await open_table(
            self.fake, self.store, self.channels[shard], match.game, users, match.ais, options
        )


@contextlib.asynccontextmanager
async def running_cluster(database: str, workdir: Path) -> AsyncIterator[Cluster]:
    # Whole matches at machine speed: the bots edit DMs faster than Discord's per-channel
    # limits allow and discord.py would wait out every bucket; this test is about processes,
    # not pacing (the rate limits have their own tests and the bench).
    fake = FakeDiscord(shard_count=SHARDS, rate_limits=False)
    await fake.start()
    channels = {}
    for shard, name in enumerate("AB"):
        guild = fake.add_guild(f"Guild {name}", shard=shard, shard_count=SHARDS)
        channels[shard] = fake.add_text_channel(guild, "games")
    bots = [
        BotProcess(
            workdir,
            bot_environment(fake, database, **SETTINGS, TEAHOUSE_SHARDS=str(shard)),
            name=f"p{shard}",
        )
        for shard in range(SHARDS)
    ]
    store: Store | None = None
    try:
        for shard, bot in enumerate(bots):
            await start_and_identify(fake, bot, [shard])
        await fake.wait_until(
            lambda: set(GAME_NAMES) <= {c["name"] for c in fake.commands()},
            timeout=60,
            what="the slash commands",
        )
        store = await Store.open(database)
        yield Cluster(fake, store, bots, channels, Players(fake, store, stall_seconds=40))
        problems = fake.problems()
        assert not problems, "the fake Discord saw something wrong:\n" + "\n".join(problems)
    except BaseException:
        for bot in bots:  # pytest shows what was printed when the test fails
            print(f"----- {bot.name} (log {bot.log_path.name})\n{bot.log_tail(6000)}")
        raise
    finally:
        for bot in bots:
            await bot.stop()
        if store is not None:
            await store.close()
        await fake.stop()


@contextlib.asynccontextmanager
async def playing(
    cluster: Cluster, tables: list[PlayedTable]
) -> AsyncIterator[list[asyncio.Task[None]]]:
    """The players of ``tables`` at work (stopped on the way out)."""
    tasks = [asyncio.create_task(cluster.players.play(t)) for t in tables]
    try:
        yield tasks
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _finish(
    cluster: Cluster,
    tables: list[PlayedTable],
    tasks: list[asyncio.Task[None]],
    *,
    timeouts_allowed: bool = True,
    timeout: float = 150,
) -> None:
    """Wait for every match to end (a player's failure fails the test), then check them."""
    done, pending = await asyncio.wait(tasks, timeout=timeout, return_when="FIRST_EXCEPTION")
    for task in done:
        task.result()
    assert not pending, "matches still running: " + "; ".join(describe(t) for t in tables)
    # The last posts ("is over", results) follow the last action: give them a moment.
    problems: list[str] = []

    async def all_good() -> bool:
        nonlocal problems
        problems = [
            p
            for t in tables
            for p in await check_finished_once(
                cluster.fake, cluster.store, t, timeouts_allowed=timeouts_allowed
            )
        ]
        return not problems

    with contextlib.suppress(TimeoutError):
        await until(all_good, 15, interval=0.5)
    assert problems == [], "\n".join(problems)


async def _progress(tables: list[PlayedTable], actions: int, timeout: float, what: str) -> None:
    """Until each table has made ``actions`` more actions than now (or ended)."""
    target = {t.id: t.state.version + actions for t in tables}
    await until(
        lambda: all(t.state.is_over or t.state.version >= target[t.id] for t in tables),
        timeout,
        what=what + ": " + "; ".join(describe(t) for t in tables),
    )


async def _log_failover(cluster: Cluster, killed: float) -> None:
    """Log (for the note; nothing asserts speed) how long after the kill the survivor drove
    its first move: the first AI move or timeout stored after it, by the database's clock."""
    rows = await cluster.store.query(
        "SELECT MIN(created_at) AS first FROM actions WHERE source <> 'player' AND created_at > ?",
        (killed,),
    )
    if rows and rows[0]["first"] is not None:
        log.warning(
            "failover: first move driven by the survivor %.2f s after kill -9",
            float(rows[0]["first"]) - killed,
        )


async def test_every_game_across_two_processes(database: str, tmp_path: Path) -> None:
    """Tables in both guilds; all DM clicks are served by P0, while P1 drives its guild's
    tables (timers, AI seats): every click is taken, no seat ever times out."""
    async with running_cluster(database, tmp_path) as cluster:
        tables = [
            await cluster.open(
                1 if m.game in ("koikoi", "panda", "mahjong") else 0, m, i, LONG_TURN
            )
            for i, m in enumerate(MATCHES)
        ]
        assert {cluster.fake.shard_of(t.guild, SHARDS) for t in tables} == {0, 1}
        async with playing(cluster, tables) as tasks:
            await _finish(cluster, tables, tasks, timeouts_allowed=False)
            assert all(t.undelivered == 0 for t in tables)


async def test_a_process_killed_mid_match_and_restarted(database: str, tmp_path: Path) -> None:
    """kill -9 the process not holding shard 0 (P1, whose guild holds every table): DM
    clicks still reach P0, and P0 drives the timers and AI seats of P1's tables until P1
    is back; afterwards every match ended once."""
    async with running_cluster(database, tmp_path) as cluster:
        tables = [await cluster.open(1, m, i) for i, m in enumerate(MATCHES)]
        async with playing(cluster, tables) as tasks:
            await _progress(tables, 4, 60, "before the kill")
            killed = await cluster.store.query(f"SELECT {cluster.store.clock_sql} AS now")
            await cluster.bots[1].kill9()
            # Every table needs its AI seats (and for Mah-Jongg its claim windows) driven to get
            # this far: only the surviving process can do it.
            await _progress(tables, 12, 60, "while P1 is down")
            await _log_failover(cluster, float(killed[0]["now"]))
            await cluster.restart(1)
            await _finish(cluster, tables, tasks)


async def test_the_shard_0_process_killed_mid_match_and_restarted(
    database: str, tmp_path: Path
) -> None:
    """kill -9 P0 (shard 0: its guild's tables, and every DM click): the clicks reach
    nobody while it is down, so players wait; once it is back, play resumes and every match
    ends once."""
    async with running_cluster(database, tmp_path) as cluster:
        tables = [
            await cluster.open(0 if m.game in ("koikoi", "panda", "mahjong") else 1, m, i)
            for i, m in enumerate(MATCHES)
        ]
        async with playing(cluster, tables) as tasks:
            await _progress(tables, 4, 60, "before the kill")
            await cluster.bots[0].kill9()
            # A DM click now reaches no process (Discord sends DMs to shard 0 only).
            await until(lambda: any(t.undelivered for t in tables), 30, what="an undelivered click")
            await cluster.restart(0)
            await _finish(cluster, tables, tasks)
