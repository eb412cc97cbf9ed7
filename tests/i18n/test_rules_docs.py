"""The complete rules (``docs/rules/<game>.md``) in ja, zh-CN, zh-TW and ko: one file per
game and locale (``docs/rules/<game>.<locale>.md``), each a complete translation of the
English one — the same headings at the same levels, every number and every code span of
the English, as many table rows, list items and rulings — that says it translates the
English, and uses docs/localisation.md's glossary where the English uses its terms.
``/rules`` attaches the translation for the user's locale (English when there is none)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot import i18n
from bot.games import GAME_NAMES
from cogs.rules import full_rules_path
from tests.e2e.conftest import alice, fake_discord, games_channel  # noqa: F401  (fixtures)
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import RunningBot, settings_for

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
LOCALES = i18n.TRANSLATED
CASES = [(g, loc) for g in GAME_NAMES for loc in LOCALES]


def _english(game: str) -> str:
    return (DOCS / f"{game}.md").read_text(encoding="utf-8")


def _translation(game: str, locale: str) -> str:
    path = DOCS / f"{game}.{locale}.md"
    assert path.is_file(), f"docs/rules/{game}.{locale}.md is missing"
    return path.read_text(encoding="utf-8")


def _headings(text: str) -> list[int]:
    """The level of every Markdown heading, in order."""
    return [len(m.group(1)) for m in re.finditer(r"^(#{1,6}) \S", text, re.MULTILINE)]


def _body(text: str) -> str:
    """The text after the translation's first two paragraphs (its title and the line
    saying it is a translation), which the English has no counterpart of."""
    title, _, rest = text.partition("\n\n")
    _notice, _, body = rest.partition("\n\n")
    return body


def _integers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def _codes(text: str) -> set[str]:
    return set(re.findall(r"`[^`\n]+`", text))


def _table_rows(text: str) -> int:
    return len(re.findall(r"^\s*\|", text, re.MULTILINE))


def _list_items(text: str) -> int:
    return len(re.findall(r"^\s*(?:-|\d+\.) ", text, re.MULTILINE))


def _rulings(text: str) -> int:
    """Bold spans naming Teahouse: **Teahouse's ruling** and its translations."""
    return sum("Teahouse" in span for span in re.findall(r"\*\*(.+?)\*\*", text, re.DOTALL))


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_game_has_its_complete_rules_in_every_locale(game: str, locale: str) -> None:
    assert (DOCS / f"{game}.{locale}.md").is_file(), f"docs/rules/{game}.{locale}.md"


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_translation_opens_with_its_title_and_names_the_english_it_translates(
    game: str, locale: str
) -> None:
    text = _translation(game, locale)
    lines = [line for line in text.splitlines() if line.strip()]
    title, notice = lines[0], lines[1]
    assert title.startswith("# ") and title != _english(game).splitlines()[0]
    assert f"`docs/rules/{game}.md`" in notice
    assert "Teahouse's ruling" not in text  # the ruling mark is translated


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_translation_has_the_english_heading_structure(game: str, locale: str) -> None:
    english, text = _headings(_english(game)), _headings(_translation(game, locale))
    assert Counter(text) == Counter(english)
    assert text == english  # the same levels in the same order


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_translation_keeps_every_number_and_code_of_the_english(game: str, locale: str) -> None:
    english, text = _english(game), _body(_translation(game, locale))
    missing = sorted(_integers(english) - _integers(text), key=int)
    assert missing == [], f"{game}.{locale} lost the numbers {missing}"
    assert sorted(_codes(english) - _codes(text)) == []
    # Digits stay ASCII, so numbers, scores and card codes read the same in every language.
    assert not re.search(r"[０-９]", text)


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_translation_is_complete(game: str, locale: str) -> None:
    """As many table rows, list items and rulings as the English: nothing left out."""
    english, text = _english(game), _body(_translation(game, locale))
    assert _table_rows(text) == _table_rows(english)
    assert _list_items(text) == _list_items(english)
    assert _rulings(text) == _rulings(english)


# The glossary (docs/localisation.md): where the English uses a term (a regular expression
# over the English), the translation uses the glossary's word for it (None: not checked).
# Each tuple is (English, ja, zh-CN, zh-TW, ko).

COMMON = [
    (r"\btables?\b", "卓", "桌", "桌", "테이블"),
    (r"\bmatch(es)?\b", "対局", "对局", "對局", "대국"),
    (r"\bplayers?\b", "プレイヤー", "玩家", "玩家", "플레이어"),
    (r"\bdefault\b", "既定", "默认", "預設", "기본"),
    (r"\b[Hh]int\b", "ヒント", "提示", "提示", "힌트"),
    (r"\bserver\b", "サーバー", "服务器", "伺服器", "서버"),
]

HANAFUDA = [
    (r"\bbrights?\b", "光", "光札", "光札", "광"),
    (r"\banimals?\b", "種", "种札", "種札", "열끗"),
    (r"\bribbons?\b", "短冊", "短册", "短冊", "띠"),
    (r"\b(plains?|junk)\b", "カス", "滓札", "滓札", "피"),
    (r"\bmonths?\b", "月", "月", "月", "월"),
]

GLOSSARY: dict[str, list[tuple[str, str | None, str | None, str | None, str | None]]] = {
    "koikoi": [
        *HANAFUDA,
        (r"\byaku\b", "役", "役", "役", "약"),
        (r"\bkoi-koi\b", "こいこい", "来来（こいこい）", "來來（こいこい）", "고 (코이코이)"),
        (r"\bStop\b", "勝負", "结束（胜负）", "結束（勝負）", "스톱"),
        (r"\bDealer\b", "親", "亲家", "親家", "선"),
        (r"\bteshi\b", "手四", "手四", "手四", "총통"),
        (r"Ino-Shika-Chō", "猪鹿蝶", "猪鹿蝶", "豬鹿蝶", "이노시카초"),
        (r"\bstack\b", "山札", "牌堆", "牌堆", "더미"),
        (r"\bboard\b", "場", "场", "場", "바닥"),
        (r"\brounds?\b", "回戦", "局", "局", "판"),
    ],
    "mushi": [
        *HANAFUDA,
        (r"\bwild\b", "鬼札", "百搭牌", "百搭牌", "와일드"),
        (r"\brain cards?\b", "雨札", "雨札", "雨札", "비 패"),
        (r"\belder\b", "親", "亲家", "親家", "선"),
        (r"\bstock\b", "山札", "牌堆", "牌堆", "더미"),
        (r"four cards of one month", "手四", "手四", "手四", "총통"),
    ],
    "sandayi": [
        (r"\bbid", "叫分", "叫分", "叫分", "입찰"),
        (r"\bkitty\b", "底牌", "底牌", "底牌", "바닥패"),
        (r"\btrumps?\b", "主牌", "主牌", "主牌", "으뜸패"),
        (r"抠底", "抠底", "抠底", "摳底", "抠底"),
        (r"\bdeclarer\b", "荘家", "庄家", "莊家", "주인"),
        (r"\bdefenders\b", "閑家", "闲家", "閒家", None),
    ],
    "mahjong": [
        (r"\bBamboo\b", "索子", "条", "索", "삭수"),
        (r"\bCharacters\b", "萬子", "万", "萬", "만수"),
        (r"\bDots\b", "筒子", "筒", "筒", "통수"),
        (r"\bwinds\b", "風牌", "风牌", "風牌", "풍패"),
        (r"\bdragons\b", "三元牌", "箭牌", "箭牌", "삼원패"),
        (r"\bflowers\b", "花牌", "花牌", "花牌", "화패"),
        (r"\bseasons\b", "季節牌", "季节牌", "季節牌", "계절패"),
        (r"\bpungs?\b", "ポン", "碰", "碰", "펑"),
        (r"\bkongs?\b", "カン", "杠", "槓", "깡"),
        (r"\bchows?\b", "チー", "吃", "吃", "치"),
        (r"\bMah-Jongg\b", "和了", "和牌", "和牌", "화료"),
        (r"\bround wind\b", "場風", "圈风", "圈風", "장풍"),
        (r"\bwall\b", "山", "牌墙", "牌牆", "패산"),
        (r"\bfalse(ly)?\b", "錯和", "诈和", "詐和", "촌보"),
        (r"`addup`", "各自加算", "各自累加", "各自累加", "각자 합산"),
        (r"`classical`", "古典式の支払い", "传统支付", "傳統支付", "전통 정산"),
        (r"last card of its type", "最後の1枚", "最后一张", "最後一張", "마지막 한 장"),
    ],
    "panda": [
        (r"\btricks?\b", "トリック", "墩", "墩", "트릭"),
        (r"\blead", "リード", "首出", "首出", "먼저 내"),
        (r"\bwish\b", "ウィッシュ", "许愿", "許願", "소원"),
    ],
}

#: Panda's deck names stay in Latin letters in every language (docs/localisation.md).
PANDA_NAMES = (
    "Stork",
    "Kingdom",
    "Cat",
    "Catfish",
    "Panda",
    "Ambush",
    "Tamahagane",
    "Gyokuro",
    "Renge",
    "Asahi",
    "Bushi",
    "Geisha",
    "Emperor",
    "Mon",
)


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_translation_uses_the_glossarys_terms(game: str, locale: str) -> None:
    english, text = _english(game), _translation(game, locale)
    column = 1 + LOCALES.index(locale)
    missing = [
        (entry[0], entry[column])
        for entry in COMMON + GLOSSARY[game]
        if entry[column] is not None and re.search(entry[0], english) and entry[column] not in text
    ]
    assert missing == [], f"{game}.{locale}: English term → missing glossary word"


@pytest.mark.parametrize("locale", LOCALES)
def test_panda_keeps_the_decks_names_in_latin_letters(locale: str) -> None:
    text = _translation("panda", locale)
    assert [name for name in PANDA_NAMES if not re.search(rf"\b{name}\b", text)] == []


# What /rules attaches.


@pytest.mark.parametrize("game", GAME_NAMES)
def test_rules_attaches_the_users_languages_complete_rules(game: str) -> None:
    assert full_rules_path(game) == DOCS / f"{game}.md"
    assert full_rules_path(game, "en-US") == DOCS / f"{game}.md"
    assert full_rules_path(game, "fr") == DOCS / f"{game}.md"
    for locale in LOCALES:
        if (DOCS / f"{game}.{locale}.md").is_file():
            assert full_rules_path(game, locale) == DOCS / f"{game}.{locale}.md"


def test_rules_attaches_the_english_when_a_translation_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "koikoi.md").write_text("# Koi-Koi\n", encoding="utf-8")
    (tmp_path / "docs" / "rules" / "koikoi.ja.md").write_text("# こいこい\n", encoding="utf-8")
    # The function's own module globals: loading the cogs as extensions (other tests do)
    # puts a fresh cogs.rules module in sys.modules, not the one imported here.
    monkeypatch.setitem(full_rules_path.__globals__, "REPO_ROOT", tmp_path)
    monkeypatch.chdir(tmp_path)
    assert full_rules_path("koikoi", "ja") == tmp_path / "docs" / "rules" / "koikoi.ja.md"
    assert full_rules_path("koikoi", "ko") == tmp_path / "docs" / "rules" / "koikoi.md"
    assert full_rules_path("mushi", "ja") is None


@pytest.mark.asyncio
async def test_rules_attaches_the_translation_or_says_the_english_is_attached(
    fake_discord: FakeDiscord,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    games_channel: int,  # noqa: F811
    alice: int,  # noqa: F811
) -> None:
    """Over the fake Discord, with docs whose Koi-Koi rules exist in English and Japanese
    only: ja gets the Japanese file; zh-TW and ko get the English, and are told it is
    English; en-GB gets the English as before."""
    docs = tmp_path / "docs" / "rules"
    docs.mkdir(parents=True)
    (docs / "koikoi.md").write_text(_english("koikoi"), encoding="utf-8")
    (docs / "koikoi.ja.md").write_text(_translation("koikoi", "ja"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    fake, channel, user = fake_discord, games_channel, alice
    running = RunningBot(fake, settings_for(str(tmp_path / "rules.db")))
    await running.start()
    try:
        # discord.py loads the extension as a module of its own: patch the one it loaded.
        monkeypatch.setattr(sys.modules["cogs.rules"], "REPO_ROOT", tmp_path)
        answers = {}
        for locale in ("ja", "zh-TW", "ko", "en-GB"):
            inter = await fake.slash(user, channel, "rules", {"game": "koikoi"}, locale=locale)
            await inter.wait_response()
            answers[locale] = inter.callback
    finally:
        await running.stop()

    def answer(locale: str) -> tuple[str, dict[str, bytes]]:
        return answers[locale].data["embeds"][0]["description"], dict(answers[locale].files)

    text, files = answer("ja")
    assert list(files) == ["teahouse-koikoi-rules.ja.md"]
    assert files["teahouse-koikoi-rules.ja.md"].decode("utf-8") == _translation("koikoi", "ja")
    assert text.endswith("付属のファイル `teahouse-koikoi-rules.ja.md` にあります。")
    for locale, english in (("zh-TW", "（英文）"), ("ko", "(영어)")):
        text, files = answer(locale)
        assert list(files) == ["teahouse-koikoi-rules.md"], locale
        assert "`teahouse-koikoi-rules.md`" in text and english in text, locale
    text, files = answer("en-GB")
    assert files["teahouse-koikoi-rules.md"].decode("utf-8") == _english("koikoi")
    assert text.endswith(
        "The complete rules, every option and every ruling: the attached "
        "`teahouse-koikoi-rules.md`."
    )
