"""The commands' answers and pictures speak the reader's language: the leaderboard, stats and
replay pictures draw no English the catalogs translate and only characters the bundled font
has; the texts of /leaderboard, /stats, /history, /replay, /table and the error handler in
Japanese hold no such English either; the replay's words follow the locale asked for."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import i18n
from bot.games import GAME_NAMES
from bot.i18n import Text
from bot.render.charts import (
    drawable,
    has_glyph,
    render_leaderboard,
    render_stats,
)
from bot.replay.core import Replayer
from bot.replay.render import (
    caption,
    hands_panel,
    render_step,
    step_heading,
)
from bot.store.history import MatchSummary, RatingPoint, SeatResult
from bot.store.rows import LeaderRow, StatsRow
from tests.i18n.drawn import drawn_text, english_in_messages, english_leaks
from tests.replay.helpers import play, record_of

LOCALES = i18n.TRANSLATED


def _not_in_font(drawn: list[str]) -> list[str]:
    """Drawn characters the bundled font lacks. ``drawable`` probes single characters
    (and the font's empty box) through the same FreeType call: those probes are left out."""
    texts = [s for s in drawn if len(s) > 1 or has_glyph(s)]
    return sorted({ch for s in texts for ch in s if not (has_glyph(ch) and has_glyph(ch, True))})


# ----- the pictures -----------------------------------------------------------------------


def _leader_rows() -> list[LeaderRow]:
    names = ["Ann 🌸", "さくら", "Bartholomew Longname-Smythe", "Dee"]
    return [
        LeaderRow(i + 1, name, 25.0, 8.0 / 3, 24.5 - 3 * i, 40 - 5 * i, 20 - 4 * i)
        for i, name in enumerate(names)
    ]


def _history() -> dict[int, list[RatingPoint]]:
    return {
        uid: [RatingPoint(1, 1.7e9 + k * 3600, 25.0 + k - uid, 8.0 - k / 2) for k in range(6)]
        for uid in range(1, 5)
    }


def _stats_rows() -> list[StatsRow]:
    return [
        StatsRow("koikoi", 5, 3, 12, 1.4, 27.0, 3.0, 18.0, 2),
        StatsRow("panda", 1, 0, 1150, 2.0, 25.0, 8.0, -1.0, 7),
        StatsRow("mahjong", 0, 0, 0, 0.0),
    ]


def _curves() -> dict[str, list[RatingPoint]]:
    return {
        "koikoi": [RatingPoint(k, 1.7e9 + 86400 * k, 20.0 + k, 5.0) for k in range(5)],
        "panda": [RatingPoint(9, 1.71e9, 25.0, 8.67)],
    }


def _board(locale: str):  # type: ignore[no-untyped-def]
    from cogs.leaderboard import board_picture

    return board_picture("panda", _leader_rows(), _history(), "Teahouse Test", locale)


def _stats(locale: str):  # type: ignore[no-untyped-def]
    from cogs.leaderboard import stats_picture

    return stats_picture("さくら", "Teahouse Test", _stats_rows(), _curves(), locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_leaderboard_picture_draws_only_the_locale(locale: str) -> None:
    with drawn_text() as drawn:
        render_leaderboard(_board(locale))
    assert english_leaks(drawn, locale) == []
    assert _not_in_font(drawn) == []
    # Its words are the catalog's: the column headings, the title, the rating's note.
    words = [i18n.gettext(locale, w) for w in ("Player", "Rating", "Games", "Wins")]
    for word in words:
        assert word in drawn
    assert any(i18n.gettext(locale, "Panda") in s for s in drawn)


def test_the_empty_leaderboard_and_stats_draw_the_locale_too() -> None:
    from bot.render.charts import Leaderboard, PlayerStats

    with drawn_text() as drawn:
        render_leaderboard(Leaderboard(title="麻雀", lines=[], locale="ja"))
        render_stats(PlayerStats(name="さくら", locale="ja"))
    assert "レートのあるプレイヤーはまだいません" in drawn
    assert "このサーバーで終わった対局はまだありません" in drawn
    assert english_leaks(drawn, "ja") == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_stats_picture_draws_only_the_locale(locale: str) -> None:
    with drawn_text() as drawn:
        render_stats(_stats(locale))
    assert english_leaks(drawn, locale) == []
    assert _not_in_font(drawn) == []
    assert any(i18n.gettext(locale, "not rated yet") in s for s in drawn)


def test_stats_dates_and_numbers_follow_the_locale() -> None:
    with drawn_text() as en:
        render_stats(_stats("en-US"))
    with drawn_text() as ja:
        render_stats(_stats("ja"))
    assert "2023-11-14" in en and "2023/11/14" in ja
    # Thousands are grouped, a mean keeps two decimals, in both.
    assert any("best score 1,150" in s for s in en)
    assert any("最高得点 1,150" in s and "平均順位 2.00" in s for s in ja)


# ----- replay pictures -------------------------------------------------------------------------


@pytest.fixture(scope="module", params=GAME_NAMES)
def replayer(request) -> Replayer:
    return Replayer(record_of(play(request.param, f"i18n-{request.param}")))


def _game_strings(rp: Replayer, step: int, locale: str) -> set[str]:
    """What the game's own renderers draw for ``step``: its table, its deal summary, its
    cards (their labels are the games' to translate and to keep within the font) — left
    out of the replay's own words below."""
    renderers = rp.spec.renderers()
    state = rp.state_at(step)
    names = [drawable(n, bold=True) for n in state.players]
    view = state.view(None)
    view["players"] = names
    with drawn_text() as drawn:
        renderers.render_table(view, locale=locale)
        summary = renderers.render_deal_summary
        if summary is not None and step > 0 and rp.steps[step - 1].deal_end:
            summary(view, locale=locale)
        for seat in range(state.num_seats):
            for code in rp.spec.hand_of(state.view(seat)):
                renderers.card_face(code)
    return set(drawn)


#: The replay's own sentences in a caption (the others are the games' events and moves).
OWN_LINES = {"The first deal, before anyone has acted.", "The match is over."}


def _game_lines(rp: Replayer, step: int, locale: str) -> list[str]:
    """The caption's lines that are the game's own sentences (its events, its moves)."""
    lines = rp.lines(step)
    game_said = [line for line in lines if not (isinstance(line, Text) and line.msgid in OWN_LINES)]
    return [drawable(str(i18n.localize(locale, line)), fallback="") for line in game_said]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_replay_step_draws_its_own_words_in_the_locale(replayer: Replayer, locale: str) -> None:
    """The heading, the hands panel and the replay's own caption lines are the locale's
    (the table and the events are each game's words, localised by the game)."""
    step = next(i + 1 for i, s in enumerate(replayer.steps) if s.deal_end)
    game = _game_strings(replayer, step, locale)
    sentences = _game_lines(replayer, step, locale)
    with drawn_text() as drawn:
        render_step(replayer, step, reveal=True, locale=locale)
    own = [
        s
        for s in drawn
        if s not in game and not any(s.strip() and s.strip() in line for line in sentences)
    ]
    assert english_leaks(own, locale) == []
    assert _not_in_font(own) == []
    assert step_heading(replayer, step, locale) in drawn
    assert i18n.gettext(locale, "Hands, face up") in drawn


def test_the_replay_caption_of_the_first_and_last_step_is_the_locale(replayer: Replayer) -> None:
    assert replayer.describe(0, "ja") == "最初の局の開始時点です（まだ誰も動いていません）。"
    assert replayer.describe(0) == "The first deal, before anyone has acted."
    heading = step_heading(replayer, 3, "zh-TW")
    assert heading.startswith(i18n.gettext("zh-TW", i18n.gettext("en-US", _title(replayer))))
    assert "第 3 / " in heading and "步" in heading


def _title(rp: Replayer) -> str:
    return rp.spec.title


def test_a_moves_line_is_said_in_the_locale() -> None:
    """Who made a move and the game's Text for it are said in the asked locale (a game
    that gives a Text for its moves gets them translated here)."""
    rp = Replayer(record_of(play("mahjong", "i18n-said")))
    index = next(i for i, s in enumerate(rp.steps) if not s.move_said)
    step = rp.steps[index]
    rp.steps[index] = type(step)(
        index=step.index,
        seat=step.seat,
        code=step.code,
        label=Text("Hands, face up"),
        events=(),
        hand=step.hand,
    )
    who = rp.record.names[step.seat]
    assert rp.describe(index + 1) == f"{who}: Hands, face up"
    assert rp.describe(index + 1, "ja") == f"{who}：全員の手（表向き）"
    assert rp.describe(index + 1, "ko") == f"{who}: 모든 손패 (공개)"


def test_captions_wrap_between_cjk_characters_and_keep_closing_punctuation() -> None:
    from bot.render.fonts import font
    from bot.replay.render import CAPTION_SIZE, _wrap

    text = "さくらが" + "松のカス" * 40 + "を出して、鶴を取った。"
    lines = _wrap(text, 400, CAPTION_SIZE)
    assert len(lines) > 3 and "".join(lines) == text
    fnt = font(CAPTION_SIZE)
    for line in lines:
        assert fnt.getlength(line.rstrip("。、")) <= 400, line
        assert line[0] not in "、。）」"
    # English still breaks at spaces only.
    english = "Ann plays Cherry plain (3p2) and takes Curtain (3b) " * 4
    for line in _wrap(english.strip(), 300, CAPTION_SIZE):
        assert not line.startswith(" ") and fnt.getlength(line) <= 300
        assert all(word in english.split() for word in line.split())
    band = caption("麻雀 #7", text, 900)
    assert band.height > caption("麻雀 #7", "短い", 900).height


def test_the_hands_panel_counts_cards_in_the_locale() -> None:
    views = [{"seat": 0, "players": ["Ann"], "hand": ["1b", "3b"]}]
    with drawn_text() as drawn:
        hands_panel("koikoi", views, 900, "zh-CN")
        hands_panel("koikoi", [{"seat": 0, "players": ["Ann"], "hand": []}], 900, "ko")
    assert "2 张" in drawn and "所有手牌（明牌）" in drawn
    assert "0장" in drawn and "손에 패가 없음" in drawn


def test_the_cli_draws_in_the_locale_it_is_given(tmp_path) -> None:
    from bot.replay.__main__ import main
    from bot.replay.core import to_json

    state = play("koikoi", "cli-locale")
    path = tmp_path / "match.json"
    path.write_text(to_json(record_of(state)), encoding="utf-8")
    with drawn_text() as drawn:
        assert (
            main([str(path), "--out", str(tmp_path / "ja"), "--hand", "1", "--locale", "ja"]) == 0
        )
    assert "全員の手（表向き）" in drawn
    assert any("手目" in s for s in drawn)
    with pytest.raises(SystemExit):
        main([str(path), "--locale", "xx"])


# ----- the commands' texts ------------------------------------------------------------------


def _leaks(texts: list[str], locale: str = "ja") -> list[str]:
    return english_in_messages([t for text in texts for t in text.split("\n")], locale)


def _match(hints: bool = False) -> MatchSummary:
    return MatchSummary(
        table_id=7,
        game="koikoi",
        guild_id=1,
        started_at=1.7e9,
        finished_at=1.7e9 + 25 * 60,
        actions=81,
        seats=(SeatResult(0, "Ann", 11, 12, 1), SeatResult(1, "AI", None, 1050, 2)),
        hints=hints,
    )


def test_the_history_page_in_japanese() -> None:
    from cogs.history import history_embed, history_view

    embed = history_embed([_match(True), _match()], 0, 3, "Ann", "koikoi", "ja")
    texts = [embed.title or "", embed.footer.text or ""]
    texts += [f.name + "\n" + f.value for f in embed.fields]
    assert embed.title == "📜 Annの終わった対局：こいこい"
    assert "81手 · 25分 · 💡 ヒント使用（レート対象外）" in embed.fields[0].value
    assert "**1,050**" in embed.fields[0].value
    assert embed.footer.text == "1/3ページ · ▶ #n でリプレイを開く"
    view = history_view([_match()], 0, 3, 11, "koikoi", 11, "ja")
    labels = [c.item.label for c in view.children if getattr(c.item, "label", None)]
    assert "新しい方" in labels and "古い方" in labels
    texts += labels
    empty = history_embed([], 0, 1, None, None, "ja")
    texts += [empty.title or "", empty.description or ""]
    assert _leaks(texts) == []
    # English stays as it was.
    english = history_embed([_match()], 0, 1, None, None)
    assert english.title == "📜 Finished matches"
    assert english.fields[0].value.split("\n")[0].endswith("· 81 moves · 25 min")


def test_the_leaderboard_and_stats_texts_in_japanese() -> None:
    from cogs.leaderboard import standings_lines, stats_text

    lines = standings_lines(_leader_rows(), "ja")
    assert lines[0] == "`#  レート  対局数  勝利数` プレイヤー"
    assert lines[1] == "`1    24.5      40      20` <@1>"
    stats = [stats_text(r, "ja") for r in _stats_rows()]
    assert stats[0].split("\n")[2] == "レート 18.0（2位）"
    assert "最高得点 1,150" in stats[1]
    assert _leaks(lines + stats) == []
    # The English text is the same as before localisation.
    assert standings_lines(_leader_rows(), "en-US")[:2] == [
        "`#  rating  games  wins` player",
        "`1    24.5     40    20` <@1>",
    ]


def _replay_parts(locale: str) -> tuple[Replayer, list[str]]:
    from cogs.replay import replay_view, step_text

    rp = Replayer(record_of(play("koikoi", "i18n-cog")))

    class Row:
        status = "finished"

    texts = []
    for step in (0, 1, rp.last):
        text = step_text(rp, Row(), step, locale)
        # The "> " lines are the game's own sentences (its events), the game's to translate.
        texts += [line for line in text.split("\n") if not line.startswith("> ")]
    view = replay_view(rp, 7, 1, 11, locale)
    for item in (c.item for c in view.children):
        if getattr(item, "label", None):
            texts.append(item.label)
        if getattr(item, "placeholder", None):
            texts.append(item.placeholder)
        for option in getattr(item, "options", []):
            texts += [option.label, option.description or ""]
    return rp, texts


def test_the_replay_message_and_controls_in_japanese() -> None:
    rp, texts = _replay_parts("ja")
    assert texts[0].startswith("**こいこい** #7 — リプレイ · 0/")
    assert texts[0].endswith("手目 · 第1回戦")
    assert any(t.startswith("🏁 最終得点：") for t in texts)
    assert "ダウンロード" in texts and "回戦を選んで移動…" in texts
    assert "第2回戦" in texts
    assert _leaks(texts) == []
    rp_en, english = _replay_parts("en-US")
    assert english[0].startswith("**Koi-Koi** #7 — replay · step 0/")
    assert "Download" in english and "Round 2" in english


def test_refusals_and_errors_in_japanese() -> None:
    from cogs.replay import Refusal, _no_such_table

    refusals = [
        _no_such_table(7),
        Refusal(
            Text(
                "Table #{table} has no hand {hand} (it has {numbers}).",
                table=7,
                hand=9,
                numbers=("1", "2", "3"),
            )
        ),
    ]
    said = [r.say("ja") for r in refusals]
    assert said[0] == "このサーバーに卓 #7 はありません。"
    assert said[1] == "卓 #7 に第9局はありません（あるのは 1、2、3）。"
    assert refusals[1].say("en-US") == "Table #7 has no hand 9 (it has 1, 2, 3)."
    errors = [
        "This command works in a server channel, not in DMs.",
        "You can't use this command here.",
        "These controls are not valid any more.",
        "Which table? Use this in a table's thread or give its number.",
        "Sorry, something went wrong showing that replay.",
        "This command works in a server channel.",
    ]
    for msgid in errors:
        for locale in LOCALES:
            assert i18n.has_translation(locale, msgid), (locale, msgid)
    texts = said + [i18n.gettext("ja", m) for m in errors]
    assert _leaks(texts) == []


def test_the_error_handler_answers_in_the_users_language() -> None:
    import asyncio

    from discord import app_commands

    from bot.app import Teahouse

    answers: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, **kwargs: Any) -> None:
            answers.append(text)

    class Interaction:
        locale = "ko"
        response = Response()

    handler = Teahouse.on_app_command_error
    asyncio.run(handler(None, Interaction(), app_commands.NoPrivateMessage()))  # type: ignore[arg-type]
    Interaction.locale = "zh-TW"
    asyncio.run(handler(None, Interaction(), app_commands.CheckFailure()))  # type: ignore[arg-type]
    assert answers == [
        "이 명령어는 DM이 아닌 서버 채널에서 사용할 수 있습니다.",
        "你不能在這裡使用這個指令。",
    ]


def test_the_catalog_says_the_glossarys_words() -> None:
    """The replay and the charts use the glossary's words for match, hand and round."""
    assert "対局" in i18n.gettext("ja", "Finished matches")
    assert "對局" in i18n.gettext("zh-TW", "Finished matches")
    assert "대국" in i18n.gettext("ko", "Finished matches")
    assert i18n.gettext("ja", "Round {n}", n=2) == "第2回戦"
    assert i18n.gettext("ja", "Hand {n}", n=2) == "第2局"
    assert i18n.gettext("zh-CN", "Hand {n}", n=2) == "第 2 局"
    assert re.fullmatch(r"2판", i18n.gettext("ko", "Hand {n}", n=2))
