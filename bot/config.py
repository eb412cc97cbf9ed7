"""Typed settings from the environment (a ``.env`` file in the working directory is read too).

Only ``DISCORD_TOKEN`` is required. The API/gateway overrides exist so the test-suite can
point the real discord.py client at a fake Discord on 127.0.0.1.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    token: str
    database: str = "data/teahouse.db"
    #: Seconds a player has for a decision before the default action is applied.
    turn_seconds: float = 120.0
    #: Seconds a Mah-Jongg claim window stays open (it closes early once all have answered).
    claim_seconds: float = 20.0
    #: Consecutive timeouts after which an AI takes over the seat.
    timeouts_before_ai: int = 2
    #: Pause before an AI move, so humans can follow the table.
    ai_delay: float = 1.0
    #: Minimum seconds between two edits of a table message (batches updates).
    edit_interval: float = 1.0
    #: Out-of-turn plays (Panda's Ambushes) arriving within this many seconds of each other
    #: count as simultaneous and are applied by the game's priority rule.
    simultaneous_window: float = 0.4
    #: Guild to sync slash commands to instantly (global sync can take up to an hour).
    sync_guild: int | None = None
    #: Processes that draw images (None: one less than the cores; 0: a thread instead).
    render_processes: int | None = None
    log_level: str = "INFO"
    #: Tests and soaks only: derive each table's seed from this and the table id, so deals
    #: are reproducible (unset: every table gets a fresh random seed).
    seed_base: str | None = None
    #: Test-only: REST base and gateway URL of a fake Discord.
    api_base: str | None = None
    gateway_url: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Create a bot at https://discord.com/developers/"
                "applications, copy its token and run: DISCORD_TOKEN=<token> python -m bot "
                "(or put DISCORD_TOKEN=<token> in a .env file). See README.md."
            )
        values: dict[str, object] = {"token": token}
        for f in fields(cls):
            if f.name == "token":
                continue
            raw = env.get(_ENV_NAMES[f.name])
            if raw is None or raw.strip() == "":
                continue
            values[f.name] = _convert(f.name, raw.strip())
        return cls(**values)  # type: ignore[arg-type]


_ENV_NAMES = {
    "database": "TEAHOUSE_DATABASE",
    "turn_seconds": "TEAHOUSE_TURN_SECONDS",
    "claim_seconds": "TEAHOUSE_CLAIM_SECONDS",
    "timeouts_before_ai": "TEAHOUSE_TIMEOUTS_BEFORE_AI",
    "ai_delay": "TEAHOUSE_AI_DELAY",
    "edit_interval": "TEAHOUSE_EDIT_INTERVAL",
    "simultaneous_window": "TEAHOUSE_SIMULTANEOUS_WINDOW",
    "sync_guild": "TEAHOUSE_SYNC_GUILD",
    "render_processes": "TEAHOUSE_RENDER_PROCESSES",
    "log_level": "TEAHOUSE_LOG_LEVEL",
    "seed_base": "TEAHOUSE_SEED_BASE",
    "api_base": "TEAHOUSE_API_BASE",
    "gateway_url": "TEAHOUSE_GATEWAY_URL",
}

_FLOATS = {"turn_seconds", "claim_seconds", "ai_delay", "edit_interval", "simultaneous_window"}
_INTS = {"timeouts_before_ai", "sync_guild", "render_processes"}


def _convert(name: str, raw: str) -> object:
    try:
        if name in _FLOATS:
            value: object = float(raw)
            if value < 0:  # type: ignore[operator]
                raise ValueError
            return value
        if name in _INTS:
            return int(raw)
    except ValueError:
        raise ConfigError(
            f"{_ENV_NAMES[name]} must be a non-negative number, not {raw!r}."
        ) from None
    return raw


def load_dotenv(path: str | Path = ".env") -> None:
    """Read ``KEY=value`` lines into os.environ without overriding what is already set."""
    p = Path(path)
    if not p.is_file():
        return
    for line in p.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        value = value.strip().strip('"').strip("'")
        os.environ.setdefault(key, value)
