"""Hints and spectating over the fake Discord.

Hints: a newcomer playing an AI gets a Hint button that shows privately what the AI would
play in one click (its label says a hinted match is not rated) and changes nothing; strangers
and old buttons are refused; a veteran's table, or one whose host turned hints off, has
none; a match in which a hint was used is recorded (``/history`` marks it) but rates
nobody. Spectating: anyone clicks Spectate and gets the public table privately, redrawn
in place by Refresh; every deal's summary names the hands as they stood at its end.
"""

from __future__ import annotations

import pytest

from bot.host.hints import UNRATED_NOTE, hint_message, hint_words
from bot.host.spectate import hands_line
from bot.render.worker import render_png
from bot.store import ResultInput
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import (
    STALE_CONTROLS,
    RunningBot,
    click_legal_action,
    decision_rng,
    eventually,
    next_decision,
    settings_for,
    start_table,
)
from tests.e2e.test_hardening_e2e import _forged_click
from tests.e2e.test_history_e2e import answer, click_in_place

pytestmark = pytest.mark.asyncio


async def open_table(
    fake: FakeDiscord,
    running: RunningBot,
    channel: int,
    host: int,
    options: dict | None = None,
    *,
    guest: int | None = None,
    game: str = "koikoi",
):
    """``host`` opens a table (with ``guest``, else an AI) and starts it: the Table."""
    return await start_table(fake, running.bot, channel, host, options, guest=guest, game=game)


def hint_buttons(message: FakeMessage) -> list[dict]:
    return [c for c in find_components(message) if (c.get("custom_id") or "").startswith("th:i:")]


async def first_decision(fake: FakeDiscord, table, users: list[int]):
    """(user, DM message, its action components) of the next human decision."""
    user, (message, comps) = await eventually(lambda: next_decision(fake, table, users), 30)
    return user, message, comps


async def make_move(fake: FakeDiscord, table, user: int, message: FakeMessage, comps) -> None:
    seat = table.seat_of(user).seat
    version = table.state.version
    legal = table.state.legal_actions(seat)
    inter = await click_legal_action(
        fake, user, message, comps, legal, decision_rng(table, seat), state=table.state, seat=seat
    )
    await inter.wait_response()
    await eventually(lambda: table.state.version > version or table.finished)
    await eventually(lambda: not table.lock.locked())


async def test_a_newcomer_gets_hints_that_change_nothing(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "h.db"), render_processes=0))
    bot = await running.start()
    try:
        table = await open_table(fake, running, games_channel, alice)
        # Alice has never finished a Koi-Koi match and plays an AI: hints are on, stored.
        assert (await bot.store.get_table(table.id)).options["hints"] is True
        thread = table.thread_id
        await eventually(
            lambda: any("💡 hints on" in m.content for m in fake.messages_in(thread)[:1])
        )
        user, dm, _ = await first_decision(fake, table, [alice])
        (button,) = hint_buttons(dm)
        seat = table.seat_of(alice).seat
        version, log, dm_edits = table.state.version, list(table.state.log), dm.edits

        # A stranger's click (forged: he cannot see her DM) is refused and changes nothing.
        refused = await answer(await _forged_click(fake, bob, dm, button["custom_id"], thread))
        assert refused.ephemeral and "not playing at this table" in refused.content

        # The button says that a hint makes the match unrated: one click shows the hint,
        # privately, the move said once and in her words, the cost repeated the first time.
        assert button["label"] == "Hint (unrated)"
        expected = hint_message(table.spec, table.state.view(seat), table.state.legal_actions(seat))
        shown = await answer(await fake.click(alice, dm, button["custom_id"]))
        assert shown.ephemeral and shown.content == expected + "\n" + str(UNRATED_NOTE)
        assert find_components(shown) == []
        code, _ = table.spec.hint(table.state.view(seat), table.state.legal_actions(seat))
        assert code in table.state.legal_actions(seat)
        move = hint_words(table.spec, table.state.view(seat), table.state.legal_actions(seat), code)
        assert shown.content.count(str(move)) == 1
        # Nothing changed in the game; the match is marked, the thread told once.
        assert table.state.version == version and await bot.store.actions(table.id) == log
        assert dm.edits == dm_edits
        assert (await bot.store.get_table(table.id)).options["hinted"] == [seat]
        await eventually(
            lambda: any("asked for a hint" in m.content for m in fake.messages_in(thread))
        )
        # A second hint is the hint alone.
        again = await answer(await fake.click(alice, dm, button["custom_id"]))
        assert again.content == expected

        # After her move, a hint button of the old decision is out of date.
        await make_move(fake, table, alice, dm, [c for c in find_components(dm) if c != button])
        # The DM no longer offers that Hint (the edit follows the move: a retired DM, or the
        # same DM, edited in place, with her next decision's controls).
        await eventually(
            lambda: all(
                b["custom_id"] != button["custom_id"]
                for m in fake.dms(alice)
                for b in hint_buttons(m)
            )
        )
        stale = await answer(await _forged_click(fake, alice, dm, button["custom_id"]))
        # Edited in place, the DM no longer carries the button: discord.py drops the click
        # and the bot's catch-all answers; on a retired message it is the stale refusal.
        assert stale.ephemeral and stale.content in (
            STALE_CONTROLS,
            "These controls are not valid any more.",
        )
        notices = [m for m in fake.messages_in(thread) if "asked for a hint" in m.content]
        assert len(notices) == 1
    finally:
        await running.stop()


async def _finished_matches(bot, guild: int, user: int, game: str, count: int) -> None:
    """``count`` finished matches of ``game`` for ``user`` against an AI, in the store."""
    for _ in range(count):
        table_id = await bot.store.create_table(
            guild_id=guild, channel_id=1, game=game, options={}, seed="1", host_id=user
        )
        await bot.store.record_result(
            table_id,
            guild_id=guild,
            game=game,
            rows=[
                ResultInput(seat=0, user_id=user, name="Veteran", score=6, place=1, team=0),
                ResultInput(seat=1, user_id=None, name="AI 1", score=0, place=2, team=1),
            ],
        )


async def test_hints_default_off_for_veterans_and_when_the_host_says_so(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, guild_id: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    carol = fake.add_user("Carol")
    running = RunningBot(fake, settings_for(str(tmp_path / "d.db"), render_processes=0))
    bot = await running.start()
    try:
        # Alice has finished three Koi-Koi matches: no hints at her table with an AI.
        await _finished_matches(bot, guild_id, alice, "koikoi", 3)
        veteran = await open_table(fake, running, games_channel, alice)
        # Bob is new, but turned hints off.
        off = await open_table(fake, running, games_channel, bob, {"hints": False})
        # Two newcomers and no AI: off too.
        humans = await open_table(fake, running, games_channel, carol, guest=bob)
        for table in (veteran, off, humans):
            assert (await bot.store.get_table(table.id)).options["hints"] is False
            players = [s.user_id for s in table.seats if s.user_id]
            _, dm, comps = await first_decision(fake, table, players)
            assert comps and hint_buttons(dm) == []
        # A newcomer with an AI, the host asking for nothing: on.
        newcomer = await open_table(fake, running, games_channel, carol)
        assert (await bot.store.get_table(newcomer.id)).options["hints"] is True
        _, dm, _ = await first_decision(fake, newcomer, [carol])
        assert len(hint_buttons(dm)) == 1
    finally:
        await running.stop()


async def test_a_hinted_match_is_recorded_and_rates_nobody(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, guild_id: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "u.db"), render_processes=0))
    bot = await running.start()
    try:
        table = await open_table(fake, running, games_channel, alice)
        thread = table.thread_id
        hinted = False
        while not table.finished:
            found = await eventually(
                lambda: table.finished or next_decision(fake, table, [alice]), timeout=30
            )
            if found is True:
                break
            _, (dm, comps) = found
            if not hinted:
                (button,) = hint_buttons(dm)
                await answer(await fake.click(alice, dm, button["custom_id"]))
                hinted = True
            await make_move(fake, table, alice, dm, comps)
        assert (await bot.store.get_table(table.id)).status == "finished"
        results = await bot.store.query("SELECT seat FROM results WHERE table_id = ?", (table.id,))
        assert len(results) == 2
        # Nobody's rating moved: the leaderboard is as empty as before.
        assert await bot.store.leaderboard(guild_id, "koikoi") == []
        assert await bot.store.query("SELECT * FROM ratings") == []
        board = await fake.slash(bob, games_channel, "leaderboard", {"game": "koikoi"})
        await board.wait_response()
        assert "Nobody has finished" in board.callback.data["embeds"][0]["description"]
        # The history lists it, marked.
        listing = await answer(await fake.slash(alice, games_channel, "history", {}))
        field = listing.embeds[0]["fields"][0]
        assert field["name"].startswith(f"#{table.id} ·") and "💡 hints" in field["value"]

        # Every deal's summary names the hands; the last deal's are the final hands.
        summaries = [m for m in fake.messages_in(thread) if m.content.startswith("📜")]
        assert summaries and all("Hands at the end:" in m.content for m in summaries)
        names = [s.name for s in table.seats]
        final = [table.spec.hand_of(table.state.view(s)) for s in range(len(names))]
        assert hands_line(names, final, "en-US", table.spec.card_name) in summaries[-1].content
        if any(final):
            assert all(name in summaries[-1].content for name in names)
    finally:
        await running.stop()


async def test_anyone_can_spectate_the_public_table(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "s.db"), render_processes=0))
    await running.start()
    try:
        table = await open_table(fake, running, games_channel, alice)
        thread = table.thread_id
        table_message = (await eventually(lambda: fake.messages_in(thread)[:1]))[0]
        _, dm, comps = await first_decision(fake, table, [alice])
        # Bob plays no part: Spectate shows him the public table, privately.
        opened = await fake.click(bob, table_message, label="Spectate")
        view = await answer(opened)
        assert view.ephemeral and view.channel_id == thread
        public = table.state.view(None)
        assert view.attachments[0][1] == render_png("koikoi", "render_table", public)
        assert "Scores:" in view.content and all(s.name in view.content for s in table.seats)
        # The public view: no seat's hand is in it (the same picture as the table message).
        assert public["seat"] is None and not public.get("hand")
        # After a move, Refresh redraws it in place.
        await make_move(fake, table, alice, dm, comps)
        await eventually(lambda: not any(table.seats[s].played_by_ai for s in table.waiting_on()))
        await eventually(lambda: not table.lock.locked())
        await click_in_place(fake, bob, view, f"th:v:{table.id}:r")
        assert view.attachments[0][1] == render_png(
            "koikoi", "render_table", table.state.view(None)
        )
        assert view.attachments[0][1] != render_png("koikoi", "render_table", public)
        assert view.ephemeral and find_components(view)
    finally:
        await running.stop()
