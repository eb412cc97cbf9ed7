"""The Discord controls of a Panda seat (a pure description; the host builds components).

- Passing: one select per recipient still open (``give left``, ``give partner``, ``give
  right``); each pick is one action, the cards change hands when all four have chosen.
- Your turn: a multi-select of your hand (verb ``play``) to build any combination, a Pass
  button, one button per Ambush/Kingdom you can lay. When the Catfish could be read two
  ways, the select also offers "Catfish as the LOWER card" (``catfish=low``); the plain
  Catfish option means the higher reading.
- Out of turn: Ambush/Kingdom buttons and the Panda call.
- After the Stork: wish buttons; after a winning Panda: one button per opponent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.ui import (
    MAX_LABEL,
    MAX_ROWS,
    Button,
    Controls,
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

_DIRECTION_TEXT = {
    "left": "your left opponent, who plays after you",
    "partner": "your partner",
    "right": "your right opponent, who plays before you",
}


def controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    """The prompt and components for the seat's pending decision (or optional acts)."""
    seat = view.get("seat")
    if not legal or seat is None:
        if view.get("is_over"):
            return Controls(prompt="The match is over.")
        waiting = [view["players"][s] for s in view.get("to_act", [])]
        return Controls(prompt=f"Waiting for {', '.join(waiting) or 'the next hand'}.")
    names = view["players"]
    call_row = [Button("Call Panda! (+/-100)", "call", "success")] if "call" in legal else []
    if view["phase"] == "passing":
        return _passing(view, legal, call_row)
    pending = view.get("pending")
    if pending and pending["seat"] == seat and seat in view.get("to_act", []):
        if pending["kind"] == "wish":
            buttons = [Button("No wish", "wish none", "secondary")] + [
                Button(rank_name(r), f"wish {r}", "primary") for r in RANKS if f"wish {r}" in legal
            ]
            return Controls(
                prompt="You played the Stork: wish for a rank? Whoever can play it on their turn must.",
                rows=tuple(button_rows(buttons)),
            )
        buttons = [
            Button(f"Give it to {names[int(c.split()[1])]}", c, "primary")
            for c in legal
            if c.startswith("gift")
        ]
        return Controls(
            prompt="Your Panda won the trick: give the whole trick to an opponent. You lead next.",
            rows=(tuple(buttons),),
        )
    bombs = [c for c in legal if c.startswith("play") and _is_bomb(c)]
    bomb_buttons = [Button(describe(c)[:MAX_LABEL], c, "danger") for c in bombs]
    if seat not in view.get("to_act", []):
        parts = []
        if bombs:
            parts.append("you may lay an Ambush or Kingdom now, out of turn")
        if call_row:
            parts.append("you may call Panda (+100 if you go out first, -100 otherwise)")
        rows = button_rows(bomb_buttons + call_row)
        return Controls(
            prompt="Not your turn — " + " and ".join(parts) + ".", rows=tuple(rows[:MAX_ROWS])
        )
    return _turn(view, legal, bomb_buttons, call_row)


def _is_bomb(code: str) -> bool:
    parsed = parse_play(code.split()[1:])
    options = readings(parsed.cards) if not parsed.error else []
    return bool(options) and options[0].is_bomb


def _has_rank(code: str, rank: str) -> bool:
    """True if the play code holds a natural card of ``rank`` (the Catfish never counts)."""
    return any(w[:-1] == rank and w not in SPECIAL_NAMES for w in code.split()[1:])


def _passing(view: Mapping[str, Any], legal: Sequence[str], call_row: list[Button]) -> Controls:
    seat = view["seat"]
    names = view["players"]
    given = view.get("given") or {}
    open_dirs = [d for d in DIRECTIONS if any(c.startswith(f"give {d} ") for c in legal)]
    if not open_dirs:
        prompt = "Your cards are chosen; waiting for the others to choose theirs."
        if call_row:
            prompt += " You may still call Panda."
        return Controls(prompt=prompt, rows=(tuple(call_row),) if call_row else ())
    chosen = ", ".join(
        f"{card_name(c)} to {names[(seat + OFFSET[d]) % 4]}" for d, c in given.items()
    )
    prompt = (
        "Pass three cards: pick one card in each menu, one for each other player. "
        "They change hands when all four players have chosen."
    )
    if chosen:
        prompt += f" Chosen so far: {chosen}."
    rows: list[Any] = []
    for d in open_dirs:
        target = names[(seat + OFFSET[d]) % 4]
        cards = [c.split()[2] for c in legal if c.startswith(f"give {d} ")]
        rows.append(
            Select(
                verb=f"give {d}",
                placeholder=f"Card for {target} ({_DIRECTION_TEXT[d]})"[:100],
                options=tuple(_card_option(c) for c in cards),
            )
        )
    if call_row:
        rows.append(tuple(call_row))
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))


def _card_option(card: str, value: str | None = None) -> Option:
    pts = points(card)
    desc = f"{pts:+d} points" if pts else None
    label = SPECIAL_NAMES.get(card) or f"{card} · {card_name(card)}"
    return Option(label=label[:100], value=value or card, description=desc)


def _turn(
    view: Mapping[str, Any],
    legal: Sequence[str],
    bomb_buttons: list[Button],
    call_row: list[Button],
) -> Controls:
    names = view["players"]
    hand = list(view.get("hand") or [])
    trick = view.get("trick") or []
    leading = not trick or view.get("trick_won")
    wish = view.get("wish")
    plays = [c for c in legal if c.startswith("play")]
    # The wish binds when every play offered contains the wished rank (rule 9).
    forced = bool(wish) and bool(plays) and all(_has_rank(c, wish) for c in plays)
    if leading:
        prompt = "Your lead: choose the cards of a combination in the menu."
        if view.get("first_lead") and not view["options"].get("free_first_lead"):
            prompt += " The first lead must be the Stork or a combination with a 1."
        if forced:
            prompt += (
                f" The Stork's wish for {a_rank(wish)} stands and you hold one, "
                f"so your lead must contain {a_rank(wish)}."
            )
    else:
        last = trick[-1]
        beat = f"beat {last['label']} by {names[last['seat']]}"
        if forced:
            prompt = (
                f"Your turn: the Stork's wish for {a_rank(wish)} stands and you can {beat} "
                f"with a combination containing {a_rank(wish)}, so you must. "
                "Passing is not allowed."
            )
        else:
            prompt = f"Your turn: {beat} with the same kind and number of cards"
            prompt += ", or pass." if "pass" in legal else "."
    if wish and not forced:
        prompt += f" The Stork's wish for {a_rank(wish)} stands, but you cannot play one now."
    rows: list[Any] = []
    if plays:
        options = [_card_option(c) for c in hand]
        if any("catfish=" in c for c in plays):
            options.append(
                Option(
                    "Catfish as the LOWER card",
                    "catfish=low",
                    "The plain Catfish option reads it as the higher card",
                )
            )
            prompt += " The Catfish can be read two ways here: pick 'Catfish as the LOWER card' for the lower reading."
        rows.append(
            Select(
                verb="play",
                placeholder="Choose the cards to play",
                options=tuple(options),
                min_values=1,
                max_values=len(options),
            )
        )
    buttons: list[Button] = []
    if "pass" in legal:
        buttons.append(Button("Pass", "pass", "secondary"))
    buttons += call_row
    if buttons:
        rows.append(tuple(buttons))
    rows += button_rows(bomb_buttons)
    return Controls(prompt=prompt, rows=tuple(rows[:MAX_ROWS]))
