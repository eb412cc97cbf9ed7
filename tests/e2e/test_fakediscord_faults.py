"""The fake Discord's failure modes, over raw HTTP on a manual clock: they answer as Discord
does (status, JSON code and message) — see docs/architecture.md, "Discord's failure modes"."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from tests.e2e.fakediscord import (
    API_VERSION,
    ATTACH_FILES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    TOKEN_LIFETIME_S,
    FakeDiscord,
)
from tests.e2e.test_fakediscord_ratelimits import AUTH, Clock, _register_interaction, call, post

pytestmark = pytest.mark.asyncio


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def world(clock: Clock):
    """A fake on a manual clock with a guild, its channel "games", a thread in it and Alice."""
    fake = FakeDiscord(clock=clock)
    await fake.start()
    guild = fake.add_guild("G")
    games = fake.add_text_channel(guild, "games")
    thread = await fake._create_thread(fake.channel(games), {"name": "table"})
    fake.add_user("Alice")
    async with aiohttp.ClientSession() as session:
        yield fake, session, games, thread.id
    await fake.stop()


def error(body: dict) -> tuple[int, str]:
    return body["code"], body["message"]


async def post_file(fake: FakeDiscord, session: aiohttp.ClientSession, channel_id: int):
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "picture", "attachments": [{"id": 0}]}')
    form.add_field("files[0]", b"\x89PNG", filename="t.png", content_type="image/png")
    url = f"{fake.api_base}/channels/{channel_id}/messages"
    async with session.post(url, data=form, headers=AUTH) as resp:
        return resp.status, await resp.json()


async def test_an_archived_thread_takes_a_post_and_unarchives_but_refuses_an_edit(world) -> None:
    fake, session, _, thread = world
    status, message, _ = await post(fake, session, thread)
    assert status == 200
    await fake.archive_thread(thread)
    edit = f"/channels/{thread}/messages/{message['id']}"
    status, body, _ = await call(fake, session, "PATCH", edit, {"content": "edited"})
    assert (status, error(body)) == (400, (50083, "Thread is archived"))
    status, _, _ = await post(fake, session, thread)
    assert status == 200 and not fake.channel(thread).archived
    status, _, _ = await call(fake, session, "PATCH", edit, {"content": "edited"})
    assert status == 200


async def test_what_a_moderator_deleted_is_unknown(world) -> None:
    fake, session, games, thread = world
    status, message, _ = await post(fake, session, games)
    await fake.moderator_deletes_message(int(message["id"]))
    status, body, _ = await call(
        fake, session, "PATCH", f"/channels/{games}/messages/{message['id']}", {"content": "x"}
    )
    assert (status, error(body)) == (404, (10008, "Unknown Message"))
    await fake.moderator_deletes_channel(thread)
    status, body, _ = await post(fake, session, thread)
    assert (status, error(body)) == (404, (10003, "Unknown Channel"))
    assert fake.deleted_messages == []  # (deleted by others, not by the bot)


async def test_permissions_taken_from_the_bot_are_refused_in_the_channel_and_its_threads(
    world,
) -> None:
    fake, session, games, thread = world
    await fake.set_bot_permissions(games, deny=ATTACH_FILES)
    overwrites = (await call(fake, session, "GET", f"/channels/{games}"))[1][
        "permission_overwrites"
    ]
    assert overwrites == [
        {"id": str(fake.bot_user_id), "type": 1, "allow": "0", "deny": str(ATTACH_FILES)}
    ]
    assert (await post(fake, session, thread))[0] == 200  # text goes
    status, body = await post_file(fake, session, thread)  # a file does not
    assert (status, error(body)) == (403, (50013, "Missing Permissions"))
    await fake.set_bot_permissions(games, deny=SEND_MESSAGES_IN_THREADS)
    assert (await post(fake, session, games))[0] == 200
    status, body, _ = await post(fake, session, thread)
    assert (status, error(body)) == (403, (50013, "Missing Permissions"))
    await fake.set_bot_permissions(games, deny=SEND_MESSAGES)
    assert (await post(fake, session, games))[0] == 403
    await fake.set_bot_permissions(games)  # given back
    assert (await post_file(fake, session, thread))[0] == 200
    assert fake.channel(games).overwrites == {}


async def test_an_interaction_token_expires_after_15_minutes(world, clock: Clock) -> None:
    fake, session, games, _ = world
    alice = fake.user_named("Alice")
    inter = _register_interaction(fake, alice, games)
    inter.created_clock = clock()
    status, _, _ = await call(
        fake, session, "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 6}
    )
    hook = f"/webhooks/{fake.application_id}/{inter.token}"
    clock.advance(TOKEN_LIFETIME_S)
    assert (await call(fake, session, "POST", hook, {"content": "in time"}))[0] == 204
    clock.advance(1)
    for method, path in (("POST", hook), ("PATCH", hook + "/messages/@original")):
        status, body, _ = await call(fake, session, method, path, {"content": "late"})
        assert (status, error(body)) == (401, (50027, "Invalid Webhook Token"))
    other = _register_interaction(fake, alice, games)
    await call(
        fake, session, "POST", f"/interactions/{other.id}/{other.token}/callback", {"type": 6}
    )
    fake.expire_tokens()
    hook = f"/webhooks/{fake.application_id}/{other.token}"
    assert (await call(fake, session, "POST", hook, {"content": "x"}))[0] == 401


async def test_a_client_gone_mid_request_is_no_problem_of_the_fake(world) -> None:
    """A process killed with kill -9 while it sent a request leaves the fake a request whose
    body never ends: that is a dropped request, not a bug of the fake nor a refusal, so the
    e2e teardown (``problems``) does not fail on it; the message is left as it was."""
    fake, session, games, _ = world
    status, message, _ = await post(fake, session, games)
    assert status == 200
    body = b'{"content": "an edit that never arrives"}'
    port = int(fake.base_url.rsplit(":", 1)[1])
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    path = f"/api/v{API_VERSION}/channels/{games}/messages/{message['id']}"
    writer.write(
        f"PATCH {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {AUTH['Authorization']}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body[:10]
    )
    await writer.drain()
    await asyncio.sleep(0.2)  # (the fake is reading the body now)
    writer.transport.abort()  # the process dies: the connection is reset
    for _ in range(100):
        if fake.dropped:
            break
        await asyncio.sleep(0.02)
    assert fake.dropped == [f"PATCH /channels/{games}/messages/{message['id']}"]
    assert fake.problems() == []
    assert fake.message(int(message["id"])).content == message["content"]
