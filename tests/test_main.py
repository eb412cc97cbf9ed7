"""``python -m bot`` without a token exits at once and says what to set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[1]


def test_bot_without_token_exits_with_a_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr


def test_settings_read_and_validate_the_environment() -> None:
    s = Settings.from_env(
        {"DISCORD_TOKEN": "t", "TEAHOUSE_TURN_SECONDS": "45", "TEAHOUSE_SYNC_GUILD": "123"}
    )
    assert s.turn_seconds == 45.0 and s.sync_guild == 123 and s.database == "data/teahouse.db"
    with pytest.raises(ConfigError, match="TEAHOUSE_AI_DELAY"):
        Settings.from_env({"DISCORD_TOKEN": "t", "TEAHOUSE_AI_DELAY": "soon"})
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Settings.from_env({"DISCORD_TOKEN": "  "})
