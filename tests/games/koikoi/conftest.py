"""Helpers for the Koi-Koi tests: stacked decks written as hand strings."""

from __future__ import annotations

import pytest

from bot.games.hanafuda.cards import ALL_CARDS, parse_cards


def stack_deck(dealer: str, second: str, board: str, stack_top: str = "") -> list[str]:
    """A full 48-card deck: the dealer's 8 cards, the Second's 8, the board's 8, then the
    stack (``stack_top`` first, the remaining cards after it in deck order)."""
    dealt = parse_cards(dealer), parse_cards(second), parse_cards(board)
    assert [len(p) for p in dealt] == [8, 8, 8], "hands and board take 8 cards each"
    top = parse_cards(stack_top)
    used = [c for part in dealt for c in part] + top
    assert len(set(used)) == len(used), "a card is used twice"
    return used + [c for c in ALL_CARDS if c not in used]


@pytest.fixture
def stacked():
    return stack_deck


# Alice (dealer, seat 0) takes the three poetry ribbons on turns 1, 3, 5 (Akatan); Bob takes
# the Boar, Deer and Butterflies on turns 2, 4, 6 (Ino-Shika-Chō). The flips never interfere.
KOIKOI_DEAL = dict(
    dealer="1r 2r 3r 4a 5a 8a 9a 11a",
    second="6a 7a 10a 4r 5r 9r 11r 12b",
    board="1p1 2p1 3p1 6p1 7p1 10p1 12p1 5p1",
    stack_top="4p1 8p1 9p1 11p1 4p2 8p2",
)
FIRST_FIVE_TURNS = ("play 1r", "play 7a", "play 2r", "play 10a", "play 3r")
# A plain deal with distinct months on the board, for the second deal of those tests.
PLAIN_DEAL = dict(
    dealer="1b 2a 3b 4a 5a 6a 7a 8b",
    second="1r 2r 4r 6r 7r 9r 10r 11a",
    board="9a 10a 11b 12b 1p1 2p1 3p1 4p1",
)


@pytest.fixture
def akatan_decks() -> list[list[str]]:
    """Two deals: the Akatan/Ino-Shika-Chō race above, then a plain deal."""
    return [stack_deck(**KOIKOI_DEAL), stack_deck(**PLAIN_DEAL)]


@pytest.fixture
def first_five_turns() -> tuple[str, ...]:
    """Alice's fifth-turn play makes Akatan: she must decide."""
    return FIRST_FIVE_TURNS
