"""The Discord controls of a Koi-Koi seat (a pure description; the host builds components)."""

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
from bot.games.koikoi.rules import MONTH, card_text, describe


def controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    """Buttons for the seat's pending decision, with a prompt saying what to decide."""
    if not legal:
        if view.get("is_over"):
            return Controls(prompt="The match is over.")
        waiting = [view["players"][s] for s in view.get("to_act", [])]
        return Controls(prompt=f"Waiting for {', '.join(waiting) or 'the next deal'}.")
    phase = view.get("phase")
    if phase == "choose_flip":
        flipped = view["pending"]["card"]
        prompt = f"You flipped {card_text(flipped)}: choose which card it takes."
        return _buttons(prompt, [Button(_label(c), c, "primary") for c in legal])
    if phase == "decide":
        seat = view["seat"]
        yaku = ", ".join(f"{y['name']} {y['points']}" for y in view["yaku"][seat])
        points = view["pending"]["points"]
        prompt = f"You made a yaku ({yaku} = {points} points): Koi-Koi or stop?"
        buttons = [
            Button("Koi-Koi! (play on)", "koikoi", "success")
            if c == "koikoi"
            else Button(f"Stop and score {points}", c, "danger")
            for c in legal
        ]
        return _buttons(prompt, buttons)
    prompt = "Your turn: play a card from your hand."
    board_months = {MONTH[b] for b in view.get("board", [])}
    buttons = [
        # Cards that capture stand out; a card that matches nothing stays on the board.
        Button(_label(c), c, "primary" if MONTH[c.split()[1]] in board_months else "secondary")
        for c in legal
    ]
    return _buttons(prompt, buttons, select_placeholder="Choose a card to play")


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
