"""The cluster's one-statement reads (issue 31), on both backends: a cache's catch-up
(``Store.catch_up``: status, log and seat flags at once) and a seat's shared forms
(``Store.dm_forms``, migration 0009: judged current from the log in the same read)."""

from bot.store import SeatRow, Store
from tests.store.test_store import new_table

SEATS = [SeatRow(seat=0, user_id=7, name="A"), SeatRow(seat=1, user_id=8, name="B")]


async def test_a_catch_up_reads_status_log_and_seats_at_once(store: Store) -> None:
    table = await new_table(store)
    await store.set_seats(table, SEATS)
    assert await store.transition(table, ("lobby",), "active")
    for idx, (seat, code) in enumerate([(0, "play 1b"), (1, "play 2b"), (0, "take 1p1")]):
        await store.append_action(table, idx, seat, code, "player")
    await store.update_seat(table, 1, ai_takeover=True, timeouts=3)
    await store.update_seat(table, 0, dms_closed=True)
    read = await store.catch_up(table, 1)
    assert read is not None and read.status == "active"
    assert read.actions == [(1, "play 2b"), (0, "take 1p1")]
    assert read.seats == {0: (False, 0, True), 1: (True, 3, False)}
    assert (await store.catch_up(table, 3)).actions == []
    assert await store.catch_up(table + 1000, 0) is None
    await store.transition(table, ("active",), "aborted")
    assert (await store.catch_up(table, 0)).status == "aborted"


async def test_shared_forms_are_current_until_the_seat_moves(store: Store) -> None:
    table = await new_table(store)
    await store.set_seats(table, SEATS)
    assert await store.transition(table, ("lobby",), "active")
    assert await store.dm_forms(table, 0) is None
    await store.append_action(table, 0, 1, "play 2b", "player")
    await store.share_forms(table, 0, 1, '[{"verb": "give"}]')
    shared = await store.dm_forms(table, 0)
    assert shared is not None and shared.active and shared.user_id == 7
    assert (shared.version, shared.log_version, shared.acted) == (1, 1, False)
    assert shared.forms == '[{"verb": "give"}]' and not shared.ai_takeover
    await store.append_action(table, 1, 1, "play 3b", "player")  # another seat's move
    assert not (await store.dm_forms(table, 0)).acted
    await store.append_action(table, 2, 0, "give x", "player")  # the seat's own
    shared = await store.dm_forms(table, 0)
    assert shared.acted and shared.log_version == 3
    await store.share_forms(table, 0, 5, "[]")  # its next form decision replaces it
    assert (await store.dm_forms(table, 0)).version == 5
    await store.transition(table, ("active",), "finished")
    assert not (await store.dm_forms(table, 0)).active
    assert await store.forget_forms() == 1 and await store.dm_forms(table, 0) is None
