"""The slash commands as synced: every description, option description and choice is
translated in every locale (from the catalogs, through bot.app.CommandTranslator); names
stay ASCII; nothing is over Discord's limits; the catalogs hold no stale command text."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po
from discord.ext import commands

from bot import i18n
from bot.app import CommandTranslator, cog_names
from cogs import LANGUAGES

DISCORD_LOCALES = {
    "ja": discord.Locale.japanese,
    "zh-CN": discord.Locale.chinese,
    "zh-TW": discord.Locale.taiwan_chinese,
    "ko": discord.Locale.korean,
}
#: Catalog entries not used by slash commands (messages: /rules' answer, and those of the
#: next slices of issue 12).
NOT_COMMAND_TEXT = {
    "{n} second",
    "{n} point",
    "{game} — rules",
    "The complete rules, every option and every ruling: the attached `{file}`.",
    "The complete rules, every option and every ruling: the attached `{file}` (in English).",
    "The complete rules are in `docs/rules/{game}.md` of the Teahouse repository.",
    "Start a table with /{game} new",
}


async def _payloads() -> list[dict[str, Any]]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for name in cog_names():
        await bot.load_extension(name)
    await bot.tree.set_translator(CommandTranslator())
    translator = bot.tree.translator
    assert translator is not None
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


def _texts(payload: dict[str, Any], path: str = "") -> list[tuple[str, str, dict[str, Any]]]:
    """(where, kind, node) for every node with a description or a choice name — but the
    choices of ``language``, each named in its own language for everyone (not translated)."""
    where = f"{path}/{payload['name']}"
    out = [(where, "description", payload)]
    for option in payload.get("options") or []:
        out += _texts(option, where)
    if payload["name"] == "language":
        return out
    for choice in payload.get("choices") or []:
        out.append((f"{where}={choice['value']}", "choice", choice))
    return out


async def test_the_language_choices_are_named_in_their_own_language_everywhere() -> None:
    seen = 0
    for payload in await _payloads():
        for option in (o for sub in payload.get("options") or [] for o in sub.get("options") or []):
            if option["name"] != "language":
                continue
            seen += 1
            assert [(c["name"], c["value"]) for c in option["choices"]] == list(LANGUAGES)
            assert [c["value"] for c in option["choices"]] == list(i18n.LOCALES)
            assert not any(c.get("name_localizations") for c in option["choices"])
    assert seen == 5  # /<game> new of every game


@pytest.mark.parametrize("locale", i18n.TRANSLATED)
async def test_every_description_and_choice_is_localised(locale: str) -> None:
    payloads = await _payloads()
    value = DISCORD_LOCALES[locale].value
    assert {p["name"] for p in payloads} >= {
        "koikoi", "mushi", "panda", "sandayi", "mahjong",
        "leaderboard", "stats", "history", "replay", "rules", "table",
    }  # fmt: skip
    seen = 0
    for payload in payloads:
        for where, kind, node in _texts(payload):
            english = node["description"] if kind == "description" else node["name"]
            localized = node.get(f"{kind if kind == 'description' else 'name'}_localizations")
            assert localized and value in localized, f"{where}: no {locale} {kind}"
            text = localized[value]
            assert text == i18n.gettext(locale, english)
            assert 1 <= len(text) <= 100, f"{where}: {len(text)} characters"
            seen += 1
            # Names (commands, groups, options) are not localised: ASCII everywhere.
            if kind == "description":
                assert not node.get("name_localizations"), where
    assert seen > 60


async def test_japanese_texts_use_the_glossary() -> None:
    by_english = {}
    for payload in await _payloads():
        for _, kind, node in _texts(payload):
            english = node["description"] if kind == "description" else node["name"]
            key = "description_localizations" if kind == "description" else "name_localizations"
            by_english[english] = node[key]
    assert by_english["Koi-Koi (hanafuda, 2 players)"]["ja"] == "こいこい（花札・2人）"
    assert by_english["6 rounds"]["ja"] == "6回戦"
    assert by_english["Mah-Jongg"]["zh-CN"] == "麻将"
    assert by_english["Mah-Jongg"]["zh-TW"] == "麻將"
    assert by_english["Mah-Jongg"]["ko"] == "마작"
    assert (
        "叫分"
        in by_english["Use the fixed bidding minimums instead of the positional ones"]["zh-CN"]
    )
    assert (
        "총통"
        in by_english["A player dealt four of one month may cancel the deal (default on)"]["ko"]
    )


async def test_english_variants_and_other_languages_get_no_localisation() -> None:
    for payload in await _payloads():
        for where, kind, node in _texts(payload):
            key = "description_localizations" if kind == "description" else "name_localizations"
            assert set(node.get(key) or {}) == set(i18n.TRANSLATED), where


async def test_the_catalogs_hold_only_command_text_and_the_listed_messages() -> None:
    """``teahouse.po`` is the commands' catalog (plus the few listed messages); the host's,
    the cogs' and each game's words are in their own files."""
    used = set()
    for payload in await _payloads():
        for _, kind, node in _texts(payload):
            used.add(node["description"] if kind == "description" else node["name"])
    for locale in i18n.TRANSLATED:
        commands_catalog = _file_messages(locale, "teahouse")
        assert commands_catalog - used == NOT_COMMAND_TEXT, locale
        assert used <= commands_catalog


def _file_messages(locale: str, domain: str) -> set[str]:
    """The ids of one catalog file."""
    with i18n.po_path(locale, domain).open("rb") as f:
        catalog = read_po(f, locale=i18n.BABEL_LOCALES[locale])
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


async def test_the_translator_leaves_names_alone() -> None:
    from discord import app_commands

    t = CommandTranslator()
    ctx = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.parameter_name, None
    )
    assert (
        await t.translate(app_commands.locale_str("rounds"), discord.Locale.japanese, ctx) is None
    )
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.choice_name, None)
    assert (
        await t.translate(app_commands.locale_str("6 rounds"), discord.Locale.japanese, ctx)
        == "6回戦"
    )
    assert (
        await t.translate(app_commands.locale_str("6 rounds"), discord.Locale.french, ctx) is None
    )
