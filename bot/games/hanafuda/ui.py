"""Controls that Koi-Koi and Mushi seats share (a pure description; the host builds them).

Prompts and labels are :class:`~bot.i18n.Text`: the English, which the host says again in
each player's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.ui import (
    MAX_BUTTONS_PER_ROW,
    MAX_LABEL,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Button,
    Controls,
    Option,
    Select,
    button_rows,
)
from bot.i18n import Text


def idle_controls(view: Mapping[str, Any]) -> Controls:
    """A seat with nothing to do: the match is over, or it waits for someone."""
    if view.get("is_over"):
        return Controls(prompt=Text("The match is over.", context="hanafuda"))
    waiting = tuple(view["players"][s] for s in view.get("to_act", []))
    if not waiting:
        return Controls(prompt=Text("Waiting for the next deal."))
    return Controls(prompt=Text("Waiting for {players}.", context="hanafuda", players=waiting))


def _cut(label: str, limit: int) -> str:
    """``label`` within ``limit`` characters (a Text that fits stays a Text)."""
    return label if len(label) <= limit else label[:limit]


def action_label(code: str, describe: Callable[[str], str]) -> str:
    """A button label for an action code, cut to Discord's limit."""
    return _cut(describe(code), MAX_LABEL)


def flip_choice_controls(
    flipped_text: str, legal: Sequence[str], describe: Callable[[str], str]
) -> Controls:
    """One button per card the flipped card may take."""
    prompt = Text("You flipped {card}: choose which card it takes.", card=flipped_text)
    return card_controls(prompt, [Button(action_label(c, describe), c, "primary") for c in legal])


def card_controls(
    prompt: str, buttons: Sequence[Button], select_placeholder: str | None = None
) -> Controls:
    """Rows of buttons, or select menus when there are more than the rows hold."""
    # Plains of one month are interchangeable: one button stands for all its twins.
    unique: dict[str, Button] = {}
    for b in buttons:
        unique.setdefault(b.label, b)
    shown = list(unique.values())
    if len(shown) <= MAX_ROWS * MAX_BUTTONS_PER_ROW:
        return Controls(prompt=prompt, rows=tuple(button_rows(shown)))
    placeholder = select_placeholder or Text("Choose", context="hanafuda")
    options = tuple(Option(label=_cut(b.label, 100), value=b.code) for b in shown)
    rows = tuple(
        Select(verb="", placeholder=placeholder, options=options[i : i + MAX_SELECT_OPTIONS])
        for i in range(0, len(options), MAX_SELECT_OPTIONS)
    )
    return Controls(prompt=prompt, rows=rows[:MAX_ROWS])
