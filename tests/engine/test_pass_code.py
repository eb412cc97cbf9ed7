"""A timeout passes with the game's own pass code (``State.pass_code``, which its spec
declares too), not a hard-coded ``pass``."""

from __future__ import annotations

import pytest

from bot.engine import State
from bot.games import GAME_NAMES, game_spec
from tests.twenty import SPEC as TWENTY
from tests.twenty import WAIT, TwentyState

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def _twenty_where_waiting_is_legal() -> TwentyState:
    state = TWENTY.new_game(3, NAMES[:2], {"goal": 5, "rounds": 1})
    assert isinstance(state, TwentyState)
    while WAIT not in state.legal_actions(state.to_act[0]):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    return state


def test_the_default_action_passes_with_the_games_pass_code() -> None:
    state = _twenty_where_waiting_is_legal()
    seat = state.to_act[0]
    assert "pass" not in state.legal_actions(seat)
    # the engine's default (Twenty's own default_action plays on instead): its pass, `wait`
    assert State.default_action(state, seat) == WAIT


def test_the_default_action_is_the_first_legal_one_when_passing_is_not() -> None:
    state = TWENTY.new_game(3, NAMES[:2], {"goal": 20, "rounds": 1})
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    assert WAIT not in legal
    assert State.default_action(state, seat) == legal[0]


@pytest.mark.parametrize("name", [*GAME_NAMES, "twenty"])
def test_a_games_states_pass_with_the_code_its_spec_declares(name: str) -> None:
    spec = TWENTY if name == "twenty" else game_spec(name)
    state = spec.new_game(1, NAMES[: spec.seats], None)
    assert state.pass_code == spec.pass_code
