"""One tap per decision over the fake Discord: a Mah-Jongg discard is one click on the
card's button; the hand shown privately (Show my hand) carries the decision's deadline
as the DM does."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.mahjong.tiles import INDEX, name
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    current_controls,
    eventually,
    play_next_decision,
    run_out_idle_window,
    settings_for,
    settled,
    start_table,
)

pytestmark = pytest.mark.asyncio

STAMP = re.compile(r"<t:(\d+):R>")


def _discard_buttons(comps: list[dict]) -> list[dict]:
    return [
        c
        for c in comps
        if c["type"] == 2 and c["custom_id"].split(":", 5)[5].startswith("discard ")
    ]


async def test_a_mahjong_discard_is_one_click_on_the_card(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "mj.db"), render_processes=0))
    bot = await running.start()
    try:
        inter = await fake.slash(alice, games_channel, "mahjong new", {"max_hands": 1})
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        table_id = int(lobby.embeds[0]["title"].split("#")[1])
        for _ in range(3):
            await (await fake.click(alice, lobby, label="Add AI")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot.host.tables.get(table_id))
        seat = table.seat_of(alice).seat
        rng = random.Random(5)
        for _ in range(20):  # the before-play question first, if any

            def controls():
                run_out_idle_window(table)  # a window Alice is not asked in closes now
                return settled(table) and current_controls(fake, table, alice)

            found = await eventually(controls, timeout=30)
            message, comps = found
            if _discard_buttons(comps):
                break
            await play_next_decision(fake, table, [alice], rng)
        buttons = _discard_buttons(comps)
        hand = table.state.view(seat)["hand"]
        # A button per distinct card, in the order of the hand, named as people name them.
        distinct = list(
            dict.fromkeys(c for c in hand if f"discard {c}" in table.state.legal_actions(seat))
        )
        assert [b["custom_id"].split(":", 5)[5] for b in buttons] == [
            f"discard {c}" for c in distinct
        ]
        assert [b["label"] for b in buttons] == [str(name(INDEX[c])) for c in distinct]
        assert not [c for c in comps if c["type"] == 3 and "discard" in c["custom_id"]]
        # Within Discord's limits: 5 rows of at most 5 buttons, unique ids of ≤ 100 chars.
        rows = message.components
        assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
        ids = [c["custom_id"] for c in comps]
        assert len(set(ids)) == len(ids) and all(len(i) <= 100 for i in ids)
        # One click discards it.
        version = table.state.version
        tile = buttons[-1]["custom_id"].split(":", 5)[5].split()[1]
        click = await fake.click(alice, message, buttons[-1]["custom_id"])
        await click.wait_response()
        await eventually(lambda: table.state.version > version)
        assert table.state.log[version] == (seat, f"discard {tile}")
    finally:
        await running.stop()


async def test_show_my_hand_shows_the_deadline(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "sh.db"), render_processes=0))
    bot = await running.start()
    try:
        table = await start_table(fake, bot, games_channel, alice)
        seat = table.seat_of(alice).seat
        dm, _ = await eventually(lambda: current_controls(fake, table, alice), timeout=30)
        table_message = fake.message(table.table_message_id)
        shown = await fake.click(alice, table_message, label="Show my hand")
        await shown.wait_response()
        private = (await eventually(lambda: shown.followups))[0]
        epoch = table.deadline_epoch(seat)
        assert epoch is not None
        assert STAMP.findall(private.content) == [str(epoch)]
        assert STAMP.findall(dm.content) == [str(epoch)]
    finally:
        await running.stop()
