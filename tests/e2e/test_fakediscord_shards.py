"""The fake Discord shards like Discord, and real discord.py clients shard against it.

GET /gateway/bot recommends a shard count, each gateway session identifies as
[shard_id, shard_count], a guild lives on shard (guild_id >> 22) % shard_count and its
events go only to that shard's session; DMs and DM clicks go only to shard 0.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from tests.e2e.fakediscord import (
    CLOSE_INVALID_SHARD,
    CLOSE_SHARDING_REQUIRED,
    SESSION_START_TOTAL,
    FakeDiscord,
    configure_discord_py,
    start_client,
    stop_client,
)

WHERE = {"name": "where", "description": "Say which client answers", "type": 1}


class Recorder:
    """Answers every interaction with its own name and records what reached it."""

    name: str
    seen: list[discord.Interaction]
    threads: list[int]

    def _record_init(self, name: str) -> None:
        self.name = name
        self.seen = []
        self.threads = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)
        await interaction.response.send_message(f"answered by {self.name}")

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.threads.append(thread.id)


class ShardClient(Recorder, discord.Client):
    def __init__(self, name: str, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self._record_init(name)


class AutoShardClient(Recorder, discord.AutoShardedClient):
    def __init__(self, name: str, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self._record_init(name)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s wait between the shards' IDENTIFYs (the fake does not limit them)."""


@dataclass
class World:
    fake: FakeDiscord
    zero: int  # guild on shard 0 of 2
    one: int  # guild on shard 1 of 2
    games0: int
    games1: int
    alice: int


@pytest.fixture
async def world() -> AsyncIterator[World]:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    restore = configure_discord_py(fake)
    zero = fake.add_guild("Zero", shard=0)
    one = fake.add_guild("One", shard=1)
    world = World(
        fake=fake,
        zero=zero,
        one=one,
        games0=fake.add_text_channel(zero, "games"),
        games1=fake.add_text_channel(one, "games"),
        alice=fake.add_user("Alice"),
    )
    try:
        yield world
    finally:
        restore()
        await fake.stop()
    assert not fake.errors and not fake.unknown_routes


@contextlib.asynccontextmanager
async def running(*clients: discord.Client) -> AsyncIterator[None]:
    tasks = []
    try:
        for client in clients:
            tasks.append(await start_client(client))
        yield
    finally:
        for client, task in zip(clients, tasks, strict=False):
            await stop_client(client, task)


async def sync_where(client: discord.Client) -> None:
    assert client.application_id is not None
    await client.http.bulk_upsert_global_commands(client.application_id, [WHERE])


async def raw_identify(fake: FakeDiscord, shard: Any = None) -> tuple[str, Any]:
    """IDENTIFY on a bare websocket: ("close", code) or ("ready", READY's d)."""
    d: dict[str, Any] = {"token": "fake-token", "intents": 0, "properties": {}}
    if shard is not None:
        d["shard"] = shard
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": d})
        msg = await ws.receive(timeout=5)
        if msg.type == aiohttp.WSMsgType.CLOSE:
            return "close", msg.data
        frame = msg.json()
        assert frame["t"] == "READY"
        return "ready", frame["d"]


async def test_gateway_bot_recommends_the_shard_count(world: World):
    fake = world.fake
    url = f"{fake.api_base}/gateway/bot"
    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(url) as resp:
            body = await resp.json()
        assert body == {
            "url": fake.gateway_url,
            "shards": 2,
            "session_start_limit": {
                "total": SESSION_START_TOTAL,
                "remaining": SESSION_START_TOTAL,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }
        assert (await raw_identify(fake, [0, 2]))[0] == "ready"
        fake.recommended_shards = 3
        async with session.get(url) as resp:
            body = await resp.json()
    assert body["shards"] == 3 == fake.shard_count
    limit = body["session_start_limit"]
    assert limit["remaining"] == SESSION_START_TOTAL - 1
    assert 0 < limit["reset_after"] <= 24 * 60 * 60 * 1000


def test_guilds_can_be_placed_on_chosen_shards():
    fake = FakeDiscord(shard_count=4)
    ids = []
    for count in (1, 2, 3, 4, 7):
        for shard in reversed(range(count)):
            gid = fake.add_guild(f"g{shard}/{count}", shard=shard, shard_count=count)
            assert (gid >> 22) % count == shard == fake.shard_of(gid, count)
            ids.append(gid)
    assert ids == sorted(set(ids))  # fresh, increasing snowflakes
    assert fake.shard_of(fake.add_guild("default", shard=3)) == 3  # the fake's count
    with pytest.raises(ValueError):
        fake.add_guild("nowhere", shard=2, shard_count=2)


async def test_each_shard_sees_only_its_guilds(world: World):
    fake = world.fake
    client0 = ShardClient("zero", shard_id=0, shard_count=2)
    client1 = ShardClient("one", shard_id=1, shard_count=2)
    async with running(client0, client1):
        assert [g.id for g in client0.guilds] == [world.zero]
        assert [g.id for g in client1.guilds] == [world.one]
        assert client1.get_channel(world.games1) is not None
        assert client1.get_channel(world.games0) is None
        assert fake.live_shards == [(0, 2), (1, 2)]
        assert fake.identified_shards == [(0, 2), (1, 2)]
        assert fake.guilds_on_shard(1) == [world.one]


async def test_guild_events_reach_only_the_guilds_shard(world: World):
    fake = world.fake
    client0 = ShardClient("zero", shard_id=0, shard_count=2)
    client1 = ShardClient("one", shard_id=1, shard_count=2)
    async with running(client0, client1):
        await sync_where(client0)
        inter = await fake.slash(world.alice, world.games1, "where")
        await inter.wait_response()
        assert inter.shard == (1, 2)
        assert inter.original is not None and inter.original.content == "answered by one"
        assert [i.id for i in client1.seen] == [inter.id] and client0.seen == []

        inter = await fake.slash(world.alice, world.games0, "where")
        await inter.wait_response()
        assert inter.shard == (0, 2) and inter.original.content == "answered by zero"

        # A thread started in guild One by shard 0's process (REST is shard-agnostic) is
        # announced to shard 1 only.
        thread = await client0.http.start_thread_without_message(
            world.games1, name="table", auto_archive_duration=1440, type=11
        )
        await fake.wait_until(lambda: client1.threads)
        assert client1.threads == [int(thread["id"])] and client0.threads == []


async def test_dm_interactions_reach_only_shard_zero(world: World):
    fake = world.fake
    client0 = ShardClient("zero", shard_id=0, shard_count=2)
    client1 = ShardClient("one", shard_id=1, shard_count=2)
    async with running(client0, client1):
        await sync_where(client1)
        # Shard 1's process sends the DM with a button; the click goes to shard 0.
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Where", custom_id="where"))
        user = await client1.fetch_user(world.alice)
        await user.send("a hand", view=view)
        (dm,) = fake.dms(world.alice)
        click = await fake.click(world.alice, dm, "where")
        await click.wait_response()
        assert click.shard == (0, 2) and click.original.content == "answered by zero"
        assert [i.id for i in client0.seen] == [click.id] and client1.seen == []

        dm_channel = fake.dm_channel_of(world.alice)
        assert dm_channel is not None
        slash = await fake.slash(world.alice, dm_channel, "where")
        await slash.wait_response()
        assert slash.shard == (0, 2) and len(client0.seen) == 2 and client1.seen == []

        # Without a session on shard 0, DM clicks and guild Zero's commands go nowhere
        # (Discord would fail them after 3 s); guild One still works.
        await client0.close()
        await fake.wait_until(lambda: fake.live_shards == [(1, 2)])
        lost = await fake.click(world.alice, dm, "where")
        assert lost.shard is None
        with pytest.raises(TimeoutError):
            await lost.wait_response(timeout=0.5)
        lost_guild = await fake.slash(world.alice, world.games0, "where")
        assert lost_guild.shard is None
        assert [d["id"] for _, d in fake.undelivered] == [str(lost.id), str(lost_guild.id)]
        ok = await fake.slash(world.alice, world.games1, "where")
        await ok.wait_response()
        assert ok.shard == (1, 2) and client1.seen[-1].id == ok.id


@pytest.mark.parametrize("shard_count", [2, None], ids=["given", "from-gateway-bot"])
async def test_an_auto_sharded_client_gets_every_shard(world: World, shard_count: int | None):
    fake = world.fake
    client = AutoShardClient("auto", shard_count=shard_count)
    async with running(client):
        assert client.shard_count == 2
        assert sorted(client.shards) == [0, 1]
        assert sorted(g.id for g in client.guilds) == sorted([world.zero, world.one])
        assert fake.live_shards == [(0, 2), (1, 2)]
        asked = fake.requests("GET", r"^/gateway/bot$")
        assert len(asked) == (1 if shard_count is None else 0)
        await sync_where(client)
        for channel in (world.games0, world.games1):
            inter = await fake.slash(world.alice, channel, "where")
            await inter.wait_response()
            assert inter.original.content == "answered by auto"
        user = await client.fetch_user(world.alice)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Where", custom_id="where"))
        await user.send("a hand", view=view)
        click = await fake.click(world.alice, fake.dms(world.alice)[0], "where")
        await click.wait_response()
        shards = [i.shard for i in fake.interactions]
        assert shards == [(0, 2), (1, 2), (0, 2)]
        assert [i.guild_id for i in client.seen] == [world.zero, world.one, None]


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0", [True, 2]])
async def test_an_invalid_shard_is_closed_with_4010(world: World, shard: Any):
    assert await raw_identify(world.fake, shard) == ("close", CLOSE_INVALID_SHARD)
    assert world.fake.refused_identifies == [(CLOSE_INVALID_SHARD, shard)]
    assert world.fake.identify_count == 0


async def test_discord_py_stops_on_4010(world: World):
    client = ShardClient("bad", shard_id=2, shard_count=2)
    with pytest.raises(discord.ConnectionClosed) as excinfo:
        await start_client(client)
    assert excinfo.value.code == CLOSE_INVALID_SHARD
    await client.close()


async def test_too_many_guilds_for_one_session_is_4011(world: World):
    world.fake.max_guilds_per_shard = 1
    assert await raw_identify(world.fake) == ("close", CLOSE_SHARDING_REQUIRED)
    kind, ready = await raw_identify(world.fake, [1, 2])
    assert kind == "ready" and ready["shard"] == [1, 2]
    assert [g["id"] for g in ready["guilds"]] == [str(world.one)]
