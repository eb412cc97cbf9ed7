"""History and replays over the fake Discord: a finished match of every game is listed by
``/history``; its replay steps to the final scores the match's last message announced;
``public:true`` posts in the channel; a running table, a table of another server and a
stranger's click are handled; the buttons keep working after a restart; all of it in the
asking person's language."""

from __future__ import annotations

import re

import pytest

from bot.games import GAME_NAMES
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import RunningBot, eventually, settings_for
from tests.e2e.test_games_e2e import Match, match_of, play_whole_match
from tests.i18n.drawn import english_in_messages

pytestmark = [pytest.mark.asyncio, pytest.mark.no_rate_limits]

# One person and AIs, short matches: the history, not the game, is under test.
MATCHES = {
    "koikoi": Match("koikoi", {}, humans=1, ais=1),
    "mushi": Match("mushi", {"hands": 6}, humans=1, ais=1),
    "panda": Match("panda", {"target": 100}, humans=1, ais=3),
    "sandayi": Match("sandayi", {"hands": 1}, humans=1, ais=3),
    "mahjong": Match("mahjong", {"max_hands": 1}, humans=1, ais=3),
}

#: A score at the end of a line, its thousands grouped (1,015) in every language.
SCORE = re.compile(r"(-?[\d,]+)$")


def score_of(part: str) -> int:
    return int(SCORE.search(part).group(1).replace(",", ""))


def final_scores_announced(fake: FakeDiscord, thread: int, table_id: int) -> list[int]:
    """The scores of the match's last message ("… #n is over."), best place first."""
    over = next(m for m in fake.messages_in(thread) if f"#{table_id} is over." in m.content)
    lines = [line for line in over.content.splitlines() if "—" in line]
    return [int(line.rsplit("—", 1)[1].strip().replace(",", "")) for line in lines]


def replay_final_scores(message: FakeMessage) -> list[int]:
    line = next(x for x in message.content.splitlines() if x.startswith("🏁 Final scores:"))
    return [score_of(part) for part in line.split(":", 1)[1].split(" · ")]


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
    await play_whole_match(fake, running, channel, match_of(game, MATCHES))
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


def _own_lines(content: str) -> list[str]:
    """A replay message's lines but the game's own sentences (its events, quoted)."""
    return [line for line in content.splitlines() if not line.startswith("> ")]


async def test_history_replay_leaderboard_and_stats_in_japanese(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, bob: int
) -> None:
    """A person whose Discord speaks Japanese reads /history, the replay (its caption,
    controls, file message, refusals), /leaderboard and /stats in Japanese; someone else
    clicking their public replay gets their own copy in their own language."""
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "ja.db"), render_processes=0))
    await running.start()
    try:
        table_id, thread = await finished_table(fake, running, games_channel, "koikoi")
        player = fake.user_named("koikoi-player0")
        listing = await answer(await fake.slash(player, games_channel, "history", {}, locale="ja"))
        embed = listing.embeds[0]
        assert embed["title"] == "📜 終わった対局"
        field = embed["fields"][0]
        assert field["name"] == f"#{table_id} · こいこい"
        assert "手" in field["value"] and "moves" not in field["value"]
        assert embed["footer"]["text"].startswith("1/1ページ")
        assert (
            english_in_messages([embed["title"], field["value"], embed["footer"]["text"]], "ja")
            == []
        )

        # Its button opens the replay in Japanese: caption, controls, the last step's scores.
        replay = await answer(await fake.click(player, listing, f"th:ho:{table_id}", locale="ja"))
        assert replay.content.startswith(f"**こいこい** #{table_id} — リプレイ · 0/")
        assert "最初の局の開始時点です" in replay.content
        controls = find_components(replay)
        assert any(c.get("label") == "ダウンロード" for c in controls)
        select = next(c for c in controls if (c.get("custom_id") or "").startswith("th:rh:"))
        assert select["placeholder"] == "回戦を選んで移動…"
        assert select["options"][0]["label"] == "第1回戦"
        edits = replay.edits
        last = button(replay, f"th:rp:{table_id}:last:")["custom_id"]
        await (await fake.click(player, replay, last, locale="ja")).wait_response()
        await eventually(lambda: replay.edits > edits)
        final = next(x for x in replay.content.splitlines() if x.startswith("🏁 最終得点："))
        scores = [score_of(p) for p in final.split("：", 1)[1].split(" · ")]
        assert scores == final_scores_announced(fake, thread, table_id)
        assert english_in_messages(_own_lines(replay.content), "ja") == []
        download = await answer(await fake.click(player, replay, f"th:rd:{table_id}", locale="ja"))
        assert download.content.startswith(f"卓 #{table_id} のリプレイファイルです。")

        # Refusals too.
        refused = await fake.slash(
            player, games_channel, "replay", {"table": table_id, "hand": 99}, locale="ja"
        )
        await refused.wait_response()
        assert refused.callback.data["content"].startswith(f"卓 #{table_id} に第99局はありません")

        # A public replay follows whoever asked; an English click gets an English copy.
        posted = await answer(
            await fake.slash(
                player, games_channel, "replay", {"table": table_id, "public": True}, locale="ja"
            )
        )
        assert "リプレイ" in posted.content
        theirs = await answer(
            await fake.click(bob, posted, button(posted, f"th:rp:{table_id}:next:")["custom_id"])
        )
        assert theirs.ephemeral and f"#{table_id} — replay · step 1/" in theirs.content

        # /leaderboard and /stats, with their pictures.
        board = await answer(
            await fake.slash(player, games_channel, "leaderboard", {"game": "koikoi"}, locale="ja")
        )
        embed = board.embeds[0]
        assert embed["title"] == "🏆 こいこい ランキング"
        assert embed["description"].startswith("`#  レート  対局数  勝利数` プレイヤー")
        assert embed["footer"]["text"].startswith("レート：openskill")
        assert board.attachments[0][1].startswith(b"\x89PNG")
        stats = await answer(await fake.slash(player, games_channel, "stats", {}, locale="ja"))
        field = stats.embeds[0]["fields"][0]
        assert field["name"] == "こいこい" and field["value"].startswith("対局 **1** · 勝利 **")
        assert stats.attachments[0][1].startswith(b"\x89PNG")
        texts = [embed["description"], embed["footer"]["text"], field["value"]]
        assert english_in_messages([t for text in texts for t in text.splitlines()], "ja") == []
    finally:
        await running.stop()
