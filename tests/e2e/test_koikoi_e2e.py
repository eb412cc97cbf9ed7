"""The real bot over the fake Discord: two people play whole Koi-Koi matches by clicking."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.e2e.fakediscord import FakeDiscord, find_component
from tests.e2e.teahouse import (
    STALE_CONTROLS,
    RunningBot,
    action_components,
    click_some_action,
    current_controls,
    eventually,
    latest_controls,
    settings_for,
    settled,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def teahouse(fake_discord: FakeDiscord, tmp_path):
    running = RunningBot(fake_discord, settings_for(str(tmp_path / "teahouse.db")))
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


def ephemeral_text(interaction) -> str:
    """What the bot answered privately to an interaction (response or follow-up)."""
    if interaction.callback and interaction.callback.ephemeral:
        return interaction.callback.data.get("content") or ""
    for f in interaction.followups:
        if f.ephemeral:
            return f.content
    return ""


async def open_table(
    fake: FakeDiscord, channel: int, host: int, guest: int | None
) -> tuple[int, object]:
    """``host`` runs /koikoi new; ``guest`` joins (or the host adds an AI); host starts."""
    inter = await fake.slash(host, channel, "koikoi new", {"rounds": 6})
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    assert "Koi-Koi" in lobby.embeds[0]["title"]
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    if guest is not None:
        joined = await fake.click(guest, lobby, label="Join")
        await joined.wait_response()
    else:
        added = await fake.click(host, lobby, label="Add AI")
        await added.wait_response()
    start = await fake.click(host, lobby, label="Start")
    await start.wait_response()
    await fake.wait_until(lambda: fake.threads_of(channel))
    return table_id, lobby


def is_finished(running: RunningBot, table_id: int) -> bool:
    table = running.bot.host.tables.get(table_id)
    return table is not None and table.finished


async def table_status(bot, table_id: int) -> str:
    row = await bot.store.get_table(table_id)
    return row.status


async def replayed_state(bot, table_id: int):
    """A table's state rebuilt from the store (its seed, seats, options and action log)."""
    from bot.games import game_module
    from bot.host.options import game_options

    row = await bot.store.get_table(table_id)
    seats = sorted(await bot.store.get_seats(table_id), key=lambda s: s.seat)
    actions = await bot.store.actions(table_id)
    module = game_module(row.game)
    return module.replay(row.seed, [s.name for s in seats], game_options(row.options), actions)


async def play_until(
    fake: FakeDiscord,
    running: RunningBot,
    table_id: int,
    users: list[int],
    rng: random.Random,
    *,
    max_clicks: int = 2000,
    stop_after: int | None = None,
) -> int:
    """Users click their DM controls until the match ends (or ``stop_after`` clicks)."""
    clicks = 0
    while clicks < max_clicks:
        if await table_status(running.bot, table_id) == "finished":
            return clicks
        if stop_after is not None and clicks >= stop_after:
            return clicks

        def someone_can_act():
            table = running.bot.host.tables.get(table_id)
            for u in users:
                found = table and current_controls(fake, table, u)
                if found:
                    return u, found
            return None

        who = await eventually(lambda: someone_can_act() or is_finished(running, table_id))
        if who is True:
            continue
        user, (message, comps) = who
        table = running.bot.host.tables[table_id]
        version = table.state.version
        inter = await click_some_action(fake, user, message, comps, rng)
        await inter.wait_response()
        assert not inter.rejected_callbacks
        # Wait until the bot has made the move (every click here is a legal one).
        await eventually(lambda t=table, v=version: t.state.version > v or t.finished)
        assert ephemeral_text(inter) == "", ephemeral_text(inter)
        clicks += 1
        # ...and until its DMs are up to date, so the next click is on fresh controls.
        await eventually(lambda t=table: not t.lock.locked())
    raise AssertionError("the match did not end")


async def test_two_users_play_a_whole_match_by_clicking(
    fake_discord: FakeDiscord,
    teahouse: RunningBot,
    games_channel: int,
    alice: int,
    bob: int,
    guild_id: int,
) -> None:
    fake = fake_discord
    table_id, lobby = await open_table(fake, games_channel, alice, bob)
    thread = fake.threads_of(games_channel)[0]
    # The table image is one message in the thread, and each player got a hand by DM.
    await fake.wait_until(lambda: fake.messages_in(thread) and fake.dms(alice) and fake.dms(bob))
    table_message = fake.messages_in(thread)[0]
    assert table_message.attachments and table_message.attachments[0][1].startswith(b"\x89PNG")
    assert fake.dms(alice)[0].attachments[0][1].startswith(b"\x89PNG")

    clicks = await play_until(fake, teahouse, table_id, [alice, bob], random.Random(5))
    assert clicks > 20

    # The result is stored once, the thread says who won, the leaderboard lists both.
    assert await table_status(teahouse.bot, table_id) == "finished"
    await fake.wait_until(lambda: any("is over" in m.content for m in fake.messages_in(thread)))
    actions = await teahouse.bot.store.actions(table_id)
    # A finished table is no longer kept in memory (once its end is shown: the last move
    # may be one the bot played, a last card with one answer): rebuild it from the store.
    await eventually(lambda: table_id not in teahouse.bot.host.tables)
    state = await replayed_state(teahouse.bot, table_id)
    assert actions == state.log and state.is_over
    board = await fake.slash(alice, games_channel, "leaderboard", {"game": "koikoi"})
    await board.wait_response()
    text = board.callback.data["embeds"][0]["description"]
    assert f"<@{alice}>" in text and f"<@{bob}>" in text
    stats = await fake.slash(bob, games_channel, "stats")
    await stats.wait_response()
    assert "games **1**" in stats.callback.data["embeds"][0]["fields"][0]["value"]
    # The table message was edited as the game went, not re-posted.
    assert table_message.edits > 10
    assert (
        len(
            [
                m
                for m in fake.messages_in(thread)
                if m.attachments and "table" in m.attachments[0][0]
            ]
        )
        == 1
    )


async def test_restart_in_the_middle_resumes_the_match(
    fake_discord: FakeDiscord, teahouse: RunningBot, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    table_id, _ = await open_table(fake, games_channel, alice, bob)
    rng = random.Random(11)
    await play_until(fake, teahouse, table_id, [alice, bob], rng, stop_after=15)
    log_before = list(teahouse.bot.host.tables[table_id].state.log)
    assert len(log_before) >= 15

    bot = await teahouse.restart()
    thread = fake.threads_of(games_channel)[0]
    await fake.wait_until(lambda: any("restarted" in m.content for m in fake.messages_in(thread)))
    table = bot.host.tables[table_id]
    assert table.state.log == log_before  # rebuilt from the stored log
    # Old DM controls are stale now; the fresh ones work and the match finishes.
    await play_until(fake, teahouse, table_id, [alice, bob], rng)
    assert await table_status(bot, table_id) == "finished"


async def test_stale_and_duplicate_clicks_are_refused(
    fake_discord: FakeDiscord, teahouse: RunningBot, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    table_id, _ = await open_table(fake, games_channel, alice, bob)
    found = await fake.wait_until(
        lambda: latest_controls(fake, alice) or latest_controls(fake, bob)
    )
    user = alice if latest_controls(fake, alice) else bob
    message, comps = found
    button = next(c for c in comps if c["type"] == 2)
    # A double click: both clicks arrive before the first is processed; one move is made.
    first, second = await asyncio.gather(
        fake.click(user, message, button["custom_id"]),
        fake.click(user, message, button["custom_id"]),
    )
    await first.wait_response()
    await second.wait_response()
    table = teahouse.bot.host.tables[table_id]
    await fake.wait_until(lambda: ephemeral_text(first) or ephemeral_text(second))
    answers = sorted([ephemeral_text(first), ephemeral_text(second)])
    assert answers[0] == "" and STALE_CONTROLS in answers[1]
    assert len(table.state.log) == 1
    # A click on that old message later on is stale too, and changes nothing.
    old = dict(message.history[0]) if message.history else None
    if old is not None:
        message.components = old["components"]
    late = await fake.click(user, message, button["custom_id"])
    await late.wait_response()
    # (out of date, whoever's turn it is now: not "It is not your turn")
    assert STALE_CONTROLS in ephemeral_text(late)
    assert len(table.state.log) == 1


async def test_non_players_get_a_clear_answer_and_change_nothing(
    fake_discord: FakeDiscord, teahouse: RunningBot, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    carol = fake.add_user("Carol")
    inter = await fake.slash(alice, games_channel, "koikoi new")
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    # A non-host cannot start, add AIs or cancel.
    for label in ("Start", "Add AI", "Cancel"):
        answer = await fake.click(carol, lobby, label=label)
        await answer.wait_response()
        assert "Only the host" in ephemeral_text(answer)
    joined = await fake.click(bob, lobby, label="Join")
    await joined.wait_response()
    full = await fake.click(carol, lobby, label="Join")
    await full.wait_response()
    assert "full" in ephemeral_text(full)
    start = await fake.click(alice, lobby, label="Start")
    await start.wait_response()
    await fake.wait_until(lambda: fake.threads_of(games_channel))
    thread = fake.threads_of(games_channel)[0]
    await fake.wait_until(lambda: fake.messages_in(thread))
    table_message = fake.messages_in(thread)[0]
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    version = teahouse.bot.host.tables[table_id].state.version
    hand = await fake.click(carol, table_message, label="Show my hand")
    await hand.wait_response()
    assert "not playing" in ephemeral_text(hand)
    assert teahouse.bot.host.tables[table_id].state.version == version


@pytest.mark.expect_refusals("Bob's DMs are closed: the fake refuses his DMs with 50007")
async def test_closed_dms_fall_back_to_show_my_hand(
    fake_discord: FakeDiscord, teahouse: RunningBot, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    fake.set_dms_open(bob, False)
    table_id, _ = await open_table(fake, games_channel, alice, bob)
    thread = fake.threads_of(games_channel)[0]
    notice = await fake.wait_until(
        lambda: next(
            (
                m
                for m in fake.messages_in(thread)
                if f"<@{bob}>" in m.content and "direct messages" in m.content
            ),
            None,
        )
    )
    assert notice is not None
    table = teahouse.bot.host.tables[table_id]
    # Bob plays entirely through the ephemeral "Show my hand" answers.
    rng = random.Random(3)
    for _ in range(6):
        # Until the bot has finished with the last move (its prompts carry the new version).
        await fake.wait_until(lambda: table.state.to_act and settled(table))
        seat = table.state.to_act[0]
        user = table.seats[seat].user_id
        version = table.state.version
        if user == bob:
            table_message = fake.messages_in(thread)[0]
            shown = await fake.click(bob, table_message, label="Show my hand")
            await shown.wait_response()
            await fake.wait_until(lambda s=shown: s.followups)
            private = shown.followups[0]
            assert private.ephemeral and private.attachments
            comps = action_components(private)
            assert comps
            inter = await click_some_action(fake, bob, private, comps, rng)
        else:
            message, comps = await eventually(lambda: current_controls(fake, table, alice))
            inter = await click_some_action(fake, alice, message, comps, rng)
        await inter.wait_response()
        assert ephemeral_text(inter) == ""
        await fake.wait_until(lambda v=version: table.state.version > v)
    # The DM that failed with 50007 is never retried.
    dm_posts = [r for r in fake.failed_requests() if r.status == 403]
    assert len(dm_posts) == 1
    assert find_component(fake.messages_in(thread)[0], label="Show my hand")
