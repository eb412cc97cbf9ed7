"""A form button clicked at a process that does not drive the table is answered with its
modal at once (issue 31): two bots on one PostgreSQL database, each running one of two
gateway shards. The Panda table lives in a guild on shard 1, so the second bot drives it;
Alice's DM clicks arrive on shard 0, at the first bot. Her pass form's button is answered
there with the modal (a modal must be the first answer, within Discord's 3 s) from the form
the driving bot shared (``dm_forms``) — the first bot neither loads nor replays the table.
The form she sends is an ordinary click: the first bot applies and logs it, the driving bot
shows it."""

from __future__ import annotations

import pytest

from tests.e2e.fakediscord import FakeDiscord, configure_discord_py
from tests.e2e.teahouse import (
    RunningBot,
    current_controls,
    eventually,
    form_fields,
    settings_for,
)
from tests.e2e.test_cluster_e2e import database  # noqa: F401 (a fixture)
from tests.store.conftest import postgres_url  # noqa: F401 (a fixture)

pytestmark = pytest.mark.asyncio


async def test_a_form_button_is_answered_at_the_process_that_does_not_drive_the_table(
    database: str,  # noqa: F811
) -> None:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    restore = configure_discord_py(fake)
    guild = fake.add_guild("Shard One", shard=1, shard_count=2)
    channel = fake.add_text_channel(guild, "games")
    alice = fake.add_user("Alice")
    zero = RunningBot(fake, settings_for(database, shard_count=2, shards="0", log_poll=0.5))
    one = RunningBot(fake, settings_for(database, shard_count=2, shards="1", log_poll=0.5))
    try:
        bot0 = await zero.start()
        bot1 = await one.start()
        inter = await fake.slash(alice, channel, "panda new")
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        table_id = int(lobby.embeds[0]["title"].split("#")[1])
        for _ in range(3):
            await (await fake.click(alice, lobby, label="Add AI")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot1.host.tables.get(table_id))
        assert table.driven
        message, comps = await eventually(lambda: current_controls(fake, table, alice))
        (opener,) = [c for c in comps if c["custom_id"].startswith("th:f:")]
        hand = list(table.state.view(0)["hand"])
        before = len(table.state.log)

        opened = await fake.click(alice, message, opener["custom_id"])
        await opened.wait_response()
        assert opened.shard == (0, 2)  # a DM click: the first bot, which does not drive
        assert opened.modal is not None, "the form's button was not answered with its form"
        assert [values for _, values in form_fields(opened.modal)] == [hand] * 3
        assert table_id not in bot0.host.tables  # answered without loading the table

        sent = await fake.submit_modal(
            alice, opened, {"left": [hand[0]], "partner": [hand[1]], "right": [hand[2]]}
        )
        await sent.wait_response()
        await eventually(lambda: len(table.state.log) > before, timeout=20)
        assert (0, f"give left {hand[0]} partner {hand[1]} right {hand[2]}") in table.state.log
        problems = fake.problems()
        assert not problems, "the fake Discord saw something wrong:\n" + "\n".join(problems)
    finally:
        await zero.stop()
        await one.stop()
        restore()
        await fake.stop()
