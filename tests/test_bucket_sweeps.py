"""discord.py's sweep of inactive rate-limit buckets runs at most once a minute (it scanned
every bucket each time a new one was made: thousands after a restart with many tables)."""

from __future__ import annotations

import discord

from bot.app import throttle_bucket_sweeps


async def test_a_new_bucket_sweeps_at_most_once_a_minute(monkeypatch) -> None:
    swept: list[int] = []

    def sweep(self: discord.http.HTTPClient) -> None:
        swept.append(len(self._buckets))

    monkeypatch.setattr(discord.http.HTTPClient, "_try_clear_expired_ratelimits", sweep)
    monkeypatch.delattr(discord.http.HTTPClient, "_teahouse_throttled", raising=False)
    throttle_bucket_sweeps()
    throttle_bucket_sweeps()  # idempotent: not wrapped twice
    http = discord.http.HTTPClient(loop=None)  # type: ignore[arg-type]
    for n in range(300):  # 300 new routes: discord.py would sweep for each from the 256th
        http.get_ratelimit(f"POST /channels/{n}/messages")
    assert swept == [1]  # the first new bucket swept; the next 299, within the minute, not
    monkeypatch.setattr(http, "_teahouse_swept_at", -1000.0)
    http.get_ratelimit("POST /channels/9999/messages")
    assert len(swept) == 2  # a minute later, the next new bucket sweeps again
