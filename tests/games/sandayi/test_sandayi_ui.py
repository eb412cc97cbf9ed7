"""San Da Yi controls: only legal choices, within Discord's limits, for every decision."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandayi_helpers import PLAYERS, new, stack

from bot.engine.ui import (
    MAX_BUTTONS_PER_ROW,
    MAX_LABEL,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Controls,
    Select,
)
from bot.games import sandayi


def check_limits(controls: Controls) -> None:
    """Discord's limits: 5 rows of 5 buttons or one select of 25 options; labels of 80
    (buttons) / 100 (options) characters; descriptions 100, placeholders 150, message 2000."""
    assert controls.prompt and len(controls.prompt) <= 2000
    assert len(controls.rows) <= MAX_ROWS
    for row in controls.rows:
        if isinstance(row, Select):
            assert 1 <= len(row.options) <= MAX_SELECT_OPTIONS
            assert 1 <= row.min_values <= row.max_values <= len(row.options)
            assert len(row.placeholder) <= 150
            values = [o.value for o in row.options]
            assert len(values) == len(set(values))
            for option in row.options:
                assert 0 < len(option.label) <= 100 and 0 < len(option.value) <= 100
                assert option.description is None or len(option.description) <= 100
        else:
            assert 1 <= len(row) <= MAX_BUTTONS_PER_ROW
            for button in row:
                assert 0 < len(button.label) <= MAX_LABEL


def test_bid_buttons_show_only_legal_bids_and_pass() -> None:
    state = new(stack({0: ["3D"]}))
    for seat in (0, 1, 2):
        state.apply(seat, "pass")
    legal = state.legal_actions(3)
    controls = sandayi.controls(state.view(3), legal)
    check_limits(controls)
    assert (
        sorted(controls.codes()) == sorted(legal) == sorted(["pass", "bid 70", "bid 75", "bid 80"])
    )
    assert "70" in controls.prompt


def test_bury_is_one_select_of_exactly_six_over_the_eighteen_cards() -> None:
    state = new(stack({0: ["3D", "KS"]}))
    state.apply(0, "bid 60")
    for seat in (1, 2, 3):
        state.apply(seat, "pass")
    view = state.view(0)
    controls = sandayi.controls(view, state.legal_actions(0))
    check_limits(controls)
    (select,) = controls.rows
    assert isinstance(select, Select) and select.verb == "bury"
    assert select.min_values == select.max_values == 6
    assert sorted(o.value for o in select.options) == sorted(view["hand"])
    chosen = random.Random(1).sample([o.value for o in select.options], 6)
    code = select.code_for(chosen)
    state.apply(0, code)  # a valid bury
    assert state.phase == "trump"
    king = next(o for o in select.options if o.value == "KS")
    assert king.description and "points" in king.description


def test_bury_select_after_a_partial_bury_asks_for_the_rest() -> None:
    state = new(stack({0: ["3D", "KS", "4D"]}))
    state.apply(0, "bid 60")
    for seat in (1, 2, 3):
        state.apply(seat, "pass")
    state.apply(0, "bury 3D 4D")
    controls = sandayi.controls(state.view(0), state.legal_actions(0))
    check_limits(controls)
    (select,) = controls.rows
    assert isinstance(select, Select) and select.verb == "bury"
    assert select.min_values == select.max_values == 4
    assert sorted(o.value for o in select.options) == sorted(state.hands[0])  # 16 cards
    assert "4 more" in controls.prompt and "3♦" in controls.prompt  # what is already buried
    assert "4 cards" in select.placeholder
    state.apply(0, select.code_for([o.value for o in select.options][:4]))
    assert state.phase == "trump"


def test_trump_buttons_and_card_buttons() -> None:
    state = new(stack({0: ["3D"]}))
    state.apply(0, "bid 60")
    for seat in (1, 2, 3):
        state.apply(seat, "pass")
    state.apply(0, state.default_action(0))
    controls = sandayi.controls(state.view(0), state.legal_actions(0))
    check_limits(controls)
    assert sorted(controls.codes()) == ["trump C", "trump D", "trump H", "trump S"]
    state.apply(0, "trump S")
    for _ in range(12):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        controls = sandayi.controls(state.view(seat), legal)
        check_limits(controls)
        assert sorted(controls.codes()) == sorted(legal)
        state.apply(seat, legal[-1])


def test_no_controls_for_a_waiting_seat() -> None:
    state = sandayi.new_game(1, PLAYERS)
    waiting = (state.to_act[0] + 1) % 4
    controls = sandayi.controls(state.view(waiting), state.legal_actions(waiting))
    assert controls.rows == ()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), fixed=st.booleans(), data=st.data())
def test_random_matches_played_through_the_controls_alone(
    seed: int, fixed: bool, data: st.DataObject
) -> None:
    """Every decision of a random match is made by clicking: the buttons are exactly the
    legal actions, and the bury select composes a bury of the cards still to bury
    (``Select.code_for``, then ``normalize``) that ``apply`` accepts, each of its cards
    being a one-card legal action."""
    state = sandayi.new_game(seed, PLAYERS, {"hands": 2, "fixed_minimums": fixed})
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        controls = sandayi.controls(state.view(seat), legal)
        check_limits(controls)
        selects = [row for row in controls.rows if isinstance(row, Select)]
        if state.phase == "bury":
            (select,) = selects
            assert not controls.codes()
            assert select.verb == "bury" and select.min_values == select.max_values == 6
            assert {o.value for o in select.options} == set(state.hands[seat])  # all 18
            assert len(legal) == 18
            values = data.draw(st.permutations([o.value for o in select.options]))[:6]
            code = state.normalize(seat, select.code_for(values))
            assert all(f"bury {v}" in legal for v in values)
            state.check(seat, code)
        else:
            assert not selects
            assert sorted(controls.codes()) == sorted(legal)
            code = data.draw(st.sampled_from(controls.codes()))
        state.apply(seat, code)
        steps += 1
        assert steps < 2000
    assert len(state.history) == 2
