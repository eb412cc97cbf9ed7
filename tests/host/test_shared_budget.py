"""The bot token's REST budget shared live through Redis (bot/host/shared_budget.py): two
processes' budgets drawing from one bucket stay within its rate together, an idle one
leaves the whole rate to a busy one, priorities stay each process's own, and a process that
loses Redis sends at its static share, says so once, and shares again once Redis is back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid

import pytest

from bot.config import ConfigError, Settings
from bot.host.base import rest_budget
from bot.host.budget import Priority, RestBudget
from bot.host.shared_budget import GateCount, SharedBucket, SharedBucketDown
from tests.host.test_budget import served_in_order

RATE = 40.0
BURST = 2.0


def _shared(url: str, token: str, keys: list[str]) -> SharedBucket:
    bucket = SharedBucket(url, token, RATE, BURST)
    keys += [bucket.key, bucket.gates_key]
    return bucket


def _token() -> str:
    return f"test-token-{uuid.uuid4()}"


async def _spend(budget: RestBudget, until: float, granted: list[float]) -> None:
    """Acquire as fast as granted until ``until`` (loop time), noting each grant's time."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        await budget.acquire(Priority.DM)
        granted.append(loop.time())


async def _close(*budgets: RestBudget) -> None:
    for budget in budgets:
        budget.close()
        await budget.close_shared()


async def test_two_processes_together_stay_within_the_shared_rate(
    redis_url: str, redis_keys: list[str]
) -> None:
    token = _token()
    a = RestBudget(RATE, shared=_shared(redis_url, token, redis_keys), fallback_rate=RATE / 2)
    b = RestBudget(RATE, shared=_shared(redis_url, token, redis_keys), fallback_rate=RATE / 2)
    loop = asyncio.get_running_loop()
    start = loop.time()
    seconds = 2.0
    got_a: list[float] = []
    got_b: list[float] = []
    try:
        await asyncio.wait_for(
            asyncio.gather(_spend(a, start + seconds, got_a), _spend(b, start + seconds, got_b)),
            seconds + 5,
        )
    finally:
        await _close(a, b)
    elapsed = max(got_a + got_b) - start
    total = len(got_a) + len(got_b)
    # Together no more than the bucket gives (its burst, then its rate), however they race.
    assert total <= RATE * elapsed + BURST + 1
    # And they use it: most of the rate, and they take turns — a process refused a token
    # is owed the next one. (Before, whoever's loop woke first after a refill took it: on
    # a loaded machine one process got 2 of 83.)
    assert total >= 0.8 * RATE * seconds
    assert min(len(got_a), len(got_b)) >= 0.35 * total
    assert a.sharing and b.sharing
    assert a.drawn <= a.draws * RestBudget.DRAW_BATCH  # (batches of at most DRAW_BATCH)


async def test_an_idle_process_leaves_the_whole_rate_to_a_busy_one(
    redis_url: str, redis_keys: list[str]
) -> None:
    token = _token()
    busy = RestBudget(RATE, shared=_shared(redis_url, token, redis_keys), fallback_rate=RATE / 2)
    idle = RestBudget(RATE, shared=_shared(redis_url, token, redis_keys), fallback_rate=RATE / 2)
    loop = asyncio.get_running_loop()
    seconds = 1.5
    got: list[float] = []
    try:
        await idle.acquire(Priority.DM)  # it exists and drew once, then is quiet
        start = loop.time()
        await asyncio.wait_for(_spend(busy, start + seconds, got), seconds + 5)
    finally:
        await _close(busy, idle)
    # Far more than its static half (RATE / 2 per second): the whole rate, near enough.
    assert len(got) >= 0.85 * RATE * seconds
    assert len(got) <= RATE * (got[-1] - start) + BURST + 1


async def test_waiters_on_a_shared_bucket_are_served_by_this_processs_priorities(
    redis_url: str, redis_keys: list[str]
) -> None:
    budget = RestBudget(RATE, shared=_shared(redis_url, _token(), redis_keys))
    try:
        # Empty the bucket (its burst), so the next requests all wait together.
        for _ in range(int(BURST)):
            await budget.acquire(Priority.TABLE)
        served = await served_in_order(
            budget,
            [
                ("table", Priority.TABLE),
                ("notice", Priority.BACKGROUND),
                ("decision", Priority.DECISION),
                ("dm", Priority.DM),
            ],
        )
    finally:
        await _close(budget)
    assert served == ["decision", "dm", "table", "notice"]


async def test_each_gate_lets_through_what_the_other_processes_gates_leave(
    redis_url: str, redis_keys: list[str]
) -> None:
    token = _token()
    a = RestBudget(RATE, shared=_shared(redis_url, token, redis_keys))
    b = RestBudget(RATE, shared=_shared(redis_url, token, redis_keys))
    try:
        # A has 10 requests in flight (sent, not answered yet) and says so at its next draw.
        for _ in range(10):
            await a.sending()
        await a.acquire(Priority.DM)
        assert a.window == RATE  # nobody else counts anything
        await b.acquire(Priority.DM)  # B's draw learns A's count
        assert b.window == RATE - 10
        # B's gate lets 30 through at once, then holds the 31st until A's count goes down.
        for _ in range(30):
            await asyncio.wait_for(b.sending(), 0.5)
        held = asyncio.create_task(b.sending())
        await asyncio.sleep(0.2)
        assert not held.done()
        for _ in range(10):
            a.answered()  # A's answers came back: out of its count a second later
        await asyncio.sleep(1.05)
        await a.acquire(Priority.DM)  # A says so
        await asyncio.wait_for(held, 1.0)  # B's full gate looked again
        assert b.window == RATE
    finally:
        await _close(a, b)


async def test_a_draw_from_a_bucket_that_is_not_contended_brings_spare_tokens(
    redis_url: str, redis_keys: list[str]
) -> None:
    """One round trip serves the process's next requests while the bucket has room (a
    round trip per request costs more CPU than the request), and a contended bucket gives
    no spare tokens: it keeps one after a grant, or grants no spare."""
    token = _token()
    roomy = SharedBucket(redis_url, token, RATE, 10.0)
    redis_keys += [roomy.key, roomy.gates_key]
    budget = RestBudget(RATE, shared=roomy)
    try:
        for _ in range(1 + RestBudget.SPARE):
            await budget.acquire(Priority.DM)
        assert budget.draws == 1 and budget.drawn == 1 + RestBudget.SPARE
        # Another process empties the bucket: the next draw brings what it needs only.
        other = SharedBucket(redis_url, token, RATE, 10.0)
        taken, _, _ = await other.draw(10)
        await other.close()
        assert taken >= 5
        await budget.acquire(Priority.DM)  # (it waits for the bucket to refill)
        assert budget.drawn == 2 + RestBudget.SPARE
    finally:
        await _close(budget)


async def test_a_quiet_processs_answered_requests_leave_the_others_count_by_themselves(
    redis_url: str, redis_keys: list[str]
) -> None:
    """A report ages without a new one: another process's answered requests count until
    they leave its count (a second after their answers), its requests in flight while the
    report stands (GATE_REPORT_SECONDS), so a process quiet after a busy moment does not
    hold the others' windows down for the whole life of its last report."""
    token = _token()
    quiet, busy = _shared(redis_url, token, redis_keys), _shared(redis_url, token, redis_keys)
    # 2 in flight; 3 answered requests leave the count within 0.4–0.5 s, 5 within 0.9–1 s.
    report = GateCount(2, (0, 0, 0, 0, 3, 0, 0, 0, 0, 5))

    def counted(age: float) -> int:  # what the report counts ``age`` s after it was made
        if age > SharedBucket.GATE_REPORT_SECONDS:
            return 0
        return 2 + sum(n for k, n in enumerate(report.leaving) if (k + 1) / 10 > age)

    try:
        before = time.monotonic()
        await quiet.draw(0, report)
        for pause in (0.0, 0.6, 0.5, 0.6):  # ages about 0, 0.6, 1.1 and 1.7 s
            await asyncio.sleep(pause)
            low = time.monotonic() - before  # (the report was made between the two)
            _, _, others = await busy.draw(0)
            high = time.monotonic() - before
            assert counted(high) <= others <= counted(low), (low, high, others)
        assert others == 0  # (the report is gone once it went stale)
    finally:
        await quiet.close()
        await busy.close()


def test_a_gate_reports_its_answered_requests_by_when_they_leave_its_count() -> None:
    budget = RestBudget(RATE)
    budget._in_flight = 3
    now = time.monotonic()
    budget._answered.extend([now - 0.95, now - 0.5, now - 0.45, now])
    count = budget.gate_count()
    assert count.in_flight == 3 and count.total() == 7
    # Each answer leaves a second after it: within 0–0.1 s, 0.5–0.6 s (twice), 0.9–1 s
    # (rounded later, never sooner: a reader must not forget one too soon).
    assert count.leaving[0] == 1 and count.leaving[9] == 1
    assert count.leaving[4] + count.leaving[5] == 2 and sum(count.leaving[5:]) >= 2
    assert count.encode().split() == [str(n) for n in (3, *count.leaving)]


class _Cuttable:
    """A TCP relay in front of the Redis server that the test can cut and restore (an
    outage of the real server as the process sees it: connections drop, new ones are
    refused)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.server: asyncio.Server | None = None
        self.listen_port = 0
        self.writers: set[asyncio.StreamWriter] = set()
        self.serving: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.listen_port)
        self.listen_port = self.server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):  # (each pipe ends when its ends are closed)
            writer.close()
        if self.serving:
            await asyncio.wait(self.serving, timeout=2)
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        self.writers |= {writer, up_writer}
        task = asyncio.current_task()
        assert task is not None
        self.serving.add(task)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        try:
            await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        finally:
            self.writers -= {writer, up_writer}
            self.serving.discard(task)


async def test_a_process_that_loses_redis_sends_at_its_share_and_shares_again_after(
    redis_url: str, redis_keys: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    from urllib.parse import urlsplit

    parts = urlsplit(redis_url)
    relay = _Cuttable(parts.hostname or "127.0.0.1", parts.port or 6379)
    await relay.start()
    url = f"redis://127.0.0.1:{relay.listen_port}{parts.path or '/0'}"
    share = RATE / 4
    bucket = SharedBucket(url, _token(), RATE, BURST, timeout=0.3)
    redis_keys += [bucket.key, bucket.gates_key]
    budget = RestBudget(RATE, shared=bucket, fallback_rate=share)
    budget.RETRY_SECONDS = 0.2
    loop = asyncio.get_running_loop()
    caplog.set_level(logging.WARNING, logger="bot.host.budget")
    try:
        await budget.acquire(Priority.DM)
        assert budget.sharing
        await relay.cut()
        # Decisions keep going out during the outage, at the process's own share.
        start = loop.time()
        got: list[float] = []
        await asyncio.wait_for(_spend(budget, start + 1.5, got), 5)
        assert not budget.sharing
        sending = [t for t in got if t >= got[0] + 0.3]  # (after the failed draw)
        assert len(sending) >= 1
        assert len(got) <= share * (got[-1] - start) + BURST + 2
        outage = [r for r in caplog.records if "does not answer" in r.getMessage()]
        assert len(outage) == 1  # once, however many draws it refused meanwhile
        await relay.start()  # Redis is back (same port)
        await asyncio.wait_for(_until(lambda: budget.sharing), 5)
        start = loop.time()
        got = []
        await asyncio.wait_for(_spend(budget, start + 1.0, got), 5)
        assert budget.sharing
        assert len(got) >= 0.7 * RATE  # the whole rate again, not the share
    finally:
        await _close(budget)
        with contextlib.suppress(Exception):
            await relay.cut()
    back = [r for r in caplog.records if "answers again (after" in r.getMessage()]
    assert len(back) == 1
    assert len([r for r in caplog.records if "does not answer" in r.getMessage()]) == 1


async def _until(condition, every: float = 0.05) -> None:  # type: ignore[no-untyped-def]
    while not condition():
        await asyncio.sleep(every)


async def test_a_draw_from_a_server_that_is_not_there_says_so() -> None:
    bucket = SharedBucket("redis://127.0.0.1:1/0", _token(), RATE, BURST, timeout=0.3)
    try:
        with pytest.raises(SharedBucketDown):
            await bucket.draw(1)
    finally:
        await bucket.close()


async def test_a_process_that_never_reaches_redis_starts_at_its_share(
    caplog: pytest.LogCaptureFixture,
) -> None:
    share = 20.0
    bucket = SharedBucket("redis://127.0.0.1:1/0", _token(), RATE, BURST, timeout=0.3)
    budget = RestBudget(RATE, shared=bucket, fallback_rate=share)
    caplog.set_level(logging.WARNING, logger="bot.host.budget")
    loop = asyncio.get_running_loop()
    got: list[float] = []
    start = loop.time()
    try:
        await asyncio.wait_for(_spend(budget, start + 1.0, got), 5)
    finally:
        await _close(budget)
    assert not budget.sharing and budget.window == int(share)
    assert 0.5 * share <= len(got) <= share * (got[-1] - start) + BURST + 1
    assert len([r for r in caplog.records if "does not answer" in r.getMessage()]) == 1


def test_the_settings_choose_the_shared_budget_only_with_a_redis_url() -> None:
    base = {"DISCORD_TOKEN": "t", "TEAHOUSE_SHARD_COUNT": "2", "TEAHOUSE_SHARDS": "0"}
    alone = rest_budget(Settings.from_env(base))
    assert alone.rate == 22.5 and not alone.sharing  # the static share, as without Redis
    settings = Settings.from_env({**base, "TEAHOUSE_REDIS_URL": "redis://127.0.0.1:6379/0"})
    shared = rest_budget(settings)
    assert shared.sharing and shared.rate == 45.0 and shared.fallback_rate == 22.5
    assert shared.window == 45
    assert "redis" not in repr(settings)  # (a URL may carry a password)
    shared.close()


def test_a_redis_url_of_another_kind_is_refused() -> None:
    with pytest.raises(ConfigError, match="TEAHOUSE_REDIS_URL"):
        Settings.from_env({"DISCORD_TOKEN": "t", "TEAHOUSE_REDIS_URL": "http://127.0.0.1:6379"})
