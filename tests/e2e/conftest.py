"""Fixtures for end-to-end tests: a running fake Discord that discord.py is pointed at."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.fakediscord import FakeDiscord, configure_discord_py

GUILD_NAME = "Teahouse Test"
CHANNEL_NAME = "games"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with guild "Teahouse Test", text channel "games" and the
    users Alice and Bob; discord.py's REST base and gateway URL point at it meanwhile."""
    fake = FakeDiscord()
    await fake.start()
    restore = configure_discord_py(fake)
    guild_id = fake.add_guild(GUILD_NAME)
    fake.add_text_channel(guild_id, CHANNEL_NAME)
    fake.add_user("Alice")
    fake.add_user("Bob")
    try:
        yield fake
    finally:
        restore()
        await fake.stop()


@pytest.fixture
def guild_id(fake_discord: FakeDiscord) -> int:
    return fake_discord.guild_named(GUILD_NAME)


@pytest.fixture
def games_channel(fake_discord: FakeDiscord) -> int:
    return fake_discord.channel_named(CHANNEL_NAME)


@pytest.fixture
def alice(fake_discord: FakeDiscord) -> int:
    return fake_discord.user_named("Alice")


@pytest.fixture
def bob(fake_discord: FakeDiscord) -> int:
    return fake_discord.user_named("Bob")
