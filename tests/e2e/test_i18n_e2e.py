"""The bot in each person's language, over the fake Discord.

- A whole match of every game at a Japanese table (the server's language), every click made
  from a Japanese Discord: the lobby, the table message, the thread posts, the DMs with
  their buttons and selects, and the private answers (Spectate, Show my hand, a hint, a
  refusal) hold no English that the catalogs translate (``english_in_messages``: the check
  grows with the catalogs), and every picture was drawn in Japanese.
- An English player at a Japanese table reads English DMs while the table stays Japanese.
- ``/<game> new language:`` overrides the server's language; the table keeps it across a
  restart; each person's language is remembered in the store.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.host.hints import UNRATED_NOTE
from bot.i18n import gettext, localize
from bot.render.worker import render_png
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_components
from tests.e2e.teahouse import (
    RunningBot,
    click_legal_action,
    decision_rng,
    eventually,
    latest_controls,
    next_decision,
    play_to_end,
    settings_for,
)
from tests.i18n.drawn import english_in_messages

pytestmark = pytest.mark.asyncio

TITLE_ID = re.compile(r"#(\d+)$")


@dataclass(frozen=True)
class Match:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    ais: int = 1


#: Short matches, one person and AIs.
MATCHES = {
    "koikoi": Match("koikoi", {"rounds": 6}, ais=1),
    "mushi": Match("mushi", {"hands": 6}, ais=1),
    "panda": Match("panda", {"target": 200}, ais=3),
    "sandayi": Match("sandayi", {"hands": 1}, ais=3),
    "mahjong": Match("mahjong", {"max_hands": 1}, ais=3),
}


def _texts_of(version: dict[str, Any]) -> list[str]:
    """Every text a person reads in one version of a message: its content, embeds and
    components (labels, placeholders, options and their descriptions)."""
    out = [version.get("content") or ""]
    for embed in version.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out.append((embed.get("footer") or {}).get("text") or "")
        for item in embed.get("fields") or []:
            out += [item.get("name") or "", _options_value(item)]
    for comp in find_components(version.get("components") or []):
        out += [comp.get("label") or "", comp.get("placeholder") or ""]
        for option in comp.get("options") or []:
            out += [option.get("label") or "", option.get("description") or ""]
    return [text for text in out if text]


def _options_value(item: dict[str, Any]) -> str:
    """A lobby field's value; the Options field lists ``name: value`` with the names as the
    slash command spells them (ASCII in every language): only the values are read."""
    return re.sub(r"(^|, )\w+: ", r"\1", item.get("value") or "")


def sent_texts(fake: FakeDiscord, channels: list[int]) -> list[str]:
    """What the bot said in these channels (threads, DMs), every version of every message,
    private answers included."""
    out: list[str] = []
    for channel in channels:
        for message in fake.messages_in(channel):
            if message.author_id != fake.bot_user_id:
                continue
            for version in [*message.history, message.snapshot()]:
                out += _texts_of(version)
    return out


def _table_id(lobby: FakeMessage) -> int:
    match = TITLE_ID.search(lobby.embeds[0]["title"])
    assert match, lobby.embeds[0]["title"]
    return int(match.group(1))


def _record_renders(bot: Any) -> list[tuple[str, str, Any]]:
    """(what, locale, seat) of every picture the host draws from now on."""
    host = bot.host
    seen: list[tuple[str, str, Any]] = []
    render_view = host.outbox.render_view

    async def recording(table, what, view, priority, filename, locale="en-US"):  # type: ignore[no-untyped-def]
        seen.append((what, locale, view.get("seat")))
        return await render_view(table, what, view, priority, filename, locale)

    host.outbox.render_view = recording
    return seen


def _private_text(interaction: Any, fake: FakeDiscord) -> str:
    """The private answer to an interaction: its response, else its first follow-up."""
    original = interaction.original
    if original is not None and original.content:
        return original.content
    return next((f.content for f in interaction.followups if f.content), "")


async def open_table(
    fake: FakeDiscord,
    channel: int,
    host: int,
    game: str,
    options: dict[str, Any],
    *,
    locale: str,
    guests: tuple[tuple[int, str], ...] = (),
    ais: int = 0,
) -> tuple[int, FakeMessage]:
    """``/<game> new`` by ``host`` (their Discord in ``locale``), guests join, AIs added,
    started; returns (table id, lobby message). Buttons are clicked by their custom ids
    (their labels are in the table's language)."""
    inter = await fake.slash(host, channel, f"{game} new", options, locale=locale)
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    assert lobby.embeds, lobby.content
    table_id = _table_id(lobby)
    for guest, guest_locale in guests:
        click = await fake.click(guest, lobby, f"th:l:{table_id}:join", locale=guest_locale)
        await click.wait_response()
    for _ in range(ais):
        await (await fake.click(host, lobby, f"th:l:{table_id}:ai", locale=locale)).wait_response()
    await (await fake.click(host, lobby, f"th:l:{table_id}:start", locale=locale)).wait_response()
    return table_id, lobby


async def _private_answers(
    fake: FakeDiscord, table: Any, player: int, onlooker: int, locale: str
) -> list[str]:
    """A person's private answers at a running table, in ``locale``: a stranger's Show my
    hand (refused) and Spectate, the player's Show my hand, and a hint. Returns their
    texts."""
    thread = table.thread_id
    message = await fake.wait_until(
        lambda: next(
            (
                m
                for m in fake.messages_in(thread)
                if any(c["custom_id"] == f"th:h:{table.id}" for c in find_components(m))
            ),
            None,
        ),
        timeout=30,
    )
    answers = []
    for user, custom_id in (
        (onlooker, f"th:h:{table.id}"),
        (onlooker, f"th:v:{table.id}"),
        (player, f"th:h:{table.id}"),
    ):
        inter = await fake.click(user, message, custom_id, locale=locale)
        await inter.wait_response()
        text = await eventually(lambda i=inter: _private_text(i, fake), timeout=30)
        answers.append(text)
    found = latest_controls(fake, player)
    assert found is not None
    dm, _ = found
    hint = next((c for c in find_components(dm) if c["custom_id"].startswith("th:i:")), None)
    if hint is not None:  # one click: the hint, and the first time that it unrates the match
        inter = await fake.click(player, dm, hint["custom_id"], locale=locale)
        await inter.wait_response()
        shown = await eventually(lambda: _private_text(inter, fake), timeout=30)
        answers.append(shown)
    return answers


async def play(
    fake: FakeDiscord, running: RunningBot, table_id: int, people: dict[int, str]
) -> tuple[Any, int]:
    """Play the table to its end: each person (user id -> their Discord locale) clicks one
    of their legal moves when it is their turn. Returns (the table, clicks)."""
    return await play_to_end(fake, running, table_id, people, timeout=60)


@pytest.fixture
def japanese_server(fake_discord: FakeDiscord) -> int:
    """A server whose preferred locale is Japanese: its channel "対局"."""
    guild = fake_discord.add_guild("茶館", locale="ja")
    return fake_discord.add_text_channel(guild, "対局")


@pytest.mark.no_rate_limits  # a whole match clicked at machine speed (see conftest.py)
@pytest.mark.parametrize("game", list(MATCHES))
async def test_a_whole_match_in_japanese(
    fake_discord: FakeDiscord, tmp_path, japanese_server: int, game: str
) -> None:
    fake = fake_discord
    match = MATCHES[game]
    running = RunningBot(fake, settings_for(str(tmp_path / f"{game}.db")))
    await running.start()
    try:
        player = fake.add_user("Aiko")
        onlooker = fake.add_user("Hana")
        renders = _record_renders(running.bot)
        table_id, lobby = await open_table(
            fake, japanese_server, player, game, match.options, locale="ja", ais=match.ais
        )
        bot = running.bot
        table = await eventually(lambda: bot.host.tables.get(table_id))
        assert table.locale == "ja"  # the server's language: no option given
        await eventually(lambda: next_decision(fake, table, [player]), timeout=60)
        answers = await _private_answers(fake, table, player, onlooker, "ja")
        table, clicks = await play(fake, running, table_id, {player: "ja"})
        assert clicks > 0
        assert (await bot.store.get_table(table_id)).status == "finished"

        thread = table.thread_id
        # The results are recorded before they are announced: wait for the announcement.
        over = f"🏁 **{gettext('ja', table.spec.title)}** #{table_id} の対局が終わりました。"
        await eventually(
            lambda: any(m.content.startswith(over) for m in fake.messages_in(thread)), timeout=30
        )
        dm = fake.dms(player)[0].channel_id
        texts = sent_texts(fake, [japanese_server, thread, dm])
        assert english_in_messages(texts, "ja") == []
        assert english_in_messages(answers, "ja") == []
        # Japanese it is: the lobby, the table message, the thread posts, the DMs.
        title = gettext("ja", table.spec.title)
        assert lobby.embeds[0]["title"] == f"{title} — 卓 #{table_id}"
        assert [c["label"] for c in find_components(lobby)] == [
            "参加", "抜ける", "AIを追加", "開始", "中止",
        ]  # fmt: skip
        posts = [m.content for m in fake.messages_in(thread)]
        assert any(p.startswith(f"**{title}** · 卓 #{table_id}") for p in posts)
        assert any(
            p.startswith(f"🏁 **{title}** #{table_id} の対局が終わりました。") for p in posts
        )
        assert any(p.startswith("📜") for p in posts)
        assert all(
            m.content.startswith(f"**{title}** #{table_id}")
            for m in fake.dms(player)
            if not m.ephemeral  # the hint's answers came there too
        )
        assert answers[0] == "あなたはこの卓のプレイヤーではありません。"
        assert answers[1].startswith(f"👀 **{title}** · 卓 #{table_id}")
        assert answers[2].startswith(f"**{title}** #{table_id}")
        if len(answers) > 3:  # the hint, and (its first time) that hints unrate the match
            assert answers[3].startswith("💡")
            assert answers[3].endswith(localize("ja", UNRATED_NOTE))
        # Every picture in Japanese; the last table picture is the Japanese drawing.
        assert renders and {locale for _, locale, _ in renders} == {"ja"}
        assert {what for what, _, _ in renders} >= {"render_table", "render_hand"}
        final = render_png(game, "render_table", table.state.view(None), "ja")
        # (the table message's last edit may land after the end's announcement)
        await eventually(
            lambda: fake.message(table.table_message_id).attachments[0][1] == final, timeout=30
        )
        # The player's language is remembered.
        assert await eventually_async(lambda: bot.store.user_locales([player])) == {player: "ja"}
    finally:
        await running.stop()


async def eventually_async(query: Any, timeout: float = 20.0) -> Any:
    """Poll an async query until it gives something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await query()
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError("the query never answered")
        await asyncio.sleep(0.05)


@pytest.mark.no_rate_limits  # moves clicked at machine speed (see conftest.py)
async def test_an_english_player_at_a_japanese_table_reads_english_dms(
    fake_discord: FakeDiscord, tmp_path, japanese_server: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "mixed.db")))
    bot = await running.start()
    try:
        aiko, bob = fake.add_user("Aiko"), fake.add_user("Bob")
        renders = _record_renders(bot)
        table_id, lobby = await open_table(
            fake, japanese_server, aiko, "mushi", {"hands": 6}, locale="ja",
            guests=((bob, "en-US"),),
        )  # fmt: skip
        table = await eventually(lambda: bot.host.tables.get(table_id))
        people = {aiko: "ja", bob: "en-US"}
        # A few moves each.
        for _ in range(4):
            found = await eventually(lambda: next_decision(fake, table, list(people)), timeout=60)
            user, (message, comps) = found
            seat = table.seat_of(user).seat
            version = table.state.version
            inter = await click_legal_action(
                fake, user, message, comps, table.state.legal_actions(seat),
                decision_rng(table, seat), state=table.state, seat=seat, locale=people[user],
            )  # fmt: skip
            await inter.wait_response()
            await eventually(lambda v=version: table.state.version > v)
            await eventually(lambda: not table.lock.locked())
        await eventually(lambda: fake.dms(aiko) and fake.dms(bob))
        # Bob's DMs: English, with English controls; Aiko's: Japanese.
        assert all(m.content.startswith(f"**Mushi** #{table_id}") for m in fake.dms(bob))
        assert all(m.content.startswith(f"**むし** #{table_id}") for m in fake.dms(aiko))
        bob_texts = sent_texts(fake, [fake.dms(bob)[0].channel_id])
        assert not any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", t) for t in bob_texts), bob_texts
        assert english_in_messages(bob_texts, "ja")  # (the check does see English)
        hint = [
            c
            for m in fake.dms(bob)
            for c in find_components(m)
            if c["custom_id"].startswith("th:i:")
        ]
        assert all(c["label"] == "Hint (unrated)" for c in hint)
        # The table stays Japanese.
        table_message = await eventually(
            lambda: next(
                (m for m in fake.messages_in(table.thread_id) if m.id == table.table_message_id),
                None,
            )
        )
        assert table_message.content.startswith(f"**むし** · 卓 #{table_id}")
        assert [c["label"] for c in find_components(table_message)] == ["自分の手を見る", "観戦"]
        seat_of = {aiko: table.seat_of(aiko).seat, bob: table.seat_of(bob).seat}
        hands = {(locale, seat) for what, locale, seat in renders if what == "render_hand"}
        assert hands == {("ja", seat_of[aiko]), ("en-US", seat_of[bob])}
        assert {locale for what, locale, _ in renders if what == "render_table"} == {"ja"}
        # Aborted by Aiko: the answer is public (Japanese); each DM says it in its language.
        done = await fake.slash(
            aiko, japanese_server, "table abort", {"table": table_id}, locale="ja"
        )
        await done.wait_response()
        assert (
            done.callback.data["content"] == f"🛑 卓 #{table_id} はAikoさんによって中止されました。"
        )
        await eventually(lambda: fake.dms(bob)[-1].content.startswith(f"**Mushi** #{table_id}: 🛑"))
        assert fake.dms(bob)[-1].content == (
            f"**Mushi** #{table_id}: 🛑 Table #{table_id} was aborted by Aiko."
        )
        assert fake.dms(aiko)[-1].content == (
            f"**むし** #{table_id}：🛑 卓 #{table_id} はAikoさんによって中止されました。"
        )
        assert await eventually_async(lambda: bot.store.user_locales([aiko, bob])) == {
            aiko: "ja",
            bob: "en-US",
        }
    finally:
        await running.stop()


async def test_the_language_option_overrides_the_server_and_a_restart_keeps_it(
    fake_discord: FakeDiscord,
    tmp_path,
    games_channel: int,
    japanese_server: int,
    alice: int,
    bob: int,
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "lang.db")))
    bot = await running.start()
    try:
        # An English server, a Japanese table: the host's Discord is English.
        inter = await fake.slash(alice, games_channel, "koikoi new", {"language": "ja"})
        await inter.wait_response()
        lobby = fake.message(inter.original_id)
        table_id = _table_id(lobby)
        assert lobby.embeds[0]["title"] == f"こいこい — 卓 #{table_id}"
        assert lobby.embeds[0]["footer"]["text"].startswith("「参加」で席に着きます。")
        assert (await bot.store.get_table(table_id)).locale == "ja"
        # A refusal is private: in the language of whoever clicked (Korean here).
        refused = await fake.click(bob, lobby, f"th:l:{table_id}:start", locale="ko")
        await refused.wait_response()
        assert refused.callback.data["content"] == "방장만 게임을 시작할 수 있습니다."
        # A Japanese server, an English table; and a Japanese server's default.
        inter = await fake.slash(
            bob, japanese_server, "mushi new", {"language": "en-US"}, locale="ja"
        )
        await inter.wait_response()
        english = fake.message(inter.original_id)
        assert english.embeds[0]["title"] == f"Mushi — table #{_table_id(english)}"
        assert english.embeds[0]["footer"]["text"] == (
            "Join to take a seat. The host may add AI players and start when all seats are filled."
        )
        inter = await fake.slash(alice, japanese_server, "panda new", {}, locale="zh-TW")
        await inter.wait_response()
        default = fake.message(inter.original_id)
        assert default.embeds[0]["title"] == f"Panda（パンダ） — 卓 #{_table_id(default)}"
        # A name picked by its own name works too (choices are named in their language).
        inter = await fake.slash(bob, games_channel, "sandayi new", {"language": "한국어"})
        await inter.wait_response()
        korean = fake.message(inter.original_id)
        assert korean.embeds[0]["title"] == f"산다이 (三打一) — 테이블 #{_table_id(korean)}"

        # The Japanese table starts (with an AI), the process restarts: still Japanese.
        for action in ("ai", "start"):
            click = await fake.click(alice, lobby, f"th:l:{table_id}:{action}")
            await click.wait_response()
        await eventually(lambda: table_id in bot.host.tables)
        bot = await running.restart()
        table = await eventually(lambda: bot.host.tables.get(table_id), timeout=30)
        assert table.locale == "ja"
        notice = await fake.wait_until(
            lambda: next(
                (m for m in fake.messages_in(table.thread_id) if m.content.startswith("♻️")), None
            ),
            timeout=30,
        )
        assert (
            notice.content == "♻️ Teahouseが再起動しました — この対局は中断したところから続きます。"
        )
    finally:
        await running.stop()
