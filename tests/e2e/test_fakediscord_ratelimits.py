"""The fake Discord enforces Discord's rate limits, and discord.py copes with its answers.

Raw HTTP tests step a manual clock, so they check counts and headers without timing; the
tests with the real client use the wall clock with short windows.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest

from tests.e2e.fakediscord import (
    MESSAGE_COMPONENT,
    FakeDiscord,
    FakeInteraction,
    configure_discord_py,
    start_client,
    stop_client,
)
from tests.e2e.test_fakediscord import make_bot

AUTH = {"Authorization": "Bot fake-token"}
MESSAGES = "POST /channels/{cid}/messages"


class Clock:
    """Epoch seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1_750_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def world(clock: Clock):
    """A fake on a manual clock, with a guild, two channels, Alice (open DMs), Bob (closed)."""
    fake = FakeDiscord(clock=clock)
    await fake.start()
    guild = fake.add_guild("G")
    fake.add_text_channel(guild, "one")
    fake.add_text_channel(guild, "two")
    fake.add_user("Alice")
    fake.add_user("Bob", dms_open=False)
    async with aiohttp.ClientSession() as session:
        yield fake, session
    await fake.stop()


async def call(
    fake: FakeDiscord,
    session: aiohttp.ClientSession,
    method: str,
    path: str,
    body: Any = None,
    *,
    auth: bool = True,
) -> tuple[int, Any, Any]:
    """(status, JSON body or text, headers) of one request."""
    async with session.request(
        method, fake.api_base + path, json=body, headers=AUTH if auth else {}
    ) as resp:
        if resp.content_type == "application/json":
            data = await resp.json()
        else:
            data = await resp.text()
        return resp.status, data, resp.headers


async def post(fake, session, channel_id: int, text: str = "hi"):
    return await call(fake, session, "POST", f"/channels/{channel_id}/messages", {"content": text})


async def test_bucket_headers_present_and_decreasing(world, clock: Clock):
    fake, session = world
    one = fake.channel_named("one")
    remaining, hashes = [], set()
    for n in range(5):
        status, _, headers = await post(fake, session, one)
        assert status == 200
        assert headers["X-RateLimit-Limit"] == "5"
        assert float(headers["X-RateLimit-Reset"]) == pytest.approx(clock.now + 5 - n * 0.5)
        assert float(headers["X-RateLimit-Reset-After"]) == pytest.approx(5 - n * 0.5)
        assert headers["Via"]
        remaining.append(int(headers["X-RateLimit-Remaining"]))
        hashes.add(headers["X-RateLimit-Bucket"])
        clock.advance(0.5)
    assert remaining == [4, 3, 2, 1, 0]
    (message_bucket,) = hashes
    assert len(message_bucket) == 32

    # Another channel: the same bucket hash, its own counts.
    status, _, headers = await post(fake, session, fake.channel_named("two"))
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    assert headers["X-RateLimit-Bucket"] == message_bucket

    # Editing is another bucket; adding and removing a reaction share one.
    mid = fake.messages_in(one)[0].id
    status, _, headers = await call(
        fake, session, "PATCH", f"/channels/{one}/messages/{mid}", {"content": "edited"}
    )
    assert status == 200 and headers["X-RateLimit-Bucket"] != message_bucket
    assert headers["X-RateLimit-Remaining"] == "4"
    react = f"/channels/{one}/messages/{mid}/reactions/%F0%9F%8D%B5/@me"
    _, _, added = await call(fake, session, "PUT", react)
    clock.advance(0.25)
    _, _, removed = await call(fake, session, "DELETE", react)
    assert added["X-RateLimit-Bucket"] == removed["X-RateLimit-Bucket"] != message_bucket
    assert added["X-RateLimit-Limit"] == "1"


async def test_sixth_message_within_5_s_is_refused_until_retry_after(world, clock: Clock):
    fake, session = world
    one, two = fake.channel_named("one"), fake.channel_named("two")
    for _ in range(5):
        assert (await post(fake, session, one))[0] == 200
        clock.advance(0.2)
    status, body, headers = await post(fake, session, one, "sixth")
    assert status == 429
    assert body["global"] is False and body["message"] == "You are being rate limited."
    assert body["retry_after"] == pytest.approx(4.0)
    assert headers["X-RateLimit-Scope"] == "user"
    assert headers["Retry-After"] == "4"
    assert headers["X-RateLimit-Remaining"] == "0" and "X-RateLimit-Global" not in headers
    assert headers["Via"]  # else discord.py takes it for a Cloudflare ban
    assert [m.content for m in fake.messages_in(one)] == ["hi"] * 5

    # Other channels have buckets of their own.
    assert (await post(fake, session, two))[0] == 200

    clock.advance(body["retry_after"] - 0.01)
    assert (await post(fake, session, one))[0] == 429
    clock.advance(0.01)
    status, _, headers = await post(fake, session, one, "sixth")
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    assert fake.messages_in(one)[-1].content == "sixth"

    limits = fake.ratelimits
    assert limits.bucket_429s == 2 and limits.global_429s == 0
    assert limits.calls[MESSAGES] == 9
    assert limits.rate_limited_routes == {MESSAGES: 2}


async def test_global_limit_across_channels(clock: Clock):
    async with FakeDiscord(clock=clock, global_limit=50) as fake:
        guild = fake.add_guild("G")
        channels = [fake.add_text_channel(guild, f"c{n}") for n in range(51)]
        async with aiohttp.ClientSession() as session:
            for channel in channels[:50]:
                assert (await post(fake, session, channel))[0] == 200
            clock.advance(0.75)
            status, body, headers = await post(fake, session, channels[50])
            assert status == 429
            assert body["global"] is True and body["retry_after"] == pytest.approx(0.25)
            assert headers["X-RateLimit-Global"] == "true"
            assert headers["X-RateLimit-Scope"] == "global"
            assert headers["Retry-After"] == "1"
            # Another token has a budget of its own.
            async with session.post(
                f"{fake.api_base}/channels/{channels[50]}/messages",
                json={"content": "x"},
                headers={"Authorization": "Bot other-token"},
            ) as resp:
                assert resp.status == 200
            clock.advance(0.25)
            assert (await post(fake, session, channels[50]))[0] == 200
        assert fake.ratelimits.global_429s == 1 and fake.ratelimits.bucket_429s == 0
        assert fake.ratelimits.calls[MESSAGES] == 53


async def test_raised_global_limit(clock: Clock):
    async with FakeDiscord(clock=clock, global_limit=120) as fake:
        guild = fake.add_guild("G")
        channels = [fake.add_text_channel(guild, f"c{n}") for n in range(121)]
        async with aiohttp.ClientSession() as session:
            statuses = [(await post(fake, session, c))[0] for c in channels]
        assert statuses == [200] * 120 + [429]


def _register_interaction(fake: FakeDiscord, user_id: int, channel_id: int) -> FakeInteraction:
    """An interaction the fake knows about, without a bot to dispatch it to."""
    message = fake._create_message(fake.channel(channel_id), {"content": "board"}, [])
    iid, token, payload = fake._base_interaction(
        MESSAGE_COMPONENT, user_id, fake.channel(channel_id), {"custom_id": "x"}, "en-US"
    )
    inter = FakeInteraction(
        id=iid,
        token=token,
        type=MESSAGE_COMPONENT,
        user_id=user_id,
        channel_id=channel_id,
        payload=payload,
        message_id=message.id,
    )
    inter._fake = fake
    fake._interactions[iid] = inter
    fake._by_token[token] = inter
    return inter


async def test_interaction_callbacks_and_followups_are_exempt(clock: Clock):
    async with FakeDiscord(clock=clock, global_limit=3) as fake:
        guild = fake.add_guild("G")
        channels = [fake.add_text_channel(guild, f"c{n}") for n in range(4)]
        alice = fake.add_user("Alice")
        async with aiohttp.ClientSession() as session:
            for channel in channels[:3]:
                assert (await post(fake, session, channel))[0] == 200
            assert (await post(fake, session, channels[3]))[0] == 429  # the budget is spent
            for channel in channels:
                inter = _register_interaction(fake, alice, channel)
                base = f"/interactions/{inter.id}/{inter.token}/callback"
                # Callbacks carry no Authorization header, like discord.py's.
                status, _, headers = await call(
                    fake, session, "POST", base, {"type": 6}, auth=False
                )
                assert status == 204 and "X-RateLimit-Bucket" in headers
                hook = f"/webhooks/{fake.application_id}/{inter.token}"
                status, _, _ = await call(
                    fake, session, "POST", hook + "?wait=true", {"content": "f"}
                )
                assert status == 200
                status, _, _ = await call(
                    fake, session, "PATCH", hook + "/messages/@original", {"content": "e"}
                )
                assert status == 200
        limits = fake.ratelimits
        assert limits.global_429s == 1
        assert limits.exempt_calls == {
            "POST /interactions/{iid}/{token}/callback": 4,
            "POST /webhooks/{app}/{token}": 4,
            "PATCH /webhooks/{app}/{token}/messages/{mid}": 4,
        }
        assert limits.calls == {MESSAGES: 4}
        assert limits.summary()["exempt_calls"] == 12


async def test_invalid_requests_are_counted_and_end_in_a_ban(clock: Clock):
    async with FakeDiscord(clock=clock, invalid_request_limit=6) as fake:
        guild = fake.add_guild("G")
        channel = fake.add_text_channel(guild, "one")
        bob = fake.add_user("Bob", dms_open=False)
        dm = fake.open_dm(bob)
        limits = fake.ratelimits
        async with aiohttp.ClientSession() as session:
            assert (await post(fake, session, dm))[0] == 403  # 50007: closed DMs
            status, body, _ = await call(fake, session, "GET", "/users/@me", auth=False)
            assert status == 401 and body["message"] == "401: Unauthorized"
            assert (await call(fake, session, "GET", f"/channels/{channel + 1}"))[0] == 404
            assert limits.invalid_requests == 2  # 404 is not counted
            for _ in range(6):
                await post(fake, session, channel)
            assert limits.invalid_requests == 3  # the sixth message: 429
            # A 429 of a shared bucket does not count.
            limits.set_route_limit("POST /channels/{cid}/typing", 1, 5.0, scope="shared")
            await call(fake, session, "POST", f"/channels/{channel}/typing")
            status, _, headers = await call(fake, session, "POST", f"/channels/{channel}/typing")
            assert status == 429 and headers["X-RateLimit-Scope"] == "shared"
            assert limits.invalid_requests == 3 and limits.rate_limited["shared"] == 1

            # Ten minutes later the window has forgotten them.
            clock.advance(601)
            assert limits.invalid_requests == 0 and limits.invalid_requests_total == 3
            for _ in range(6):
                await post(fake, session, dm)
            assert limits.banned and limits.invalid_requests == 6
            # Banned: Cloudflare's text 429 without Via, for every route.
            status, body, headers = await post(fake, session, channel)
            assert status == 429 and body == "error code: 1015" and "Via" not in headers
            assert (await call(fake, session, "GET", "/users/@me"))[0] == 429
            assert limits.banned_requests == 2
            clock.advance(limits.ban_seconds)
            assert (await post(fake, session, channel))[0] == 200
        assert limits.summary()["invalid_requests_total"] == 9


async def test_enforcement_can_be_turned_off(clock: Clock):
    async with FakeDiscord(clock=clock, rate_limits=False, global_limit=1) as fake:
        channel = fake.add_text_channel(fake.add_guild("G"), "one")
        async with aiohttp.ClientSession() as session:
            for _ in range(10):
                status, _, headers = await post(fake, session, channel)
                assert status == 200 and "X-RateLimit-Bucket" not in headers
        assert fake.ratelimits.calls[MESSAGES] == 10
        assert not fake.ratelimits.rate_limited


# ---------------------------------------------------------------------- the real client


@pytest.fixture
async def live():
    """A wall-clock fake with a guild, a channel and Alice, and the demo bot connected."""
    fake = FakeDiscord()
    await fake.start()
    restore = configure_discord_py(fake)
    guild_id = fake.add_guild("G")
    channel_id = fake.add_text_channel(guild_id, "games")
    fake.add_user("Alice")
    bot = make_bot(guild_id)
    task = await start_client(bot)
    try:
        yield fake, bot, channel_id
    finally:
        await stop_client(bot, task)
        restore()
        await fake.stop()


async def test_client_waits_out_a_bucket_429(live):
    fake, bot, channel_id = live
    # Short windows keep the test quick; the mechanics are Discord's.
    fake.ratelimits.set_route_limit(MESSAGES, 5, 1.0)
    channel = bot.get_channel(channel_id)
    # Another process with the same token (say a second shard) spends the bucket first:
    # discord.py cannot know, sends, gets a 429, sleeps retry_after and tries again.
    async with aiohttp.ClientSession() as session:
        for n in range(5):
            assert (await post(fake, session, channel_id, f"other {n}"))[0] == 200
    sent = await asyncio.wait_for(asyncio.gather(*(channel.send(f"msg {n}") for n in range(8))), 15)
    assert len(sent) == 8
    contents = [m.content for m in fake.messages_in(channel_id)]
    assert sorted(contents[5:]) == sorted(f"msg {n}" for n in range(8))
    assert fake.ratelimits.bucket_429s >= 1
    assert fake.ratelimits.rate_limited_routes[MESSAGES] >= 1
    assert not fake.errors


async def test_client_alone_respects_the_bucket_headers(live):
    fake, bot, channel_id = live
    fake.ratelimits.set_route_limit(MESSAGES, 5, 1.0)
    channel = bot.get_channel(channel_id)
    await asyncio.wait_for(asyncio.gather(*(channel.send(f"msg {n}") for n in range(8))), 15)
    assert len(fake.messages_in(channel_id)) == 8
    # discord.py reads X-RateLimit-Remaining and waits before the sixth: no 429.
    assert fake.ratelimits.bucket_429s == 0


async def test_client_waits_out_a_global_429(live):
    fake, bot, channel_id = live
    fake.ratelimits.global_limit = 10
    channels = [fake.add_text_channel(fake.guild_ids[0], f"c{n}") for n in range(15)]
    # 15 channels, 15 buckets: discord.py sends all at once, and knows no global budget.
    sent = await asyncio.wait_for(
        asyncio.gather(
            *(discord.PartialMessageable(state=bot._connection, id=c).send("x") for c in channels)
        ),
        15,
    )
    assert len(sent) == 15
    assert all(len(fake.messages_in(c)) == 1 for c in channels)
    assert fake.ratelimits.global_429s >= 1


async def test_client_interaction_answers_are_exempt(live):
    fake, bot, channel_id = live
    await bot.tree.sync(guild=discord.Object(fake.guild_ids[0]))
    alice = fake.user_named("Alice")
    inter = await fake.slash(alice, channel_id, "demo ping")
    await inter.wait_response()
    limits = fake.ratelimits
    assert limits.exempt_calls["POST /interactions/{iid}/{token}/callback"] == 1
    assert not any("interactions" in route for route in limits.calls)
    assert limits.calls["GET /users/@me"] == 1  # login
