"""The Discord controls of a Koi-Koi seat (a pure description; the host builds components)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.ui import Button, Controls
from bot.games.hanafuda.deal import card_text
from bot.games.hanafuda.ui import action_label, card_controls, flip_choice_controls, idle_controls
from bot.games.koikoi.rules import MONTH, describe, yaku_points_text
from bot.games.koikoi.views import KoiKoiView
from bot.i18n import Text, ntext


def controls(view: KoiKoiView, legal: Sequence[str]) -> Controls:
    """Buttons for the seat's pending decision, with a prompt saying what to decide."""
    if not legal:
        return idle_controls(view)
    phase = view.get("phase")
    pending = view.get("pending")
    if phase == "choose_flip":
        assert pending is not None and "card" in pending  # (the phase's pending)
        return flip_choice_controls(card_text(pending["card"]), legal, describe)
    if phase == "decide":
        seat = view["seat"]
        assert seat is not None and pending is not None and "points" in pending
        yaku = tuple(yaku_points_text(y["name"], y["points"]) for y in view["yaku"][seat])
        points = pending["points"]
        prompt = ntext(
            "You made a yaku ({yaku} = {points} point): Koi-Koi or stop?",
            "You made a yaku ({yaku} = {points} points): Koi-Koi or stop?",
            points,
            yaku=yaku,
            points=points,
        )
        buttons = [
            Button(Text("Koi-Koi! (play on)"), "koikoi", "success")
            if c == "koikoi"
            else Button(Text("Stop and score {points}", points=points), c, "danger")
            for c in legal
        ]
        return card_controls(prompt, buttons)
    prompt = Text("Your turn: play a card from your hand.")
    board_months = {MONTH[b] for b in view.get("board", [])}
    buttons = [
        # Cards that capture stand out; a card that matches nothing stays on the board.
        Button(
            action_label(c, describe),
            c,
            "primary" if MONTH[c.split()[1]] in board_months else "secondary",
        )
        for c in legal
    ]
    return card_controls(prompt, buttons, select_placeholder=Text("Choose a card to play"))
