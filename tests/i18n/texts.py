"""The Texts inside what a game returns, and whether a catalog translates each one: shared
by the games' i18n tests (tests/i18n/test_<game>_i18n.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from bot import i18n
from bot.i18n import Text


def texts_in(value: Any) -> Iterator[Text]:
    """Every Text in ``value`` — views, events, controls (their dataclasses), lists — and
    the Texts inside those Texts' fields."""
    if isinstance(value, Text):
        yield value
        for field in value.fields.values():
            yield from texts_in(field)
    elif isinstance(value, str):
        return
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from texts_in(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from texts_in(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from texts_in(getattr(value, f.name))


def translated(locale: str, text: Text) -> bool:
    """The catalog of ``locale`` translates ``text`` (in its gettext context, if it has
    one): present, not fuzzy, every plural form written."""
    message = i18n.catalog(locale).get(text.msgid, text.context)
    if message is None or message.fuzzy:
        return False
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(f.strip() for f in forms)
