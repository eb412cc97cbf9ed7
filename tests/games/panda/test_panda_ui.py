"""Discord controls of a Panda seat: limits, and every composed code is legal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from panda_helpers import NAMES, everyone_passes, start_hand

from bot.engine import IllegalAction
from bot.engine.ui import (
    MAX_BUTTONS_PER_ROW,
    MAX_FORM_FIELDS,
    MAX_FORM_LABEL,
    MAX_LABEL,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Button,
    Form,
    Select,
)
from bot.games.panda import controls, describe, new_game


def _controls(state, seat):
    return controls(state.view(seat), state.legal_actions(seat))


def _check_limits(ctrl) -> None:
    assert len(ctrl.rows) <= MAX_ROWS
    for row in ctrl.rows:
        if isinstance(row, Select):
            assert 1 <= len(row.options) <= MAX_SELECT_OPTIONS
            assert 1 <= row.min_values <= row.max_values <= len(row.options)
            assert len(row.placeholder) <= 150
            assert len({o.value for o in row.options}) == len(row.options), "values are unique"
            for o in row.options:
                assert len(o.label) <= 100 and len(o.value) <= 100
                assert o.description is None or len(o.description) <= 100
        elif isinstance(row, Form):
            assert 1 <= len(row.fields) <= MAX_FORM_FIELDS
            assert 1 <= len(row.title) <= MAX_FORM_LABEL and len(row.label) <= MAX_LABEL
            assert len({f.key for f in row.fields}) == len(row.fields), "keys are unique"
            for f in row.fields:
                assert 1 <= len(f.label) <= MAX_FORM_LABEL
                assert f.description is None or len(f.description) <= 100
                assert 1 <= len(f.options) <= MAX_SELECT_OPTIONS
                assert all(len(o.label) <= 100 for o in f.options)
        else:
            assert 1 <= len(row) <= MAX_BUTTONS_PER_ROW
            assert all(isinstance(b, Button) and len(b.label) <= MAX_LABEL for b in row)


def _selects(ctrl):
    return [r for r in ctrl.rows if isinstance(r, Select)]


def _forms(ctrl):
    return [r for r in ctrl.rows if isinstance(r, Form)]


def _in_a_form(ctrl, code: str) -> bool:
    """A form offers the pair of a ``give <recipient> <card>`` code."""
    words = code.split()
    return any(
        form.verb == words[0]
        and any(f.key == words[1] and words[2] in {o.value for o in f.options} for f in form.fields)
        for form in _forms(ctrl)
    )


def _unreachable(state, seat, ctrl, legal) -> list[str]:
    """Legal codes that no button, no pick in a select and no form composes (after
    normalize)."""
    buttons = set(ctrl.codes())
    selects = _selects(ctrl)
    missing = []
    for code in legal:
        if code in buttons or _in_a_form(ctrl, code):
            continue
        words = code.split()
        picks: list[list[str]] = []
        if words[0] == "play":
            cards = [w for w in words[1:] if not w.startswith("catfish=")]
            if len(cards) < len(words) - 1:
                # A stated Catfish reading: the plain Catfish (higher) or the LOWER option.
                picks = [[*cards, "catfish"], [*cards, "catfish=low"]]
            else:
                picks = [cards]
        if not any(
            all(v in {o.value for o in sel.options} for v in pick)
            and len(pick) <= sel.max_values
            and state.normalize(seat, sel.code_for(pick)) == code
            for sel in selects
            for pick in picks
        ):
            missing.append(code)
    return missing


def test_passing_is_one_form_with_a_card_menu_per_recipient() -> None:
    """The three cards go in one step: a form with one menu per other player, sent as one
    action (picks can be changed until then); a pass made in steps (an older DM) leaves a
    form with the menus still open."""
    state = new_game(2, NAMES)
    ctrl = _controls(state, 0)
    _check_limits(ctrl)
    assert not _selects(ctrl)
    (form,) = _forms(ctrl)
    assert form.verb == "give" and [f.key for f in form.fields] == ["left", "partner", "right"]
    assert "Bob" in form.fields[0].label and "Cid" in form.fields[1].label
    assert form.fields[1].description == "Your partner"
    assert "call" in ctrl.codes()
    hand = state.hands[0]
    assert [o.value for o in form.fields[2].options] == list(hand)
    code = form.code_for({"right": hand[5], "left": hand[3], "partner": hand[4]})
    assert code == f"give left {hand[3]} partner {hand[4]} right {hand[5]}"
    # The same card for two players is refused with a reason, and changes nothing.
    with pytest.raises(IllegalAction):
        state.apply(0, form.code_for({"left": hand[3], "partner": hand[3], "right": hand[5]}))
    assert state.given[0] == {}
    state.apply(0, code)
    assert state.given[0] == {"left": hand[3], "partner": hand[4], "right": hand[5]}
    assert not _forms(_controls(state, 0))
    # A pass begun in steps: the form asks only for the rest.
    other = new_game(2, NAMES)
    other.apply(1, f"give partner {other.hands[1][0]}")
    ctrl = _controls(other, 1)
    (form,) = _forms(ctrl)
    assert [f.key for f in form.fields] == ["left", "right"]
    assert "Chosen so far" in ctrl.prompt
    assert all(o.value != other.hands[1][0] for f in form.fields for o in f.options)


def test_turn_has_a_hand_multiselect_pass_and_ambush_buttons() -> None:
    state = start_hand(["stork", "6t 6g 6r 6a 9g 9r", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    ctrl = _controls(state, 1)
    _check_limits(ctrl)
    (select,) = _selects(ctrl)
    assert select.verb == "play" and select.max_values == len(state.hands[1]) == 15
    assert "pass" in ctrl.codes() and "play 6t 6g 6r 6a" in ctrl.codes()
    assert "beat the Stork" in ctrl.prompt
    assert select.code_for(["9r", "9g"]) == "play 9g 9r"


def test_multiselect_code_is_applied_and_checked() -> None:
    state = start_hand(["stork", "9g 9r 5t", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    (select,) = _selects(_controls(state, 1))
    with pytest.raises(IllegalAction, match="same kind"):
        state.apply(1, select.code_for(["9g", "9r"]))
    state.apply(1, select.code_for(["9g"]))
    assert state.top_seat == 1


def test_out_of_turn_controls_list_ambushes_and_the_call() -> None:
    state = start_hand(["stork", "", "6t 6g 6r 6a", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    ctrl = _controls(state, 2)
    _check_limits(ctrl)
    assert "Not your turn" in ctrl.prompt
    assert "play 6t 6g 6r 6a" in ctrl.codes() and "call" in ctrl.codes()
    assert not _selects(ctrl)


def test_catfish_lower_reading_option() -> None:
    state = start_hand(["stork 5t 5g 6t 6g catfish", "", "", ""], {"free_first_lead": True})
    ctrl = _controls(state, 0)
    (select,) = _selects(ctrl)
    assert "catfish=low" in [o.value for o in select.options]
    assert "LOWER" in ctrl.prompt
    code = select.code_for(["5t", "5g", "6t", "6g", "catfish=low"])
    assert state.normalize(0, code) == "play 5t 5g 6t 6g catfish=5"
    state.apply(0, code)
    assert state.top.value == 5
    high = state.normalize(0, select.code_for(["5t", "5g", "6t", "6g", "catfish"]))
    assert high == "play 5t 5g 6t 6g catfish=6"


def test_wish_and_gift_buttons() -> None:
    state = start_hand(["stork", "panda", "", ""])
    state.apply(0, "play stork")
    ctrl = _controls(state, 0)
    _check_limits(ctrl)
    assert "wish none" in ctrl.codes() and "wish M" in ctrl.codes() and len(ctrl.codes()) == 15
    state.apply(0, "wish none")
    state.apply(1, "play panda")
    everyone_passes(state)
    ctrl = _controls(state, 1)
    assert sorted(ctrl.codes()) == ["gift 0", "gift 2"]
    labels = [b.label for row in ctrl.rows for b in row]
    assert labels == ["Give it to Cid", "Give it to Ann"]


def test_waiting_seat_gets_a_prompt_only() -> None:
    state = start_hand(["stork", "", "", ""])
    state.apply(0, "play stork")
    for s in (1, 2, 3):
        state.apply(s, "call")
    ctrl = _controls(state, 2)
    assert ctrl.rows == () and "Waiting" in ctrl.prompt


def test_describe_codes() -> None:
    assert describe("pass") == "Pass"
    assert describe("call") == "Call Panda!"
    # An Ambush's name says its cards; other plays name theirs (names, never codes).
    assert describe("play 7t 7g 7r 7a") == "An Ambush of 7s"
    assert describe("play 5t 5g 6t 6g catfish=5") == (
        "A full house (5s over 6s), Catfish as 5: 5 of Tamahagane, 5 of Gyokuro, "
        "6 of Tamahagane, 6 of Gyokuro, Catfish"
    )
    assert describe("pass_cards 3t Mg cat") == "Pass 3 of Tamahagane, Mon of Gyokuro, Cat"
    assert describe("give left Mt") == "Give Mon of Tamahagane to your left"
    assert describe("wish B") == "Wish for a Bushi"


def test_controls_fit_discord_in_random_play() -> None:
    state = new_game(99, NAMES, {"target": 300})
    rng = random.Random(3)
    for _ in range(600):
        if state.is_over:
            break
        for seat in range(4):
            legal = state.legal_actions(seat)
            ctrl = _controls(state, seat)
            _check_limits(ctrl)
            assert set(ctrl.codes()) <= set(legal)
            for select in _selects(ctrl):
                code = select.code_for([select.options[0].value])
                if select.verb.startswith("give"):
                    assert code in legal
        seat = state.to_act[0]
        state.apply(seat, rng.choice([c for c in state.legal_actions(seat) if c != "call"]))


def test_catfish_lower_reading_is_reachable_and_legal_codes_compose() -> None:
    state = start_hand(["stork 5t 5g 6t 6g catfish", "", "", ""], {"free_first_lead": True})
    legal = state.legal_actions(0)
    assert {"play 5t 5g 6t 6g catfish=5", "play 5t 5g 6t 6g catfish=6"} <= set(legal)
    assert _unreachable(state, 0, _controls(state, 0), legal) == []


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_every_legal_action_is_reachable_within_discord_limits(seed: int) -> None:
    """Random playouts (out-of-turn Ambushes and calls included): for every seat in every
    state the controls fit Discord and compose every legal action, and nothing else."""
    options = random.Random(seed).choice(
        [{"target": 200}, {"target": 200, "wish": False, "free_first_lead": True}]
    )
    state = new_game(seed, NAMES, options)
    rng = random.Random(seed)
    for _ in range(400):
        if state.is_over:
            break
        for seat in range(4):
            legal = state.legal_actions(seat)
            ctrl = _controls(state, seat)
            _check_limits(ctrl)
            assert set(ctrl.codes()) <= set(legal)
            assert _unreachable(state, seat, ctrl, legal) == [], (seat, ctrl.prompt)
        choices = [(s, c) for s in state.to_act for c in state.legal_actions(s)]
        optional = [(s, c) for s in state.may_act for c in state.legal_actions(s)]
        if optional and rng.random() < 0.3:
            choices = optional
        if rng.random() < 0.9:
            choices = [x for x in choices if x[1] != "call"] or choices
        state.apply(*rng.choice(choices))


def test_prompt_says_why_passing_is_not_allowed_under_a_wish() -> None:
    # Seat 0 plays the Stork and wishes for a 7; seat 1 holds the 7t, which beats it.
    state = start_hand(["stork 7g 7r 7a", "7t", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish 7")
    assert "pass" not in state.legal_actions(1)
    ctrl = _controls(state, 1)
    _check_limits(ctrl)
    assert "pass" not in ctrl.codes()
    assert "or pass" not in ctrl.prompt
    assert "a 7" in ctrl.prompt and "Passing is not allowed" in ctrl.prompt
    assert _unreachable(state, 1, ctrl, state.legal_actions(1)) == []


def test_prompt_under_a_wish_the_player_cannot_fulfil_still_offers_pass() -> None:
    state = start_hand(["stork 7t 7g 7r 7a", "", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish 7")
    ctrl = _controls(state, 1)
    assert "pass" in ctrl.codes()
    assert "or pass" in ctrl.prompt and "a 7" in ctrl.prompt
    assert "you cannot play one now" in ctrl.prompt and "not allowed" not in ctrl.prompt


def test_lead_prompt_names_the_wished_rank_the_leader_must_lead() -> None:
    # Seat 1 cannot play its single 7 on a pair, wins the trick with Mons and must then
    # lead a combination with its 7.
    state = start_hand(["stork 1t 7g 7r 7a", "7t Mt Mg", "", ""])
    state.apply(0, "play stork 1t")
    state.apply(0, "wish 7")
    state.apply(1, "play Mt Mg")
    everyone_passes(state)
    assert state.turn == 1 and state.wish == "7"
    ctrl = _controls(state, 1)
    assert "pass" not in ctrl.codes()
    assert "a 7" in ctrl.prompt and "must" in ctrl.prompt
    assert "if you can" not in ctrl.prompt
