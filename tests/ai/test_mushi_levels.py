"""Mushi's AI levels: easy, normal, strong; the strong search sees only its view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.search import Budget
from bot.games.mushi import SPEC, choose, new_game
from bot.games.mushi.ai import choose_easy
from bot.games.mushi.rules import DECK, MushiState, capture_choices
from bot.games.mushi.strong import choose_strong, sample_world

FIXED = Budget(samples=4, seconds=None)  # no clock: deterministic


def _positions(seeds: range, every: int = 1) -> list[tuple[MushiState, int]]:
    out = []
    for seed in seeds:
        state = new_game(seed, ["A", "B"], {"hands": 6})
        rng = random.Random(seed)
        step = 0
        while not state.is_over:
            seat = state.to_act[0]
            if step % every == 0:
                out.append((state.clone(), seat))
            state.apply(seat, choose(state.view(seat), state.legal_actions(seat), rng))
            step += 1
    return out


def _visible(view: dict) -> Counter:
    seen = Counter(view["hand"]) + Counter(view["table"]) + Counter(view["set_aside"])
    for pile in view["captures"]:
        for group in pile.values():
            seen += Counter(group)
    if (view.get("pending") or {}).get("card"):
        seen[view["pending"]["card"]] += 1
    return seen


def test_the_spec_declares_three_levels_and_normal_is_choose() -> None:
    assert list(SPEC.ai_levels()) == ["easy", "normal", "strong"]
    assert SPEC.ai("normal") is choose is SPEC.choose
    assert SPEC.ai("") is choose


def test_the_strong_samples_hold_exactly_the_cards_the_seat_cannot_see() -> None:
    phases = Counter()
    for state, seat in _positions(range(3), every=3):
        view = state.view(seat)
        phases[view["phase"]] += 1
        unseen = Counter(DECK) - _visible(view)
        opp = 1 - seat
        for k in range(3):
            world = sample_world(view, random.Random(k))
            assert Counter(world.hands[opp]) + Counter(world.stock) == unseen
            assert sorted(world.hands[seat]) == sorted(view["hand"])
            assert world.table == view["table"]
            assert len(world.hands[opp]) == state.view(None)["hand_counts"][opp]
            assert len(world.stock) == view["stock_count"]
    assert {"play", "choose_flip"} <= set(phases)


def test_what_the_seat_cannot_see_changes_nothing_the_strong_ai_does() -> None:
    for state, seat in _positions(range(2), every=7):
        twin = state.clone()
        opp = 1 - seat
        pool = twin.hands[opp] + twin.stock
        random.Random(99).shuffle(pool)
        twin.hands[opp], twin.stock = pool[: len(twin.hands[opp])], pool[len(twin.hands[opp]) :]
        view = state.view(seat)
        if twin.view(seat) != view:
            continue  # the shuffle moved a four the seat is told about (cancel_months)
        legal = state.legal_actions(seat)
        assert choose_strong(view, legal, random.Random(5), FIXED) == choose_strong(
            twin.view(seat), legal, random.Random(5), FIXED
        )


@pytest.mark.parametrize("level", [choose_easy, choose_strong])
def test_the_levels_play_legal_moves_and_repeat_with_the_same_dice(level) -> None:
    for state, seat in _positions(range(1), every=4):
        view, legal = state.view(seat), state.legal_actions(seat)
        kwargs = {"budget": FIXED} if level is choose_strong else {}
        first = level(view, legal, random.Random(1), **kwargs)
        assert first in legal and first == level(view, legal, random.Random(1), **kwargs)


def test_the_easy_ai_captures_when_it_can_unless_normal_would_not() -> None:
    """Its mistakes are which capture to make, never laying a card while normal captures."""
    met = 0
    for state, seat in _positions(range(3)):
        view, legal = state.view(seat), state.legal_actions(seat)
        if view["phase"] != "play" or len(legal) == 1:
            continue
        for k in range(3):
            code = choose_easy(view, legal, random.Random(k))
            assert code in legal and code != "cancel"
            words = code.split()
            took = len(words) == 3 or capture_choices(words[1], view["table"])[0]
            if not took:
                met += 1
                can = any(
                    c != "cancel"
                    and (len(c.split()) == 3 or capture_choices(c.split()[1], view["table"])[0])
                    for c in legal
                )
                # The easy AI's own dice: one roll chose "play like normal" here.
                dice = random.Random(k)
                dice.random()
                plays = [c for c in legal if c != "cancel"]
                assert not can or code == choose(view, plays, dice)
    assert met > 0
