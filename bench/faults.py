"""``python -m bench faults``: a bounded fault soak of the bot and its store.

Two modes, one report (:class:`FaultsReport`) and the same checks:

- **real processes** (the default; ``bench/faults_process.py``): ``--processes N`` real
  ``python -m bot`` processes against the fake Discord, simulated people clicking what the
  bots sent them, and faults injected on a schedule — Discord 5xx bursts, gateway
  disconnects (RESUME and INVALID_SESSION), the database restarted and stalled (PostgreSQL,
  on a throwaway server of the bench's own) or its write lock held (SQLite), and kill -9
  of a bot process. Everything is checked where a person or an operator would look.
- **in-process** (``--in-process``; this module): hosts in the bench's own process — two
  on PostgreSQL (as two bot processes sharing the database), one on SQLite — with no
  Discord. It injects what a real process cannot be made to suffer from outside: SQLite
  failing (every statement raising, as a disk that errors does), and it compares each
  table's state in the driving host's memory with its log directly.

In-process, faults are injected on a schedule:

- PostgreSQL (a throwaway server the bench starts on its own port, ``bench/pg_throwaway.py``;
  never the machine's service): a restart of the server, and the server stalled (every
  process stopped) for 10 s (3 s with ``--quick``);
- SQLite: the database failing for a while (every statement raising, as a disk that
  errors does);
- both: a host killed as by ``kill -9`` (its tasks stopped, its leases left to run out)
  and started again under its name.

At the end every table is checked: the log replays (every action legal where it stands:
nothing applied twice) to the state the driving host holds (nothing lost), every match
that ended is recorded once with its rating and announced once, no table is stuck (each
live one takes a person's move within 15 s of the last fault), and the host's CPU is quiet
once play stops. It also reports the time from the database's return to each waiting
table's first move saved (p50/p99).
"""

from __future__ import annotations

import asyncio
import logging
import random
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.games import game_spec
from bot.host.manager import TableHost
from bot.host.options import game_options
from bot.store import SeatRow, Store
from tests.host.offline import Click

log = logging.getLogger(__name__)

GAMES = ("koikoi", "mushi")
#: A live table must take a person's move within this long after the last fault.
STUCK_AFTER = 15.0
#: The host may use this share of a core once play stops (a spinning loop uses all of it).
QUIET_CPU = 0.25


@dataclass
class FaultsReport:
    database: str
    tables: int = 0
    actions: int = 0
    finished: int = 0
    faults: list[str] = field(default_factory=list)
    clicks: int = 0
    not_saved: int = 0
    recovery_ms: list[float] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    doubled: list[int] = field(default_factory=list)
    unrecorded: list[int] = field(default_factory=list)
    stuck: list[int] = field(default_factory=list)
    cpu_after: float = 0.0
    #: The bench itself failed (a bot process died, a step timed out): the run proves nothing.
    errors: list[str] = field(default_factory=list)
    #: Figures of one mode, printed as they are.
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.doubled or self.unrecorded or self.stuck or self.errors) and (
            self.cpu_after <= QUIET_CPU
        )

    def recovery(self) -> tuple[float, float] | None:
        if not self.recovery_ms:
            return None
        ordered = sorted(self.recovery_ms)
        return statistics.median(ordered), ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]

    def lines(self) -> list[str]:
        recovery = self.recovery()
        return [
            f"database                         {self.database}",
            f"faults injected                  {len(self.faults)}: {', '.join(self.faults)}",
            f"tables / actions / finished      {self.tables} / {self.actions} / {self.finished}",
            f"clicks / answered 'not saved'    {self.clicks} / {self.not_saved}",
            "database back → first move saved "
            + (
                f"p50 {recovery[0]:.0f} ms / p99 {recovery[1]:.0f} ms "
                f"({len(self.recovery_ms)} waiting tables)"
                if recovery
                else "(no table was waiting)"
            ),
            f"lost (log ≠ state held/shown)    {len(self.lost)} {self.lost or ''}",
            f"doubled (log does not replay)    {len(self.doubled)} {self.doubled or ''}",
            f"ended, not recorded once         {len(self.unrecorded)} {self.unrecorded or ''}",
            f"stuck (no move within {STUCK_AFTER:.0f} s)      {len(self.stuck)} {self.stuck or ''}",
            f"CPU once play stopped            {self.cpu_after:.0%} of a core"
            f" (quiet ≤ {QUIET_CPU:.0%})",
            *(f"{name:<32} {value}" for name, value in self.notes.items()),
            *(f"bench error                      {e}" for e in self.errors),
            f"all checks hold                  {'yes' if self.ok else 'NO'}",
        ]


def near_the_end(game: str, seed: str, players: list[str], left: int) -> list[tuple[int, str]]:
    """The log of a match played by two AIs, but for its last ``left`` actions."""
    module = game_spec(game)
    state = module.new_game(seed, players, game_options({}))
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, module.choose(state.view(seat), state.legal_actions(seat), rng))
    return state.log[: max(0, len(state.log) - left)]


class _NoDiscord:
    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> None:
        return None

    async def wait_until_ready(self) -> None:
        return None


class _SQLiteFault:
    """Makes an SQLite store fail while ``down`` (every statement raises, as a failing
    disk does)."""

    def __init__(self) -> None:
        self.down = False

    def wrap(self, store: Store) -> None:
        import sqlite3

        # (an append goes to the writer's group commit, not through ``_write_one``)
        for name in ("_fetchall", "_write_one", "_transaction", "append_action"):
            real = getattr(store, name)

            def failing(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
                if self.down:
                    raise sqlite3.OperationalError("disk I/O error (injected by the bench)")
                return _real(*args, **kwargs)

            setattr(store, name, failing)


class Soak:
    def __init__(self, database: str, kind: str, *, quick: bool, seed: int) -> None:
        self.database = database
        self.kind = kind
        self.quick = quick
        self.rng = random.Random(seed)
        self.report = FaultsReport(database=kind)
        #: A person's think time, s (short with --quick: some matches end within the run).
        self.think = (0.02, 0.15) if quick else (0.05, 0.6)
        self.hosts: dict[str, TableHost] = {}
        self.table_ids: list[int] = []
        self.humans: dict[int, int] = {}  # table -> the person's user id
        self.sqlite_fault = _SQLiteFault()
        self.stop_play = asyncio.Event()
        #: Per table: the times appends failed, and the times they succeeded.
        self.failed_at: dict[int, list[float]] = {}
        self.saved_at: dict[int, list[float]] = {}
        self.fault_ends: list[float] = []
        self.posts: list[tuple[int, str]] = []

    # ------------------------------------------------------------------ hosts
    async def start_host(self, name: str) -> TableHost:
        store = await Store.open(self.database)
        if self.kind == "sqlite":
            self.sqlite_fault.wrap(store)
        self._watch_appends(store)
        settings = Settings(
            token="bench",
            database=self.database,
            process_name=name,
            turn_seconds=4.0,
            ai_delay=0.05,
            edit_interval=0.0,
            ai_only_grace=3600.0,
            timeouts_before_ai=1000,
            lease_seconds=3.0,
            log_poll=0.5 if self.kind == "postgres" else 0.0,
            render_processes=0,
        )
        host = TableHost(_NoDiscord(), store, settings)  # type: ignore[arg-type]

        async def nothing(*args: Any, **kwargs: Any) -> None:
            return None

        async def post(table: Any, text: str, *args: Any, **kwargs: Any) -> None:
            self.posts.append((table.id, text))

        host.outbox.render = nothing  # type: ignore[method-assign]
        host.outbox.render_view = nothing  # type: ignore[method-assign]
        host.outbox.post = post  # type: ignore[method-assign]
        self.hosts[name] = host
        return host

    def _watch_appends(self, store: Store) -> None:
        real = store.append_action

        async def append_action(table_id: int, *args: Any, **kwargs: Any) -> None:
            try:
                await real(table_id, *args, **kwargs)
            except Exception:
                self.failed_at.setdefault(table_id, []).append(time.monotonic())
                raise
            self.saved_at.setdefault(table_id, []).append(time.monotonic())

        store.append_action = append_action  # type: ignore[method-assign]

    async def kill(self, name: str) -> None:
        """As ``kill -9``: its tasks stop, its leases are left to run out."""
        host = self.hosts.pop(name)
        await host.close(timeout=1.0, release=False)
        await host.store.close()

    def driver_of(self, table_id: int) -> Any:
        for host in self.hosts.values():
            table = host.tables.get(table_id)
            if table is not None and table.driven and not table.finished:
                return host, table
        return None

    # ------------------------------------------------------------------ play
    async def open_tables(self, count: int) -> None:
        store = next(iter(self.hosts.values())).store
        for i in range(count):
            game = GAMES[i % len(GAMES)]
            user = 1000 + i
            table_id = await store.create_table(
                guild_id=1, channel_id=2, game=game, options={}, seed=f"faults-{i}", host_id=user
            )
            await store.set_seats(
                table_id,
                [
                    SeatRow(seat=0, user_id=user, name=f"Player {i}", dms_closed=True),
                    SeatRow(seat=1, user_id=None, name="AI 1", is_ai=True),
                ],
            )
            assert await store.transition(table_id, ("lobby",), "active")
            if i % 2:  # every other table starts near its end: matches end during the faults
                # (closer with --quick: its few seconds of play between faults, on a loaded
                # machine, did not always see 30 actions through)
                left = 12 if self.quick else 30
                for index, (seat, code) in enumerate(
                    near_the_end(game, f"faults-{i}", [f"Player {i}", "AI 1"], left)
                ):
                    await store.append_action(table_id, index, seat, code, "ai")
            self.table_ids.append(table_id)
            self.humans[table_id] = user
        self.report.tables = count

    async def person(self, table_id: int) -> None:
        """Plays seat 0 of the table: waits for a decision, thinks, clicks (on any live
        host: the one driving the table, or another serving it from its cache)."""
        rng = random.Random(f"{table_id}-{self.rng.random()}")
        user = self.humans[table_id]
        while not self.stop_play.is_set():
            await self.click_once(table_id, user, rng, think=self.think)
            await asyncio.sleep(0.05)

    async def click_once(
        self, table_id: int, user: int, rng: random.Random, think: tuple[float, float]
    ) -> bool:
        """One click if the person must decide now; True if it was made."""
        found = self.driver_of(table_id)
        if found is None:
            return False
        _, table = found
        if 0 not in table.state.to_act or table.lock.locked() or 0 not in table.prompts:
            return False
        version, code = table.prompts[0].version, rng.choice(table.state.legal_actions(0))
        await asyncio.sleep(rng.uniform(*think))
        host = rng.choice(list(self.hosts.values()))
        click = Click(user)
        self.report.clicks += 1
        before = table.state.version
        try:
            await host.on_action(click, table_id, 0, version, code)
        except Exception as e:  # (a click on a cache while the store fails: its read)
            log.info("table %s: a click failed: %r", table_id, e)
            return False
        if any("not saved" in answer for answer in click.answers):
            self.report.not_saved += 1
        return table.state.version > before and not click.answers

    # ------------------------------------------------------------------ faults
    async def faults(self, server: Any) -> None:
        stall = 3.0 if self.quick else 10.0
        pause = 2.0 if self.quick else 4.0
        await asyncio.sleep(pause)
        if self.kind == "postgres":
            self.report.faults.append("PostgreSQL restart")
            await asyncio.to_thread(server.restart)
            self.fault_ends.append(time.monotonic())
            await asyncio.sleep(pause)
            self.report.faults.append(f"PostgreSQL stalled {stall:.0f} s")
            server.stall()
            await asyncio.sleep(stall)
            server.resume()
            self.fault_ends.append(time.monotonic())
        else:
            self.report.faults.append(f"SQLite failing {stall:.0f} s")
            self.sqlite_fault.down = True
            await asyncio.sleep(stall)
            self.sqlite_fault.down = False
            self.fault_ends.append(time.monotonic())
        await asyncio.sleep(pause)
        self.report.faults.append("kill -9 of a host, started again")
        await self.kill("a")
        await asyncio.sleep(1.0)
        restarted = await self.start_host("a")
        await restarted.restore()
        restarted.sessions.start_leases()
        self.fault_ends.append(time.monotonic())
        await asyncio.sleep(pause)

    # ------------------------------------------------------------------ checks
    async def probe_stuck(self) -> None:
        """Every live table takes a person's move within STUCK_AFTER seconds."""
        store = next(iter(self.hosts.values())).store

        async def probe(table_id: int) -> None:
            rng = random.Random(table_id)
            deadline = time.monotonic() + STUCK_AFTER
            while time.monotonic() < deadline:
                row = await store.get_table(table_id)
                if row is None or row.status != "active":
                    return
                if await self.click_once(table_id, self.humans[table_id], rng, (0.0, 0.0)):
                    return
                await asyncio.sleep(0.05)
            self.report.stuck.append(table_id)

        await asyncio.gather(*(probe(t) for t in self.table_ids))

    async def check(self) -> None:
        store = next(iter(self.hosts.values())).store
        ratings = Counter(
            int(row["user_id"])
            for row in await store.query("SELECT user_id FROM ratings WHERE games = 1")
        )
        over = Counter(table_id for table_id, text in self.posts if "is over" in text)
        for table_id in self.table_ids:
            row = await store.get_table(table_id)
            logged = await store.actions(table_id)
            self.report.actions += len(logged)
            names = [s.name for s in await store.get_seats(table_id)]
            try:
                replayed = game_spec(row.game).replay(
                    row.seed, names, game_options(row.options), logged
                )
            except Exception:
                self.report.doubled.append(table_id)
                continue
            found = self.driver_of(table_id)
            if found is not None and found[1].state.log != logged:
                self.report.lost.append(table_id)
            if replayed.is_over or row.status == "finished":
                self.report.finished += 1
                results = await store.query(
                    "SELECT COUNT(*) AS n FROM results WHERE table_id = ?", (table_id,)
                )
                if (
                    row.status != "finished"
                    or int(results[0]["n"]) != len(names)
                    or ratings[self.humans[table_id]] != 1
                    or over[table_id] != 1
                ):
                    self.report.unrecorded.append(table_id)

    def recovery(self) -> None:
        """For each time the database came back: how long each table that had failed to
        save a move waited for its next move saved."""
        starts = [0.0, *self.fault_ends]
        for begun, back in zip(starts, self.fault_ends, strict=False):
            for table_id, failures in self.failed_at.items():
                if not any(begun <= t <= back for t in failures):
                    continue
                after = [t for t in self.saved_at.get(table_id, []) if t >= back]
                if after:
                    self.report.recovery_ms.append((after[0] - back) * 1000)

    async def measure_cpu(self, seconds: float = 2.0) -> None:
        used = time.process_time()
        await asyncio.sleep(seconds)
        self.report.cpu_after = (time.process_time() - used) / seconds

    # ------------------------------------------------------------------ the run
    async def run(self, tables: int, server: Any = None) -> FaultsReport:
        first = await self.start_host("a")
        if self.kind == "postgres":
            await self.start_host("b")
        await self.open_tables(tables)
        await first.restore()
        for host in self.hosts.values():
            host.sessions.start_leases()
        people = [asyncio.ensure_future(self.person(t)) for t in self.table_ids]
        try:
            await self.faults(server)
        finally:
            self.stop_play.set()
            await asyncio.gather(*people, return_exceptions=True)
        await self.probe_stuck()
        await self.measure_cpu()
        await self.check()
        self.recovery()
        for host in list(self.hosts.values()):
            await host.close(timeout=1.0)
            await host.store.close()
        return self.report


async def soak(
    kind: str,
    *,
    tables: int,
    quick: bool,
    seed: int = 1,
    processes: int = 1,
    in_process: bool = False,
) -> FaultsReport:
    """Run the soak on ``kind``: "sqlite" (a new file) or "postgres" (a throwaway server
    the bench starts, restarts and stalls, and removes at the end); with ``processes``
    real bot processes (bench/faults_process.py), or ``in_process``."""
    if not in_process:
        from bench import faults_process

        return await faults_process.soak(
            kind, tables=tables, quick=quick, seed=seed, processes=processes
        )
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="teahouse-faults-") as directory:
            path = str(Path(directory) / "faults.db")
            return await Soak(path, kind, quick=quick, seed=seed).run(tables)
    from bench.pg_throwaway import ThrowawayPostgres

    server = ThrowawayPostgres()
    try:
        url = await asyncio.to_thread(server.start)
        return await Soak(url, kind, quick=quick, seed=seed).run(tables, server)
    finally:
        await asyncio.to_thread(server.stop)
