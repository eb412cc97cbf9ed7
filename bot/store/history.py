"""Finished matches, replay records and rating histories, read from what the store keeps
(tables, seats, results, actions): nothing new is stored, so matches finished before these
queries existed are found too.

Every function takes a :class:`~bot.store.Store` and reads through ``store.query``.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import game_names, game_spec
from bot.replay.core import Action, Player, Replayer, ReplayError, ReplayRecord
from bot.store import ratings
from bot.store.rows import AI_NAME, AI_USER_ID, hinted
from bot.store.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    name: str
    user_id: int | None
    score: int
    place: int

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One finished match, as the history lists it."""

    table_id: int
    game: str
    guild_id: int
    started_at: float | None
    finished_at: float | None
    actions: int
    seats: tuple[SeatResult, ...]
    #: Hints were used in this match: its result stands, it changed no rating.
    hints: bool = False

    @property
    def duration(self) -> float | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return max(0.0, self.finished_at - self.started_at)

    def ranking(self) -> list[SeatResult]:
        return sorted(self.seats, key=lambda s: (s.place, s.seat))


def _marks(n: int) -> str:
    return ", ".join("?" * n)


async def matches_played(store: Store, game: str, user_ids: Sequence[int]) -> dict[int, int]:
    """How many finished matches of ``game`` each of ``user_ids`` has a result in, in any
    server (users with none are left out)."""
    if not user_ids:
        return {}
    rows = await store.query(
        "SELECT user_id, COUNT(DISTINCT table_id) AS n FROM results WHERE game = ?"
        f" AND user_id IN ({_marks(len(user_ids))}) GROUP BY user_id",
        [game, *user_ids],
    )
    return {int(r["user_id"]): int(r["n"]) for r in rows}


def _filters(
    guild_id: int, user_id: int | None, game: str | None, channels: Collection[int] | None
) -> tuple[str, list[Any]]:
    sql = " FROM tables AS t WHERE t.guild_id = ? AND t.status = 'finished'"
    params: list[Any] = [guild_id]
    if channels is not None:
        ids = sorted(set(channels))
        sql += f" AND t.channel_id IN ({_marks(len(ids))})" if ids else " AND 1 = 0"
        params += ids
    if game is not None:
        sql += " AND t.game = ?"
        params.append(game)
    if user_id is not None:
        sql += " AND EXISTS (SELECT 1 FROM results AS r WHERE r.table_id = t.id AND r.user_id = ?)"
        params.append(user_id)
    return sql, params


async def count_matches(
    store: Store,
    guild_id: int,
    *,
    user_id: int | None = None,
    game: str | None = None,
    channels: Collection[int] | None = None,
) -> int:
    """How many finished matches of a guild (played by ``user_id``, of ``game``, in one of
    ``channels``: None for any)."""
    where, params = _filters(guild_id, user_id, game, channels)
    rows = await store.query("SELECT COUNT(*) AS n" + where, params)
    return int(rows[0]["n"])


async def finished_matches(
    store: Store,
    guild_id: int,
    *,
    user_id: int | None = None,
    game: str | None = None,
    limit: int = 5,
    offset: int = 0,
    channels: Collection[int] | None = None,
) -> list[MatchSummary]:
    """A guild's finished matches, newest first, with every seat's place and score (only
    those played in one of ``channels``, unless None)."""
    where, params = _filters(guild_id, user_id, game, channels)
    tables = await store.query(
        "SELECT t.id, t.game, t.guild_id, t.started_at, t.finished_at, t.options"
        + where
        + " ORDER BY COALESCE(t.finished_at, t.created_at) DESC, t.id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    if not tables:
        return []
    ids = [int(t["id"]) for t in tables]
    results = await store.query(
        "SELECT table_id, seat, user_id, name, score, place FROM results"
        f" WHERE table_id IN ({_marks(len(ids))}) ORDER BY table_id, seat",
        ids,
    )
    counts = await store.query(
        "SELECT table_id, COUNT(*) AS n FROM actions"
        f" WHERE table_id IN ({_marks(len(ids))}) GROUP BY table_id",
        ids,
    )
    n_actions = {int(r["table_id"]): int(r["n"]) for r in counts}
    seats: dict[int, list[SeatResult]] = {i: [] for i in ids}
    for r in results:
        seats[int(r["table_id"])].append(
            SeatResult(
                int(r["seat"]), str(r["name"]), r["user_id"], int(r["score"]), int(r["place"])
            )
        )
    return [
        MatchSummary(
            table_id=int(t["id"]),
            game=str(t["game"]),
            guild_id=int(t["guild_id"]),
            started_at=t["started_at"],
            finished_at=t["finished_at"],
            actions=n_actions.get(int(t["id"]), 0),
            seats=tuple(seats[int(t["id"])]),
            hints=hinted(t["options"]),
        )
        for t in tables
    ]


async def replay_record(store: Store, table_id: int) -> tuple[Any, ReplayRecord] | None:
    """(the table's row, its replay record), or None if there is no such table."""
    row = await store.get_table(table_id)
    if row is None:
        return None
    seats = await store.get_seats(table_id)
    actions = await store.action_rows(table_id)
    results = await store.query(
        "SELECT seat, score, place FROM results WHERE table_id = ? ORDER BY seat", (table_id,)
    )
    record = ReplayRecord(
        game=row.game,
        seed=row.seed,
        options=dict(row.options),
        players=tuple(Player(s.seat, s.name, s.is_ai) for s in sorted(seats, key=lambda s: s.seat)),
        actions=tuple(Action(a.seat, a.code, a.source, a.created_at) for a in actions),
        table_id=row.id,
        started_at=row.started_at,
        finished_at=row.finished_at,
        scores=tuple(int(r["score"]) for r in results) if results else None,
        places=tuple(int(r["place"]) for r in results) if results else None,
    )
    return row, record


# ----- rating histories ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating right after one of their matches."""

    table_id: int
    time: float
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ratings.ordinal(self.mu, self.sigma)


@dataclass
class _History:
    """The ratings of one (guild, game) recomputed up to some match, kept to go on from."""

    seen: set[int] = field(default_factory=set)
    last_time: float = float("-inf")
    current: dict[int, tuple[float, float]] = field(default_factory=dict)
    points: dict[int, list[RatingPoint]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class _StoreCache:
    histories: dict[tuple[int, str], _History] = field(default_factory=dict)
    #: San Da Yi rates every hand as its own contest: those come from replaying the match.
    contests: dict[int, tuple[Any, ...]] = field(default_factory=dict)


_CACHES: weakref.WeakKeyDictionary[Store, _StoreCache] = weakref.WeakKeyDictionary()


def _cache(store: Store) -> _StoreCache:
    cache = _CACHES.get(store)
    if cache is None:
        cache = _CACHES[store] = _StoreCache()
    return cache


async def _rating_games(store: Store, table_id: int) -> tuple[Any, ...]:
    contests = _cache(store).contests
    if table_id in contests:
        return contests[table_id]
    found = await replay_record(store, table_id)
    games: tuple[Any, ...] = ()
    if found is not None:
        try:
            state = Replayer(found[1]).final
            if state.is_over:
                games = tuple(state.result().rating_games)
        except ReplayError as exc:
            log.warning("table %s does not replay; rated by its final places: %s", table_id, exc)
    contests[table_id] = games
    return games


def _rate(
    rows: Sequence[Any],
    rating_games: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    current: dict[int, tuple[float, float]],
) -> dict[int, tuple[float, float]]:
    """The new ratings one match gives, exactly as ``Store.record_result`` computes them."""

    def player(row: Any) -> int:
        return AI_USER_ID if row["user_id"] is None else int(row["user_id"])

    by_seat = {int(row["seat"]): row for row in rows}
    contests = [[ratings.Entry(player(r), int(r["team"]), int(r["place"])) for r in rows]]
    if rating_games:
        contests = [
            [
                ratings.Entry(player(by_seat[seat]), t, places[t])
                for t, team in enumerate(teams)
                for seat in team
            ]
            for teams, places in rating_games
        ]
    new: dict[Any, tuple[float, float]] = {}
    for entries in contests:
        new.update(ratings.rate_match(entries, {**current, **new}))
    return new


async def rating_history(store: Store, guild_id: int, game: str) -> dict[int, list[RatingPoint]]:
    """Every player's rating after each of their matches of ``game`` in a guild, oldest
    first (user id 0: the AI), recomputed from the results in the order they were recorded
    (matches in which hints were used changed no rating and are skipped). Kept per process
    and extended with the matches finished since the last call."""
    hist = _cache(store).histories.setdefault((guild_id, game), _History())
    async with hist.lock:
        rows = await store.query(
            "SELECT table_id, seat, user_id, name, place, team, created_at FROM results"
            " WHERE guild_id = ? AND game = ? AND created_at >= ?"
            " ORDER BY created_at, table_id, seat",
            (guild_id, game, hist.last_time if hist.seen else -1.0),
        )
        by_table: dict[int, list[Any]] = {}
        for row in rows:
            if int(row["table_id"]) not in hist.seen:
                by_table.setdefault(int(row["table_id"]), []).append(row)
        unrated = await _hinted_tables(store, list(by_table))
        # (a game no longer registered is rated by its final places)
        per_hand = game in game_names() and game_spec(game).rated_per_hand
        for table_id, seats in by_table.items():
            if table_id in unrated:
                hist.seen.add(table_id)
                continue
            games = await _rating_games(store, table_id) if per_hand else ()
            new = _rate(seats, games, hist.current)
            when = float(seats[0]["created_at"])
            hist.current.update(new)
            for uid, (mu, sigma) in new.items():
                hist.points.setdefault(uid, []).append(RatingPoint(table_id, when, mu, sigma))
            for r in seats:
                uid = AI_USER_ID if r["user_id"] is None else int(r["user_id"])
                hist.names[uid] = AI_NAME if r["user_id"] is None else str(r["name"])
            hist.seen.add(table_id)
            hist.last_time = max(hist.last_time, when)
        return {uid: list(points) for uid, points in hist.points.items()}


async def _hinted_tables(store: Store, table_ids: Sequence[int]) -> set[int]:
    """Which of these tables had hints used (their matches are not rated)."""
    found: set[int] = set()
    for i in range(0, len(table_ids), 500):
        chunk = table_ids[i : i + 500]
        rows = await store.query(
            f"SELECT id, options FROM tables WHERE id IN ({_marks(len(chunk))})", chunk
        )
        found.update(int(r["id"]) for r in rows if hinted(r["options"]))
    return found


async def player_rating_histories(
    store: Store, guild_id: int, user_id: int, games: Sequence[str]
) -> dict[str, list[RatingPoint]]:
    """A player's rating after each of their matches, per game they played."""
    out: dict[str, list[RatingPoint]] = {}
    for game in games:
        points = (await rating_history(store, guild_id, game)).get(user_id)
        if points:
            out[game] = points
    return out
