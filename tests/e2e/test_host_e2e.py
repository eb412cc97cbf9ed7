"""Hosting behaviour over the fake Discord: timers, AI takeover, AI seats, rules, abort."""

from __future__ import annotations

import asyncio

import pytest

from bot.app import HTTP_CONNECTIONS
from tests.e2e.fakediscord import FakeDiscord, find_components
from tests.e2e.teahouse import RunningBot, settings_for, shorten_turns

pytestmark = pytest.mark.asyncio


async def _lobby(fake: FakeDiscord, channel: int, user: int, options=None):
    inter = await fake.slash(user, channel, "koikoi new", options or {})
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    return int(lobby.embeds[0]["title"].split("#")[1]), lobby


async def test_timeouts_play_the_default_and_an_ai_takes_over(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "t.db"), timeouts_before_ai=2))
    bot = await running.start()
    try:
        table_id, lobby = await _lobby(fake, games_channel, alice, {"turn_seconds": 15})
        for label in ("Add AI", "Start"):
            await (await fake.click(alice, lobby, label=label)).wait_response()
        await fake.wait_until(lambda: table_id in bot.host.tables)
        table = bot.host.tables[table_id]
        shorten_turns(table, 0.2)  # the command's minimum is 15 s; shorten for the test
        thread = fake.threads_of(games_channel)[0]
        await fake.wait_until(
            lambda: any("AI now plays" in m.content for m in fake.messages_in(thread)), timeout=30
        )
        assert table.seats[0].ai_takeover and table.seats[0].user_id == alice
        rows = await bot.store.action_rows(table_id)
        assert sum(1 for r in rows if r.source == "timeout") == 2
        assert any("ran out of time" in m.content for m in fake.messages_in(thread))
        # With both seats played by AIs now, the match runs to its end by itself.
        await fake.wait_until(lambda: table.finished, timeout=60)
        assert (await bot.store.get_table(table_id)).status == "finished"
    finally:
        await running.stop()


async def test_rules_leaderboard_and_abort(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "r.db")))
    bot = await running.start()
    try:
        rules = await fake.slash(bob, games_channel, "rules", {"game": "koikoi"})
        await rules.wait_response()
        assert rules.callback.ephemeral
        assert "Koi-Koi" in rules.callback.data["embeds"][0]["title"]
        assert "Ino-Shika-Chō" in rules.callback.data["embeds"][0]["description"]
        # The long version comes along: docs/rules/koikoi.md as an attached file.
        files = dict(rules.callback.files)
        assert list(files) == ["teahouse-koikoi-rules.md"]
        assert "Teahouse's ruling" in files["teahouse-koikoi-rules.md"].decode("utf-8")
        empty = await fake.slash(bob, games_channel, "leaderboard", {"game": "koikoi"})
        await empty.wait_response()
        assert "Nobody has finished" in empty.callback.data["embeds"][0]["description"]
        bad = await fake.slash(alice, games_channel, "table abort", {"table": 999})
        await bad.wait_response()
        assert "no open table" in bad.callback.data["content"]

        table_id, lobby = await _lobby(fake, games_channel, alice)
        await (await fake.click(bob, lobby, label="Join")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        await fake.wait_until(lambda: table_id in bot.host.tables)
        refused = await fake.slash(bob, games_channel, "table abort", {"table": table_id})
        await refused.wait_response()
        assert "Only the table's host" in refused.callback.data["content"]
        done = await fake.slash(alice, games_channel, "table abort", {"table": table_id})
        await done.wait_response()
        assert "aborted" in done.callback.data["content"]
        assert (await bot.store.get_table(table_id)).status == "aborted"
        assert table_id not in bot.host.tables
        # The thread is told, and nobody is left holding live controls.
        thread = fake.threads_of(games_channel)[0]
        await fake.wait_until(lambda: any("aborted" in m.content for m in fake.messages_in(thread)))
        for user in (alice, bob):
            await fake.wait_until(lambda u=user: all(not find_components(m) for m in fake.dms(u)))
        await fake.wait_until(lambda: not find_components(fake.messages_in(thread)[0]))
    finally:
        await running.stop()


async def test_a_player_can_take_their_seat_back_from_the_ai(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(
        fake, settings_for(str(tmp_path / "b.db"), timeouts_before_ai=1, ai_delay=0.3)
    )
    bot = await running.start()
    try:
        table_id, lobby = await _lobby(fake, games_channel, alice)
        for label in ("Add AI", "Start"):
            await (await fake.click(alice, lobby, label=label)).wait_response()
        await fake.wait_until(lambda: table_id in bot.host.tables)
        table = bot.host.tables[table_id]
        shorten_turns(table, 0.2)
        await fake.wait_until(lambda: table.seats[0].ai_takeover, timeout=30)
        table.options["turn_seconds"] = 600
        dm = await fake.wait_until(
            lambda: next(
                (m for m in reversed(fake.dms(alice)) if "an AI plays your seat" in m.content), None
            )
        )
        back = await fake.click(alice, dm, label="I'm back — let me play")
        await back.wait_response()
        await fake.wait_until(lambda: not table.seats[0].ai_takeover)
        assert (await bot.store.get_seats(table_id))[0].ai_takeover is False
        # Her controls come back by DM when it is her turn.
        await fake.wait_until(
            lambda: any(
                c
                for m in fake.dms(alice)
                if m.id > dm.id
                for c in find_components(m)
                if (c["custom_id"] or "").startswith("th:a:")
            ),
            timeout=30,
        )
    finally:
        await running.stop()


async def test_the_bots_http_connections_are_capped(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """discord.py opens as many connections as requests are in flight and aiohttp never
    lets a busy pool shrink: the bot caps them (requests beyond the cap wait their turn)."""
    running = RunningBot(fake_discord, settings_for(str(tmp_path / "c.db")))
    bot = await running.start()
    try:
        session = bot.http._HTTPClient__session  # (discord.py's; no public accessor)
        assert session.connector is bot.http.connector
        assert bot.http.connector.limit == HTTP_CONNECTIONS
        # Three times as many requests at once as connections: all are answered.
        channels = await asyncio.gather(
            *(bot.http.get_channel(games_channel) for _ in range(3 * HTTP_CONNECTIONS))
        )
        assert {int(c["id"]) for c in channels} == {games_channel}
        await _lobby(fake_discord, games_channel, alice)  # and the bot still plays
    finally:
        await running.stop()
