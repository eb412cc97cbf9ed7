"""The Discord controls: within Discord's limits, every legal action reachable, no other."""

from __future__ import annotations

import random

import pytest

from bot.engine.ui import MAX_BUTTONS_PER_ROW, MAX_LABEL, MAX_ROWS, MAX_SELECT_OPTIONS, Select
from bot.games.mahjong import choose, controls, describe, new_game

try:
    from .mahjong_helpers import full_deck, game
except ImportError:
    from mahjong_helpers import full_deck, game

PLAYERS = ["Ann", "Ben", "Cat", "Dov"]


def reachable(ctrl) -> set[str]:  # type: ignore[no-untyped-def]
    codes = set(ctrl.codes())
    for row in ctrl.rows:
        if isinstance(row, Select):
            codes.update(row.code_for([o.value]) for o in row.options)
    return codes


def check(ctrl, legal: list[str]) -> None:  # type: ignore[no-untyped-def]
    assert ctrl.prompt
    assert len(ctrl.rows) <= MAX_ROWS
    for row in ctrl.rows:
        if isinstance(row, Select):
            assert 1 <= len(row.options) <= MAX_SELECT_OPTIONS
        else:
            assert 1 <= len(row) <= MAX_BUTTONS_PER_ROW
            assert all(len(b.label) <= MAX_LABEL for b in row)
    got = reachable(ctrl)
    assert got <= set(legal), got - set(legal)
    assert got == set(legal), set(legal) - got


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("player", ["ai", "random"])
def test_controls_cover_exactly_the_legal_actions(strict: bool, player: str) -> None:
    """In whole games (AI or uniformly random moves, strict mode's 34 standing-hand calls
    included) every seat's controls stay within Discord's limits and reach exactly its legal
    actions."""
    for seed in range(1 if player == "ai" else 8):
        rng = random.Random(seed)
        g = new_game(9 + seed, PLAYERS, {"max_hands": 3, "strict": strict})
        while not g.is_over:
            for seat in range(4):
                legal = g.legal_actions(seat)
                ctrl = controls(g.view(seat), legal)
                if legal:
                    check(ctrl, legal)
                else:
                    assert ctrl.rows == ()
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            code = choose(g.view(seat), legal, rng) if player == "ai" else rng.choice(legal)
            g.apply(seat, code)


def test_describe_labels() -> None:
    assert describe("discard 5d") == "Discard 5 Dots"
    assert describe("kong E") == "Concealed kong of East wind"
    assert describe("extend C") == "Add Red dragon to your pung"
    assert describe("declare 9b") == "Declare standing hand on 9 Bamboo"
    assert describe("chow 3c 4c 5c") == "Chow 3-4-5 Characters"
    assert describe("mahjong") == "Mah-Jongg!"
    assert describe("pass") == "Pass"


def test_a_claim_window_with_nothing_to_claim_offers_only_pass() -> None:
    """Every discard asks all three others (so nobody learns who holds a match): a seat
    that cannot claim is told so and gets a single Pass button."""
    south = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 2c"
    west = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
    north = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N"
    g = game(full_deck(east, south, west, north, wall="F P C"))
    g.apply(0, "discard N")
    ctrl = controls(g.view(2), g.legal_actions(2))
    check(ctrl, ["pass"])
    assert "cannot claim" in ctrl.prompt and "Ann discarded North wind" in ctrl.prompt


def test_a_discard_is_one_button_per_distinct_card_in_hand_order() -> None:
    """One tap discards: a button per distinct card, named as people name it, in the order
    of the hand; 14 distinct cards take three rows and leave room for the rest."""
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E S W C 5b"
    south = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 2c"
    west = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
    north = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"
    g = game(full_deck(east, south, west, north, wall="F P N"))
    legal = g.legal_actions(0)
    ctrl = controls(g.view(0), legal)
    check(ctrl, legal)
    tile_rows = [r for r in ctrl.rows if not isinstance(r, Select)][:3]
    buttons = [b for row in tile_rows for b in row]
    assert [b.code for b in buttons] == [f"discard {c}" for c in g.view(0)["hand"]]
    assert [str(b.label) for b in buttons[:4]] == ["1 Bamboo", "2 Bamboo", "3 Bamboo", "5 Bamboo"]
    assert len(buttons) == 14 and [len(r) for r in tile_rows] == [5, 5, 4]
    assert not any(isinstance(r, Select) and r.verb == "discard" for r in ctrl.rows)
