"""The ``/rules`` summaries in ja, zh-CN, zh-TW and ko: one per game and locale, the English
one's numbers, commands and deck names kept, the glossary's words used, the English for any
other locale; ``/rules`` answers in the interaction's language over the fake Discord."""

from __future__ import annotations

import re
import unicodedata
from importlib import resources

import pytest

from bot import i18n
from bot.games import GAME_NAMES, rules_summary
from bot.render.charts import has_glyph
from tests.e2e.conftest import alice, fake_discord, games_channel  # noqa: F401  (fixtures)
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import RunningBot, settings_for

LOCALES = i18n.TRANSLATED
CASES = [(g, loc) for g in GAME_NAMES for loc in LOCALES]


def _english(game: str) -> str:
    return rules_summary(game)


def _integers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def _ascii_terms(text: str) -> set[str]:
    """Inline code spans and slash commands (``/koikoi new``): they stay as they are."""
    return set(re.findall(r"`[^`]+`", text)) | set(re.findall(r"(?<!\w)/[a-z]+(?: [a-z]+)?", text))


def test_every_game_has_a_summary_file_in_every_locale() -> None:
    for game in GAME_NAMES:
        folder = resources.files(f"bot.games.{game}")
        for loc in LOCALES:
            assert folder.joinpath(f"summary.{loc}.md").is_file(), (game, loc)


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_translated_summary_keeps_the_english_shape(game: str, locale: str) -> None:
    english, text = _english(game), rules_summary(game, locale)
    assert text != english and text.strip()
    assert len(text) < 4000 - 200  # the embed's description, with the line under it
    # Every number of the English is in the translation, and every command or code span.
    missing = sorted(_integers(english) - _integers(text), key=int)
    assert missing == [], f"{game}/{locale} lost the numbers {missing}"
    assert _ascii_terms(english) <= _ascii_terms(text)
    # The same paragraphs, headed by the same number of bold terms and bullets.
    assert text.count("\n\n") == english.count("\n\n")
    assert text.count("•") == english.count("•")
    assert text.count("**") == english.count("**")
    # Digits stay ASCII (no fullwidth ０-９), so numbers read the same in every language.
    assert not re.search(r"[０-９]", text)


@pytest.mark.parametrize("locale", LOCALES)
def test_panda_keeps_the_decks_names(locale: str) -> None:
    text = rules_summary("panda", locale)
    for name in ("Stork", "Kingdom", "Cat", "Catfish", "Panda", "Mon", "Ambush"):
        assert name in text, (locale, name)


#: A few of docs/localisation.md's glossary words each summary must use.
GLOSSARY = {
    ("koikoi", "ja"): ["光", "種", "短冊", "カス", "こいこい", "猪鹿蝶", "親", "手四"],
    ("koikoi", "zh-CN"): ["光札", "种札", "短册", "滓札", "来来（こいこい）", "亲家"],
    ("koikoi", "zh-TW"): ["光札", "種札", "短冊", "滓札", "來來（こいこい）", "親家"],
    ("koikoi", "ko"): ["광", "열끗", "띠", "피", "고 (코이코이)", "스톱", "선"],
    ("mushi", "ja"): ["鬼札", "雨札", "親", "手四"],
    ("mushi", "zh-CN"): ["百搭牌", "雨札", "亲家"],
    ("mushi", "zh-TW"): ["百搭牌", "雨札", "親家"],
    ("mushi", "ko"): ["광", "열끗", "띠", "피", "와일드", "비 패", "총통"],
    ("sandayi", "ja"): ["叫分", "底牌", "主牌", "抠底", "荘家", "閑家"],
    ("sandayi", "zh-CN"): ["叫分", "底牌", "主牌", "抠底", "庄家", "闲家"],
    ("sandayi", "zh-TW"): ["叫分", "底牌", "主牌", "摳底", "莊家", "閒家"],
    ("sandayi", "ko"): ["입찰", "바닥패", "으뜸패", "抠底"],
    ("mahjong", "ja"): ["索子", "萬子", "筒子", "風牌", "三元牌", "ポン", "カン", "チー", "和了"],
    ("mahjong", "zh-CN"): ["条", "万", "筒", "风牌", "箭牌", "碰", "杠", "吃", "和牌", "牌墙"],
    ("mahjong", "zh-TW"): ["索", "萬", "筒", "風牌", "箭牌", "碰", "槓", "吃", "和牌", "牌牆"],
    ("mahjong", "ko"): ["삭수", "만수", "통수", "풍패", "삼원패", "펑", "깡", "치", "화료", "패산"],
    ("panda", "ja"): ["トリック", "リード", "ウィッシュ"],
    ("panda", "zh-CN"): ["墩", "首出", "许愿"],
    ("panda", "zh-TW"): ["墩", "首出", "許願"],
    ("panda", "ko"): ["트릭", "먼저 내", "소원"],
}


@pytest.mark.parametrize(("game", "locale"), sorted(GLOSSARY))
def test_summaries_use_the_glossarys_words(game: str, locale: str) -> None:
    text = rules_summary(game, locale)
    assert [w for w in GLOSSARY[game, locale] if w not in text] == []


@pytest.mark.parametrize("locale", [None, "en-US", "en-GB", "fr", "pt-BR"])
def test_any_other_locale_reads_english(locale) -> None:
    for game in GAME_NAMES:
        assert rules_summary(game, locale) == _english(game)


def test_discord_locale_objects_pick_the_translation() -> None:
    import discord

    assert rules_summary("koikoi", discord.Locale.japanese) == rules_summary("koikoi", "ja")
    assert rules_summary("sandayi", discord.Locale.taiwan_chinese) == rules_summary(
        "sandayi", "zh-TW"
    )
    with pytest.raises(KeyError):
        rules_summary("chess", "ja")


def _is_letter(ch: str) -> bool:
    """A CJK ideograph or a hangul syllable (the words themselves, not signs)."""
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK UNIFIED IDEOGRAPH", "HANGUL SYLLABLE"))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_fonts_coverage_of_the_summaries(locale: str) -> None:
    """The summaries are sent as text (Discord draws them with the reader's fonts), so the
    bundled font need not hold their words; it does hold every sign, digit, Latin letter
    and kana they use — and only hanzi/kanji and hangul syllables may be missing
    (docs/localisation.md; scripts/subset_font.py would add them if summaries are drawn)."""
    chars = set().union(*(rules_summary(g, locale) for g in GAME_NAMES))
    for bold in (False, True):
        missing = sorted(ch for ch in chars if not has_glyph(ch, bold))
        assert [ch for ch in missing if not _is_letter(ch)] == [], (locale, bold)


# ``/rules`` over the fake Discord, in the interaction's language.


@pytest.mark.asyncio
async def test_rules_answers_in_the_interactions_language(
    fake_discord: FakeDiscord,  # noqa: F811
    tmp_path,
    games_channel: int,  # noqa: F811
    alice: int,  # noqa: F811
) -> None:
    fake, channel, user = fake_discord, games_channel, alice
    running = RunningBot(fake, settings_for(str(tmp_path / "rules.db")))
    await running.start()
    try:
        answers = {}
        for locale in ("ja", "zh-TW", "ko", "en-GB"):
            inter = await fake.slash(user, channel, "rules", {"game": "koikoi"}, locale=locale)
            await inter.wait_response()
            assert inter.callback.ephemeral
            answers[locale] = inter.callback
    finally:
        await running.stop()
    ja = answers["ja"].data["embeds"][0]
    assert ja["title"] == "こいこいのルール"
    assert ja["description"].startswith(rules_summary("koikoi", "ja"))
    assert "猪鹿蝶" in ja["description"] and "Ino-Shika-Chō" not in ja["description"]
    # The attached complete rules are the Japanese docs/rules/koikoi.ja.md, and the answer
    # names that file (tests/i18n/test_rules_docs.py: the English where one is missing).
    assert "付属のファイル `teahouse-koikoi-rules.ja.md`" in ja["description"]
    assert "（英語）" not in ja["description"]
    assert ja["footer"]["text"] == "/koikoi new で卓を立てる"
    files = dict(answers["ja"].files)
    assert "Teahouseの裁定" in files["teahouse-koikoi-rules.ja.md"].decode("utf-8")
    tw = answers["zh-TW"].data["embeds"][0]
    assert tw["description"].startswith(rules_summary("koikoi", "zh-TW"))
    ko = answers["ko"].data["embeds"][0]
    assert ko["title"] == "코이코이 규칙"
    # A locale without a translation reads the English answer, as before.
    en = answers["en-GB"].data["embeds"][0]
    assert en["title"] == "Koi-Koi — rules"
    assert en["description"].startswith(rules_summary("koikoi"))
    assert en["footer"]["text"] == "Start a table with /koikoi new"
