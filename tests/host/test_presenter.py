"""bot.host.presenter: what players are shown after a change, in which order."""

from __future__ import annotations

from bot.store import SeatRow
from tests.host.offline import offline_host
from tests.host.test_leases import ALICE, FAST, closing, open_table

BOB = SeatRow(seat=1, user_id=8, name="Bob")


async def test_the_player_who_must_act_next_gets_their_dm_first(tmp_path) -> None:
    """A move that changes the mover's DM (their hand, their controls gone) and hands the
    decision to the other player refreshes the other player's DM first: the mover's own
    DM may wait for the render pool at a lower priority, the next decision must not."""
    host = await offline_host(str(tmp_path / "p.db"), record=True, **FAST)
    try:
        table_id = await open_table(host.store, [ALICE, BOB])
        assert await host.restore() == 1
        table = host.tables[table_id]
        handovers = 0
        while handovers < 3 and not table.state.is_over:
            (mover,) = table.state.to_act
            async with table.lock:
                host.dms.clear()  # type: ignore[attr-defined]
                code = table.state.legal_actions(mover)[0]
                await host._after_change(table, await host._apply(table, mover, code, "player"))
            if table.state.to_act == [1 - mover]:
                refreshed = [seat for _, seat in host.dms]  # type: ignore[attr-defined]
                assert set(refreshed) == {0, 1}
                assert refreshed == [1 - mover, mover]  # the new decision first
                handovers += 1
        assert handovers == 3
    finally:
        await closing(host)
