"""``python -m bot`` as a real process, configured only by the environment, against the fake."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import eventually

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.asyncio


async def test_python_m_bot_connects_syncs_commands_and_stops_cleanly(
    fake_discord: FakeDiscord, tmp_path
) -> None:
    # The developer's own TEAHOUSE_* settings (a sync guild, a database...) must not leak in.
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("TEAHOUSE_", "DISCORD_"))}
    env = {
        **inherited,
        "DISCORD_TOKEN": "fake-token",
        "TEAHOUSE_SEED_BASE": "e2e-process",
        "TEAHOUSE_API_BASE": fake_discord.api_base,
        "TEAHOUSE_GATEWAY_URL": fake_discord.gateway_url,
        "TEAHOUSE_DATABASE": str(tmp_path / "data" / "teahouse.db"),
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await eventually(lambda: fake_discord.identify_count >= 1, timeout=60)
        names = await eventually(lambda: {c["name"] for c in fake_discord.commands()}, timeout=30)
        assert {
            "koikoi",
            "mushi",
            "panda",
            "sandayi",
            "mahjong",
            "leaderboard",
            "stats",
            "rules",
            "table",
        } <= names
        assert (tmp_path / "data" / "teahouse.db").exists()
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 0, out.decode()[-2000:]
