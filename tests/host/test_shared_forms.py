"""A form button (Panda's pass-cards form) clicked at a process that does not hold the
table is answered with its modal at once, from the form the driving process shared
(``dm_forms``, ``bot.host.forms``) — without loading or replaying the table, which took
longer than Discord's 3 s for a modal at the opening burst of 300 tables on two
processes. Stale controls are still refused as before, and the form's submission is an
ordinary click served by the cache.

On SQLite and on PostgreSQL (two hosts on one database stand for two processes)."""

from __future__ import annotations

from typing import Any

import discord

from bot.host.manager import TableHost
from bot.store import SeatRow, Store
from tests.host.offline import Click, offline_host, until

FAST: dict[str, Any] = {
    "lease_seconds": 0.6,
    "log_poll": 0.05,
    "ai_delay": 0.0,
    "edit_interval": 0.0,
    "ai_only_grace": 3600.0,
    "turn_seconds": 3600.0,
}
ALICE, BOB = 7, 8
SEATS = [
    SeatRow(seat=0, user_id=ALICE, name="Alice"),
    SeatRow(seat=1, user_id=BOB, name="Bob"),
    SeatRow(seat=2, user_id=None, name="AI 2", is_ai=True),
    SeatRow(seat=3, user_id=None, name="AI 3", is_ai=True),
]


async def open_panda(store: Store) -> int:
    table_id = await store.create_table(
        guild_id=1, channel_id=2, game="panda", options={}, seed="forms", host_id=ALICE
    )
    await store.set_seats(table_id, SEATS)
    assert await store.transition(table_id, ("lobby",), "active")
    return table_id


async def closing(*hosts: TableHost) -> None:
    for host in hosts:
        if not host.ctx.closing:
            await host.close()
        await host.store.close()


def selects(modal: discord.ui.Modal) -> dict[str, list[str]]:
    """The modal's questions: {key: the values offered}."""
    out = {}
    for label in modal.children:
        select = label.component  # type: ignore[attr-defined]
        out[select.custom_id] = [o.value for o in select.options]
    return out


async def test_a_form_button_is_answered_elsewhere_without_loading_the_table(
    new_database,
) -> None:
    path = await new_database()
    a = await offline_host(path, **FAST)  # drives the table
    b = await offline_host(path, **FAST)  # gets the DM clicks (shard 0), holds nothing
    try:
        table_id = await open_panda(a.store)
        assert await a.restore() == 1
        owned = a.tables[table_id]
        # The pass: Alice's DM offers the form; its driver shared it as it sent the DM.
        await until(lambda: owned.seats[0].forms_shared is not None)
        # (the AIs pass first: no move of theirs races Alice's below)
        await until(lambda: not {2, 3} & set(owned.state.to_act) and not owned.lock.locked())
        version = owned.prompts[0].version
        assert table_id not in b.tables

        click = Click(ALICE)
        await b.on_form(click, table_id, 0, version, "give")
        assert click.answers == [] and click.modal is not None
        assert click.modal.custom_id == f"th:m:{table_id}:0:{version}:give"
        # Her cards, one question for each other player, as her controls offer them.
        asked = selects(click.modal)
        form = next(r for r in owned.controls_for(0).rows if getattr(r, "verb", "") == "give")
        assert asked == {f.key: [o.value for o in f.options] for f in form.fields}
        assert table_id not in b.tables  # neither loaded nor replayed

        # Someone else's button, or a version the log has not reached: judged by the table,
        # and refused as before.
        bob = Click(BOB)
        await b.on_form(bob, table_id, 0, version, "give")
        assert bob.modal is None and bob.answers == ["Those controls belong to another player."]
        ahead = Click(ALICE)
        await b.on_form(ahead, table_id, 0, owned.state.version + 5, "give")
        assert ahead.modal is None and "out of date" in ahead.answers[0]

        # Sent: an ordinary click at the cache, applied and logged; the driver follows.
        sent = Click(ALICE)
        picks: dict[str, str] = {}
        for key, values in asked.items():  # three different cards
            picks[key] = next(v for v in values if v not in picks.values())
        sent.data = {
            "components": [
                {"type": 18, "component": {"custom_id": k, "values": [v]}} for k, v in picks.items()
            ]
        }
        await b.on_form_submit(sent, table_id, 0, version, "give")
        assert not [t for t in sent.answers if t], sent.answers
        logged = await a.store.actions(table_id)
        assert logged[-1][0] == 0 and logged[-1][1].startswith("give ")
        await until(lambda: owned.state.log == logged)

        # The same button again: the seat has passed, the form is no longer current.
        again = Click(ALICE)
        await b.on_form(again, table_id, 0, version, "give")
        assert again.modal is None and again.answers
    finally:
        await closing(a, b)


async def test_without_a_shared_form_the_table_is_loaded_as_before(new_database) -> None:
    """A form nobody shared (a DM sent before this version, a write that failed): the
    button is judged by the table, loaded from the log, and answered with the modal."""
    path = await new_database()
    a = await offline_host(path, **FAST)
    b = await offline_host(path, **FAST)
    try:
        table_id = await open_panda(a.store)
        assert await a.restore() == 1
        owned = a.tables[table_id]
        await until(lambda: owned.seats[0].forms_shared is not None)
        await a.store.unshare_forms(table_id, 0)
        version = owned.prompts[0].version
        click = Click(ALICE)
        await b.on_form(click, table_id, 0, version, "give")
        assert click.modal is not None and table_id in b.tables
    finally:
        await closing(a, b)


async def test_a_process_alone_shares_no_forms(new_database) -> None:
    """One process serves every click itself: it writes no ``dm_forms`` row (a write per
    form decision, awaited before the DM goes out, that nobody would read)."""
    path = await new_database()
    alone = {**FAST, "log_poll": 0.0}
    a = await offline_host(path, **alone)
    try:
        table_id = await open_panda(a.store)
        assert await a.restore() == 1
        owned = a.tables[table_id]
        alice = owned.seats[0]
        # (its DM was planned and carried out: the point where a cluster shares the forms)
        await until(lambda: 0 in owned.prompts and alice.dm_plans > 0)
        await until(lambda: not {2, 3} & set(owned.state.to_act) and not owned.lock.locked())
        await until(lambda: not alice.dm_lock.locked())
        assert alice.forms_shared is None
        assert await a.store.dm_forms(table_id, 0) is None
    finally:
        await closing(a)
