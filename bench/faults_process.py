"""The fault soak with real bot processes: ``python -m bench faults [--processes N]``.

``N`` real ``python -m bot`` processes (process i running shard i of N; one guild per
shard) play against the fake Discord of ``tests/e2e`` — the bench's process holds the fake
and the simulated people, as ``python -m bench host`` does (``bench/host_process.py``). On
PostgreSQL the processes share a throwaway server the bench starts on its own port
(``bench/pg_throwaway.py``; never the machine's service); one process may run on SQLite.

Tables of San Da Yi (one hand, a person and three AIs), Koi-Koi and Mushi (6 hands; a
person against an AI) are opened with the slash commands. The person clicks a legal move
from the newest controls the bot sent them by DM for the decision at hand
(``tests/e2e/cluster.py`` ``Players``) after a think time: short at half of the tables
(their matches end during the run), longer at the others (they stay live). On a
schedule (twice without ``--quick``) the bench injects:

- a burst of Discord 5xx (``FakeDiscord.fail_next``): interaction callbacks, interaction
  webhooks, channel messages and their edits answered 500/502/503;
- a gateway disconnect that is RESUMEd (``drop_connections``), and one answered with
  INVALID_SESSION, so the bots IDENTIFY anew (``invalidate_sessions``);
- the database failing: on PostgreSQL a restart of the server and the server stalled
  (SIGSTOP) for 10 s; on SQLite another connection holding the write lock for 10 s
  (beyond the bot's busy timeout: its appends fail with "database is locked");
- ``kill -9`` of a bot process (with N ≥ 2 the last one: the others take its tables over
  by their leases and shard 0 keeps receiving the DM clicks), started again afterwards.

In that order: kill -9, 5xx, RESUME, (PostgreSQL restart,) INVALID_SESSION, the database's
stall.

Then play stops and every table is checked. What the bench knows it reads where a person
or an operator would — the fake Discord and the database — never the bots' memory:

- **nothing lost** (the log replays to the state shown): every decision the bots ever
  showed a player (a DM's action controls, stamped with table, seat and state version) is
  a state the final log replays to — its version within the log, its seat to act there,
  each of its buttons a legal move there — and, once play has stopped, every live table
  shows its person the decision at the log's head. A move held in a bot's memory but
  not committed would show up as a decision beyond, or beside, the log.
- **nothing doubled**: the log's indexes are gapless, it replays (every action legal where
  it stands), and every player move in it answers a click the person made at that version.
- **every finished match recorded once**: status finished, one result per seat, the
  person's rating counting it once, one "is over" post in its thread.
- **nothing stuck**: every live table takes a person's click (the move stored) within
  15 s of the end of the last fault (the database back: the schedule ends with its stall).
- **quiet CPU**: the bot processes (and their render workers, from ``/proc``) use at most
  a quarter of a core in total once play stops.

It reports, for each time the database came back, how long each table whose person had
clicked in vain during the outage waited for its next move stored (p50/p99, the stored
moves stamped by the database's clock). The fake Discord's rate limits are off: this soak
is about faults, not pacing (the host bench has the rate limits).

``BENCH_KEEP_LOGS=<dir>`` keeps the bot processes' logs; ``BENCH_BOT_LOG_LEVEL`` sets their
level (INFO).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.faults import STUCK_AFTER, FaultsReport
from bench.host_process import Bots, cpu_seconds, setup_discord, teardown
from bot.engine import IllegalAction
from bot.games import game_module
from bot.host.options import game_options
from bot.store import Store
from tests.e2e.cluster import (
    PlayedTable,
    Players,
    check_recorded_once,
    describe,
    open_table,
    until,
)
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.teahouse import action_components, control_moves, latest_controls, state_checks

log = logging.getLogger(__name__)

#: The tables, in turn: (game, options, AI seats, the person's think time in s). The first
#: two are quick (their matches end during the run: a one-hand San Da Yi against three AIs
#: in well under a minute), the others slower (they are live when the faults end).
MATCHES: tuple[tuple[str, dict[str, Any], int, tuple[float, float]], ...] = (
    ("sandayi", {"hands": 1}, 3, (0.05, 0.3)),
    ("koikoi", {}, 1, (0.05, 0.3)),
    ("mushi", {"hands": 6}, 1, (1.0, 3.0)),
    ("koikoi", {}, 1, (1.0, 3.0)),
)
#: The bot processes' settings: no turn runs out (a person's clicks decide), short leases so
#: a killed process's tables change hands within seconds (not shorter: on a loaded 2-core
#: machine a renewal must not lapse by accident).
SETTINGS = {
    "TEAHOUSE_AI_DELAY": "0.1",
    "TEAHOUSE_EDIT_INTERVAL": "0.5",
    "TEAHOUSE_TURN_SECONDS": "600",
    "TEAHOUSE_CLAIM_SECONDS": "3",
    "TEAHOUSE_SEED_BASE": "faults",
    "TEAHOUSE_LEASE_SECONDS": "3",
    "TEAHOUSE_RENDER_PROCESSES": "1",
    "TEAHOUSE_LOG_LEVEL": os.environ.get("BENCH_BOT_LOG_LEVEL", "INFO"),
}
#: The 5xx burst: (route, status, answers failed).
BURST = (
    ("POST /interactions/{iid}/{token}/callback", 503, 2),
    ("PATCH /webhooks/{app}/{token}/messages/{mid}", 502, 4),
    ("POST /webhooks/{app}/{token}", 500, 2),
    ("POST /channels/{cid}/messages", 503, 4),
    ("PATCH /channels/{cid}/messages/{mid}", 502, 4),
)
#: The burst lasts until its answers are failed, or this long.
BURST_SECONDS = 5.0
#: The database is down or stalled this long.
OUTAGE_SECONDS = 10.0
#: s a person waits for the log before going by what they know.
LOOK_TIMEOUT = 2.0
#: The answer to a click whose move the store could not take (bot/host/cluster.py).
NOT_SAVED = "not saved"


class ShownDecisions:
    """Every decision the bots showed a person (a fake message observer): per table, the
    (seat, version, action components) of each DM sent or edited with live controls."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.by_table: defaultdict[int, list[tuple[int, int, list[dict[str, Any]]]]] = defaultdict(
            list
        )
        fake.message_observers.append(self)

    def __call__(self, message: FakeMessage, created: bool) -> None:
        if not self.fake.channel(message.channel_id).is_dm:
            return
        grouped: defaultdict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
        for comp in action_components(message):
            _, _, table, seat, version, _ = comp["custom_id"].split(":", 5)  # th:a:t:s:v:code
            grouped[(int(table), int(seat), int(version))].append(copy.deepcopy(comp))
        for (table, seat, version), comps in grouped.items():
            self.by_table[table].append((seat, version, comps))


class SQLiteWriteLock:
    """Another connection holding SQLite's write lock (``BEGIN EXCLUSIVE``; readers go on
    in WAL mode), as a stuck writer or a slow disk would."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None

    def take(self) -> None:
        self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self.conn.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        if self.conn is not None:
            self.conn.execute("ROLLBACK")
            self.conn.close()
            self.conn = None


class ProcessSoak:
    """One run: the fake Discord, the bot processes, the tables and their people, the
    faults, the checks (``run``); its figures in ``report``."""

    def __init__(
        self,
        *,
        kind: str,
        database: str,
        processes: int,
        quick: bool,
        seed: int,
        server: Any = None,
    ) -> None:
        self.kind, self.database, self.server = kind, database, server
        self.quick, self.seed = quick, seed
        label = "PostgreSQL (throwaway server)" if kind == "postgres" else "SQLite"
        self.report = FaultsReport(database=f"{label}, {processes} bot process(es)")
        self.fake = FakeDiscord(shard_count=processes, rate_limits=False)
        self.shown = ShownDecisions(self.fake)
        self.tmp = tempfile.TemporaryDirectory(prefix="teahouse-faults-")
        settings = dict(SETTINGS)
        if kind == "postgres":
            settings["TEAHOUSE_LOG_POLL"] = "0.5"
        self.bots = Bots(self.fake, Path(self.tmp.name), database, processes, settings=settings)
        self._store: Store | None = None
        self.players: Players | None = None
        self.tables: list[PlayedTable] = []
        self.think: dict[int, tuple[float, float]] = {}
        self.stopping = False
        #: (start, end) wall times of the database's outages.
        self.outages: list[tuple[float, float]] = []
        self.last_fault_end = 0.0  # monotonic
        #: Table → its game options (read at the checks).
        self._options: dict[int, dict[str, Any]] = {}

    @property
    def store(self) -> Store:
        assert self._store is not None
        return self._store

    async def close(self) -> None:  # (for host_process.teardown)
        if self._store is not None:
            await self._store.close()
            self._store = None

    # ------------------------------------------------------------------ tables and people
    async def open_tables(self, count: int) -> None:
        channels = await setup_discord(self.fake, self.bots, count)
        self._store = await Store.open(self.database)
        self.players = Players(self.fake, self.store, answer_timeout=10.0)
        gate = asyncio.Semaphore(4)

        async def one(i: int) -> PlayedTable:
            game, options, ais, think = MATCHES[i % len(MATCHES)]
            user = self.fake.add_user(f"{game}{i}")
            async with gate:
                table = await open_table(
                    self.fake, self.store, channels[i % len(channels)], game, [user], ais, options
                )
            self.think[table.id] = think
            return table

        self.tables = list(await asyncio.gather(*(one(i) for i in range(count))))
        self.report.tables = len(self.tables)

    async def look(self, table: PlayedTable) -> None:
        """Read the table's new moves from the log, if the database answers soon: while it
        is down the log cannot move either, so the person goes by what they know and the
        controls they hold (and clicks: what a person does during an outage)."""
        try:
            await asyncio.wait_for(table.sync(self.store), LOOK_TIMEOUT)
        except Exception as e:  # (TimeoutError, or the database refusing the bench too)
            log.debug("table %s: the log could not be read: %r", table.id, e)

    async def click(self, table: PlayedTable) -> bool:
        """One click if the person has a decision; True if the log moved on."""
        assert self.players is not None
        # Only the controls of the decision at hand (the DM follows the log by a moment: a
        # click on the last decision's controls is refused as out of date).
        for user, seat in table.users.items():
            found = latest_controls(self.fake, user) if seat in table.state.to_act else None
            if found and any(version_of(c) != table.state.version for c in found[1]):
                return False
        try:
            return await self.players.click_once(table)
        except Exception as e:  # (waiting for the move in the log while the database is down)
            log.debug("table %s: a click's outcome could not be read: %r", table.id, e)
            await asyncio.sleep(0.5)
            return False

    async def person(self, table: PlayedTable) -> None:
        rng = random.Random(f"{self.seed}:{table.id}")
        while not self.stopping:
            await self.look(table)
            if table.state.is_over:
                return
            if await self.click(table):
                await asyncio.sleep(rng.uniform(*self.think[table.id]))
                continue
            await asyncio.sleep(0.1)

    # ------------------------------------------------------------------ faults
    async def _fault(self, name: str, action: Any) -> None:
        log.warning("fault: %s", name)
        self.report.faults.append(name)
        await action()
        self.last_fault_end = time.monotonic()

    async def burst_5xx(self) -> None:
        for route, status, count in BURST:
            self.fake.fail_next(route, count=count, status=status)
        # (a route the bots seldom use keeps its failures no longer than the burst lasts)
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_until(lambda: self.fake.failures_left == 0, BURST_SECONDS)
        self.fake.clear_failures()

    async def _all_shards_live(self) -> None:
        await self.fake.wait_until(
            lambda: len(self.fake.live_shards) >= self.bots.count, 60, what="every shard back"
        )

    async def gateway_resume(self) -> None:
        resumed = self.fake.resume_count
        await self.fake.drop_connections()
        await self.fake.wait_until(
            lambda: self.fake.resume_count >= resumed + self.bots.count, 60, what="RESUME"
        )
        await self._all_shards_live()

    async def gateway_invalid_session(self) -> None:
        identified = self.fake.identify_count
        await self.fake.invalidate_sessions()
        await self.fake.wait_until(
            lambda: self.fake.identify_count >= identified + self.bots.count,
            60,
            what="IDENTIFY after INVALID_SESSION",
        )
        await self._all_shards_live()

    async def database_restart(self) -> None:
        started = time.time()
        await asyncio.to_thread(self.server.restart)
        self.outages.append((started, time.time()))

    async def database_stall(self) -> None:
        # (the outage ends as the server is let go on: a statement it held commits at once)
        started = time.time()
        if self.kind == "postgres":
            self.server.stall()
            try:
                await asyncio.sleep(OUTAGE_SECONDS)
            finally:
                ended = time.time()
                self.server.resume()
        else:
            lock = SQLiteWriteLock(self.database)
            await asyncio.to_thread(lock.take)
            try:
                await asyncio.sleep(OUTAGE_SECONDS)
            finally:
                ended = time.time()
                await asyncio.to_thread(lock.release)
        self.outages.append((started, ended))

    async def kill_and_restart(self) -> None:
        index = self.bots.count - 1
        await self.bots.processes[index].kill9()
        # With others alive: long enough for their leases to take the tables over.
        await asyncio.sleep(2 * float(SETTINGS["TEAHOUSE_LEASE_SECONDS"]) + 1 if index else 2.0)
        await self.bots.restart(index)

    async def faults(self) -> None:
        gap = 3.0 if self.quick else 8.0
        outage = "PostgreSQL stalled" if self.kind == "postgres" else "SQLite write lock held"
        for _ in range(1 if self.quick else 2):
            # The database's stall last: the tables must take a click within 15 s of its
            # end (a restart's own resume time is `bench host --resume`'s figure).
            steps: list[tuple[str, Any]] = [
                (f"kill -9 of bot{self.bots.count - 1}, started again", self.kill_and_restart),
                ("Discord 5xx burst", self.burst_5xx),
                ("gateway disconnect (RESUME)", self.gateway_resume),
            ]
            if self.kind == "postgres":
                steps.append(("PostgreSQL restart", self.database_restart))
            steps += [
                ("gateway INVALID_SESSION", self.gateway_invalid_session),
                (f"{outage} {OUTAGE_SECONDS:.0f} s", self.database_stall),
            ]
            for name, action in steps:
                await asyncio.sleep(gap)
                await self._fault(name, action)

    # ------------------------------------------------------------------ checks
    async def probe_stuck(self) -> None:
        """Each live table takes a person's click within STUCK_AFTER s of the last fault."""
        assert self.players is not None
        deadline = self.last_fault_end + STUCK_AFTER
        took: list[float] = []

        async def probe(table: PlayedTable) -> None:
            while time.monotonic() < deadline:
                await self.look(table)
                if table.state.is_over:
                    return
                if await self.click(table):
                    took.append(time.monotonic() - self.last_fault_end)
                    return
                await asyncio.sleep(0.2)
            self.report.stuck.append(table.id)
            shown = {
                user: [c["custom_id"] for c in found[1]][:3]
                for user in table.users
                if (found := latest_controls(self.fake, user))
            }
            log.warning(
                "stuck: %s; to act %s; controls %s", describe(table), table.state.to_act, shown
            )

        await asyncio.gather(*(probe(t) for t in self.tables))
        if took:
            self.report.notes["last fault → a click taken (max)"] = f"{max(took):.1f} s"

    async def measure_cpu(self, seconds: float = 5.0) -> None:
        """The bots' CPU over ``seconds`` once Discord has heard nothing from them for 2 s
        (the last moves' edits and pictures sent; at most 20 s of waiting)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 20
        seen, quiet_since = len(self.fake.all_requests), loop.time()
        while loop.time() - quiet_since < 2.0 and loop.time() < give_up:
            await asyncio.sleep(0.25)
            if len(self.fake.all_requests) != seen:
                seen, quiet_since = len(self.fake.all_requests), loop.time()
        pids = self.bots.tree()
        samples = [cpu_seconds(pids)]
        for _ in range(int(seconds)):
            await asyncio.sleep(1.0)
            samples.append(cpu_seconds(pids))
        log.info(
            "bots' CPU each second once quiet: %s",
            [b - a for a, b in zip(samples, samples[1:], strict=False)],
        )
        self.report.cpu_after = (samples[-1] - samples[0]) / int(seconds)

    async def shows_head(self, table: PlayedTable) -> bool:
        """The person who must act at the log's head holds controls for it."""
        await table.sync(self.store)
        if table.state.is_over:
            return True
        for user, seat in table.users.items():
            if seat in table.state.to_act:
                found = latest_controls(self.fake, user)
                versions = {version_of(c) for c in (found or (None, []))[1]}
                return versions == {table.state.version}
        return False  # (an AI to act once play has stopped for seconds)

    async def check(self) -> None:
        report = self.report
        for table in self.tables:
            row = await self.store.get_table(table.id)
            assert row is not None
            self._options[table.id] = game_options(row.options)
            rows = await self.store.action_rows(table.id)
            names = [s.name for s in sorted(await self.store.get_seats(table.id), key=_seat)]
            report.actions += len(rows)
            report.clicks += len(table.clicks)
            report.not_saved += sum(n for text, n in table.refused.items() if NOT_SAVED in text)
            # Nothing doubled: gapless, replays, each player move answers a click at its place.
            clicked = {(seat, version) for _, seat, version in table.clicks}
            doubled = [
                r.idx for r in rows if r.source == "player" and (r.seat, r.idx) not in clicked
            ]
            try:
                final = game_module(table.game).replay(
                    table.seed, names, self._options[table.id], [(r.seat, r.code) for r in rows]
                )
            except IllegalAction as e:
                doubled.append(-1)
                log.warning("table %s: its log does not replay: %s", table.id, e)
                final = None
            if doubled or [r.idx for r in rows] != list(range(len(rows))):
                log.warning("table %s: player moves without a click at %s", table.id, doubled)
                report.doubled.append(table.id)
            # Nothing lost: what was shown is the log's; a live table shows the log's head.
            shown = self.shown.by_table.get(table.id, [])
            report.notes["decisions shown, checked against the log"] = report.notes.get(
                "decisions shown, checked against the log", 0
            ) + len(shown)
            problems = []
            if final is not None:
                problems = shown_problems(
                    table.game,
                    table.seed,
                    names,
                    self._options[table.id],
                    [(r.seat, r.code) for r in rows],
                    shown,
                )
            if final is not None and not final.is_over:
                try:
                    await until(lambda t=table: self.shows_head(t), 10, interval=0.5)
                except TimeoutError:
                    problems.append(f"does not show the log's head (version {len(rows)})")
            if problems:
                log.warning("table %s: %s", table.id, "; ".join(problems[:5]))
                report.lost.append(table.id)
            # Every finished match recorded once.
            if (final is not None and final.is_over) or row.status == "finished":
                report.finished += 1
                recorded: list[str] = []

                async def recorded_once(t: PlayedTable = table) -> bool:
                    nonlocal recorded
                    recorded = await check_recorded_once(self.fake, self.store, t)
                    return not recorded

                with contextlib.suppress(TimeoutError):
                    await until(recorded_once, 15, interval=0.5)
                if recorded:
                    log.warning("table %s: %s", table.id, "; ".join(recorded))
                    report.unrecorded.append(table.id)

    async def recovery(self) -> None:
        """For each outage, each table it held up — the log did not move during it while
        the table owed a move: an AI's, or a person's who clicked in vain — waited this
        long from the database's return to its next move stored."""
        for table in self.tables:
            rows = await self.store.action_rows(table.id)
            names = [s.name for s in sorted(await self.store.get_seats(table.id), key=_seat)]
            humans = set(table.users.values())
            for start, end in self.outages:
                before = [(r.seat, r.code) for r in rows if r.created_at < start]
                if any(start <= r.created_at < end for r in rows):
                    continue  # (moves were stored during it: not held up)
                state = game_module(table.game).replay(
                    table.seed, names, self._options[table.id], before
                )
                if state.is_over:
                    continue
                clicked = any(start <= at <= end for at, _, _ in table.clicks)
                if not clicked and not set(state.to_act) - humans:
                    continue  # (its person was thinking: nothing was owed)
                after = [r.created_at for r in rows if r.created_at >= end]
                if after:
                    self.report.recovery_ms.append((min(after) - end) * 1000)

    # ------------------------------------------------------------------ the run
    async def run(self, tables: int) -> FaultsReport:
        people: list[asyncio.Task[None]] = []
        try:
            await self.open_tables(tables)
            people = [asyncio.create_task(self.person(t)) for t in self.tables]
            await self.faults()
            self.stopping = True
            for task in people:
                task.cancel()
            await asyncio.gather(*people, return_exceptions=True)
            await self.probe_stuck()
            await self.measure_cpu()
            await self.check()
            await self.recovery()
            refused = Counter(r for t in self.tables for r in t.refused.elements())
            self.report.notes |= {
                "clicks acknowledged": sum(t.accepted for t in self.tables),
                "clicks nobody received": sum(t.undelivered for t in self.tables),
                "clicks refused or unanswered": dict(refused.most_common(6)),
                "the fake's 5xx answers": sum(
                    1 for record, _ in self.fake.error_responses if record.status >= 500
                ),
                "RESUMEs / IDENTIFYs": f"{self.fake.resume_count} / {self.fake.identify_count}",
            }
            if not self.bots.alive:
                self.report.errors.append("a bot process died")
        except Exception as e:
            log.exception("the fault soak failed")
            self.report.errors.append(f"{type(e).__name__}: {str(e)[-300:]}")
        finally:
            self.stopping = True
            for task in people:
                task.cancel()
            await asyncio.gather(*people, return_exceptions=True)
            if not self.report.ok:
                print(self.bots.log_tail(4000), file=sys.stderr)
            await teardown(self, None, self.bots, self.fake, self.tmp)
        return self.report


def shown_problems(
    game: str,
    seed: str,
    names: list[str],
    options: dict[str, Any],
    log_rows: list[tuple[int, str]],
    shown: list[tuple[int, int, list[dict[str, Any]]]],
) -> list[str]:
    """The decisions shown to people — (seat, state version, action components) — that the
    log (``log_rows``: (seat, code), a log that replays) does not replay to: a version
    beyond it, a seat not to act there, a button its state refuses, or controls that make
    no legal move there. Empty: every state shown is one the log holds."""
    state = game_module(game).replay(seed, names, options, [])
    problems = []
    at = 0
    for seat, version, comps in sorted(shown, key=lambda decision: decision[1]):
        if version > len(log_rows):
            problems.append(f"showed version {version}, the log has {len(log_rows)} actions")
            continue
        while at < version:
            state.apply(*log_rows[at])
            at += 1
        if seat not in state.to_act:
            problems.append(f"showed seat {seat} a decision at {version}: not theirs")
            continue
        normalize, accepts = state_checks(state, seat)
        buttons = [
            c["custom_id"].split(":", 5)[5] for c in comps if c["custom_id"].split(":")[1] == "a"
        ]
        refused = [code for code in buttons if not accepts(code)]
        moves = control_moves(
            comps,
            state.legal_actions(seat),
            normalize=normalize,
            accepts=accepts,
            rng=random.Random(version),
        )
        if refused or not moves:
            problems.append(f"showed at {version} moves the log's state refuses: {refused}")
    return problems


def version_of(component: dict[str, Any]) -> int:
    """The state version an action component's custom id is stamped with."""
    return int(component["custom_id"].split(":")[4])


def _seat(seat: Any) -> int:
    return int(seat.seat)


async def soak(
    kind: str, *, tables: int, quick: bool, seed: int = 1, processes: int = 1
) -> FaultsReport:
    """Run the soak with ``processes`` bot processes on ``kind``: "sqlite" (a new file, one
    process) or "postgres" (a throwaway server the bench starts, restarts and stalls, and
    removes at the end)."""
    if kind == "sqlite":
        if processes != 1:
            raise ValueError("SQLite is one process's database: --processes 1")
        with tempfile.TemporaryDirectory(prefix="teahouse-faults-db-") as directory:
            path = str(Path(directory) / "faults.db")
            return await ProcessSoak(
                kind=kind, database=path, processes=1, quick=quick, seed=seed
            ).run(tables)
    from bench.pg_throwaway import ThrowawayPostgres

    server = ThrowawayPostgres()
    try:
        url = await asyncio.to_thread(server.start)
        return await ProcessSoak(
            kind=kind, database=url, processes=processes, quick=quick, seed=seed, server=server
        ).run(tables)
    finally:
        await asyncio.to_thread(server.stop)
