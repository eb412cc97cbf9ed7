"""Two hosts on one database (as two processes would be): the log decides. A host whose
in-memory state is behind catches up and refuses the action decided on the older state;
two hosts applying a move for the same decision at once make exactly one action."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.engine import IllegalAction
from bot.host.intents import Outcome
from bot.host.manager import Conflict, TableHost
from bot.store import SeatRow
from tests.host.offline import offline_host


@pytest.fixture
async def two_hosts(tmp_path):
    path = str(tmp_path / "shared.db")
    a, b = await offline_host(path), await offline_host(path)
    table_id = await a.store.create_table(
        guild_id=1, channel_id=2, game="koikoi", options={}, seed="shared", host_id=7
    )
    await a.store.set_seats(
        table_id,
        [
            SeatRow(seat=0, user_id=7, name="Alice", dms_closed=True),
            SeatRow(seat=1, user_id=8, name="Bob", dms_closed=True),
        ],
    )
    assert await a.store.transition(table_id, ("lobby",), "active")
    tables = []
    for host in (a, b):
        row = await host.store.get_table(table_id)
        table = host.sessions._build_table(row, await host.store.get_seats(table_id), [])
        host.tables[table.id] = table
        tables.append(table)
    yield a, b, tables[0], tables[1]
    for host in (a, b):
        await host.close()
        await host.store.close()


async def test_a_host_behind_the_log_catches_up_and_refuses(two_hosts) -> None:
    a, b, ta, tb = two_hosts
    seat = ta.state.to_act[0]
    code = ta.state.legal_actions(seat)[0]
    async with ta.lock:
        await a.log.commit(ta, seat, code, "player")
    assert ta.state.version == 1 and tb.state.version == 0
    stale = tb.state.legal_actions(seat)[-1]
    async with tb.lock:
        with pytest.raises(Conflict, match="just before yours"):
            await b.log.commit(tb, seat, stale, "player")
    # B caught up with A's move and made none of its own.
    assert tb.state.log == ta.state.log == await a.store.actions(ta.id)


async def test_two_hosts_applying_at_once_make_one_action(two_hosts) -> None:
    a, b, ta, tb = two_hosts
    seat = ta.state.to_act[0]
    legal = ta.state.legal_actions(seat)

    async def move(host: TableHost, table: Any, code: str) -> str:
        async with table.lock:
            try:
                await host.log.commit(table, seat, code, "player")
                return "made"
            except Conflict:
                return "refused"

    results = await asyncio.gather(move(a, ta, legal[0]), move(b, tb, legal[-1]))
    assert sorted(results) == ["made", "refused"]
    log = await a.store.actions(ta.id)
    assert len(log) == 1
    assert ta.state.log == tb.state.log == log


async def test_an_illegal_move_where_the_table_is_driven_elsewhere_is_refused_unlogged(
    two_hosts,
) -> None:
    """B serves a click for a table A drives: an illegal move is refused at once with the
    game's reason, and nothing reaches the log or either state."""
    a, b, ta, tb = two_hosts
    ta.driven, tb.driven = True, False
    seat = tb.state.to_act[0]
    async with tb.lock:
        await b.log.catch_up(tb)
        with pytest.raises(IllegalAction) as refused:
            await b.log.commit(tb, seat, "play no-such-card", "player")
    assert not isinstance(refused.value, Conflict) and str(refused.value.reason)
    assert await a.store.actions(ta.id) == []
    assert tb.state.version == 0
    async with ta.lock:
        assert not await a.log.sync_with_log(ta)  # nothing for the driver to pick up
    assert ta.state.version == 0


async def test_a_move_served_elsewhere_is_applied_once_by_the_driver(two_hosts) -> None:
    """A move B served is applied by A, which drives the table, once: the read that picks
    it up brings it, a second read finds nothing; the outcome A publishes says its prompts
    were stamped action by action (its presenter does not compare them again)."""
    a, b, ta, tb = two_hosts
    ta.driven, tb.driven = True, False
    outcomes: list[Outcome] = []

    async def record(outcome: Outcome) -> None:
        outcomes.append(outcome)

    a.log.subscribe(record)
    seat = tb.state.to_act[0]
    async with tb.lock:
        await b.log.commit(tb, seat, tb.state.legal_actions(seat)[0], "player")
    async with ta.lock:
        assert await a.log.sync_with_log(ta)
        assert not await a.log.sync_with_log(ta)
    assert ta.state.log == tb.state.log == await a.store.actions(ta.id)
    assert len(ta.state.log) == 1
    assert [o.stamped for o in outcomes] == [True]


async def test_a_cache_stamps_its_prompts_as_the_driver_does_without_the_hands(
    two_hosts, monkeypatch
) -> None:
    """B keeps a cache of a table A drives: after every move its prompts carry the
    versions A's do (they judge the clicks' controls), computed without a view of any hand
    (the fingerprints only the driver's DMs need)."""
    a, b, ta, tb = two_hosts
    ta.driven, tb.driven = True, False
    ta.changed_prompts()

    def no_hands(seat: int) -> str:
        raise AssertionError("a cache looked at a hand")

    monkeypatch.setattr(tb, "hand_key", no_hands)
    async with tb.lock:
        await b.log.catch_up(tb)
    for _ in range(12):
        if ta.state.is_over:
            break
        seat = ta.state.to_act[0]
        async with ta.lock:
            await a.log.commit(ta, seat, ta.state.legal_actions(seat)[-1], "player")
            ta.changed_prompts()
        async with tb.lock:
            await b.log.catch_up(tb)
        assert tb.state.version == ta.state.version
        assert {s: p.version for s, p in tb.prompts.items()} == {
            s: p.version for s, p in ta.prompts.items()
        }
