"""DM clicks shared with the process driving a table (``click_tokens``, migration 0008), on
both backends: written with the action they made, read with it, the latest per seat, never
past their age, swept once expired, and refused with the action."""

import pytest

from bot.store import SeatRow, SharedClick, Store, StoreError
from tests.store.test_store import new_table

TOKEN = "secret-interaction-token"


def click(token: str = TOKEN, message_id: int | None = 555, age: float = 0.0) -> SharedClick:
    return SharedClick(application_id=42, token=token, message_id=message_id, age=age)


async def test_a_click_is_read_with_its_action(store: Store) -> None:
    table = await new_table(store)
    await store.append_action(table, 0, 0, "play 1b", "player", click(age=2.0))
    await store.append_action(table, 1, 1, "play 2b", "ai")
    actions, clicks, _ = await store.actions_with_clicks_since(table, 0, 840.0)
    assert actions == [(0, "play 1b"), (1, "play 2b")]
    assert set(clicks) == {0}
    shared = clicks[0]
    assert (shared.application_id, shared.token, shared.message_id) == (42, TOKEN, 555)
    assert 2.0 <= shared.age < 60.0  # aged since the click, by the database's clock
    # Read from a later index: the action, and so its click, is not read again.
    assert await store.actions_with_clicks_since(table, 1, 840.0) == ([(1, "play 2b")], {}, {})


async def test_the_seats_latest_click_replaces_its_earlier_one(store: Store) -> None:
    table = await new_table(store)
    await store.append_action(table, 0, 0, "play 1b", "player", click("first", 1))
    await store.append_action(table, 1, 0, "take 1p1", "player", click("second", None))
    _, clicks, _ = await store.actions_with_clicks_since(table, 0, 840.0)
    assert clicks[0].token == "second" and clicks[0].message_id is None
    assert await scalar_count(store) == 1


async def test_an_expired_click_is_ignored_then_swept(store: Store) -> None:
    table = await new_table(store)
    await store.append_action(table, 0, 0, "play 1b", "player", click(age=900.0))
    other = await new_table(store)
    await store.append_action(other, 0, 1, "play 2b", "player", click("fresh"))
    actions, clicks, _ = await store.actions_with_clicks_since(table, 0, 840.0)
    assert actions == [(0, "play 1b")] and clicks == {}
    assert await store.forget_clicks(840.0) == 1
    _, clicks, _ = await store.actions_with_clicks_since(other, 0, 840.0)
    assert clicks[1].token == "fresh"


async def test_the_movers_languages_are_read_with_their_actions(store: Store) -> None:
    """The driving process learns the languages of the players who moved elsewhere in the
    read that brings their moves (not in a read of its own), and only theirs."""
    table = await new_table(store)
    await store.set_seats(
        table,
        [
            SeatRow(seat=0, user_id=7, name="Alice"),
            SeatRow(seat=1, user_id=8, name="Bob"),
            SeatRow(seat=2, user_id=None, name="AI", is_ai=True),
        ],
    )
    await store.set_user_locales({7: "ko", 8: "ja"})
    await store.append_action(table, 0, 0, "play 1b", "player", click())
    await store.append_action(table, 1, 2, "play 2b", "ai")
    await store.append_action(table, 2, 1, "play 3b", "player")
    _, _, locales = await store.actions_with_clicks_since(table, 0, 840.0)
    assert locales == {7: "ko", 8: "ja"}
    _, _, locales = await store.actions_with_clicks_since(table, 1, 840.0)
    assert locales == {8: "ja"}  # (the AI's move names nobody)


async def test_a_refused_append_shares_no_click(store: Store) -> None:
    table = await new_table(store)
    await store.append_action(table, 0, 0, "play 1b", "player")
    with pytest.raises(StoreError):
        await store.append_action(table, 0, 1, "play 2b", "player", click())
    assert await scalar_count(store) == 0


def test_the_token_stays_out_of_the_repr() -> None:
    assert TOKEN not in repr(click())


async def scalar_count(store: Store) -> int:
    return int((await store.query("SELECT COUNT(*) FROM click_tokens"))[0][0])
