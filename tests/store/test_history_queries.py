"""History queries (``bot/store/history.py``) on both backends: finished matches newest first
with their seats and lengths, filters, the replay record of a table, and rating histories
recomputed from the results that end exactly at the stored ratings."""

from __future__ import annotations

import pytest

from bot.replay.core import Replayer
from bot.store import Store
from bot.store.history import (
    count_matches,
    finished_matches,
    player_rating_histories,
    rating_history,
    replay_record,
)
from bot.store.rows import AI_USER_ID, ResultInput, SeatRow
from tests.replay.helpers import SHORT, play

pytestmark = pytest.mark.asyncio

GUILD, OTHER = 111, 222
ANN, BOB, CID = 1001, 1002, 1003


async def finish(
    store: Store, game: str, seed: str, users: list[int | None], guild: int = GUILD
) -> int:
    """A whole match stored as the host stores one: table, seats, log, results, ratings."""
    state = play(game, seed)
    table = await store.create_table(
        guild_id=guild, channel_id=5, game=game, options={**SHORT[game], "turn_seconds": 60},
        seed=seed, host_id=users[0] or ANN,
    )  # fmt: skip
    await store.set_seats(
        table,
        [
            SeatRow(seat=i, user_id=u, name=state.players[i] if u else "AI", is_ai=u is None)
            for i, u in enumerate(users)
        ],
    )
    await store.update_table(table, status="active")
    for idx, (seat, code) in enumerate(state.log):
        await store.append_action(table, idx, seat, code, "player")
    result = state.result()
    team_of = {seat: t for t, team in enumerate(result.teams) for seat in team}
    await store.record_result(
        table,
        guild_id=guild,
        game=game,
        rows=[
            ResultInput(
                seat=i,
                user_id=u,
                name=state.players[i] if u else "AI",
                score=result.scores[i],
                place=result.placements[i],
                team=team_of[i],
            )
            for i, u in enumerate(users)
        ],
        rating_games=result.rating_games,
    )
    return table


async def test_finished_matches_newest_first_with_filters(store: Store) -> None:
    first = await finish(store, "koikoi", "h1", [ANN, BOB])
    second = await finish(store, "mushi", "h2", [BOB, None])
    third = await finish(store, "koikoi", "h3", [CID, ANN])
    await finish(store, "koikoi", "h4", [ANN, BOB], guild=OTHER)
    running = await store.create_table(
        guild_id=GUILD, channel_id=5, game="koikoi", options={}, seed="r", host_id=ANN
    )
    await store.update_table(running, status="active")

    listed = await finished_matches(store, GUILD, limit=10)
    assert [m.table_id for m in listed] == [third, second, first]
    assert await count_matches(store, GUILD) == 3
    mushi = next(m for m in listed if m.game == "mushi")
    assert mushi.actions == len(play("mushi", "h2").log)
    assert [s.name for s in mushi.seats] == ["Ann 🌸", "AI"] and mushi.seats[1].is_ai
    assert sorted(s.place for s in mushi.seats) in ([1, 2], [1, 1])
    assert mushi.duration is not None and mushi.duration >= 0

    assert [m.table_id for m in await finished_matches(store, GUILD, user_id=ANN)] == [third, first]
    assert [m.table_id for m in await finished_matches(store, GUILD, game="mushi")] == [second]
    assert await count_matches(store, GUILD, user_id=CID, game="koikoi") == 1
    page2 = await finished_matches(store, GUILD, limit=2, offset=2)
    assert [m.table_id for m in page2] == [first]
    assert await finished_matches(store, 999) == []


async def test_replay_record_of_a_stored_match(store: Store) -> None:
    table = await finish(store, "panda", "rec", [ANN, None, BOB, None])
    row, record = await replay_record(store, table)
    assert row.status == "finished" and record.table_id == table
    assert record.options == {**SHORT["panda"], "turn_seconds": 60}
    assert [p.ai for p in record.players] == [False, True, False, True]
    final = Replayer(record).final
    assert final.is_over and tuple(final.result().scores) == record.scores
    assert all(a.time is not None for a in record.actions)
    assert await replay_record(store, 424242) is None


@pytest.mark.parametrize("game", ["koikoi", "sandayi", "panda"])
async def test_rating_histories_end_at_the_stored_ratings(store: Store, game: str) -> None:
    seats = 2 if game == "koikoi" else 4
    lineups = [[ANN, BOB, CID, None], [BOB, ANN, None, CID], [CID, None, ANN, BOB]]
    for i, lineup in enumerate(lineups):
        await finish(store, game, f"{game}-r{i}", lineup[:seats])
    history = await rating_history(store, GUILD, game)
    stored = await store.query(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?",
        (GUILD, game),
    )
    assert {r["user_id"] for r in stored} == set(history)
    for r in stored:
        points = history[r["user_id"]]
        assert points[-1].mu == pytest.approx(r["mu"], abs=1e-9)
        assert points[-1].sigma == pytest.approx(r["sigma"], abs=1e-9)
        if r["user_id"] != AI_USER_ID:
            assert len(points) == r["games"]
    # A match more extends the kept history.
    await finish(store, game, f"{game}-r9", lineups[0][:seats])
    longer = await rating_history(store, GUILD, game)
    assert len(longer[ANN]) == len(history[ANN]) + 1
    per_game = await player_rating_histories(store, GUILD, ANN, [game, "mahjong"])
    assert list(per_game) == [game] and len(per_game[game]) == len(longer[ANN])


async def test_matches_are_listed_only_from_the_channels_given(store: Store) -> None:
    """``channels``: the channels the asker can view (None: all); a match played in
    another one is neither counted nor listed."""
    here = await finish(store, "koikoi", "channel-a", [ANN, None])
    elsewhere = await finish(store, "koikoi", "channel-b", [ANN, None])
    await store.update_table(elsewhere, channel_id=6)
    assert await count_matches(store, GUILD) == 2
    assert await count_matches(store, GUILD, channels={5}) == 1
    assert [m.table_id for m in await finished_matches(store, GUILD, channels=[5, 7])] == [here]
    assert await count_matches(store, GUILD, channels=()) == 0
    assert await finished_matches(store, GUILD, channels=set()) == []
    listed = [m.table_id for m in await finished_matches(store, GUILD, channels=None)]
    assert sorted(listed) == sorted([here, elsewhere])
