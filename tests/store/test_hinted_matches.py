"""Matches in which hints were used, on both backends: the result is recorded and listed
(marked), no rating changes, and the rating history recomputed from the results skips them
too; how many matches of a game each player has finished (the newcomer rule)."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.store.history import finished_matches, hinted, matches_played, rating_history
from bot.store.rows import AI_USER_ID, ResultInput

pytestmark = pytest.mark.asyncio

GUILD = 111
ANN, BOB = 1001, 1002


async def match(
    store: Store, winner: int, loser: int | None, *, hints: bool, say_unrated: bool = False
) -> int:
    """A finished Koi-Koi match as the host writes one (hinted: the options say so, which
    is enough for the store; ``say_unrated``: the caller says ``rated=False`` too)."""
    options = {"rounds": 6, "hints": hints, **({"hinted": [0]} if hints else {})}
    table = await store.create_table(
        guild_id=GUILD, channel_id=5, game="koikoi", options=options, seed="s", host_id=winner
    )
    await store.update_table(table, status="active")
    recorded = await store.record_result(
        table,
        guild_id=GUILD,
        game="koikoi",
        rows=[
            ResultInput(seat=0, user_id=winner, name="Winner", score=7, place=1, team=0),
            ResultInput(seat=1, user_id=loser, name="Other", score=0, place=2, team=1),
        ],
        rated=not say_unrated,
    )
    assert recorded
    return table


async def test_a_hinted_match_is_recorded_and_changes_no_rating(store: Store) -> None:
    rated = await match(store, ANN, BOB, hints=False)
    before = await store.leaderboard(GUILD, "koikoi")
    unrated = await match(store, BOB, ANN, hints=True)  # the stored options suffice
    assert await store.leaderboard(GUILD, "koikoi") == before
    assert (await store.get_table(unrated)).status == "finished"
    listed = await finished_matches(store, GUILD, limit=10)
    assert [(m.table_id, m.hints) for m in listed] == [(unrated, True), (rated, False)]
    # The recomputed histories end at the stored ratings: the hinted match is no point.
    history = await rating_history(store, GUILD, "koikoi")
    stored = {r.user_id: (r.mu, r.sigma) for r in before}
    for user in (ANN, BOB):
        assert [p.table_id for p in history[user]] == [rated]
        point = history[user][-1]
        assert (point.mu, point.sigma) == pytest.approx(stored[user])


async def test_a_hinted_match_against_the_ai_rates_nobody(store: Store) -> None:
    await match(store, ANN, None, hints=True, say_unrated=True)
    assert await store.query("SELECT * FROM ratings") == []
    assert AI_USER_ID not in await rating_history(store, GUILD, "koikoi")


async def test_matches_played_counts_finished_matches_of_a_game(store: Store) -> None:
    assert await matches_played(store, "koikoi", [ANN, BOB]) == {}
    await match(store, ANN, BOB, hints=False)
    await match(store, ANN, None, hints=True)
    assert await matches_played(store, "koikoi", [ANN, BOB]) == {ANN: 2, BOB: 1}
    assert await matches_played(store, "mushi", [ANN]) == {}
    assert await matches_played(store, "koikoi", []) == {}


async def test_hinted_reads_stored_options() -> None:
    assert hinted('{"hinted": [1]}') and hinted({"hinted": [0, 2]})
    assert not hinted('{"hints": true}') and not hinted({}) and not hinted("not json")


async def test_a_match_the_caller_says_is_unrated_rates_nobody(store: Store) -> None:
    await match(store, ANN, BOB, hints=False, say_unrated=True)
    assert await store.query("SELECT * FROM ratings") == []
