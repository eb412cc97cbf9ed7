"""Mushi's soft reading of the opponent's hand (stop 42's, switched off in play:
``bench/mushi_belief.py``) and strong's samples by it. It reads only the view."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bench.mushi_belief import (
    Posterior,
    _past_views,
    choose_strong_belief,
    hand_posterior,
    log_likelihood,
    opponent_turns,
    weighted_worlds,
)
from bot.engine.search import Budget
from bot.games.mushi import DECK, choose, new_game
from bot.games.mushi.rules import MushiState
from bot.games.mushi.strong import choose_strong, searchable, unseen_cards
from tests.games.mushi.mushi_helpers import swap_hidden

FIXED = Budget(samples=6, seconds=None)  # deterministic: no clock


def _flat(pile: dict[str, list[str]]) -> Counter[str]:
    return Counter(c for group in pile.values() for c in group)


def _positions(seeds: range) -> list[tuple[MushiState, int, list[dict[str, Any]]]]:
    """Every decision of seeded normal-vs-normal matches, with the true views of the
    deciding seat's opponent before each of its plays of the running hand."""
    out = []
    for seed in seeds:
        state = new_game(seed, ["A", "B"], {"hands": 6})
        rng = random.Random(seed)
        before: list[list[dict[str, Any]]] = [[], []]  # per seat, its views before its plays
        deal = None
        while not state.is_over:
            seat = state.to_act[0]
            view = state.view(seat)
            if (view["deal"], view["deal_count"]) != deal:
                deal, before = (view["deal"], view["deal_count"]), [[], []]
            out.append((state.clone(), seat, list(before[1 - seat])))
            if view["phase"] == "play":
                before[seat].append(view)
            state.apply(seat, choose(view, state.legal_actions(seat), rng))
    return out


def test_the_past_views_are_the_opponents_true_views_before_its_plays() -> None:
    checked = 0
    for state, seat, truth in _positions(range(2)):
        view = state.view(seat)
        if view["phase"] not in ("play", "choose_flip"):
            continue
        past = _past_views(view)
        assert len(past) == len(truth)
        opp = 1 - seat
        held_now = Counter(state.hands[opp])
        for (rebuilt, held), real in zip(past, reversed(truth), strict=True):
            assert sorted(rebuilt["table"]) == sorted(real["table"])
            assert rebuilt["stock_count"] == real["stock_count"]
            assert rebuilt["hand_counts"] == real["hand_counts"]
            # Its hand of then: the cards it holds now and those it played since.
            assert held_now + Counter(held) == Counter(real["hand"])
            if not real["set_aside"] and not view["set_aside"]:
                for s in (0, 1):
                    assert _flat(rebuilt["captures"][s]) <= _flat(real["captures"][s]) + Counter(
                        real["set_aside"]
                    )
            checked += 1
    assert checked > 200


def test_the_weighted_samples_deal_exactly_the_cards_the_seat_has_not_seen() -> None:
    checked = 0
    for state, seat, _ in _positions(range(1))[::4]:
        view = state.view(seat)
        if view["phase"] != "play":
            continue
        opp = 1 - seat
        unseen = Counter(unseen_cards(view))
        assert unseen == Counter(state.hands[opp]) + Counter(state.stock)
        worlds, weights = weighted_worlds(view, random.Random(2), 1.0, 24)
        assert abs(sum(weights) - 1.0) < 1e-9 and min(weights) >= 0.0
        for world in worlds:
            assert Counter(world.hands[opp]) + Counter(world.stock) == unseen
            assert len(world.hands[opp]) == len(state.hands[opp])
            assert sorted(world.hands[seat]) == sorted(view["hand"])
            assert set(world.hands[opp]) <= set(unseen)
        checked += 1
    assert checked > 20


def test_a_hidden_card_swapped_changes_neither_the_weighted_samples_nor_the_choice() -> None:
    """Swap a card of the opponent's hand with one of the stock: the seat's view is the
    same, and so are the candidates, their weights and strong's choice by them."""
    compared = 0
    for state, seat, _ in _positions(range(2)):
        view, legal = state.view(seat), state.legal_actions(seat)
        opp = 1 - seat
        if not searchable(view, legal) or not state.hands[opp] or not state.stock:
            continue
        twin = swap_hidden(state, seat)
        a, wa = weighted_worlds(view, random.Random(9), 1.0, 32)
        b, wb = weighted_worlds(twin.view(seat), random.Random(9), 1.0, 32)
        assert [(w.hands, w.stock) for w in a] == [(w.hands, w.stock) for w in b]
        assert wa == wb
        assert choose_strong_belief(
            view, legal, random.Random(5), beta=1.0, budget=FIXED
        ) == choose_strong_belief(twin.view(seat), legal, random.Random(5), beta=1.0, budget=FIXED)
        compared += 1
    assert compared > 5


def test_the_reading_favours_the_opponents_true_cards() -> None:
    """Against normal, the likelihood of its plays puts more weight on the cards it truly
    holds than dealing blind does (the chance of a true card in the sampled hand)."""
    blind = read = 0.0
    n = 0
    for state, seat, _ in _positions(range(2)):
        view = state.view(seat)
        opp = 1 - seat
        if view["phase"] != "play" or len(view["hand"]) not in (3, 5) or not state.hands[opp]:
            continue
        truth = set(state.hands[opp])
        blind += len(truth) / len(unseen_cards(view))
        worlds, weights = weighted_worlds(view, random.Random(1), 1.0, 128)
        read += sum(
            w * len(truth & set(x.hands[opp])) / len(truth)
            for x, w in zip(worlds, weights, strict=True)
        )
        n += 1
    assert n > 20
    assert read / n > blind / n + 0.08


def test_a_card_laid_on_its_month_is_unlikely_in_the_hand() -> None:
    """An opponent that laid a junk card while a bright of a month on the table was in
    reach of a card it might hold: hands holding that card are far less likely."""
    view: dict[str, Any] = {
        "seat": 0,
        "hand": ["3p2", "4p1"],
        "table": ["1b", "5p1", "9p1"],
        "captures": [{}, {}],
        "set_aside": [],
        "pending": None,
        "hand_counts": [2, 2],
        "stock_count": 16,
        "options": {},
        "plays": [],
    }
    # Before: the table held the Crane (1b), 5p1 and 9p1, and the opponent laid 12p1 (no match) on it.
    view["table"] = [*view["table"], "12p1"]
    view["plays"] = [{"kind": "play", "seat": 1, "card": "12p1", "took": []}]
    unseen = [c for c in DECK if c not in {"3p2", "4p1", "1b", "5p1", "9p1", "12p1"}]
    turns = opponent_turns(view, unseen, 1.0)
    assert len(turns) == 1
    with_pine = log_likelihood(["1r", "10p1"], turns)  # 1r would have taken the Crane
    without = log_likelihood(["8p1", "10p1"], turns)
    assert with_pine < without - 2.0


def test_before_the_endgame_a_hidden_swap_changes_neither_the_belief_nor_the_choice() -> None:
    compared = changed = 0
    for state, seat, _ in _positions(range(2)):
        view, legal = state.view(seat), state.legal_actions(seat)
        opp = 1 - seat
        if view["phase"] != "play" or len(legal) < 2 or searchable(view, legal):
            continue
        if not state.hands[opp] or not state.stock or not view["plays"]:
            continue
        twin = swap_hidden(state, seat)
        unseen = unseen_cards(view)
        a = hand_posterior(view, unseen, random.Random(4), 1.0, 64)
        b = hand_posterior(
            twin.view(seat), unseen_cards(twin.view(seat)), random.Random(4), 1.0, 64
        )
        assert (a.hands, a.weights) == (b.hands, b.weights)
        assert all(h <= set(unseen) and len(h) == len(state.hands[opp]) for h in a.hands)
        mine = choose_strong_belief(view, legal, random.Random(5), 1.0, 1.0, FIXED)
        assert mine == choose_strong_belief(
            twin.view(seat), legal, random.Random(5), 1.0, 1.0, FIXED
        )
        changed += mine != choose(view, legal, random.Random(5))
        compared += 1
    assert compared > 20
    assert changed > 0  # the belief does move normal's choice


def test_the_posterior_is_the_weighted_share_of_hands_holding_a_card() -> None:
    post = Posterior([frozenset({"1b", "2a"}), frozenset({"3b"})], [0.25, 0.75])
    assert post(frozenset({"1b"})) == 0.25
    assert post(frozenset({"1b", "3b"})) == 1.0
    assert post(frozenset({"12p1"})) == 0.0


def test_with_both_readings_off_it_is_strong_itself() -> None:
    """``beta`` and ``mid_beta`` 0: the shipped ``strong``'s choices, with the same dice."""
    compared = 0
    for state, seat, _ in _positions(range(1)):
        view, legal = state.view(seat), state.legal_actions(seat)
        if len(legal) < 2:
            continue
        a = choose_strong_belief(view, legal, random.Random(6), 0.0, 0.0, FIXED)
        assert a == choose_strong(view, legal, random.Random(6), FIXED)
        compared += searchable(view, legal)
    assert compared > 10
