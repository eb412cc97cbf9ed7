"""The Teahouse database behind one interface, on SQLite or PostgreSQL.

:class:`Store` holds everything that does not depend on the database: validation, row
conversion, the rating computation and the SQL itself, written once with ``?`` placeholders in
the dialect both databases understand. A backend (``bot/store/sqlite.py``,
``bot/store/postgres.py``) supplies transactions, queries and locks. ``Store.open(database)``
picks it: a ``postgresql://`` (or ``postgres://``) URL opens PostgreSQL, anything else is an
SQLite path (``":memory:"`` for a private in-memory database).

Every write runs in one transaction, committed before the call returns.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from bot.store import ratings
from bot.store.rows import (
    ACTION_SOURCES,
    AI_NAME,
    AI_USER_ID,
    TABLE_STATUSES,
    ActionRow,
    CatchUp,
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
    hinted,
    holds_id,
)

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("data") / "teahouse.db"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: A table in these statuses takes no more actions (see ``append_action``).
CLOSED_STATUSES = ("aborted", "finished")

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
        "locale",
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
        "dm_decision",
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
    "dm_decision",
    "dms_closed",
    "timeouts",
    "ai_level",
)
_BOOL_SEAT_COLUMNS = frozenset({"is_ai", "ai_takeover", "dms_closed"})


class IntegrityViolation(StoreError):
    """A constraint of the database refused a write (backends raise this for their own
    integrity errors, so the shared code can turn it into a precise :class:`StoreError`).
    ``duplicate`` is True for a primary key or unique violation."""

    def __init__(self, message: str, *, duplicate: bool = False) -> None:
        super().__init__(message)
        self.duplicate = duplicate


class Row(Protocol):
    """A result row, read by column name or position: ``sqlite3.Row``, asyncpg's ``Record``."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


def outage_error(error: BaseException) -> bool:
    """Whether ``error`` says the database did not answer or failed for a passing reason
    (gone, restarting, stalled past its timeout, locked, out of disk), not that it refused
    the request (a :class:`StoreError`): the same request may succeed later. SQLite's
    :class:`StoreUnavailable` (locked past the busy timeout, disk full) is such a failure."""
    if isinstance(error, StoreUnavailable):
        return True
    if isinstance(error, StoreError):
        return False
    if isinstance(error, OSError | TimeoutError | sqlite3.OperationalError):
        return True
    try:
        from bot.store.postgres import CONNECTION_ERRORS
    except ImportError:  # (asyncpg is not installed: SQLite only)
        return False
    return isinstance(error, CONNECTION_ERRORS)


class Outage:
    """Whether the database answers: one log line when it stops answering (the first call
    that fails for want of it) and one when it is back (the first call that succeeds), with
    how long it was away, so an outage reads as two lines, not one per failing call."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.since: float | None = None  # when (monotonic) the first failing call was made
        self.failed_calls = 0
        #: When (monotonic) the database answered again after the last outage.
        self.back_at: float | None = None

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, error: BaseException, began: float | None = None) -> None:
        """A call failed for want of the database; ``began``: when (monotonic) it was made
        (a call that waited out a timeout shows the outage began then, not at its end)."""
        began = began or time.monotonic()
        if self.since is not None:
            self.since = min(self.since, began)  # (a call made earlier failed later)
        else:
            self.since, self.failed_calls = began, 0
            log.error(
                "%s is not answering (%r): moves are not saved and tables wait, retrying,"
                " until it is back",
                self.name,
                error,
            )
        self.failed_calls += 1

    def answered(self) -> None:
        if self.since is not None:
            away = time.monotonic() - self.since
            log.warning(
                "%s answers again after %.1f s (%d call(s) failed meanwhile)",
                self.name,
                away,
                self.failed_calls,
            )
            self.since = None
            self.back_at = time.monotonic()


class Transaction(ABC):
    """One open transaction of a backend. SQL uses ``?`` placeholders."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def insert_id(self, sql: str, params: Sequence[Any]) -> int:
        """Run an INSERT into a table with an ``id`` key; returns the new row's id."""

    @abstractmethod
    async def lock(self, key: str) -> None:
        """Hold an exclusive lock named ``key`` until the transaction ends (other processes
        writing the same thing wait). A no-op where the whole database is locked anyway."""


def _now() -> float:
    return time.time()


def _dump_options(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def _table_row(row: Row) -> TableRow:
    fields = dict(row)
    fields["options"] = json.loads(fields["options"])
    return TableRow(**fields)


def _seat_row(row: Row | dict[str, Any]) -> SeatRow:
    fields = dict(row)
    for column in _BOOL_SEAT_COLUMNS:
        fields[column] = bool(fields[column])
    return SeatRow(**fields)


def _seat_value(column: str, value: Any) -> Any:
    return bool(value) if column in _BOOL_SEAT_COLUMNS else value


def _stats_row(row: Row) -> StatsRow:
    fields = dict(row)
    fields["average_place"] = float(fields["average_place"])  # PostgreSQL: a numeric
    for column in ("games", "wins", "best_score", "rank_in_guild"):
        if fields[column] is not None:
            fields[column] = int(fields[column])
    return StatsRow(**fields)


def _marks(count: int) -> str:
    return ", ".join("?" * count)


def is_postgres_url(database: str | Path) -> bool:
    return isinstance(database, str) and database.startswith(POSTGRES_SCHEMES)


class Store(ABC):
    """Async access to tables, seats, the action log, results and ratings."""

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, database: str | Path = DEFAULT_PATH, *, migrations_dir: Path | None = None
    ) -> Store:
        """Open the database and bring its schema up to date.

        A ``postgresql://`` URL opens PostgreSQL (a pool of asyncpg connections); anything
        else is an SQLite file, created with its directory if needed (``":memory:"``: a
        private in-memory database, for tests). ``migrations_dir`` overrides the backend's
        own migrations (tests).
        """
        if is_postgres_url(database):
            from bot.store.postgres import PostgresStore

            return await PostgresStore.connect(str(database), migrations_dir=migrations_dir)
        from bot.store.sqlite import SQLiteStore

        return await SQLiteStore.connect(database, migrations_dir=migrations_dir)

    @abstractmethod
    async def close(self) -> None: ...

    @property
    @abstractmethod
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""

    #: An SQL expression for "now" in seconds since the epoch, by the database's clock. Lease
    #: expiries and action times use it, so processes whose clocks differ still agree.
    clock_sql: str
    #: A one-row subquery whose evaluation tells other processes of an append (``?``: the
    #: table id and index, ``"<table>:<idx>"``), delivered at commit: the append's
    #: ``INSERT`` selects its row from it, so telling costs no statement of its own. None
    #: where nobody else could listen (SQLite: one process).
    notify_sql: str | None = None
    #: The index a notification of a held pass (:meth:`hold_pass`) carries.
    HELD = -1
    #: Whether the database answers (logs an outage's start and end); None where a failing
    #: database is not told apart from other errors (SQLite).
    outage: Outage | None = None

    async def listen_for_actions(
        self,
        callback: Callable[[int, int], None],
        on_relisten: Callable[[], None] | None = None,
    ) -> bool:
        """Call ``callback(table_id, idx)`` for every action appended from now on, by any
        process, soon after its commit (and ``callback(table_id, HELD)`` for every pass held
        elsewhere: :meth:`hold_pass`); ``on_relisten()`` after listening was interrupted
        (notifications were missed: read the logs again). False if the backend cannot tell
        (then nothing is called: look at the log instead)."""
        return False

    @property
    def listening(self) -> bool:
        """Every append is heard now (see :meth:`listen_for_actions`; SQLite: never)."""
        return False

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Transaction]: ...

    @abstractmethod
    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def _write_one(self, sql: str, params: Sequence[Any]) -> int:
        """Run one writing statement on its own (atomic by itself); the rows it changed.
        Raises :class:`IntegrityViolation` as :meth:`Transaction.execute` does."""
        async with self._transaction() as tx:
            return await tx.execute(sql, params)

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of a raw ``?``-placeholder query: for tests and maintenance scripts only."""
        return await self._fetchall(sql, params)

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
        locale: str = "en-US",
        quota: Quota | None = None,
    ) -> int:
        """Record a new table in the ``lobby`` status; returns its id. ``locale`` is the
        table's language (its public messages and picture).

        With a ``quota``, the table is made only within it, checked and stamped in the same
        transaction (raises :class:`QuotaExceeded`, making nothing): requests of one host
        (or one guild) arriving together, on one process or several, are counted one
        after the other, so together they never open more than the caps allow."""
        now = _now()
        async with self._transaction() as tx:
            if quota is not None:
                await self._check_quota(tx, quota, guild_id, host_id, now)
            return await tx.insert_id(
                "INSERT INTO tables (guild_id, channel_id, game, options, seed, host_id,"
                " status, created_at, locale) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, game, _dump_options(options), seed, host_id, now, locale),
            )

    @staticmethod
    async def _check_quota(
        tx: Transaction, quota: Quota, guild_id: int, host_id: int, now: float
    ) -> None:
        # The host first, then the guild: every opener takes the two in this order, so two
        # of them never wait for each other in a circle (PostgreSQL; SQLite's BEGIN
        # IMMEDIATE already serialises the whole check and insert).
        await tx.lock(f"quota:user:{host_id}")
        await tx.lock(f"quota:guild:{guild_id}")
        rows = await tx.fetch(
            "SELECT"
            " (SELECT MAX(created_at) FROM tables WHERE host_id = ?) AS last_new,"
            " (SELECT COUNT(*) FROM tables WHERE host_id = ? AND status = 'lobby') AS ul,"
            " (SELECT COUNT(*) FROM tables WHERE host_id = ? AND status = 'active') AS ut,"
            " (SELECT COUNT(*) FROM tables WHERE guild_id = ? AND status = 'lobby') AS gl,"
            " (SELECT COUNT(*) FROM tables WHERE guild_id = ? AND status = 'active') AS gt",
            (host_id, host_id, host_id, guild_id, guild_id),
        )
        row = rows[0]
        last = row["last_new"]
        if quota.cooldown > 0 and last is not None and now - float(last) < quota.cooldown:
            raise QuotaExceeded("cooldown", wait=quota.cooldown - (now - float(last)))
        for limit, count in (
            ("lobbies_per_user", row["ul"]),
            ("tables_per_user", row["ut"]),
            ("lobbies_per_guild", row["gl"]),
            ("tables_per_guild", row["gt"]),
        ):
            if int(count) >= getattr(quota, limit):
                raise QuotaExceeded(limit)

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
        try:
            changed = await self._write_one(
                f"UPDATE tables SET {assignments} WHERE id = ?", (*fields.values(), table_id)
            )
        except IntegrityViolation as exc:
            raise StoreError(f"table {table_id}: {exc}") from exc
        if changed == 0:
            raise StoreError(f"no table {table_id}")

    async def transition(self, table_id: int, from_statuses: Sequence[str], to: str) -> bool:
        """Move a table to status ``to`` only if it is in one of ``from_statuses``, atomically.

        Returns False (and changes nothing) when another request moved it first, e.g. a
        Start and a Cancel of the same lobby at the same moment: exactly one of them wins.
        """
        if to not in TABLE_STATUSES or set(from_statuses) - set(TABLE_STATUSES):
            raise StoreError(f"unknown table status in {from_statuses!r} -> {to!r}")
        stamp = "started_at" if to == "active" else "finished_at"
        changed = await self._write_one(
            f"UPDATE tables SET status = ?, {stamp} = {self.clock_sql}"
            f" WHERE id = ? AND status IN ({_marks(len(from_statuses))})",
            (to, table_id, *from_statuses),
        )
        return changed == 1

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
        if not holds_id(table_id):
            return None
        rows = await self._fetchall("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _table_row(rows[0]) if rows else None

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        """Tables in any of ``statuses``, oldest first."""
        unknown = set(statuses) - set(TABLE_STATUSES)
        if unknown:
            raise StoreError(f"unknown table status {', '.join(sorted(unknown))}")
        if not statuses:
            return []
        rows = await self._fetchall(
            f"SELECT * FROM tables WHERE status IN ({_marks(len(statuses))}) ORDER BY id",
            statuses,
        )
        return [_table_row(row) for row in rows]

    async def unfinished_tables(self) -> list[TableRow]:
        """Tables to restore after a restart: lobbies and games in progress."""
        return await self.tables_with_status("lobby", "active")

    # -- seats -------------------------------------------------------------------------------

    async def set_seats(self, table_id: int, seats: Iterable[SeatRow]) -> None:
        """Replace all seats of a table with ``seats``."""
        values = [
            (table_id, *(_seat_value(column, getattr(seat, column)) for column in _SEAT_COLUMNS))
            for seat in seats
        ]
        async with self._transaction() as tx:
            await tx.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            try:
                await tx.executemany(
                    f"INSERT INTO seats (table_id, {', '.join(_SEAT_COLUMNS)})"
                    f" VALUES ({_marks(len(_SEAT_COLUMNS) + 1)})",
                    values,
                )
            except IntegrityViolation as exc:
                raise StoreError(f"table {table_id}: invalid seats ({exc})") from exc

    async def update_seat(self, table_id: int, seat: int, /, **fields: Any) -> None:
        unknown = set(fields) - _SEAT_UPDATABLE
        if unknown:
            raise StoreError(f"update_seat cannot change {', '.join(sorted(unknown))}")
        if not fields:
            return
        assignments = ", ".join(f"{column} = ?" for column in fields)
        values = [_seat_value(column, value) for column, value in fields.items()]
        try:
            changed = await self._write_one(
                f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                (*values, table_id, seat),
            )
        except IntegrityViolation as exc:
            raise StoreError(f"table {table_id} seat {seat}: {exc}") from exc
        if changed == 0:
            raise StoreError(f"table {table_id} has no seat {seat}")

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        if not holds_id(table_id):
            return []
        rows = await self._fetchall(
            f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [_seat_row(row) for row in rows]

    # -- languages ---------------------------------------------------------------------------

    async def user_locales(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The remembered language of each of these users who has one (their Discord
        locale as of their last interaction with the bot)."""
        ids = sorted({int(u) for u in user_ids})
        found: dict[int, str] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self._fetchall(
                f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({_marks(len(chunk))})",
                chunk,
            )
            found.update({int(row["user_id"]): str(row["locale"]) for row in rows})
        return found

    async def set_user_locales(self, locales: Mapping[int, str]) -> None:
        """Remember each user's language (a row is only rewritten when it changes)."""
        if not locales:
            return
        now = _now()
        async with self._transaction() as tx:
            await tx.executemany(
                "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale,"
                " updated_at = excluded.updated_at"
                " WHERE user_locales.locale <> excluded.locale",
                [(int(user), str(loc), now) for user, loc in sorted(locales.items())],
            )

    # -- action log --------------------------------------------------------------------------

    async def append_action(
        self,
        table_id: int,
        idx: int,
        seat: int,
        code: str,
        source: str,
        click: SharedClick | None = None,
    ) -> None:
        """Append one applied action to a table's log, durably, before anyone sees its result.

        ``idx`` must be the next index (the state's version before the action): a gap or a
        repeat means the caller's state and the log disagree, and is refused. Of two writers
        appending the same index (across processes too, on PostgreSQL) exactly one
        succeeds — the log's unique index decides; the other gets a StoreError.

        ``click``: the DM click that made the action, shared with the process driving the
        table (``click_tokens``, the seat's latest), written in the same transaction — in
        the same statement as the action on PostgreSQL: no extra round trip.

        One statement: the ``INSERT`` checks the next index and the table's status itself
        (an abort or an end is refused a move the same way) and, on PostgreSQL, notifies
        the other processes; only when it inserts nothing is it read why. Without a click
        it runs alone in its implicit transaction (one round trip, where a transaction
        taking a lock, reading the next index and inserting took five); with one, in a
        transaction that takes the table's actions lock first (the click's row, written
        by the statement's ``WITH``, must not outlive a refused action).
        """
        if source not in ACTION_SOURCES:
            raise StoreError(f"unknown action source {source!r}")
        closed = ", ".join(f"'{status}'" for status in CLOSED_STATUSES)
        # Stamped by the database's clock: a process taking the table over derives the
        # running deadline from it (see LeaseClaim.decided_ago).
        insert = (
            "INSERT INTO actions (table_id, idx, seat, code, source, created_at)"
            f" SELECT ?, ?, ?, ?, ?, {self.clock_sql}"
        )
        params: tuple[Any, ...] = (table_id, idx, seat, code, source)
        if self.notify_sql is not None:  # (the notification in the same statement)
            insert += f" FROM {self.notify_sql}"
            params = (*params, f"{table_id}:{idx}")
        insert += (
            " WHERE ? = (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE table_id = ?)"
            f" AND NOT EXISTS (SELECT 1 FROM tables WHERE id = ? AND status IN ({closed}))"
        )
        params = (*params, idx, table_id, table_id)
        if click is None:
            made = await _appended(table_id, idx, self._write_one(insert, params))
            if not made:
                raise _not_appended(table_id, idx, await self._fetchall(_NEXT_SQL, (table_id,) * 2))
            return
        insert = f"WITH shared AS ({self._share_click_sql}) {insert}"
        params = (*_click_params(table_id, seat, idx, click), *params)
        async with self._transaction() as tx:
            await tx.lock(f"actions:{table_id}")
            made = await _appended(table_id, idx, tx.execute(insert, params))
            if not made:  # (raised in the transaction: the shared click is undone too)
                raise _not_appended(table_id, idx, await tx.fetch(_NEXT_SQL, (table_id,) * 2))

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        """The log as ``replay`` takes it: ``[(seat, code), ...]`` in order."""
        if not holds_id(table_id):
            return []
        rows = await self._fetchall(
            "SELECT seat, code FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
        )
        return [(row["seat"], row["code"]) for row in rows]

    async def load_tables(
        self, table_ids: Iterable[int]
    ) -> dict[int, tuple[TableRow, list[SeatRow], list[tuple[int, str]]]]:
        """Each of these tables' row, seats and log (as :meth:`get_table`, :meth:`get_seats`
        and :meth:`actions` give them) in three statements: a restart reads hundreds of
        tables at once. Tables that do not exist are left out."""
        ids = sorted({int(t) for t in table_ids if holds_id(int(t))})
        if not ids:
            return {}
        marks = _marks(len(ids))
        tables = await self._fetchall(f"SELECT * FROM tables WHERE id IN ({marks})", ids)
        seats: dict[int, list[SeatRow]] = {}
        for row in await self._fetchall(
            f"SELECT table_id, {', '.join(_SEAT_COLUMNS)} FROM seats"
            f" WHERE table_id IN ({marks}) ORDER BY table_id, seat",
            ids,
        ):
            fields = dict(row)
            seats.setdefault(fields.pop("table_id"), []).append(_seat_row(fields))
        actions: dict[int, list[tuple[int, str]]] = {}
        for row in await self._fetchall(
            f"SELECT table_id, seat, code FROM actions WHERE table_id IN ({marks})"
            " ORDER BY table_id, idx",
            ids,
        ):
            actions.setdefault(row["table_id"], []).append((row["seat"], row["code"]))
        loaded = {}
        for row in tables:
            table = _table_row(row)
            loaded[table.id] = (table, seats.get(table.id, []), actions.get(table.id, []))
        return loaded

    async def actions_since(self, table_id: int, start: int) -> list[tuple[int, str]]:
        """The log from index ``start`` on: what a process whose state is at version
        ``start`` has missed (another process may have appended meanwhile)."""
        if not holds_id(table_id):
            return []
        rows = await self._fetchall(
            "SELECT seat, code FROM actions WHERE table_id = ? AND idx >= ? ORDER BY idx",
            (table_id, start),
        )
        return [(row["seat"], row["code"]) for row in rows]

    async def catch_up(self, table_id: int, start: int) -> CatchUp | None:
        """The table's status, its log from index ``start`` on and its seats' flags
        (AI takeover, timeouts, DMs closed) in one statement — what a cache of a table
        another process drives reads before judging a click (it was three statements a
        click). None if there is no such table."""
        if not holds_id(table_id):
            return None
        rows = await self._fetchall(
            "SELECT 0 AS part, NULL AS seat, NULL AS code, status, 0 AS n, 0 AS flag1,"
            " 0 AS flag2 FROM tables WHERE id = ?"
            " UNION ALL SELECT 1, seat, code, NULL, idx, 0, 0 FROM actions"
            " WHERE table_id = ? AND idx >= ?"
            " UNION ALL SELECT 2, seat, NULL, NULL, timeouts,"
            " CASE WHEN ai_takeover THEN 1 ELSE 0 END, CASE WHEN dms_closed THEN 1 ELSE 0 END"
            " FROM seats WHERE table_id = ?"
            " ORDER BY part, n",
            (table_id, table_id, start, table_id),
        )
        if not rows or rows[0]["part"] != 0:
            return None
        actions: list[tuple[int, str]] = []
        seats: dict[int, tuple[bool, int, bool]] = {}
        for row in rows[1:]:
            if row["part"] == 1:
                actions.append((int(row["seat"]), str(row["code"])))
            else:
                seats[int(row["seat"])] = (bool(row["flag1"]), int(row["n"]), bool(row["flag2"]))
        return CatchUp(str(rows[0]["status"]), actions, seats)

    async def actions_with_clicks_since(
        self, table_id: int, start: int, max_age: float
    ) -> tuple[list[tuple[int, str]], dict[int, SharedClick], dict[int, str]]:
        """As :meth:`actions_since`, with the DM clicks that made those actions where
        another process served them (see :meth:`append_action`), by seat (the latest), and
        the languages stored for the players who made them (user → locale; a player who
        clicked elsewhere may have changed language there), in the same statement: what
        the process driving the table reads when it picks the actions up. Clicks older
        than ``max_age`` seconds are left out (their tokens no longer answer)."""
        if not holds_id(table_id):
            return [], {}, {}
        rows = await self._fetchall(
            "SELECT a.seat, a.code, k.application_id, k.token, k.message_id,"
            f" {self.clock_sql} - k.clicked_at AS age, l.user_id AS player, l.locale"
            " FROM actions a"
            " LEFT JOIN click_tokens k"
            " ON k.table_id = a.table_id AND k.seat = a.seat AND k.idx = a.idx"
            " LEFT JOIN seats s ON s.table_id = a.table_id AND s.seat = a.seat"
            " LEFT JOIN user_locales l ON l.user_id = s.user_id"
            " WHERE a.table_id = ? AND a.idx >= ? ORDER BY a.idx",
            (table_id, start),
        )
        clicks: dict[int, SharedClick] = {}
        locales: dict[int, str] = {}
        for row in rows:
            if row["token"] is not None and row["age"] <= max_age:
                clicks[row["seat"]] = SharedClick(
                    int(row["application_id"]),
                    row["token"],
                    None if row["message_id"] is None else int(row["message_id"]),
                    max(0.0, float(row["age"])),
                )
            if row["player"] is not None:
                locales[int(row["player"])] = str(row["locale"])
        return [(row["seat"], row["code"]) for row in rows], clicks, locales

    async def forget_clicks(self, max_age: float) -> int:
        """Delete the shared clicks older than ``max_age`` seconds (their tokens no longer
        answer; a finished table's too); how many were deleted."""
        return await self._write_one(
            f"DELETE FROM click_tokens WHERE clicked_at < {self.clock_sql} - ?", (max_age,)
        )

    #: Writes one shared click (``?``: as :func:`_click_params` gives them), the seat's
    #: latest: a later click of the seat replaces it.
    @property
    def _share_click_sql(self) -> str:
        return (
            "INSERT INTO click_tokens (table_id, seat, idx, application_id, token, message_id,"
            f" clicked_at) VALUES (?, ?, ?, ?, ?, ?, {self.clock_sql} - ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET idx = excluded.idx,"
            " application_id = excluded.application_id, token = excluded.token,"
            " message_id = excluded.message_id, clicked_at = excluded.clicked_at"
        )

    # -- forms of DM decisions (issue 31) -------------------------------------------------

    async def share_forms(self, table_id: int, seat: int, version: int, forms: str) -> None:
        """Write the seat's decision with forms (``forms``: JSON, as ``bot.host.forms``
        writes them) and the prompt version its controls carry, replacing the seat's
        earlier one: a process that does not hold the table answers a click on its form
        button from it (:meth:`dm_forms`)."""
        await self._write_one(
            "INSERT INTO dm_forms (table_id, seat, version, forms) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET version = excluded.version,"
            " forms = excluded.forms",
            (table_id, seat, version, forms),
        )

    async def unshare_forms(self, table_id: int, seat: int) -> None:
        """The seat's decision has no form any more (its decision changed otherwise)."""
        await self._write_one(
            "DELETE FROM dm_forms WHERE table_id = ? AND seat = ?", (table_id, seat)
        )

    async def dm_forms(self, table_id: int, seat: int) -> SharedForms | None:
        """The seat's latest decision with forms, with the table's status and guild, the
        seat's player and AI takeover, whether the seat has moved since (the log), and the
        log's length — one statement, no replay. None if none was written."""
        if not holds_id(table_id):
            return None
        rows = await self._fetchall(
            "SELECT f.version, f.forms, t.status, t.guild_id, s.user_id, s.ai_takeover,"
            " EXISTS (SELECT 1 FROM actions a WHERE a.table_id = f.table_id"
            " AND a.seat = f.seat AND a.idx >= f.version) AS acted,"
            " (SELECT COALESCE(MAX(a.idx) + 1, 0) FROM actions a"
            " WHERE a.table_id = f.table_id) AS log_version"
            " FROM dm_forms f JOIN tables t ON t.id = f.table_id"
            " LEFT JOIN seats s ON s.table_id = f.table_id AND s.seat = f.seat"
            " WHERE f.table_id = ? AND f.seat = ?",
            (table_id, seat),
        )
        if not rows:
            return None
        row = rows[0]
        return SharedForms(
            version=int(row["version"]),
            forms=str(row["forms"]),
            active=row["status"] == "active",
            guild_id=int(row["guild_id"]),
            user_id=None if row["user_id"] is None else int(row["user_id"]),
            ai_takeover=bool(row["ai_takeover"]),
            acted=bool(row["acted"]),
            log_version=int(row["log_version"]),
        )

    async def forget_forms(self) -> int:
        """Delete the forms (and held passes) of tables no longer running; how many rows
        were deleted."""
        return await self._write_one(
            "DELETE FROM dm_forms WHERE table_id NOT IN"
            " (SELECT id FROM tables WHERE status = 'active')",
            (),
        ) + await self._write_one(
            "DELETE FROM held_passes WHERE table_id NOT IN"
            " (SELECT id FROM tables WHERE status = 'active')",
            (),
        )

    # -- passes held in answer windows (issue 31) --------------------------------------------

    async def hold_pass(self, table_id: int, seat: int, version: int) -> None:
        """A pass the seat gave in an open answer window (the decision of prompt
        ``version``), held till the window closes: written for the driver, which holds it
        too (:meth:`held_passes`; on PostgreSQL notified to it as ``"<table>:held"`` in the
        same statement), and for whoever drives the table after a restart or a takeover."""
        sql = "INSERT INTO held_passes (table_id, seat, version) SELECT ?, ?, ?"
        params: tuple[Any, ...] = (table_id, seat, version)
        if self.notify_sql is not None:
            sql += f" FROM {self.notify_sql}"
            params = (*params, f"{table_id}:held")
        # (WHERE true: SQLite's parser needs it before an upsert's ON CONFLICT)
        sql += " WHERE true ON CONFLICT (table_id, seat) DO UPDATE SET version = excluded.version"
        await self._write_one(sql, params)

    async def held_passes(self, table_id: int) -> dict[int, int]:
        """The passes held for the table's seats: {seat: prompt version}."""
        if not holds_id(table_id):
            return {}
        rows = await self._fetchall(
            "SELECT seat, version FROM held_passes WHERE table_id = ?", (table_id,)
        )
        return {int(r["seat"]): int(r["version"]) for r in rows}

    async def action_rows(self, table_id: int) -> list[ActionRow]:
        rows = await self._fetchall(
            "SELECT idx, seat, code, source, created_at FROM actions"
            " WHERE table_id = ? ORDER BY idx",
            (table_id,),
        )
        return [ActionRow(**dict(row)) for row in rows]

    # -- leases ------------------------------------------------------------------------------
    # A process drives a table (timers, AI seats, the table message, the end) only while it
    # holds the table's lease. Leases expire by the database's clock (``clock_sql``): the
    # processes' own clocks may differ, the database's is one for all.

    async def claim_lease(self, table_id: int, owner: str, ttl: float) -> LeaseClaim | None:
        """Claim the lease of one table in the ``lobby`` or ``active`` status for ``ttl``
        seconds, if it is free (never leased, or expired). None if another owner holds it."""
        claims = await self._claim_leases(
            owner, ttl, "t.id = ? AND t.status IN ('lobby', 'active')", (table_id,)
        )
        return claims[0] if claims else None

    async def claim_free_leases(
        self, owner: str, ttl: float, *, succeeding: str | None = None
    ) -> list[LeaseClaim]:
        """Claim every ``active`` table whose lease is free (never leased, or expired: its
        owner died or let it go), oldest table first. Of several processes claiming at once,
        each table goes to exactly one. With ``succeeding``, also the unexpired leases of
        owners whose name starts with it: an earlier run of the claiming process, killed
        before its leases ran out (if that run still lives, its next renewal fails and it
        stops driving them)."""
        return await self._claim_leases(owner, ttl, "t.status = 'active'", (), succeeding)

    async def _claim_leases(
        self,
        owner: str,
        ttl: float,
        where: str,
        params: Sequence[Any],
        succeeding: str | None = None,
    ) -> list[LeaseClaim]:
        clock = self.clock_sql
        # A lease counts as held unless it expired or belongs to an earlier run of this
        # process (``succeeding``: its owner names start so; '' matches no owner here).
        heir = succeeding or ""

        def earlier_run(lease: str) -> str:
            return (
                f"(CAST(? AS TEXT) <> '' AND {lease}.owner <> CAST(? AS TEXT)"
                f" AND substr({lease}.owner, 1, length(CAST(? AS TEXT))) = CAST(? AS TEXT))"
            )

        inherit = (heir, owner, heir, heir)
        async with self._transaction() as tx:
            # One statement: a concurrent claimer of the same row waits for this one's commit
            # and then finds the lease taken (the conflict's WHERE sees the newest row).
            claimed = await tx.fetch(
                "INSERT INTO table_leases (table_id, owner, expires_at, previous_expiry)"
                f" SELECT t.id, ?, {clock} + ?, NULL FROM tables AS t WHERE {where}"
                " AND NOT EXISTS (SELECT 1 FROM table_leases AS l"
                f" WHERE l.table_id = t.id AND l.expires_at > {clock}"
                f" AND NOT {earlier_run('l')})"
                " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner,"
                " expires_at = excluded.expires_at,"
                f" previous_expiry = CASE WHEN table_leases.expires_at < {clock}"
                f" THEN table_leases.expires_at ELSE {clock} END"
                f" WHERE table_leases.expires_at <= {clock} OR {earlier_run('table_leases')}"
                " RETURNING table_id",
                (owner, ttl, *params, *inherit, *inherit),
            )
            ids = sorted(int(row[0]) for row in claimed)
            if not ids:
                return []
            rows = await tx.fetch(
                f"SELECT l.table_id, {clock} - l.previous_expiry AS unowned_for,"
                f" {clock} - COALESCE((SELECT MAX(a.created_at) FROM actions AS a"
                " WHERE a.table_id = l.table_id), t.started_at, t.created_at) AS decided_ago"
                " FROM table_leases AS l JOIN tables AS t ON t.id = l.table_id"
                f" WHERE l.table_id IN ({_marks(len(ids))}) ORDER BY l.table_id",
                ids,
            )
        return [
            LeaseClaim(
                table_id=int(row["table_id"]),
                unowned_for=None if row["unowned_for"] is None else max(0.0, row["unowned_for"]),
                decided_ago=max(0.0, float(row["decided_ago"])),
            )
            for row in rows
        ]

    async def renew_leases(self, owner: str, ttl: float) -> set[int]:
        """Extend every lease ``owner`` holds on a table still in play by ``ttl`` seconds, in
        one statement. Returns the tables renewed: a lease missing from it was taken by
        another process (after it expired) or its table ended."""
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"UPDATE table_leases SET expires_at = {self.clock_sql} + ?"
                " WHERE owner = ? AND table_id IN"
                " (SELECT id FROM tables WHERE status IN ('lobby', 'active'))"
                " RETURNING table_id",
                (ttl, owner),
            )
        return {int(row[0]) for row in rows}

    async def release_leases(self, owner: str, table_ids: Sequence[int] | None = None) -> int:
        """Let go of ``owner``'s leases (all, or those of ``table_ids``): they expire now, so
        another process may claim them at once. Returns how many were released."""
        clock = self.clock_sql
        sql = (
            f"UPDATE table_leases SET expires_at = {clock} WHERE owner = ? AND expires_at > {clock}"
        )
        params: list[Any] = [owner]
        if table_ids is not None:
            if not table_ids:
                return 0
            sql += f" AND table_id IN ({_marks(len(table_ids))})"
            params += list(table_ids)
        async with self._transaction() as tx:
            return await tx.execute(sql, params)

    async def lease_owner(self, table_id: int) -> str | None:
        """The owner of the table's lease, expired or not (the last process to claim it),
        or None if it was never leased."""
        rows = await self._fetchall(
            "SELECT owner FROM table_leases WHERE table_id = ?", (table_id,)
        )
        return str(rows[0][0]) if rows else None

    async def lease_holder(self, table_id: int) -> str | None:
        """The owner of the table's unexpired lease, or None."""
        rows = await self._fetchall(
            f"SELECT owner FROM table_leases WHERE table_id = ? AND expires_at > {self.clock_sql}",
            (table_id,),
        )
        return str(rows[0][0]) if rows else None

    # -- results and ratings -----------------------------------------------------------------

    async def record_result(
        self,
        table_id: int,
        *,
        guild_id: int,
        game: str,
        rows: Sequence[ResultInput],
        rating_games: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]] = (),
        rated: bool = True,
    ) -> bool:
        """Write a finished match once: results, the table's ``finished`` status, ratings.

        Returns False, changing nothing, if the table's results are already recorded (also
        when another process records them at the same moment) or the table was aborted (an
        abort decided before the last move was logged stands). Humans are rated by user id;
        all AI seats share the pseudo-player ``AI_USER_ID`` per (guild, game). Ratings
        follow the final places and teams of ``rows`` — or, when ``rating_games`` is given,
        each of those contests in turn (``(teams of seats, place of each team)``, e.g.
        every San Da Yi hand as one declarer against three). ``rated=False``, or a table
        whose stored options say hints were used (``hinted``, read in the same
        transaction), records the results and changes no rating.
        """
        if not rows:
            raise StoreError(f"table {table_id}: no result rows")
        if len({row.seat for row in rows}) != len(rows):
            raise StoreError(f"table {table_id}: a seat appears twice in the results")
        if any(row.user_id == AI_USER_ID for row in rows):
            raise StoreError(f"user id {AI_USER_ID} is reserved for the AI")
        now = _now()
        async with self._transaction() as tx:
            await tx.lock(f"results:{table_id}")
            if await tx.fetch("SELECT 1 FROM results WHERE table_id = ? LIMIT 1", (table_id,)):
                return False
            # The status first, and only from a status other than aborted: this row update
            # and an abort's (``transition``) exclude each other, so one of them wins.
            finished = await tx.execute(
                "UPDATE tables SET status = 'finished', finished_at = ?"
                " WHERE id = ? AND status <> 'aborted'",
                (now, table_id),
            )
            table = await tx.fetch("SELECT options, status FROM tables WHERE id = ?", (table_id,))
            if table and not finished:
                log.info("table %d was aborted: its results are not recorded", table_id)
                return False
            if table and hinted(table[0]["options"]):
                rated = False
            try:
                await tx.executemany(
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
            except IntegrityViolation as exc:
                raise StoreError(f"table {table_id}: cannot record results ({exc})") from exc
            if rated:
                await self._update_ratings(tx, guild_id, game, rows, rating_games, now)
        log.info("recorded results of table %d (%s)", table_id, game)
        return True

    @staticmethod
    async def _update_ratings(
        tx: Transaction,
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
        # Read, compute, write: other processes rating the same (guild, game) wait.
        await tx.lock(f"ratings:{guild_id}:{game}")
        found = await tx.fetch(
            "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({_marks(len(players))})",
            (guild_id, game, *players),
        )
        current = {row["user_id"]: (row["mu"], row["sigma"]) for row in found}

        new: dict[Any, tuple[float, float]] = {}
        for entries in contests:
            update = ratings.rate_match(entries, {**current, **new})
            new.update(update)
        if not new:
            return  # e.g. an all-AI game: nothing to learn, nothing to count
        winners = {player(row) for row in rows if row.place == 1}
        await tx.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)"
            " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name = excluded.name,"
            " mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1,"
            " wins = ratings.wins + excluded.wins, updated_at = excluded.updated_at",
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
            GROUP BY r.game, r.guild_id, g.mu, g.sigma
            ORDER BY r.game
            """,
            (AI_USER_ID, guild_id, user_id),
        )
        return [_stats_row(row) for row in rows]


__all__ = [
    "DEFAULT_PATH",
    "IntegrityViolation",
    "Outage",
    "Store",
    "Transaction",
    "is_postgres_url",
    "outage_error",
]


#: The next index of a table's log and the table's status (``?``: the table id, twice).
_NEXT_SQL = (
    "SELECT COALESCE(MAX(idx) + 1, 0),"
    " (SELECT status FROM tables WHERE id = ?) FROM actions WHERE table_id = ?"
)


async def _appended(table_id: int, idx: int, insert: Awaitable[int]) -> int:
    """The rows an append's ``INSERT`` made; a unique violation (another writer took the
    index first) is a StoreError."""
    try:
        return await insert
    except IntegrityViolation as exc:
        if exc.duplicate:
            raise StoreError(f"table {table_id}: action index {idx} is already taken") from exc
        raise StoreError(f"table {table_id}: cannot log action ({exc})") from exc


def _not_appended(table_id: int, idx: int, rows: Sequence[Row]) -> StoreError:
    """Why an append inserted nothing (``rows``: :data:`_NEXT_SQL` read after it): the
    table is closed, or ``idx`` is not the next index."""
    expected, status = int(rows[0][0]), rows[0][1]
    if status in CLOSED_STATUSES:
        return TableClosed(f"table {table_id} is {status}: no action is logged")
    return StoreError(f"table {table_id}: action index {idx} is out of order (next is {expected})")


def _click_params(table_id: int, seat: int, idx: int, click: SharedClick) -> tuple[Any, ...]:
    """The parameters of ``Store._share_click_sql``."""
    return (
        table_id,
        seat,
        idx,
        click.application_id,
        click.token,
        click.message_id,
        click.age,
    )
