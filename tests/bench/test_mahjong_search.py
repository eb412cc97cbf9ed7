"""Mah-Jongg's determinized search (``bench/mahjong_search.py``; bench only, no level uses
it): its samples deal only the cards hidden from the seat, it reads only the seat's view,
and its choice is legal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench import mahjong_search as search
from bot.games.mahjong import new_game
from bot.games.mahjong.ai import _counts, _unseen, choose, strong
from bot.games.mahjong.rules import MahjongState
from bot.games.mahjong.tiles import NUM_KINDS
from tests.games.mahjong.mahjong_helpers import hidden_from, swap_hidden

PLAYERS = ["Ann", "Ben", "Cat", "Dov"]


def _searched(seed: int) -> MahjongState:
    """A hand played by normal up to the first discard turn whose decision the search
    weighs (strong ready or one card from ready, with two candidates or more)."""
    g = new_game(seed, PLAYERS, {"max_hands": 1})
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        view, legal = g.view(seat), g.legal_actions(seat)
        if g.phase == "discard" and not g.pending_declare:
            code = strong(view, legal, random.Random(1))
            if search.weigh(view, legal, code, n=8) is not None:
                return g
        g.apply(seat, choose(view, legal, rng))
    raise AssertionError("no searched decision in the hand")


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_samples_deal_only_the_cards_hidden_from_the_seat(seed: int) -> None:
    """Every sample deals exactly the cards the seat cannot see (counted from its view):
    no sample holds a card in the seat's hand, a meld, a river or a shown standing hand,
    and each opponent gets as many cards as it holds."""
    g = _searched(seed)
    seat = g.to_act[0]
    view = g.view(seat)
    hidden = Counter(dict(enumerate(hidden_from(g, seat))))
    assert Counter(search.hidden_pool(view, seat)) == hidden
    unseen = _unseen(view, seat, _counts(view["hand"]))
    for s in search.samples(view, seat, 30):
        dealt = Counter(t for h in s.hands for t in h) + Counter(s.wall)
        assert dealt == hidden
        assert all(dealt[t] <= unseen[t] for t in range(NUM_KINDS))
        for p, h in zip(search._order(view, seat), s.hands, strict=True):
            assert len(h) == 13 - 3 * len(view["melds"][p])


@pytest.mark.parametrize("objective", ["points", "match"])
@pytest.mark.parametrize("seed", [3, 8, 21])
def test_swapping_two_hidden_cards_changes_neither_samples_nor_choice(
    seed: int, objective: str
) -> None:
    """An opponent's card swapped with a different card of the live wall: the seat's view,
    the samples, the search's figures and its choice are the same (whatever an outcome is
    judged by: the hand's points or the chance of winning the match)."""
    g = _searched(seed)
    seat = g.to_act[0]
    view, legal = g.view(seat), g.legal_actions(seat)
    code = search.choose(view, legal, random.Random(1), objective=objective)
    verdict = search.weigh(view, legal, strong(view, legal, random.Random(1)), objective=objective)
    assert verdict is not None
    p = next(q for q in range(4) if q != seat and not (view["standing"] or [None] * 4)[q])
    other = swap_hidden(g, p)
    assert other.conc != g.conc and other.live != g.live
    view2 = other.view(seat)
    assert view2 == view
    assert search.samples(view2, seat, 30) == search.samples(view, seat, 30)
    again = search.weigh(view2, legal, strong(view2, legal, random.Random(1)), objective=objective)
    assert again == verdict
    legal2 = other.legal_actions(seat)
    assert search.choose(view2, legal2, random.Random(1), objective=objective) == code


def test_strongs_choice_stands_without_a_clear_edge() -> None:
    """With an impossible margin the search never overrules strong's own choice; the
    candidates include strong's choice and the figures are the same on a second look."""
    g = _searched(3)
    seat = g.to_act[0]
    view, legal = g.view(seat), g.legal_actions(seat)
    code = strong(view, legal, random.Random(1))
    verdict = search.weigh(view, legal, code, margin=1e9)
    assert verdict is not None
    assert verdict.chosen == verdict.default and verdict.default in verdict.options
    assert len(verdict.options) >= 2
    assert search.weigh(view, legal, code, margin=1e9) == verdict


@pytest.mark.parametrize("seed", [1, 2])
def test_a_searching_hand_plays_legal_actions_to_the_end(seed: int) -> None:
    """Four searching seats play a hand to its end, every action legal."""
    g = new_game(seed, PLAYERS, {"max_hands": 1})
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and steps < 3000:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        code = search.choose(g.view(seat), legal, rng)
        assert code in legal
        g.apply(seat, code)
        steps += 1
    assert g.is_over


def test_first_chance_reads_the_totals_and_the_hands_left() -> None:
    """Equal totals: a quarter each; a lead is a sure win when no hand is left and a
    smaller edge the more hands are to come; ties at the end are shared."""
    assert search.first_chance([0, 0, 0, 0], 5) == pytest.approx(0.25, abs=1e-6)
    assert search.first_chance([100, 0, 0, 0], 0) == 1.0
    assert search.first_chance([0, 100, 0, 0], 0) == 0.0
    assert search.first_chance([50, 50, 0, 0], 0) == 0.5
    near, far = search.first_chance([100, 0, 0, 0], 1), search.first_chance([100, 0, 0, 0], 8)
    assert 1.0 > near > far > 0.25
    assert search.first_chance([0, 100, 0, 0], 1) < search.first_chance([0, 100, 0, 0], 8) < 0.25


def test_the_match_objective_knows_which_hand_ends_the_match() -> None:
    """In the last rotation a win by a seat that is not the round player ends the match:
    the seat leading after it has won; the same win by the round player leaves the match
    open. A drawn hand leaves the totals and the rotations as they are."""
    g = _searched(3)
    seat = g.to_act[0]
    view = g.view(seat)
    tb = search._table(view, seat, _counts(view["hand"]))
    last = search.Match(totals=(300.0, 0.0, 0.0, 0.0), rotations_left=1, hands_cap=None)
    drawn = search.match_chance(tb, last, search.DRAWN)
    assert 0.25 < drawn < 1.0
    others = [j + 1 for j, o in enumerate(tb.opps) if o.seat != tb.round_player]
    # an opponent that is not the round player wins 110 + payments: the seat's 300 lead holds
    assert search.match_chance(tb, last, (others[0], 0.0)) == 1.0
    # the seat wins: if it is not the round player the match is over, and it is won
    mine = search.match_chance(tb, last, (0, 20.0))
    assert (mine == 1.0) == (tb.seat != tb.round_player)
    behind = search.Match(totals=(0.0, 300.0, 0.0, 0.0), rotations_left=1, hands_cap=None)
    # behind by 300, an opponent's win that ends the match loses it; a drawn hand does not
    assert search.match_chance(tb, behind, (others[0], 0.0)) == 0.0
    assert 0.0 < search.match_chance(tb, behind, search.DRAWN) < drawn
