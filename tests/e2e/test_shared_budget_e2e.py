"""Two ``python -m bot`` processes of one bot token sharing its REST budget through Redis
(``TEAHOUSE_REDIS_URL``), against a fake Discord that enforces a small global limit: all the
load on one process, which then sends faster than its static half of the budget would let
it, and the token still gets no 429."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from pathlib import Path

from bot.host.shared_budget import bucket_key
from bot.store import Store
from tests.e2e.cluster import BotProcess, bot_environment, open_table, start_and_identify
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.test_cluster_e2e import database  # noqa: F401 (a fixture)
from tests.redis_service import redis_keys, redis_url  # noqa: F401 (fixtures)
from tests.store.conftest import postgres_url  # noqa: F401 (a fixture)

SHARDS = 2
#: The fake's global limit, and the token's budget (90 % of it, as operators set it): a
#: static split would give each process 4.5 requests/s.
GLOBAL_LIMIT = 10
BUDGET = 9.0
TABLES = 6


async def test_one_busy_process_uses_the_whole_shared_budget_without_a_429(
    database: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    redis_keys: list[str],  # noqa: F811
    tmp_path: Path,
) -> None:
    fake = FakeDiscord(shard_count=SHARDS, rate_limits=True, global_limit=GLOBAL_LIMIT)
    await fake.start()
    # Opening DM channels: the fake's 10 per 10 s is a guess (as in the bench).
    fake.ratelimits.set_route_limit("POST /users/@me/channels", 50, 1.0)
    token = f"fake-token-{uuid.uuid4().hex}"  # a bucket of this test's own
    redis_keys += [bucket_key(token), bucket_key(token) + ":gates"]
    guilds = [fake.add_guild(f"Guild {i}", shard=i, shard_count=SHARDS) for i in range(SHARDS)]
    # The busy process's guild: a channel per two tables (a channel's own limits aside).
    channels = [fake.add_text_channel(guilds[1], f"games-{i}") for i in range(TABLES // 2)]
    bots = [
        BotProcess(
            tmp_path,
            bot_environment(
                fake,
                database,
                DISCORD_TOKEN=token,
                TEAHOUSE_SHARD_COUNT=str(SHARDS),
                TEAHOUSE_SHARDS=str(shard),
                TEAHOUSE_REST_BUDGET=str(BUDGET),
                TEAHOUSE_REDIS_URL=redis_url,
                TEAHOUSE_SEED_BASE="shared-budget-e2e",
                TEAHOUSE_NEW_COOLDOWN="0",
                TEAHOUSE_RENDER_PROCESSES="1",
            ),
            name=f"p{shard}",
        )
        for shard in range(SHARDS)
    ]
    store: Store | None = None
    sampler: asyncio.Task[None] | None = None
    try:
        for shard, bot in enumerate(bots):
            await start_and_identify(fake, bot, [shard])
        await fake.wait_until(
            lambda: "koikoi" in {c["name"] for c in fake.commands()},
            timeout=60,
            what="the slash commands",
        )
        store = await Store.open(database)
        limits = fake.ratelimits
        limits.reset_counters()
        # Requests counted toward the global limit, looked at every 50 ms.
        counted: list[tuple[float, int]] = []

        async def sample() -> None:
            loop = asyncio.get_running_loop()
            while True:
                counted.append((loop.time(), sum(limits.calls.values())))
                await asyncio.sleep(0.05)

        sampler = asyncio.create_task(sample())
        # Koi-Koi tables of two people (each start: a thread, the table message, two DM
        # channels and two DMs), all in the guild of shard 1's process.
        users = [[fake.add_user(f"k{i}-p{j}") for j in range(2)] for i in range(TABLES)]
        await asyncio.gather(
            *(
                open_table(fake, store, channels[i % len(channels)], "koikoi", users[i], 0)
                for i in range(TABLES)
            )
        )
        await fake.wait_until(
            lambda: all(fake.dms(u) for pair in users for u in pair),
            timeout=60,
            what="every player's first DM",
        )
        sampler.cancel()
        # The busiest second: more than the static half (4.5/s, and its gate's 4 counted at
        # once) could have sent, so the quiet process's part went to the busy one.
        busiest = max(max(n for t, n in counted if t <= start + 1.0) - n0 for start, n0 in counted)
        assert busiest >= 6, f"at most {busiest} requests in a second"
        assert limits.global_429s == 0
        assert limits.bucket_429s == 0
        problems = fake.problems()
        assert not problems, "the fake Discord saw something wrong:\n" + "\n".join(problems)
    except BaseException:
        for bot in bots:
            print(f"----- {bot.name} (log {bot.log_path.name})\n{bot.log_tail(6000)}")
        raise
    finally:
        if sampler is not None:
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler
        for bot in bots:
            await bot.stop()
        if store is not None:
            await store.close()
        await fake.stop()
