"""The host's answer windows (Mah-Jongg's claims) and decisions with one answer.

A window opens after every discard for the same time, whoever can claim; only the seats
that can claim are asked; the host passes for the others when it closes, or at once when a
claim is in that they could not beat; a pass given before any claim is held till the close
(applied earlier it would show who was asked). A decision with one answer is played for
the player. Offline host on a real store; the windows are long (600 s), so nothing closes
by itself: a test runs a window out by bringing its deadlines forward."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

import bot.games.mahjong as mahjong
from bot.engine import replay_from
from bot.games import game_spec
from bot.store.rows import SeatRow
from tests import twenty
from tests.games.mahjong.mahjong_helpers import full_deck
from tests.host.offline import Click, offline_host, until
from tests.host.test_leases import closing
from tests.twenty.registration import register

EAST = "1b 2b 3b 4b 5b 6b 7c 8c 9c E E P 5d N"  # discards 5 Dots first
SOUTH_CHOW = "4d 6d 1c 1c 1c 2c 3c 7b 8b 9b S S W"
SOUTH_WINS = "1c 2c 3c 4c 5c 6c 7c 8c 9c 4d 6d E E"
SOUTH_NOTHING = "1d 1c 1c 1c 2c 3c 7b 8b 9b S S W 4b"
WEST_PUNG = "5d 5d 2b 5b 8b 3c 6c 9c S W C F 1d"
WEST_NOTHING = "9d 2d 2b 5b 8b 3c 6c 9c S W C F 1d"
NORTH_PUNG = WEST_PUNG
NORTH_NOTHING = "2d 8d 3b 6b 9b 4c 7c W C P 7b 3c 1d"
NAMES = ("Ann", "Ben", "Cat", "Dov")
USERS = (100, 101, 102, 103)


async def mahjong_table(
    monkeypatch: pytest.MonkeyPatch, path: str, south: str, west: str, north: str
) -> tuple[Any, Any]:
    """An offline host driving a Mah-Jongg table of four people dealt from a stacked deck
    (seat 0 is East), at East's first turn (before play nobody holds four: the question
    runs out asking nobody)."""
    deck = full_deck(EAST, south, west, north)

    def replay(seed, players, options, log):  # type: ignore[no-untyped-def]
        options = {**options, "random_seats": False}
        return replay_from(mahjong.new_game, seed, players, options, log, deck=deck)

    monkeypatch.setattr(mahjong, "SPEC", dataclasses.replace(mahjong.SPEC, replay=replay))
    host = await offline_host(path, record=True, ai_delay=0.0, claim_seconds=600.0)
    store = host.store
    table_id = await store.create_table(
        guild_id=1, channel_id=2, game="mahjong", options={}, seed="w", host_id=USERS[0]
    )
    seats = [SeatRow(seat=i, user_id=USERS[i], name=NAMES[i]) for i in range(4)]
    await store.set_seats(table_id, seats)
    assert await store.transition(table_id, ("lobby",), "active")
    assert await host.restore() == 1
    table = host.tables[table_id]
    assert table.state.phase == "prelude" and [s for s in range(4) if table.asked(s)] == []
    await run_out(table)
    assert table.state.phase == "discard" and table.state.turn == 0
    return host, table


async def run_out(table: Any) -> None:
    """Bring the open window's close forward to now; wait until it has closed."""
    closes_at = table.state.version + len(table.waiting_on())
    for seat in table.waiting_on():
        table.deadlines[seat] = 0.0
    table.wake_driver()
    await until(lambda: table.state.version >= closes_at and not table.lock.locked())


async def click(host: Any, table: Any, seat: int, code: str) -> Click:
    c = Click(USERS[seat])
    await host.on_action(c, table.id, seat, table.prompts[seat].version, code)
    return c


async def sources(host: Any, table: Any, start: int) -> list[tuple[int, str, str]]:
    rows = await host.store.action_rows(table.id)
    return [(r.seat, r.code, r.source) for r in rows[start:]]


@pytest.mark.parametrize("west", [WEST_PUNG, WEST_NOTHING], ids=["claimable", "unclaimable"])
async def test_a_window_lasts_as_long_whoever_can_claim(
    monkeypatch: pytest.MonkeyPatch, new_database, west: str
) -> None:
    host, table = await mahjong_table(
        monkeypatch, await new_database(), SOUTH_NOTHING, west, NORTH_NOTHING
    )
    try:
        await click(host, table, 0, "discard 5d")
        assert table.state.phase == "claim" and table.waiting_on() == [1, 2, 3]
        # Everyone's answer is due at one moment, set by the discard: the claim time.
        deadlines = {table.deadlines[s] for s in (1, 2, 3)}
        assert len(deadlines) == 1
        assert {table.deadline_versions[s] for s in (1, 2, 3)} == {table.state.version}
        # Only the seat that can claim is asked (West, if they hold the pair) ...
        can_claim = west == WEST_PUNG
        assert [s for s in (1, 2, 3) if table.asked(s)] == ([2] if can_claim else [])
        # ... and nobody is answered for before the close: no AI, no one-answer seat
        # played early, nothing moot (no claim is in).
        assert table.auto_movers() == [] and table.state.moot_answers() is None
        assert await host.driver._answer_moot(table) is False
        start = table.state.version
        await run_out(table)
        # The pass-only seats are answered by the bot; a seat that could claim and let
        # the window close timed out (not counted against it: see _timeouts).
        assert await sources(host, table, start) == [
            (1, "pass", "auto"),
            (2, "pass", "timeout" if can_claim else "auto"),
            (3, "pass", "auto"),
        ]
    finally:
        await closing(host)


async def test_a_pass_before_any_claim_waits_for_the_close(
    monkeypatch: pytest.MonkeyPatch, new_database
) -> None:
    host, table = await mahjong_table(
        monkeypatch, await new_database(), SOUTH_NOTHING, WEST_PUNG, NORTH_NOTHING
    )
    try:
        await click(host, table, 0, "discard 5d")
        start = table.state.version
        host.dms.clear()
        answer = await click(host, table, 2, "pass")
        assert answer.answers == []  # taken, not refused
        # Not applied: West stays among those the window waits on, like the others.
        assert table.state.version == start and table.waiting_on() == [1, 2, 3]
        assert table.holds(2) and not table.asked(2) and (table.id, 2) in host.dms
        await run_out(table)
        assert await sources(host, table, start) == [
            (1, "pass", "auto"),
            (2, "pass", "player"),
            (3, "pass", "auto"),
        ]
        assert table.held == {}
    finally:
        await closing(host)


async def test_a_claim_resolves_at_once_when_no_better_claim_can_come(
    monkeypatch: pytest.MonkeyPatch, new_database
) -> None:
    host, table = await mahjong_table(
        monkeypatch, await new_database(), SOUTH_CHOW, WEST_PUNG, NORTH_NOTHING
    )
    try:
        await click(host, table, 0, "discard 5d")
        start = table.state.version
        assert [s for s in (1, 2, 3) if table.asked(s)] == [1, 2]
        await click(host, table, 1, "pass")  # South's chow: held, the window runs on
        assert table.state.version == start
        await click(host, table, 2, "pung")
        # South's pass and North's (nothing to claim) come at once: the deadlines are
        # still 600 s away.
        await until(lambda: table.state.phase == "discard" and table.state.turn == 2)
        assert await sources(host, table, start) == [
            (2, "pung", "player"),
            (1, "pass", "player"),
            (3, "pass", "auto"),
        ]
    finally:
        await closing(host)


async def test_a_claim_waits_while_a_better_one_may_come(
    monkeypatch: pytest.MonkeyPatch, new_database
) -> None:
    host, table = await mahjong_table(
        monkeypatch, await new_database(), SOUTH_WINS, NORTH_NOTHING, NORTH_PUNG
    )
    try:
        await click(host, table, 0, "discard 5d")
        await click(host, table, 3, "pung")
        # West (nothing to claim) is passed for; South, who may go Mah-Jongg, is waited for.
        await until(lambda: table.waiting_on() == [1] and not table.lock.locked())
        assert table.asked(1) and table.state.phase == "claim"
        await click(host, table, 1, "mahjong")
        await until(lambda: table.state.winner == 1)
    finally:
        await closing(host)


async def test_decisions_with_one_answer_are_played_for_the_players(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """Twenty where every move is the same answer (a game's ``answer_key``): each decision
    has one answer, so the host plays the whole match for its two people."""
    spec = dataclasses.replace(register(monkeypatch), answer_key=lambda code: "one")
    monkeypatch.setattr(twenty, "SPEC", spec)
    host = await offline_host(str(tmp_path / "one.db"), record=True, ai_delay=0.0)
    store = host.store
    try:
        table_id = await store.create_table(
            guild_id=1,
            channel_id=2,
            game="twenty",
            options={"goal": 9, "rounds": 1},
            seed="1",
            host_id=7,
        )
        await store.set_seats(
            table_id, [SeatRow(seat=s, user_id=7 + s, name=f"P{s}") for s in (0, 1)]
        )
        assert await store.transition(table_id, ("lobby",), "active")
        assert await host.restore() == 1
        table = host.tables[table_id]
        await until(lambda: table.finished)
        rows = await store.action_rows(table_id)
        # Each time the first legal code (the smallest card's), made by the bot for the player.
        state = spec.new_game("1", ["P0", "P1"], {"goal": 9, "rounds": 1})
        for row in rows:
            assert (row.code, row.source) == (state.legal_actions(row.seat)[0], "auto")
            state.apply(row.seat, row.code)
        assert state.is_over and rows
    finally:
        await closing(host)


@pytest.mark.parametrize("game", ["koikoi", "mushi"])
def test_two_plains_of_a_month_are_one_answer(game: str) -> None:
    spec = game_spec(game)
    assert spec.distinct_answers(["take 1p1", "take 1p2"]) == ["take 1p1"]
    assert spec.distinct_answers(["take 1r", "take 1p1"]) == ["take 1r", "take 1p1"]
    assert spec.distinct_answers(["play 2a 1p1", "play 2a 1p2", "play 3b"]) == [
        "play 2a 1p1",
        "play 3b",
    ]
    # Seeded matches until a decision is between two plains of a month (a flip that may
    # take either, or a hand whose last two cards they are): one answer; and either code
    # is still played (a log holding either replays).
    rng = random.Random(game)
    for seed in range(200):
        state = spec.new_game(seed, ["A", "B"])
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) == 2 and len(spec.distinct_answers(legal)) == 1:
                assert len({code.split()[0] for code in legal}) == 1  # (take, or play)
                assert {code.split()[-1][:-1] for code in legal} == {legal[0].split()[-1][:-1]}
                for code in legal:
                    copy.deepcopy(state).apply(seat, code)
                return
            state.apply(seat, spec.choose(state.view(seat), legal, rng))
    raise AssertionError("no flip between two plains of a month in 200 matches")


def test_the_same_answers_right_after_ones_own_answer_are_a_new_decision() -> None:
    """North passes the last answer of a claim window on East's 5 Dots; South's standing
    hand discards its drawn 5 Dots at once into a window where North may pung again: the
    same legal actions, the same hand, but a new decision (a new prompt version: the DM is
    refreshed and its old buttons no longer count)."""
    from tests.e2e.test_claim_windows_e2e import EAST, NORTH_WITH_PAIR, SOUTH, WALL, WEST
    from tests.host.test_table import _table

    table = _table("mahjong", "w", NAMES)
    deck = full_deck(EAST, SOUTH, WEST, NORTH_WITH_PAIR, wall=WALL)
    table.state = mahjong.new_game("w", list(NAMES), {"random_seats": False}, deck=deck)
    state = table.state
    for seat, code in [
        *((s, "pass") for s in range(4)),  # before play
        (0, "discard N"),
        *((s, "pass") for s in (1, 2, 3)),
        (1, "declare 2c"),
        (1, "discard 9d"),
        *((s, "pass") for s in (2, 3, 0)),
        (2, "discard N"),
        *((s, "pass") for s in (3, 0, 1)),
        (3, "discard C"),
        *((s, "pass") for s in (0, 1, 2)),
        (0, "discard 5d"),
        (1, "pass"),
        (2, "pass"),
    ]:
        state.apply(seat, code)
    table.changed_prompts()
    first = table.prompts[3]
    assert first.legal == ("pung", "pass") and table.asked(3)
    state.apply(3, "pass")  # the window's last answer: South's automatic discard follows
    assert state.phase == "claim" and state.claim["by"] == 1
    assert tuple(state.legal_actions(3)) == first.legal
    assert 3 in table.changed_prompts()
    assert table.prompts[3].version == state.version > first.version
