"""DMs that respect attention, over the fake Discord: a player who keeps playing sees their
DM change in place (no notification); one who was away gets a new, notifying message, and
the old one loses its controls; every decision shows its deadline as a live Discord
timestamp (``<t:…:R>``)."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    action_components,
    current_controls,
    eventually,
    play_next_decision,
    play_to_end,
    settings_for,
    start_table,
)

pytestmark = pytest.mark.asyncio

STAMP = re.compile(r"<t:(\d+):R>")


def dm_counts(fake: FakeDiscord, user: int) -> tuple[int, int]:
    """(new DM messages, edits of them) the bot made in ``user``'s DMs."""
    messages = fake.dms(user)
    return len(messages), sum(m.edits for m in messages)


async def test_a_quick_player_gets_at_most_one_new_dm_per_round(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """A whole 6-round Koi-Koi match against an AI, Alice answering at once: her decisions
    edit her DM in place; a new (notifying) message comes at most once a round. (Every
    decision that followed the AI's move was a new message before: 42 in a match.)"""
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "a.db"), render_processes=0))
    bot = await running.start()
    try:
        table = await start_table(fake, bot, games_channel, alice, {"rounds": 6})
        decisions: list[int] = []
        table, clicks = await play_to_end(
            fake, running, table.id, {alice: "en-US"}, after_click=lambda _: decisions.append(1)
        )
        rounds = table.state.view(None)["round"]
        new, edits = dm_counts(fake, alice)
        assert rounds == 6 and clicks >= 30
        assert 1 <= new <= rounds, (new, edits, clicks)
        assert edits >= clicks  # every decision came by an edit
        # One live control message: none of her DMs keeps controls after the end.
        assert all(action_components(m) == [] for m in fake.dms(alice))
    finally:
        await running.stop()


async def test_a_player_back_after_a_wait_gets_a_new_dm_with_its_deadline(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """With the attention span at 0.2 s and AI moves 0.5 s apart, every decision of Alice's
    that follows the AI's move finds her "away": it comes as a new message; the one before
    loses its controls. Each shows the decision's deadline as ``<t:…:R>``."""
    fake = fake_discord
    settings = settings_for(
        str(tmp_path / "w.db"), render_processes=0, attention_seconds=0.2, ai_delay=0.5
    )
    running = RunningBot(fake, settings)
    bot = await running.start()
    try:
        table = await start_table(fake, bot, games_channel, alice)
        seat = table.seat_of(alice).seat
        checked = 0
        while checked < 3 and not table.finished:
            await eventually(lambda: current_controls(fake, table, alice), timeout=30)
            before, _ = dm_counts(fake, alice)
            await play_next_decision(fake, table, [alice], random.Random(checked))
            message, _ = await eventually(
                lambda: table.finished or current_controls(fake, table, alice), timeout=30
            ) or (None, None)
            if table.finished or table.state.log[-1][0] == seat:
                continue  # her own next step (koi-koi or stop) follows at once: an edit
            # The AI moved 0.5 s after her: she is "away", the decision is a new message...
            assert dm_counts(fake, alice)[0] == before + 1 and message is fake.dms(alice)[-1]
            # ...the older DMs keep no controls (one live control message)...
            await eventually(lambda: all(not action_components(m) for m in fake.dms(alice)[:-1]))
            # ...and it shows the decision's deadline, drawn by Discord as a countdown.
            (stamp,) = STAMP.findall(message.content)
            assert int(stamp) == table.deadline_epoch(seat)
            remaining = table.deadlines[seat] - time.monotonic()
            assert abs(int(stamp) - (time.time() + remaining)) <= 1
            checked += 1
        assert checked == 3
    finally:
        await running.stop()
