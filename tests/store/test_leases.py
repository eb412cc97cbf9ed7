"""Table leases on both backends: which process drives a table. Claims of free leases, one
winner among concurrent claimers, renewal in one statement, release, the database's clock.

Expiry is never waited for: a lease of ``ttl=0`` is expired the moment it is written, one of
an hour is held for the whole test."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store, StoreError
from tests.store.test_store import new_table

HOUR = 3600.0


async def active_table(store: Store) -> int:
    table_id = await new_table(store)
    assert await store.transition(table_id, ("lobby",), "active")
    return table_id


async def test_a_free_lease_is_claimed_and_a_held_one_is_not(store: Store) -> None:
    table_id = await active_table(store)
    claim = await store.claim_lease(table_id, "a", HOUR)
    assert claim is not None and claim.table_id == table_id
    assert claim.unowned_for is None  # its first lease
    assert await store.lease_holder(table_id) == "a"
    assert await store.claim_lease(table_id, "b", HOUR) is None
    assert await store.claim_free_leases("b", HOUR) == []
    assert await store.lease_holder(table_id) == "a"


async def test_an_expired_lease_goes_to_the_next_claimer(store: Store) -> None:
    table_id = await active_table(store)
    assert await store.claim_lease(table_id, "a", 0.0)  # expired as soon as written
    (claim,) = await store.claim_free_leases("b", HOUR)
    assert claim.table_id == table_id and claim.unowned_for is not None
    assert claim.unowned_for >= 0.0
    assert await store.lease_holder(table_id) == "b"
    # The old owner's renewal no longer finds it.
    assert await store.renew_leases("a", HOUR) == set()
    assert await store.renew_leases("b", HOUR) == {table_id}


async def test_a_restarted_process_takes_back_its_earlier_runs_leases_at_once(
    store: Store,
) -> None:
    mine, theirs = await active_table(store), await active_table(store)
    assert await store.claim_lease(mine, "host/shards 0#111:aa", HOUR)  # run 1, then killed
    assert await store.claim_lease(theirs, "host/shards 1#222:bb", HOUR)
    # Without succession a held lease stays held; the next run of the same process takes
    # back its own (unexpired) leases, and nobody else's.
    assert await store.claim_free_leases("host/shards 0#333:cc", HOUR) == []
    claims = await store.claim_free_leases(
        "host/shards 0#333:cc", HOUR, succeeding="host/shards 0#"
    )
    assert [c.table_id for c in claims] == [mine]
    assert await store.lease_holder(mine) == "host/shards 0#333:cc"
    assert await store.lease_holder(theirs) == "host/shards 1#222:bb"
    # Its own current leases are not claimed again, and run 1 can no longer renew.
    assert (
        await store.claim_free_leases("host/shards 0#333:cc", HOUR, succeeding="host/shards 0#")
        == []
    )
    assert await store.renew_leases("host/shards 0#111:aa", HOUR) == set()


async def test_free_leases_are_those_of_active_tables_only(store: Store) -> None:
    lobby = await new_table(store)
    active = await active_table(store)
    finished = await active_table(store)
    assert await store.transition(finished, ("active",), "finished")
    claims = await store.claim_free_leases("a", HOUR)
    assert [c.table_id for c in claims] == [active]
    assert await store.lease_holder(lobby) is None and await store.lease_holder(finished) is None
    # A table starting now is leased by the process starting it, before it is active.
    assert await store.claim_lease(lobby, "a", HOUR)
    assert await store.transition(lobby, ("lobby",), "active")
    assert await store.claim_free_leases("b", HOUR) == []


async def test_renewal_keeps_the_own_leases_of_tables_in_play(store: Store) -> None:
    first, second, third = [await active_table(store) for _ in range(3)]
    assert {c.table_id for c in await store.claim_free_leases("a", HOUR)} == {
        first,
        second,
        third,
    }
    assert await store.renew_leases("a", HOUR) == {first, second, third}
    assert await store.transition(second, ("active",), "aborted")  # aborted elsewhere
    assert await store.renew_leases("a", HOUR) == {first, third}
    assert await store.renew_leases("nobody", HOUR) == set()


async def test_a_released_lease_is_free_at_once(store: Store) -> None:
    first, second = await active_table(store), await active_table(store)
    await store.claim_free_leases("a", HOUR)
    assert await store.release_leases("a", [first]) == 1
    assert await store.release_leases("b") == 0  # not b's to release
    (claim,) = await store.claim_free_leases("b", HOUR)
    assert claim.table_id == first and claim.unowned_for is not None
    assert await store.release_leases("a") == 1  # the rest: second
    assert [c.table_id for c in await store.claim_free_leases("b", HOUR)] == [second]
    assert await store.renew_leases("a", HOUR) == set()


async def test_a_claim_says_how_long_ago_the_pending_decision_appeared(store: Store) -> None:
    table_id = await active_table(store)
    await store.append_action(table_id, 0, 0, "play 1b", "player")
    (claim,) = await store.claim_free_leases("a", HOUR)
    rows = await store.query(
        f"SELECT {store.clock_sql} - created_at FROM actions WHERE table_id = ?", (table_id,)
    )
    # Both ages come from the database's clock, read a moment apart: the claim's is the
    # smaller (it was read first) and neither is negative.
    assert 0.0 <= claim.decided_ago <= rows[0][0]


async def test_action_times_and_lease_expiries_use_the_database_clock(store: Store) -> None:
    table_id = await active_table(store)
    await store.append_action(table_id, 0, 0, "play 1b", "player")
    await store.claim_lease(table_id, "a", HOUR)
    (row,) = await store.query(
        f"SELECT {store.clock_sql} AS now, (SELECT created_at FROM actions WHERE table_id = ?)"
        " AS acted, (SELECT expires_at FROM table_leases WHERE table_id = ?) AS expires",
        (table_id, table_id),
    )
    assert row["acted"] <= row["now"] < row["expires"] <= row["now"] + HOUR


async def test_concurrent_claimers_split_the_free_tables(new_database) -> None:
    """Three processes (three stores on one database) scan at once, again and again: every
    free table goes to exactly one of them."""
    database = await new_database()
    stores = [await Store.open(database) for _ in range(3)]
    try:
        for _ in range(5):
            tables = {await active_table(stores[0]) for _ in range(4)}
            claims = await asyncio.gather(
                *(s.claim_free_leases(f"p{i}", HOUR) for i, s in enumerate(stores))
            )
            won = [c.table_id for found in claims for c in found]
            assert sorted(won) == sorted(tables)  # each once
            for i, found in enumerate(claims):
                for claim in found:
                    assert await stores[0].lease_holder(claim.table_id) == f"p{i}"
            for table_id in tables:
                assert await stores[0].transition(table_id, ("active",), "finished")
    finally:
        for s in stores:
            await s.close()


async def test_concurrent_claims_of_an_expired_lease_have_one_winner(new_database) -> None:
    database = await new_database()
    stores = [await Store.open(database) for _ in range(3)]
    try:
        table_id = await active_table(stores[0])
        for round_ in range(5):
            assert await stores[0].release_leases(f"p{round_}") in (0, 1)
            await stores[0].claim_lease(table_id, "old", 0.0)  # taken and expired at once
            results = await asyncio.gather(
                *(s.claim_lease(table_id, f"p{i}", HOUR) for i, s in enumerate(stores))
            )
            winners = [i for i, claim in enumerate(results) if claim is not None]
            assert len(winners) == 1, results
            assert await stores[0].lease_holder(table_id) == f"p{winners[0]}"
            await stores[winners[0]].release_leases(f"p{winners[0]}")
    finally:
        for s in stores:
            await s.close()


async def test_appends_are_announced_to_listeners_on_postgres(backend: str, new_database) -> None:
    """On PostgreSQL every append notifies at its commit, so the process driving a table
    learns of moves another process served without polling; SQLite (one process) says it
    cannot."""
    database = await new_database()
    listener, writer = await Store.open(database), await Store.open(database)
    try:
        heard: list[tuple[int, int]] = []
        listening = await listener.listen_for_actions(lambda t, i: heard.append((t, i)))
        assert listening == (backend == "postgres")
        table_id = await active_table(writer)
        await writer.append_action(table_id, 0, 0, "play 1b", "player")
        with pytest.raises(StoreError):  # refused, rolled back: it announces nothing
            await writer.append_action(table_id, 0, 1, "play 2b", "player")
        await writer.append_action(table_id, 1, 1, "play 3b", "player")
        if listening:
            for _ in range(500):  # bounded: notifications arrive soon after each commit
                if len(heard) >= 2:
                    break
                await asyncio.sleep(0.01)
            assert heard == [(table_id, 0), (table_id, 1)]
    finally:
        await listener.close()
        await writer.close()
