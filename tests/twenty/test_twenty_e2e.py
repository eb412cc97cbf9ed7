"""Twenty, a game the bot's code never names, through every cog over the fake Discord: a
whole match at the table, ``/rules``, ``/history``, the replay (stepping, the round select,
the final scores), its Download, ``/leaderboard`` and ``/stats`` — from its package
(``tests/twenty``) and its registration alone."""

from __future__ import annotations

import json

import pytest

from bot.replay.core import Replayer, from_json
from tests.e2e.fakediscord import FakeDiscord, find_components
from tests.e2e.teahouse import RunningBot, settings_for
from tests.e2e.test_games_e2e import Match, match_of, play_whole_match
from tests.e2e.test_history_e2e import (
    answer,
    button,
    click_in_place,
    final_scores_announced,
    replay_final_scores,
)
from tests.twenty import SPEC

pytestmark = pytest.mark.no_rate_limits

MATCH = Match("twenty", {"goal": 7, "rounds": 2}, humans=1, ais=1)


async def test_rules_describe_twenty(fake_discord: FakeDiscord, tmp_path, games_channel: int):
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "rules.db"), render_processes=0))
    await running.start()
    try:
        reader = fake.add_user("reader")
        rules = await answer(await fake.slash(reader, games_channel, "rules", {"game": "twenty"}))
        embed = rules.embeds[0]
        assert embed["title"] == "Twenty — rules"
        assert embed["description"].startswith("**Twenty** — two players race a running total")
        assert embed["footer"]["text"] == "Start a table with /twenty new"
        # The complete rules: the package's own rules.md (no docs/rules/twenty.md).
        name, data = rules.attachments[0]
        assert name == "teahouse-twenty-rules.md" and data.startswith(b"# Twenty")
    finally:
        await running.stop()


async def test_a_match_of_twenty_is_played_listed_replayed_downloaded_and_rated(
    fake_discord: FakeDiscord, tmp_path, games_channel: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "twenty.db"), render_processes=0))
    await running.start()
    try:
        # At the table: opened with /twenty new, played by clicking; each round's end
        # (its event "round_won") posted a summary with the hands face up.
        await play_whole_match(fake, running, games_channel, MATCH)
        row = (await running.bot.store.query("SELECT id, thread_id FROM tables"))[0]
        table_id, thread = int(row["id"]), int(row["thread_id"])
        summaries = [m for m in fake.messages_in(thread) if m.content.startswith("📜")]
        assert len(summaries) == 2
        assert all(m.attachments[0][1].startswith(b"\x89PNG") for m in summaries)
        player = fake.user_named("twenty-player0")

        # /history lists it; its button opens the replay, which steps by round.
        listing = await answer(
            await fake.slash(player, games_channel, "history", {"game": "twenty"})
        )
        assert listing.embeds[0]["title"] == "📜 Finished matches of Twenty"
        field = listing.embeds[0]["fields"][0]
        assert field["name"] == f"#{table_id} · Twenty" and "🥇" in field["value"]
        replay = await answer(await fake.click(player, listing, f"th:ho:{table_id}"))
        assert replay.attachments[0][1].startswith(b"\x89PNG")
        assert f"**Twenty** #{table_id} — replay · step 0/" in replay.content
        assert replay.content.splitlines()[0].endswith("· round 1")
        select = next(c for c in find_components(replay) if c["custom_id"].startswith("th:rh:"))
        assert select["placeholder"] == "Jump to a round…"
        assert [o["label"] for o in select["options"]] == ["Round 1", "Round 2"]
        await click_in_place(
            fake, player, replay, button(replay, f"th:rp:{table_id}:next:")["custom_id"]
        )
        assert "step 1/" in replay.content
        await click_in_place(
            fake, player, replay, button(replay, f"th:rp:{table_id}:last:")["custom_id"]
        )
        assert replay.content.splitlines()[0].endswith("· round 2")
        assert replay_final_scores(replay) == final_scores_announced(fake, thread, table_id)
        # The match's end is said by the game's own event ("final"), not added again.
        assert "Twenty is over:" in replay.content and "The match is over." not in replay.content

        # Download: the replay file, which replays to the same end.
        download = await answer(await fake.click(player, replay, f"th:rd:{table_id}"))
        name, data = download.attachments[0]
        assert name.endswith(".json") and json.loads(data)["title"] == "Twenty"
        record = from_json(data)
        final = Replayer(record).final
        assert record.game == "twenty" and final.is_over
        assert sorted(final.scores, reverse=True) == final_scores_announced(fake, thread, table_id)

        # /leaderboard and /stats count it.
        board = await answer(
            await fake.slash(player, games_channel, "leaderboard", {"game": "twenty"})
        )
        assert board.embeds[0]["title"] == "🏆 Twenty — leaderboard"
        assert f"<@{player}>" in board.embeds[0]["description"]
        assert board.attachments[0][1].startswith(b"\x89PNG")
        stats = await answer(await fake.slash(player, games_channel, "stats", {}))
        field = stats.embeds[0]["fields"][0]
        assert field["name"] == "Twenty" and field["value"].startswith("games **1** · wins **")
        assert stats.attachments[0][1].startswith(b"\x89PNG")  # its rating over time
    finally:
        await running.stop()


def test_a_registered_game_without_an_e2e_match_fails_there() -> None:
    """Twenty is registered here but has no match in ``MATCHES`` of test_games_e2e: its
    whole-match test would fail, not be skipped."""
    with pytest.raises(pytest.fail.Exception, match="twenty is registered but has no e2e"):
        match_of("twenty")
    assert match_of("twenty", {"twenty": MATCH}) is MATCH


def test_twenty_is_unlike_the_five_games_in_every_convention() -> None:
    """What makes the test above worth running: each convention the bot has a default for
    is something else in Twenty, so a reader that assumed the default would fail it."""
    assert (SPEC.hand_key, SPEC.pass_code) == ("cards", "wait")
    assert (SPEC.deal_end_kind, SPEC.match_end_kind) == ("round_won", "final")
    assert (SPEC.deal_key, SPEC.deal_word) == ("round", "round")
    assert SPEC.package == "tests.twenty" and SPEC.cog == "tests.twenty.cog"
