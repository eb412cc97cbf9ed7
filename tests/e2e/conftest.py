"""Fixtures for end-to-end tests: a running fake Discord that discord.py is pointed at."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.fakediscord import FakeDiscord, configure_discord_py

GUILD_NAME = "Teahouse Test"
CHANNEL_NAME = "games"

#: Tests that run without Discord's rate limits, and why. Everything else meets them (the
#: fake's defaults: 50 requests/s, 5 messages and 5 edits per 5 s per channel, ...).
WITHOUT_RATE_LIMITS = {
    # Whole matches clicked at machine speed with edit_interval=0: the bot edits the table
    # message and each DM faster than 5 per 5 s, discord.py waits out every emptied bucket
    # and a match takes ~100 s instead of ~10 s (no 429s: discord.py reads the headers).
    # Until the host paces its edits, these tests check the games, not the pacing.
    "test_a_whole_match_by_clicking",
    "test_two_users_play_a_whole_match_by_clicking",
    "test_restart_in_the_middle_resumes_the_match",
    "test_a_move_from_show_my_hand_retires_the_dm_controls",
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "no_rate_limits: the fake Discord does not enforce rate limits (say why)"
    )
    config.addinivalue_line(
        "markers",
        "expect_refusals(reason): the fake Discord refuses some of the bot's requests on purpose (say why)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if getattr(item, "originalname", item.name) in WITHOUT_RATE_LIMITS:
            item.add_marker(pytest.mark.no_rate_limits)


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with guild "Teahouse Test", text channel "games" and the
    users Alice and Bob; discord.py's REST base and gateway URL point at it meanwhile.
    Discord's rate limits are enforced unless the test is marked ``no_rate_limits``."""
    fake = FakeDiscord(rate_limits=request.node.get_closest_marker("no_rate_limits") is None)
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
