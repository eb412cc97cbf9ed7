"""Shared helpers for the Mah-Jongg tests: stacked decks, hands, random playouts."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from bot.games.mahjong import new_game
from bot.games.mahjong.rules import MahjongState
from bot.games.mahjong.scoring import PlayerHand
from bot.games.mahjong.tiles import CODES, FULL_SET, NUM_KINDS, counts_of, tiles

PLAYERS = ["Ann", "Ben", "Cat", "Dov"]
FIXED = {"random_seats": False}  # player i starts in wind i (0 = East = round player)


def full_deck(
    east: str, south: str, west: str, north: str, wall: str = "", box: str = ""
) -> list[str]:
    """A 144-card deck: the four hands (East 14 cards), the live wall's first draws, the
    remaining cards in a fixed order, and (optionally) the kong box's first cards."""
    front = [*east.split(), *south.split(), *west.split(), *north.split(), *wall.split()]
    assert len(east.split()) == 14 and all(len(h.split()) == 13 for h in (south, west, north)), (
        "East holds 14 cards, the others 13"
    )
    box_cards = box.split()
    left = Counter(CODES[t] for t in FULL_SET)
    left.subtract(front + box_cards)
    assert all(v >= 0 for v in left.values()), (
        f"too many copies: {[k for k, v in left.items() if v < 0]}"
    )
    rest = [c for c in CODES for _ in range(left[c])]
    # the box is the last 14 cards; its first cards are the ones asked for
    filler = rest[: len(rest) - (14 - len(box_cards))]
    tail = rest[len(rest) - (14 - len(box_cards)) :]
    deck = front + filler + box_cards + tail
    assert len(deck) == 144
    return deck


def game(deck: Any, **options: Any) -> MahjongState:
    """A game from a stacked deck; a prelude with nothing to declare is passed through."""
    state = new_game(1, PLAYERS, {**FIXED, **options}, deck=deck)
    skip_empty_prelude(state)
    return state


def skip_empty_prelude(state: MahjongState) -> None:
    """Before play every player is asked about concealed kongs, four of a kind or not (so
    nobody learns who holds four). When nobody holds four, everyone's only answer is
    ``pass``: answer it, so that a test starts at the round player's first turn."""
    while (
        state.phase == "prelude"
        and not state.is_over
        and all(state.legal_actions(s) == ["pass"] for s in state.to_act)
    ):
        state.apply(state.to_act[0], "pass")


def pass_prelude(state: MahjongState) -> None:
    """Everyone still asked before play passes (keeps any four of a kind in hand)."""
    while state.phase == "prelude" and not state.is_over:
        state.apply(state.to_act[0], "pass")


def hand(
    cards: str, melds: tuple = (), own: int = 0, round_: int = 0, extras: str = ""
) -> PlayerHand:
    return PlayerHand(
        tuple(counts_of(tiles(cards))), tuple(melds), tuple(tiles(extras)), own, round_
    )


def play(state: MahjongState, seat: int, *codes: str) -> None:
    for c in codes:
        state.apply(seat, c)


def all_cards(state: MahjongState) -> Counter:
    """Every card the state holds anywhere (must always be the full 144)."""
    out: Counter = Counter()
    out.update(state.live[state.live_pos : state.live_end])
    out.update(state.box[state.box_pos :])
    for p in range(4):
        for t, n in enumerate(state.conc[p]):
            out[t] += n
        out.update(state.held_extras[p])
        out.update(state.extras[p])
        out.update(state.river[p])
        for kind, t, _ in state.melds[p]:
            if kind == "chow":
                out.update([t, t + 1, t + 2])
            else:
                out[t] += 4 if kind == "kong" else 3
    return out


FULL = Counter(FULL_SET)


def pass_claims(state: MahjongState) -> None:
    """Everyone still asked in a claim window passes, until no window is open.

    Every discard asks all three other players, able to claim or not (then ``pass`` is
    their only answer), so that nobody learns who holds a matching card; a test that only
    cares about the play around a window lets everyone pass."""
    while state.phase == "claim" and not state.is_over:
        state.apply(state.to_act[0], "pass")


def random_playout(
    state: MahjongState, rng: random.Random, steps: int = 100000, check=None
) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, rng.choice(legal))
        if check:
            check(state)


def swap_hidden(state: MahjongState, p: int) -> MahjongState:
    """A copy of ``state`` with one card of seat ``p``'s concealed hand swapped for a
    different card of the live wall: the same game for every seat that sees neither."""
    other = copy.deepcopy(state)
    mine = next(t for t in range(NUM_KINDS) if other.conc[p][t])
    j = next(
        i
        for i in range(other.live_pos, other.live_end)
        if other.live[i] < NUM_KINDS and other.live[i] != mine
    )
    other.conc[p][mine] -= 1
    other.conc[p][other.live[j]] += 1
    other.live[j] = mine
    return other


def hidden_from(state: MahjongState, seat: int) -> list[int]:
    """Copies of each card ``seat`` cannot see in the true state: the concealed hands of
    the opponents not standing (a standing hand is shown), the live wall, the kong box."""
    standing = state.view(seat)["standing"] or [None] * 4
    out = [0] * NUM_KINDS
    for p in range(4):
        if p != seat and not standing[p]:
            for t in range(NUM_KINDS):
                out[t] += state.conc[p][t]
    for t in state.live[state.live_pos : state.live_end] + state.box[state.box_pos :]:
        if t < NUM_KINDS:
            out[t] += 1
    return out
