"""Every seat's hand as it stood when a deal ended, from the match's log (pure: no Discord,
no Pillow).

A game deals its next deal inside the action that ends the current one, so the state after
that action already holds the new hands. The hands at the end of the deal are those each
seat held just before the deal-ending action, less the cards that action took from its
player's hand (the cards named in its code: ``play 5t 5g``, ``play 2p1 2p2`` — a board card
named as a target was never in the hand — or Panda's ``catfish=5``, the Catfish read as a
5). The other seats' hands are untouched by it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import game_spec

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DealEnd:
    """The hands of a deal that ended with action ``index`` (0-based in the log)."""

    index: int
    hands: tuple[tuple[str, ...], ...]


def _without_played(hand: Sequence[str], code: str) -> tuple[str, ...]:
    left = list(hand)
    for word in code.split()[1:]:
        card = word.split("=", 1)[0]
        if card in left:
            left.remove(card)
    return tuple(left)


def last_deal_end(
    game: str,
    seed: int | str,
    names: Sequence[str],
    options: Mapping[str, Any],
    log_: Sequence[tuple[int, str]],
) -> DealEnd | None:
    """The hands of the last deal that ended in ``log_`` (None if no deal has ended).

    ``options`` are the game's own (without the host's). Two replays: one to find the
    action that ended the last deal, one to the state just before it."""
    spec = game_spec(game)
    state = spec.new_game(seed, list(names), dict(options))
    ended: int | None = None
    for index, (seat, code) in enumerate(log_):
        events = state.apply(seat, code)
        state.events.clear()
        if any(e.kind == spec.deal_end_kind for e in events):
            ended = index
    if ended is None:
        return None
    before = spec.replay(seed, list(names), dict(options), list(log_[:ended]))
    hands = [spec.hand_of(before.view(s)) for s in range(before.num_seats)]
    seat, code = log_[ended]
    hands[seat] = list(_without_played(hands[seat], code))
    return DealEnd(ended, tuple(tuple(h) for h in hands))


__all__ = ["DealEnd", "last_deal_end"]
