"""Stacked decks for tests and demos: choose the hands players hold *after* the passing.

``stack(hands)`` returns a deck and the ``pass_cards`` codes that, played by seats 0..3,
leave seat ``s`` holding exactly ``hands[s]``: the last three cards listed for each seat
are the ones it receives (from its right opponent, partner and left opponent, in that
order). ``fill(partial)`` completes partial hands to 15 cards with the unused cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.panda.cards import ALL_CARDS, normalize_card

HAND = 15


def fill(partial: Sequence[Sequence[str] | str]) -> list[list[str]]:
    """Complete each hand to 15 cards with the unused cards, dealt round-robin. Fillers go
    *before* the listed cards, so the last three listed stay the ones received."""
    hands = [_cards(h) for h in partial]
    used = {c for h in hands for c in h}
    if len(used) != sum(len(h) for h in hands):
        raise ValueError("a card is listed twice")
    spare = [c for c in ALL_CARDS if c not in used]
    fillers: list[list[str]] = [[] for _ in hands]
    seat = 0
    for c in spare:
        # Round-robin, so fillers rarely make Ambushes by accident.
        while len(hands[seat]) + len(fillers[seat]) >= HAND:
            seat = (seat + 1) % len(hands)
        fillers[seat].append(c)
        seat = (seat + 1) % len(hands)
    return [f + h for f, h in zip(fillers, hands, strict=True)]


def stack(hands: Sequence[Sequence[str] | str]) -> tuple[list[str], list[str]]:
    """(deck, [pass code of seat 0, 1, 2, 3]) so that after the passing ``hands`` hold."""
    hs = [_cards(h) for h in hands]
    if sorted(c for h in hs for c in h) != sorted(ALL_CARDS) or any(len(h) != HAND for h in hs):
        raise ValueError("hands must be four lists of 15 cards, the whole deck")
    # received[s][k]: the card seat s gets from seat s-1-k ... i.e. from (s - offset) % 4.
    incoming = [h[-3:] for h in hs]
    dealt = [list(h[:-3]) for h in hs]
    codes = []
    for t in range(4):
        # t gives left to t+1, partner to t+2, right to t+3. Receiver r gets from giver
        # at offset o=(r - t) % 4 the card incoming[r][o - 1].
        gifts = [incoming[(t + o) % 4][o - 1] for o in (1, 2, 3)]
        dealt[t].extend(gifts)
        codes.append("pass_cards " + " ".join(gifts))
    deck = [c for h in dealt for c in h]
    return deck, codes


def _cards(h: Sequence[str] | str) -> list[str]:
    words = h.split() if isinstance(h, str) else list(h)
    out = []
    for w in words:
        c = normalize_card(w)
        if c is None:
            raise ValueError(f"not a card: {w}")
        out.append(c)
    return out
