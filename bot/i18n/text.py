"""Words that can be said again in another language.

Games and renderers are pure and speak English (the source language), but what they say
must reach each player in theirs. A :class:`Text` *is* the English string (a ``str``
subclass: comparing, logging, slicing and the tests see plain English) that also remembers
its message id and fields, so :func:`localize` can say it again in any locale at the moment
it is shown — the table's language on the table, each player's in their DMs.

    Text("{name} discards {tile}.", name="Ann", tile=Text("5 Bamboo"))
    localize("ja", that)  # 'Annが5索を捨てた。'

Fields that are Texts are localised too (card and yaku names inside a sentence); a tuple
field is a list, joined with ", " in English and by the locale's list pattern elsewhere.
:func:`ntext` is the plural form. ``context`` is gettext's ``msgctxt``, for one English
word that two games translate differently. Babel's extractor finds the message ids
(keywords ``Text`` and ``ntext``), which is how the tests know that every one is in
every catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from babel.lists import format_list


class Text(str):
    """English text that can be said in another locale with :func:`localize`."""

    msgid: str
    plural: str | None
    count: int | None  # type: ignore[assignment]  # hides str.count: a plural's n reads better
    context: str | None
    fields: dict[str, Any]

    def __new__(cls, msgid: str, /, *, context: str | None = None, **fields: Any) -> Text:
        value = msgid.format(**_english(fields)) if fields else msgid
        self = super().__new__(cls, value)
        self.msgid, self.plural, self.count, self.context = msgid, None, None, context
        self.fields = fields
        return self

    # A Text is never changed once made (like the str it is): copies are itself, as a str's
    # are — a deep copy of a game state must not rebuild every event line it holds.
    def __copy__(self) -> Text:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Text:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled into the render processes: keep what localize needs, not just the str.
        return (_rebuild, (str(self), dict(self.__dict__)))


def ntext(
    singular: str, plural: str, n: int, /, *, context: str | None = None, **fields: Any
) -> Text:
    """The English form for ``n`` (``{n}`` is the count); localised by the locale's plural
    rule (Japanese, Chinese and Korean have one form)."""
    fields.setdefault("n", n)
    template = singular if n == 1 else plural
    self = Text.__new__(Text, template, context=context, **fields)
    self.msgid, self.plural, self.count = singular, plural, n
    return self


def sentences(*parts: str | None) -> str:
    """Sentences one after the other, ``A. B.`` (None and "" skipped): a space in English and
    Korean, nothing between Japanese or Chinese sentences."""
    return fold([p for p in parts if p], lambda a, b: Text("{sentence} {more}", sentence=a, more=b))


def commas(parts: Sequence[str]) -> str:
    """``a, b, c``: names, cards or codes listed as the catalogs join them (``A、B、C``), not
    by Babel's list patterns, which glue their word to Latin names and codes (``B和C``) and
    say 및 (a character the pictures' font may lack)."""
    return fold(parts, lambda a, b: Text("{item}, {next}", item=a, next=b))


def semicolons(parts: Sequence[str]) -> str:
    """``a; b; c``: clauses of one sentence (a hand's score lines, penalties)."""
    return fold(parts, lambda a, b: Text("{item}; {next}", item=a, next=b))


def fold(parts: Sequence[str], join: Callable[[str, str], str]) -> str:
    """``parts`` joined two by two with ``join`` (a Text template): ``join(join(a, b), c)``;
    "" for none, the part itself for one."""
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:
        out = join(out, part)
    return out


def _rebuild(value: str, state: dict[str, Any]) -> Text:
    self = str.__new__(Text, value)
    self.__dict__.update(state)
    return self


def _english(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: ", ".join(map(str, v)) if isinstance(v, tuple) else v for k, v in fields.items()}


def localize(locale: object, value: Any) -> Any:
    """``value`` said in ``locale``: a :class:`Text` translated (its fields too), a tuple or
    list of them each; anything else as it is (a plain ``str`` is already final: names,
    codes)."""
    from bot.i18n import BABEL_LOCALES, DEFAULT_LOCALE, normalize, translations

    loc = normalize(locale)
    if isinstance(value, Text):
        if loc == DEFAULT_LOCALE:
            return str.__str__(value)
        gt = translations(loc)
        if value.plural is not None:
            assert value.count is not None
            if value.context:
                template = gt.npgettext(value.context, value.msgid, value.plural, value.count)
            else:
                template = gt.ngettext(value.msgid, value.plural, value.count)
        elif value.context:
            template = gt.pgettext(value.context, value.msgid)
        else:
            template = gt.gettext(value.msgid)
        if not value.fields:
            return template
        fields = {}
        for key, field in value.fields.items():
            if isinstance(field, tuple):
                items = [str(localize(loc, f)) for f in field]
                fields[key] = format_list(items, locale=BABEL_LOCALES[loc]) if items else ""
            else:
                fields[key] = localize(loc, field)
        return template.format(**fields)
    if isinstance(value, list):
        return [localize(loc, v) for v in value]
    if isinstance(value, tuple):
        return tuple(localize(loc, v) for v in value)
    return value


__all__ = ["Text", "commas", "fold", "localize", "ntext", "semicolons", "sentences"]
