"""The database fails, the games go on, nothing is lost (SQLite and PostgreSQL).

The store is made to fail by :class:`StoreDown` (every statement raises, as a server that
went away makes them), between the host and a real database. A move whose append fails is
not made — the state stays as the log has it and the player is told — a driver whose store
fails waits between tries instead of spinning, and the end of a match whose results fail
to be written is written later, once, with its ratings and its "is over" post. Waits are
bounded (``until``); nothing asserts how fast things happen."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from bot.host.cluster import NotSaved
from bot.host.manager import TableHost
from bot.store import Store, StoreUnavailable
from tests.host.offline import Click, offline_host, until
from tests.host.test_leases import AI, ALICE, BOB, SLOW, closing, open_table


class StoreDown:
    """Makes a store fail while ``down``: every read, write and transaction raises
    ``ConnectionRefusedError`` (what a stopped PostgreSQL server gives)."""

    def __init__(self, store: Store) -> None:
        self.down = False
        self.failed: Counter[str] = Counter()
        # (SQLite's appends go to its writer's group commit, not through ``_write_one``)
        for name in ("_fetchall", "_write_one", "_transaction", "append_action"):
            setattr(store, name, self._failing(name, getattr(store, name)))

    def _failing(self, name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                self.failed[name] += 1
                raise ConnectionRefusedError(f"the database is down ({name}, a test)")
            return real(*args, **kwargs)

        return call


#: One process (no other serves the table: no looking at the log), long turns.
ALONE: dict[str, Any] = {**SLOW, "log_poll": 0.0}


async def a_driven_table(path: str, seats: list, **settings: Any) -> tuple[TableHost, int]:
    host = await offline_host(path, record=True, **{**ALONE, **settings})
    table_id = await open_table(host.store, seats)
    assert await host.restore() == 1
    return host, table_id


def deciding(host: TableHost, table_id: int) -> tuple[int, int, str]:
    """The seat to act, the version its controls carry, and a legal move of it."""
    table = host.tables[table_id]
    seat = table.state.to_act[0]
    return seat, table.prompts[seat].version, table.state.legal_actions(seat)[0]


async def test_a_move_whose_append_fails_is_not_made_and_the_player_is_told(
    new_database,
) -> None:
    host, table_id = await a_driven_table(await new_database(), [ALICE, BOB])
    down = StoreDown(host.store)
    try:
        table = host.tables[table_id]
        await until(lambda: table.state.to_act and not table.lock.locked())
        seat, version, code = deciding(host, table_id)
        before = list(table.state.log)
        click = Click(table.seats[seat].user_id)
        down.down = True
        await host.on_action(click, table_id, seat, version, code)
        assert any("not saved" in answer for answer in click.answers), click.answers
        assert table.state.log == before  # nothing changed in memory
        assert seat in table.state.to_act and table.prompts[seat].version == version
        down.down = False
        assert table.state.log == await host.store.actions(table_id)
        # The same controls work once the database is back.
        again = Click(table.seats[seat].user_id)
        await host.on_action(again, table_id, seat, version, code)
        assert again.answers == []
        assert table.state.log == before + [(seat, code)]
        assert table.state.log == await host.store.actions(table_id)
    finally:
        down.down = False
        await closing(host)


async def test_a_store_unavailable_append_is_not_saved_not_a_taken_index(new_database) -> None:
    """SQLite's ``StoreUnavailable`` (locked past the busy timeout, disk full) is a passing
    failure, not another writer's move: the player is told "not saved" and the same
    controls work once the store takes writes again."""
    host, table_id = await a_driven_table(await new_database(), [ALICE, BOB])
    real = host.store.append_action
    full = True

    async def append_action(*args: Any, **kwargs: Any) -> None:
        if full:
            raise StoreUnavailable("database or disk is full (a test)")
        await real(*args, **kwargs)

    host.store.append_action = append_action  # type: ignore[method-assign]
    try:
        table = host.tables[table_id]
        await until(lambda: table.state.to_act and not table.lock.locked())
        seat, version, code = deciding(host, table_id)
        before = list(table.state.log)
        click = Click(table.seats[seat].user_id)
        await host.on_action(click, table_id, seat, version, code)
        assert any("not saved" in answer for answer in click.answers), click.answers
        assert table.state.log == before == await host.store.actions(table_id)
        full = False
        again = Click(table.seats[seat].user_id)
        await host.on_action(again, table_id, seat, version, code)
        assert again.answers == []
        assert table.state.log == before + [(seat, code)] == await host.store.actions(table_id)
    finally:
        full = False
        await closing(host)


async def test_plays_applied_together_are_undone_when_their_append_fails(new_database) -> None:
    """Out-of-turn plays gathered and applied together (Panda's Ambushes) change the
    state before they are logged (which of them are made is known only by applying
    them): when the append fails the state is rebuilt as the log has it, and the players
    are told it was not saved."""
    host, table_id = await a_driven_table(await new_database(), [ALICE, BOB])
    down = StoreDown(host.store)
    try:
        table = host.tables[table_id]
        await until(lambda: table.state.to_act and not table.lock.locked())
        seat, _, code = deciding(host, table_id)
        before = list(table.state.log)
        down.down = True
        async with table.lock:
            with pytest.raises(NotSaved):
                await host.log.commit_together(table, [(seat, code)], "player")
        assert table.state.log == before and seat in table.state.to_act
        down.down = False
        assert table.state.log == await host.store.actions(table_id)
        async with table.lock:
            await host.log.commit_together(table, [(seat, code)], "player")
        assert table.state.log == before + [(seat, code)] == await host.store.actions(table_id)
    finally:
        down.down = False
        await closing(host)


async def test_a_driver_whose_store_fails_waits_between_tries_and_carries_on(
    new_database,
) -> None:
    """Alice's deadline passes while the database is down: the timeout cannot be saved.
    The driver tries again after growing pauses (it does not loop without waiting: the
    issue counted 32,039 calls of the timeout path in one second), the state stays as the
    log has it, and once the database answers the timeout is played and the table goes
    on."""
    host, table_id = await a_driven_table(await new_database(), [ALICE, BOB])
    down = StoreDown(host.store)
    calls = Counter[str]()
    real_timeouts = host.driver._timeouts

    async def counted_timeouts(table: Any) -> None:
        calls["timeouts"] += 1
        await real_timeouts(table)

    host.driver._timeouts = counted_timeouts  # type: ignore[method-assign]
    try:
        table = host.tables[table_id]
        await until(lambda: table.state.to_act and not table.lock.locked())
        seat = table.state.to_act[0]
        before = list(table.state.log)
        down.down = True
        async with table.lock:
            table.deadlines[seat] = time.monotonic()  # the time has run out
        table.wake_driver()
        await until(lambda: down.failed)
        await asyncio.sleep(1.0)  # a bounded run while the store fails
        # Pauses of 0.2, 0.4, 0.8 s…: a handful of tries in a second (fewer under load).
        assert 1 <= calls["timeouts"] <= 8, calls
        assert table.state.log == before and seat in table.state.to_act
        assert seat in table.deadlines  # it keeps its deadline
        down.down = False
        await until(lambda: table.state.version == len(before) + 1, timeout=30)
        rows = await host.store.action_rows(table_id)
        assert [(r.seat, r.source) for r in rows[len(before) :]] == [(seat, "timeout")]
        assert table.state.log == await host.store.actions(table_id)
        waiting = table.state.to_act
        await until(lambda: all(s in table.deadlines for s in waiting))
        assert table.driver_restarts == 0
    finally:
        down.down = False
        await closing(host)


async def test_results_that_fail_to_be_written_are_written_later_once(new_database) -> None:
    """The match ends while writing its results fails: first before anything is written,
    then after the write was committed (its answer lost). The driver tries again until the
    results are there: written once, Alice rated once, "is over" posted once, the table
    finished and forgotten, its lease let go."""
    host, table_id = await a_driven_table(
        await new_database(),
        [ALICE, AI],
        turn_seconds=0.05,
        timeouts_before_ai=1,
        ai_delay=0.0,
        ai_only_grace=3600.0,
    )
    store = host.store
    real_record = store.record_result
    attempts = SimpleNamespace(count=0)

    async def record_result(*args: Any, **kwargs: Any) -> bool:
        attempts.count += 1
        if attempts.count == 1:
            raise ConnectionRefusedError("the database is down (a test)")
        recorded = await real_record(*args, **kwargs)
        if attempts.count == 2:
            raise ConnectionResetError("the answer was lost (a test)")
        return recorded

    store.record_result = record_result  # type: ignore[method-assign]
    try:
        await until(lambda: table_id not in host.tables, timeout=60)
        assert attempts.count >= 3
        row = await store.get_table(table_id)
        assert row.status == "finished"
        results = await store.query("SELECT seat FROM results WHERE table_id = ?", (table_id,))
        assert sorted(r["seat"] for r in results) == [0, 1]
        alice = await store.query(
            "SELECT games FROM ratings WHERE user_id = ? AND game = 'koikoi'", (ALICE.user_id,)
        )
        assert [r["games"] for r in alice] == [1]
        over = [text for tid, text in host.posts if tid == table_id and "is over" in text]
        assert len(over) == 1
        assert await store.lease_holder(table_id) is None
    finally:
        await closing(host)


class NewCommand(Click):
    """``/koikoi new`` by a user in a guild channel, as the host reads it."""

    def __init__(self, user_id: int) -> None:
        super().__init__(user_id)
        self.user = SimpleNamespace(id=user_id, display_name="Alice")
        self.guild_id, self.channel_id = 1, 2
        self.locale = self.guild_locale = "en-US"
        self.lobby_posted = False
        command = self

        class Response:
            def is_done(self) -> bool:
                return command.deferred

            async def send_message(self, text: str = "", **kwargs: Any) -> Any:
                command.deferred = True
                if "embed" in kwargs:
                    command.lobby_posted = True
                else:
                    command.answers.append(text)
                return SimpleNamespace(message_id=900 + user_id)

        self.response = Response()


async def test_six_new_tables_at_once_by_one_user_open_at_most_the_quota(new_database) -> None:
    """Six ``/koikoi new`` by one user at the same moment, on two processes: with the
    default caps (two open lobbies) and cooldown (10 s), one lobby opens; the others are
    told to wait."""
    path = await new_database()
    hosts = [await offline_host(path, record=True, **ALONE) for _ in range(2)]
    try:
        commands = [NewCommand(ALICE.user_id) for _ in range(6)]
        await asyncio.gather(
            *(hosts[i % 2].open_lobby(cmd, "koikoi", {}) for i, cmd in enumerate(commands))
        )
        assert sum(cmd.lobby_posted for cmd in commands) == 1
        assert all("try again in" in " ".join(c.answers) for c in commands if not c.lobby_posted)
        assert await hosts[0].store.count_tables("lobby", host_id=ALICE.user_id) == 1
    finally:
        await closing(*hosts)
