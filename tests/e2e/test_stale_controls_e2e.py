"""A seat's old controls stay refused as out of date even when the action they carry is
legal again at a newer decision: the click must not be played in the new decision's name.

(A version check weakened to accept any old version would play it: the old "Pass" of one
trick would pass in the next.)"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.teahouse import (
    ACTION_ID,
    STALE_CONTROLS,
    RunningBot,
    click_legal_action,
    decision_rng,
    eventually,
    next_decision,
    settings_for,
)
from tests.e2e.test_koikoi_e2e import ephemeral_text


@dataclasses.dataclass(frozen=True)
class OldControl:
    """A button of an earlier decision, with the message as it showed it then."""

    message_id: int
    components: list[dict[str, Any]]
    custom_id: str


def _button_codes(comps: list[dict[str, Any]]) -> dict[str, str]:
    """Action code -> custom id of the buttons among ``comps``."""
    out = {}
    for comp in comps:
        if comp["type"] == 2 and ACTION_ID.match(comp["custom_id"]).group(1) == "a":
            out[comp["custom_id"].split(":", 5)[5]] = comp["custom_id"]
    return out


async def _panda_with_ais(fake: FakeDiscord, bot: Any, channel: int, host: int):
    inter = await fake.slash(host, channel, "panda new")
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    for _ in range(3):
        await (await fake.click(host, lobby, label="Add AI")).wait_response()
    await (await fake.click(host, lobby, label="Start")).wait_response()
    return await eventually(lambda: bot.host.tables.get(table_id))


async def _click_old(fake: FakeDiscord, user: int, old: OldControl):
    """Click ``old`` as a client still showing the old message would (the bot has retired
    those controls since: the fake holds the message's current components)."""
    message: FakeMessage = fake.message(old.message_id)
    now = message.components
    message.components = copy.deepcopy(old.components)
    try:
        inter = await fake.click(user, message, old.custom_id)
    finally:
        message.components = now
    await inter.wait_response()
    return inter


async def test_old_controls_are_refused_when_their_code_is_legal_again(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "stale.db")))
    bot = await running.start()
    try:
        table = await _panda_with_ais(fake, bot, games_channel, alice)
        seen: dict[str, OldControl] = {}
        for _ in range(200):
            _, (message, comps) = await eventually(
                lambda: next_decision(fake, table, [alice]), timeout=60
            )
            current = _button_codes(comps)
            again = next((code for code in current if code in seen), None)
            if again is not None:
                break
            for code, custom_id in current.items():
                seen[code] = OldControl(message.id, copy.deepcopy(message.components), custom_id)
            seat = table.seat_of(alice).seat
            version = table.state.version
            inter = await click_legal_action(
                fake,
                alice,
                message,
                comps,
                table.state.legal_actions(seat),
                decision_rng(table, seat),
                state=table.state,
                seat=seat,
            )
            await inter.wait_response()
            await eventually(lambda v=version: table.state.version > v)
        else:
            raise AssertionError(f"no button came back in 200 decisions: {sorted(seen)}")
        old = seen[again]
        assert old.custom_id != current[again]  # the same code, stamped with an older decision
        version, log = table.state.version, list(table.state.log)

        stale = await _click_old(fake, alice, old)
        await fake.wait_until(lambda: ephemeral_text(stale), what="the refusal")
        assert STALE_CONTROLS in ephemeral_text(stale)
        assert table.state.version == version and table.state.log == log
        assert await bot.store.actions(table.id) == log

        # The current control with that code is played.
        fresh = await fake.click(alice, message, current[again])
        await fresh.wait_response()
        await eventually(lambda: table.state.version > version)
        assert STALE_CONTROLS not in ephemeral_text(fresh)
    finally:
        await running.stop()
