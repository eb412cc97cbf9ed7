"""Every game, end to end: simulated people open a table with its slash command, fill it
(other people or AIs), and play a whole match by clicking the components the bot sent them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.games import GAME_NAMES, game_spec
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    eventually,
    play_to_end,
    settings_for,
)

pytestmark = pytest.mark.asyncio


@dataclass(frozen=True)
class Match:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    humans: int = 2
    ais: int = 0


# Short matches where the game offers a length option, to keep CI fast. Every registered
# game has one: a game without fails (``match_of``), it is not skipped.
MATCHES = {
    "koikoi": Match("koikoi", {"rounds": 6}, humans=2),
    "mushi": Match("mushi", {"hands": 6}, humans=2),
    "panda": Match("panda", {"target": 200}, humans=2, ais=2),
    "sandayi": Match("sandayi", {"hands": 2}, humans=2, ais=2),
    "mahjong": Match("mahjong", {"max_hands": 1}, humans=1, ais=3),
}


def match_of(game: str, matches: dict[str, Match] = MATCHES) -> Match:
    """The e2e match of a registered game; a failure (not a skip) for a game without one."""
    if game not in matches:
        pytest.fail(f"{game} is registered but has no e2e match: add it to MATCHES")
    return matches[game]


def _ephemeral_text(interaction) -> str:
    if interaction.callback and interaction.callback.ephemeral:
        return interaction.callback.data.get("content") or ""
    return next((f.content for f in interaction.followups if f.ephemeral), "")


async def play_whole_match(
    fake: FakeDiscord, running: RunningBot, channel: int, match: Match
) -> int:
    users = [fake.add_user(f"{match.game}-player{i}") for i in range(match.humans)]
    host = users[0]
    inter = await fake.slash(host, channel, f"{match.game} new", match.options)
    await inter.wait_response()
    assert not _ephemeral_text(inter), _ephemeral_text(inter)
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    for guest in users[1:]:
        await (await fake.click(guest, lobby, label="Join")).wait_response()
    for _ in range(match.ais):
        await (await fake.click(host, lobby, label="Add AI")).wait_response()
    await (await fake.click(host, lobby, label="Start")).wait_response()
    bot = running.bot

    def no_refusal(inter: Any) -> None:
        assert _ephemeral_text(inter) == "", _ephemeral_text(inter)

    table, clicks = await play_to_end(
        fake, running, table_id, dict.fromkeys(users, "en-US"), after_click=no_refusal
    )
    assert (await bot.store.get_table(table_id)).status == "finished"
    assert await bot.store.actions(table_id) == table.state.log
    # Each finished deal got its summary in the thread (with a score sheet where the game
    # draws one), and the match ended with the standings.
    thread = table.thread_id
    # The results are recorded before they are announced: wait for the announcement.
    await eventually(lambda: any("is over" in m.content for m in fake.messages_in(thread)))
    summaries = [m for m in fake.messages_in(thread) if m.content.startswith("📜")]
    assert len(summaries) >= 1
    if game_spec(match.game).renderers().render_deal_summary is not None:
        assert all(m.attachments and m.attachments[0][1].startswith(b"\x89PNG") for m in summaries)
    return clicks


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_whole_match_by_clicking(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, game: str
) -> None:
    running = RunningBot(fake_discord, settings_for(str(tmp_path / f"{game}.db")))
    await running.start()
    try:
        clicks = await play_whole_match(fake_discord, running, games_channel, match_of(game))
        assert clicks > 5
        player0 = fake_discord.user_named(f"{game}-player0")
        board = await fake_discord.slash(player0, games_channel, "leaderboard", {"game": game})
        await board.wait_response()
        assert f"<@{player0}>" in board.callback.data["embeds"][0]["description"]
    finally:
        await running.stop()
