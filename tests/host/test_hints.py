"""Hints without Discord: the private answer names the AI's move in the words of the
player's own controls, for every game and decision met in seeded playouts; the Hint
button joins the controls without displacing any; the ``hints`` option is checked."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine.ui import Button, Controls, Form, Option, Select
from bot.games import GAME_NAMES, game_spec
from bot.host.components import controls_view
from bot.host.hints import hint_message, hint_words
from bot.host.options import game_options, shown_options, validate_options
from tests.engine.random_states import OPTIONS, new_state


def _labels(controls: Controls) -> list[str]:
    out = []
    for row in controls.rows:
        if isinstance(row, Form):
            out += [row.label] + [f.label for f in row.fields]
        elif isinstance(row, Select):
            out += [o.label for o in row.options]
        else:
            out += [b.label for b in row]
    return out


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_hint_says_the_move_as_the_controls_do(game: str) -> None:
    spec = game_spec(game)
    assert spec.hint is not None
    state = new_state(game, 4, OPTIONS[game][0])
    rng = random.Random(f"hint-words-{game}")
    checked = 0
    while not state.is_over and checked < 60 and state.version < 600:
        for seat in sorted(set(state.to_act) | set(state.may_act)):
            view, legal = state.view(seat), state.legal_actions(seat)
            code, reason = spec.hint(view, legal)
            message = hint_message(spec, view, legal)
            assert "\n" not in message
            if not code:  # advice to wait (an optional play kept for later)
                assert reason in message and "The AI would play" not in message
                continue
            words = hint_words(spec, view, legal, code)
            # The move is said once, in bold; the reason whole (the move bolded in it when
            # it names it).
            assert f"**{words}**" in message and message.count(words) == 1, message
            assert reason in message.replace(f"**{words}**", words)
            controls = spec.controls(view, legal)
            # Said with a control's own label, or the game's description of the move.
            assert any(label in words for label in _labels(controls)) or words.startswith(
                spec.describe(code)
            ), (game, code, words)
            checked += 1
        seats = list(state.to_act) or list(state.may_act)
        seat = rng.choice(seats)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked >= 20


def test_a_reason_that_begins_with_the_move_says_it_once() -> None:
    """Panda's pass hint ("Give Cat to your left: an opponent gets…") once read "The AI
    would play **Give Cat to your left** — Give Cat to your left: …"."""
    spec = game_spec("panda")
    hand = ["cat", "2t", "3t", "4t", "5t", "6t", "7t", "8t", "9t", "10t", "Bt", "Gt", "Et", "Mt"]
    view = {
        "seat": 0,
        "players": ["Ann", "Ben", "Cat", "Dov"],
        "phase": "passing",
        "hand": hand,
        "given": {},
        "to_act": [0],
        "version": 0,
        "options": {},
    }
    legal = [f"give {d} {c}" for d in ("left", "partner", "right") for c in hand]
    fake = dataclasses.replace(
        spec,
        hint=lambda v, lg: ("give left cat", "Give Cat to your left: a card you will not miss"),
    )
    message = hint_message(fake, view, legal)
    assert message.count("Give Cat to your left") == 1
    assert message == "💡 **Give Cat to your left**: a card you will not miss."


def test_a_bury_of_several_cards_names_each_card() -> None:
    spec = game_spec("sandayi")
    options = (Option("Q♠", "QS"), Option("J♠", "JS"), Option("4♠", "4S"))
    controls = Controls("Bury", (Select("bury", "Cards", options, 1, 3),))
    fake = dataclasses.replace(spec, controls=lambda view, legal: controls)
    assert hint_words(fake, {}, [], "bury JS 4S") == "Bury 2 cards: J♠, 4♠"


def test_a_one_word_button_is_said_whole() -> None:
    spec = game_spec("panda")
    controls = Controls("Wish", ((Button("9", "wish 9"), Button("Give it to Bob", "gift 1")),))
    fake = dataclasses.replace(spec, controls=lambda view, legal: controls)
    assert hint_words(fake, {}, [], "wish 9") == "Wish for a 9"
    assert hint_words(fake, {}, [], "gift 1") == "Give it to Bob"
    assert hint_words(fake, {}, [], "") == ""


def _rows(view) -> dict[int, list[str]]:
    rows: dict[int, list[str]] = {}
    for item in view.children:
        rows.setdefault(item.row, []).append(item.custom_id)
    return rows


def test_the_hint_button_takes_a_free_row_or_a_free_place() -> None:
    two = Controls("p", ((Button("A", "a"),), (Button("B", "b"), Button("C", "c"))))
    rows = _rows(controls_view(9, 1, 4, two, hint=True))
    assert rows == {0: ["th:a:9:1:4:a"], 1: ["th:a:9:1:4:b", "th:a:9:1:4:c"], 2: ["th:i:9:1:4"]}
    assert "th:i:9:1:4" not in str(_rows(controls_view(9, 1, 4, two)))
    full = Controls(
        "p",
        tuple(tuple(Button(f"{r}{i}", f"c{r}{i}") for i in range(5 if r else 4)) for r in range(5)),
    )
    rows = _rows(controls_view(9, 1, 4, full, hint=True))
    assert rows[0][-1] == "th:i:9:1:4" and len(rows[0]) == 5
    packed = Controls(
        "p", tuple(tuple(Button(f"{r}{i}", f"c{r}{i}") for i in range(5)) for r in range(5))
    )
    assert all(len(r) == 5 for r in _rows(controls_view(9, 1, 4, packed, hint=True)).values())
    assert controls_view(9, 1, 4, Controls("nothing"), hint=True).children == []


def test_the_hints_option() -> None:
    assert validate_options("koikoi", {"hints": False}) == {"hints": False}
    with pytest.raises(ValueError, match="true or false"):
        validate_options("koikoi", {"hints": 1})
    with pytest.raises(ValueError, match="hinted"):
        validate_options("koikoi", {"hinted": [0]})
    assert game_options({"rounds": 6, "hints": True, "hinted": [0]}) == {"rounds": 6}
    assert shown_options({"rounds": 6, "hints": True}) == "rounds: 6, hints: on"
    assert shown_options({"hints": True, "hinted": [1]}) == "hints: used (not rated)"
    assert shown_options({"hints": False}) == "hints: off"
