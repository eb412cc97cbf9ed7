"""The replay cog's limits: pictures drawn after the games' own, steps paced per user, the
cache bounded in bytes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import cogs.leaderboard
import cogs.replay
from bot.host.budget import Priority
from bot.replay.core import Replayer
from cogs.replay import MIB, ReplayCache, StepPacer
from tests.host.offline import offline_host
from tests.replay.helpers import play, record_of


async def test_replay_leaderboard_and_stats_pictures_wait_behind_the_games(tmp_path) -> None:
    """They go to the render pool at the lowest priority (BACKGROUND), not at the
    decisions' (a replay step is ~300 ms of drawing)."""
    host = await offline_host(str(tmp_path / "p.db"))
    asked: list[Priority] = []

    async def in_render_pool(priority, fn, *args):
        asked.append(priority)
        return b"\x89PNG"

    host.ctx.in_render_pool = in_render_pool  # type: ignore[method-assign]
    bot = SimpleNamespace(host=host, settings=host.settings)
    try:
        record = record_of(play("koikoi", "priority"))
        await cogs.replay.render(bot, record, "key", 0)  # type: ignore[arg-type]
        board = cogs.leaderboard.Leaderboard(bot)  # type: ignore[arg-type]
        assert await board._picture(lambda data: b"png", {}, "leaderboard.png") is not None
        assert asked == [Priority.BACKGROUND, Priority.BACKGROUND]
        assert max(Priority) == Priority.BACKGROUND > Priority.DECISION
    finally:
        await host.store.close()


def test_a_user_stepping_too_fast_is_paced_and_others_are_not() -> None:
    now = [0.0]
    pacer = StepPacer(rate=1.0, burst=3, clock=lambda: now[0])
    assert [pacer.allow(1) for _ in range(4)] == [True, True, True, False]
    assert pacer.allow(2)  # another user has a bucket of their own
    now[0] += 0.5
    assert not pacer.allow(1)
    now[0] += 0.5  # one step back per second
    assert pacer.allow(1) and not pacer.allow(1)
    now[0] += 100
    assert [pacer.allow(1) for _ in range(4)] == [True, True, True, False]  # burst at most


@pytest.fixture(scope="module")
def replayers() -> list[Replayer]:
    return [Replayer(record_of(play("koikoi", f"cache-{i}"), table_id=i)) for i in range(4)]


def test_the_replay_cache_is_bounded_in_bytes(replayers: list[Replayer]) -> None:
    """Entries go, least recently used first, once their ``memory_bytes`` pass the
    budget; one larger than the whole budget is not kept."""
    weight = max(rp.memory_bytes for rp in replayers)
    assert weight > 10_000  # checkpoints of the state: not nothing
    cache = ReplayCache(size=32, max_bytes=2 * weight + weight // 2)
    for rp in replayers:
        cache._keep(rp.record.table_id, (None, rp.record, "k", rp))
        assert cache.bytes <= cache.max_bytes
    assert list(cache._entries) == [2, 3]
    assert cache.bytes == sum(r.memory_bytes for r in replayers[2:])
    small = ReplayCache(max_bytes=replayers[0].memory_bytes - 1)
    small._keep(9, (None, replayers[0].record, "k", replayers[0]))
    assert not small._entries and small.bytes == 0


def test_the_cache_budget_comes_from_the_settings() -> None:
    bot = SimpleNamespace(settings=SimpleNamespace(replay_cache_mb=5))
    assert cogs.replay._cache(bot).max_bytes == 5 * MIB  # type: ignore[arg-type]
    assert ReplayCache().max_bytes == 64 * MIB


@pytest.mark.parametrize("game", ["panda", "mahjong"])
def test_a_replayers_memory_estimate_is_near_what_it_holds(game: str) -> None:
    """``memory_bytes`` (what the cache's budget counts) is within a factor of 2 of the
    memory building the replayer took (tracemalloc)."""
    import gc
    import tracemalloc

    record = record_of(play(game, f"memory-{game}"))
    Replayer(record)  # (warm the games' own caches first: not the replayer's)
    gc.collect()
    tracemalloc.start()
    try:
        rp = Replayer(record)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held / 2 <= rp.memory_bytes <= held * 2, (rp.memory_bytes, held)
