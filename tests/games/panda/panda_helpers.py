"""Helpers for Panda tests: stacked hands after the passing, scripted moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.panda import new_game
from bot.games.panda.rules import PandaState
from bot.games.panda.stacking import fill, stack

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def start_hand(hands: Sequence[str], options: dict[str, Any] | None = None) -> PandaState:
    """A match whose first hand, after the passing, gives seat s the cards ``hands[s]``
    (completed to 15 cards with the unused cards)."""
    full = fill(hands)
    deck, codes = stack(full)
    state = new_game(7, NAMES, options, deck=deck)
    for seat, code in enumerate(codes):
        state.apply(seat, code)
    assert state.phase == "play"
    for seat in range(4):
        assert sorted(state.hands[seat]) == sorted(full[seat])
    return state


def everyone_passes(state: PandaState) -> None:
    """Seats pass in turn until the trick is won (or a Panda gift is pending)."""
    while state.pending is None and not state.trick_won and state.to_act:
        seat = state.to_act[0]
        state.apply(seat, "pass")
