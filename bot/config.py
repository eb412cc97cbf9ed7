"""Typed settings from the environment (a ``.env`` file in the working directory is read too).

Only ``DISCORD_TOKEN`` is required. The API/gateway overrides exist so the test-suite can
point the real discord.py client at a fake Discord on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    #: Never printed: kept out of repr (and so out of logs and tracebacks).
    token: str = field(repr=False)
    #: Out of repr too: a PostgreSQL URL may carry a password.
    database: str = field(default="data/teahouse.db", repr=False)
    #: Seconds a player has for a decision before the default action is applied.
    turn_seconds: float = 120.0
    #: Seconds a Mah-Jongg claim window (and the before-play kong question) stays open: the
    #: same after every discard, whoever can claim; only a claim closes it early. Short, so
    #: a hand nobody claims in takes minutes (see docs/architecture.md, "Answer windows").
    claim_seconds: float = 2.0
    #: Consecutive timeouts after which an AI takes over the seat.
    timeouts_before_ai: int = 2
    #: Pause before an AI move, so humans can follow the table.
    ai_delay: float = 1.0
    #: A player who acted within this many seconds is playing: their next decision edits
    #: their DM in place (no notification); after a longer wait it comes as a new message.
    attention_seconds: float = 30.0
    #: Minimum seconds between two edits of a table message (batches updates).
    edit_interval: float = 1.0
    #: Out-of-turn plays (Panda's Ambushes) arriving within this many seconds of each other
    #: count as simultaneous and are applied by the game's priority rule.
    simultaneous_window: float = 0.4
    #: Guild to sync slash commands to instantly (global sync can take up to an hour).
    sync_guild: int | None = None
    #: Processes that draw images (None: one less than the cores; 0: a thread instead).
    render_processes: int | None = None
    #: MiB of memory the replays kept for quick stepping may take (their checkpoints of
    #: the game's state): the least recently used are dropped beyond it.
    replay_cache_mb: int = 64
    #: Quotas: open lobbies and running tables a user may host, and a guild may have.
    max_lobbies_per_user: int = 2
    max_tables_per_user: int = 3
    max_lobbies_per_guild: int = 10
    max_tables_per_guild: int = 25
    #: Seconds a lobby stays open without being started before it closes itself.
    lobby_ttl: float = 900.0
    #: Seconds a user waits between two ``/<game> new``.
    new_cooldown: float = 10.0
    #: Seconds a table whose every seat is played by an AI (all humans timed out) goes on
    #: before it is ended without a result.
    ai_only_grace: float = 300.0
    #: Non-interaction REST requests per second the bot token allows itself, all processes
    #: together (Discord's global limit is 50/s per token; bots with a raised limit may set
    #: more). A process takes its share of it: see :attr:`rest_budget`.
    token_rest_budget: float = 45.0
    #: This process's own REST requests per second, overriding its share of the token's
    #: budget (None: ``token_rest_budget`` × its shards / the shard count).
    rest_share: float | None = None
    #: Redis holding the token's REST budget as one bucket all processes draw from live
    #: (None: each process keeps to its static share, :attr:`rest_budget`). Out of repr: a
    #: URL may carry a password.
    redis_url: str | None = field(default=None, repr=False)
    #: Gateway sharding: the total number of shards, and which of them this process runs
    #: ("0-3", "4,5"; all of them if unset). Unset count: Discord's recommendation.
    shard_count: int | None = None
    shards: str | None = None
    #: Seconds between looks at the action log for moves another process made (several
    #: processes on one database); 0: this process is alone. Default: 1 s when this
    #: process runs only some of the shards, else 0.
    log_poll: float | None = None
    #: Table leases: a process drives (timers, AI seats, the table message, the end) only
    #: the tables whose lease it holds. A lease lasts this many seconds unless renewed, so a
    #: dead process's tables are taken over within about ``lease_seconds`` plus a scan.
    lease_seconds: float = 6.0
    #: Seconds between renewals of this process's leases (None: a third of lease_seconds).
    lease_renew: float | None = None
    #: Seconds between looks for tables whose lease is free (None: a third of lease_seconds).
    takeover_scan: float | None = None
    #: This process's name among the processes sharing the database (default: the host name
    #: and the shards it runs). A process restarted under the same name takes back the
    #: leases of its previous run at once instead of waiting for them to run out; two
    #: processes running at the same time must have different names.
    process_name: str | None = None
    log_level: str = "INFO"
    #: Tests and soaks only: derive each table's seed from this and the table id, so deals
    #: are reproducible (unset: every table gets a fresh random seed).
    seed_base: str | None = None
    #: Test-only: REST base and gateway URL of a fake Discord.
    api_base: str | None = None
    gateway_url: str | None = None

    @property
    def poll_seconds(self) -> float:
        """How often a table's driver looks at the log for other processes' moves."""
        if self.log_poll is not None:
            return self.log_poll
        return 1.0 if self.shards is not None else 0.0

    @property
    def rest_budget(self) -> float:
        """REST requests per second this process allows itself on its own (without a shared
        bucket, or while Redis does not answer): ``rest_share`` if set, else its static share of the token's budget — a process running k of n shards takes
        ``token_rest_budget × k / n``, so processes that split the shards between them
        together stay within the token's budget (one process running every shard takes all)."""
        if self.rest_share is not None:
            return self.rest_share
        ids = self.shard_ids
        if ids is None or self.shard_count is None:
            return self.token_rest_budget
        return self.token_rest_budget * len(ids) / self.shard_count

    @property
    def lease_renew_seconds(self) -> float:
        """How often this process renews its table leases."""
        return self.lease_renew if self.lease_renew is not None else self.lease_seconds / 3

    @property
    def takeover_scan_seconds(self) -> float:
        """How often this process looks for tables nobody drives (their lease is free)."""
        return self.takeover_scan if self.takeover_scan is not None else self.lease_seconds / 3

    @property
    def shard_ids(self) -> list[int] | None:
        """The shards this process runs (None: all)."""
        if self.shards is None or self.shard_count is None:
            return None
        return parse_shards(self.shards, self.shard_count)

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
        values: dict[str, Any] = {"token": token}  # (each of its field's type)
        for f in fields(cls):
            if f.name == "token":
                continue
            raw = env.get(_ENV_NAMES[f.name])
            if raw is None or raw.strip() == "":
                continue
            values[f.name] = _convert(f.name, raw.strip())
        if values.get("shard_count") is not None and int(values["shard_count"]) < 1:
            raise ConfigError("TEAHOUSE_SHARD_COUNT must be at least 1.")
        shards = values.get("shards")
        if shards is not None:
            count = values.get("shard_count")
            if count is None:
                raise ConfigError("TEAHOUSE_SHARDS needs TEAHOUSE_SHARD_COUNT (the total).")
            parse_shards(str(shards), int(count))
        for name in ("token_rest_budget", "rest_share"):
            if values.get(name) == 0:
                raise ConfigError(f"{_ENV_NAMES[name]} must be more than 0 requests per second.")
        for name in ("lease_seconds", "lease_renew", "takeover_scan"):
            if values.get(name) == 0:
                raise ConfigError(f"{_ENV_NAMES[name]} must be more than 0 seconds.")
        lease = float(values.get("lease_seconds", cls.lease_seconds))
        if float(values.get("lease_renew") or lease / 3) >= lease:
            raise ConfigError(
                "TEAHOUSE_LEASE_RENEW must be shorter than TEAHOUSE_LEASE_SECONDS (a lease "
                "renewed after it ran out could be taken by another process meanwhile)."
            )
        redis_url = values.get("redis_url")
        if redis_url is not None and urlsplit(str(redis_url)).scheme not in REDIS_SCHEMES:
            raise ConfigError(
                "TEAHOUSE_REDIS_URL must be a redis://host:port/db URL (or rediss://, unix://)."
            )
        for name in ("api_base", "gateway_url"):
            url = values.get(name)
            if url is not None and not is_loopback_url(str(url)):
                raise ConfigError(
                    f"{_ENV_NAMES[name]} may only point at this machine (127.0.0.1, ::1 or "
                    f"localhost): it exists for tests, and the bot token is sent there."
                )
        return cls(**values)


REDIS_SCHEMES = ("redis", "rediss", "unix")


def parse_shards(text: str, count: int) -> list[int]:
    """``"0-3"``, ``"4,5"`` or ``"0-1,6"`` → shard ids, each below ``count``."""
    ids: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            ids += range(int(low), int(high or low) + 1)
    except ValueError:
        raise ConfigError(f"TEAHOUSE_SHARDS must look like 0-3 or 4,5, not {text!r}.") from None
    if not ids or any(not 0 <= i < count for i in ids) or len(set(ids)) != len(ids):
        raise ConfigError(f"TEAHOUSE_SHARDS {text!r} must name distinct shards below {count}.")
    return sorted(ids)


def is_loopback_url(url: str) -> bool:
    """True when ``url`` names a loopback host (the fake Discord of the tests)."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_ENV_NAMES = {
    "database": "TEAHOUSE_DATABASE",
    "turn_seconds": "TEAHOUSE_TURN_SECONDS",
    "claim_seconds": "TEAHOUSE_CLAIM_SECONDS",
    "timeouts_before_ai": "TEAHOUSE_TIMEOUTS_BEFORE_AI",
    "ai_delay": "TEAHOUSE_AI_DELAY",
    "attention_seconds": "TEAHOUSE_ATTENTION_SECONDS",
    "edit_interval": "TEAHOUSE_EDIT_INTERVAL",
    "simultaneous_window": "TEAHOUSE_SIMULTANEOUS_WINDOW",
    "sync_guild": "TEAHOUSE_SYNC_GUILD",
    "render_processes": "TEAHOUSE_RENDER_PROCESSES",
    "replay_cache_mb": "TEAHOUSE_REPLAY_CACHE_MB",
    "token_rest_budget": "TEAHOUSE_REST_BUDGET",
    "rest_share": "TEAHOUSE_REST_SHARE",
    "redis_url": "TEAHOUSE_REDIS_URL",
    "shard_count": "TEAHOUSE_SHARD_COUNT",
    "shards": "TEAHOUSE_SHARDS",
    "log_poll": "TEAHOUSE_LOG_POLL",
    "lease_seconds": "TEAHOUSE_LEASE_SECONDS",
    "lease_renew": "TEAHOUSE_LEASE_RENEW",
    "takeover_scan": "TEAHOUSE_TAKEOVER_SCAN",
    "process_name": "TEAHOUSE_PROCESS_NAME",
    "log_level": "TEAHOUSE_LOG_LEVEL",
    "max_lobbies_per_user": "TEAHOUSE_MAX_LOBBIES_PER_USER",
    "max_tables_per_user": "TEAHOUSE_MAX_TABLES_PER_USER",
    "max_lobbies_per_guild": "TEAHOUSE_MAX_LOBBIES_PER_GUILD",
    "max_tables_per_guild": "TEAHOUSE_MAX_TABLES_PER_GUILD",
    "lobby_ttl": "TEAHOUSE_LOBBY_TTL",
    "new_cooldown": "TEAHOUSE_NEW_COOLDOWN",
    "ai_only_grace": "TEAHOUSE_AI_ONLY_GRACE",
    "seed_base": "TEAHOUSE_SEED_BASE",
    "api_base": "TEAHOUSE_API_BASE",
    "gateway_url": "TEAHOUSE_GATEWAY_URL",
}

_FLOATS = {
    "turn_seconds",
    "claim_seconds",
    "ai_delay",
    "attention_seconds",
    "edit_interval",
    "simultaneous_window",
    "lobby_ttl",
    "new_cooldown",
    "ai_only_grace",
    "token_rest_budget",
    "rest_share",
    "log_poll",
    "lease_seconds",
    "lease_renew",
    "takeover_scan",
}
_INTS = {
    "timeouts_before_ai",
    "sync_guild",
    "render_processes",
    "replay_cache_mb",
    "max_lobbies_per_user",
    "max_tables_per_user",
    "max_lobbies_per_guild",
    "max_tables_per_guild",
    "shard_count",
}


def _convert(name: str, raw: str) -> object:
    try:
        if name in _FLOATS:
            value = float(raw)
            if value < 0:
                raise ValueError
            return value
        if name in _INTS:
            number = int(raw)
            if number < 0:
                raise ValueError
            return number
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
