"""The store, on both backends (``store`` and ``new_database`` are parametrized over SQLite
and PostgreSQL, see conftest.py), plus what is particular to each."""

import asyncio
import shutil
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store import AI_USER_ID, ResultInput, SeatRow, SharedClick, Store, StoreError
from bot.store.migrate import MIGRATIONS_DIR, MIGRATIONS_PG_DIR, discover
from bot.store.ratings import DEFAULT_MU, DEFAULT_SIGMA
from bot.store.rows import MAX_ID

GUILD = 100
LATEST = len(discover())
MIGRATIONS = {"sqlite": MIGRATIONS_DIR, "postgres": MIGRATIONS_PG_DIR}
SQL_ERRORS = (sqlite3.Error, asyncpg.PostgresError)
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def new_table(store: Store, game: str = "koikoi", guild: int = GUILD) -> int:
    return await store.create_table(
        guild_id=guild, channel_id=200, game=game, options={"rounds": 6}, seed="s33d", host_id=1
    )


async def scalar(store: Store, sql: str, params=()):
    return (await store.query(sql, params))[0][0]


async def rating(store: Store, user_id: int, game: str = "koikoi") -> tuple[float, float, int, int]:
    rows = await store.query(
        "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
        (GUILD, game, user_id),
    )
    return tuple(rows[0]) if rows else None


async def table_exists(store: Store, name: str) -> bool:
    if store.backend == "sqlite":
        sql = "SELECT COUNT(*) FROM sqlite_master WHERE name = ?"
    else:
        sql = (
            "SELECT COUNT(*) FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_name = ?"
        )
    return await scalar(store, sql, (name,)) == 1


def ffa(*players: tuple[int | None, int, int]) -> list[ResultInput]:
    """Free-for-all rows from (user_id, score, place); one team per seat."""
    return [
        ResultInput(seat, uid, f"p{uid}", score, place, team=seat)
        for seat, (uid, score, place) in enumerate(players)
    ]


# -- migrations and connection ---------------------------------------------------------------


async def test_open_picks_the_backend(backend: str, new_database):
    s = await Store.open(await new_database())
    assert s.backend == backend
    await s.close()


async def test_migrations_apply_once_and_reopen_is_noop(new_database):
    database = await new_database()
    s = await Store.open(database)
    first = await s.query("SELECT version, applied_at FROM schema_version ORDER BY version")
    await s.close()

    s = await Store.open(database)
    again = await s.query("SELECT version, applied_at FROM schema_version ORDER BY version")
    await s.close()
    assert [tuple(r) for r in first] == [tuple(r) for r in again]
    assert [r[0] for r in again] == list(range(1, LATEST + 1))


def test_both_backends_have_the_same_migrations():
    assert [(m.version, m.name) for m in discover(MIGRATIONS_DIR)] == [
        (m.version, m.name) for m in discover(MIGRATIONS_PG_DIR)
    ]


async def test_reopen_applies_only_new_migrations_and_failed_one_rolls_back(
    backend: str, new_database, tmp_path: Path
):
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS[backend], migrations)
    database = await new_database()
    await (await Store.open(database, migrations_dir=migrations)).close()

    (migrations / f"{LATEST + 1:04d}_notes.sql").write_text(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY);"
    )
    s = await Store.open(database, migrations_dir=migrations)
    assert await scalar(s, "SELECT MAX(version) FROM schema_version") == LATEST + 1
    await s.close()

    # a broken migration leaves nothing behind, not even its first statement
    broken = migrations / f"{LATEST + 2:04d}_broken.sql"
    broken.write_text("CREATE TABLE half (id INTEGER);\nNOT SQL;")
    with pytest.raises(SQL_ERRORS):
        await Store.open(database, migrations_dir=migrations)
    broken.unlink()
    s = await Store.open(database, migrations_dir=migrations)
    assert await scalar(s, "SELECT MAX(version) FROM schema_version") == LATEST + 1
    assert await table_exists(s, "notes") and not await table_exists(s, "half")
    await s.close()


async def test_database_newer_than_code_is_refused(backend: str, new_database, tmp_path: Path):
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS[backend], migrations)
    (migrations / f"{LATEST + 1:04d}_extra.sql").write_text("CREATE TABLE extra (id INTEGER);")
    database = await new_database()
    await (await Store.open(database, migrations_dir=migrations)).close()
    with pytest.raises(StoreError, match="newer"):
        await Store.open(database)


async def test_file_database_uses_wal_and_pragmas(tmp_path: Path):
    s = await Store.open(tmp_path / "t.db")
    assert await scalar(s, "PRAGMA journal_mode") == "wal"
    assert await scalar(s, "PRAGMA foreign_keys") == 1
    assert await scalar(s, "PRAGMA synchronous") == 1  # NORMAL
    # SQLite's busy handler waits on the connection's own thread, never on the loop's.
    assert await scalar(s, "PRAGMA busy_timeout") == 5000
    await s.close()


async def test_a_locked_sqlite_database_is_waited_for(tmp_path: Path):
    """Another process holds the write lock: the store's writes wait for it (SQLite's busy
    handler, on the writer's thread), then go through; a transaction waits the same way;
    and reads do not wait for it (WAL, a connection of their own)."""
    s = await Store.open(tmp_path / "t.db")
    tid = await new_table(s)
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    append = asyncio.ensure_future(s.append_action(tid, 0, 0, "a0", "player"))
    update = asyncio.ensure_future(s.update_table(tid, status="finished"))
    seats = asyncio.ensure_future(s.set_seats(tid, [SeatRow(0, 11, "alice")]))  # a transaction
    await asyncio.sleep(0.2)
    assert not any(call.done() for call in (append, update, seats))
    other.execute("COMMIT")
    await asyncio.gather(append, update, seats)
    assert [seat.name for seat in await s.get_seats(tid)] == ["alice"]
    assert await s.actions(tid) == [(0, "a0")]
    assert (await s.get_table(tid)).status == "finished"
    other.close()
    await s.close()


async def test_default_path_creates_data_directory(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = await Store.open()
    await s.close()
    assert (tmp_path / "data" / "teahouse.db").is_file()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgres_processes_starting_together_migrate_once(new_database):
    """An advisory lock: the second process waits for the first one's migrations."""
    database = await new_database()
    stores = await asyncio.gather(*(Store.open(database) for _ in range(3)))
    versions = await stores[0].query("SELECT version FROM schema_version ORDER BY version")
    assert [r[0] for r in versions] == list(range(1, LATEST + 1))
    for s in stores:
        await s.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgres_url_schemes(new_database):
    database = await new_database()
    assert database.startswith("postgresql://")
    s = await Store.open("postgres://" + database.removeprefix("postgresql://"))
    assert s.backend == "postgres"
    await s.close()


# -- tables and seats ------------------------------------------------------------------------


async def test_table_crud(store: Store):
    tid = await new_table(store)
    table = await store.get_table(tid)
    assert table.status == "lobby"
    assert table.options == {"rounds": 6}
    assert (table.guild_id, table.channel_id, table.game, table.seed, table.host_id) == (
        GUILD,
        200,
        "koikoi",
        "s33d",
        1,
    )
    assert table.started_at is None and table.created_at > 0

    await store.update_table(tid, thread_id=300, table_message_id=400, options={"rounds": 12})
    await store.update_table(tid, status="active")
    table = await store.get_table(tid)
    assert (table.thread_id, table.table_message_id, table.options) == (300, 400, {"rounds": 12})
    assert table.status == "active" and table.started_at is not None

    assert await store.get_table(9999) is None
    with pytest.raises(StoreError, match="guild_id"):
        await store.update_table(tid, guild_id=5)
    with pytest.raises(StoreError, match="status"):
        await store.update_table(tid, status="paused")
    with pytest.raises(StoreError, match="no table"):
        await store.update_table(9999, thread_id=1)


async def test_tables_by_status(store: Store):
    lobby, active, finished, aborted = [await new_table(store) for _ in range(4)]
    await store.update_table(active, status="active")
    await store.update_table(finished, status="finished")
    await store.update_table(aborted, status="aborted")
    assert (await store.get_table(aborted)).finished_at is not None
    assert [t.id for t in await store.unfinished_tables()] == [lobby, active]
    assert [t.id for t in await store.tables_with_status("finished", "aborted")] == [
        finished,
        aborted,
    ]
    with pytest.raises(StoreError):
        await store.tables_with_status("bogus")


async def test_seat_crud(store: Store):
    tid = await new_table(store)
    await store.set_seats(tid, [SeatRow(1, None, "AI 1", is_ai=True), SeatRow(0, 11, "alice")])
    seats = await store.get_seats(tid)
    assert [s.seat for s in seats] == [0, 1]
    assert seats[0] == SeatRow(0, 11, "alice")
    assert seats[1].is_ai is True and seats[1].user_id is None

    # replacing drops the old seats
    await store.set_seats(tid, [SeatRow(0, 11, "alice"), SeatRow(1, 22, "bob")])
    assert [s.name for s in await store.get_seats(tid)] == ["alice", "bob"]

    assert (await store.get_seats(tid))[1].dm_decision is None  # never sent: unknown
    await store.update_seat(
        tid, 1, dm_channel_id=5, dm_message_id=6, dm_decision=2**32 - 1, timeouts=2
    )
    await store.update_seat(tid, 1, ai_takeover=True, dms_closed=True)
    bob = (await store.get_seats(tid))[1]
    assert (bob.dm_channel_id, bob.dm_message_id, bob.dm_decision, bob.timeouts) == (
        5,
        6,
        2**32 - 1,  # a CRC-32 (PostgreSQL needs a BIGINT)
        2,
    )
    assert bob.ai_takeover is True and bob.dms_closed is True and bob.user_id == 22

    with pytest.raises(StoreError, match="no seat 7"):
        await store.update_seat(tid, 7, timeouts=1)
    with pytest.raises(StoreError, match="cannot change"):
        await store.update_seat(tid, 0, table_id=3)
    with pytest.raises(StoreError):  # a human seat needs a user, an AI seat has none
        await store.set_seats(tid, [SeatRow(0, None, "nobody", is_ai=False)])
    assert len(await store.get_seats(tid)) == 2  # the failed replace changed nothing
    with pytest.raises(StoreError):  # no such table
        await store.set_seats(9999, [SeatRow(0, 1, "x")])


# -- action log ------------------------------------------------------------------------------


async def test_actions_are_ordered_and_keep_their_source(store: Store):
    tid = await new_table(store)
    await store.append_action(tid, 0, 0, "play 1b 1p1", "player")
    await store.append_action(tid, 1, 1, "play 3a", "ai")
    await store.append_action(tid, 2, 0, "stop", "timeout")
    assert await store.actions(tid) == [(0, "play 1b 1p1"), (1, "play 3a"), (0, "stop")]
    rows = await store.action_rows(tid)
    assert [(r.idx, r.source) for r in rows] == [(0, "player"), (1, "ai"), (2, "timeout")]
    assert await store.actions(await new_table(store)) == []


async def test_tables_load_in_bulk_as_one_by_one(store: Store):
    """``load_tables`` gives each table's row, seats and log as the one-table reads do;
    an id with no table is left out."""
    first, second, empty = await new_table(store), await new_table(store), await new_table(store)
    await store.set_seats(
        first,
        [
            SeatRow(seat=0, user_id=7, name="Alice"),
            SeatRow(seat=1, user_id=None, name="AI 1", is_ai=True),
        ],
    )
    await store.set_seats(second, [SeatRow(seat=0, user_id=8, name="Bob", dms_closed=True)])
    await store.append_action(first, 0, 0, "play 1b 1p1", "player")
    await store.append_action(second, 0, 0, "stop", "player")
    await store.append_action(first, 1, 1, "play 3a", "ai")
    loaded = await store.load_tables([second, first, empty, 9999])
    assert sorted(loaded) == sorted([first, second, empty])
    for tid in (first, second, empty):
        assert loaded[tid] == (
            await store.get_table(tid),
            await store.get_seats(tid),
            await store.actions(tid),
        )
    assert loaded[first][2] == [(0, "play 1b 1p1"), (1, "play 3a")]
    assert await store.load_tables([]) == {}


async def test_an_id_too_large_for_the_database_names_no_table(store: Store):
    """A table id beyond the store's 64-bit ids (a forged custom id) reads as no table, as
    an unknown id does, instead of the driver's OverflowError / DataError."""
    tid = await new_table(store)
    await store.append_action(tid, 0, 0, "stop", "player")
    for huge in (99999999999999999999999999, MAX_ID + 1, -MAX_ID - 2):
        assert await store.get_table(huge) is None
        assert await store.get_seats(huge) == []
        assert await store.actions(huge) == []
        assert await store.actions_since(huge, 0) == []
        assert list(await store.load_tables([tid, huge])) == [tid]
    assert await store.get_table(MAX_ID) is None  # the largest id it holds: just unknown


async def test_action_index_gap_or_repeat_is_rejected(store: Store):
    tid = await new_table(store)
    with pytest.raises(StoreError, match="next is 0"):
        await store.append_action(tid, 1, 0, "pass", "player")
    await store.append_action(tid, 0, 0, "pass", "player")
    with pytest.raises(StoreError, match="next is 1"):
        await store.append_action(tid, 0, 1, "pass", "player")
    with pytest.raises(StoreError, match="next is 1"):
        await store.append_action(tid, 2, 1, "pass", "player")
    with pytest.raises(StoreError, match="source"):
        await store.append_action(tid, 1, 1, "pass", "robot")
    with pytest.raises(StoreError):
        await store.append_action(9999, 0, 0, "pass", "player")
    assert await store.actions(tid) == [(0, "pass")]


async def test_actions_are_append_only(store: Store):
    tid = await new_table(store)
    await store.append_action(tid, 0, 0, "pass", "player")
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await store.query("UPDATE actions SET code = 'cheat' WHERE table_id = ?", (tid,))
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await store.query("DELETE FROM actions WHERE table_id = ?", (tid,))
    if store.backend == "postgres":
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            await store.query("TRUNCATE actions")
    assert await store.actions(tid) == [(0, "pass")]


async def test_tables_append_concurrently(store: Store):
    """What the host does: each table appends in order, many tables at the same time."""
    tables = [await new_table(store) for _ in range(4)]

    async def play(tid: int) -> None:
        for i in range(20):
            await store.append_action(tid, i, i % 2, f"a{i}", "player")

    await asyncio.gather(*(play(tid) for tid in tables))
    for tid in tables:
        assert await store.actions(tid) == [(i % 2, f"a{i}") for i in range(20)]


async def test_calls_are_served_in_the_order_they_are_made(store: Store):
    """Within one process, on either backend: writes in the order they are made, and a read
    sees the writes made before it (the host relies on that, e.g. a finished table)."""
    a, b = await new_table(store), await new_table(store)
    await asyncio.gather(
        *(store.append_action(t, i, i % 2, f"a{i}", "player") for i in range(20) for t in (a, b))
    )
    assert await store.actions(a) == [(i % 2, f"a{i}") for i in range(20)]
    assert await store.actions(b) == await store.actions(a)

    write = asyncio.ensure_future(store.update_table(a, status="finished"))
    table, _ = await asyncio.gather(store.get_table(a), write)
    assert table.status == "finished"


async def test_a_statement_made_during_a_transaction_is_not_part_of_it(store: Store):
    """A single-statement write (an append, a seat's update), made while another call's
    transaction is open, is neither made inside it nor undone with it: on SQLite it waits
    for the transaction to end (one shared connection), and reads never see its rows."""
    tid = await new_table(store)
    await store.set_seats(tid, [SeatRow(0, 11, "alice"), SeatRow(1, 22, "bob")])
    seen: list[str] = []
    with pytest.raises(RuntimeError):
        async with store._transaction() as tx:
            await tx.execute("UPDATE seats SET name = ? WHERE table_id = ?", ("renamed", tid))
            meanwhile = asyncio.gather(
                store.update_seat(tid, 1, dm_message_id=99),
                store.append_action(tid, 0, 0, "a0", "player"),
            )
            await asyncio.sleep(0.05)  # they are queued while the transaction is open
            seen = [row[0] for row in await tx.fetch("SELECT name FROM seats")]
            raise RuntimeError("roll back")
    await meanwhile
    assert seen == ["renamed", "renamed"]
    seats = await store.get_seats(tid)
    assert [s.name for s in seats] == ["alice", "bob"] and seats[1].dm_message_id == 99
    assert await store.actions(tid) == [(0, "a0")]


async def test_two_writers_appending_the_same_index(new_database):
    """Two processes (two stores on one database) append the same index at once: exactly
    one row is written and the other writer gets a StoreError, every time."""
    database = await new_database()
    first, second = await Store.open(database), await Store.open(database)
    try:
        tid = await new_table(first)
        for idx in range(10):
            outcomes = await asyncio.gather(
                first.append_action(tid, idx, 0, f"first {idx}", "player"),
                second.append_action(tid, idx, 1, f"second {idx}", "player"),
                return_exceptions=True,
            )
            assert sum(outcome is None for outcome in outcomes) == 1, outcomes
            (error,) = [o for o in outcomes if o is not None]
            assert isinstance(error, StoreError) and f"index {idx}" in str(error)
        rows = await second.action_rows(tid)
        assert [row.idx for row in rows] == list(range(10))
        assert await first.actions(tid) == await second.actions(tid)
    finally:
        await first.close()
        await second.close()


async def test_a_writer_with_a_click_and_one_without_append_the_same_index(new_database):
    """A move served with its DM click (a transaction under the table's lock) and one
    without (a statement alone) race for the same index: exactly one is logged, and the
    click's row is kept only where its own move was."""
    database = await new_database()
    first, second = await Store.open(database), await Store.open(database)
    try:
        tid = await new_table(first)
        won_with_click = []
        for idx in range(10):
            click = SharedClick(application_id=42, token=f"t{idx}", message_id=None, age=0.0)
            outcomes = await asyncio.gather(
                first.append_action(tid, idx, 0, f"first {idx}", "player", click),
                second.append_action(tid, idx, 1, f"second {idx}", "player"),
                return_exceptions=True,
            )
            assert sum(outcome is None for outcome in outcomes) == 1, outcomes
            if outcomes[0] is None:
                won_with_click.append(idx)
        rows = await second.action_rows(tid)
        assert [row.idx for row in rows] == list(range(10))
        _, clicks, _ = await second.actions_with_clicks_since(tid, 0, 840.0)
        assert (f"t{won_with_click[-1]}" if won_with_click else None) == (
            clicks[0].token if 0 in clicks else None
        )
        kept = await second.query("SELECT idx FROM click_tokens WHERE table_id = ?", (tid,))
        assert [r[0] for r in kept] == won_with_click[-1:]
    finally:
        await first.close()
        await second.close()


async def test_two_writers_recording_the_same_result(new_database):
    database = await new_database()
    first, second = await Store.open(database), await Store.open(database)
    try:
        tid = await new_table(first)
        rows = ffa((11, 30, 1), (22, 10, 2))
        recorded = await asyncio.gather(
            *(
                s.record_result(tid, guild_id=GUILD, game="koikoi", rows=rows)
                for s in (first, second)
            )
        )
        assert sorted(recorded) == [False, True]
        assert await scalar(first, "SELECT COUNT(*) FROM results WHERE table_id = ?", (tid,)) == 2
        assert (await rating(first, 11))[2:] == (1, 1)
    finally:
        await first.close()
        await second.close()


async def test_discord_snowflakes_fit(store: Store):
    snowflake = 1_234_567_890_123_456_789
    tid = await store.create_table(
        guild_id=snowflake, channel_id=snowflake + 1, game="koikoi", options={}, seed="1",
        host_id=snowflake + 2,
    )  # fmt: skip
    await store.update_table(tid, thread_id=snowflake + 3)
    await store.set_seats(tid, [SeatRow(0, snowflake + 4, "alice", dm_channel_id=snowflake + 5)])
    table = await store.get_table(tid)
    assert (table.guild_id, table.channel_id, table.host_id, table.thread_id) == (
        snowflake,
        snowflake + 1,
        snowflake + 2,
        snowflake + 3,
    )
    (seat,) = await store.get_seats(tid)
    assert (seat.user_id, seat.dm_channel_id) == (snowflake + 4, snowflake + 5)
    assert await store.count_tables("lobby", guild_id=snowflake, host_id=snowflake + 2) == 1


async def test_close_and_reopen_keeps_everything(new_database):
    database = await new_database()
    s = await Store.open(database)
    tid = await new_table(s)
    await s.set_seats(tid, [SeatRow(0, 11, "alice"), SeatRow(1, None, "AI", is_ai=True)])
    await s.update_table(tid, status="active")
    for i, code in enumerate(["play 1b", "play 2a", "koikoi"]):
        await s.append_action(tid, i, i % 2, code, "player")
    await s.close()

    s = await Store.open(database)
    assert [t.id for t in await s.unfinished_tables()] == [tid]
    assert await s.actions(tid) == [(0, "play 1b"), (1, "play 2a"), (0, "koikoi")]
    assert [seat.name for seat in await s.get_seats(tid)] == ["alice", "AI"]
    await s.append_action(tid, 3, 1, "pass", "ai")  # the log continues where it stopped
    await s.close()


# -- results and ratings ---------------------------------------------------------------------


async def test_record_result_is_idempotent(store: Store):
    tid = await new_table(store)
    rows = ffa((11, 30, 1), (22, 10, 2))
    assert await store.record_result(tid, guild_id=GUILD, game="koikoi", rows=rows) is True
    table = await store.get_table(tid)
    assert table.status == "finished" and table.finished_at is not None
    before = (await rating(store, 11), await rating(store, 22))

    swapped = ffa((11, 0, 2), (22, 50, 1))
    assert await store.record_result(tid, guild_id=GUILD, game="koikoi", rows=swapped) is False
    assert (await rating(store, 11), await rating(store, 22)) == before
    assert await scalar(store, "SELECT COUNT(*) FROM results WHERE table_id = ?", (tid,)) == 2
    assert await scalar(store, "SELECT score FROM results WHERE user_id = 11") == 30


async def test_two_player_ratings_move_towards_the_winner(store: Store):
    await store.record_result(
        await new_table(store), guild_id=GUILD, game="koikoi", rows=ffa((11, 30, 1), (22, 10, 2))
    )
    mu_w, sigma_w, games_w, wins_w = await rating(store, 11)
    mu_l, sigma_l, games_l, wins_l = await rating(store, 22)
    assert mu_w > DEFAULT_MU > mu_l
    assert sigma_w < DEFAULT_SIGMA and sigma_l < DEFAULT_SIGMA
    assert (games_w, wins_w, games_l, wins_l) == (1, 1, 1, 0)

    # a second game the other way round pulls them back together
    await store.record_result(
        await new_table(store), guild_id=GUILD, game="koikoi", rows=ffa((11, 0, 2), (22, 40, 1))
    )
    mu_w2, *_ = await rating(store, 11)
    mu_l2, *_, wins = await rating(store, 22)
    assert mu_w2 < mu_w and mu_l2 > mu_l and wins == 1


async def test_team_ratings_2v2(store: Store):
    tid = await new_table(store, "panda")
    rows = [
        ResultInput(0, 11, "a", 1000, 1, team=0),
        ResultInput(1, 22, "b", 400, 2, team=1),
        ResultInput(2, 33, "c", 1000, 1, team=0),
        ResultInput(3, 44, "d", 400, 2, team=1),
    ]
    assert await store.record_result(tid, guild_id=GUILD, game="panda", rows=rows)
    winners = [await rating(store, u, "panda") for u in (11, 33)]
    losers = [await rating(store, u, "panda") for u in (22, 44)]
    assert all(r[0] > DEFAULT_MU and r[2:] == (1, 1) for r in winners)
    assert all(r[0] < DEFAULT_MU and r[2:] == (1, 0) for r in losers)
    assert winners[0] == pytest.approx(winners[1]) and losers[0] == pytest.approx(losers[1])


@pytest.mark.parametrize("declarer_wins", [True, False])
async def test_team_ratings_1v3(store: Store, declarer_wins: bool):
    tid = await new_table(store, "sandayi")
    declarer_place, defender_place = (1, 2) if declarer_wins else (2, 1)
    rows = [ResultInput(0, 11, "declarer", 5, declarer_place, team=0)] + [
        ResultInput(seat, uid, f"d{seat}", -5, defender_place, team=1)
        for seat, uid in ((1, 22), (2, 33), (3, 44))
    ]
    await store.record_result(tid, guild_id=GUILD, game="sandayi", rows=rows)
    declarer_mu = (await rating(store, 11, "sandayi"))[0]
    defender_mus = [(await rating(store, u, "sandayi"))[0] for u in (22, 33, 44)]
    if declarer_wins:
        assert declarer_mu > DEFAULT_MU and all(mu < DEFAULT_MU for mu in defender_mus)
    else:
        assert declarer_mu < DEFAULT_MU and all(mu > DEFAULT_MU for mu in defender_mus)


async def test_ai_seats_share_one_rated_pseudo_player(store: Store):
    tid = await new_table(store, "mahjong")
    rows = ffa((None, 10, 1), (11, 5, 2), (None, 0, 3), (None, -5, 4))
    await store.record_result(tid, guild_id=GUILD, game="mahjong", rows=rows)
    mu, sigma, games, wins = await rating(store, AI_USER_ID, "mahjong")
    assert (games, wins) == (1, 1)  # one game for the AI, however many seats it held
    assert await scalar(store, "SELECT name FROM ratings WHERE user_id = 0") == "AI"
    assert await scalar(store, "SELECT COUNT(*) FROM results WHERE user_id IS NULL") == 3
    assert [row.user_id for row in await store.leaderboard(GUILD, "mahjong")] == [11]

    # an all-AI game is recorded but rates nobody
    tid = await new_table(store, "mahjong")
    assert await store.record_result(
        tid, guild_id=GUILD, game="mahjong", rows=ffa(*[(None, 0, s + 1) for s in range(4)])
    )
    assert (await rating(store, AI_USER_ID, "mahjong"))[2] == 1

    with pytest.raises(StoreError, match="reserved"):
        await store.record_result(
            await new_table(store), guild_id=GUILD, game="mahjong", rows=ffa((0, 1, 1), (11, 0, 2))
        )


async def test_leaderboard_order_and_scope(store: Store):
    # 11 beats everyone twice, 22 beats 33 twice; 44 plays in another guild only
    for winner, loser in [(11, 22), (11, 33), (22, 33), (11, 22), (22, 33), (11, 33)]:
        await store.record_result(
            await new_table(store),
            guild_id=GUILD,
            game="koikoi",
            rows=ffa((winner, 10, 1), (loser, 0, 2)),
        )
    await store.record_result(
        await new_table(store, guild=999),
        guild_id=999,
        game="koikoi",
        rows=ffa((44, 10, 1), (None, 0, 2)),
    )
    board = await store.leaderboard(GUILD, "koikoi")
    assert [row.user_id for row in board] == [11, 22, 33]
    assert [row.ordinal for row in board] == sorted((r.ordinal for r in board), reverse=True)
    top = board[0]
    assert top.ordinal == pytest.approx(top.mu - 3 * top.sigma)
    assert (top.name, top.games, top.wins) == ("p11", 4, 4)
    assert [row.user_id for row in await store.leaderboard(GUILD, "koikoi", limit=2)] == [11, 22]
    assert await store.leaderboard(GUILD, "panda") == []
    assert [row.user_id for row in await store.leaderboard(999, "koikoi")] == [44]


async def test_stats_figures(store: Store):
    async def play(game: str, *players):
        await store.record_result(
            await new_table(store, game), guild_id=GUILD, game=game, rows=ffa(*players)
        )

    await play("koikoi", (11, 30, 1), (22, 10, 2))
    await play("koikoi", (11, 5, 2), (22, 12, 1))
    await play("koikoi", (11, 44, 1), (22, 0, 2))
    await play("mahjong", (22, 50, 1), (11, -10, 3), (33, 20, 2), (None, -60, 4))

    stats = await store.stats(GUILD, 11)
    assert [s.game for s in stats] == ["koikoi", "mahjong"]
    koikoi, mahjong = stats
    assert (koikoi.games, koikoi.wins, koikoi.best_score) == (3, 2, 44)
    assert koikoi.average_place == pytest.approx(4 / 3)
    assert koikoi.rank_in_guild == 1
    assert koikoi.ordinal == pytest.approx(koikoi.mu - 3 * koikoi.sigma)
    assert (mahjong.games, mahjong.wins, mahjong.best_score, mahjong.average_place) == (
        1,
        0,
        -10,
        3.0,
    )
    assert mahjong.rank_in_guild == 3  # behind 22 and 33; the AI is not counted

    (k22,) = [s for s in await store.stats(GUILD, 22) if s.game == "koikoi"]
    assert (k22.games, k22.wins, k22.rank_in_guild) == (3, 1, 2)
    assert await store.stats(GUILD, 555) == []
    assert await store.stats(999, 11) == []


async def test_rating_games_rate_each_contest_in_turn(store: Store):
    """San Da Yi: the match is rated hand by hand, each one declarer against three."""
    tid = await new_table(store, "sandayi")
    rows = [
        ResultInput(seat, uid, f"p{seat}", 0, 1, team=seat)
        for seat, uid in enumerate((11, 22, 33, 44))
    ]
    defenders = lambda d: tuple(s for s in range(4) if s != d)  # noqa: E731
    hands = [
        (((0,), defenders(0)), (1, 2)),  # seat 0 declared and won
        (((0,), defenders(0)), (1, 2)),  # ...twice
        (((1,), defenders(1)), (2, 1)),  # seat 1 declared and lost
    ]
    await store.record_result(tid, guild_id=GUILD, game="sandayi", rows=rows, rating_games=hands)
    mus = {u: (await rating(store, u, "sandayi"))[0] for u in (11, 22, 33, 44)}
    # Seat 0 won twice as declarer; seats 2-3 lost twice and won once; seat 1 lost all three.
    assert mus[11] > DEFAULT_MU > mus[33] > mus[22]
    assert mus[33] == pytest.approx(mus[44])  # seats 2 and 3 were always defenders together
    games = [(await rating(store, u, "sandayi"))[2] for u in mus]
    assert games == [1, 1, 1, 1]  # the match counts as one game for everyone


async def test_transition_is_atomic_and_only_from_the_given_statuses(store):
    table = await store.create_table(
        guild_id=GUILD, channel_id=1, game="koikoi", options={}, seed="1", host_id=7
    )
    # Start and Cancel of the same lobby at the same moment: exactly one wins.
    started, cancelled = await asyncio.gather(
        store.transition(table, ("lobby",), "active"),
        store.transition(table, ("lobby",), "aborted"),
    )
    assert sorted([started, cancelled]) == [False, True]
    row = await store.get_table(table)
    assert row.status == ("active" if started else "aborted")
    assert await store.transition(table, ("lobby",), "active") is False
    with pytest.raises(StoreError):
        await store.transition(table, ("lobby",), "gone")


async def test_count_tables_by_status_guild_and_host(store):
    for guild, host in ((GUILD, 7), (GUILD, 7), (GUILD, 8), (GUILD + 1, 7)):
        await store.create_table(
            guild_id=guild, channel_id=1, game="koikoi", options={}, seed="1", host_id=host
        )
    assert await store.count_tables("lobby") == 4
    assert await store.count_tables("lobby", guild_id=GUILD) == 3
    assert await store.count_tables("lobby", host_id=7) == 3
    assert await store.count_tables("lobby", guild_id=GUILD, host_id=7) == 2
    assert await store.count_tables("active") == 0
