"""Discord's bad moments over the fake: a DM or a table-message update that fails for a
passing reason (a 503, a rate limit discord.py gave up on) is tried again, so a player is
never left without their decision and the table message catches up with the table."""

from __future__ import annotations

import random

import pytest

from bot.i18n import localize
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    eventually,
    next_decision,
    play_next_decision,
    settings_for,
    settled,
    start_table,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the DMs' and the table message's retries, and the posts')
    monkeypatch.setattr("bot.host.presenter.RETRY_DELAYS", (0.2, 0.3, 0.5))
    monkeypatch.setattr("bot.host.outbox.RETRY_DELAYS", (0.2, 0.3, 0.5))


def failures(fake: FakeDiscord, method: str, path_start: str) -> int:
    return sum(
        1
        for record, _ in fake.error_responses
        if record.status == 503 and record.method == method and record.path.startswith(path_start)
    )


async def test_first_dms_that_fail_come_a_moment_later_and_play_goes_on(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "o.db")))
    bot = await running.start()
    try:
        # The players' DM channels fail to open at first (as the route's 429s did when a
        # thousand tables started at once, until discord.py gave up).
        fake.fail_next("POST /users/@me/channels", count=2)
        table = await start_table(fake, bot, games_channel, alice, guest=bob)
        await eventually(lambda: failures(fake, "POST", "/users/@me/channels") == 2)
        await eventually(lambda: fake.dms(alice) and fake.dms(bob))
        assert fake.ratelimits.calls["POST /users/@me/channels"] == 4
        # Whoever must decide has their controls and plays from them.
        rng = random.Random(5)
        for _ in range(3):
            await play_next_decision(fake, table, [alice, bob], rng)
    finally:
        await running.stop()


async def test_a_failed_dm_message_is_sent_again(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "m.db")))
    bot = await running.start()
    try:
        # The DM channels are open (the lobby's players got nothing yet): the first DM
        # messages themselves fail once each.
        dm_alice, dm_bob = fake.open_dm(alice), fake.open_dm(bob)
        fake.fail_next("POST /channels/{cid}/messages", cid=dm_alice)
        fake.fail_next("POST /channels/{cid}/messages", cid=dm_bob)
        table = await start_table(fake, bot, games_channel, alice, guest=bob)
        await eventually(lambda: failures(fake, "POST", f"/channels/{dm_alice}/") == 1)
        await eventually(lambda: failures(fake, "POST", f"/channels/{dm_bob}/") == 1)
        await eventually(lambda: fake.dms(alice) and fake.dms(bob))
        user, _ = await eventually(lambda: next_decision(fake, table, [alice, bob]))
        assert user in (alice, bob)
    finally:
        await running.stop()


async def test_a_table_message_update_that_fails_is_tried_again(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "t.db")))
    bot = await running.start()
    try:
        table = await start_table(fake, bot, games_channel, alice)
        await eventually(lambda: next_decision(fake, table, [alice]))
        shown_id = await eventually(lambda: table.table_message_id)
        # The next two updates of the table message fail; after Alice's move nothing else
        # changes until she moves again, so only trying again brings the message up to date.
        fake.fail_next("PATCH /channels/{cid}/messages/{mid}", count=2, mid=shown_id)
        await play_next_decision(fake, table, [alice], random.Random(2))
        await eventually(lambda: settled(table))
        await eventually(
            lambda: failures(fake, "PATCH", f"/channels/{table.channel_for_table}/") == 2
        )
        latest = str(localize(table.locale, table.recent[-1]))
        await eventually(lambda: latest in fake.message(shown_id).content, timeout=10)
        # The fake stores the edit before the bot reads its answer: wait for the bot to read it.
        await eventually(lambda: table.show_failures == 0)
    finally:
        await running.stop()
