"""The host benchmark at a human pace: ``python -m bench host --tables N --pace S``.

The real bot runs as a separate process (``python -m bot``, as in production) against the
fake Discord, which lives in this process together with the simulated players. Tables mix
the five games (2–4 seats, humans and AIs, as people play). Each human acts a random think
time (uniform 0.5·S–1.5·S, seeded) after their decision appears in their DM, clicking only
the components the bot sent them.

How each figure is measured (all clocks are this machine's):

* ``ack_p50_ms`` / ``ack_p99_ms`` — the fake dispatching INTERACTION_CREATE → the bot's first
  callback (``FakeInteraction.latency``), for the clicks dispatched in the window.
* ``decision_p50_ms`` / ``decision_p99_ms`` — a human click → the moment the fake first holds
  DM controls stamped with the next prompt version for a human seat that must act then
  (``FakeDiscord.message_observers``). Only decisions that follow the click without an AI
  or timeout move in between count (AI moves wait ``TEAHOUSE_AI_DELAY`` by design); those
  are reported separately as ``decision_via_ai_p50_ms``.
* ``decision_lag_p50_ms`` / ``decision_lag_p99_ms`` / ``decision_lag_max_ms`` — every
  decision a person met in the window, whatever opened it (a click, an AI's move, a
  timeout): the commit of the action that opened it (``actions.created_at`` of the previous
  prompt version's action) → the moment the fake first held their DM controls for it.
  ``decisions_late_by_source`` counts those seen over 5 s late by the opening action's
  source (a claim window of 20 s can close before a person who thinks 5–15 s clicks).
* ``table_stale_p99_ms`` — an action's commit (``actions.created_at`` in the bot's SQLite
  database, read read-only; human and AI actions alike) → the first edit of that table's
  message that reaches the fake after it. The table message carries no state version, so
  an edit rendered just before the commit but arriving after it counts as showing it
  (a slight under-estimate, bounded by one render).
  ``table_stale_p99_ms_by_game`` splits it by game, ``table_stale_p99_ms_by_10s`` by the
  10 s of the window the action was stored in (a backlog left by opening the tables shows
  in the first), and ``table_edits_per_action_by_game``
  counts table-message edits in the window per action of that game (how much each game's
  tables cost of the REST budget).
* ``actions_per_s`` — actions committed in the window (database) / window seconds;
  ``timeouts_by_game`` the actions among them that were a turn or a claim window running
  out (a claim window closing by itself is a pass: the bench's people click Pass 0.5–1.5
  think times after their Pass button appears, so a late button lets the window close).
* ``cpu_ms_per_action`` — utime+stime (``/proc/<pid>/stat``) of the bot process and all its
  descendants (the render pool), window start to end, / actions in the window;
  ``main_cpu_ms_per_action`` / ``render_cpu_ms_per_action`` split it between the bot
  processes themselves and their render workers (the pictures drawn: more when the tables
  are kept fresher, so compare runs by both);
  ``cpu_percent`` the same per second of the window, and ``bench_cpu_percent`` what this
  process (the fake Discord and the players, on the same cores) took meanwhile;
  ``bench_loop_lag_p99_ms`` how late this process's own event loop ran (it stamps the acks
  and decisions: a late bench loop would inflate them).
* ``rest_per_action`` — REST calls that count toward the global limit
  (``fake.ratelimits.calls``: interaction callbacks and interaction webhooks excluded) in the
  window / actions; ``rest_by_route`` per route.
* ``http_429`` — 429s the fake sent in the window (global + bucket; whole run too).
* ``rss_kib_per_table`` — (VmRSS of the bot's main process at the end of the window − its
  VmRSS idle, connected with 0 tables, measured first) / tables. Tables live in the main
  process; the render workers are a fixed pool, started on the first render (so there is
  no idle figure for them), reported apart as ``render_workers_rss_kib``.
* ``bucket_waits_by_route`` — answers that emptied a per-route bucket in the window: discord.py
  then waits for the reset before sending on that route (a delay that shows no 429).
* ``errors`` — stuck decisions (a human must act but no control sends a legal move), clicks
  the bot never acknowledged, failed table openings, a bot process that died; clicks the
  bot refused with an ephemeral answer (stale controls in a race) are ``clicks_refused``.

With ``--processes N`` the figures above are the cluster's (CPU and RSS summed over the
processes, 429s for the whole token: the fake counts by token), and ``per_process`` gives
each process's: ack latency of the clicks its shard got (every DM click goes to shard 0),
decision latency, staleness and actions of the tables it drives (the owner of each table's
lease, looked at when the window opens and closes), its own CPU (per action of its tables)
and RSS (per table it drives), and the REST calls it sent (the fake counts counted calls by
the client's TCP port; the bench maps ports to processes through /proc every second;
``rest_calls_unattributed`` are those from connections no look caught open).

``--resume`` opens the tables, plays a little, lets every table settle on a human
decision, kills the bot with SIGKILL, starts it again and reports ``resume_ready_s``: from
the new process's first gateway IDENTIFY seen by the fake to the moment every table has
accepted a click (the human who must act clicks a legal move from their newest DM controls,
retrying every ~0.5 s until the bot acknowledges it with a deferral rather than an
ephemeral refusal and the move is stored: accepted when both have happened), and
``notices_done_s``: from the same IDENTIFY until every table's
thread has its restart notice and every human's DM has been sent or edited by the new
process (the probe clicks themselves also make DMs change, so this is an upper bound on
notices only together with ``resume_ready_s``). ``resume_slow_by_game`` and
``resume_slow_obstacles`` say which tables took over 5 s and what their probes met.

``BENCH_DEBUG=1`` prints what such a slow table shows (and the controls a player could not
use); ``BENCH_KEEP_LOGS=<dir>`` keeps the bot processes' logs there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import percentile
from bench.store_bench import PostgresSchema
from bot.games import GAME_NAMES, game_spec
from bot.host.options import game_options
from bot.store import Store
from tests.e2e.cluster import BotProcess, bot_environment, start_and_identify
from tests.e2e.fakediscord import GLOBAL_LIMIT, FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import (
    action_components,
    click_move,
    control_moves,
    latest_controls,
    state_checks,
)

ROOT = Path(__file__).resolve().parents[1]
#: The games the simulated players open, in turn: every registered game.
GAMES = GAME_NAMES
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: Reads the bots' database: (sql, params) → rows.
Query = Callable[..., Awaitable[list[Any]]]
RESTART_NOTICE = "\u267b"  # ♻ (the thread line after a restart)
#: s a player waits for a DM before looking at the table again anyway (each look reads
#: the database: at 1,000 tables, a look every 2 s by each idle player was about a thousand
#: queries a second in the bench's own process, on the bot's cores).
IDLE_LOOK_SECONDS = 5.0


# ---------------------------------------------------------------------- /proc


def cpu_seconds(pids: list[int]) -> float:
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
            ticks += int(rest[11]) + int(rest[12])  # utime, stime (fields 14, 15)
    return ticks / CLK_TCK


def tcp_ports(pids: list[int]) -> dict[int, int]:
    """Local port of each TCP socket the processes ``pids`` hold → the pid holding it (from
    /proc: which process a connection the fake Discord sees came from)."""
    holder: dict[int, int] = {}  # socket inode → pid
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        holder[int(link[8:-1])] = pid
    ports: dict[int, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                pid = holder.get(int(fields[9]))
                if pid is not None:
                    ports[int(fields[1].rsplit(":", 1)[1], 16)] = pid
    return ports


def rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


# ---------------------------------------------------------------------- the bot process


class Bots:
    """The bot processes of a run: ``python -m bot`` each, running shard i of n on one
    database (one process: every shard), configured only by the environment (``settings``:
    ``TEAHOUSE_*`` values over the host bench's own)."""

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        database: str,
        processes: int,
        redis: str | None = None,
        settings: dict[str, str] | None = None,
    ) -> None:
        self.fake, self.workdir, self.database = fake, workdir, database
        self.count = processes
        #: The Redis holding the token's shared REST budget (None: static shares).
        self.redis = redis
        self.settings = settings or {}
        #: Made at the first start (their environment names the fake's port).
        self.processes: list[BotProcess] = []

    def env(self, index: int, count: int) -> dict[str, str]:
        lifted = "100000"
        settings = {
            "TEAHOUSE_AI_DELAY": "1.0",
            "TEAHOUSE_EDIT_INTERVAL": "1.0",
            "TEAHOUSE_TURN_SECONDS": "600",
            "TEAHOUSE_CLAIM_SECONDS": "20",
            "TEAHOUSE_SEED_BASE": "bench",
            "TEAHOUSE_NEW_COOLDOWN": "0",
            "TEAHOUSE_MAX_LOBBIES_PER_USER": lifted,
            "TEAHOUSE_MAX_TABLES_PER_USER": lifted,
            "TEAHOUSE_MAX_LOBBIES_PER_GUILD": lifted,
            "TEAHOUSE_MAX_TABLES_PER_GUILD": lifted,
            "TEAHOUSE_LOG_LEVEL": "WARNING",
            # The token's REST budget, as its operator would set it: 90 % of the global
            # limit (45/s at Discord's default 50/s, the bot's default), the rest left for
            # the budget's small bursts. With Redis the processes draw from it together;
            # without (or while Redis is down) each takes its share by shards.
            "TEAHOUSE_REST_BUDGET": str(0.9 * self.fake.ratelimits.global_limit),
        }
        if self.redis:
            settings["TEAHOUSE_REDIS_URL"] = self.redis
        settings |= self.settings
        if count > 1:
            settings |= {"TEAHOUSE_SHARD_COUNT": str(count), "TEAHOUSE_SHARDS": str(index)}
        return bot_environment(self.fake, self.database, **settings)

    @property
    def alive(self) -> bool:
        return all(p.alive for p in self.processes)

    @property
    def spawned_at(self) -> float:
        return max((p.spawned_at for p in self.processes), default=0.0)

    def mains(self) -> list[int]:
        return [p.proc.pid for p in self.processes if p.alive and p.proc is not None]

    def index_of(self, pid: int) -> int | None:
        """Which process (its index, = the shard it runs) has main pid ``pid``."""
        for i, p in enumerate(self.processes):
            if p.proc is not None and p.proc.pid == pid:
                return i
        return None

    def ports(self) -> dict[int, int]:
        """Local TCP port → process index, for the sockets the processes hold now."""
        out: dict[int, int] = {}
        for port, pid in tcp_ports(self.mains()).items():
            i = self.index_of(pid)
            if i is not None:
                out[port] = i
        return out

    def tree(self) -> list[int]:
        return [pid for p in self.processes for pid in p.tree()]

    def log_tail(self, chars: int = 2000) -> str:
        return "\n".join(f"--- {p.name}\n{p.log_tail(chars)}" for p in self.processes)

    async def start(self, timeout: float = 120) -> float:
        """Start every process; the monotonic time the last one identified its shard."""
        count = self.count
        if not self.processes:
            self.processes = [
                BotProcess(self.workdir, self.env(i, count), name=f"bot{i}") for i in range(count)
            ]
        ready = 0.0
        for i, process in enumerate(self.processes):
            shards = [i] if count > 1 else None
            ready = await start_and_identify(self.fake, process, shards, timeout=timeout)
        return ready

    async def kill9(self) -> None:
        for process in self.processes:
            await process.kill9()

    async def restart(self, index: int, timeout: float = 120) -> float:
        """Start process ``index`` again (after :meth:`BotProcess.kill9`); the monotonic time
        it identified its shard."""
        shards = [index] if self.count > 1 else None
        return await start_and_identify(self.fake, self.processes[index], shards, timeout=timeout)

    async def stop(self) -> None:
        for process in self.processes:
            await process.stop(grace=5.0)


# ---------------------------------------------------------------------- what the fake sees


class Watch:
    """Timestamps of what players and spectators get to see (a fake message observer)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        #: (user, prompt version) → monotonic time the fake first held such DM controls.
        self.first_seen: dict[tuple[int, int], float] = {}
        self.dm_event: defaultdict[int, asyncio.Event] = defaultdict(asyncio.Event)
        #: Guild message id → wall-clock times of its edits.
        self.edits: defaultdict[int, list[float]] = defaultdict(list)
        #: User → monotonic times the bot sent a DM or edited one (edits answering a click
        #: through its interaction do not count).
        self.dm_touched: defaultdict[int, list[float]] = defaultdict(list)
        #: Channel → monotonic times of restart notices.
        self.notices: defaultdict[int, list[float]] = defaultdict(list)
        fake.message_observers.append(self)

    def __call__(self, msg: FakeMessage, created: bool) -> None:
        now = time.monotonic()
        channel = self.fake.channel(msg.channel_id)
        if channel.is_dm:
            user = channel.recipient_id
            if user is None:
                return
            for comp in action_components(msg):
                version = int(comp["custom_id"].split(":")[4])
                self.first_seen.setdefault((user, version), now)
            if created or msg.interaction is None:  # a new DM (a restart's fresh DM may
                self.dm_touched[user].append(now)  # come through a click's token), or an edit
            self.dm_event[user].set()
        elif created:
            if msg.content.startswith(RESTART_NOTICE):
                self.notices[msg.channel_id].append(now)
        else:
            self.edits[msg.id].append(time.time())


# ---------------------------------------------------------------------- tables and players


@dataclass
class BenchTable:
    id: int
    game: str
    seats: dict[int, int]  # user → seat
    state: Any
    sources: list[str] = field(default_factory=list)
    last_click: tuple[float, int] | None = None  # (dispatched, state version)
    matched: set[tuple[float, int]] = field(default_factory=set)

    async def sync(self, query: Query) -> None:
        """Apply the actions the bots committed since the last look (read only)."""
        rows = await query(
            "SELECT idx, seat, code, source FROM actions WHERE table_id = ? AND idx >= ?"
            " ORDER BY idx",
            (self.id, len(self.sources)),
        )
        for idx, seat, code, source in rows:
            if idx == len(self.sources):  # another player of this table may have synced
                self.state.apply(seat, code)
                self.sources.append(source)

    def humans_to_act(self) -> list[int]:
        return [u for u, s in self.seats.items() if s in self.state.to_act]

    def humans_asked(self) -> list[int]:
        """The humans to act who have a decision (more than one distinct answer): the bot
        plays a decision with one answer for them, and their DM offers no controls."""
        spec = game_spec(self.game)
        return [
            u
            for u in self.humans_to_act()
            if len(spec.distinct_answers(self.state.legal_actions(self.seats[u]))) > 1
        ]


async def load_table(store: Store, query: Query, table_id: int) -> BenchTable:
    row = await store.get_table(table_id)
    assert row is not None
    seats = sorted(await store.get_seats(table_id), key=lambda s: s.seat)
    state = game_spec(row.game).replay(
        row.seed, [s.name for s in seats], game_options(row.options), []
    )
    humans = {s.user_id: s.seat for s in seats if s.user_id is not None}
    table = BenchTable(table_id, row.game, humans, state)
    await table.sync(query)
    return table


def prompt_version(comps: list[dict[str, Any]]) -> int:
    return max(int(c["custom_id"].split(":")[4]) for c in comps)


class Bench:
    def __init__(self, fake: FakeDiscord, database: str, pace: float, seed: int) -> None:
        self.fake = fake
        self.watch = Watch(fake)
        self.database = database
        self._store: Store | None = None
        self._reader: sqlite3.Connection | None = None
        self.pace = pace
        self.seed = seed
        self.tables: list[BenchTable] = []
        self.stopping = False
        self.window: tuple[float, float] | None = None  # monotonic
        self.acks: list[float] = []
        #: Ack latencies by the shard (= process) that got the click.
        self.acks_by_shard: defaultdict[int, list[float]] = defaultdict(list)
        self.decisions: list[float] = []
        #: (table id, ms) of each decision latency, and of each table staleness: the
        #: figures per process go by which process drives the table.
        self.decision_marks: list[tuple[int, float]] = []
        self.stale_marks: list[tuple[int, float]] = []
        #: (wall time the action was stored, ms stale) of each action in the window.
        self.stale_at: list[tuple[float, float]] = []
        self.decisions_via_ai: list[float] = []
        #: (table id, prompt version, monotonic when its DM controls were first seen) of
        #: every decision a person met in the window: its lag from the stored action that
        #: opened it (``decision_lag_*``), whoever made that action.
        self.decisions_met: list[tuple[int, int, float]] = []
        self.loop_lags: list[float] = []
        self.clicks = 0
        self.refused: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.no_move_since: dict[tuple[int, int, int], float] = {}
        self.no_move_counted: set[tuple[int, int, int]] = set()

    @property
    def store(self) -> Store:
        assert self._store is not None, "open() first"
        return self._store

    async def open(self) -> None:
        """Open the bots' database to read it (once they have created it)."""
        if self._store is None:
            self._store = await Store.open(self.database)
        if self._reader is None and "://" not in self.database:
            # The players read the log after every DM they get: on SQLite straight from
            # this thread (a read of a few rows takes microseconds; a trip to the store's
            # thread and back cost the bench a tenth of its CPU at 1,000 tables, CPU the
            # bot being measured shares).
            self._reader = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
            self._reader.row_factory = sqlite3.Row

    async def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self._reader is not None:
            return self._reader.execute(sql, params).fetchall()
        return await self.store.query(sql, params)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._store is not None:
            await self._store.close()
            self._store = None

    def in_window(self, t: float) -> bool:
        return self.window is not None and self.window[0] <= t <= self.window[1]

    # ------------------------------------------------------------------ opening tables

    async def open_table(
        self, channel: int, game: str, users: list[int], ais: int
    ) -> BenchTable | None:
        fake = self.fake
        try:
            host = users[0]
            inter = await fake.slash(host, channel, f"{game} new")
            await inter.wait_response(timeout=60)
            lobby = fake.message(inter.original_id)
            table_id = int(lobby.embeds[0]["title"].split("#")[1])
            for guest in users[1:]:
                await (await fake.click(guest, lobby, label="Join")).wait_response(timeout=60)
            for _ in range(ais):
                await (await fake.click(host, lobby, label="Add AI")).wait_response(timeout=60)
            await (await fake.click(host, lobby, label="Start")).wait_response(timeout=60)
            for _ in range(600):
                row = await self.store.get_table(table_id)
                if row and row.status == "active":
                    break
                await asyncio.sleep(0.1)
            else:
                raise TimeoutError(f"table {table_id} did not start")
            return await load_table(self.store, self.query, table_id)
        except Exception as e:  # counted, the bench goes on with the other tables
            self.errors[f"open_failed: {type(e).__name__}"] += 1
            return None

    async def open_tables(self, channels: list[int], count: int) -> None:
        rng = random.Random(f"{self.seed}:seating")
        plan = []
        for i in range(count):
            game = GAMES[i % len(GAMES)]
            seats = game_spec(game).seats
            humans = rng.choice([1, 2]) if seats == 2 else rng.choice([2, 3])
            users = [self.fake.add_user(f"{game}{i}-p{j}") for j in range(humans)]
            plan.append((channels[i % len(channels)], game, users, seats - humans))
        gate = asyncio.Semaphore(32)

        async def one(channel: int, game: str, users: list[int], ais: int) -> BenchTable | None:
            async with gate:
                return await self.open_table(channel, game, users, ais)

        opened = await asyncio.gather(*(one(*p) for p in plan))
        self.tables = [t for t in opened if t is not None]
        # Started means playable: the thread and table message are up and every human has
        # had a DM (thread creation shares one bucket per channel, so a burst of starts in
        # one channel takes a while; the window must not measure that burst).
        # A start costs about six requests out of the REST budget (lobby, thread, table
        # message, DM channels and DMs): at Discord's default limit 1,000 tables need minutes.
        budget = 0.9 * self.fake.ratelimits.global_limit
        deadline = time.monotonic() + max(180.0, 1.5 * 6 * len(self.tables) / budget)
        while time.monotonic() < deadline:
            posted = {
                row["id"]
                for row in await self.query(
                    "SELECT id FROM tables WHERE table_message_id IS NOT NULL"
                )
            }
            waiting = [
                t
                for t in self.tables
                if t.id not in posted or not all(self.watch.dm_touched[u] for u in t.seats)
            ]
            if not waiting:
                return
            await asyncio.sleep(0.5)
        self.errors["table never fully started"] += len(waiting)

    # ------------------------------------------------------------------ players

    def note_decision(self, table: BenchTable, user: int, version: int, seen: float) -> None:
        if table.last_click is None:
            return
        clicked, at = table.last_click
        if version <= at or seen < clicked or not self.in_window(clicked):
            return
        if (clicked, user) in table.matched:
            return
        table.matched.add((clicked, user))
        between = table.sources[at:version]
        latency = (seen - clicked) * 1000
        if between and all(s == "player" for s in between):
            self.decisions.append(latency)
            self.decision_marks.append((table.id, latency))
        else:
            self.decisions_via_ai.append(latency)

    async def click(
        self,
        table: BenchTable,
        user: int,
        rng: random.Random,
        *,
        probe: bool = False,
        why: list[str] | None = None,
    ) -> Any:
        """Click a legal move from the user's newest DM controls; the interaction or None
        (``why`` collects what stood in the way, for the resume figures)."""
        seat = table.seats[user]
        found = latest_controls(self.fake, user)
        await table.sync(self.query)
        if found is None or seat not in table.state.to_act:
            if why is not None:
                why.append("no DM controls" if found is None else "not to act")
            return None
        message, comps = found
        state = table.state
        # Like most people, these players don't call Panda on a whim.
        legal = [
            c for c in state.legal_actions(seat) if not (table.game == "panda" and c == "call")
        ]
        normalize, accepts = state_checks(state, seat)
        moves = control_moves(comps, legal, normalize=normalize, accepts=accepts, rng=rng)
        if not moves:
            if why is not None:
                why.append("no legal move on the newest DM")
            # The DM for this decision may still be on its way (the state is read from the
            # database, the DM comes a moment later): only a gap that lasts is an error.
            key = (table.id, seat, state.version)
            first = self.no_move_since.setdefault(key, time.monotonic())
            if not probe and time.monotonic() - first > 10 and key not in self.no_move_counted:
                self.no_move_counted.add(key)
                self.errors[f"no_move: {table.game}"] += 1
                if os.environ.get("BENCH_DEBUG"):
                    ids = [
                        (c["custom_id"], [o["value"] for o in c.get("options") or []])
                        for c in comps
                    ]
                    print(
                        f"no_move {table.game} seat {seat} v{state.version} legal={legal[:20]} comps={ids}",
                        file=sys.stderr,
                    )
            return None
        version = state.version
        try:
            inter = await click_move(self.fake, user, message, rng.choice(moves))
        except (ValueError, LookupError):  # the message changed under the player's finger
            self.refused["component gone"] += 1
            if why is not None:
                why.append("component gone")
            return None
        if not probe:
            table.last_click = (inter.dispatched_at, version)
        try:
            callback = await inter.wait_response(timeout=30)
        except TimeoutError:
            self.errors["no_ack"] += 1
            if why is not None:
                why.append("no answer")
            return None
        if why is not None and callback.ephemeral:
            why.append("refused: " + (callback.data.get("content") or "?")[:50])
        if not probe:
            self.clicks += 1
            if self.in_window(inter.dispatched_at) and inter.latency is not None:
                self.acks.append(inter.latency * 1000)
                shard = inter.shard[0] if inter.shard is not None else 0
                self.acks_by_shard[shard].append(inter.latency * 1000)
            if callback.ephemeral:
                self.refused[(callback.data.get("content") or "?")[:60]] += 1
        return inter

    async def human(self, table: BenchTable, user: int) -> None:
        seat = table.seats[user]
        rng = random.Random(f"{self.seed}:{user}")
        event = self.watch.dm_event[user]
        handled: set[int] = set()
        waiting_since: tuple[int, float] | None = None
        stuck_after = 30 + 3 * self.pace
        while not self.stopping:
            event.clear()
            await table.sync(self.query)
            if table.state.is_over:
                return
            found = latest_controls(self.fake, user)
            if found is not None and seat in table.state.to_act:
                version = prompt_version(found[1])
                if version not in handled:
                    handled.add(version)
                    seen = self.watch.first_seen.get((user, version), time.monotonic())
                    self.note_decision(table, user, version, seen)
                    if self.in_window(seen):
                        self.decisions_met.append((table.id, version, seen))
                    think = rng.uniform(0.5, 1.5) * self.pace
                    await asyncio.sleep(max(0.0, seen + think - time.monotonic()))
                    if self.stopping:
                        return
                    await self.click(table, user, rng)
                    waiting_since = None
                    continue
            if seat in table.state.to_act:
                key = table.state.version
                if waiting_since is None or waiting_since[0] != key:
                    waiting_since = (key, time.monotonic())
                elif time.monotonic() - waiting_since[1] > stuck_after:
                    self.errors[f"stuck: {table.game}"] += 1
                    if os.environ.get("BENCH_DEBUG"):
                        latest = latest_controls(self.fake, user)
                        dms = self.fake.dms(user)
                        print(
                            "STUCK",
                            table.game,
                            table.id,
                            seat,
                            table.state.version,
                            table.state.to_act,
                            sorted(handled),
                            latest and prompt_version(latest[1]),
                            latest and [c["custom_id"] for c in latest[1]][:4],
                            dms and (dms[-1].content[-150:], dms[-1].components != []),
                            file=sys.stderr,
                        )
                    handled.clear()  # try the controls again
                    waiting_since = (key, time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), IDLE_LOOK_SECONDS)

    async def play(self) -> None:
        async def guarded(table: BenchTable, user: int) -> None:
            try:
                await self.human(table, user)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.errors[f"player crashed: {type(e).__name__}: {e}"[:120]] += 1

        await asyncio.gather(*(guarded(t, u) for t in self.tables for u in t.seats))

    # ------------------------------------------------------------------ figures

    async def actions_between(
        self, start_wall: float, end_wall: float
    ) -> list[tuple[int, float, str]]:
        rows = await self.query(
            "SELECT table_id, created_at, source FROM actions"
            " WHERE created_at >= ? AND created_at <= ?",
            (start_wall, end_wall),
        )
        return [(r["table_id"], r["created_at"], r["source"]) for r in rows]

    async def stored_at(self, table_id: int, idx: int, wait: float = 10.0) -> float | None:
        """When (monotonic) the table's action ``idx`` was stored, waiting up to ``wait``
        seconds for it; None if it never was."""
        deadline = time.monotonic() + wait
        while True:
            rows = await self.query(
                "SELECT created_at FROM actions WHERE table_id = ? AND idx = ?", (table_id, idx)
            )
            if rows:  # (stamped by the database's clock: wall time on this machine)
                return rows[0]["created_at"] - (time.time() - time.monotonic())
            if time.monotonic() > deadline:
                return None
            # (the time is the row's: looking less often costs no accuracy, and 1,000 probes
            # looking every 0.1 s kept the bench's own loop busy)
            await asyncio.sleep(0.5)

    async def decision_lags(self, start_wall: float) -> list[tuple[int, float, str]]:
        """(table id, ms, source) of each decision a person met in the window: from the
        stored action that opened it (the previous prompt version's move, by whoever:
        ``source``) to the moment the fake first held their DM controls for it."""
        rows = await self.query(
            "SELECT table_id, idx, created_at, source FROM actions WHERE created_at >= ?",
            (start_wall - 600,),
        )
        stored = {(r["table_id"], r["idx"]): (r["created_at"], r["source"]) for r in rows}
        offset = time.time() - time.monotonic()
        marks = []
        for table_id, version, seen in self.decisions_met:
            found = stored.get((table_id, version - 1))
            if found is not None:
                marks.append((table_id, max(0.0, (seen + offset - found[0]) * 1000), found[1]))
        return marks

    async def table_stale_ms(
        self, actions: list[tuple[int, float, str]], end_wall: float
    ) -> dict[str, list[float]]:
        """Staleness of each action, by game."""
        rows = await self.query("SELECT id, table_message_id FROM tables")
        message_of = {r["id"]: r["table_message_id"] for r in rows}
        game_of = {t.id: t.game for t in self.tables}
        out: defaultdict[str, list[float]] = defaultdict(list)
        for table_id, created, _ in actions:
            edits = self.watch.edits.get(message_of.get(table_id) or 0, [])
            after = next((t for t in edits if t >= created), None)
            if after is not None:
                out[game_of.get(table_id, "?")].append((after - created) * 1000)
                self.stale_marks.append((table_id, (after - created) * 1000))
                self.stale_at.append((created, (after - created) * 1000))
            elif end_wall - created > 5:
                self.errors["table never showed an action"] += 1
        return out

    async def drivers(self, bots: Bots) -> dict[int, int]:
        """Table id → the index of the process driving it now (its lease's owner, named
        ``<lineage>#<pid>:<random>``: see bot.host.base)."""
        out: dict[int, int] = {}
        for row in await self.query("SELECT table_id, owner FROM table_leases"):
            pid = row["owner"].rsplit("#", 1)[-1].split(":", 1)[0]
            i = bots.index_of(int(pid)) if pid.isdigit() else None
            if i is not None:
                out[row["table_id"]] = i
        return out

    async def edits_by_game(self, start_wall: float, end_wall: float) -> Counter[str]:
        """Table-message edits in the window, by game."""
        rows = await self.query("SELECT id, table_message_id FROM tables")
        game_of = {t.id: t.game for t in self.tables}
        edits: Counter[str] = Counter()
        for r in rows:
            times = self.watch.edits.get(r["table_message_id"] or 0, [])
            edits[game_of.get(r["id"], "?")] += sum(1 for t in times if start_wall <= t < end_wall)
        return edits


# ---------------------------------------------------------------------- runs


TABLES_PER_CHANNEL = 5


async def _setup(fake: FakeDiscord, bots: Bots, bench: Bench, tables: int = 1) -> list[int]:
    channels = await setup_discord(fake, bots, tables)
    await bench.open()
    return channels


async def setup_discord(fake: FakeDiscord, bots: Bots, tables: int = 1) -> list[int]:
    """Start the fake and the bots: one guild per shard (one shard per bot process), with
    one games channel per few tables (as servers with many channels: a channel's own rate
    limits would otherwise make one channel the bottleneck), and the slash commands
    registered. Returns the channels, alternating between the guilds."""
    await fake.start()
    # Opening DM channels: the fake's 10 per 10 s is a guess (Discord does not publish it);
    # thousands of players arriving at once would measure that guess, not the bot.
    fake.ratelimits.set_route_limit("POST /users/@me/channels", 50, 1.0)
    shards = bots.count
    guilds = [
        fake.add_guild(f"Bench {i}", shard=i, shard_count=shards)
        if shards > 1
        else fake.add_guild("Bench")
        for i in range(shards)
    ]
    channels = [
        fake.add_text_channel(guilds[i % shards], f"games-{i}")
        for i in range(max(shards, -(-tables // TABLES_PER_CHANNEL)))
    ]
    await bots.start()
    await fake.wait_until(
        lambda: set(GAMES) <= {c["name"] for c in fake.commands()},
        timeout=60,
        what="the slash commands",
    )
    return channels


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


async def run_host(
    *,
    tables: int,
    pace: float,
    duration: float,
    warmup: float | None = None,
    global_limit: int | None = None,
    seed: int = 1,
    processes: int = 1,
    database: str | None = None,
    redis: str | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """``processes`` bot processes, process i running shard i of ``processes``, on one
    database: ``database`` (a ``postgresql://`` URL: a fresh schema of it, dropped
    afterwards) or a new SQLite file (one process only); ``redis``: the Redis their shared
    REST budget lives in (None: each keeps to its static share)."""
    fake, tmp, schema, bots, bench = await _rig(
        global_limit, processes, database, pace, seed, redis
    )
    players: asyncio.Task[None] | None = None
    result: dict[str, Any] = {
        "tables": tables,
        "pace_s": pace,
        "global_limit": global_limit or GLOBAL_LIMIT,
        "duration_s": duration,
        "processes": processes,
        "database": "postgresql" if database else "sqlite",
        "rest_budget": (
            "shared (Redis)"
            if redis
            else "static share per process"
            if processes > 1
            else "the whole budget (one process)"
        ),
    }
    try:
        channels = await _setup(fake, bots, bench, tables)
        await asyncio.sleep(2.0)
        idle_rss = rss_kib(bots.mains())
        idle_rss_each = [rss_kib([pid]) for pid in bots.mains()]
        _say(quiet, f"bots connected (idle RSS {idle_rss} KiB); opening {tables} tables")
        started = time.monotonic()
        await bench.open_tables(channels, tables)
        # From the first /<game> new to every table's thread, table message and first DMs.
        result["open_tables_s"] = round(time.monotonic() - started, 1)
        players = asyncio.create_task(bench.play())
        warm = pace if warmup is None else warmup
        _say(quiet, f"{len(bench.tables)} tables playing; warm-up {warm:.0f} s")
        await asyncio.sleep(warm)
        limits = fake.ratelimits
        total_429_before = limits.global_429s + limits.bucket_429s
        global_429_before = limits.global_429s
        routes_429_before = Counter(limits.rate_limited_routes)
        limits.reset_counters()
        cpu0, wall0 = cpu_seconds(bots.tree()), time.time()
        cpu0_each = [cpu_seconds(p.tree()) for p in bots.processes]
        main0 = cpu_seconds(bots.mains())
        own0 = time.process_time()
        # Which process drives each table, and which sent each connection's requests
        # (looked at every second: a table may end, a connection close, in the window).
        drivers = await bench.drivers(bots)
        ports = bots.ports()
        bench.window = (time.monotonic(), float("inf"))
        lag_probe = asyncio.create_task(_loop_lag(bench.loop_lags))
        _say(quiet, f"measuring for {duration:.0f} s")
        loop = asyncio.get_running_loop()
        end = loop.time() + duration
        while loop.time() < end and bots.alive and not players.done():
            await asyncio.sleep(min(1.0, end - loop.time()))
            ports.update(bots.ports())
        if not bots.alive:
            bench.errors["bot process died"] += 1
        pids = bots.tree()
        mains = bots.mains()
        cpu1, wall1 = cpu_seconds(pids), time.time()
        cpu1_each = [cpu_seconds(p.tree()) for p in bots.processes]
        main1 = cpu_seconds(mains)
        own1 = time.process_time()
        rss = rss_kib(mains)
        rss_each = [rss_kib([p.proc.pid]) if p.proc else 0 for p in bots.processes]
        drivers |= await bench.drivers(bots)
        workers_rss = rss_kib([p for p in pids if p not in mains])
        bench.window = (bench.window[0], time.monotonic())
        lag_probe.cancel()
        summary = limits.summary()
        bench.stopping = True
        players.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await players
        window = wall1 - wall0
        actions = await bench.actions_between(wall0, wall1)
        n = len(actions)
        stale_by_game = await bench.table_stale_ms(actions, wall1)
        stale = [ms for values in stale_by_game.values() for ms in values]
        lag_marks = await bench.decision_lags(wall0)
        lags = [ms for _, ms, _ in lag_marks]
        game_of = {t.id: t.game for t in bench.tables}
        actions_by_game = Counter(game_of.get(table_id, "?") for table_id, _, _ in actions)
        edits_by_game = await bench.edits_by_game(wall0, wall1)
        result.update(
            tables_playing=len(bench.tables),
            window_s=round(window, 1),
            actions=n,
            actions_by_source=dict(Counter(s for _, _, s in actions)),
            # (turns and claim windows that ran out before the person clicked)
            timeouts_by_game=dict(
                Counter(game_of.get(t, "?") for t, _, s in actions if s == "timeout")
            ),
            clicks=len(bench.acks),
            ack_p50_ms=_r(percentile(bench.acks, 50)),
            ack_p99_ms=_r(percentile(bench.acks, 99)),
            decision_p50_ms=_r(percentile(bench.decisions, 50)),
            decision_p99_ms=_r(percentile(bench.decisions, 99)),
            decisions=len(bench.decisions),
            decision_via_ai_p50_ms=_r(percentile(bench.decisions_via_ai, 50)),
            decision_lag_p50_ms=_r(percentile(lags, 50)),
            decision_lag_p99_ms=_r(percentile(lags, 99)),
            decision_lag_max_ms=_r(max(lags, default=0.0)),
            decisions_late_by_source=dict(
                Counter(source for _, ms, source in lag_marks if ms > DECISION_LATE_MS)
            ),
            table_stale_p50_ms=_r(percentile(stale, 50)),
            table_stale_p99_ms=_r(percentile(stale, 99)),
            # (per 10 s of the window: a backlog left by opening the tables shows early)
            table_stale_p99_ms_by_10s=[
                _r(percentile([ms for at, ms in bench.stale_at if k <= at - wall0 < k + 10], 99))
                for k in range(0, int(window) // 10 * 10, 10)  # (whole 10 s only)
                if any(k <= at - wall0 < k + 10 for at, _ in bench.stale_at)
            ],
            table_stale_p99_ms_by_game={
                g: _r(percentile(v, 99)) for g, v in sorted(stale_by_game.items())
            },
            table_edits_per_action_by_game={
                g: round(edits_by_game[g] / k, 2) for g, k in sorted(actions_by_game.items())
            },
            actions_per_s=_r(n / window if window else 0.0, 2),
            cpu_ms_per_action=_r((cpu1 - cpu0) * 1000 / n if n else float("nan")),
            cpu_percent=_r((cpu1 - cpu0) * 100 / window if window else 0.0),
            # The same split: the bot processes themselves (hosting: clicks, the store,
            # the cluster's coordination) and their render workers (pictures: as many as
            # the run could draw, so it grows with how fresh the tables are kept).
            main_cpu_ms_per_action=_r((main1 - main0) * 1000 / n if n else float("nan")),
            render_cpu_ms_per_action=_r(
                ((cpu1 - cpu0) - (main1 - main0)) * 1000 / n if n else float("nan")
            ),
            # What the fake Discord and the players cost (this process, same cores).
            bench_cpu_percent=_r((own1 - own0) * 100 / window if window else 0.0),
            # How late this process's own loop runs (it stamps the acks and decisions).
            bench_loop_lag_p99_ms=_r(percentile(bench.loop_lags, 99)),
            bot_processes=len(pids),
            rest_per_action=_r(summary["calls"] / n if n else float("nan"), 2),
            rest_calls=summary["calls"],
            rest_by_route={
                k: round(v / n, 3) if n else v
                for k, v in sorted(summary["calls_by_route"].items(), key=lambda kv: -kv[1])
            },
            interaction_calls=summary["exempt_calls"],
            http_429=summary["global_429s"] + summary["bucket_429s"],
            http_429_global=summary["global_429s"],
            http_429_bucket=summary["bucket_429s"],
            http_429_whole_run=total_429_before + summary["global_429s"] + summary["bucket_429s"],
            http_429_whole_run_global=global_429_before + summary["global_429s"],
            http_429_whole_run_by_route=dict(
                routes_429_before + Counter(summary["rate_limited_by_route"])
            ),
            idle_rss_kib=idle_rss,
            rss_kib=rss,
            rss_kib_per_table=_r((rss - idle_rss) / max(1, len(bench.tables))),
            render_workers_rss_kib=workers_rss,
            bucket_waits_by_route=summary["exhausted_by_route"],
            clicks_refused=sum(bench.refused.values()),
            refused_reasons=dict(bench.refused),
        )
        per_process = []
        calls_by_port = limits.calls_by_port
        for i in range(bots.count):
            mine = [t for t, p in drivers.items() if p == i]
            acted = sum(1 for table_id, _, _ in actions if drivers.get(table_id) == i)
            decisions = [ms for t, ms in bench.decision_marks if drivers.get(t) == i]
            stale_here = [ms for t, ms in bench.stale_marks if drivers.get(t) == i]
            lags_here = [ms for t, ms, _ in lag_marks if drivers.get(t) == i]
            acks = bench.acks_by_shard.get(i, [])
            rest = sum(c for port, c in calls_by_port.items() if ports.get(port) == i)
            cpu = cpu1_each[i] - cpu0_each[i]
            per_process.append(
                {
                    "process": i,
                    "tables_driven": len(mine),
                    "clicks": len(acks),
                    "ack_p50_ms": _r(percentile(acks, 50)),
                    "ack_p99_ms": _r(percentile(acks, 99)),
                    "decisions": len(decisions),
                    "decision_p50_ms": _r(percentile(decisions, 50)),
                    "decision_p99_ms": _r(percentile(decisions, 99)),
                    "table_stale_p99_ms": _r(percentile(stale_here, 99)),
                    "decision_lag_p99_ms": _r(percentile(lags_here, 99)),
                    "actions_per_s": _r(acted / window if window else 0.0, 2),
                    "cpu_ms_per_action": _r(cpu * 1000 / acted if acted else float("nan")),
                    "cpu_percent": _r(cpu * 100 / window if window else 0.0),
                    "rest_calls": rest,
                    "rest_per_s": _r(rest / window if window else 0.0),
                    "rest_per_action": _r(rest / acted if acted else float("nan"), 2),
                    "rss_kib_per_table": _r(
                        (rss_each[i] - idle_rss_each[i]) / max(1, len(mine))
                        if i < len(idle_rss_each)
                        else float("nan")
                    ),
                }
            )
        result["per_process"] = per_process
        # Requests from connections no look caught open (closed between two looks).
        result["rest_calls_unattributed"] = sum(
            c for port, c in calls_by_port.items() if port not in ports
        )
    except Exception as e:
        bench.errors[f"bench failed: {type(e).__name__}: {str(e)[-600:]}"] += 1
    finally:
        await teardown(bench, players, bots, fake, tmp, schema)
    result["errors"] = sum(bench.errors.values())
    result["error_kinds"] = dict(bench.errors)
    return result


async def _loop_lag(lags: list[float], every: float = 0.02) -> None:
    """How much later than asked this loop wakes a sleeper, in ms, every ``every`` s."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + every
        await asyncio.sleep(every)
        lags.append(max(0.0, loop.time() - asked) * 1000)


async def _rig(
    global_limit: float | None,
    processes: int,
    database: str | None,
    pace: float,
    seed: int,
    redis: str | None = None,
) -> tuple[FakeDiscord, tempfile.TemporaryDirectory[str], PostgresSchema | None, Bots, Bench]:
    """What both benchmarks run on: the fake Discord (rate limits on, one shard per bot
    process), a temp dir, the database (a fresh schema of ``database``, or an SQLite file
    there), the bot processes (not started yet; sharing their REST budget in ``redis`` if
    given) and the bench's players. ``teardown`` undoes it."""
    fake = FakeDiscord(
        rate_limits=True, global_limit=global_limit or GLOBAL_LIMIT, shard_count=processes
    )
    tmp = tempfile.TemporaryDirectory(prefix="teahouse-bench-")
    workdir = Path(tmp.name)
    schema = PostgresSchema(database) if database else None
    url = await schema.__aenter__() if schema else str(workdir / "bench.db")
    bots = Bots(fake, workdir, url, processes, redis)
    return fake, tmp, schema, bots, Bench(fake, url, pace, seed)


async def teardown(
    bench: Any, players: Any, bots: Any, fake: Any, tmp: Any, schema: Any = None
) -> None:
    """Stop the players, the bot processes, the fake, drop the schema and the temp dir:
    always, in this order (``bench``: anything with ``stopping`` and ``close()``)."""
    bench.stopping = True
    if players is not None and not players.done():
        players.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await players
    await bots.stop()
    await bench.close()
    await fake.stop()
    if schema is not None:
        await schema.__aexit__(None, None, None)
    keep = os.environ.get("BENCH_KEEP_LOGS")
    if keep:  # the bot processes' logs, for a closer look at a run
        Path(keep).mkdir(parents=True, exist_ok=True)
        for log_file in Path(tmp.name).glob("*.log"):
            shutil.copy(log_file, Path(keep) / log_file.name)
    tmp.cleanup()


#: A decision DM seen this long after the move that opened it is late: a claim window
#: (20 s in the bench) can close before a person who thinks 5–15 s clicks.
DECISION_LATE_MS = 5000.0

#: Issue 13: every table accepts clicks within 5 s of the gateway being ready.
RESUME_TARGET_S = 5.0


def _debug_slow_table(fake: FakeDiscord, table: BenchTable, why: list[str]) -> None:
    """BENCH_DEBUG: what a table that has not taken a click 5 s after the restart shows."""
    state = table.state
    lines = [
        f"slow table {table.id} {table.game} v{state.version} to_act={state.to_act} {why[-3:]}"
    ]
    for user, seat in table.seats.items():
        dms = fake.dms(user)
        lines.append(
            f"  seat {seat} user {user} legal={state.legal_actions(seat)[:6]} dms={len(dms)}"
        )
        for m in dms[-2:]:
            ids = [c.get("custom_id") for c in find_components(m)][:4]
            lines.append(f"    dm {m.id} via={m.interaction is not None} comps={ids}")
    print("\n".join(lines), file=sys.stderr)


async def run_resume(
    *,
    tables: int,
    pace: float,
    warmup: float | None = None,
    global_limit: int | None = None,
    seed: int = 1,
    timeout: float = 120.0,
    processes: int = 1,
    database: str | None = None,
    redis: str | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """Kill every bot process with SIGKILL mid-play and start them again (see the module)."""
    fake, tmp, schema, bots, bench = await _rig(
        global_limit, processes, database, pace, seed, redis
    )
    players: asyncio.Task[None] | None = None
    result: dict[str, Any] = {
        "tables": tables,
        "global_limit": global_limit or GLOBAL_LIMIT,
        "processes": processes,
        "database": "postgresql" if database else "sqlite",
    }
    try:
        channels = await _setup(fake, bots, bench, tables)
        _say(quiet, f"opening {tables} tables")
        await bench.open_tables(channels, tables)
        players = asyncio.create_task(bench.play())
        warm = max(10.0, 2 * pace) if warmup is None else warmup
        _say(quiet, f"{len(bench.tables)} tables playing for {warm:.0f} s")
        await asyncio.sleep(warm)
        bench.stopping = True
        players.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await players
        # Let AIs move until every table waits on a person (or 20 s pass).
        loop = asyncio.get_running_loop()
        settle_end = loop.time() + 20
        while loop.time() < settle_end:
            for t in bench.tables:
                await t.sync(bench.query)
            if all(t.humans_to_act() or t.state.is_over for t in bench.tables):
                break
            await asyncio.sleep(0.5)
        await asyncio.sleep(1.5)  # the DMs of the last moves
        live = [t for t in bench.tables if not t.state.is_over]
        result["tables_live"] = len(live)
        result["actions_before_kill"] = (await bench.query("SELECT COUNT(*) AS n FROM actions"))[0][
            "n"
        ]
        _say(quiet, f"kill -9 with {len(live)} live tables; starting again")
        await bots.kill9()
        ready = await bots.start(timeout=timeout)
        result["spawn_to_ready_s"] = _r(ready - bots.spawned_at, 3)
        ready_at: dict[int, float] = {}
        attempts: Counter[int] = Counter()

        obstacles: dict[int, list[str]] = {}
        reported: set[int] = set()

        async def probe(table: BenchTable) -> None:
            rng = random.Random(f"{seed}:probe:{table.id}")
            why = obstacles.setdefault(table.id, [])
            while True:
                await table.sync(bench.query)
                if not table.humans_asked():
                    # Nobody has a decision (a Mah-Jongg claim window every person can only
                    # pass, a move with one answer): the table waits on the bot, which plays
                    # it. It is resumed when the new process stores that move.
                    why.append("waiting on the bot")
                    stored = await bench.stored_at(table.id, table.state.version, wait=2.0)
                    if stored is not None:
                        ready_at[table.id] = stored
                        return
                    continue
                for user in table.humans_asked():
                    version = table.state.version
                    inter = await bench.click(table, user, rng, probe=True, why=why)
                    attempts[table.id] += 1
                    if inter is not None and not inter.ephemeral:
                        # Acknowledged; accepted once the move is stored (a refusal may
                        # follow a deferral, as a follow-up).
                        stored = await bench.stored_at(table.id, version)
                        if stored is not None:
                            ready_at[table.id] = max(inter.first_callback_at, stored)
                            return
                        why.append("acknowledged, not stored")
                late = time.monotonic() - ready > RESUME_TARGET_S
                if late and os.environ.get("BENCH_DEBUG") and table.id not in reported:
                    reported.add(table.id)
                    _debug_slow_table(fake, table, why)
                await asyncio.sleep(0.4 + 0.2 * rng.random())

        probes = [asyncio.create_task(probe(t)) for t in live]
        done, pending = await asyncio.wait(probes, timeout=timeout) if probes else (set(), set())
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                bench.errors[f"probe crashed: {task.exception()!r}"[:120]] += 1
        if pending:
            bench.errors["tables never accepted a click"] += len(pending)
        # Notices: the thread's restart line for each table, a sent or edited DM for each human.
        threads = {
            r["id"]: r["place"]
            for r in await bench.query(
                "SELECT id, COALESCE(thread_id, channel_id) AS place FROM tables"
            )
        }

        def notices() -> tuple[list[float], int]:
            marks: list[float] = []
            missing = 0
            for t in live:
                note = [x for x in bench.watch.notices[threads[t.id]] if x >= bots.spawned_at]
                dms = [
                    [x for x in bench.watch.dm_touched[u] if x >= bots.spawned_at] for u in t.seats
                ]
                if not note or not all(dms):
                    missing += 1
                else:
                    marks += [note[0], *(d[0] for d in dms)]
            return marks, missing

        # The notices and fresh DMs wait for spare REST budget by design (about one post and
        # a DM per human per table, at 90 % of the global limit): allow them that long.
        budget = 0.9 * fake.ratelimits.global_limit
        notice_end = loop.time() + max(timeout, 3 * len(live) * 4 / budget)
        marks, missing = notices()
        while missing and loop.time() < notice_end:
            await asyncio.sleep(0.5)
            marks, missing = notices()
        if missing:
            bench.errors["restart notices missing"] += missing
        waits = sorted(at - ready for at in ready_at.values())
        # What kept the slow tables (over 5 s, or never) from taking a click, by game.
        slow = [t for t in live if t.id not in ready_at or ready_at[t.id] - ready > RESUME_TARGET_S]
        result["resume_slow_by_game"] = dict(Counter(t.game for t in slow))
        result["resume_slow_obstacles"] = dict(
            Counter(o for t in slow for o in set(obstacles.get(t.id, [])))
        )
        result.update(
            tables_ready=len(ready_at),
            resume_ready_s=_r(waits[-1], 3) if waits and not pending else None,
            resume_ready_p50_s=_r(percentile(waits, 50), 3),
            resume_ready_max_s=_r(waits[-1], 3) if waits else None,
            probe_clicks=sum(attempts.values()),
            notices_done_s=_r(max(marks) - ready, 3) if marks and not missing else None,
            http_429_whole_run=fake.ratelimits.global_429s + fake.ratelimits.bucket_429s,
        )
    except Exception as e:
        bench.errors[f"bench failed: {type(e).__name__}: {str(e)[-600:]}"] += 1
    finally:
        await teardown(bench, players, bots, fake, tmp, schema)
    result["errors"] = sum(bench.errors.values())
    result["error_kinds"] = dict(bench.errors)
    return result


def _r(value: float, digits: int = 1) -> float | None:
    if value != value:  # NaN: nothing measured
        return None
    return round(value, digits)
