"""A pass held in a claim window reaches the process that drives the table.

A pass given before anyone claimed is held till the window closes (applied at once it
would show who was asked). In a cluster every DM click arrives at shard 0's process; a
pass held only there was unknown to the driver: at the close it logged the player's pass
as a timeout, and a claim that waited only on that seat waited for the whole window.
The serving process now writes the held pass (``Store.hold_pass``, notified on
PostgreSQL) and the driver holds it too.

The driver writes the passes it holds itself too: a process that drives the table after a
restart or a takeover, with the window still open, holds them as well.

On SQLite and on PostgreSQL: two hosts on one database stand for two processes (on SQLite
the driver finds the held pass at its next look at the log)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import bot.games.mahjong as mahjong
from bot.engine import replay_from
from bot.store.rows import SeatRow
from tests.games.mahjong.mahjong_helpers import full_deck
from tests.host.offline import Click, offline_host, until
from tests.host.test_answer_windows import (
    EAST,
    NAMES,
    NORTH_NOTHING,
    NORTH_PUNG,
    SOUTH_NOTHING,
    SOUTH_WINS,
    USERS,
    WEST_PUNG,
    run_out,
    sources,
)
from tests.host.test_shared_forms import closing

CLUSTER: dict[str, Any] = {
    "record": True,
    "ai_delay": 0.0,
    "claim_seconds": 600.0,  # nothing closes by itself: a test runs a window out
    "lease_seconds": 0.6,
    "log_poll": 0.05,
    "edit_interval": 0.0,
    "turn_seconds": 3600.0,
}


async def two_hosts(
    monkeypatch: pytest.MonkeyPatch, path: str, south: str, west: str, north: str
) -> tuple[Any, Any, Any]:
    """Host ``a`` drives a Mah-Jongg table of four people dealt from a stacked deck (seat
    0 is East), at East's first turn; host ``b`` on the same database serves clicks."""
    deck = full_deck(EAST, south, west, north)

    def replay(seed, players, options, log):  # type: ignore[no-untyped-def]
        options = {**options, "random_seats": False}
        return replay_from(mahjong.new_game, seed, players, options, log, deck=deck)

    monkeypatch.setattr(mahjong, "SPEC", dataclasses.replace(mahjong.SPEC, replay=replay))
    a = await offline_host(path, **CLUSTER)
    b = await offline_host(path, **CLUSTER)
    table_id = await a.store.create_table(
        guild_id=1, channel_id=2, game="mahjong", options={}, seed="w", host_id=USERS[0]
    )
    seats = [SeatRow(seat=i, user_id=USERS[i], name=NAMES[i]) for i in range(4)]
    await a.store.set_seats(table_id, seats)
    assert await a.store.transition(table_id, ("lobby",), "active")
    assert await a.restore() == 1
    table = a.tables[table_id]
    await run_out(table)  # (the prelude's question, asking nobody)
    assert table.state.phase == "discard" and table.state.turn == 0
    return a, b, table


async def click_at(host: Any, table: Any, seat: int, code: str) -> Click:
    """A click by the seat's player, served by ``host`` (the prompt version the driver's
    DM carries). The tests check that it was taken by what it changed."""
    c = Click(USERS[seat])
    await host.on_action(c, table.id, seat, table.prompts[seat].version, code)
    return c


async def test_a_pass_held_elsewhere_is_the_players_at_the_close(
    monkeypatch: pytest.MonkeyPatch, new_database
) -> None:
    a, b, table = await two_hosts(
        monkeypatch, await new_database(), SOUTH_NOTHING, WEST_PUNG, NORTH_NOTHING
    )
    try:
        await click_at(a, table, 0, "discard 5d")
        start = table.state.version
        assert [s for s in (1, 2, 3) if table.asked(s)] == [2]
        said = await click_at(b, table, 2, "pass")  # West's pung passed at the other process
        assert said.answers == ["👍 You pass; the window closes for everyone alike."]
        cached = b.tables[table.id]
        assert cached.holds(2) and not cached.driven
        # The driver holds it too — and, like the server that got it, applies nothing yet.
        await until(lambda: table.holds(2))
        assert table.state.version == start and table.waiting_on() == [1, 2, 3]
        await run_out(table)
        assert await sources(a, table, start) == [
            (1, "pass", "auto"),
            (2, "pass", "player"),  # (it was "timeout": the driver never heard of it)
            (3, "pass", "auto"),
        ]
    finally:
        await closing(a, b)


async def test_a_claim_waiting_only_on_a_pass_held_elsewhere_resolves_at_once(
    monkeypatch: pytest.MonkeyPatch, new_database
) -> None:
    a, b, table = await two_hosts(
        monkeypatch, await new_database(), SOUTH_WINS, NORTH_NOTHING, NORTH_PUNG
    )
    try:
        await click_at(a, table, 0, "discard 5d")
        start = table.state.version
        # South, who may go Mah-Jongg on the 5 of Dots, passes; then North pungs — both
        # at the other process. The pung waits for nobody now: the window's close is still
        # 600 s away, yet North is to discard at once.
        await click_at(b, table, 1, "pass")
        await until(lambda: table.holds(1))
        await click_at(b, table, 3, "pung")
        await until(lambda: table.state.phase == "discard" and table.state.turn == 3)
        assert sorted(await sources(a, table, start)) == [
            (1, "pass", "player"),
            (2, "pass", "auto"),
            (3, "pung", "player"),
        ]
    finally:
        await closing(a, b)


async def test_a_pass_held_by_the_driver_is_the_players_after_a_restart(
    monkeypatch: pytest.MonkeyPatch, new_database
) -> None:
    """The driver itself served the pass; it stops with the window open (its memory is
    gone), and the process that drives the table next still holds the pass: at the close it
    is the player's, not a timeout."""
    path = await new_database()
    a, b, table = await two_hosts(monkeypatch, path, SOUTH_NOTHING, WEST_PUNG, NORTH_NOTHING)
    try:
        await click_at(a, table, 0, "discard 5d")
        start = table.state.version
        await click_at(a, table, 2, "pass")
        assert table.holds(2) and table.driven
    finally:
        await closing(a, b)
    c = await offline_host(path, **CLUSTER)
    try:
        assert await c.restore() == 1
        again = c.tables[table.id]
        await until(lambda: again.holds(2))
        assert again.state.version == start and again.waiting_on() == [1, 2, 3]
        await run_out(again)
        assert await sources(c, again, start) == [
            (1, "pass", "auto"),
            (2, "pass", "player"),  # (it was "timeout": the pass was in a's memory only)
            (3, "pass", "auto"),
        ]
    finally:
        await closing(c)
