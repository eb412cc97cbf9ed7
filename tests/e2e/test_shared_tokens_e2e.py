"""Decisions never wait on the REST budget in a cluster either (issue 31): two bots, each
running one of two gateway shards, on one PostgreSQL database. The table lives in a guild
on shard 1, so the second bot drives it; its player's DM clicks arrive on shard 0, at the
first bot, which logs each move with the click's token (``click_tokens``). The driving bot
reads the token with the move and answers the player through the click's webhook
(``/webhooks/{app}/{token}``, exempt from the REST budget) — not by ``POST``/``PATCH
/channels/…``. A token Discord refuses (expired: 401 / 50027) is tried once and the DM goes
out plainly."""

from __future__ import annotations

import logging
import random

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, configure_discord_py
from tests.e2e.teahouse import (
    RunningBot,
    click_move,
    control_moves,
    current_controls,
    eventually,
    settings_for,
    state_checks,
)
from tests.e2e.test_cluster_e2e import database  # noqa: F401 (a fixture)
from tests.store.conftest import postgres_url  # noqa: F401 (a fixture)

pytestmark = pytest.mark.asyncio

#: Moves the player makes whose next decision the driving bot delivers through the click.
CLICKS = 5


def _dm_rest(fake: FakeDiscord, dm_channel: int, since: int) -> list[str]:
    """Plain REST requests that sent or edited a message of the DM channel (budgeted)."""
    return [
        f"{r.method} {r.path}"
        for r in fake.all_requests[since:]
        if r.method in ("POST", "PATCH") and r.path.startswith(f"/channels/{dm_channel}/messages")
    ]


def _through(fake: FakeDiscord, click: FakeInteraction, since: int) -> list[tuple[str, int]]:
    """Requests made through the click's webhook (a follow-up or an edit), and their status."""
    prefix = f"/webhooks/{fake.application_id}/{click.token}"
    return [
        (r.method, r.status)
        for r in fake.all_requests[since:]
        if r.path == prefix or r.path.startswith(prefix + "/")
    ]


async def test_the_driving_bot_answers_a_click_served_elsewhere_through_its_token(
    database: str,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    tokens: list[str] = []
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    restore = configure_discord_py(fake)
    guild = fake.add_guild("Shard One", shard=1, shard_count=2)
    channel = fake.add_text_channel(guild, "games")
    alice = fake.add_user("Alice")
    zero = RunningBot(fake, settings_for(database, shard_count=2, shards="0", log_poll=0.5))
    one = RunningBot(fake, settings_for(database, shard_count=2, shards="1", log_poll=0.5))
    try:
        await zero.start()
        bot1 = await one.start()
        inter = await fake.slash(alice, channel, "koikoi new")
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        table_id = int(lobby.embeds[0]["title"].split("#")[1])
        await (await fake.click(alice, lobby, label="Add AI")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table1 = await eventually(lambda: bot1.host.tables.get(table_id))
        assert table1.driven
        rng = random.Random(31)

        async def play() -> FakeInteraction:
            """Alice makes a move of her current decision (its DM controls, once the
            driving bot has sent them), by a DM click: it arrives at the first bot."""
            seat = table1.seat_of(alice).seat
            found = await eventually(lambda: current_controls(fake, table1, alice))
            normalize, accepts = state_checks(table1.state, seat)
            moves = control_moves(
                found[1],
                table1.state.legal_actions(seat),
                normalize=normalize,
                accepts=accepts,
                rng=rng,
            )
            version = table1.state.version
            click = await click_move(fake, alice, found[0], rng.choice(moves))
            await click.wait_response()
            tokens.append(click.token)
            assert click.shard == (0, 2)  # a DM click: the first bot, which does not drive
            await eventually(lambda: table1.state.version > version, timeout=20)
            return click

        await eventually(lambda: current_controls(fake, table1, alice))
        dm_channel = fake.dms(alice)[0].channel_id
        start = len(fake.all_requests)
        for _ in range(CLICKS):
            since = len(fake.all_requests)
            click = await play()
            # Her next decision (after the AI's move) comes from the driving bot, through
            # the click the first bot served: its controls are there, sent by the webhook.
            await eventually(lambda: current_controls(fake, table1, alice), timeout=20)
            through = _through(fake, click, since)
            assert any(status < 300 for _, status in through), through
            assert all(status < 400 or status == 429 for _, status in through), through
        assert _dm_rest(fake, dm_channel, start) == []
        assert not fake.problems()

        # A token Discord refuses (its 15 minutes are over): tried once, then the DM goes
        # out plainly, out of the budget, and the token is never tried again.
        since = len(fake.all_requests)
        seat = table1.seat_of(alice).seat
        found = await eventually(lambda: current_controls(fake, table1, alice))
        normalize, accepts = state_checks(table1.state, seat)
        moves = control_moves(
            found[1], table1.state.legal_actions(seat), normalize=normalize, accepts=accepts
        )
        version = table1.state.version
        click = await click_move(fake, alice, found[0], rng.choice(moves))
        await click.wait_response()
        tokens.append(click.token)
        fake.expire_tokens()  # (before the first bot has logged the move)
        await eventually(lambda: table1.state.version > version, timeout=20)
        await eventually(lambda: current_controls(fake, table1, alice), timeout=20)
        await eventually(lambda: _dm_rest(fake, dm_channel, since), timeout=20)
        refused = [(m, s) for m, s in _through(fake, click, since) if s == 401]
        assert len(refused) == 1, _through(fake, click, since)
        assert all(r.code == 50027 for r in fake.refusals)
        # The next click's token is good again: the decision after it goes through it.
        since = len(fake.all_requests)
        click = await play()
        await eventually(lambda: current_controls(fake, table1, alice), timeout=20)
        assert _through(fake, click, since)
        problems = fake.problems(refusals_expected=True)
        assert not problems, "the fake Discord saw something wrong:\n" + "\n".join(problems)
        # A token is a credential: in none of the bots' log lines (the refusal's included).
        said = [r.getMessage() for r in caplog.records]
        assert len(tokens) == CLICKS + 2 and not [t for t in tokens if any(t in m for m in said)]
    finally:
        await zero.stop()
        await one.stop()
        restore()
        await fake.stop()
