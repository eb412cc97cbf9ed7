"""Who sees what of a server's matches: a match played in a private channel is listed,
replayed and downloaded only by those who can view that channel; Spectate answers only a
click from the table's server by a member who can see its channel; ▶ on a public replay is
paced per person."""

from __future__ import annotations

import pytest

from bot.store import ResultInput, SeatRow
from cogs.replay import StepPacer
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import RunningBot, eventually, next_decision, settings_for, start_table
from tests.e2e.test_hardening_e2e import _forged_click
from tests.e2e.test_history_e2e import answer, button
from tests.replay.helpers import play

pytestmark = [pytest.mark.asyncio, pytest.mark.no_rate_limits]


async def finished_match(store, guild_id: int, channel_id: int, seed: str, user: int) -> int:
    """A finished Koi-Koi match (``user`` against an AI) played in ``channel_id``, written
    to the store as the host writes one: its id."""
    state = play("koikoi", seed)
    tid = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        game="koikoi",
        options={"rounds": 6},
        seed=state.seed,
        host_id=user,
    )
    names = state.players
    await store.set_seats(tid, [SeatRow(0, user, names[0]), SeatRow(1, None, names[1], True)])
    await store.update_table(tid, status="active")
    for idx, (seat, code) in enumerate(state.log):
        await store.append_action(tid, idx, seat, code, "player")
    result = state.result()
    rows = [
        ResultInput(s, user if s == 0 else None, names[s], result.scores[s], place, team=s)
        for s, place in enumerate(result.placements)
    ]
    assert await store.record_result(tid, guild_id=guild_id, game="koikoi", rows=rows)
    return tid


def refusal(inter) -> str:
    assert inter.callback.ephemeral
    return inter.callback.data["content"]


async def test_a_private_channels_matches_are_only_for_those_who_see_it(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    guild = fake.channel(games_channel).guild_id
    private = fake.add_text_channel(guild, "alice-only", visible_to=[alice])
    running = RunningBot(fake, settings_for(str(tmp_path / "p.db"), render_processes=0))
    bot = await running.start()
    try:
        public_match = await finished_match(bot.store, guild, games_channel, "pub", alice)
        private_match = await finished_match(bot.store, guild, private, "priv", alice)

        def listed(message) -> list[str]:
            return [f["name"].split(" ·")[0] for f in message.embeds[0]["fields"]]

        theirs = await answer(await fake.slash(bob, games_channel, "history", {}))
        assert listed(theirs) == [f"#{public_match}"]
        mine = await answer(await fake.slash(alice, games_channel, "history", {}))
        assert listed(mine) == [f"#{private_match}", f"#{public_match}"]

        # Bob cannot replay it.
        refused = await fake.slash(bob, games_channel, "replay", {"table": private_match})
        await refused.wait_response()
        assert "played in a channel you cannot see" in refusal(refused)
        # Alice can, and posts it in the public channel: its picture is hers to show, but
        # its buttons (a step, Download) give Bob nothing of the match.
        posted = await answer(
            await fake.slash(
                alice, games_channel, "replay", {"table": private_match, "public": True}
            )
        )
        assert f"#{private_match} — replay · step 0/" in posted.content
        for prefix in (f"th:rp:{private_match}:next:", f"th:rd:{private_match}"):
            click = await fake.click(bob, posted, button(posted, prefix)["custom_id"])
            await click.wait_response()
            assert "played in a channel you cannot see" in refusal(click)
        # Bob still replays the public one.
        seen = await answer(await fake.slash(bob, games_channel, "replay", {"table": public_match}))
        assert f"#{public_match} — replay · step 0/" in seen.content
    finally:
        await running.stop()


async def test_spectate_refuses_a_dm_click_and_a_member_who_cannot_see_the_channel(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    guild = fake.channel(games_channel).guild_id
    private = fake.add_text_channel(guild, "alice-only", visible_to=[alice])
    running = RunningBot(fake, settings_for(str(tmp_path / "s.db"), render_processes=0))
    bot = await running.start()
    try:
        table = await start_table(fake, bot, private, alice)
        _, (dm, _) = await eventually(lambda: next_decision(fake, table, [alice]), 30)
        table_message = (await eventually(lambda: fake.messages_in(table.thread_id)[:1]))[0]
        spectate = f"th:v:{table.id}"
        # Its Spectate button, clicked as if from a DM (no server): refused, nothing shown.
        from_dm = await _forged_click(fake, bob, table_message, spectate, fake.open_dm(bob))
        await from_dm.wait_response()
        assert "from the table's message in its server" in refusal(from_dm)
        assert not from_dm.callback.data.get("attachments")
        # Bob, in the server, cannot see the private channel the table is played in.
        forged = await _forged_click(fake, bob, table_message, spectate, games_channel)
        await forged.wait_response()
        assert "cannot see the channel this table is played in" in refusal(forged)
        # Alice can.
        shown = await answer(await fake.click(alice, table_message, spectate))
        assert shown.ephemeral and shown.attachments
    finally:
        await running.stop()


async def test_stepping_a_public_replay_too_fast_is_answered_privately(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    """Anyone may click ▶ on a public replay (each click draws their own copy): three
    steps at once, then a private "slow down" until time gives more (the test's clock does
    not move)."""
    fake = fake_discord
    guild = fake.channel(games_channel).guild_id
    running = RunningBot(fake, settings_for(str(tmp_path / "r.db"), render_processes=0))
    bot = await running.start()
    try:
        match = await finished_match(bot.store, guild, games_channel, "pace", alice)
        bot.replay_pacer = StepPacer(rate=1.0, burst=3, clock=lambda: 0.0)
        posted = await answer(
            await fake.slash(alice, games_channel, "replay", {"table": match, "public": True})
        )  # alice's first step
        step = button(posted, f"th:rp:{match}:next:")["custom_id"]
        for _ in range(3):
            copy = await answer(await fake.click(bob, posted, step))
            assert copy.ephemeral and "step 1/" in copy.content
        spam = await fake.click(bob, posted, step)
        await spam.wait_response()
        assert "Slow down" in refusal(spam)
        # Alice has two steps left of her own.
        for _ in range(2):
            await (await fake.click(alice, posted, step)).wait_response()
        owner_spam = await fake.click(alice, posted, step)
        await owner_spam.wait_response()
        assert "Slow down" in refusal(owner_spam)
    finally:
        await running.stop()
