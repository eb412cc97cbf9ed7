"""Teahouse's storage (SQLite or PostgreSQL): tables, seats, the append-only action log,
results, ratings."""

from bot.store.rows import (
    AI_NAME,
    AI_USER_ID,
    ActionRow,
    LeaderRow,
    LeaseClaim,
    ResultInput,
    SeatRow,
    StatsRow,
    StoreError,
    StoreUnavailable,
    TableRow,
)
from bot.store.store import DEFAULT_PATH, Store

__all__ = [
    "AI_NAME",
    "AI_USER_ID",
    "DEFAULT_PATH",
    "ActionRow",
    "LeaderRow",
    "LeaseClaim",
    "ResultInput",
    "SeatRow",
    "StatsRow",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableRow",
]
