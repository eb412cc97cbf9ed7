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
