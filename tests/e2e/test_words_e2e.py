"""Words people read, over whole matches of every game: cards by their names, never by
their codes (``2r``, ``5d``, ``Mg``, ``10H``), in the lobby, the thread (table message,
events, deal summaries with their "Hands at the end", the end of the match) and the DMs
(prompts, buttons, select options).

Each game's code notation has its pattern; a text matching it is a code a person would have
to decode. Discord markup (mentions, timestamps) and code spans (notation quoted on
purpose, e.g. a typed-command example) are set aside first.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games import game_spec
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import RunningBot, eventually, play_to_end, settings_for

pytestmark = pytest.mark.asyncio

#: A card code of each game as a whole word (docs/architecture.md's notation).
HANAFUDA_CODE = re.compile(r"\b\d{1,2}(b|a|r|p\d)\b")
CODES = {
    "koikoi": HANAFUDA_CODE,
    "mushi": HANAFUDA_CODE,
    "mahjong": re.compile(r"\b[1-9][bcd]\b|\b[fs][1-4]\b"),
    "panda": re.compile(r"\b(10|[1-9]|[BGEM])[tgra]\b"),
    "sandayi": re.compile(r"\b(10|[2-9JQKA])[SHDC]\b"),
}
#: Words that look like codes but are not cards: San Da Yi's settlement cases of its rules
#: table (``case 2C``, ``case 3B``), named next to their meaning.
NOT_CARDS = {"sandayi": re.compile(r"\bcase [23][A-D]\b")}


def coded(game: str, text: str) -> bool:
    """Whether ``text`` shows a card code of ``game``."""
    if game in NOT_CARDS:
        text = NOT_CARDS[game].sub(" ", text)
    return bool(CODES[game].search(text))


#: Words each game's texts must hold somewhere: its cards' names (the check is not empty).
NAMES = {
    "koikoi": re.compile(r"\b(plain|ribbon)\b"),
    "mushi": re.compile(r"\b(plain|ribbon)\b"),
    "mahjong": re.compile(r"\b[1-9] (Bamboo|Characters?|Dots?)\b"),
    "panda": re.compile(
        r"\b(10|[1-9]|Bushi|Geisha|Emperor|Mon) of (Tamahagane|Gyokuro|Renge|Asahi)\b"
    ),
    "sandayi": re.compile(r"(10|[2-9JQKA])[♠♥♦♣]"),
}
#: Short matches: one person, AIs in the other seats.
MATCHES: dict[str, tuple[dict[str, Any], int]] = {
    "koikoi": ({"rounds": 6}, 1),
    "mushi": ({"hands": 6}, 1),
    "panda": ({"target": 200}, 3),
    "sandayi": ({"hands": 2}, 3),
    "mahjong": ({"max_hands": 1}, 3),
}
MARKUP = re.compile(r"<(?:[@#][!&]?\d+|a?:\w+:\d+|t:\d+(?::\w)?)>|`[^`]*`")


def _texts_of(version: dict[str, Any]) -> list[str]:
    """What a person reads in one version of a message: content, embeds, component labels,
    placeholders, options and their descriptions."""
    out = [version.get("content") or ""]
    for embed in version.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out.append((embed.get("footer") or {}).get("text") or "")
        for item in embed.get("fields") or []:
            out += [item.get("name") or "", item.get("value") or ""]
    for comp in find_components(version.get("components") or []):
        out += [comp.get("label") or "", comp.get("placeholder") or ""]
        for option in comp.get("options") or []:
            out += [option.get("label") or "", option.get("description") or ""]
    return [MARKUP.sub(" ", text) for text in out if text]


def read_texts(fake: FakeDiscord, channels: list[int]) -> list[str]:
    """Every version of every message the bot sent in these channels, as read."""
    out: list[str] = []
    for channel in channels:
        for message in fake.messages_in(channel):
            if message.author_id == fake.bot_user_id:
                for version in [*message.history, message.snapshot()]:
                    out += _texts_of(version)
    return out


def test_the_patterns_see_codes_and_not_words() -> None:
    assert CODES["koikoi"].search("Hands at the end: Alice 2r 7p2 12p2")
    assert CODES["mahjong"].search("(hand shown: 4b 5b 6b)") and CODES["mahjong"].search("f2")
    assert CODES["panda"].search("⚠️ 2t Panda is not a combination.")
    assert CODES["sandayi"].search("plays 10H") and CODES["sandayi"].search("QS")
    words = "Round 1: Alice scores 1 point; 2nd, 3rd, 4th, AI 2, 5 Dots, 10♥, Mon of Renge"
    assert not any(p.search(words) for p in CODES.values())
    assert not coded("sandayi", "the declarer won the last trick (no 抠底) — case 2C (…)")
    assert coded("sandayi", "case 2C: 3C")


async def _open(fake: FakeDiscord, channel: int, host: int, game: str) -> tuple[int, FakeMessage]:
    options, ais = MATCHES[game]
    inter = await fake.slash(host, channel, f"{game} new", options)
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    for _ in range(ais):
        await (await fake.click(host, lobby, label="Add AI")).wait_response()
    await (await fake.click(host, lobby, label="Start")).wait_response()
    return table_id, lobby


@pytest.mark.no_rate_limits  # a whole match clicked at machine speed (see conftest.py)
@pytest.mark.parametrize("game", list(MATCHES))
async def test_a_whole_match_names_cards_and_never_shows_a_code(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, game: str
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / f"{game}.db")))
    await running.start()
    try:
        player = fake.add_user(f"{game}-player")
        table_id, _ = await _open(fake, games_channel, player, game)
        table, clicks = await play_to_end(fake, running, table_id, {player: "en-US"}, timeout=60)
        assert clicks > 0 and table.finished
        thread = table.thread_id
        # The results are recorded before they are announced: wait for the announcement.
        await eventually(
            lambda: any("is over" in m.content for m in fake.messages_in(thread)), timeout=30
        )
        summaries = [m.content for m in fake.messages_in(thread) if m.content.startswith("📜")]
        assert summaries
        if not game_spec(game).summary_shows_hands:  # (Mah-Jongg's score sheet shows them)
            assert all("Hands at the end:" in s for s in summaries)
        texts = read_texts(fake, [games_channel, thread, fake.dms(player)[0].channel_id])
        assert any(NAMES[game].search(t) for t in texts), "no card was named"
        assert sorted({t for t in texts if coded(game, t)}) == []
    finally:
        await running.stop()
