"""Discord's real failure modes over the fake, as Discord behaves (docs/architecture.md,
"Discord's failure modes"): a thread archived for inactivity, the table message or its
thread deleted by a moderator, the bot's permissions taken away in the channel, interaction
tokens past their 15 minutes, a gateway disconnect with RESUME and an INVALID_SESSION, a
server error on the interaction callback route. Each test waits for conditions (the fake's
``wait_until``, ``eventually``), never for time."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.i18n import localize
from tests.e2e.fakediscord import (
    ATTACH_FILES,
    SEND_MESSAGES_IN_THREADS,
    FakeDiscord,
    FakeMessage,
)
from tests.e2e.teahouse import (
    RunningBot,
    click_legal_action,
    eventually,
    next_decision,
    play_next_decision,
    settings_for,
    settled,
    start_table,
)

pytestmark = pytest.mark.asyncio


def refusals(fake: FakeDiscord, code: int) -> list[str]:
    """The paths of the requests the fake refused with Discord's JSON error ``code``."""
    return [f"{r.method} {r.path}" for r, body in fake.error_responses if body.get("code") == code]


def latest_line(table) -> str:
    """The table's last event line as the table message shows it."""
    return str(localize(table.locale, table.recent[-1]))


def table_message(fake: FakeDiscord, table) -> FakeMessage | None:
    """The table message the bot has now (None while there is none)."""
    if table.table_message_id is None:
        return None
    message = fake.message(table.table_message_id)
    return None if message.deleted else message


def table_tasks(table) -> list[asyncio.Task]:  # type: ignore[no-untyped-def]
    """The table's tasks (named ``table-<id>-…`` by the host's scheduler)."""
    return [t for t in asyncio.all_tasks() if t.get_name().startswith(f"table-{table.id}-")]


def dms_quiet(table) -> bool:
    """Settled, and no DM work of the table under way (refreshes, retired controls)."""
    if not settled(table) or any(seat.dm_lock.locked() for seat in table.seats):
        return False
    ongoing = [t for t in table_tasks(table) if not t.done()]
    return all(t.get_name().endswith(("-driver", "-updater")) for t in ongoing)


def message_idle(table) -> bool:
    """The table message shows every change: no update waiting or under way."""
    return (
        table.dirty_since is None
        and not table.table_dirty.is_set()
        and not table.edit_lock.locked()
    )


def shows_latest(fake: FakeDiscord, table) -> bool:
    message = table_message(fake, table)
    return message is not None and latest_line(table) in message.content


@pytest.fixture
async def running(fake_discord: FakeDiscord, tmp_path):
    bot = RunningBot(fake_discord, settings_for(str(tmp_path / "faults.db")))
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


# ---------------------------------------------------------------------- the thread archived


@pytest.mark.expect_refusals("an edit in the archived thread is refused with 50083 once")
async def test_a_thread_archived_for_inactivity_is_unarchived_and_the_table_edited(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    await eventually(lambda: settled(table) and message_idle(table))
    thread = fake.channel(table.thread_id)
    # Nobody wrote in the thread for its auto-archive duration: Discord archives it.
    await fake.archive_thread(thread.id)
    await play_next_decision(fake, table, [alice], random.Random(1))
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the table edited")
    assert not thread.archived
    assert refusals(fake, 50083) == [
        f"PATCH /channels/{thread.id}/messages/{table.table_message_id}"
    ]
    assert fake.requests("PATCH", rf"^/channels/{thread.id}$")  # the unarchive


async def test_a_post_in_an_archived_thread_unarchives_it(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    thread = fake.channel(table.thread_id)
    await fake.archive_thread(thread.id)
    posted = len(fake.messages_in(thread.id))
    await running.bot.host.outbox.post(table, "A line for the thread.")
    assert len(fake.messages_in(thread.id)) == posted + 1
    assert not thread.archived and not fake.error_responses


# ---------------------------------------------------------------------- deleted by a moderator


@pytest.mark.expect_refusals("the edit of the deleted table message is refused with 10008")
async def test_a_deleted_table_message_is_posted_again_and_kept_across_a_restart(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    await eventually(lambda: settled(table) and message_idle(table))
    old = table.table_message_id
    await fake.moderator_deletes_message(old)
    await play_next_decision(fake, table, [alice], random.Random(2))
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the table reposted")
    new = table.table_message_id
    assert new != old and refusals(fake, 10008) == [
        f"PATCH /channels/{table.thread_id}/messages/{old}"
    ]
    message = fake.message(new)
    assert message.channel_id == table.thread_id and message.attachments
    assert (await running.bot.store.get_table(table.id)).table_message_id == new

    # After a restart the bot edits the new message, and posts none.
    await running.restart()
    table = await eventually(lambda: running.bot.host.tables.get(table.id))
    edits = fake.plain_edits[new]
    await play_next_decision(fake, table, [alice], random.Random(3))
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the table edited")
    assert table.table_message_id == new and fake.plain_edits[new] > edits
    assert len(refusals(fake, 10008)) == 1


@pytest.mark.expect_refusals("the table message's edit in the deleted thread gets 10003")
async def test_a_deleted_thread_is_replaced_by_a_new_one_that_a_restart_keeps(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    await eventually(lambda: settled(table) and message_idle(table))
    gone, old = table.thread_id, table.table_message_id
    await fake.moderator_deletes_channel(gone)
    await play_next_decision(fake, table, [alice], random.Random(4))
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the table reposted")
    thread = fake.channel(table.thread_id)
    assert thread.id != gone and thread.parent_id == games_channel and thread.is_thread
    assert fake.message(table.table_message_id).channel_id == thread.id
    assert refusals(fake, 10003) == [f"PATCH /channels/{gone}/messages/{old}"]
    row = await running.bot.store.get_table(table.id)
    assert (row.thread_id, row.table_message_id) == (thread.id, table.table_message_id)

    await running.restart()
    table = await eventually(lambda: running.bot.host.tables.get(table.id))
    assert table.thread_id == thread.id
    await play_next_decision(fake, table, [alice], random.Random(5))
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the table edited")
    assert len(refusals(fake, 10003)) == 1


@pytest.mark.expect_refusals("both posts go to the deleted thread first: 10003 twice")
async def test_posts_that_find_the_thread_deleted_at_once_open_one_new_thread(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    await eventually(lambda: settled(table) and message_idle(table))
    gone = table.thread_id
    await fake.moderator_deletes_channel(gone)
    host = running.bot.host
    await asyncio.gather(
        host.outbox.post(table, "First line."), host.outbox.post(table, "Second line.")
    )
    assert len(refusals(fake, 10003)) == 2
    threads = fake.threads_of(games_channel)
    assert threads == [table.thread_id] and table.thread_id != gone
    said = [m.content for m in fake.messages_in(table.thread_id)]
    assert "First line." in said and "Second line." in said
    await fake.wait_until(lambda: table_message(fake, table), 20, what="the table message")
    assert table_message(fake, table).channel_id == table.thread_id


# ---------------------------------------------------------------------- permissions taken away


def host_told(fake: FakeDiscord, user: int, permission: str) -> list[FakeMessage]:
    """The bot's DMs to ``user`` saying it lacks ``permission``."""
    return [
        m
        for m in fake.dms(user)
        if "missing this permission" in m.content and permission in m.content
    ]


def picture_of(message: FakeMessage) -> list[int]:
    return [a.id for a in message.attachment_objects]


async def test_the_host_is_told_what_permission_is_missing_and_the_table_catches_up(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    await eventually(lambda: settled(table) and message_idle(table))
    message = table_message(fake, table)
    picture = picture_of(message)

    # A moderator takes Attach Files from the bot in the channel (Discord tells the bot's
    # cache): the table message goes on without a new picture, the host is told.
    await fake.set_bot_permissions(games_channel, deny=ATTACH_FILES)
    await eventually(
        lambda: (
            not running.bot.get_channel(games_channel)
            .permissions_for(running.bot.get_guild(table.guild_id).me)
            .attach_files
        )
    )
    await play_next_decision(fake, table, [alice], random.Random(6))
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the text edited")
    assert picture_of(message) == picture
    await fake.wait_until(lambda: host_told(fake, alice, "Attach Files"), 20, what="the host told")

    # Then Send Messages in Threads too: nothing can go to the thread, the host is told.
    await fake.set_bot_permissions(games_channel, deny=ATTACH_FILES | SEND_MESSAGES_IN_THREADS)
    await fake.wait_until(
        lambda: host_told(fake, alice, "Send Messages in Threads"), 20, what="the host told"
    )  # (the channel's update alone brings an attempt)
    shown = message.content
    await play_next_decision(fake, table, [alice], random.Random(7))
    await eventually(lambda: settled(table) and message_idle(table))  # (its update tried)
    assert message.content == shown  # not edited meanwhile
    # Nothing was lost: every move is in the log, and Discord refused nothing (the bot
    # knew what it could not do).
    assert len(await running.bot.store.actions(table.id)) == len(table.state.log)
    assert not refusals(fake, 50013)

    # The permissions come back: the table message catches up, picture and all.
    await fake.set_bot_permissions(games_channel)
    await fake.wait_until(
        lambda: shows_latest(fake, table) and picture_of(message) != picture,
        20,
        what="the table message caught up",
    )
    assert len(host_told(fake, alice, "")) == 2


@pytest.mark.expect_refusals("the bot's cache did not see Attach Files go: Discord refuses once")
async def test_a_permission_the_bot_did_not_know_it_lost_is_found_and_tried_again_later(
    fake_discord: FakeDiscord,
    running: RunningBot,
    games_channel: int,
    alice: int,
    bob: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    monkeypatch.setattr("bot.host.recovery.REFUSED_RETRY_DELAYS", (0.5,))
    # Two people: after a move nothing changes until the next one's click, so only the
    # refused update itself, sent again without its picture, can show the move.
    table = await start_table(fake, running.bot, games_channel, alice, guest=bob)
    await eventually(lambda: next_decision(fake, table, [alice, bob]))
    await eventually(lambda: settled(table) and message_idle(table))
    message = table_message(fake, table)
    picture = picture_of(message)
    # A role with Attach Files taken from the bot: its cache does not see it (no intent).
    await fake.set_bot_permissions(games_channel, deny=ATTACH_FILES, announce=False)
    await play_next_decision(fake, table, [alice, bob], random.Random(8))
    # Refused with the picture: sent again without it, and the host is told which.
    await fake.wait_until(lambda: shows_latest(fake, table), 20, what="the text edited")
    await fake.wait_until(lambda: host_told(fake, alice, "Attach Files"), 20, what="the host told")
    assert picture_of(message) == picture
    assert not host_told(fake, alice, "Send Messages")
    # Given back (unannounced too): a later try finds it and the picture follows.
    await fake.set_bot_permissions(games_channel, announce=False)
    await fake.wait_until(lambda: picture_of(message) != picture, 20, what="the picture")
    # (each refused try refused once: no request was repeated into a refusal)
    refused = refusals(fake, 50013)
    assert refused and all(path.startswith("PATCH ") for path in refused)
    assert len(refused) <= 2


# ---------------------------------------------------------------------- expired tokens


def webhook_calls(fake: FakeDiscord, token: str) -> list[int]:
    """Indexes in ``all_requests`` of the requests made through an interaction's token."""
    return [
        n
        for n, r in enumerate(fake.all_requests)
        if r.path.startswith("/webhooks/") and f"/{token}" in r.path
    ]


@pytest.mark.expect_refusals("tokens expired without the bot knowing: Discord answers 401 50027")
async def test_dms_go_plainly_once_discord_refuses_an_expired_click_token(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice, guest=bob)
    rng = random.Random(9)
    for _ in range(8):
        # Every token so far is past its 15 minutes (the bot's clock disagrees: a click
        # is only a moment old to it); the move's own click is new.
        await eventually(lambda: dms_quiet(table))
        fake.expire_tokens()
        await play_next_decision(fake, table, [alice, bob], rng)
    refused = [n for n, (r, body) in enumerate(fake.error_responses) if body.get("code") == 50027]
    assert refused, "no DM went through an expired token"
    for record, body in fake.error_responses:
        if body.get("code") != 50027:
            continue
        token = record.path.split("/")[3]
        statuses = [fake.all_requests[n].status for n in webhook_calls(fake, token)]
        # Refused once, never tried again.
        assert statuses.count(401) == 1 and statuses[-1] == 401, statuses
    # The players' DMs came plainly instead: whoever must decide has controls.
    await eventually(lambda: next_decision(fake, table, [alice, bob]))


async def test_a_click_token_the_bot_knows_is_expired_is_not_tried(
    fake_discord: FakeDiscord,
    running: RunningBot,
    games_channel: int,
    alice: int,
    bob: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.host.tokens as tokens

    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice, guest=bob)
    rng = random.Random(10)
    await play_next_decision(fake, table, [alice, bob], rng)
    await play_next_decision(fake, table, [alice, bob], rng)
    await eventually(lambda: dms_quiet(table) and next_decision(fake, table, [alice, bob]))
    old = [inter.token for inter in fake.interactions]
    since = len(fake.all_requests)
    # 15 minutes pass: the bot's clock for tokens says so, and Discord agrees.
    real = tokens.clock
    monkeypatch.setattr(tokens, "clock", lambda: real() + 15 * 60)
    fake.expire_tokens()
    for _ in range(3):
        await play_next_decision(fake, table, [alice, bob], rng)
    await eventually(lambda: dms_quiet(table) and next_decision(fake, table, [alice, bob]))
    tried = [
        r
        for r in fake.all_requests[since:]
        if r.path.startswith("/webhooks/") and any(t in r.path for t in old)
    ]
    assert tried == [] and not refusals(fake, 50027)


# ---------------------------------------------------------------------- the gateway


async def test_a_click_made_while_the_gateway_is_down_is_replayed_at_the_resume(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    user, (message, comps) = await eventually(lambda: next_decision(fake, table, [alice]))
    identified = fake.identify_count
    fake.hold_gateway()
    await fake.drop_connections()
    # The bot is reconnecting: its new connection waits for Discord's HELLO.
    await fake.wait_until(lambda: fake.gateway_waiting and not fake.connected, 20, what="away")
    version = table.state.version
    seat = table.seat_of(alice).seat
    inter = await click_legal_action(
        fake,
        alice,
        message,
        comps,
        table.state.legal_actions(seat),
        random.Random(11),
        state=table.state,
        seat=seat,
    )
    assert inter.shard is not None and not inter.callback  # kept for the session
    fake.release_gateway()
    await inter.wait_response(timeout=20)
    await eventually(lambda: table.state.version > version)
    assert fake.resume_count == 1 and fake.identify_count == identified
    assert fake.replayed.count("INTERACTION_CREATE") == 1
    assert len(fake.interactions[-1:]) == 1 and inter.callback.type == 6


def running_tasks(table, kind: str) -> int:
    return sum(
        1 for t in table_tasks(table) if t.get_name() == f"table-{table.id}-{kind}" and not t.done()
    )


async def test_an_invalid_session_identifies_anew_and_no_table_is_driven_twice(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: next_decision(fake, table, [alice]))
    assert (running_tasks(table, "driver"), running_tasks(table, "updater")) == (1, 1)
    await fake.invalidate_sessions()
    await fake.wait_until(
        lambda: fake.identify_count == 2 and fake.connected, 20, what="a new IDENTIFY"
    )
    await eventually(lambda: running.bot.is_ready())
    # The table goes on, driven once.
    await play_next_decision(fake, table, [alice], random.Random(12))
    await play_next_decision(fake, table, [alice], random.Random(13))
    assert running.bot.host.tables == {table.id: table}
    assert (running_tasks(table, "driver"), running_tasks(table, "updater")) == (1, 1)
    assert fake.resume_count == 0


# ---------------------------------------------------------------------- a 5xx burst


@pytest.mark.expect_refusals("the click's third try comes after Discord's 3 s: 10062")
async def test_a_click_discord_could_not_take_in_time_is_still_played(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    fake.interaction_deadline = 3.0  # Discord's, for the first answer
    table = await start_table(fake, running.bot, games_channel, alice)
    user, (message, comps) = await eventually(lambda: next_decision(fake, table, [alice]))
    version = table.state.version
    seat = table.seat_of(alice).seat
    # A burst of server errors on the callback route: discord.py tries again after 1 s,
    # then after 3 s more, too late for Discord.
    fake.fail_next("POST /interactions/{iid}/{token}/callback", count=2, status=503)
    inter = await click_legal_action(
        fake,
        alice,
        message,
        comps,
        table.state.legal_actions(seat),
        random.Random(14),
        state=table.state,
        seat=seat,
    )
    route = f"/interactions/{inter.id}/{inter.token}/callback"
    await fake.wait_until(lambda: inter.rejected_callbacks, 20, what="the late third try")
    assert [(r.path, r.status) for r, _ in fake.error_responses if r.status >= 500] == [
        (route, 503),
        (route, 503),
    ]
    assert inter.callback is None and inter.rejected_callbacks[0].code == 10062
    # Alice clicked a legal move: it is made, and the game goes on from her DM.
    await eventually(lambda: table.state.version > version)
    await eventually(lambda: settled(table) and next_decision(fake, table, [alice]))
    assert len(await running.bot.store.actions(table.id)) == len(table.state.log)


async def test_a_post_that_meets_a_burst_of_server_errors_is_posted_later(
    fake_discord: FakeDiscord, running: RunningBot, games_channel: int, alice: int
) -> None:
    """Discord answers the thread's posts with 503 for a moment (discord.py does not try a
    503 again by itself): the post — a deal's summary, a match's "is over" — is tried again
    after a pause, without holding up its caller, and appears once."""
    fake = fake_discord
    table = await start_table(fake, running.bot, games_channel, alice)
    await eventually(lambda: table_message(fake, table) and message_idle(table))
    await eventually(lambda: dms_quiet(table))
    thread = table.channel_for_table
    fake.fail_next("POST /channels/{cid}/messages", count=2, status=503, cid=thread)
    await running.bot.host.outbox.post(table, "🏁 a post in a bad moment")  # returns at once
    assert fake.failures_left == 1  # one try made; the next waits its pause
    posted = await eventually(
        lambda: [m for m in fake.messages_in(thread) if "a bad moment" in m.content],
        timeout=30,
    )
    assert len(posted) == 1 and fake.failures_left == 0
    assert [r.status for r, _ in fake.error_responses if r.status >= 500] == [503, 503]
