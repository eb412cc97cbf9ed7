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


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
async def test_python_m_bot_connects_syncs_commands_and_stops_cleanly(
    fake_discord: FakeDiscord, tmp_path, stop_signal: signal.Signals
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
    log_file = open(tmp_path / "bot.log", "wb")  # noqa: SIM115 (closed below)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=log_file,
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
        # Sent right after start-up (a race that used to leave the process running).
        proc.send_signal(stop_signal)
        # Closing is bounded in the bot (10 s for the gateway); leave room on a busy machine.
        try:
            await asyncio.wait_for(proc.wait(), timeout=60)
        except TimeoutError:
            proc.send_signal(signal.SIGUSR1)  # the bot dumps every thread's stack to its log
            await asyncio.sleep(1)
            proc.kill()
            await proc.wait()
        log_file.close()
    out = (tmp_path / "bot.log").read_bytes()
    assert proc.returncode is not None and proc.returncode >= 0, (
        f"python -m bot did not stop on {stop_signal.name}; its log:\n" + out.decode()[-3000:]
    )
    assert proc.returncode == 0, out.decode()[-2000:]
    # The bot's own process keeps what it loaded at start out of garbage collections, and
    # makes the full ones itself.
    assert b"objects kept out of garbage collections; a full one every" in out, out.decode()[-2000:]
