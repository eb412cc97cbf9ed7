"""The Discord controls of a Mah-Jongg seat (a pure description; the host builds components)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.ui import (
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Button,
    Controls,
    Option,
    Select,
    button_rows,
)
from bot.games.mahjong.rules import describe
from bot.games.mahjong.tiles import INDEX, name


def _card(code: str) -> str:
    return name(INDEX[code])


def _selects(
    verb: str, placeholder: str, cards: list[str], drawn: str | None = None
) -> list[Select]:
    options = []
    for c in cards:
        label = _card(c) + (" (just drawn)" if c == drawn else "")
        options.append(Option(label=label[:100], value=c))
    rows = []
    for i in range(0, len(options), MAX_SELECT_OPTIONS):
        chunk = tuple(options[i : i + MAX_SELECT_OPTIONS])
        suffix = "" if len(options) <= MAX_SELECT_OPTIONS else f" ({i + 1}–{i + len(chunk)})"
        rows.append(Select(verb=verb, placeholder=placeholder + suffix, options=chunk))
    return rows


def controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    """The prompt and components for the seat's pending decision."""
    players = view.get("players", [])
    if not legal:
        if view.get("is_over"):
            return Controls(prompt="The game is over.")
        waiting = [players[s] for s in view.get("to_act", []) if s < len(players)]
        return Controls(prompt=f"Waiting for {', '.join(waiting) or 'the table'}.")
    phase = view.get("phase")
    legal = list(legal)
    if phase == "prelude":
        # Everyone is asked before play, four of a kind or not, so nobody can tell who holds four.
        if legal == ["pass"]:
            return Controls(
                prompt="Before play: you hold no four of a kind, nothing to declare: pass.",
                rows=((Button("Pass", "pass", "secondary"),),),
            )
        buttons = [Button(describe(c), c, "primary") for c in legal if c != "pass"]
        buttons.append(Button("Keep them in hand", "pass", "secondary"))
        return Controls(
            prompt="Before play: you hold four of a kind. Declare a concealed kong (you draw a replacement)?",
            rows=tuple(button_rows(buttons)[:MAX_ROWS]),
        )
    if phase == "claim":
        claim = view.get("claim") or {}
        by = claim.get("by")
        who = players[by] if by is not None and by < len(players) else "A player"
        card = _card(claim["card"]) if claim.get("card") else "a card"
        buttons = []
        for c in legal:
            style = "success" if c == "mahjong" else "secondary" if c == "pass" else "primary"
            buttons.append(Button(describe(c), c, style))
        # Every discard asks all the other players, so nobody can tell who holds a match.
        if legal == ["pass"]:
            prompt = f"{who} discarded {card}. You cannot claim it: pass."
        else:
            prompt = f"{who} discarded {card}. Claim it?"
        return Controls(
            prompt=prompt,
            rows=tuple(button_rows(buttons)[:MAX_ROWS]),
        )
    if legal == ["mahjong"]:
        return Controls(
            prompt="You drew your called card: Mah-Jongg!",
            rows=((Button("Mah-Jongg!", "mahjong", "success"),),),
        )
    drawn = view.get("drawn")
    discards = [c.split()[1] for c in legal if c.startswith("discard ")]
    declares = [c.split()[1] for c in legal if c.startswith("declare ")]
    buttons = []
    for c in legal:
        verb = c.split()[0]
        if verb == "mahjong":
            buttons.insert(0, Button("Mah-Jongg!", c, "success"))
        elif verb in ("kong", "extend"):
            buttons.append(Button(describe(c), c, "primary"))
    pending = view.get("pending_declare")
    if pending:
        prompt = (
            f"Standing hand calling {_card(pending)}: discard a card that keeps you one card "
            "from Mah-Jongg."
        )
    elif phase == "last_turns":
        prompt = "One more turn after the Mah-Jongg: discard a card (keep the groups that score)."
    else:
        prompt = "Your turn: discard a card" + (f" (you drew {_card(drawn)})." if drawn else ".")
    rows: list[tuple[Button, ...] | Select] = []
    rows.extend(_selects("discard", "Discard…", discards, drawn))
    rows.extend(button_rows(buttons)[:2])
    if declares:
        room = MAX_ROWS - len(rows)
        rows.extend(
            _selects("declare", "Declare a standing hand calling…", declares)[: max(0, room)]
        )
        prompt += " You may declare a standing hand (+100 if you win on the called card)."
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))
