"""Hints for newcomers: a **Hint** button next to a player's controls that shows them,
privately, what the AI would play and why in a line (the game's ``hint`` in its spec).

- **When.** The table option ``hints`` (``/<game> new hints:``) offers the button; left
  unset, the start decides: on when the table has an AI seat and a human who has finished
  fewer than :data:`NEWCOMER_MATCHES` matches of the game (in any server), else off.
  The decision is stored with the table's options, so a restart keeps it.
- **Unrated.** A match in which anyone asked for a hint is not rated: its result is
  recorded (``/history`` marks it) but no rating changes. The button says so on its face
  ("Hint (unrated)"), so one click shows the hint; the first hint a player gets in a match
  repeats it under the hint. The seats that used hints are stored in the table's options
  (``hinted``) before any hint is shown (the store reads them when it records the result:
  ``Store.record_result``), and the thread is told once per player.
- **Changes nothing.** A hint is checked like a move (the clicker's own seat, its current
  decision, a running table) and answered ephemerally; it never touches the game.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.spec import GameSpec
from bot.engine.ui import Form, Select
from bot.games import game_spec
from bot.host.table import Table
from bot.i18n import DEFAULT_LOCALE, Text, localize
from bot.store import SeatRow, Store
from bot.store.history import matches_played

log = logging.getLogger(__name__)

#: A player who has finished fewer matches of a game than this is a newcomer to it.
NEWCOMER_MATCHES = 3

UNRATED_NOTE = Text(
    "A match in which anyone asks for a hint is not rated: its result is recorded, "
    "but nobody's rating changes."
)


def hints_offered(table: Table) -> bool:
    """The table shows Hint buttons (its ``hints`` option, and the game gives hints)."""
    return table.options.get("hints") is True and table.spec.hint is not None


def hints_badge(table: Table, locale: str = DEFAULT_LOCALE) -> str:
    """What the table message's status line says about hints ("" when they are off)."""
    return str(localize(locale, Text(" · 💡 hints on"))) if hints_offered(table) else ""


def hint_words(spec: GameSpec, view: Mapping[str, Any], legal: Sequence[str], code: str) -> str:
    """The move ``code`` in the words the player's own controls use: the label of the
    button that makes it (unless that is one bare word in a row of choices, a rank or a
    card: the game's description then says it whole), else the game's description —
    followed by the labels of the select options it picks when the description does not
    name them (San Da Yi's "Bury 6 cards: Q♠, J♠, …")."""
    if not code:
        return ""
    controls = spec.controls(view, legal)
    for row in controls.rows:
        if isinstance(row, Form):  # its answers are said by the game's description
            continue
        if isinstance(row, Select):
            if not row.verb:
                label = next((o.label for o in row.options if o.value == code), None)
                if label:
                    return label
            continue
        for button in row:
            if button.code == code and " " in button.label.strip():
                return button.label
    label = spec.describe(code)
    words = code.split()
    for row in controls.rows:
        if not isinstance(row, Select) or not row.verb:
            continue
        verb = row.verb.split()
        if words[: len(verb)] != verb:
            continue
        labels = {o.value: o.label for o in row.options}
        picked = [v for v in words[len(verb) :] if v in labels]
        if picked and not any(_names(label, v, labels[v]) for v in picked):
            return Text("{move}: {cards}", move=label, cards=tuple(labels[v] for v in picked))
    return label


def _names(text: str, value: str, label: str) -> bool:
    """``text`` names the option (its value, its label, or a part of a ``a · b`` label)."""
    return any(part and part in text for part in (value, label, *label.split(" · ")))


def hint_message(
    spec: GameSpec, view: Mapping[str, Any], legal: Sequence[str], locale: str = DEFAULT_LOCALE
) -> str:
    """The private answer to a Hint click, in ``locale``: the move in the player's words
    and the reason."""
    assert spec.hint is not None
    code, reason = spec.hint(view, legal)
    words = hint_words(spec, view, legal, code)
    if not words:
        return str(localize(locale, Text("💡 {reason}.", reason=reason)))
    said, why = str(localize(locale, words)), str(localize(locale, reason))
    at = why.find(said) if said else -1
    if at >= 0:
        # The reason already names the move ("Give Cat to your left: an opponent gets…"):
        # it is said once, in bold where the reason says it.
        bold = f"{why[:at]}**{said}**{why[at + len(said) :]}"
        return str(localize(locale, Text("💡 {reason}.", reason=bold)))
    return str(
        localize(
            locale, Text("💡 The AI would play **{move}** — {reason}.", move=words, reason=reason)
        )
    )


async def settle_hints(store: Store, row: Any, seats: Sequence[SeatRow]) -> Any:
    """At the start, when the seats are known: the ``hints`` option the host left unset
    is decided (on for a newcomer playing with an AI) and stored. Returns the row with
    its options as stored."""
    options = dict(row.options)
    if isinstance(options.get("hints"), bool):
        return row
    humans = [s.user_id for s in seats if not s.is_ai and s.user_id is not None]
    on = False
    if humans and any(s.is_ai for s in seats) and game_spec(row.game).hint is not None:
        played = await matches_played(store, row.game, humans)
        on = any(played.get(user, 0) < NEWCOMER_MATCHES for user in humans)
    options["hints"] = on
    await store.update_table(row.id, options=options)
    log.info("table %s: hints %s", row.id, "on" if on else "off")
    return dataclasses.replace(row, options=options)


async def mark_hinted(store: Store, table: Table, seat: int) -> None:
    """Store that ``seat`` used a hint (before it is shown), merged with what the store
    holds (another process may have served a hint of another seat)."""
    row = await store.get_table(table.id)
    options = dict(row.options) if row is not None else dict(table.options)
    seats = set(options.get("hinted") or []) | set(table.options.get("hinted") or [])
    options["hinted"] = sorted(seats | {seat})
    await store.update_table(table.id, options=options)
    table.options["hinted"] = options["hinted"]
    log.info("table %s: seat %s used a hint; the match will not be rated", table.id, seat)


__all__ = [
    "NEWCOMER_MATCHES",
    "hint_message",
    "hint_words",
    "mark_hinted",
    "settle_hints",
    "hints_badge",
    "hints_offered",
]
