"""bot.host.clicks: what a seat keeps of its players' clicks; clicks on tables not loaded."""

from __future__ import annotations

import asyncio
import gc
import weakref
from types import SimpleNamespace
from typing import Any

import discord

from bot.host.clicks import let_go_of_payloads
from bot.host.table import Seat
from bot.host.tokens import ClickToken
from tests.host.offline import Click, offline_host
from tests.host.test_leases import ALICE, BOB, closing, open_table, stored_state


class _Click:
    """A DM click as the host sees it: its token, the message it was on, what discord.py
    caches on it."""

    def __init__(self, message_id: int) -> None:
        self.client = SimpleNamespace(name="the bot")
        self.application_id = 7
        self.token = f"t{message_id}"
        self.message = SimpleNamespace(id=message_id)
        self._original_response = object()
        self._cs_response = object()  # discord.py's cached InteractionResponse (refers back)


def test_a_seat_keeps_its_last_clicks_token_and_message_id_not_the_click() -> None:
    seat = Seat(seat=0, name="Alice", user_id=1)
    first, second = _Click(10), _Click(11)
    seat.token = ClickToken.of(first)  # type: ignore[arg-type]  (what a session keeps)
    kept = seat.token
    assert (kept.application_id, kept.token, kept.message_id) == (7, "t10", 10)
    assert kept.client is first.client and kept.usable
    gone = weakref.ref(first)
    seat.dm_token = kept  # the DM being shown was sent through the first click
    del first
    assert gone() is None  # nothing kept the interaction itself
    seat.token = ClickToken.of(second)  # type: ignore[arg-type]
    assert (seat.token.token, seat.token.message_id) == ("t11", 11)
    assert seat.dm_token is kept  # (still usable for its token)


def test_a_handled_click_lets_go_of_its_payloads() -> None:
    click = _Click(10)
    let_go_of_payloads(click)  # type: ignore[arg-type]  (the click has been answered)
    assert click.token == "t10"
    assert click.message is None and click._original_response is None
    assert not hasattr(click, "_cs_response")  # no reference cycle left
    let_go_of_payloads(click)  # type: ignore[arg-type]  (twice is harmless)


def test_a_real_click_is_freed_without_the_collector_once_let_go() -> None:
    """discord.py's interaction and its response refer to each other; let go of, the
    interaction is freed by reference counting alone."""

    class _Probe:
        pass

    class _State:  # what discord.Interaction asks its connection state: nothing much
        http = SimpleNamespace(_HTTPClient__session=None)

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    data = {
        "id": "1",
        "type": 3,
        "token": "t",
        "version": 1,
        "application_id": "2",
        "attachment_size_limit": 8388608,
        "entitlements": [],
        "authorizing_integration_owners": {},
        "data": {"custom_id": "x", "component_type": 2},
        "user": {"id": "3", "username": "a", "discriminator": "0", "avatar": None},
    }
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        click = discord.Interaction(data=data, state=_State())  # type: ignore[arg-type]
        assert not click.response.is_done()  # (discord.py's response object, cached)
        probe = click.extras["probe"] = _Probe()  # (an interaction takes no weak reference)
        ref = weakref.ref(probe)
        del probe
        let_go_of_payloads(click)
        del click
        assert ref() is None
    finally:
        if was_enabled:
            gc.enable()


async def test_a_click_on_a_table_not_loaded_yet_is_acknowledged_before_the_load(
    new_database,
) -> None:
    """While a restart loads every table, loading one may take seconds: a click on a table
    not in memory is acknowledged first (Discord gives 3 s), then played once it is loaded;
    a stale click there is refused by a follow-up."""
    path = await new_database()
    host = await offline_host(path, record=True)
    try:
        table_id = await open_table(host.store, [ALICE, BOB], seed="early")
        state = await stored_state(host.store, table_id)
        seat = state.to_act[0]
        user = (ALICE, BOB)[seat].user_id
        assert table_id not in host.tables
        load_started = asyncio.Event()
        go_on = asyncio.Event()
        load_tables = host.store.load_tables

        async def slow_load(ids: Any) -> Any:
            load_started.set()
            await go_on.wait()
            return await load_tables(ids)

        host.store.load_tables = slow_load  # type: ignore[method-assign]
        click = Click(user)
        code = state.legal_actions(seat)[0]
        playing = asyncio.create_task(host.on_action(click, table_id, seat, 0, code))
        await load_started.wait()
        assert click.deferred  # acknowledged while the table is still loading
        go_on.set()
        await playing
        host.store.load_tables = load_tables  # type: ignore[method-assign]
        assert click.answers == []
        assert await host.store.actions(table_id) == [(seat, code)]

        host.tables.clear()  # forgotten again: a click on controls from before that move
        stale = Click(user)
        await host.on_action(stale, table_id, seat, 0, code)
        assert stale.deferred and len(stale.answers) == 1  # refused, by a follow-up
        assert await host.store.actions(table_id) == [(seat, code)]
    finally:
        await closing(host)
