"""The Discord controls of a Panda seat (a pure description; the host builds components).

- Passing: one button opens a form with a card menu per recipient still open (``left``,
  ``partner``, ``right``): the three picks are sent together as one action (``give left 2t
  partner Mg right 3a``) and can be changed until then; the cards change hands when all
  four have chosen.
- Your turn: a multi-select of your hand (verb ``play``) to build any combination, a Pass
  button, one button per Ambush/Kingdom you can lay. When the Catfish could be read two
  ways, the select also offers "Catfish as the LOWER card" (``catfish=low``); the plain
  Catfish option means the higher reading.
- Out of turn: Ambush/Kingdom buttons and the Panda call.
- After the Stork: wish buttons; after a winning Panda: one button per opponent.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from bot.engine.ui import (
    MAX_FORM_LABEL,
    MAX_LABEL,
    MAX_ROWS,
    Button,
    Controls,
    Field,
    Form,
    Option,
    Select,
    button_rows,
)
from bot.games.panda.cards import (
    RANKS,
    SPECIAL_NAMES,
    a_rank,
    card_name,
    points,
    rank_name,
)
from bot.games.panda.combos import readings
from bot.games.panda.rules import DIRECTIONS, OFFSET, describe, parse_play
from bot.games.panda.text import commas, sentences
from bot.games.panda.views import PandaView
from bot.i18n.text import Text


def _fit(label: str, limit: int) -> str:
    """``label`` cut to Discord's ``limit`` (a :class:`Text` that fits is kept whole, so it
    can still be said in another language; the host cuts the translation if it must)."""
    return label if len(label) <= limit else label[:limit]


def controls(view: PandaView, legal: Sequence[str]) -> Controls:
    """The prompt and components for the seat's pending decision (or optional acts)."""
    seat = view.get("seat")
    if not legal or seat is None:
        if view.get("is_over"):
            return Controls(prompt=Text("The match is over.", context="panda"))
        waiting = [view["players"][s] for s in view.get("to_act", [])]
        if not waiting:
            return Controls(prompt=Text("Waiting for the next hand."))
        return Controls(prompt=Text("Waiting for {names}.", context="panda", names=commas(waiting)))
    names = view["players"]
    call_row = [Button(Text("Call Panda! (+/-100)"), "call", "success")] if "call" in legal else []
    if view["phase"] == "passing":
        return _passing(view, legal, call_row)
    pending = view.get("pending")
    if pending and pending["seat"] == seat and seat in view.get("to_act", []):
        if pending["kind"] == "wish":
            buttons = [Button(Text("No wish"), "wish none", "secondary")] + [
                Button(rank_name(r), f"wish {r}", "primary") for r in RANKS if f"wish {r}" in legal
            ]
            return Controls(
                prompt=Text(
                    "You played the Stork: wish for a rank? Whoever can play it on their turn must."
                ),
                rows=tuple(button_rows(buttons)),
            )
        buttons = [
            Button(Text("Give it to {name}", name=names[int(c.split()[1])]), c, "primary")
            for c in legal
            if c.startswith("gift")
        ]
        return Controls(
            prompt=Text(
                "Your Panda won the trick: give the whole trick to an opponent. You lead next."
            ),
            rows=(tuple(buttons),),
        )
    bombs = [c for c in legal if c.startswith("play") and _is_bomb(c)]
    bomb_buttons = [Button(_fit(describe(c), MAX_LABEL), c, "danger") for c in bombs]
    if seat not in view.get("to_act", []):
        if bombs and call_row:
            prompt = Text(
                "Not your turn — you may lay an Ambush or Kingdom now, out of turn and you may "
                "call Panda (+100 if you go out first, -100 otherwise)."
            )
        elif bombs:
            prompt = Text("Not your turn — you may lay an Ambush or Kingdom now, out of turn.")
        else:
            prompt = Text(
                "Not your turn — you may call Panda (+100 if you go out first, -100 otherwise)."
            )
        rows = button_rows(bomb_buttons + call_row)
        return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))
    return _turn(view, legal, bomb_buttons, call_row)


def _is_bomb(code: str) -> bool:
    parsed = parse_play(code.split()[1:])
    options = readings(parsed.cards) if not parsed.error else []
    return bool(options) and options[0].is_bomb


def _has_rank(code: str, rank: str) -> bool:
    """True if the play code holds a natural card of ``rank`` (the Catfish never counts)."""
    return any(w[:-1] == rank and w not in SPECIAL_NAMES for w in code.split()[1:])


def _passing(view: PandaView, legal: Sequence[str], call_row: list[Button]) -> Controls:
    seat = view["seat"]
    assert seat is not None  # (controls() answered a spectator)
    names = view["players"]
    given = view.get("given") or {}
    open_dirs = [d for d in DIRECTIONS if any(c.startswith(f"give {d} ") for c in legal)]
    if not open_dirs:
        prompt = sentences(
            Text("Your cards are chosen; waiting for the others to choose theirs."),
            Text("You may still call Panda.") if call_row else None,
        )
        return Controls(prompt=prompt, rows=(tuple(call_row),) if call_row else ())
    chosen = commas(
        [
            Text("{card} to {name}", card=card_name(c), name=names[(seat + OFFSET[d]) % 4])
            for d, c in given.items()
        ]
    )
    prompt = sentences(
        Text(
            "Pass three cards: press **Choose the cards to pass**, pick one card for each "
            "other player (change them freely), then send. They change hands when all four "
            "players have chosen."
        ),
        Text("Chosen so far: {cards}.", cards=chosen) if chosen else None,
    )
    fields = []
    for d in open_dirs:
        target = names[(seat + OFFSET[d]) % 4]
        cards = [c.split()[2] for c in legal if c.startswith(f"give {d} ")]
        fields.append(
            Field(
                key=d,
                label=_fit(Text("Card for {name}", name=target), MAX_FORM_LABEL),
                options=tuple(_card_option(c) for c in cards),
                description=_relation(d),
            )
        )
    # One form for the three cards: one step to send, any pick changed until then.
    rows: list[Any] = [
        Form(
            label=Text("Choose the cards to pass"),
            verb="give",
            title=Text("Pass three cards"),
            fields=tuple(fields),
        )
    ]
    if call_row:
        rows.append(tuple(call_row))
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))


def _relation(direction: str) -> str:
    """Who the recipient is to the player (under the recipient's name in the form)."""
    if direction == "left":
        return Text("Your left opponent, who plays after you")
    if direction == "partner":
        return Text("Your partner")
    return Text("Your right opponent, who plays before you")


@functools.cache  # 56 cards; every pass and play menu lists a hand of them on every DM refresh
def _card_option(card: str, value: str | None = None) -> Option:
    pts = points(card)
    desc = Text("{points:+d} points", points=pts) if pts else None
    label = SPECIAL_NAMES.get(card) or card_name(card)
    return Option(label=_fit(label, 100), value=value or card, description=desc)


def _turn(
    view: PandaView,
    legal: Sequence[str],
    bomb_buttons: list[Button],
    call_row: list[Button],
) -> Controls:
    names = view["players"]
    hand = list(view.get("hand") or [])
    trick = view.get("trick") or []
    leading = not trick or view.get("trick_won")
    wish: str = view.get("wish") or ""  # (the rank wished for; "" for none)
    plays = [c for c in legal if c.startswith("play")]
    # The wish binds when every play offered contains the wished rank (rule 9).
    forced = bool(wish) and bool(plays) and all(_has_rank(c, wish) for c in plays)
    wish_for = a_rank(wish) if wish else None
    if leading:
        prompt = sentences(
            Text("Your lead: choose the cards of a combination in the menu."),
            Text("The first lead must be the Stork or a combination with a 1.")
            if view.get("first_lead") and not view["options"].get("free_first_lead")
            else None,
            Text(
                "The Stork's wish for {rank} stands and you hold one, so your lead must "
                "contain {rank}.",
                rank=wish_for,
            )
            if forced
            else None,
        )
    else:
        last = trick[-1]
        top, by = last["label"], names[last["seat"]]
        if forced:
            prompt = Text(
                "Your turn: the Stork's wish for {rank} stands and you can beat {combo} by "
                "{name} with a combination containing {rank}, so you must. "
                "Passing is not allowed.",
                rank=wish_for,
                combo=top,
                name=by,
            )
        elif "pass" in legal:
            prompt = Text(
                "Your turn: beat {combo} by {name} with the same kind and number of cards, "
                "or pass.",
                combo=top,
                name=by,
            )
        else:
            prompt = Text(
                "Your turn: beat {combo} by {name} with the same kind and number of cards.",
                combo=top,
                name=by,
            )
    if wish and not forced:
        prompt = sentences(
            prompt,
            Text("The Stork's wish for {rank} stands, but you cannot play one now.", rank=wish_for),
        )
    rows: list[Any] = []
    if plays:
        options = [_card_option(c) for c in hand]
        if any("catfish=" in c for c in plays):
            options.append(
                Option(
                    Text("Catfish as the LOWER card"),
                    "catfish=low",
                    Text("The plain Catfish option reads it as the higher card"),
                )
            )
            prompt = sentences(
                prompt,
                Text(
                    "The Catfish can be read two ways here: pick 'Catfish as the LOWER card' "
                    "for the lower reading."
                ),
            )
        rows.append(
            Select(
                verb="play",
                placeholder=Text("Choose the cards to play"),
                options=tuple(options),
                min_values=1,
                max_values=len(options),
            )
        )
    buttons: list[Button] = []
    if "pass" in legal:
        buttons.append(Button(Text("Pass", context="panda"), "pass", "secondary"))
    buttons += call_row
    if buttons:
        rows.append(tuple(buttons))
    rows += button_rows(bomb_buttons)
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))
