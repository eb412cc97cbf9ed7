"""Two bots, each running one of two gateway shards, on one database (as two processes
would): the table lives in a guild on shard 1, its players' DM clicks arrive on shard 0.
Both serve it; the log keeps one truth, and the bot running the table follows the moves
the other one served."""

from __future__ import annotations

import random

import pytest

from bot.games import game_module
from bot.host.options import game_options
from tests.e2e.fakediscord import FakeDiscord, configure_discord_py
from tests.e2e.teahouse import (
    RunningBot,
    click_move,
    control_moves,
    current_controls,
    eventually,
    settings_for,
    state_checks,
)

pytestmark = pytest.mark.asyncio


async def _state_from_log(store, table_id: int):
    row = await store.get_table(table_id)
    seats = sorted(await store.get_seats(table_id), key=lambda s: s.seat)
    module = game_module(row.game)
    actions = await store.actions(table_id)
    return module.replay(row.seed, [s.name for s in seats], game_options(row.options), actions)


async def test_two_bots_on_two_shards_serve_one_table(tmp_path) -> None:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    restore = configure_discord_py(fake)
    guild = fake.add_guild("Shard One", shard=1, shard_count=2)
    channel = fake.add_text_channel(guild, "games")
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    db = str(tmp_path / "shared.db")
    zero = RunningBot(fake, settings_for(db, shard_count=2, shards="0", log_poll=0.05))
    one = RunningBot(fake, settings_for(db, shard_count=2, shards="1", log_poll=0.05))
    try:
        bot0 = await zero.start()
        bot1 = await one.start()
        inter = await fake.slash(alice, channel, "koikoi new")
        await inter.wait_response()
        assert inter.shard == (1, 2)  # the guild's shard: the second bot answered
        lobby = fake.message(inter.original_id)
        table_id = int(lobby.embeds[0]["title"].split("#")[1])
        await (await fake.click(bob, lobby, label="Join")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table1 = await eventually(lambda: bot1.host.tables.get(table_id))
        users = {0: alice, 1: bob}
        rng = random.Random(7)
        clicks = 0
        while clicks < 12:
            state = await _state_from_log(bot1.store, table_id)
            seat = state.to_act[0]
            user = users[seat]
            normalize, accepts = state_checks(state, seat)
            legal = state.legal_actions(seat)

            def ready(user=user, legal=legal, normalize=normalize, accepts=accepts):
                # The controls of this decision: the bot running the table sends them a
                # moment after it reads the move (it draws the hand first, longer on a
                # loaded machine); the player's previous DM may offer some of the same moves
                # with an older version, which are refused as out of date.
                found = current_controls(fake, table1, user)
                if not found:
                    return None
                moves = control_moves(
                    found[1], legal, normalize=normalize, accepts=accepts, rng=rng
                )
                return (found[0], moves) if moves else None

            message, moves = await eventually(ready)
            click = await click_move(fake, user, message, rng.choice(moves))
            await click.wait_response()
            assert click.shard == (0, 2)  # DM clicks arrive on shard 0: the first bot
            # The bot running the table sees the move (it looks at the log).
            logged = len(state.log)
            await eventually(lambda n=logged: len(table1.state.log) > n, timeout=10)
            clicks += 1
        log = await bot1.store.actions(table_id)
        assert len(log) >= clicks
        # The bot that served the clicks holds the table as a cache of the log, without
        # driving it; the bot running the table followed every move.
        table0 = bot0.host.tables[table_id]
        assert not bot0.host.ctx.scheduler.table_tasks(table0)
        await eventually(lambda: table1.state.log == log)
        # The serving bot applied the moves it served (all of them here: every click was a DM
        # click) and never wrote one of its own beyond the log.
        assert table0.state.log == log
        problems = fake.problems()
        assert not problems, "the fake Discord saw something wrong:\n" + "\n".join(problems)
    finally:
        await zero.stop()
        await one.stop()
        restore()
        await fake.stop()
