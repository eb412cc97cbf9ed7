"""Koi-Koi's strong AI (``bot/games/koikoi/strong.py``): the playouts' stopping rule in the
match's last round, and the search that overrules the normal AI only when sure."""

from __future__ import annotations

import random

from bot.games.koikoi import new_game
from bot.games.koikoi.strong import _counts, _Round, needs, sample_world, search


def _view(round_: int, scores: list[int]) -> dict:
    return {"round": round_, "rounds": 6, "scores": scores}


def test_before_the_last_round_both_seats_stop_at_their_first_yaku() -> None:
    assert needs(_view(1, [0, 20])) == [0, 0]
    assert needs(_view(5, [30, 2])) == [0, 0]


def test_in_the_last_round_the_seat_behind_needs_its_deficit() -> None:
    assert needs(_view(6, [3, 10])) == [7, 0]
    assert needs(_view(6, [12, 10])) == [0, 2]
    assert needs(_view(6, [5, 5])) == [0, 0]


def _round_from_start(seed: int) -> _Round:
    state = new_game(seed, ["A", "B"])
    seat = state.current
    return _Round(sample_world(state.view(seat), random.Random(seed)), smart=True)


def test_a_seat_that_needs_more_plays_on_past_a_small_yaku() -> None:
    """The same sampled rounds played out twice: with no need, the first yaku ends the
    round; when the scorer needs more than it made, the round goes on and ends with more
    points for someone, or none (never with a smaller yaku of the seat that needed more)."""
    longer = 0
    for seed in range(40):
        base = _round_from_start(seed)
        code = "play " + base.hands[base.current][0]
        first = _round_from_start(seed)
        winner, points = first.run(code)
        if winner is None:
            continue
        chasing = _round_from_start(seed)
        chasing.need = [0, 0]
        chasing.need[winner] = points + 1
        w2, p2 = chasing.run(code)
        if w2 == winner:
            # It called Koi-Koi and stopped on a larger total, or had to on its last card.
            assert p2 > points or not chasing.hands[winner]
        longer += (w2, p2) != (winner, points)
    assert longer > 5


def test_the_search_keeps_the_prior_unless_the_playouts_are_sure() -> None:
    """A lone option is returned as is; identical options never overrule the prior (their
    paired difference is zero, never significant); and the choice repeats with the same dice."""
    state = new_game(3, ["A", "B"])
    seat = state.current
    view = state.view(seat)
    legal = state.legal_actions(seat)
    assert search(view, legal[:1], legal[0], random.Random(1), 8, None) == legal[0]
    twice = [legal[0], legal[0]]
    assert search(view, twice, legal[0], random.Random(1), 8, None) == legal[0]
    a = search(view, legal, legal[-1], random.Random(4), 12, None)
    b = search(view, legal, legal[-1], random.Random(4), 12, None)
    assert a == b and a in legal


def test_the_playout_piles_count_as_the_captures() -> None:
    state = new_game(2, ["A", "B"])
    world = _Round(sample_world(state.view(state.current), random.Random(0)))
    assert world.piles == [_counts([]), _counts([])]
