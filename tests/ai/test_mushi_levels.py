"""Mushi's AI levels: easy and normal (no strong level yet)."""

from __future__ import annotations

import random

from bot.games.mushi import SPEC, choose, new_game
from bot.games.mushi.ai import choose_easy
from bot.games.mushi.rules import MushiState, capture_choices


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


def test_the_spec_declares_easy_and_normal() -> None:
    assert list(SPEC.ai_levels()) == ["easy", "normal"]
    assert SPEC.ai("normal") is choose is SPEC.choose
    assert SPEC.ai("") is choose
    assert SPEC.ai("strong") is choose  # no strong level yet: a stored one plays normal


def test_the_easy_level_plays_legal_moves_and_repeats_with_the_same_dice() -> None:
    for state, seat in _positions(range(1), every=4):
        view, legal = state.view(seat), state.legal_actions(seat)
        first = choose_easy(view, legal, random.Random(1))
        assert first in legal and first == choose_easy(view, legal, random.Random(1))


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
