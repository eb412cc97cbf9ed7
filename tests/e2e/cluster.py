"""Several ``python -m bot`` processes against the fake Discord, and people playing at them.

The bots are real subprocesses (as in production: configured by the environment only), so a
test can kill one with SIGKILL. Everything the test knows about a table it reads where a
person or an operator would: the fake Discord (DMs, thread posts) and the shared database
(the action log, results, ratings) — never the bots' memory.

Used by ``tests/e2e/test_cluster_e2e.py`` and ``bench/host_process.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import game_spec
from bot.host.options import game_options
from bot.store import Store
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction
from tests.e2e.teahouse import click_move, control_moves, latest_controls, state_checks

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------- processes


def _children(pid: int) -> list[int]:
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(x) for x in f.read().split()]
    return out


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (render workers are children of the bot)."""
    seen: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.append(p)
            todo += _children(p)
    return seen


def bot_environment(fake: FakeDiscord, database: str, **settings: str) -> dict[str, str]:
    """The environment of a bot process pointed at ``fake``: the caller's environment
    without its own ``TEAHOUSE_*``/``DISCORD_*`` settings, plus ``settings`` (given as
    ``TEAHOUSE_*`` names)."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("TEAHOUSE_", "DISCORD_"))}
    return {
        **inherited,
        "DISCORD_TOKEN": "fake-token",
        "TEAHOUSE_API_BASE": fake.api_base,
        "TEAHOUSE_GATEWAY_URL": fake.gateway_url,
        "TEAHOUSE_DATABASE": database,
        "PYTHONPATH": str(ROOT),
        **settings,
    }


class BotProcess:
    """``python -m bot`` in its own session; its output goes to ``<workdir>/<name>-<n>.log``."""

    def __init__(self, workdir: Path, env: dict[str, str], name: str = "bot") -> None:
        self.workdir, self.env, self.name = workdir, env, name
        self.proc: asyncio.subprocess.Process | None = None
        self.spawned_at = 0.0
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.workdir / f"{self.name}-{self.starts}.log"

    async def start(self) -> None:
        self.starts += 1
        log = open(self.log_path, "wb")  # noqa: SIM115 (the child holds it)
        self.spawned_at = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.workdir,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def tree(self) -> list[int]:
        return process_tree(self.proc.pid) if self.alive and self.proc is not None else []

    def log_tail(self, chars: int = 3000) -> str:
        path = self.log_path
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    async def kill9(self) -> None:
        """What a crash does: SIGKILL to the bot and then to whatever it left behind."""
        if self.proc is None:
            return
        pids = self.tree()
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        for pid in pids[1:]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    async def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, SIGKILL after ``grace`` s; then SIGKILL to anything left in its session."""
        if self.proc is None:
            return
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.send_signal(signal.SIGKILL)
                await self.proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


async def start_and_identify(
    fake: FakeDiscord, bot: BotProcess, shards: list[int] | None = None, timeout: float = 120
) -> float:
    """Start ``bot`` and wait until the fake has a live session for each of ``shards``
    (None: any new IDENTIFY). Returns the monotonic time it was reached."""
    before = fake.identify_count
    await bot.start()

    def ready() -> bool:
        if shards is None:
            return fake.identify_count > before
        live = {s for s, _ in fake.live_shards}
        return fake.identify_count > before and set(shards) <= live

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready():
        if not bot.alive:
            raise RuntimeError(f"{bot.name} exited at start:\n{bot.log_tail()}")
        if loop.time() > deadline:
            raise TimeoutError(f"{bot.name} did not connect within {timeout} s:\n{bot.log_tail()}")
        with contextlib.suppress(TimeoutError):
            await fake.wait_until(ready, timeout=1.0)
    return time.monotonic()


# ---------------------------------------------------------------------- tables, as players see them


@dataclass
class PlayedTable:
    """A table as its players know it: the state replayed from the shared log."""

    id: int
    game: str
    guild: int
    seed: str
    users: dict[int, int]  # user → seat
    state: Any
    thread: int | None = None
    table_message: int | None = None
    #: Clicks the bot acknowledged without refusing (a deferral).
    accepted: int = 0
    #: Clicks nobody received (the shard they go to had no live session).
    undelivered: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    #: Users whose seat an AI took over (their clicks are refused until they come back).
    passive: set[int] = field(default_factory=set)
    #: Every click made: (wall time it was dispatched, seat, the state version it was for).
    clicks: list[tuple[float, int, int]] = field(default_factory=list)

    async def sync(self, store: Store) -> bool:
        """Apply what the log holds beyond this state; True if anything was new."""
        missed = await store.actions_since(self.id, self.state.version)
        for seat, code in missed:
            self.state.apply(seat, code)
        return bool(missed)

    def seat_user(self, seat: int) -> int | None:
        return next((u for u, s in self.users.items() if s == seat), None)


async def load_table(store: Store, table_id: int) -> PlayedTable:
    row = await store.get_table(table_id)
    assert row is not None, f"table {table_id} does not exist"
    seats = sorted(await store.get_seats(table_id), key=lambda s: s.seat)
    state = game_spec(row.game).replay(
        row.seed, [s.name for s in seats], game_options(row.options), []
    )
    table = PlayedTable(
        id=table_id,
        game=row.game,
        guild=row.guild_id,
        seed=row.seed,
        users={s.user_id: s.seat for s in seats if s.user_id is not None and not s.is_ai},
        state=state,
        thread=row.thread_id,
        table_message=row.table_message_id,
    )
    await table.sync(store)
    return table


async def open_table(
    fake: FakeDiscord,
    store: Store,
    channel: int,
    game: str,
    users: list[int],
    ais: int,
    options: dict[str, Any] | None = None,
    timeout: float = 60,
) -> PlayedTable:
    """``/<game> new``, the others join, the host adds AIs and starts: the started table."""
    host = users[0]
    inter = await fake.slash(host, channel, f"{game} new", options or {})
    await inter.wait_response(timeout=timeout)
    lobby = fake.message(inter.original_id)
    assert lobby.embeds, f"/{game} new did not open a lobby: {inter.callback}"
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    for guest in users[1:]:
        await (await fake.click(guest, lobby, label="Join")).wait_response(timeout=timeout)
    for _ in range(ais):
        await (await fake.click(host, lobby, label="Add AI")).wait_response(timeout=timeout)
    await (await fake.click(host, lobby, label="Start")).wait_response(timeout=timeout)

    async def started() -> bool:
        row = await store.get_table(table_id)
        return row is not None and row.status == "active" and row.table_message_id is not None

    await until(started, timeout, what=f"table {table_id} started")
    return await load_table(store, table_id)


async def until(
    predicate: Callable[[], Any], timeout: float, *, what: str = "", interval: float = 0.1
) -> Any:
    """Poll an async (or plain) predicate until it is truthy; TimeoutError after ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"not reached within {timeout} s: {what or predicate!r}")
        await asyncio.sleep(interval)


#: The private answer to a claim-window pass served by a process that does not drive the
#: table: the pass is taken (the driving process passes for the seat at the window's close).
HELD_PASS = "👍"


def _refusal(inter: FakeInteraction) -> str | None:
    """The text of an ephemeral refusal of a click (first answer or follow-up), if any."""
    if inter.callback is not None and inter.callback.ephemeral:
        return inter.callback.data.get("content") or "?"
    for message in inter.followups:
        if message.ephemeral and not (message.content or "").startswith(HELD_PASS):
            return message.content or "?"
    return None


class Players:
    """The people at the tables of a test: each table's lowest human seat that must decide
    clicks a legal move from their newest DM controls, chosen by dice seeded with the
    table's seed, the state version and the seat (the same state gets the same choice).

    A table that makes no progress for ``stall_seconds`` while nobody is known to be
    waiting fails the run with what it was waiting for."""

    def __init__(
        self,
        fake: FakeDiscord,
        store: Store,
        *,
        stall_seconds: float = 45.0,
        answer_timeout: float = 30.0,
    ) -> None:
        self.fake, self.store = fake, store
        self.stall_seconds = stall_seconds
        self.answer_timeout = answer_timeout
        #: While set, nobody clicks (e.g. while a process is down and the test waits).
        self.paused = False

    async def click_once(self, table: PlayedTable) -> bool:
        """One click at ``table`` if someone can make one now; True if the log moved on."""
        humans = sorted(
            s for u, s in table.users.items() if s in table.state.to_act and u not in table.passive
        )
        if not humans:
            return False
        seat = humans[0]
        user = table.seat_user(seat)
        assert user is not None
        found = latest_controls(self.fake, user)
        if found is None:
            return False
        message, comps = found
        state = table.state
        version = state.version
        rng = random.Random(f"{table.seed}:{version}:{seat}")
        # Like most people, these players don't call Panda on a whim.
        legal = [
            c for c in state.legal_actions(seat) if not (table.game == "panda" and c == "call")
        ]
        normalize, accepts = state_checks(state, seat)
        moves = control_moves(comps, legal, normalize=normalize, accepts=accepts, rng=rng)
        if not moves:
            return False  # the DM of this decision is still on its way
        try:
            inter = await click_move(self.fake, user, message, rng.choice(moves))
        except ValueError:  # the message changed under the player's finger
            return False
        table.clicks.append((time.time(), seat, version))
        if inter.shard is None:  # no live session holds its shard: nobody will answer
            table.undelivered += 1
            await asyncio.sleep(0.3)
            return False
        try:
            await inter.wait_response(timeout=self.answer_timeout)
        except TimeoutError:
            # The process that got it may have been killed in between: a lost click.
            table.refused["no answer"] += 1
            return False
        refusal = _refusal(inter)
        if refusal is None:
            table.accepted += 1

        async def moved() -> bool:
            await table.sync(self.store)
            return table.state.version > version or _refusal(inter) is not None

        with contextlib.suppress(TimeoutError):
            await until(moved, 15, what="the click's move in the log", interval=0.05)
        refusal = _refusal(inter)
        if refusal is not None:
            table.refused[refusal[:60]] += 1
            if "AI is playing your seat" in refusal:
                table.passive.add(user)
            await asyncio.sleep(0.1)
        return table.state.version > version

    async def play(
        self, table: PlayedTable, stop: Callable[[PlayedTable], bool] | None = None
    ) -> None:
        """Play until the match is over (or ``stop(table)``)."""
        loop = asyncio.get_running_loop()
        progress_at, seen = loop.time(), table.state.version
        while True:
            await table.sync(self.store)
            if table.state.is_over or (stop is not None and stop(table)):
                return
            if table.state.version != seen:
                progress_at, seen = loop.time(), table.state.version
            if self.paused:
                progress_at = loop.time()
                await asyncio.sleep(0.1)
                continue
            if await self.click_once(table):
                continue
            if loop.time() - progress_at > self.stall_seconds:
                raise AssertionError(
                    f"{table.game} table {table.id} made no progress for {self.stall_seconds:.0f} s"
                    f" at version {table.state.version}: to act {table.state.to_act}, humans"
                    f" {table.users}, refused {dict(table.refused)}, undelivered"
                    f" {table.undelivered}"
                )
            await asyncio.sleep(0.05)


# ---------------------------------------------------------------------- what must hold afterwards


async def check_finished_once(
    fake: FakeDiscord, store: Store, table: PlayedTable, *, timeouts_allowed: bool = True
) -> list[str]:
    """Problems with a finished table (empty: none): its log is gapless and replays to the
    end, it has one result per seat, each human's rating counts the match once, its thread
    announced the end once, and no more player moves were logged than clicks accepted.
    Without ``timeouts_allowed``, a timeout or an AI takeover is a problem too (the players
    clicked all along, so their clicks were refused or lost)."""
    problems = []
    rows = await store.action_rows(table.id)
    indexes = [r.idx for r in rows]
    if indexes != list(range(len(rows))):
        problems.append(f"table {table.id}: log indexes are not 0..{len(rows) - 1}: {indexes}")
    row = await store.get_table(table.id)
    seats = sorted(await store.get_seats(table.id), key=lambda s: s.seat)
    state = game_spec(table.game).replay(
        row.seed,
        [s.name for s in seats],
        game_options(row.options),
        [(r.seat, r.code) for r in rows],
    )
    if not state.is_over:
        problems.append(f"table {table.id}: the log does not reach the end of the match")
    problems += await check_recorded_once(fake, store, table)
    if not timeouts_allowed:
        # A claim window closes by itself (a pass): also for a player whose pass another
        # process took (the driving one passes for them at the close).
        spec = game_spec(table.game)
        windows = bool(spec.answer_phases)
        timed_out = [
            r.idx
            for r in rows
            if r.source == "timeout" and not (windows and r.code == spec.pass_code)
        ]
        taken = [s.seat for s in seats if s.ai_takeover]
        if timed_out or taken:
            problems.append(
                f"table {table.id}: timeouts at {timed_out}, seats taken over by an AI {taken}"
                f" although every player clicked (refused: {dict(table.refused)})"
            )
    player_moves = sum(1 for r in rows if r.source == "player")
    if player_moves > table.accepted:
        problems.append(
            f"table {table.id}: {player_moves} player moves logged for {table.accepted} accepted"
            " clicks"
        )
    return problems


async def check_recorded_once(fake: FakeDiscord, store: Store, table: PlayedTable) -> list[str]:
    """Problems with the record of a match that ended (empty: none): the table is
    finished, with one result per seat, each human's rating counting it once (each
    player plays one match), and its thread announced the end once."""
    problems = []
    row = await store.get_table(table.id)
    seats = sorted(await store.get_seats(table.id), key=lambda s: s.seat)
    if row.status != "finished":
        problems.append(f"table {table.id}: status {row.status!r}, not 'finished'")
    results = await store.query("SELECT seat FROM results WHERE table_id = ?", (table.id,))
    if sorted(r["seat"] for r in results) != [s.seat for s in seats]:
        problems.append(f"table {table.id}: results {results} for seats {len(seats)}")
    for user in table.users:
        rated = await store.query(
            "SELECT games FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (table.guild, table.game, user),
        )
        if [r["games"] for r in rated] != [1]:
            problems.append(f"table {table.id}: user {user} rated {rated} (one match played)")
    if table.thread is not None:
        over = [
            m
            for m in fake.messages_in(table.thread, include_ephemeral=False)
            if f"#{table.id} is over" in m.content
        ]
        if len(over) != 1:
            problems.append(f"table {table.id}: {len(over)} 'is over' messages in its thread")
    return problems


def describe(table: PlayedTable) -> str:
    return (
        f"{table.game} #{table.id}: version {table.state.version}, over {table.state.is_over},"
        f" accepted {table.accepted}, refused {dict(table.refused)}, undelivered"
        f" {table.undelivered}"
    )
