"""The Teahouse database: one aiosqlite connection in WAL mode.

Every write runs in an explicit ``BEGIN IMMEDIATE`` transaction and is committed before the
call returns. All calls are serialised by one lock, so the transactions of concurrent tables
sharing the connection never interleave.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store import ratings
from bot.store.migrate import MIGRATIONS_DIR, migrate
from bot.store.rows import (
    ACTION_SOURCES,
    AI_NAME,
    AI_USER_ID,
    TABLE_STATUSES,
    ActionRow,
    LeaderRow,
    ResultInput,
    SeatRow,
    StatsRow,
    StoreError,
    TableRow,
)

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("data") / "teahouse.db"
BUSY_TIMEOUT_MS = 5000

# Columns update_table may change; id, guild_id, game and created_at are fixed at creation.
_TABLE_UPDATABLE = frozenset(
    {
        "channel_id",
        "thread_id",
        "options",
        "seed",
        "host_id",
        "status",
        "lobby_message_id",
        "table_message_id",
        "started_at",
        "finished_at",
    }
)
_SEAT_UPDATABLE = frozenset(
    {
        "user_id",
        "name",
        "is_ai",
        "ai_takeover",
        "dm_channel_id",
        "dm_message_id",
        "dms_closed",
        "timeouts",
    }
)
_SEAT_COLUMNS = (
    "seat",
    "user_id",
    "name",
    "is_ai",
    "ai_takeover",
    "dm_channel_id",
    "dm_message_id",
    "dms_closed",
    "timeouts",
)
_BOOL_SEAT_COLUMNS = ("is_ai", "ai_takeover", "dms_closed")


def _now() -> float:
    return time.time()


def _dump_options(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def _table_row(row: sqlite3.Row) -> TableRow:
    fields = dict(row)
    fields["options"] = json.loads(fields["options"])
    return TableRow(**fields)


def _seat_row(row: sqlite3.Row) -> SeatRow:
    fields = dict(row)
    for column in _BOOL_SEAT_COLUMNS:
        fields[column] = bool(fields[column])
    return SeatRow(**fields)


class Store:
    """Async access to tables, seats, the action log, results and ratings."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()  # serialises transactions on the shared connection

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path = DEFAULT_PATH, *, migrations_dir: Path = MIGRATIONS_DIR
    ) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        ``":memory:"`` gives a private in-memory database (tests).
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions, we issue BEGIN/COMMIT ourselves.
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            applied = await migrate(db, migrations_dir)
        except BaseException:
            await db.close()
            raise
        if applied:
            log.info("database %s migrated to version %d", path, applied[-1])
        return cls(db)

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The raw connection, for tests and maintenance scripts only."""
        return self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            async with self._db.execute(sql, params) as cur:
                return list(await cur.fetchall())

    # -- tables ------------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        seed: str,
        host_id: int,
    ) -> int:
        """Record a new table in the ``lobby`` status; returns its id."""
        async with self._transaction() as db:
            cur = await db.execute(
                "INSERT INTO tables (guild_id, channel_id, game, options, seed, host_id,"
                " status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?)",
                (guild_id, channel_id, game, _dump_options(options), seed, host_id, _now()),
            )
            return int(cur.lastrowid)

    async def update_table(self, table_id: int, /, **fields: Any) -> None:
        """Change some columns of a table.

        Setting ``status`` to ``active`` stamps ``started_at``, and to ``finished`` or
        ``aborted`` stamps ``finished_at``, unless those are given too.
        """
        unknown = set(fields) - _TABLE_UPDATABLE
        if unknown:
            raise StoreError(f"update_table cannot change {', '.join(sorted(unknown))}")
        if not fields:
            return
        status = fields.get("status")
        if status is not None and status not in TABLE_STATUSES:
            raise StoreError(f"unknown table status {status!r}")
        if status == "active":
            fields.setdefault("started_at", _now())
        elif status in ("finished", "aborted"):
            fields.setdefault("finished_at", _now())
        if "options" in fields:
            fields["options"] = _dump_options(fields["options"])
        assignments = ", ".join(f"{column} = ?" for column in fields)
        async with self._transaction() as db:
            cur = await db.execute(
                f"UPDATE tables SET {assignments} WHERE id = ?", (*fields.values(), table_id)
            )
            if cur.rowcount == 0:
                raise StoreError(f"no table {table_id}")

    async def transition(self, table_id: int, from_statuses: Sequence[str], to: str) -> bool:
        """Move a table to status ``to`` only if it is in one of ``from_statuses``, atomically.

        Returns False (and changes nothing) when another request moved it first, e.g. a
        Start and a Cancel of the same lobby at the same moment: exactly one of them wins.
        """
        if to not in TABLE_STATUSES or set(from_statuses) - set(TABLE_STATUSES):
            raise StoreError(f"unknown table status in {from_statuses!r} -> {to!r}")
        stamp = "started_at" if to == "active" else "finished_at"
        marks = ", ".join("?" * len(from_statuses))
        async with self._transaction() as db:
            cur = await db.execute(
                f"UPDATE tables SET status = ?, {stamp} = ? WHERE id = ? AND status IN ({marks})",
                (to, _now(), table_id, *from_statuses),
            )
            return cur.rowcount == 1

    async def count_tables(
        self, status: str, *, guild_id: int | None = None, host_id: int | None = None
    ) -> int:
        """How many tables have ``status`` (in a guild, or hosted by a user): for quotas."""
        sql = "SELECT COUNT(*) FROM tables WHERE status = ?"
        params: list[Any] = [status]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if host_id is not None:
            sql += " AND host_id = ?"
            params.append(host_id)
        rows = await self._fetchall(sql, params)
        return int(rows[0][0])

    async def get_table(self, table_id: int) -> TableRow | None:
        rows = await self._fetchall("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _table_row(rows[0]) if rows else None

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        """Tables in any of ``statuses``, oldest first."""
        unknown = set(statuses) - set(TABLE_STATUSES)
        if unknown:
            raise StoreError(f"unknown table status {', '.join(sorted(unknown))}")
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        rows = await self._fetchall(
            f"SELECT * FROM tables WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_table_row(row) for row in rows]

    async def unfinished_tables(self) -> list[TableRow]:
        """Tables to restore after a restart: lobbies and games in progress."""
        return await self.tables_with_status("lobby", "active")

    # -- seats -------------------------------------------------------------------------------

    async def set_seats(self, table_id: int, seats: Iterable[SeatRow]) -> None:
        """Replace all seats of a table with ``seats``."""
        values = [tuple(getattr(seat, column) for column in _SEAT_COLUMNS) for seat in seats]
        marks = ", ".join("?" * (len(_SEAT_COLUMNS) + 1))
        async with self._transaction() as db:
            await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            try:
                await db.executemany(
                    f"INSERT INTO seats (table_id, {', '.join(_SEAT_COLUMNS)}) VALUES ({marks})",
                    [(table_id, *row) for row in values],
                )
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"table {table_id}: invalid seats ({exc})") from exc

    async def update_seat(self, table_id: int, seat: int, /, **fields: Any) -> None:
        unknown = set(fields) - _SEAT_UPDATABLE
        if unknown:
            raise StoreError(f"update_seat cannot change {', '.join(sorted(unknown))}")
        if not fields:
            return
        assignments = ", ".join(f"{column} = ?" for column in fields)
        async with self._transaction() as db:
            try:
                cur = await db.execute(
                    f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                    (*fields.values(), table_id, seat),
                )
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"table {table_id} seat {seat}: {exc}") from exc
            if cur.rowcount == 0:
                raise StoreError(f"table {table_id} has no seat {seat}")

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._fetchall(
            f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [_seat_row(row) for row in rows]

    # -- action log --------------------------------------------------------------------------

    async def append_action(
        self, table_id: int, idx: int, seat: int, code: str, source: str
    ) -> None:
        """Append one applied action to a table's log, durably, before anyone sees its result.

        ``idx`` must be the next index (the state's version before the action): a gap or a
        repeat means the caller's state and the log disagree, and is refused.
        """
        if source not in ACTION_SOURCES:
            raise StoreError(f"unknown action source {source!r}")
        async with self._transaction() as db:
            async with db.execute(
                "SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = ?", (table_id,)
            ) as cur:
                expected = (await cur.fetchone())[0]
            if idx != expected:
                raise StoreError(
                    f"table {table_id}: action index {idx} is out of order (next is {expected})"
                )
            try:
                await db.execute(
                    "INSERT INTO actions (table_id, idx, seat, code, source, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, idx, seat, code, source, _now()),
                )
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"table {table_id}: cannot log action ({exc})") from exc

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        """The log as ``replay`` takes it: ``[(seat, code), ...]`` in order."""
        rows = await self._fetchall(
            "SELECT seat, code FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
        )
        return [(row["seat"], row["code"]) for row in rows]

    async def action_rows(self, table_id: int) -> list[ActionRow]:
        rows = await self._fetchall(
            "SELECT idx, seat, code, source, created_at FROM actions"
            " WHERE table_id = ? ORDER BY idx",
            (table_id,),
        )
        return [ActionRow(**dict(row)) for row in rows]

    # -- results and ratings -----------------------------------------------------------------

    async def record_result(
        self,
        table_id: int,
        *,
        guild_id: int,
        game: str,
        rows: Sequence[ResultInput],
        rating_games: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]] = (),
    ) -> bool:
        """Write a finished match once: results, the table's ``finished`` status, ratings.

        Returns False, changing nothing, if the table's results are already recorded. Humans
        are rated by user id; all AI seats share the pseudo-player ``AI_USER_ID`` per
        (guild, game). Ratings follow the final places and teams of ``rows`` — or, when
        ``rating_games`` is given, each of those contests in turn (``(teams of seats,
        place of each team)``, e.g. every San Da Yi hand as one declarer against three).
        """
        if not rows:
            raise StoreError(f"table {table_id}: no result rows")
        if len({row.seat for row in rows}) != len(rows):
            raise StoreError(f"table {table_id}: a seat appears twice in the results")
        if any(row.user_id == AI_USER_ID for row in rows):
            raise StoreError(f"user id {AI_USER_ID} is reserved for the AI")
        now = _now()
        async with self._transaction() as db:
            async with db.execute(
                "SELECT 1 FROM results WHERE table_id = ? LIMIT 1", (table_id,)
            ) as cur:
                if await cur.fetchone() is not None:
                    return False
            try:
                await db.executemany(
                    "INSERT INTO results (table_id, seat, guild_id, game, user_id, name, score,"
                    " place, team, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            table_id,
                            r.seat,
                            guild_id,
                            game,
                            r.user_id,
                            r.name,
                            r.score,
                            r.place,
                            r.team,
                            now,
                        )
                        for r in rows
                    ],
                )
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"table {table_id}: cannot record results ({exc})") from exc
            await db.execute(
                "UPDATE tables SET status = 'finished', finished_at = ? WHERE id = ?",
                (now, table_id),
            )
            await self._update_ratings(db, guild_id, game, rows, rating_games, now)
        log.info("recorded results of table %d (%s)", table_id, game)
        return True

    @staticmethod
    async def _update_ratings(
        db: aiosqlite.Connection,
        guild_id: int,
        game: str,
        rows: Sequence[ResultInput],
        rating_games: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
        now: float,
    ) -> None:
        def player(row: ResultInput) -> int:
            return AI_USER_ID if row.user_id is None else row.user_id

        by_seat = {row.seat: row for row in rows}
        contests = [[ratings.Entry(player(row), row.team, row.place) for row in rows]]
        if rating_games:
            contests = [
                [
                    ratings.Entry(player(by_seat[seat]), t, places[t])
                    for t, team in enumerate(teams)
                    for seat in team
                ]
                for teams, places in rating_games
            ]

        players = sorted({player(row) for row in rows})
        names = {player(row): (AI_NAME if row.user_id is None else row.name) for row in rows}
        marks = ", ".join("?" * len(players))
        async with db.execute(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({marks})",
            (guild_id, game, *players),
        ) as cur:
            current = {uid: (mu, sigma) for uid, mu, sigma in await cur.fetchall()}

        new: dict[Any, tuple[float, float]] = {}
        for entries in contests:
            update = ratings.rate_match(entries, {**current, **new})
            new.update(update)
        if not new:
            return  # e.g. an all-AI game: nothing to learn, nothing to count
        winners = {player(row) for row in rows if row.place == 1}
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)"
            " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name = excluded.name,"
            " mu = excluded.mu, sigma = excluded.sigma, games = games + 1,"
            " wins = wins + excluded.wins, updated_at = excluded.updated_at",
            [
                (guild_id, game, uid, names[uid], mu, sigma, int(uid in winners), now)
                for uid, (mu, sigma) in new.items()
            ],
        )

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[LeaderRow]:
        """The best rated humans of a guild in a game, by ordinal (mu - 3 sigma)."""
        rows = await self._fetchall(
            "SELECT user_id, name, mu, sigma, mu - 3 * sigma AS ordinal, games, wins"
            " FROM ratings WHERE guild_id = ? AND game = ? AND user_id != ?"
            " ORDER BY ordinal DESC, games DESC, user_id LIMIT ?",
            (guild_id, game, AI_USER_ID, limit),
        )
        return [LeaderRow(**dict(row)) for row in rows]

    async def stats(self, guild_id: int, user_id: int) -> list[StatsRow]:
        """A user's record per game in a guild (games they have results in), by game name."""
        rows = await self._fetchall(
            """
            SELECT r.game,
                   COUNT(DISTINCT r.table_id) AS games,
                   COUNT(DISTINCT CASE WHEN r.place = 1 THEN r.table_id END) AS wins,
                   MAX(r.score) AS best_score,
                   AVG(r.place) AS average_place,
                   g.mu, g.sigma,
                   g.mu - 3 * g.sigma AS ordinal,
                   CASE WHEN g.mu IS NULL THEN NULL ELSE 1 + (
                       SELECT COUNT(*) FROM ratings AS o
                       WHERE o.guild_id = r.guild_id AND o.game = r.game AND o.user_id != ?
                         AND o.mu - 3 * o.sigma > g.mu - 3 * g.sigma
                   ) END AS rank_in_guild
            FROM results AS r
            LEFT JOIN ratings AS g
                   ON g.guild_id = r.guild_id AND g.game = r.game AND g.user_id = r.user_id
            WHERE r.guild_id = ? AND r.user_id = ?
            GROUP BY r.game
            ORDER BY r.game
            """,
            (AI_USER_ID, guild_id, user_id),
        )
        return [StatsRow(**dict(row)) for row in rows]
