"""Teahouse's storage (SQLite or PostgreSQL): tables, seats, the append-only action log,
results, ratings."""

from bot.store.rows import (
    AI_NAME,
    AI_USER_ID,
    ActionRow,
    LeaderRow,
    LeaseClaim,
    Quota,
    QuotaExceeded,
    ResultInput,
    SeatRow,
    SharedClick,
    SharedForms,
    StatsRow,
    StoreError,
    StoreUnavailable,
    TableClosed,
    TableRow,
)
from bot.store.store import DEFAULT_PATH, Store, outage_error

__all__ = [
    "AI_NAME",
    "AI_USER_ID",
    "DEFAULT_PATH",
    "ActionRow",
    "LeaderRow",
    "LeaseClaim",
    "Quota",
    "QuotaExceeded",
    "ResultInput",
    "SeatRow",
    "SharedClick",
    "SharedForms",
    "StatsRow",
    "Store",
    "StoreError",
    "TableClosed",
    "StoreUnavailable",
    "TableRow",
    "outage_error",
]
