"""Every game's ``hint(view, legal)``: in seeded random playouts, at every decision of
every seat, the hint is a legal action with a one-line reason, and the same view always
gets the same hint."""

from __future__ import annotations

import random

import pytest

from bot.engine import IllegalAction
from bot.games import GAME_NAMES, game_module
from tests.engine.random_states import OPTIONS, new_state

SEEDS = (1, 2)
MAX_STEPS = 400


def _hint_fn(game: str):
    return __import__(f"bot.games.{game}.ai", fromlist=["hint"]).hint


def _accepted(state, seat: int, code: str) -> bool:
    """Legal as the game itself checks it (San Da Yi's bury of several cards at once is
    not listed one by one but is a legal action)."""
    if code in state.legal_actions(seat):
        return True
    try:
        state.check(seat, state.normalize(seat, code))
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_hint_is_always_a_legal_action(game: str, seed: int) -> None:
    hint = _hint_fn(game)
    rng = random.Random(f"hints-{game}-{seed}")
    state = new_state(game, seed, OPTIONS[game][seed % len(OPTIONS[game])])
    decisions = 0
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        for seat in state.to_act:
            view, legal = state.view(seat), state.legal_actions(seat)
            code, reason = hint(view, legal)
            assert _accepted(state, seat, code), (game, seat, code, legal[:8])
            assert isinstance(reason, str) and reason and "\n" not in reason and len(reason) < 160
            assert hint(view, legal) == (code, reason)  # deterministic
            decisions += 1
        seats = list(state.to_act) or list(state.may_act)
        seat = rng.choice(seats)
        legal = state.legal_actions(seat)
        if not legal:
            break
        state.apply(seat, rng.choice(legal))
    assert decisions > 20


def test_a_seat_that_may_only_act_out_of_turn_may_be_told_to_wait() -> None:
    from bot.games.panda.ai import hint

    module = game_module("panda")
    state = module.new_game(3, ["A", "B", "C", "D"], {})
    rng = random.Random(3)
    seen = 0
    while not state.is_over and seen < 5 and state.version < 2000:
        for seat in state.may_act:
            if seat not in state.to_act:
                code, reason = hint(state.view(seat), state.legal_actions(seat))
                assert code == "" or code in state.legal_actions(seat)
                assert reason
                seen += 1
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
