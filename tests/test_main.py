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


def test_the_token_is_never_in_repr_or_str() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": "MTIz.secret-token-value"})
    assert "secret-token-value" not in repr(s)
    assert "secret-token-value" not in str(s)
    assert s.token == "MTIz.secret-token-value"
    pg = Settings.from_env(
        {"DISCORD_TOKEN": "t", "TEAHOUSE_DATABASE": "postgresql://bot:hunter2@db/teahouse"}
    )
    assert "hunter2" not in repr(pg)


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.example.com/api/v10",
        "http://10.0.0.1:8080/api",
        "http://192.168.1.5/api",
        "ws://evil.test/gateway",
        "http://127.0.0.1.evil.test/api",
        "not a url",
    ],
)
def test_fake_discord_urls_must_be_loopback(url: str) -> None:
    for name in ("TEAHOUSE_API_BASE", "TEAHOUSE_GATEWAY_URL"):
        with pytest.raises(ConfigError, match="loopback|this machine"):
            Settings.from_env({"DISCORD_TOKEN": "t", name: url})


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/api",
        "ws://localhost:9/gw",
        "http://[::1]:80/api",
        "http://127.5.0.1/",
    ],
)
def test_loopback_urls_are_accepted(url: str) -> None:
    s = Settings.from_env({"DISCORD_TOKEN": "t", "TEAHOUSE_API_BASE": url})
    assert s.api_base == url


def test_point_at_refuses_a_remote_host_even_when_settings_are_built_by_hand() -> None:
    from bot.__main__ import point_at

    with pytest.raises(ConfigError):
        point_at(Settings(token="t", api_base="https://example.com/api"))


def test_quota_settings_read_from_the_environment() -> None:
    s = Settings.from_env(
        {
            "DISCORD_TOKEN": "t",
            "TEAHOUSE_MAX_LOBBIES_PER_USER": "1",
            "TEAHOUSE_LOBBY_TTL": "60",
            "TEAHOUSE_NEW_COOLDOWN": "0",
        }
    )
    assert (s.max_lobbies_per_user, s.lobby_ttl, s.new_cooldown) == (1, 60.0, 0.0)
    with pytest.raises(ConfigError, match="TEAHOUSE_MAX_TABLES_PER_GUILD"):
        Settings.from_env({"DISCORD_TOKEN": "t", "TEAHOUSE_MAX_TABLES_PER_GUILD": "-3"})


def test_the_bot_runs_with_a_short_gil_switch_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread serving the loop must not wait 5 ms for the GIL at every blocking call while
    the event loop is busy (see ``bot.__main__.SWITCH_INTERVAL``)."""
    import bot.__main__ as entry

    seen: list[float] = []

    def fake_run(coroutine: object) -> None:
        seen.append(sys.getswitchinterval())
        coroutine.close()  # type: ignore[attr-defined]

    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setattr(entry.asyncio, "run", fake_run)
    monkeypatch.setattr(entry, "load_dotenv", lambda: None)
    before = sys.getswitchinterval()
    try:
        assert entry.main([]) == 0
    finally:
        sys.setswitchinterval(before)
    assert seen == [entry.SWITCH_INTERVAL] and entry.SWITCH_INTERVAL <= 0.001
