"""The Discord controls of a Mushi seat (a pure description; the host builds components)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.ui import MAX_LABEL, Button, Controls
from bot.games.hanafuda.cards import MONTH_PLANTS
from bot.games.hanafuda.deal import chain_and
from bot.games.hanafuda.ui import action_label, card_controls, flip_choice_controls, idle_controls
from bot.games.mushi.rules import WILD, capture_choices, card_text, describe
from bot.games.mushi.views import MushiView
from bot.i18n import Text
from bot.i18n.text import sentences


def controls(view: MushiView, legal: Sequence[str]) -> Controls:
    """Buttons for the seat's pending decision, with a prompt saying what to decide."""
    if not legal:
        return idle_controls(view)
    phase = view.get("phase")
    pending = view.get("pending")
    if phase == "choose_flip":
        return flip_choice_controls(card_text(pending["card"] if pending else ""), legal, describe)
    duty = Text("The wild is on the table: the next flip must take it.")
    # Rule 5: a four dealt to this seat may cancel the deal before its first card is played.
    four = chain_and([MONTH_PLANTS[m] for m in view.get("cancel_months") or []])
    dealt = Text(
        "You were dealt four {plants} cards: you may show them and cancel the deal.", plants=four
    )
    prompt = sentences(
        Text("Your turn: play a card from your hand."),
        duty if view.get("wild_duty") else "",
        dealt if four else "",
    )
    buttons = []
    for code in legal:
        if code == "cancel":
            label = (
                Text("Show four {plants} & cancel the deal", plants=four)
                if four
                else describe(code)
            )
            buttons.append(
                Button(label if len(label) <= MAX_LABEL else label[:MAX_LABEL], code, "danger")
            )
            continue
        words = code.split()
        # Cards that take something stand out; a card without a match stays on the table.
        captures = len(words) == 3 or _captures(words[1], view.get("table", []))
        style = "success" if words[1] == WILD else ("primary" if captures else "secondary")
        buttons.append(Button(action_label(code, describe), code, style))
    return card_controls(prompt, buttons, select_placeholder=Text("Choose a card to play"))


def _captures(code: str, table: Sequence[str]) -> bool:
    return bool(capture_choices(code, table)[0])
