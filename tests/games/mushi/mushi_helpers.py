"""Shared helpers for the Mushi tests."""

from __future__ import annotations

from bot.games.mushi.rules import MushiState


def swap_hidden(state: MushiState, seat: int) -> MushiState:
    """A twin of ``state`` whose opponent of ``seat`` holds the stock's first card in place
    of its hand's first (and the stock that card): ``seat``'s view is the same."""
    opp = 1 - seat
    twin = state.clone()
    assert isinstance(twin, MushiState)
    twin.hands[opp][0], twin.stock[0] = twin.stock[0], twin.hands[opp][0]
    assert twin.hands[opp] != state.hands[opp]
    assert twin.view(seat) == state.view(seat)
    return twin
