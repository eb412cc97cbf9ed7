"""The Discord controls of a Mah-Jongg seat (a pure description; the host builds components).

Every prompt, label and placeholder is a :class:`~bot.i18n.text.Text`: English here, said in
the player's language by the host (``bot.i18n.localize``)."""

from __future__ import annotations

from collections.abc import Sequence

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
from bot.games.mahjong.views import MahjongView
from bot.i18n.text import Text, commas

GAME_OVER = Text("The game is over.")
DECLARE_PLACEHOLDER = Text("Declare a standing hand calling…")


def _card(code: str) -> Text:
    return name(INDEX[code])


def _selects(
    verb: str, placeholder: Text, cards: list[str], drawn: str | None = None
) -> list[Select]:
    options = []
    for c in cards:
        label = Text("{card} (just drawn)", card=_card(c)) if c == drawn else _card(c)
        options.append(Option(label=label, value=c))
    rows = []
    for i in range(0, len(options), MAX_SELECT_OPTIONS):
        chunk = tuple(options[i : i + MAX_SELECT_OPTIONS])
        if len(options) <= MAX_SELECT_OPTIONS:
            text = placeholder
        else:
            text = Text(
                "{placeholder} ({first}–{last})",
                placeholder=placeholder,
                first=i + 1,
                last=i + len(chunk),
            )
        rows.append(Select(verb=verb, placeholder=text, options=chunk))
    return rows


def _discard_buttons(
    discards: Sequence[str], hand: Sequence[str], drawn: str | None
) -> list[Button]:
    """One button per distinct card that may be discarded, in the order of the hand (one
    tap discards it); the card just drawn stands out."""
    order = {code: i for i, code in reversed(list(enumerate(hand)))}
    ranked = sorted(discards, key=lambda c: (order.get(c, len(order)), INDEX[c]))
    return [
        Button(_card(c), f"discard {c}", "primary" if c == drawn else "secondary") for c in ranked
    ]


def _turn_prompt(pending: str | None, last: bool, drawn: str | None, declares: bool) -> Text:
    """The prompt of a turn: what to discard, and whether a standing hand may be declared."""
    if pending:
        return Text(
            "Standing hand calling {card}: discard a card that keeps you one card from Mah-Jongg.",
            card=_card(pending),
        )
    if last:
        return Text(
            "One more turn after the Mah-Jongg: discard a card (keep the groups that score)."
        )
    if drawn and declares:
        return Text(
            "Your turn: discard a card (you drew {card}). You may declare a standing hand "
            "(+100 if you win on the called card).",
            card=_card(drawn),
        )
    if drawn:
        return Text("Your turn: discard a card (you drew {card}).", card=_card(drawn))
    if declares:
        return Text(
            "Your turn: discard a card. You may declare a standing hand "
            "(+100 if you win on the called card)."
        )
    return Text("Your turn: discard a card.")


def controls(view: MahjongView, legal: Sequence[str]) -> Controls:
    """The prompt and components for the seat's pending decision."""
    players = view.get("players", [])
    if not legal:
        if view.get("is_over"):
            return Controls(prompt=GAME_OVER)
        waiting = [players[s] for s in view.get("to_act", []) if s < len(players)]
        if not waiting:
            return Controls(prompt=Text("Waiting for the table."))
        return Controls(prompt=Text("Waiting for {names}.", names=commas(waiting)))
    phase = view.get("phase")
    legal = list(legal)
    if phase == "prelude":
        # (The host asks only those holding four and passes for the others: this is
        # only what a bare ``pass`` would show.)
        if legal == ["pass"]:
            return Controls(
                prompt=Text("Before play: you hold no four of a kind, nothing to declare: pass."),
                rows=((Button(describe("pass"), "pass", "secondary"),),),
            )
        buttons = [Button(describe(c), c, "primary") for c in legal if c != "pass"]
        buttons.append(Button(Text("Keep them in hand"), "pass", "secondary"))
        return Controls(
            prompt=Text(
                "Before play: you hold four of a kind. "
                "Declare a concealed kong (you draw a replacement)?"
            ),
            rows=tuple(button_rows(buttons)[:MAX_ROWS]),
        )
    if phase == "claim":
        claim = view.get("claim")
        by = claim["by"] if claim else None
        who = players[by] if by is not None and by < len(players) else Text("A player")
        card = _card(claim["card"]) if claim and claim["card"] else Text("a card")
        buttons = []
        for c in legal:
            style = "success" if c == "mahjong" else "secondary" if c == "pass" else "primary"
            buttons.append(Button(describe(c), c, style))
        # (The host asks only those who can claim and passes for the others when the
        # window closes: this is only what a bare ``pass`` would show.)
        if legal == ["pass"]:
            prompt = Text(
                "{name} discarded {card}. You cannot claim it: pass.", name=who, card=card
            )
        else:
            prompt = Text("{name} discarded {card}. Claim it?", name=who, card=card)
        return Controls(
            prompt=prompt,
            rows=tuple(button_rows(buttons)[:MAX_ROWS]),
        )
    if legal == ["mahjong"]:
        return Controls(
            prompt=Text("You drew your called card: Mah-Jongg!"),
            rows=((Button(describe("mahjong"), "mahjong", "success"),),),
        )
    drawn = view.get("drawn")
    discards = [c.split()[1] for c in legal if c.startswith("discard ")]
    declares = [c.split()[1] for c in legal if c.startswith("declare ")]
    buttons = []
    for c in legal:
        verb = c.split()[0]
        if verb == "mahjong":
            buttons.insert(0, Button(describe(c), c, "success"))
        elif verb in ("kong", "extend"):
            buttons.append(Button(describe(c), c, "primary"))
    pending = view.get("pending_declare")
    prompt = _turn_prompt(pending, phase == "last_turns", drawn, bool(declares) and not pending)
    # At most 14 distinct cards: three rows of five, leaving two rows for Mah-Jongg and
    # kongs (and the Hint) and the standing-hand menu. When strict mode's 34 calls take two
    # menus, the other buttons follow the cards in their rows.
    tiles = _discard_buttons(discards, view.get("hand") or [], drawn)
    menus = _selects("declare", DECLARE_PLACEHOLDER, declares) if declares else []
    button_part = button_rows(tiles) + button_rows(buttons)
    if len(button_part) + len(menus) > MAX_ROWS:
        button_part = button_rows(tiles + buttons)
    rows: list[tuple[Button, ...] | Select] = [*button_part, *menus]
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))
