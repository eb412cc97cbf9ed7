"""The Discord controls of a Mushi seat (a pure description; the host builds components)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from bot.games.hanafuda.cards import MONTH_PLANTS
from bot.games.mushi.rules import WILD, capture_choices, card_text, describe


def controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    """Buttons for the seat's pending decision, with a prompt saying what to decide."""
    if not legal:
        if view.get("is_over"):
            return Controls(prompt="The match is over.")
        waiting = [view["players"][s] for s in view.get("to_act", [])]
        return Controls(prompt=f"Waiting for {', '.join(waiting) or 'the next deal'}.")
    phase = view.get("phase")
    pending = view.get("pending") or {}
    if phase == "declare":
        months = " and ".join(MONTH_PLANTS[m] for m in pending.get("months", []))
        prompt = (
            f"You were dealt four {months} cards: show them and cancel the deal"
            " (the elder deals again), or keep playing?"
        )
        buttons = [
            Button("Cancel the deal", c, "danger")
            if c == "cancel"
            else Button("Keep playing", c, "success")
            for c in legal
        ]
        return _buttons(prompt, buttons)
    if phase == "choose_flip":
        flipped = pending.get("card", "")
        prompt = f"You flipped {card_text(flipped)}: choose which card it takes."
        return _buttons(prompt, [Button(_label(c), c, "primary") for c in legal])
    prompt = "Your turn: play a card from your hand."
    if view.get("wild_duty"):
        prompt += " The wild is on the table: the next flip must take it."
    buttons = []
    for code in legal:
        words = code.split()
        # Cards that take something stand out; a card without a match stays on the table.
        captures = len(words) == 3 or _captures(words[1], view.get("table", []))
        style = "success" if words[1] == WILD else ("primary" if captures else "secondary")
        buttons.append(Button(_label(code), code, style))
    return _buttons(prompt, buttons, select_placeholder="Choose a card to play")


def _captures(code: str, table: Sequence[str]) -> bool:
    return bool(capture_choices(code, table)[0])


def _label(code: str) -> str:
    return describe(code)[:MAX_LABEL]


def _buttons(prompt: str, buttons: list[Button], select_placeholder: str = "Choose") -> Controls:
    # Plains of one month are interchangeable: one button stands for all its twins.
    unique: dict[str, Button] = {}
    for b in buttons:
        unique.setdefault(b.label, b)
    buttons = list(unique.values())
    if len(buttons) <= MAX_ROWS * MAX_BUTTONS_PER_ROW:
        return Controls(prompt=prompt, rows=tuple(button_rows(buttons)))
    options = tuple(Option(label=b.label[:100], value=b.code) for b in buttons)
    rows = tuple(
        Select(verb="", placeholder=select_placeholder, options=options[i : i + MAX_SELECT_OPTIONS])
        for i in range(0, len(options), MAX_SELECT_OPTIONS)
    )
    return Controls(prompt=prompt, rows=rows[:MAX_ROWS])
