"""Plain row types returned by (and given to) :class:`bot.store.Store`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

TableStatus = Literal["lobby", "active", "finished", "aborted"]
ActionSource = Literal["player", "ai", "timeout", "auto"]

TABLE_STATUSES: tuple[str, ...] = ("lobby", "active", "finished", "aborted")
#: Who made a logged action: the player's click, an AI, the default move when a decision's
#: time ran out, or the bot for a player who had no choice to make (a pass at a claim
#: window's close for a player who could not claim, a decision with one possible move).
ACTION_SOURCES: tuple[str, ...] = ("player", "ai", "timeout", "auto")

MAX_ID = 2**63 - 1
"""The largest id the store holds (SQLite INTEGER and PostgreSQL BIGINT are 64-bit signed)."""


def holds_id(table_id: int) -> bool:
    """Whether ``table_id`` fits the store's ids. One that does not (a forged custom id)
    names no table: it must not reach SQL, where the driver would refuse to bind it."""
    return -MAX_ID - 1 <= table_id <= MAX_ID


AI_USER_ID = 0
"""The pseudo-player all AI seats of a (guild, game) are rated as."""
AI_NAME = "AI"


def hinted(options: Any) -> bool:
    """Whether a table's options (a dict, or the stored JSON) say hints were used: such a
    match is recorded but not rated."""
    if isinstance(options, str | bytes):
        try:
            options = json.loads(options)
        except ValueError:
            return False
    return isinstance(options, dict) and bool(options.get("hinted"))


class StoreError(Exception):
    """A request the store refuses (unknown column, out-of-order action, missing table...)."""


class TableClosed(StoreError):
    """An action appended to a table that is no longer in play (aborted, or finished): the
    end stands, the action is not logged."""


@dataclass(frozen=True, slots=True)
class Quota:
    """The caps a new table is opened within (``Store.create_table``): per host and per
    guild, open lobbies and running tables; and the pause a host keeps between two new
    tables (seconds)."""

    lobbies_per_user: int
    tables_per_user: int
    lobbies_per_guild: int
    tables_per_guild: int
    cooldown: float = 0.0


class QuotaExceeded(StoreError):
    """A new table refused by a :class:`Quota`: ``limit`` names the cap it hit
    (``cooldown``, ``lobbies_per_user``, ``tables_per_user``, ``lobbies_per_guild``,
    ``tables_per_guild``); ``wait`` is the cooldown's time left, in seconds."""

    def __init__(self, limit: str, wait: float = 0.0) -> None:
        super().__init__(f"quota: {limit}")
        self.limit = limit
        self.wait = wait


class StoreUnavailable(StoreError):
    """The database cannot take the request now — locked by another connection beyond the
    busy timeout, the disk full, an I/O error — and nothing of it was written: the same
    request may succeed later (a player is told "not saved, try again")."""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: dict[str, Any]
    seed: str
    host_id: int
    status: str
    lobby_message_id: int | None
    table_message_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    #: The table's language (its public messages and picture): one of ``bot.i18n.LOCALES``.
    locale: str = "en-US"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a table. ``user_id`` is None exactly when ``is_ai``."""

    seat: int
    user_id: int | None
    name: str
    is_ai: bool = False
    ai_takeover: bool = False
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    dms_closed: bool = False
    timeouts: int = 0
    #: The fingerprint of the decision the current DM message was sent for (None: unknown).
    dm_decision: int | None = None
    #: An AI seat's level (``easy``, ``normal``, ``strong``); None: normal.
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class ActionRow:
    idx: int
    seat: int
    code: str
    source: str
    created_at: float


@dataclass(frozen=True, slots=True)
class ResultInput:
    """One seat's final outcome. ``place`` 1 is best; ``team`` groups seats that are rated
    together (one team per seat in a free-for-all). ``user_id`` is None for an AI seat."""

    seat: int
    user_id: int | None
    name: str
    score: int
    place: int
    team: int


@dataclass(frozen=True, slots=True)
class LeaderRow:
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class StatsRow:
    """A user's record in one game of one guild. Rating fields are None if never rated."""

    game: str
    games: int
    wins: int
    best_score: int
    average_place: float
    mu: float | None = None
    sigma: float | None = None
    ordinal: float | None = None
    rank_in_guild: int | None = None


@dataclass(frozen=True, slots=True)
class SharedClick:
    """A player's DM click as processes share it (``click_tokens``): its interaction
    webhook (the application's id and the click's token), the DM it was on, and its age in
    seconds (by the database's clock when read). The token is a credential: it stays out of
    the repr, so out of logs and tracebacks."""

    application_id: int
    token: str = field(repr=False)
    message_id: int | None
    age: float


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What a process serving a click at a table another process drives reads first, in
    one statement (``Store.catch_up``): the table's status, the log from its copy's version
    on, and the flags of the seats the driving process changes."""

    status: str
    actions: list[tuple[int, str]]
    #: By seat: (ai_takeover, timeouts, dms_closed).
    seats: dict[int, tuple[bool, int, bool]]


@dataclass(frozen=True, slots=True)
class SharedForms:
    """A seat's latest decision with forms (``dm_forms``) as the process driving its table
    wrote it, with what a click on one of its form buttons is judged by, read in one
    statement by a process that does not hold the table (see ``Store.dm_forms``)."""

    #: The prompt version the decision's controls carry.
    version: int
    #: The decision's forms (JSON, as ``bot.host.forms`` writes them).
    forms: str
    #: The table is running.
    active: bool
    guild_id: int
    #: The seat's player (None: an AI seat).
    user_id: int | None
    ai_takeover: bool
    #: The seat has moved since ``version``: the decision is over (its controls are stale).
    acted: bool
    #: The state's version as the log has it (its next index).
    log_version: int


@dataclass(frozen=True, slots=True)
class LeaseClaim:
    """A table whose lease a process has just claimed (times by the database's clock)."""

    table_id: int
    #: Seconds since the lease this one replaced ran out: how long the table went without a
    #: driver. None if the table never had a lease.
    unowned_for: float | None
    #: Seconds since the decision pending now appeared: since the table's last action, or
    #: since it started if it has none.
    decided_ago: float
