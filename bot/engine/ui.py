"""A pure description of the controls a seat gets for its pending decision.

Each game may export ``controls(view, legal) -> Controls`` to lay out its buttons and
selects (Panda's multi-select of cards, Koi-Koi's card buttons); the host turns the
description into Discord components. Without one, :func:`default_controls` is used.

Discord's limits shape this: at most 5 rows, 5 buttons a row or one select a row,
25 options a select, labels of 80 characters; a form (a modal) holds at most 5 questions,
its title and question labels 45 characters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.i18n import Text

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_LABEL = 80
MAX_FORM_FIELDS = 5
MAX_FORM_LABEL = 45


@dataclass(frozen=True)
class Button:
    """A button that applies ``code`` when clicked."""

    label: str
    code: str
    style: str = "secondary"  # primary | secondary | success | danger
    emoji: str | None = None


@dataclass(frozen=True)
class Option:
    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True)
class Select:
    """A select whose chosen values make the code ``verb v1 v2 ...``.

    With ``max_values`` > 1 the player picks several (e.g. cards to pass or play); the
    values keep the order of ``options``.
    """

    verb: str
    placeholder: str
    options: tuple[Option, ...]
    min_values: int = 1
    max_values: int = 1

    def code_for(self, values: Sequence[str]) -> str:
        order = {o.value: i for i, o in enumerate(self.options)}
        chosen = sorted(values, key=lambda v: order.get(v, len(order)))
        return " ".join([self.verb, *chosen]) if self.verb else " ".join(chosen)


@dataclass(frozen=True)
class Field:
    """One question of a :class:`Form`: pick one of ``options``; the value follows ``key``
    in the form's code."""

    key: str
    label: str  #: at most 45 characters
    options: tuple[Option, ...]
    description: str | None = None  #: under the label, at most 100 characters


@dataclass(frozen=True)
class Form:
    """A button (a row of its own) that opens a form of up to five questions answered
    together: ``verb key1 value1 key2 value2 …`` once sent. Choices made in one step and
    changed freely before sending (Panda's three passed cards, one for each player)."""

    label: str  #: the button's
    verb: str
    title: str  #: the form's, at most 45 characters
    fields: tuple[Field, ...]
    style: str = "primary"

    def code_for(self, values: Mapping[str, str]) -> str:
        """The code of the answers ``{key: value}``, in the order of the questions."""
        words = [self.verb]
        for f in self.fields:
            words += [f.key, values[f.key]]
        return " ".join(words)


@dataclass(frozen=True)
class Controls:
    """The prompt and the rows of components for one seat. Each row is buttons or one select."""

    prompt: str
    rows: tuple[tuple[Button, ...] | Select | Form, ...] = field(default_factory=tuple)

    def codes(self) -> list[str]:
        """The codes of the buttons (not those composed in selects and forms)."""
        out: list[str] = []
        for row in self.rows:
            if isinstance(row, Select | Form):
                continue
            out.extend(b.code for b in row)
        return out


def button_rows(buttons: Sequence[Button]) -> list[tuple[Button, ...]]:
    return [
        tuple(buttons[i : i + MAX_BUTTONS_PER_ROW])
        for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)
    ]


#: Button styles by verb where a game says none: passing is the quiet choice.
DEFAULT_STYLES: Mapping[str, str] = {"pass": "secondary"}


def default_controls(
    prompt: str,
    legal: Sequence[str],
    describe: Callable[[str], str] = str,
    styles: Mapping[str, str] = DEFAULT_STYLES,
) -> Controls:
    """Buttons for up to 25 actions; beyond that, selects of up to 25 actions each.
    ``styles``: a button's style by its code's verb (``primary`` for any other)."""
    if not legal:
        return Controls(prompt=prompt)
    if len(legal) <= MAX_ROWS * MAX_BUTTONS_PER_ROW:
        buttons = [
            Button(
                label=_clip(describe(c), MAX_LABEL),
                code=c,
                style=styles.get(c.split()[0], "primary"),
            )
            for c in legal
        ]
        return Controls(prompt=prompt, rows=tuple(button_rows(buttons)))
    rows: list[Select] = []
    for i in range(0, len(legal), MAX_SELECT_OPTIONS):
        chunk = legal[i : i + MAX_SELECT_OPTIONS]
        rows.append(
            Select(
                verb="",
                placeholder=Text(
                    "Choose an action ({first}–{last})", first=i + 1, last=i + len(chunk)
                ),
                options=tuple(Option(_clip(describe(c), 100), c) for c in chunk),
            )
        )
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))


def _clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters — left whole when it fits, so a ``Text`` keeps
    its translation (the host cuts again in the reader's language)."""
    return text if len(text) <= limit else text[:limit]
