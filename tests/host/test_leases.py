"""Table leases between two hosts on one database (as two processes would be): one driver
per table, a dead owner's tables taken over with their timers' remaining time, a lease lost
mid-drive stopping the driver, no decision applied twice, the end announced once, and a
click served by a process that does not drive the table shown by the one that does.

Each test runs on SQLite and on PostgreSQL (the store tests' ``new_database``). Leases here
last 0.6 s (renewed and scanned every 0.2 s). Nothing asserts how fast things happen: waits
are bounded (``until``) and only their outcome is checked."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

from bot.config import ConfigError, Settings
from bot.games import game_spec
from bot.host.budget import Priority
from bot.host.cluster import RECLAIM_RENEWALS
from bot.host.intents import Outcome
from bot.host.lifecycle import LEASE_TASKS
from bot.host.manager import TableHost
from bot.host.options import game_options
from bot.store import SeatRow, Store, StoreError
from bot.store.store import Outage
from tests.host.offline import Click, offline_host, until

log = logging.getLogger(__name__)

FAST: dict[str, Any] = {
    "lease_seconds": 0.6,
    "log_poll": 0.05,
    "ai_delay": 0.0,
    "edit_interval": 0.0,
    "ai_only_grace": 3600.0,
    "turn_seconds": 3600.0,
}
ALICE = SeatRow(seat=0, user_id=7, name="Alice")
BOB = SeatRow(seat=1, user_id=8, name="Bob")
AI = SeatRow(seat=1, user_id=None, name="AI 1", is_ai=True)


async def open_table(store: Store, seats: list[SeatRow], seed: str = "lease") -> int:
    table_id = await store.create_table(
        guild_id=1, channel_id=2, game="koikoi", options={}, seed=seed, host_id=7
    )
    await store.set_seats(table_id, seats)
    assert await store.transition(table_id, ("lobby",), "active")
    return table_id


async def stored_state(store: Store, table_id: int) -> Any:
    """The match as the log says it is (replayed from scratch)."""
    row = await store.get_table(table_id)
    names = [s.name for s in await store.get_seats(table_id)]
    return game_spec(row.game).replay(
        row.seed, names, game_options(row.options), await store.actions(table_id)
    )


async def closing(*hosts: TableHost) -> None:
    for host in hosts:
        if not host.ctx.closing:
            await host.close()
        await host.store.close()


def driven_by(host: TableHost, table_id: int) -> bool:
    table = host.tables.get(table_id)
    return table is not None and table.driven


#: Leases that outlive a test (a restart takes them back by name, see ``process_name``).
SLOW: dict[str, Any] = {**FAST, "lease_seconds": 3600.0}


async def a_box_driving_a_table(path: str) -> tuple[TableHost, int]:
    """A host named "box" (a restart runs under the same name) driving a table of Alice
    and Bob; the DMs it would send are recorded, none goes out."""
    host = await offline_host(path, record=True, process_name="box", **SLOW)
    table_id = await open_table(host.store, [ALICE, BOB])
    assert await host.restore() == 1
    return host, table_id


async def alice_to_decide_after_a_move(host: TableHost, table_id: int) -> None:
    """Until Alice (seat 0) must decide at a state an action led to while ``host`` drove the
    table: her deadline then runs from that action."""
    table = host.tables[table_id]
    while True:
        await until(lambda: 0 in table.state.to_act and not table.lock.locked())
        if table.state.version >= 1:
            return
        async with table.lock:  # Alice moves first here: a move of hers served by the owner
            code = table.state.legal_actions(0)[0]
            await host.log.commit(table, 0, code, "player")
            await host.log.publish(Outcome(table))


async def test_a_dead_owners_table_is_taken_over_with_its_timer_running(new_database) -> None:
    """The owner dies (closed without letting go of its lease): the other host claims the
    table once the lease runs out, and Alice's deadline keeps the time it had — only the
    moments nobody held the lease are added, it does not start again from full."""
    path = await new_database()
    a = await offline_host(path, record=True, **FAST)
    b = await offline_host(path, record=True, **FAST)
    try:
        table_id = await open_table(a.store, [ALICE, AI])
        assert await a.restore() == 1 and driven_by(a, table_id)
        await alice_to_decide_after_a_move(a, table_id)
        alice_deadline = a.tables[table_id].deadlines[0]
        killed = time.monotonic()
        await a.close(release=False)  # as kill -9: the lease runs out on its own
        b.sessions.start_leases()
        await until(lambda: driven_by(b, table_id))
        seen = time.monotonic()
        log.info("failover: table driven by the other host %.2f s after the kill", seen - killed)
        table = b.tables[table_id]
        assert table.state.log == await b.store.actions(table_id)
        # One clock here (both hosts in one process): the new deadline is the old one plus
        # at most the time between the kill and the takeover (julianday: 1 ms resolution).
        gap = table.deadlines[0] - alice_deadline
        assert -0.05 <= gap <= seen - killed + 0.05, (gap, seen - killed)
        assert await b.store.lease_holder(table_id) == b.owner
    finally:
        await closing(a, b)


async def test_a_restarted_process_drives_its_tables_again_at_once(new_database) -> None:
    """Killed and started again under the same name (a restart, not another process): the
    new run takes back its earlier run's leases at its first claim, without waiting for
    them to run out; the earlier run, were it still alive, could no longer renew them."""
    path = await new_database()
    slow = {**FAST, "lease_seconds": 3600.0}  # a lease that would outlive the test
    first = await offline_host(path, record=True, process_name="box/shards 0", **slow)
    other = await offline_host(path, record=True, process_name="box/shards 1", **slow)
    second = None
    try:
        table_id = await open_table(first.store, [ALICE, AI])
        assert await first.restore() == 1 and driven_by(first, table_id)
        await first.close(release=False)  # as kill -9
        assert await other.restore() == 0  # another process must wait for the lease
        second = await offline_host(path, record=True, process_name="box/shards 0", **slow)
        assert await second.restore() == 1 and driven_by(second, table_id)
        assert await second.store.lease_holder(table_id) == second.owner
        assert await first.store.renew_leases(first.owner, 60.0) == set()
    finally:
        await closing(*(h for h in (first, other, second) if h is not None))


async def test_after_a_restart_a_player_without_controls_is_drawn_before_the_others(
    new_database,
) -> None:
    """The process died before the DM of the player who must decide went out: after the
    restart that DM's picture waits for nobody; the fresh DMs every other player gets are
    drawn last (at a restart of many tables they would otherwise come first)."""
    path = await new_database()
    first, table_id = await a_box_driving_a_table(path)
    second = None
    try:
        deciding = first.tables[table_id].state.to_act
        assert len(deciding) == 1  # (the recorded DMs never went out: nothing is known)
        await first.close(release=False)  # as kill -9
        second = await offline_host(path, record=True, process_name="box", **SLOW)
        assert await second.restore() == 1
        await until(lambda: len(second.fresh_dms) == 2)
        (behind, urgent), (other, later) = [(s, p) for _, s, p in second.fresh_dms]
        assert [behind] == deciding and urgent == Priority.DECISION
        assert other != behind and later == Priority.BACKGROUND
    finally:
        await closing(*(h for h in (first, second) if h is not None))


async def test_the_taking_host_drives_the_timer_and_the_ai_to_the_end(new_database) -> None:
    path = await new_database()
    a = await offline_host(path, record=True, **FAST)
    # The taking host's turn is short: Alice's time has run out there; after one timeout an
    # AI plays her seat and the match goes on to its end.
    b = await offline_host(
        path, record=True, **{**FAST, "turn_seconds": 0.05, "timeouts_before_ai": 1}
    )
    try:
        table_id = await open_table(a.store, [ALICE, AI])
        assert await a.restore() == 1
        await alice_to_decide_after_a_move(a, table_id)
        before = a.tables[table_id].state.version
        await a.close(release=False)
        b.sessions.start_leases()
        await until(lambda: driven_by(b, table_id))
        table = b.tables[table_id]
        await until(lambda: table.finished and table_id not in b.tables)
        rows = await b.store.action_rows(table_id)
        assert rows[before].source == "timeout" and rows[before].seat == 0
        assert {r.source for r in rows[before + 1 :]} <= {"ai"}
        assert (await b.store.get_table(table_id)).status == "finished"
        assert (await stored_state(b.store, table_id)).is_over
        over = [text for _, text in a.posts + b.posts if "is over" in text]
        assert len(over) == 1 and over == [t for _, t in b.posts if "is over" in t]
        assert await b.store.lease_holder(table_id) is None  # let go at the end
    finally:
        await closing(a, b)


async def test_a_lease_lost_mid_drive_stops_the_driver_and_nothing_is_applied_twice(
    new_database,
) -> None:
    """A stalls (its renewals stop) while believing its lease: B takes the table after the
    lease ran out, and for a while both drive the AI seats. Every decision is appended once
    (the loser of each race drops its move quietly); A's next renewal fails and A stops
    driving; B plays the match to its end, announced once."""
    path = await new_database()
    paced = {**FAST, "ai_delay": 0.05}  # a match of AIs lasts a few seconds, not a blink
    a = await offline_host(path, record=True, **paced)
    b = await offline_host(path, record=True, **paced)
    ai0 = SeatRow(seat=0, user_id=None, name="AI 0", is_ai=True)
    try:
        table_id = await open_table(a.store, [ai0, AI], seed="stall")
        assert await a.restore() == 1
        stale = a.tables[table_id]
        for key in LEASE_TASKS:  # the stall: no renewal from now on...
            a.ctx.scheduler.cancel(key)
        a.leases.held[table_id] = time.monotonic() + 3600  # ...and A thinks it still holds it
        b.sessions.start_leases()
        await until(lambda: driven_by(b, table_id))
        fresh = b.tables[table_id]
        both_from = fresh.state.version
        await until(lambda: fresh.state.version >= both_from + 4 or fresh.finished)
        assert stale.driven  # both drove meanwhile
        await a.leases._renew()  # A's renewal comes back: the lease is B's now
        assert not stale.driven and table_id not in a.leases.held
        await until(lambda: all(t.done() for t in a.ctx.scheduler.table_tasks(stale)))
        # The match ends (B plays it on, unless A's last move ended it during the overlap)
        # and B forgets it (A keeps a cache that would serve clicks, driven no more).
        await until(lambda: table_id not in b.tables)
        assert (await b.store.get_table(table_id)).status == "finished"
        # One action per index, each legal where it stands: the log replays to the end.
        final = await stored_state(b.store, table_id)
        assert final.is_over and final.version == len(await b.store.action_rows(table_id))
        assert stale.driver_restarts == 0 and fresh.driver_restarts == 0
        over = [text for _, text in a.posts + b.posts if "is over" in text]
        assert len(over) == 1
    finally:
        await closing(a, b)


@pytest.mark.parametrize("trouble", ["late", "failing"])
async def test_a_renewal_late_or_failing_pauses_the_table_and_never_gives_it_up(
    new_database, trouble: str
) -> None:
    """At a busy moment the renewal comes back after the lease's local time ran out (or
    fails for a while): the table's lease is still this process's in the store, so the
    table stays driven here. Nothing is decided while its lease is unconfirmed, and the AIs
    play on once a renewal confirms it (before, the driver gave the table up and nobody
    drove it again: its lease, still renewed here, was never free for a takeover)."""
    path = await new_database()
    a = await offline_host(path, record=True, **{**FAST, "ai_delay": 0.05})
    ai0 = SeatRow(seat=0, user_id=None, name="AI 0", is_ai=True)
    try:
        table_id = await open_table(a.store, [ai0, AI], seed="late")
        assert await a.restore() == 1
        table = a.tables[table_id]
        await until(lambda: table.state.version >= 2)
        trouble_over = asyncio.Event()

        def troubled(statement: Any) -> Any:
            async def run(*args: Any, **kwargs: Any) -> Any:
                if trouble == "failing" and not trouble_over.is_set():
                    raise StoreError("the database is busy")
                await trouble_over.wait()  # late: back only when the trouble is over
                return await statement(*args, **kwargs)

            return run

        # Every lease statement is in trouble (the takeover scan would otherwise claim the
        # lease back once it ran out in the store).
        a.store.renew_leases = troubled(a.store.renew_leases)  # type: ignore[method-assign]
        a.store.claim_free_leases = troubled(a.store.claim_free_leases)  # type: ignore[method-assign]
        # (a move that began while the lease was confirmed completes)
        await until(lambda: not a.leases._holds_lease(table_id) and not table.lock.locked())
        paused_at = table.state.version
        await asyncio.sleep(3 * FAST["lease_seconds"])  # (a pause long enough to matter)
        assert table.driven and table_id in a.leases.held
        assert table.state.version == paused_at  # nothing was decided meanwhile
        trouble_over.set()
        await until(lambda: a.leases._holds_lease(table_id))
        await until(lambda: table.state.version >= paused_at + 3 or table.finished)
        assert table.driven or table.finished
        assert table.driver_restarts == 0
    finally:
        await closing(a)


async def test_after_a_database_outage_the_owners_take_their_leases_back_first(
    new_database,
) -> None:
    """The database stops answering long enough for every lease to run out. When it is back,
    the process that scans first does not take the tables of an owner that is alive (it
    would load them anew and send their players' DMs again): for two renewals it claims
    nothing, the owner renews its leases and keeps driving. Past that, a lease nobody
    renewed is free as before."""
    path = await new_database()
    a = await offline_host(path, record=True, **FAST)
    b = await offline_host(path, **FAST)
    try:
        table_id = await open_table(a.store, [ALICE, BOB], seed="outage")
        assert await a.restore() == 1
        trouble_over = asyncio.Event()
        renew = a.store.renew_leases

        async def waiting_renewal(*args: Any, **kwargs: Any) -> Any:
            await trouble_over.wait()  # the database does not answer A meanwhile
            return await renew(*args, **kwargs)

        a.store.renew_leases = waiting_renewal  # type: ignore[method-assign]
        await asyncio.sleep(2 * FAST["lease_seconds"])  # the lease ran out in the store
        # B saw the outage too, and the database has just come back.
        outage = b.store.outage = b.store.outage or Outage("SQLite")
        outage.failed(StoreError("not answering"))
        outage.answered()
        assert await b.sessions._take_over_free() == 0  # the owner's turn first
        trouble_over.set()
        await until(lambda: a.leases._holds_lease(table_id))
        await asyncio.sleep(RECLAIM_RENEWALS * b.settings.lease_renew_seconds)
        assert await b.sessions._take_over_free() == 0  # renewed by its owner: not free
        assert driven_by(a, table_id) and not driven_by(b, table_id)
        # An owner that does not come back loses its tables once the grace is over.
        await a.close()
        deadline = time.monotonic() + 30
        while not driven_by(b, table_id) and time.monotonic() < deadline:
            try:
                await b.sessions._take_over_free()
            except StoreError:  # (two hosts on one SQLite file: A's last write may hold
                await asyncio.sleep(0.2)  # the lock past the busy timeout on a loaded box)
        assert driven_by(b, table_id)
    finally:
        await closing(a, b)


async def test_a_restart_reads_its_tables_in_bulk(new_database) -> None:
    """Restoring reads the tables it takes over in a few statements (one ``load_tables``
    for all of them), not three per table, and drives each of them from its log."""
    path = await new_database()
    first = await offline_host(path, **FAST)
    ids = [await open_table(first.store, [ALICE, AI], seed=f"bulk-{i}") for i in range(3)]
    await first.store.close()
    a = await offline_host(path, **FAST)
    reads: list[list[int]] = []
    load_tables = a.store.load_tables

    async def counted(table_ids: Any) -> Any:
        reads.append(sorted(table_ids))
        return await load_tables(table_ids)

    a.store.load_tables = counted  # type: ignore[method-assign]
    one_by_one = []
    for name in ("get_seats", "actions"):
        read = getattr(a.store, name)

        async def counted_one(*args: Any, _read: Any = read, _name: str = name) -> Any:
            one_by_one.append(_name)
            return await _read(*args)

        setattr(a.store, name, counted_one)
    try:
        assert await a.restore() == 3
        assert all(driven_by(a, table_id) for table_id in ids)
        assert reads == [sorted(ids)] and one_by_one == []
    finally:
        await closing(a)


async def test_a_clean_shutdown_hands_the_tables_over_at_once(new_database) -> None:
    path = await new_database()
    a = await offline_host(path, **{**FAST, "lease_seconds": 3600.0})
    b = await offline_host(path, **{**FAST, "lease_seconds": 3600.0})
    try:
        table_id = await open_table(a.store, [ALICE, AI])
        assert await a.restore() == 1
        assert await b.sessions._take_over_free() == 0  # held for an hour
        await a.close()  # lets go of its leases
        assert await b.sessions._take_over_free() == 1  # no waiting for an expiry
        assert driven_by(b, table_id)
    finally:
        await closing(a, b)


async def test_a_click_served_elsewhere_is_shown_by_the_driving_process(new_database) -> None:
    """B does not drive the table and its copy is behind the log (A served moves since B
    loaded it). A click on the controls A sent reaches B: B catches up first (the controls
    are current, not "out of date"), makes the move, and sends no DM — A, which drives the
    table, reads the move from the log and refreshes the DMs: one sender."""
    path = await new_database()
    a = await offline_host(path, record=True, **FAST)
    b = await offline_host(path, record=True, **FAST)
    try:
        table_id = await open_table(a.store, [ALICE, BOB])
        assert await a.restore() == 1
        owned = a.tables[table_id]
        cache = await b.table(table_id)
        assert cache is not None and not cache.driven
        for _ in range(2):  # moves served by A: B's copy falls behind
            async with owned.lock:
                seat = owned.state.to_act[0]
                code = owned.state.legal_actions(seat)[0]
                await a.log.commit(owned, seat, code, "player")
                await a.log.publish(Outcome(owned))
        assert cache.state.version < owned.state.version
        seat = owned.state.to_act[0]
        version = owned.prompts[seat].version  # what A stamped on the seat's DM controls
        code = owned.state.legal_actions(seat)[0]
        a.dms.clear()
        click = Click(user_id=[7, 8][seat])
        await b.on_action(click, table_id, seat, version, code)
        assert click.answers == [] and click.deferred
        assert b.dms == []  # B never sends a DM for a table it does not drive
        stored = await b.store.actions(table_id)
        assert stored[-1] == (seat, code) and cache.state.log == stored
        await until(lambda: owned.state.log == stored)  # A follows the log...
        await until(lambda: a.dms)  # ...and shows the change
        assert {s for _, s in a.dms} <= {0, 1}
    finally:
        await closing(a, b)


def test_lease_settings_from_the_environment() -> None:
    env = {"DISCORD_TOKEN": "t", "TEAHOUSE_LEASE_SECONDS": "9"}
    settings = Settings.from_env(env)
    assert settings.lease_seconds == 9.0
    assert settings.lease_renew_seconds == 3.0 and settings.takeover_scan_seconds == 3.0
    custom = Settings.from_env(
        {**env, "TEAHOUSE_LEASE_RENEW": "1.5", "TEAHOUSE_TAKEOVER_SCAN": "4"}
    )
    assert (custom.lease_renew_seconds, custom.takeover_scan_seconds) == (1.5, 4.0)
    assert Settings(token="t").lease_seconds == 6.0
    for bad in (
        {"TEAHOUSE_LEASE_SECONDS": "0"},
        {"TEAHOUSE_LEASE_RENEW": "9"},  # not shorter than the lease
        {"TEAHOUSE_TAKEOVER_SCAN": "-1"},
    ):
        with pytest.raises(ConfigError):
            Settings.from_env({**env, **bad})


async def test_the_driving_process_reads_the_log_before_refusing_a_click(new_database) -> None:
    """A move served elsewhere that the driving process has not read yet (its next look at
    the log is far off) must not make it refuse the next click as out of turn: a refusal
    is checked against the log first."""
    path = await new_database()
    slow = {**FAST, "log_poll": 3600.0}  # A would not look at the log by itself in time
    a = await offline_host(path, record=True, **slow)
    b = await offline_host(path, record=True, **slow)
    # A hears of no append either (on PostgreSQL a notification would make it read the
    # move at once, racing the check below): only the refusal path may read the log.
    a.leases._heard_append = lambda table_id, idx: None  # type: ignore[method-assign]
    try:
        table_id = await open_table(a.store, [ALICE, BOB])
        assert await a.restore() == 1
        owned = a.tables[table_id]
        cache = await b.table(table_id)
        assert cache is not None
        seat = cache.state.to_act[0]
        first = Click(user_id=[7, 8][seat])
        await b.on_action(
            first, table_id, seat, cache.prompts[seat].version, cache.state.legal_actions(seat)[0]
        )
        assert first.answers == [] and owned.state.version < cache.state.version
        # The next decision, as B's copy sees it (its private hand view would offer it).
        seat = cache.state.to_act[0]
        code = cache.state.legal_actions(seat)[0]
        second = Click(user_id=[7, 8][seat])
        await a.on_action(second, table_id, seat, cache.prompts[seat].version, code)
        assert second.answers == []
        stored = await a.store.actions(table_id)
        assert stored[-1] == (seat, code) and owned.state.log == stored
    finally:
        await closing(a, b)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)  # SQLite: nothing notifies
async def test_on_postgres_the_driver_hears_of_a_move_served_elsewhere(new_database) -> None:
    """With notifications (PostgreSQL), the driving process reads a move another process
    served without looking at the log by itself (its next look is an hour away here)."""
    path = await new_database()
    slow = {**FAST, "log_poll": 3600.0}
    a = await offline_host(path, record=True, **slow)
    b = await offline_host(path, record=True, **slow)
    try:
        table_id = await open_table(a.store, [ALICE, BOB])
        assert await a.restore() == 1
        owned = a.tables[table_id]
        await until(
            lambda: not a.ctx.scheduler.running(("leases", "listen"))  # (listening: it is done)
        )
        cache = await b.table(table_id)
        assert cache is not None
        seat = cache.state.to_act[0]
        click = Click(user_id=[7, 8][seat])
        code = cache.state.legal_actions(seat)[0]
        await b.on_action(click, table_id, seat, cache.prompts[seat].version, code)
        assert click.answers == []
        await until(lambda: owned.state.log == cache.state.log, timeout=20)
    finally:
        await closing(a, b)


async def test_a_restart_takes_over_the_freshest_decisions_first(new_database) -> None:
    """Tables whose pending decision is the newest (most likely an AI about to move, or a
    DM that never went out) are taken over first; a table waiting on a person is loaded by
    that person's click anyway."""
    import asyncio

    path = await new_database()
    host = await offline_host(path, record=True, **FAST)
    try:
        opened = []
        for n in range(3):  # the last one opened holds the freshest decision
            opened.append(await open_table(host.store, [ALICE, AI], seed=f"fresh{n}"))
            await asyncio.sleep(0.05)
        order: list[int] = []
        take_over = host.sessions._take_over

        async def recording(claim, lease_until):
            order.append(claim.table_id)
            return await take_over(claim, lease_until)

        host.sessions._take_over = recording  # type: ignore[method-assign]
        assert await host.restore() == 3
        assert order == opened[::-1]
    finally:
        await closing(host)


async def test_a_click_during_a_restart_takes_its_table_over_at_once(new_database) -> None:
    """A click at a table whose lease the restart has claimed, before the takeover comes
    round to it, takes that table over there and then: the click is served by a driving
    process with no read to catch up with the log (a cached copy's), and the takeover,
    when it comes round, neither reads nor takes the table over again."""
    path = await new_database()
    first = await offline_host(path, **SLOW)
    ids = [await open_table(first.store, [ALICE, BOB], seed=f"click-{i}") for i in range(3)]
    await first.store.close()
    host = await offline_host(path, record=True, **SLOW)
    order: list[int] = []
    hold = asyncio.Event()
    take_over = host.sessions._take_over

    async def held_at_the_first(claim: Any, lease_until: float) -> bool:
        order.append(claim.table_id)
        if len(order) == 1:
            await hold.wait()
        return await take_over(claim, lease_until)

    host.sessions._take_over = held_at_the_first  # type: ignore[method-assign]
    restoring = host.start_restore()
    try:
        await until(lambda: order)  # the takeover is at its first table, and waits there
        target = next(i for i in ids if i not in order)
        state = await stored_state(host.store, target)
        seat = state.to_act[0]
        code = state.legal_actions(seat)[0]
        reads: list[str] = []
        for name in (
            "get_table",
            "get_seats",
            "actions",
            "actions_since",
            "actions_with_clicks_since",
            "load_tables",
        ):
            read = getattr(host.store, name)

            async def counted(*args: Any, _read: Any = read, _name: str = name) -> Any:
                reads.append(_name)
                return await _read(*args)

            setattr(host.store, name, counted)
        click = Click(user_id=[7, 8][seat])
        await host.on_action(click, target, seat, state.version, code)
        # (the restart had read every table at once, before its first takeover)
        assert reads == [] and click.answers == []
        assert driven_by(host, target) and order == [order[0], target]
        assert (await host.store.actions(target))[-1] == (seat, code)
        hold.set()
        assert await restoring == 3
        assert sorted(order) == sorted(ids) and all(driven_by(host, i) for i in ids)
    finally:
        hold.set()
        await closing(host)
