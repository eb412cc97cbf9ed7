"""AI levels over the fake Discord: the lobby adds a strong AI, it plays, and a restart
resumes the table with the same level."""

from __future__ import annotations

import random

import pytest

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import RunningBot, settings_for
from tests.e2e.test_koikoi_e2e import play_until, table_status

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def teahouse(fake_discord: FakeDiscord, tmp_path):
    running = RunningBot(fake_discord, settings_for(str(tmp_path / "teahouse.db")))
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


async def test_a_strong_ai_added_in_the_lobby_plays_and_keeps_its_level_over_a_restart(
    fake_discord: FakeDiscord, teahouse: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    inter = await fake.slash(alice, games_channel, "koikoi new", {"rounds": 6})
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    select = f"th:la:{table_id}"
    options = [
        o["value"]
        for row in lobby.components
        for c in row["components"]
        if c.get("custom_id") == select
        for o in c["options"]
    ]
    assert options == ["easy", "normal", "strong"]

    added = await fake.select(alice, lobby, select, ["strong"])
    await added.wait_response()
    lobby = fake.message(lobby.id)
    assert "AI 1 (strong)" in lobby.embeds[0]["description"]
    seats = await teahouse.bot.store.get_seats(table_id)
    assert [(s.name, s.is_ai, s.ai_level) for s in seats][1] == ("AI 1 (strong)", True, "strong")

    start = await fake.click(alice, lobby, label="Start")
    await start.wait_response()
    await fake.wait_until(
        lambda: fake.threads_of(games_channel) and table_id in teahouse.bot.host.tables
    )
    table = teahouse.bot.host.tables[table_id]
    assert table.seats[1].level == "strong" and table.state.players[1] == "AI 1 (strong)"

    rng = random.Random(7)
    await play_until(fake, teahouse, table_id, [alice], rng, stop_after=6)
    ai_moves = [code for seat, code in table.state.log if seat == 1]
    assert ai_moves  # the strong AI played (in a worker thread, the loop kept serving)
    log_before = list(table.state.log)

    bot = await teahouse.restart()
    thread = fake.threads_of(games_channel)[0]
    await fake.wait_until(lambda: any("restarted" in m.content for m in fake.messages_in(thread)))
    table = bot.host.tables[table_id]
    assert table.state.log[: len(log_before)] == log_before
    assert table.seats[1].ai_level == "strong" and table.seats[1].level == "strong"
    await play_until(fake, teahouse, table_id, [alice], rng)
    assert await table_status(bot, table_id) == "finished"
    history = await bot.store.get_seats(table_id)
    assert history[1].ai_level == "strong"
