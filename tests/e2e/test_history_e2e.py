"""History and replays over the fake Discord: a finished match of every game is listed by
``/history``; its replay steps to the final scores the match's last message announced;
``public:true`` posts in the channel; a running table, a table of another server and a
stranger's click are handled; the buttons keep working after a restart."""

from __future__ import annotations

import re

import pytest

from bot.games import GAME_NAMES
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import RunningBot, eventually, settings_for
from tests.e2e.test_games_e2e import Match, play_whole_match

pytestmark = [pytest.mark.asyncio, pytest.mark.no_rate_limits]

# One person and AIs, short matches: the history, not the game, is under test.
MATCHES = {
    "koikoi": Match("koikoi", {}, humans=1, ais=1),
    "mushi": Match("mushi", {"hands": 6}, humans=1, ais=1),
    "panda": Match("panda", {"target": 100}, humans=1, ais=3),
    "sandayi": Match("sandayi", {"hands": 1}, humans=1, ais=3),
    "mahjong": Match("mahjong", {"max_hands": 1}, humans=1, ais=3),
}

SCORE = re.compile(r"(-?\d+)$")


def final_scores_announced(fake: FakeDiscord, thread: int, table_id: int) -> list[int]:
    """The scores of the match's last message ("… #n is over."), best place first."""
    over = next(m for m in fake.messages_in(thread) if f"#{table_id} is over." in m.content)
    return [int(line.rsplit("—", 1)[1]) for line in over.content.splitlines() if "—" in line]


def replay_final_scores(message: FakeMessage) -> list[int]:
    line = next(x for x in message.content.splitlines() if x.startswith("🏁 Final scores:"))
    return [int(SCORE.search(part).group(1)) for part in line.split(":", 1)[1].split(" · ")]


def button(message: FakeMessage, prefix: str) -> dict:
    return next(
        c for c in find_components(message) if (c.get("custom_id") or "").startswith(prefix)
    )


async def answer(inter) -> FakeMessage:
    """The message an interaction's answer created or edited (after a defer: once filled)."""
    await inter.wait_response()
    return await eventually(
        lambda: (
            inter.original if inter.original is not None and not inter.original.loading else None
        )
    )


async def click_in_place(fake: FakeDiscord, user: int, message: FakeMessage, custom_id: str):
    """Click a control that edits its own message, and wait for the edit."""
    edits = message.edits
    await (await fake.click(user, message, custom_id)).wait_response()
    await eventually(lambda: message.edits > edits)


async def finished_table(fake: FakeDiscord, running: RunningBot, channel: int, game: str):
    await play_whole_match(fake, running, channel, MATCHES[game])
    rows = await running.bot.store.query("SELECT id, thread_id FROM tables ORDER BY id DESC")
    return int(rows[0]["id"]), int(rows[0]["thread_id"])


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_finished_match_is_listed_and_replays_to_its_final_scores(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, game: str
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / f"{game}.db"), render_processes=0))
    await running.start()
    try:
        table_id, thread = await finished_table(fake, running, games_channel, game)
        player = fake.user_named(f"{game}-player0")
        listing = await answer(await fake.slash(player, games_channel, "history", {"game": game}))
        assert listing.ephemeral
        field = listing.embeds[0]["fields"][0]
        assert field["name"].startswith(f"#{table_id} ·")
        assert "🥇" in field["value"] and "moves" in field["value"]
        # Its button opens the replay, privately, at the first step.
        opened = await fake.click(player, listing, f"th:ho:{table_id}")
        replay = await answer(opened)
        assert replay.ephemeral and replay.attachments[0][1].startswith(b"\x89PNG")
        assert f"#{table_id} — replay · step 0/" in replay.content
        # ▶ moves it one step, in place; ⏭ reaches the end and its final scores.
        await click_in_place(
            fake, player, replay, button(replay, f"th:rp:{table_id}:next:")["custom_id"]
        )
        assert "step 1/" in replay.content
        await click_in_place(
            fake, player, replay, button(replay, f"th:rp:{table_id}:last:")["custom_id"]
        )
        assert "🏁 Final scores" in replay.content
        assert replay_final_scores(replay) == final_scores_announced(fake, thread, table_id)
        assert replay.attachments[0][1].startswith(b"\x89PNG")
        # Download: the match as one replay file.
        download = await answer(await fake.click(player, replay, f"th:rd:{table_id}"))
        name, data = download.attachments[0]
        assert name.endswith(".json") and b'"format": "teahouse-replay"' in data
    finally:
        await running.stop()


async def test_public_refusals_strangers_and_a_restart(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "r.db"), render_processes=0))
    bot = await running.start()
    try:
        table_id, _ = await finished_table(fake, running, games_channel, "koikoi")
        # public:true posts it in the channel, for everyone.
        posted = await answer(
            await fake.slash(alice, games_channel, "replay", {"table": table_id, "public": True})
        )
        assert not posted.ephemeral and posted.channel_id == games_channel
        assert posted in fake.messages_in(games_channel, include_ephemeral=False)
        # A stranger's click on it opens their own private copy; the post stays as it was.
        before = posted.content
        theirs = await answer(
            await fake.click(bob, posted, button(posted, f"th:rp:{table_id}:next:")["custom_id"])
        )
        assert theirs.ephemeral and theirs.id != posted.id and "step 1/" in theirs.content
        assert posted.content == before
        # The deal select jumps to a later round.
        select = next(c for c in find_components(posted) if c["custom_id"].startswith("th:rh:"))
        later = select["options"][-1]
        edits = posted.edits
        await (
            await fake.select(alice, posted, select["custom_id"], [later["value"]])
        ).wait_response()
        await eventually(lambda: posted.edits > edits)
        assert f"step {later['value']}/" in posted.content

        # A table still being played is refused (no peeking at the hands).
        inter = await fake.slash(alice, games_channel, "koikoi new", {})
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        running_id = int(lobby.embeds[0]["title"].split("#")[1])
        for label in ("Add AI", "Start"):
            await (await fake.click(alice, lobby, label=label)).wait_response()
        await eventually(lambda: running_id in bot.host.tables)
        refused = await fake.slash(bob, games_channel, "replay", {"table": running_id})
        await refused.wait_response()
        assert refused.callback.ephemeral
        assert "still being played" in refused.callback.data["content"]

        # Another server's table does not exist there.
        other_guild = fake.add_guild("Elsewhere")
        other_channel = fake.add_text_channel(other_guild, "games")
        stranger = await fake.slash(bob, other_channel, "replay", {"table": table_id})
        await stranger.wait_response()
        assert stranger.callback.ephemeral
        assert f"no table #{table_id} in this server" in stranger.callback.data["content"]
        listing = await fake.slash(bob, other_channel, "history", {})
        assert "No finished matches" in (await answer(listing)).embeds[0]["description"]

        # After a restart the posted replay's buttons still work.
        await running.restart()
        await click_in_place(
            fake, alice, posted, button(posted, f"th:rp:{table_id}:first:")["custom_id"]
        )
        assert "step 0/" in posted.content
    finally:
        await running.stop()
