"""The opponent's hand read from every card it laid this hand (``opponent_reading``,
stop 39's switched-off reading in ``bench/mushi_variants.py``), and its two uses."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bench.baselines import mushi_greedy
from bench.mushi_variants import (
    ReadingPosition,
    choose_read,
    choose_strong_sampled,
    opponent_reading,
    sample_read,
)
from bot.engine.search import Budget
from bot.games.mushi import choose, new_game
from bot.games.mushi.ai import _Position
from bot.games.mushi.rules import MONTH, WILD
from bot.games.mushi.strong import choose_strong, searchable, unseen_cards

FIXED = Budget(samples=6, seconds=None)  # deterministic: no clock


def _move(kind: str, seat: int, card: str, took: str = "") -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "card": card, "took": took.split()}


# Turn 1: seat 1 laid 5a on 1b 3b 8a 9a 10p1 (so it holds no Pine, Cherry, Pampas,
# Chrysanthemum nor Maple, nor the wild, which had targets); turn 2: seat 0 took the Crane;
# turn 3: seat 1 laid 4a on 3b 9a 8a 5a 12p1 — no Pine nor Maple there, but a hand only
# shrinks, so they stay read.
PLAYS = [
    _move("play", 1, "5a"),
    _move("flip", 1, "10a", "10p1"),
    _move("play", 0, "1p1", "1b"),
    _move("flip", 0, "12p1"),
    _move("play", 1, "4a"),
    _move("flip", 1, "2p1"),
]
TABLE = ["3b", "9a", "8a", "5a", "12p1", "4a", "2p1"]


def _view(plays: list[dict[str, Any]], table: list[str]) -> dict[str, Any]:
    return {"seat": 0, "table": table, "plays": plays}


def test_an_earlier_laid_card_proves_a_month_absent() -> None:
    # Undone: before turn 3 the table was 3b 9a 8a 5a 12p1; before turn 1, 1b 3b 9a 8a 10p1.
    months, no_wild = opponent_reading(_view(PLAYS, TABLE))
    assert months == {1, 3, 5, 8, 9, 10, 12}
    assert no_wild
    # The last turn alone (stop 38's reading) knows nothing of the Pine (1) nor Maple (10).
    last, _ = opponent_reading(_view(PLAYS[2:], TABLE))
    assert last == {3, 5, 8, 9, 12}
    # The seat's own laid cards say nothing of the opponent (seat 0 only captured).
    assert opponent_reading({"seat": 1, "table": TABLE, "plays": PLAYS}) == (frozenset(), False)


def test_a_card_played_that_the_reading_said_absent_drops_the_reading() -> None:
    plays = [
        *PLAYS,
        _move("play", 0, "2p2", "2p1"),
        _move("flip", 0, "11r"),
        _move("play", 1, "3p1", "3b"),
    ]
    table = ["9a", "8a", "5a", "12p1", "4a", "11r"]
    assert opponent_reading(_view(plays, table)) == (frozenset(), False)


def test_a_willow_laid_by_the_wild_on_the_table_reads_nothing() -> None:
    plays = [_move("play", 1, "11b"), _move("flip", 1, "9p1")]
    assert opponent_reading(_view(plays, ["2p1", "11p1", "11b", "9p1"])) == (frozenset(), False)


def test_normal_drops_the_risk_of_months_the_opponent_lacks() -> None:
    view = new_game(2, ["a", "b"], {"four_of_a_kind_cancel": False}).view(0)
    table = list(view["table"])
    blind = _Position(view)
    laid = next(c for c in blind.unseen if MONTH[c] not in {MONTH[t] for t in table})
    # As if the opponent had laid ``laid`` on this table (and its flip had gone nowhere).
    seen = {**view, "table": [*table, laid], "plays": [_move("play", 1, laid)]}
    assert opponent_reading(seen) == ({MONTH[t] for t in table if t != WILD}, True)
    plain, read = _Position(seen), ReadingPosition(seen)
    assert plain.risk(table, None) > 0 and read.risk(table, None) == 0
    assert read.sure_stock == {
        c for c in plain.unseen if c == WILD or MONTH[c] in {MONTH[t] for t in table}
    }
    assert read.pool == len(plain.unseen) - len(read.sure_stock)


def _greedy_positions(seeds: range):
    for seed in seeds:
        state = new_game(seed, ["a", "b"], {"hands": 6})
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            if seat == 0:
                yield state, view
                code = choose(view, legal, rng)
            else:
                code = mushi_greedy(view, legal, rng)
            state.apply(seat, code)


def test_the_months_read_are_never_in_the_hand_of_a_greedy_opponent() -> None:
    decisions = read = 0
    for state, view in _greedy_positions(range(40)):
        months, no_wild = opponent_reading(view)
        held = state.hands[1]
        assert not any(c != WILD and MONTH[c] in months for c in held), (view["plays"], held)
        assert not (no_wild and WILD in held)
        decisions += 1
        read += len(months)
    assert decisions > 1500 and read / decisions > 1.0


def test_strong_samples_respect_the_reading_and_hold_only_unseen_cards() -> None:
    """With the reading trusted, no sample deals the opponent a card it cannot hold; every
    sample deals exactly the cards the seat has not seen (never one it cannot know)."""
    dealt = 0
    for _state, view in _greedy_positions(range(6)):
        if not view["hand"] or view["phase"] != "play":
            continue
        months, no_wild = opponent_reading(view)
        unseen = Counter(unseen_cards(view))
        for k in range(2):
            world = sample_read(view, random.Random(k), trust=1.0)
            assert Counter(world.hands[1]) + Counter(world.stock) == unseen
            assert not any(c != WILD and MONTH[c] in months for c in world.hands[1])
            assert not (no_wild and WILD in world.hands[1])
            dealt += 1
    assert dealt > 200


def test_with_nothing_read_the_variants_play_as_the_shipped_levels() -> None:
    """No reading (a view without the opponent's plays): ``normal`` reading it chooses as
    ``normal``; ``strong`` sampling by it with ``trust`` 0 chooses as ``strong`` (the same
    dice), so the bench's variants differ from the levels only by what they read."""
    compared = searched = 0
    for state, view in _greedy_positions(range(2)):
        legal = state.legal_actions(0)
        blank = {**view, "plays": []}
        assert opponent_reading(blank) == (frozenset(), False)
        assert choose_read(blank, legal, random.Random(3)) == choose(blank, legal, random.Random(3))
        if searchable(blank, legal):
            sampled = choose_strong_sampled(
                blank, legal, random.Random(4), lambda v, r: sample_read(v, r, 0.0), FIXED
            )
            assert sampled == choose_strong(blank, legal, random.Random(4), FIXED)
            searched += 1
        compared += 1
    assert compared > 50 and searched > 10
