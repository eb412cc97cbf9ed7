"""Forged component ids naming a table id too large for the database (SQLite INTEGER and
PostgreSQL BIGINT hold 64-bit ids): the same clean answer as any unknown table, no
incident, no traceback in the log — on both backends."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import RunningBot, settings_for
from tests.e2e.test_hardening_e2e import _text
from tests.store.conftest import postgres_url, with_search_path  # noqa: F401 (a fixture)

pytestmark = pytest.mark.asyncio

#: Far beyond 2^63 - 1, as in a hand-made custom id.
HUGE = 99999999999999999999999999
#: A table id that fits the database but names no table.
UNKNOWN = 424242

#: Every custom id format that names a table (bot/host/components.py, cogs/history.py,
#: cogs/replay.py), with ``{t}`` for the table id.
FORMATS = [
    "th:a:{t}:0:1:draw",
    "th:s:{t}:0:1:play",
    "th:l:{t}:join",
    "th:la:{t}",
    "th:h:{t}",
    "th:r:{t}:0",
    "th:i:{t}:0:1",
    "th:v:{t}",
    "th:ho:{t}",
    "th:rd:{t}",
    "th:rh:{t}:{user}",
    "th:rp:{t}:next:0:{user}",
]


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    """An SQLite file, or a fresh schema of the session's PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "forged.db")
        return
    import asyncpg

    base = request.getfixturevalue("postgres_url")
    schema = f"forged_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    yield with_search_path(base, schema)
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


def _carrying(fake: FakeDiscord, message: FakeMessage, custom_id: str) -> FakeMessage:
    """``message`` tampered with: its first button now carries ``custom_id`` (discord.py
    runs a component's handler only for an id the clicked message carries)."""
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("type") == 2:
                comp["custom_id"] = custom_id
                return message
    raise AssertionError(f"no button on {find_components(message)}")


async def _answer(fake: FakeDiscord, user: int, message: FakeMessage, custom_id: str) -> str:
    inter = await fake.click(user, _carrying(fake, message, custom_id), custom_id)
    await inter.wait_response()
    await fake.wait_until(lambda: _text(inter), what=f"an answer to {custom_id}")
    # Private: the answer itself, or the follow-ups after a defer.
    assert inter.ephemeral or (inter.followups and all(m.ephemeral for m in inter.followups))
    return _text(inter)


async def test_a_table_id_too_large_for_the_database_is_an_unknown_table(
    fake_discord: FakeDiscord, database: str, games_channel: int, alice: int, caplog
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(database))
    await running.start()
    try:
        inter = await fake.slash(alice, games_channel, "koikoi new")
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        caplog.clear()
        caplog.set_level(logging.INFO)
        for form in FORMATS:
            unknown = await _answer(fake, alice, lobby, form.format(t=UNKNOWN, user=alice))
            huge = await _answer(fake, alice, lobby, form.format(t=HUGE, user=alice))
            # (an answer may name the table it looked for)
            assert huge.replace(str(HUGE), "N") == unknown.replace(str(UNKNOWN), "N"), form
            assert huge and "incident" not in huge and "went wrong" not in huge, (form, huge)
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        assert not errors, [r.getMessage() for r in errors]
    finally:
        await running.stop()
