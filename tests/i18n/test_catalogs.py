"""The catalogs: complete, well-formed, the same placeholders in every language; plurals,
numbers and the English fallback."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from bot import i18n

LOCALES = i18n.TRANSLATED


def _messages(locale: str):
    return [m for m in i18n.catalog(locale) if m.id]


def _forms(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def _ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_locale_has_the_same_catalog_files() -> None:
    names = {loc: [p.name for p in i18n.po_paths(loc)] for loc in LOCALES}
    assert "teahouse.po" in names["ja"]
    for loc in LOCALES:
        assert names[loc] == names["ja"], loc


def test_every_message_of_the_code_is_in_the_catalogs() -> None:
    """Every literal message id the code passes to ``Text``, ``ntext``, ``gettext`` or
    ``ngettext`` (found by Babel's extractor, as a translator's tool would) is in the
    catalogs: nothing a player reads falls back to English unnoticed."""
    root = Path(__file__).resolve().parents[2]
    keywords = {"Text": (1,), "ntext": (1, 2), "gettext": (2,), "ngettext": (2, 3)}
    known = {_ids(m)[0] for m in _messages("ja")}
    missing = []
    for package in ("bot", "cogs"):
        for filename, lineno, message, _comments, _context in extract_from_dir(
            root / package, method_map=[("**.py", "python")], keywords=keywords
        ):
            msgid = message[0] if isinstance(message, tuple) else message
            if msgid and msgid not in known:
                missing.append(f"{package}/{filename}:{lineno}: {msgid!r}")
    assert missing == []


def test_every_locale_has_a_catalog_and_they_hold_the_same_ids() -> None:
    assert i18n.LOCALES == ("en-US", "ja", "zh-CN", "zh-TW", "ko")
    ids = {loc: {_ids(m) for m in _messages(loc)} for loc in LOCALES}
    assert ids["ja"], "an empty catalog"
    for loc in LOCALES:
        assert ids[loc] == ids["ja"], f"{loc} differs from ja: {ids[loc] ^ ids['ja']}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated(locale: str) -> None:
    missing = [
        _ids(m)[0] for m in _messages(locale) if m.fuzzy or not all(f.strip() for f in _forms(m))
    ]
    assert missing == []


@pytest.mark.parametrize("locale", LOCALES)
def test_po_files_parse_strictly_and_declare_their_plural_rule(locale: str) -> None:
    rule = get_plural(i18n.BABEL_LOCALES[locale])
    in_files: set[tuple[object, object]] = set()
    for path in i18n.po_paths(locale):
        with path.open("rb") as f:
            strict = read_po(f, abort_invalid=True)
        in_files |= {(_ids(m)[0], m.context) for m in strict if m.id}
        assert strict.num_plurals == rule.num_plurals, path
        assert strict.plural_expr == rule.plural_expr, path
    # The files together are the catalog: every message of every file, and nothing else.
    assert {(_ids(m)[0], m.context) for m in _messages(locale)} == in_files
    for m in _messages(locale):
        if m.pluralizable:
            assert len(_forms(m)) == rule.num_plurals, m.id


@pytest.mark.parametrize("locale", LOCALES)
def test_placeholders_are_the_same_in_every_language(locale: str) -> None:
    for m in _messages(locale):
        wanted = set().union(*(_fields(i) for i in _ids(m)))
        for form in _forms(m):
            assert _fields(form) == wanted, (m.id, form)
        if wanted:
            assert "python-brace-format" in m.flags, m.id


def test_plural_forms() -> None:
    assert i18n.ngettext("en-US", "{n} second", "{n} seconds", 1) == "1 second"
    assert i18n.ngettext("en-US", "{n} second", "{n} seconds", 2) == "2 seconds"
    assert i18n.ngettext("en-US", "{n} point", "{n} points", 1500) == "1,500 points"
    assert i18n.ngettext("ja", "{n} second", "{n} seconds", 1) == "1秒"
    assert i18n.ngettext("ja", "{n} second", "{n} seconds", 30) == "30秒"
    assert i18n.ngettext("zh-CN", "{n} point", "{n} points", 1000) == "1,000 分"
    assert i18n.ngettext("zh-TW", "{n} point", "{n} points", 1) == "1 分"
    assert i18n.ngettext("ko", "{n} second", "{n} seconds", 120) == "120초"
    # A count given explicitly is used as it is.
    assert i18n.ngettext("ko", "{n} point", "{n} points", 2, n="two") == "two점"


def test_numbers_are_formatted_per_locale() -> None:
    assert i18n.format_number("en-US", 1234567) == "1,234,567"
    assert i18n.format_number("en-US", -1234.5) == "-1,234.5"
    for loc in LOCALES:
        assert i18n.format_number(loc, 1234567.25) == "1,234,567.25"
    # A locale without a catalog reads English, numbers included.
    assert i18n.format_number("de", 1234.5) == "1,234.5"


def test_fallback_to_english() -> None:
    assert i18n.gettext("ja", "6 rounds") == "6回戦"
    assert i18n.gettext("ja", "not in any catalog") == "not in any catalog"
    assert i18n.gettext("ja", "not in any catalog {x}", x=3) == "not in any catalog 3"
    for other in ("en-GB", "en-US", "fr", None, ""):
        assert i18n.normalize(other) == "en-US"
        assert i18n.gettext(other, "6 rounds") == "6 rounds"
    assert not i18n.has_translation("en-US", "6 rounds")
    assert i18n.has_translation("zh-TW", "6 rounds")


def test_discord_locale_objects_are_understood() -> None:
    discord = pytest.importorskip("discord")
    assert i18n.normalize(discord.Locale.japanese) == "ja"
    assert i18n.normalize(discord.Locale.chinese) == "zh-CN"
    assert i18n.normalize(discord.Locale.taiwan_chinese) == "zh-TW"
    assert i18n.normalize(discord.Locale.korean) == "ko"
    assert i18n.normalize(discord.Locale.british_english) == "en-US"


def test_language_names_are_in_their_own_language() -> None:
    assert i18n.language_name("ja") == "日本語"
    assert i18n.language_name("ko") == "한국어"


def test_the_core_does_not_import_discord() -> None:
    import ast
    from pathlib import Path

    for path in Path(i18n.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.split(".")[0] == "discord" for n in names), path


def test_a_text_is_its_english_and_says_itself_in_each_locale(monkeypatch) -> None:
    from bot.i18n import Text, localize, ntext

    gt = i18n.translations("ja")
    table = {"{name} takes {cards}.": "{name}が{cards}を取る。", "Crane": "鶴", "Pine": "松"}
    monkeypatch.setattr(gt, "gettext", lambda m: table.get(m, m))
    text = Text("{name} takes {cards}.", name="Ann", cards=(Text("Crane"), Text("Pine")))
    assert text == "Ann takes Crane, Pine."
    assert localize("en-GB", text) == "Ann takes Crane, Pine."
    assert localize("ja", text) == "Annが鶴、松を取る。"
    assert localize("ja", [text, "plain"]) == ["Annが鶴、松を取る。", "plain"]
    assert ntext("{n} card", "{n} cards", 1) == "1 card"
    assert ntext("{n} card", "{n} cards", 3) == "3 cards"
    import pickle

    again = pickle.loads(pickle.dumps(text))
    assert again == text and localize("ja", again) == "Annが鶴、松を取る。"
    import copy

    assert copy.deepcopy(text) is text and copy.copy(text) is text  # immutable, like a str


def _code_plurals() -> list[tuple[str, str, str]]:
    """(where, singular, plural) of every literal ``ntext``/``ngettext`` in the code."""
    root = Path(__file__).resolve().parents[2]
    keywords = {"ntext": (1, 2), "ngettext": (2, 3)}
    found = []
    for package in ("bot", "cogs"):
        for filename, lineno, message, _comments, _context in extract_from_dir(
            root / package, method_map=[("**.py", "python")], keywords=keywords
        ):
            if isinstance(message, tuple) and len(message) == 2 and all(message):
                found.append((f"{package}/{filename}:{lineno}", message[0], message[1]))
    return found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_of_the_code_has_all_its_forms(locale: str) -> None:
    """Each count the code says with ``ntext``/``ngettext`` is a plural entry in the
    catalog (the same ``msgid_plural``), with every form the language's rule has."""
    plurals = _code_plurals()
    assert len(plurals) > 30
    rule = get_plural(i18n.BABEL_LOCALES[locale])
    wrong = []
    for where, singular, plural in plurals:
        entry = next((m for m in _messages(locale) if _ids(m)[0] == singular), None)
        if entry is None or not entry.pluralizable or _ids(entry) != (singular, plural):
            wrong.append(f"{where}: {singular!r} is not the plural entry of {plural!r}")
        elif len(_forms(entry)) != rule.num_plurals or not all(f.strip() for f in _forms(entry)):
            wrong.append(f"{where}: {singular!r} lacks forms")
    assert wrong == []


def test_no_message_counts_with_a_parenthesised_plural() -> None:
    """``seat(s)``, ``lobby(ies)``: a count is a plural entry, not an English shortcut."""
    odd = [_ids(m)[0] for m in _messages("ja") if any("(s)" in i or "(ies)" in i for i in _ids(m))]
    assert odd == []


@pytest.mark.parametrize(
    ("count", "english", "japanese"),
    [
        (1, "Round 2: Ann scores 1 point (Ann 1, Ben 0).", "2回戦：Annが1点（Ann 1、Ben 0）。"),
        (3, "Round 2: Ann scores 3 points (Ann 3, Ben 0).", "2回戦：Annが3点（Ann 3、Ben 0）。"),
    ],
)
def test_a_koikoi_round_scores_one_point_or_points(count: int, english: str, japanese: str) -> None:
    from bot.i18n import localize, ntext

    text = ntext(
        "Round {round}: {name} scores {points} point ({first} {first_total},"
        " {second} {second_total}).",
        "Round {round}: {name} scores {points} points ({first} {first_total},"
        " {second} {second_total}).",
        count,
        round=2,
        name="Ann",
        points=count,
        first="Ann",
        first_total=count,
        second="Ben",
        second_total=0,
    )
    assert text == english and localize("en-US", text) == english
    assert localize("ja", text) == japanese
