"""The Mushi AI's choices in set positions."""

from __future__ import annotations

import random

from bot.games.mushi import DECK, choose, new_game
from bot.games.mushi.ai import _Position
from bot.games.mushi.rules import WILD, MushiState


def _position(hand: str, table: str, mine: str = "", top: str = "") -> MushiState:
    """Seat 0 (the elder, to play) holds ``hand``; ``table`` face up; ``mine`` its pile;
    seat 1 holds as many cards as seat 0, the first in deck order of the rest; the stock
    is the others, ``top`` (if given) its top card."""
    state = new_game(1, ["A", "B"], {})
    cards = [hand.split(), table.split(), mine.split()]
    used = {c for group in cards for c in group} | ({top} if top else set())
    rest = [c for c in DECK if c not in used]
    opp, rest = rest[: len(cards[0])], rest[len(cards[0]) :]
    state.hands = [cards[0], opp]
    state.stock = [*rest, top] if top else rest
    state.table = cards[1]
    state.captures = [cards[2], []]
    state.elder, state.current = 0, 0
    return state


def test_normal_chooses_the_flips_target_by_the_table_it_leaves() -> None:
    """The wild is flipped with two junk targets of equal worth (each month keeps one
    card unpaired for the wild's holder). Leaving 5p1 is safe: its last mate is in our
    hand, so we take it next turn; leaving 9p1 offers it to the opponent (9p2 is unseen).
    Normal once chose by the card alone (a coin toss here); now it takes 9p1."""
    state = _position("11r 5p2 10p1", "5p1 9p1", mine="5a 5r 9a 9r", top=WILD)
    state.apply(0, "play 11r")  # no match: the rain card is laid, the flip is the wild
    view, legal = state.view(0), state.legal_actions(0)
    assert view["phase"] == "choose_flip" and sorted(legal) == ["take 5p1", "take 9p1"]
    pos = _Position(view)
    assert pos.value([WILD, "5p1"]) == pos.value([WILD, "9p1"])
    assert pos.take_value("9p1") > pos.take_value("5p1")
    for seed in range(8):
        assert choose(view, legal, random.Random(seed)) == "take 9p1"
