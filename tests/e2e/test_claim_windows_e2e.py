"""Mah-Jongg claim windows over the fake Discord: only a player who can claim is asked (a
notifying DM with the window's end); the others get no prompt and no Pass button, and the
host passes for them when the window closes; a decision that comes again after one's own
answer (a second window like the first) is a fresh DM, not the stale one.

Four people play a stacked deal (seats fixed: seat 0 is East). South declares a standing
hand early; North holds two 5 Dots. East discards 5 Dots (North may pung it), North passes,
and when the window closes — North's pass the last answer — South, drawing the last 5
Dots, discards it automatically into a second window where North may pung it again: same
buttons, same hand, but another discard.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

import bot.games.mahjong as mahjong
from bot.engine import replay_from
from bot.games.mahjong.tiles import INDEX
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    action_components,
    answered,
    click_move,
    control_moves,
    current_controls,
    eventually,
    run_out_idle_window,
    settings_for,
    settled,
)
from tests.games.mahjong.mahjong_helpers import full_deck

pytestmark = pytest.mark.asyncio

EAST = "1b 2b 3b 4b 5b 6b 7c 8c 9c E E P 5d N"
SOUTH = "1c 1c 1c 2c 1d 2d 3d 4b 5b 6b 7b 8b 9b"  # + 9d: declares a standing hand on 2c
WEST = "2d 8d 3b 6b 9b 4c 7c W S C P 7b 3c"
# West and North draw and discard N and C; East draws W; South draws the last 5 Dots.
WALL = "9d N C W 5d"
NORTH_WITH_PAIR = "5d 5d 2b 5b 8b 3c 6c 9c S W C F 1d"
# The twin deal: North holds one 5 Dots and a 9 Characters instead (nobody can claim
# East's 5 Dots); the other 5 Dots lies deeper in the live wall.
NORTH_WITHOUT = "5d 9c 2b 5b 8b 3c 6c 9c S W C F 1d"
WALL_WITHOUT = "9d N C W 7d 8d 5d"


def stack_deal(monkeypatch: pytest.MonkeyPatch, north: str, wall: str) -> None:
    """Deal every new Mah-Jongg table from this deck, with the seats in wind order."""
    deck = full_deck(EAST, SOUTH, WEST, north, wall=wall)

    def replay(seed, players, options, log):  # type: ignore[no-untyped-def]
        options = {**options, "random_seats": False}
        return replay_from(mahjong.new_game, seed, players, options, log, deck=deck)

    monkeypatch.setattr(mahjong, "SPEC", dataclasses.replace(mahjong.SPEC, replay=replay))


async def four_people(fake: FakeDiscord, bot: Any, channel: int) -> tuple[Any, list[int]]:
    users = [fake.user_named("Alice"), fake.user_named("Bob")]
    users += [fake.add_user("Cleo"), fake.add_user("Dan")]
    inter = await fake.slash(users[0], channel, "mahjong new", {})
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    for guest in users[1:]:
        await (await fake.click(guest, lobby, label="Join")).wait_response()
    await (await fake.click(users[0], lobby, label="Start")).wait_response()
    table = await eventually(lambda: bot.host.tables.get(table_id))
    by_seat = [s.user_id for s in table.seats]
    return table, by_seat


async def play(fake: FakeDiscord, table: Any, user: int, code: str) -> None:
    """``user`` makes the move ``code`` from the controls of their newest DM."""
    seat = table.seat_of(user).seat
    message, comps = await eventually(
        lambda: settled(table) and current_controls(fake, table, user)
    )
    version = table.state.version
    moves = control_moves(comps, [code], normalize=lambda c: table.state.normalize(seat, c))
    assert moves, f"{code} is not offered"
    inter = await click_move(fake, user, message, moves[0])
    await inter.wait_response()
    await eventually(lambda: answered(table, seat, version))


async def close_window(table: Any, *, unanswered: bool = False) -> None:
    """Let the open answer window run out: once nobody with a choice is left to answer it,
    or (``unanswered``) with whoever was asked not answering."""
    closes_at = table.state.version + len(table.waiting_on())  # once all have answered

    def closed() -> bool:
        if table.state.version >= closes_at:
            return True
        if unanswered:
            for seat in table.waiting_on():
                table.deadlines[seat] = 0.0
            table.wake_driver()
        run_out_idle_window(table)
        return False

    await eventually(lambda: settled(table) and closed())


def asked_seats(table: Any) -> list[int]:
    return [s for s in table.waiting_on() if table.asked(s)]


async def to_the_first_5d(fake: FakeDiscord, table: Any, users: list[int]) -> tuple[float, float]:
    """Before play (nobody holds four: nobody is asked), then the first four discards (nobody
    can claim them), up to East's 5 Dots. Returns the monotonic times just before East
    clicked it and once it was made."""
    east, south, west, north = users
    await close_window(table)  # before play
    await play(fake, table, east, "discard N")
    assert asked_seats(table) == []
    await close_window(table)
    await play(fake, table, south, "declare 2c")
    # Only the 9 Dots keeps South one card from Mah-Jongg: that discard is played for them.
    await eventually(lambda: table.state.river[1] == [INDEX["9d"]])
    await close_window(table)
    await play(fake, table, west, "discard N")
    await close_window(table)
    await play(fake, table, north, "discard C")
    await close_window(table)
    before = time.monotonic()
    await play(fake, table, east, "discard 5d")
    return before, time.monotonic()


def no_controls(fake: FakeDiscord, user: int) -> bool:
    """None of the user's DMs offers controls (an earlier decision's are retired)."""
    return not any(action_components(m) for m in fake.dms(user))


@pytest.mark.parametrize("north, wall", [(NORTH_WITH_PAIR, WALL), (NORTH_WITHOUT, WALL_WITHOUT)])
async def test_only_a_player_who_can_claim_is_asked_and_the_window_closes_alike(
    fake_discord: FakeDiscord,
    tmp_path,
    games_channel: int,
    monkeypatch: pytest.MonkeyPatch,
    north: str,
    wall: str,
) -> None:
    claimable = north == NORTH_WITH_PAIR
    stack_deal(monkeypatch, north, wall)
    running = RunningBot(fake_discord, settings_for(str(tmp_path / "windows.db")))
    await running.start()
    try:
        table, users = await four_people(fake_discord, running.bot, games_channel)
        claim_seconds = running.bot.settings.claim_seconds
        # Before play and after each discard nobody could claim, nobody was asked (the
        # helper's ``close_window`` runs a window out only while it waits on nobody asked).
        before, after = await to_the_first_5d(fake_discord, table, users)
        await eventually(lambda: settled(table))
        assert table.state.phase == "claim" and table.waiting_on() == [1, 2, 3]
        # One close for all three, set when the discard was made, whoever can claim.
        for seat in (1, 2, 3):
            assert before + claim_seconds <= table.deadlines[seat] <= after + claim_seconds
        assert asked_seats(table) == ([3] if claimable else [])
        for seat in (1, 2):  # South and West cannot claim: no prompt, no Pass button
            await eventually(lambda u=users[seat]: no_controls(fake_discord, u))
        if claimable:
            message, comps = await eventually(
                lambda: current_controls(fake_discord, table, users[3])
            )
            assert "Claim it?" in message.content and "<t:" in message.content
            assert {c.get("label") for c in comps} >= {"Pung", "Pass"}
        else:
            await eventually(lambda: no_controls(fake_discord, users[3]))
        # Before its time nothing closes the window (there is no claim): the host answers
        # for nobody early.
        assert await running.bot.host.driver._answer_moot(table) is False
        assert table.auto_movers() == []
        start = table.state.version
        await close_window(table, unanswered=True)
        log = await running.bot.store.actions(table.id)
        assert log[start : start + 3] == [(1, "pass"), (2, "pass"), (3, "pass")]
    finally:
        await running.stop()


async def test_a_second_window_like_the_first_after_ones_own_pass_is_a_fresh_dm(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack_deal(monkeypatch, NORTH_WITH_PAIR, WALL)
    running = RunningBot(fake_discord, settings_for(str(tmp_path / "again.db")))
    await running.start()
    try:
        table, users = await four_people(fake_discord, running.bot, games_channel)
        north = users[3]
        await to_the_first_5d(fake_discord, table, users)
        first, _ = await eventually(lambda: current_controls(fake_discord, table, north))
        assert "Alice discarded" in first.content  # East's 5 Dots
        await play(fake_discord, table, north, "pass")
        # The pass waits for the window's close (nothing shows who was asked) ...
        assert table.state.phase == "claim" and 3 in table.waiting_on()
        await eventually(lambda: "you pass" in fake_discord.message(first.id).content)
        assert not action_components(fake_discord.message(first.id))
        await close_window(table)
        # ... then, North's pass the last answer of the window, South's automatic discard
        # opens the next one: North may pung again, with the same buttons and the same
        # hand. Their DM is the new decision's.
        assert table.state.phase == "claim" and table.state.claim["by"] == 1
        second, comps = await eventually(lambda: current_controls(fake_discord, table, north))
        assert second.id != first.id and "Bob discarded" in second.content
        await play(fake_discord, table, north, "pung")
        await eventually(lambda: table.state.melds[3] == [("pung", INDEX["5d"], False)])
    finally:
        await running.stop()
