"""Versioned SQL migrations, applied in order, each in its own transaction, recorded in the
``schema_version`` table: ``migrations/NNNN_name.sql`` for SQLite and
``migrations_pg/NNNN_name.sql`` for PostgreSQL, with the same version numbers and meaning."""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.store.rows import StoreError

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    import asyncpg

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
MIGRATIONS_PG_DIR = Path(__file__).with_name("migrations_pg")
#: pg_advisory_lock key held while migrating, so two processes starting at once on the same
#: PostgreSQL database do not both migrate (the second waits, then finds nothing to do).
PG_MIGRATION_LOCK = 0x7EA40115E
_FILE_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")

_CREATE_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    path: Path


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in ``directory``, ordered; versions must run 1, 2, 3... without gaps."""
    found = []
    for path in directory.glob("*.sql"):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise StoreError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match[1]), match[2], path))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise StoreError(
                f"migration {migration.path.name} breaks the sequence (expected {expected:04d})"
            )
    return found


def current_version(db: sqlite3.Connection) -> int:
    db.execute(_CREATE_VERSION_TABLE)
    return int(db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def migrate(db: sqlite3.Connection, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration newer than the database; returns the versions applied.

    ``db`` must be in autocommit mode (``isolation_level=None``): each migration runs as one
    ``BEGIN IMMEDIATE ... COMMIT`` script and is rolled back whole if any statement fails.
    Blocking: the store runs it on a worker thread.
    """
    migrations = discover(directory)
    version = current_version(db)
    if version > len(migrations):
        raise StoreError(
            f"database schema version {version} is newer than this code ({len(migrations)})"
        )
    applied = []
    for migration in migrations[version:]:
        sql = migration.path.read_text(encoding="utf-8")
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{sql}\n;\n"
            "INSERT INTO schema_version (version, name, applied_at) "
            f"VALUES ({migration.version}, '{migration.name}', {time.time()!r});\n"
            "COMMIT;\n"
        )
        try:
            db.executescript(script)
        except Exception:
            if db.in_transaction:
                db.execute("ROLLBACK")
            log.exception("migration %s failed; rolled back", migration.path.name)
            raise
        log.info("applied migration %s", migration.path.name)
        applied.append(migration.version)
    return applied


_CREATE_PG_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)
"""


async def migrate_postgres(
    conn: asyncpg.Connection, directory: Path = MIGRATIONS_PG_DIR
) -> list[int]:
    """Apply every migration newer than the PostgreSQL database; returns the versions applied.

    Runs under a session advisory lock (``PG_MIGRATION_LOCK``): a second process migrating
    the same database waits, then sees the new version and applies nothing. Each migration
    runs in one transaction with its ``schema_version`` row, and is rolled back whole if any
    statement fails.
    """
    migrations = discover(directory)
    await conn.execute("SELECT pg_advisory_lock($1)", PG_MIGRATION_LOCK)
    try:
        await conn.execute(_CREATE_PG_VERSION_TABLE)
        version = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
        if version > len(migrations):
            raise StoreError(
                f"database schema version {version} is newer than this code ({len(migrations)})"
            )
        applied = []
        for migration in migrations[version:]:
            sql = migration.path.read_text(encoding="utf-8")
            try:
                async with conn.transaction():
                    await conn.execute(sql)  # simple query protocol: several statements
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        time.time(),
                    )
            except Exception:
                log.exception("migration %s failed; rolled back", migration.path.name)
                raise
            log.info("applied migration %s", migration.path.name)
            applied.append(migration.version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", PG_MIGRATION_LOCK)
