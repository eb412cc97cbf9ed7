"""Teahouse's translations: gettext catalogs read straight from their ``.po`` sources.

The English strings in the code are the message ids (``en-US`` is the source language);
each other locale has ``bot/i18n/locales/<locale>/LC_MESSAGES/teahouse.po``, read with
Babel and turned into a :class:`gettext.GNUTranslations` in memory the first time it is
needed — there is no build step and no ``.mo`` file in the repository. A missing or empty
translation falls back to the English id. Locales are Discord's values
(``discord.Locale.value``): ``ja``, ``zh-CN``, ``zh-TW``, ``ko``; anything else, and every
English variant, reads English.

Placeholders are Python's ``str.format`` fields (``{n}``, ``{name}``): the same fields in
every language, filled after the lookup. Numbers are formatted per locale with Babel
(:func:`format_number`); :func:`ngettext` formats its count that way as ``{n}``.

Pure: nothing here imports Discord (the slash-command translator in ``bot/app.py`` asks
:func:`command_translation`).
"""

from __future__ import annotations

import gettext as _gettext
import io
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from bot.i18n.text import Text, localize, ntext

LOCALE_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "teahouse"

#: The source language: the message ids are its text.
DEFAULT_LOCALE = "en-US"
#: Every locale Teahouse speaks, by Discord's names, the source language first.
LOCALES = ("en-US", "ja", "zh-CN", "zh-TW", "ko")
#: The locales with a catalog.
TRANSLATED = LOCALES[1:]

#: Babel's name of each locale (for numbers and plural rules).
BABEL_LOCALES = {
    "en-US": "en_US",
    "ja": "ja",
    "zh-CN": "zh_Hans_CN",
    "zh-TW": "zh_Hant_TW",
    "ko": "ko",
}


def normalize(locale: object) -> str:
    """One of :data:`LOCALES` for a Discord locale (a ``discord.Locale`` or its value),
    ``en-US`` for anything without a catalog (``en-GB``, ``fr``, None)."""
    value = str(getattr(locale, "value", locale) or "")
    return value if value in LOCALES else DEFAULT_LOCALE


def po_path(locale: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"


def po_paths(locale: str) -> list[Path]:
    """Every catalog file of ``locale``: ``teahouse.po`` (the bot's own words) and one per
    game (``koikoi.po``...), so each part of the code keeps its strings in its own file."""
    return sorted((LOCALE_DIR / locale / "LC_MESSAGES").glob("*.po"))


@cache
def catalog(locale: str) -> Catalog:
    """The ``.po`` catalogs of a translated locale read as one (tests read it too). The same
    message id in two files must have the same translation (else a ``ValueError`` names
    it): a word reads the same wherever it appears; ``msgctxt`` separates real homonyms."""
    if locale not in TRANSLATED:
        raise KeyError(f"no catalog for {locale!r}")
    merged: Catalog | None = None
    for path in po_paths(locale):
        with path.open("rb") as f:
            part = read_po(f, locale=BABEL_LOCALES[locale], domain=DOMAIN)
        if merged is None:
            merged = part
            continue
        for message in part:
            if not message.id:
                continue
            known = merged.get(message.id, message.context)
            if known is not None and known.string != message.string:
                raise ValueError(
                    f"{locale}: {message.id!r} is translated differently in {path.name}"
                )
            merged[message.id] = message
    if merged is None:
        raise KeyError(f"no catalog for {locale!r}")
    return merged


@cache
def translations(locale: str) -> _gettext.NullTranslations:
    """The gettext translations of ``locale`` (English: the ids themselves)."""
    locale = normalize(locale)
    if locale not in TRANSLATED:
        return _gettext.NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, catalog(locale))  # untranslated and fuzzy entries are left out: fallback
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


def _fill(text: str, fmt: dict[str, Any]) -> str:
    return text.format(**fmt) if fmt else text


def gettext(locale: object, msgid: str, /, **fmt: Any) -> str:
    """``msgid`` in ``locale`` (English if it has no translation there), its ``{fields}``
    filled from ``fmt``."""
    return _fill(translations(normalize(locale)).gettext(msgid), fmt)


def ngettext(locale: object, singular: str, plural: str, count: int, /, **fmt: Any) -> str:
    """The form for ``count`` in ``locale``'s plural rules; ``{n}`` is ``count`` formatted
    for the locale unless ``fmt`` gives it."""
    loc = normalize(locale)
    fmt.setdefault("n", format_number(loc, count))
    return _fill(translations(loc).ngettext(singular, plural, count), fmt)


def format_number(locale: object, number: int | float) -> str:
    """``number`` with the locale's digit grouping and decimal sign (``1,000``)."""
    return format_decimal(number, locale=BABEL_LOCALES[normalize(locale)])


def has_translation(locale: object, msgid: str) -> bool:
    """Whether ``locale``'s catalog translates ``msgid`` (not fuzzy, not empty)."""
    loc = normalize(locale)
    if loc not in TRANSLATED:
        return False
    message = catalog(loc).get(msgid)
    return bool(message and message.string and not message.fuzzy)


def language_name(locale: str) -> str:
    """The locale's name in its own language (日本語, 한국어)."""
    return Locale.parse(BABEL_LOCALES[normalize(locale)]).get_display_name() or locale


#: The places of a slash command whose text is translated. Command, group and option
#: *names* keep their ASCII spelling in every locale (see docs/localisation.md).
TRANSLATED_COMMAND_PLACES = frozenset(
    {"command_description", "group_description", "parameter_description", "choice_name"}
)


def command_translation(locale: object, text: str, place: str) -> str | None:
    """What Discord shows for ``text`` of a slash command in ``locale``: its translation, or
    None (Discord then shows the English). ``place`` is the name of discord.py's
    ``TranslationContextLocation`` (``command_description``, ``choice_name``, ...)."""
    if place not in TRANSLATED_COMMAND_PLACES or not has_translation(locale, text):
        return None
    return gettext(locale, text)


__all__ = [
    "BABEL_LOCALES",
    "Text",
    "localize",
    "ntext",
    "po_paths",
    "DEFAULT_LOCALE",
    "LOCALES",
    "TRANSLATED",
    "TRANSLATED_COMMAND_PLACES",
    "catalog",
    "command_translation",
    "format_number",
    "gettext",
    "has_translation",
    "language_name",
    "ngettext",
    "normalize",
    "translations",
]
