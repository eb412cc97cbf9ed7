"""The store closes the races an abort and a quota can lose (both backends): a result on an
aborted table is refused, an action appended after an abort is refused, an abort and a
result written at the same moment leave one of them, and new tables opened at the same
moment by several processes stay within the quotas."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Quota, QuotaExceeded, ResultInput, SeatRow, Store, TableClosed

GUILD = 1
HOST = 7
ROWS = [
    ResultInput(seat=0, user_id=7, name="Alice", score=10, place=1, team=0),
    ResultInput(seat=1, user_id=8, name="Bob", score=0, place=2, team=1),
]


async def active_table(store: Store) -> int:
    table_id = await store.create_table(
        guild_id=GUILD, channel_id=2, game="koikoi", options={}, seed="s", host_id=HOST
    )
    await store.set_seats(
        table_id,
        [SeatRow(seat=0, user_id=7, name="Alice"), SeatRow(seat=1, user_id=8, name="Bob")],
    )
    assert await store.transition(table_id, ("lobby",), "active")
    return table_id


async def counted(store: Store, sql: str, *params: object) -> int:
    return int((await store.query(sql, params))[0][0])


async def test_a_result_on_an_aborted_table_is_refused(store: Store) -> None:
    table_id = await active_table(store)
    assert await store.transition(table_id, ("lobby", "active"), "aborted")
    assert await store.record_result(table_id, guild_id=GUILD, game="koikoi", rows=ROWS) is False
    assert (await store.get_table(table_id)).status == "aborted"
    assert await counted(store, "SELECT COUNT(*) FROM results WHERE table_id = ?", table_id) == 0
    assert await counted(store, "SELECT COUNT(*) FROM ratings") == 0


async def test_an_action_appended_after_an_abort_is_refused(store: Store) -> None:
    table_id = await active_table(store)
    await store.append_action(table_id, 0, 0, "play 1b", "player")
    assert await store.transition(table_id, ("active",), "aborted")
    with pytest.raises(TableClosed):
        await store.append_action(table_id, 1, 1, "play 2a", "player")
    assert await store.actions(table_id) == [(0, "play 1b")]


async def test_an_abort_and_a_result_at_the_same_moment_leave_one_of_them(
    backend: str, new_database
) -> None:
    """Two processes (two stores): one aborts while the other records the end. Either the
    abort stands (no results, no ratings) or the end does (the abort found it finished)."""
    path = await new_database()
    first, second = await Store.open(path), await Store.open(path)
    try:
        for _ in range(5):
            table_id = await active_table(first)
            aborted, recorded = await asyncio.gather(
                first.transition(table_id, ("lobby", "active"), "aborted"),
                second.record_result(table_id, guild_id=GUILD, game="koikoi", rows=ROWS),
            )
            assert aborted != recorded
            status = (await first.get_table(table_id)).status
            results = await counted(
                first, "SELECT COUNT(*) FROM results WHERE table_id = ?", table_id
            )
            assert (status, results) == (("aborted", 0) if aborted else ("finished", 2))
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(("cooldown", "opened"), [(0.0, 2), (10.0, 1)])
async def test_new_tables_opened_at_once_by_several_processes_stay_within_the_quota(
    backend: str, new_database, cooldown: float, opened: int
) -> None:
    """Six new tables asked for at the same moment by one host, through three stores (as
    three processes): at most two open lobbies per host — and one, with a cooldown."""
    path = await new_database()
    stores = [await Store.open(path) for _ in range(3)]
    quota = Quota(
        lobbies_per_user=2,
        tables_per_user=3,
        lobbies_per_guild=10,
        tables_per_guild=25,
        cooldown=cooldown,
    )

    async def new(store: Store) -> str:
        try:
            await store.create_table(
                guild_id=GUILD,
                channel_id=2,
                game="koikoi",
                options={},
                seed="s",
                host_id=HOST,
                quota=quota,
            )
        except QuotaExceeded as refused:
            return refused.limit
        return "opened"

    try:
        answers = await asyncio.gather(*(new(stores[i % 3]) for i in range(6)))
        assert answers.count("opened") == opened
        refusal = "cooldown" if cooldown else "lobbies_per_user"
        assert set(answers) == {"opened", refusal}
        assert await stores[0].count_tables("lobby", host_id=HOST) == opened
    finally:
        for store in stores:
            await store.close()


async def test_the_quota_counts_the_guild_and_running_tables(store: Store) -> None:
    quota = Quota(lobbies_per_user=5, tables_per_user=1, lobbies_per_guild=2, tables_per_guild=5)

    async def new(host: int) -> int:
        return await store.create_table(
            guild_id=GUILD,
            channel_id=2,
            game="koikoi",
            options={},
            seed="s",
            host_id=host,
            quota=quota,
        )

    running = await new(HOST)
    assert await store.transition(running, ("lobby",), "active")
    with pytest.raises(QuotaExceeded) as refused:
        await new(HOST)
    assert refused.value.limit == "tables_per_user"
    await new(8)
    await new(9)
    with pytest.raises(QuotaExceeded) as refused:
        await new(10)
    assert refused.value.limit == "lobbies_per_guild"
