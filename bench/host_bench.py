"""Interaction acknowledgement latency with many concurrent tables over the fake Discord.

Each table is one simulated human against an AI; all humans click their DM controls at
once. The latency is the time from the fake dispatching INTERACTION_CREATE to the bot's
first callback (what Discord's 3-second rule measures).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from bench import percentile
from tests.e2e.fakediscord import FakeDiscord, configure_discord_py
from tests.e2e.teahouse import (
    RunningBot,
    action_components,
    click_some_action,
    latest_controls,
    settings_for,
)


async def _open_table(fake: FakeDiscord, channel: int, user: int) -> None:
    inter = await fake.slash(user, channel, "koikoi new")
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    for label in ("Add AI", "Start"):
        click = await fake.click(user, lobby, label=label)
        await click.wait_response(timeout=30)


async def _player(
    fake: FakeDiscord, user: int, clicks: int, rng: random.Random, out: list[float]
) -> None:
    for _ in range(clicks):
        try:
            message, comps = await fake.wait_until(lambda: latest_controls(fake, user), timeout=60)
        except TimeoutError:
            return  # the match ended
        before = [c["custom_id"] for c in comps]
        inter = await click_some_action(fake, user, message, comps, rng)
        await inter.wait_response(timeout=30)
        if inter.latency is not None:
            out.append(inter.latency * 1000)
        await fake.wait_until(
            lambda m=message, b=before: [c["custom_id"] for c in action_components(m)] != b,
            timeout=60,
        )


async def ack_latency(tables: int = 50, clicks_per_table: int = 20) -> dict[str, float]:
    # Discord's rate limits off: this measures the bot's own acknowledgement latency.
    fake = FakeDiscord(rate_limits=False)
    await fake.start()
    restore = configure_discord_py(fake)
    guild = fake.add_guild("Bench")
    channel = fake.add_text_channel(guild, "games")
    users = [fake.add_user(f"Player{i}") for i in range(tables)]
    with tempfile.TemporaryDirectory() as tmp:
        running = RunningBot(
            fake,
            settings_for(
                str(Path(tmp) / "bench.db"),
                ai_delay=0.0,
                edit_interval=1.0,
                max_tables_per_guild=100_000,
                max_lobbies_per_guild=100_000,
            ),
        )
        await running.start()
        try:
            await asyncio.gather(*(_open_table(fake, channel, u) for u in users))
            latencies: list[float] = []
            await asyncio.gather(
                *(
                    _player(fake, u, clicks_per_table, random.Random(i), latencies)
                    for i, u in enumerate(users)
                )
            )
        finally:
            await running.stop()
            restore()
            await fake.stop()
    return {
        "count": len(latencies),
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
    }
