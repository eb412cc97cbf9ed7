"""The simulated players' click helper reaches every legal action the controls allow.

A newcomer's run once failed when every legal Panda play was a full house that read the
Catfish (``play 7t 7r Et Ea catfish=7``): the select says that as "Catfish as the LOWER
card" (``catfish=low``), which the helper could not map. These build the real components
from a stacked Panda state, without a bot.
"""

from __future__ import annotations

import random

import pytest

import bot.games.panda as panda
from bot.engine.ui import Select
from bot.host.components import controls_view
from tests.e2e.teahouse import control_moves, select_code, state_checks
from tests.games.panda.panda_helpers import start_hand

pytestmark = pytest.mark.asyncio

FULL_HOUSE_LOW = "play 7t 7r Et Ea catfish=7"  # the Catfish as the third 7
FULL_HOUSE_HIGH = "play 7t 7r Et Ea catfish=E"  # the Catfish as the third E


def _catfish_lead():
    """Seat 0 leads holding 7t 7g 7r Et Ea and the Catfish (plus fillers)."""
    state = start_hand(
        [["stork", "7t", "7r", "Et", "Ea", "catfish"], [], [], []], {"free_first_lead": True}
    )
    assert state.to_act == [0]
    legal = state.legal_actions(0)
    assert FULL_HOUSE_LOW in legal and FULL_HOUSE_HIGH in legal
    return state, legal


def _components(state, seat: int):
    """The components the host sends for the seat's controls, as the fake Discord holds them."""
    controls = panda.controls(state.view(seat), state.legal_actions(seat))
    view = controls_view(1, seat, state.version, controls)
    flat = [c for row in view.to_components() for c in row["components"]]
    return controls, flat


async def test_a_catfish_full_house_is_clicked_through_the_lower_card_option() -> None:
    state, _ = _catfish_lead()
    controls, comps = _components(state, 0)
    normalize, accepts = state_checks(state, 0)
    # Every legal action is one of these two readings (as in the failing run).
    moves = control_moves(comps, [FULL_HOUSE_LOW], normalize=normalize)
    assert moves, "no control sends the lower reading of the Catfish"
    (move,) = moves
    assert move.values is not None and "catfish=low" in move.values
    assert normalize(move.code) == FULL_HOUSE_LOW and accepts(move.code)
    # The plain Catfish option is the higher reading.
    (high,) = control_moves(comps, [FULL_HOUSE_HIGH], normalize=normalize)
    assert "catfish" in high.values and "catfish=low" not in high.values
    assert normalize(high.code) == FULL_HOUSE_HIGH
    # The helper builds the code exactly as the host does from the select's values.
    spec = next(r for r in controls.rows if isinstance(r, Select))
    assert move.code == spec.code_for(list(move.values))
    assert move.code == select_code(move.component, reversed(move.values))
    # And the bot takes it: the move the helper would click is legal for the game.
    clone = state.clone()
    clone.apply(0, move.code)
    assert clone.log[-1] == (0, FULL_HOUSE_LOW)


async def test_every_legal_action_of_the_lead_is_reachable_by_clicking() -> None:
    state, legal = _catfish_lead()
    _, comps = _components(state, 0)
    normalize, accepts = state_checks(state, 0)
    unreachable = [c for c in legal if not control_moves(comps, [c], normalize=normalize)]
    assert unreachable == []
    moves = control_moves(comps, legal, normalize=normalize)
    assert {normalize(m.code) for m in moves} == set(legal)
    assert all(accepts(m.code) for m in moves)


async def test_codes_the_game_accepts_but_does_not_list_are_found_by_sampling() -> None:
    """Room for multi-card selects whose codes the game checks rather than lists (San Da
    Yi's bury, being reworked): with ``accepts`` the helper samples the select."""
    state, _ = _catfish_lead()
    _, comps = _components(state, 0)
    normalize, accepts = state_checks(state, 0)
    # Nothing listed; the select's samples are kept when the game accepts them.
    moves = control_moves(
        comps, [], normalize=normalize, accepts=accepts, rng=random.Random(0), samples=400
    )
    assert moves and all(m.values is not None and accepts(m.code) for m in moves)
