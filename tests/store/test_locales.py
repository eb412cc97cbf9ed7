"""Languages in the store, on both backends: each table's language, and each user's language
as of their last interaction (migration 0004)."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.store import Store
from bot.store.migrate import MIGRATIONS_DIR, MIGRATIONS_PG_DIR
from tests.store.test_store import GUILD, scalar

MIGRATIONS = {"sqlite": MIGRATIONS_DIR, "postgres": MIGRATIONS_PG_DIR}


async def _table(store: Store, **kwargs) -> int:
    return await store.create_table(
        guild_id=GUILD, channel_id=200, game="koikoi", options={}, seed="s", host_id=1, **kwargs
    )


async def test_a_table_keeps_its_language(store: Store) -> None:
    english = await _table(store)
    japanese = await _table(store, locale="ja")
    assert (await store.get_table(english)).locale == "en-US"
    assert (await store.get_table(japanese)).locale == "ja"
    await store.update_table(japanese, status="active")
    assert [(t.id, t.locale) for t in await store.tables_with_status("active")] == [
        (japanese, "ja")
    ]
    await store.update_table(english, locale="ko")
    assert (await store.get_table(english)).locale == "ko"


async def test_users_languages_are_remembered_and_updated(store: Store) -> None:
    assert await store.user_locales([1, 2]) == {}
    await store.set_user_locales({1: "ja", 2: "en-US"})
    assert await store.user_locales([1, 2, 3]) == {1: "ja", 2: "en-US"}
    await store.set_user_locales({1: "zh-TW"})
    assert await store.user_locales([1]) == {1: "zh-TW"}
    assert await store.user_locales([]) == {}
    # Big ids (Discord snowflakes) and many at once.
    many = {10**18 + i: "ko" for i in range(700)}
    await store.set_user_locales(many)
    assert await store.user_locales(many) == many


async def test_an_unchanged_language_is_not_rewritten(store: Store) -> None:
    await store.set_user_locales({1: "ja"})
    stamp = await scalar(store, "SELECT updated_at FROM user_locales WHERE user_id = 1")
    await store.set_user_locales({1: "ja"})
    assert await scalar(store, "SELECT updated_at FROM user_locales WHERE user_id = 1") == stamp
    await store.set_user_locales({1: "ko"})
    assert await scalar(store, "SELECT updated_at FROM user_locales WHERE user_id = 1") >= stamp
    assert await store.user_locales([1]) == {1: "ko"}


async def test_tables_from_before_the_migration_read_english(
    backend: str, new_database, tmp_path: Path
) -> None:
    """A database at version 3 with a running table: after 0004 the table is English."""
    older = tmp_path / "older"
    older.mkdir()
    for path in sorted(MIGRATIONS[backend].glob("000[123]_*.sql")):
        shutil.copy(path, older / path.name)
    database = await new_database()
    store = await Store.open(database, migrations_dir=older)
    row_id = await _old_table(store)
    await store.close()
    store = await Store.open(database)
    try:
        assert (await store.get_table(row_id)).locale == "en-US"
        assert await store.user_locales([3]) == {}
    finally:
        await store.close()


async def _old_table(store: Store) -> int:
    """A table written by code that knew no languages (without the locale column)."""
    async with store._transaction() as tx:
        return await tx.insert_id(
            "INSERT INTO tables (guild_id, channel_id, game, options, seed, host_id, status,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, 'active', ?)",
            (GUILD, 200, "koikoi", "{}", "s", 3, 0.0),
        )
