"""bot.host.presenter: what players are shown after a change, in which order."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.host.budget import Priority
from bot.host.deliveries import DmUpdate, TableEdit, ThreadPost
from bot.host.intents import Outcome
from bot.host.manager import TableHost
from bot.host.table import Table
from bot.store import SeatRow
from tests.host.offline import offline_host
from tests.host.test_leases import ALICE, FAST, closing, open_table

BOB = SeatRow(seat=1, user_id=8, name="Bob")


@contextlib.asynccontextmanager
async def alice_and_bob(tmp_path, **kwargs: Any) -> AsyncIterator[tuple[Any, Any]]:  # type: ignore[no-untyped-def]
    """An offline host (``kwargs``: see ``offline_host``) running a table of two people."""
    host = await offline_host(str(tmp_path / "p.db"), **FAST, **kwargs)
    try:
        table_id = await open_table(host.store, [ALICE, BOB])
        assert await host.restore() == 1
        yield host, host.tables[table_id]
    finally:
        await closing(host)


async def test_the_player_who_must_act_next_gets_their_dm_first(tmp_path) -> None:
    """A move that changes the mover's DM (their hand, their controls gone) and hands the
    decision to the other player refreshes the other player's DM first: the mover's own
    DM may wait for the render pool at a lower priority, the next decision must not."""
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        handovers = 0
        while handovers < 3 and not table.state.is_over:
            (mover,) = table.state.to_act
            async with table.lock:
                host.dms.clear()  # type: ignore[attr-defined]
                code = table.state.legal_actions(mover)[0]
                await host.log.commit(table, mover, code, "player")
                await host.log.publish(Outcome(table))
            if table.state.to_act == [1 - mover]:
                refreshed = [seat for _, seat in host.dms]  # type: ignore[attr-defined]
                assert set(refreshed) == {0, 1}
                assert refreshed == [1 - mover, mover]  # the new decision first
                handovers += 1
        assert handovers == 3


async def test_the_movers_dm_is_drawn_and_sent_after_the_table_is_let_go(tmp_path) -> None:
    """The mover's own DM (no decision in it) does not hold the table: publishing the
    outcome returns while its picture is still waiting for the render pool, the picture shows the
    state as it was when it was planned, and a later refresh of the same DM overtakes it
    (only the newest is sent)."""
    async with alice_and_bob(tmp_path) as (host, table):
        gate = asyncio.Event()
        sent: list[tuple[int, int]] = []
        shown: dict[int, dict] = {}

        async def render_view(table, what, view, priority, *args, **kwargs):  # type: ignore[no-untyped-def]
            if priority != Priority.DECISION:
                await gate.wait()  # the pool is busy with others' pictures

        async def deliver(table, seat, plan, file):  # type: ignore[no-untyped-def]
            sent.append((seat.seat, plan.number))
            shown[seat.seat] = plan.hand_view
            return True  # delivered

        host.outbox.render_view = render_view  # type: ignore[method-assign]
        host.outbox._deliver_dm = deliver  # type: ignore[method-assign]
        for seat in table.seats:
            seat.dm_message_id, seat.dm_hand_key = 1000 + seat.seat, "drawn before"
        (mover,) = table.state.to_act
        other = table.seats[1 - mover]
        async with table.lock:
            code = table.state.legal_actions(mover)[0]
            await host.log.commit(table, mover, code, "player")
            await asyncio.wait_for(host.log.publish(Outcome(table)), 5)
        assert table.state.to_act == [1 - mover]
        # The next decision is out; the mover's DM is still waiting for its picture.
        assert [s for s, _ in sent] == [other.seat]
        assert not table.lock.locked()
        version = table.state.version
        first = table.seats[mover].dm_plans
        host.presenter._refresh_dm_soon(table, table.seats[mover])  # a later refresh of the same DM
        gate.set()
        await asyncio.wait_for(asyncio.gather(*_dm_tasks(host, table)), 5)
        assert sent == [(other.seat, other.dm_plans), (mover, first + 1)]
        assert table.state.version == version
        assert shown[mover] == table.state.view(mover)


async def test_an_overtaken_new_message_is_sent_by_the_plan_that_overtook_it(tmp_path) -> None:
    """A seat's first DM (a new message) still drawing when a later refresh of the seat is
    planned: the later one goes out first, as the new message (with what it shows), and the
    earlier one is dropped — one message, never an older one after a newer."""
    async with alice_and_bob(tmp_path) as (host, table):
        gate = asyncio.Event()
        renders = 0
        out: list[tuple[str, str]] = []

        async def render_view(*args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal renders
            renders += 1
            if renders == 1:
                await gate.wait()  # the first picture is slow

        async def send_dm(seat, content, file, view, acting):  # type: ignore[no-untyped-def]
            out.append(("send", content))
            seat.dm_message_id = 900 + len(out)

        async def edit_dm(seat, clicked, edit):  # type: ignore[no-untyped-def]
            out.append(("edit", edit["content"]))

        host.outbox.render_view = render_view  # type: ignore[method-assign]
        host.outbox.send_dm = send_dm  # type: ignore[method-assign]
        host.outbox.edit_dm = edit_dm  # type: ignore[method-assign]
        (mover,) = table.state.to_act
        seat = table.seats[1 - mover]  # not to act: its DMs are edits once it has one
        seat.dm_message_id = None
        host.presenter._refresh_dm_soon(table, seat)  # its first DM: a new message, drawing slowly
        await asyncio.sleep(0)
        async with table.lock:  # a move, and the seat's DM is planned again
            code = table.state.legal_actions(mover)[0]
            await host.log.commit(table, mover, code, "player")
        later = host.presenter.hand_content(table, seat, host.seat_locale(seat))
        host.presenter._refresh_dm_soon(table, seat)
        first, second = _dm_tasks(host, table)
        await asyncio.wait_for(second, 5)  # (the first still drawing)
        assert out == [("send", later)]
        gate.set()
        await asyncio.wait_for(first, 5)
        assert out == [("send", later)]  # the overtaken first plan was dropped
        assert not seat.dm_new_owed, seat
        assert seat.dm_pending_acting is None, seat


def _dm_tasks(host: TableHost, table: Table) -> list[asyncio.Task[Any]]:
    """The table's background DM refreshes, oldest first."""
    return [t for t in host.ctx.scheduler.table_tasks(table) if "-dm-" in t.get_name()]


async def test_a_change_is_planned_as_deliveries_the_outbox_carries_out(tmp_path) -> None:
    """The presenter turns an outcome into deliveries without awaiting anything (no Discord
    call): the DM of the seat that must act now, urgent and first; the mover's own DM, not
    urgent; the table message marked. The outbox is handed exactly those."""
    async with alice_and_bob(tmp_path) as (host, table):
        handed: list[tuple[Any, ...]] = []

        async def deliver(table: Table, deliveries: Any) -> None:
            handed.append(tuple(deliveries))

        host.outbox.deliver = deliver  # type: ignore[method-assign]
        heard: list[Outcome] = []

        async def listen(outcome: Outcome) -> None:
            heard.append(outcome)

        host.log.subscribe(listen)
        while True:
            (mover,) = table.state.to_act
            async with table.lock:
                await host.log.commit(table, mover, table.state.legal_actions(mover)[0], "player")
                await host.log.publish(Outcome(table))
            if table.state.to_act == [1 - mover]:
                break
            handed.clear()
        (outcome,) = heard[-1:]
        (deliveries,) = handed
        other, moved = table.seats[1 - mover], table.seats[mover]
        assert [type(d) for d in deliveries] == [DmUpdate, DmUpdate, TableEdit]
        first, second, edit = deliveries
        assert (first.table_id, first.seat, first.urgent) == (table.id, other.seat, True)
        assert first.plan.acting and first.plan.number == other.dm_plans
        assert (second.table_id, second.seat, second.urgent) == (table.id, moved.seat, False)
        assert not second.plan.acting
        assert edit == TableEdit(table.id)
        # Planning again (nothing changed since): plain data, the same seats, nothing awaited.
        planned = host.presenter.plan(outcome)
        assert not inspect.isawaitable(planned)
        assert [(type(d), getattr(d, "seat", None)) for d in planned] == [
            (DmUpdate, other.seat),
            (DmUpdate, moved.seat),
            (TableEdit, None),
        ]
        with pytest.raises(dataclasses.FrozenInstanceError):
            first.urgent = False  # type: ignore[misc]


async def test_a_thread_post_is_carried_out_as_a_post(tmp_path) -> None:
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        await host.outbox.deliver(table, [ThreadPost(table.id, "⏰ Alice ran out of time.")])
        assert host.posts[-1] == (table.id, "⏰ Alice ran out of time.")  # type: ignore[attr-defined]
