"""Panda over the fake Discord: an Ambush laid out of turn from the player's DM."""

from __future__ import annotations

import random

import pytest

import bot.games.panda as panda
from bot.engine import replay_from
from bot.games.panda.stacking import fill
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    action_components,
    click_legal_action,
    eventually,
    latest_controls,
    settings_for,
)

pytestmark = pytest.mark.asyncio

SEVENS = ("7t", "7g", "7r", "7a")


@pytest.fixture
def stacked_panda(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Deal the table's first hand from a stacked deck: Bob (seat 1) holds four 7s, an AI
    (seat 2) holds the Stork and leads the first trick."""
    hands = fill([[], list(SEVENS), ["stork"], []])
    deck = [c for hand in hands for c in hand]

    def replay(seed, players, options, log, deck_=None):
        return replay_from(panda.new_game, seed, players, options, log, deck=deck)

    monkeypatch.setattr(panda, "replay", replay)
    return deck


def _is_ambush(code: str) -> bool:
    return code.startswith("play ") and all(c in code.split() for c in SEVENS)


async def test_an_ambush_out_of_turn_from_the_dm(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int, stacked_panda
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "panda.db"), simultaneous_window=0.05))
    bot = await running.start()
    try:
        inter = await fake.slash(alice, games_channel, "panda new")
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        table_id = int(lobby.embeds[0]["title"].split("#")[1])
        await (await fake.click(bob, lobby, label="Join")).wait_response()
        for _ in range(2):
            await (await fake.click(alice, lobby, label="Add AI")).wait_response()
        # Partners sit opposite: the lobby says who plays with whom.
        seats = lobby.embeds[0]["description"].splitlines()
        assert "team A" in seats[0] and "team B" in seats[1] and "team A" in seats[2]
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot.host.tables.get(table_id))
        rng = random.Random(1)

        def bob_can_ambush():
            if 1 in table.state.to_act:
                return None
            found = latest_controls(fake, bob)
            if not found:
                return None
            message, comps = found
            button = next(
                (
                    c
                    for c in comps
                    if c["type"] == 2 and _is_ambush(c["custom_id"].split(":", 5)[5])
                ),
                None,
            )
            return (message, button) if button else None

        # Play on (Bob keeps his 7s) until the Ambush button shows in Bob's DM out of turn.
        for _ in range(60):
            await eventually(lambda: not table.lock.locked() and table.batch is None)
            ready = bob_can_ambush()
            if ready:
                break
            user = next(
                (s.user_id for s in table.seats if s.seat in table.state.to_act and not s.is_ai),
                None,
            )
            if user is None:
                await eventually(
                    lambda: (
                        any(not table.seats[s].is_ai for s in table.state.to_act)
                        or bob_can_ambush()
                    )
                )
                continue
            seat = table.seat_of(user).seat
            message, comps = await fake.wait_until(lambda u=user: latest_controls(fake, u))
            legal = [
                c
                for c in table.state.legal_actions(seat)
                if c != "call" and not (seat == 1 and any(x in c.split() for x in SEVENS))
            ]
            version = table.state.version
            click = await click_legal_action(fake, user, message, comps, legal, rng)
            await click.wait_response()
            await eventually(lambda v=version: table.state.version > v)
        else:
            raise AssertionError("Bob never got the chance to ambush")

        message, button = ready
        assert 1 not in table.state.to_act and 1 in table.state.may_act
        before = len(table.state.log)
        ambush = await fake.click(bob, message, button["custom_id"])
        await ambush.wait_response()
        await eventually(lambda: len(table.state.log) > before)
        seat, code = table.state.log[before]
        assert seat == 1 and _is_ambush(code)
        assert (await bot.store.actions(table_id))[before] == (1, code)
        # The Ambush leads the trick now; Bob's DM no longer offers it.
        await eventually(lambda: not table.lock.locked())
        assert not any(
            _is_ambush(c["custom_id"].split(":", 5)[5])
            for c in action_components(fake.message(message.id))
        )
    finally:
        await running.stop()
