"""Property tests: random legal playouts of whole Mushi matches."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import IllegalAction
from bot.engine.ui import MAX_BUTTONS_PER_ROW, MAX_LABEL, MAX_ROWS, MAX_SELECT_OPTIONS, Select
from bot.games import mushi
from bot.games.mushi.rules import DECK, MushiState, describe, hand_four_months

CARD_TOKEN = re.compile(r"\b(?:1[0-2]|[1-9])(?:b|a|r|p[1-3])\b")
OPTIONS = st.fixed_dictionaries(
    {
        "hands": st.sampled_from([6, 12]),
        "elder_takes_table_four": st.booleans(),
        "bottom_wild_takes_rain": st.booleans(),
        "four_of_a_kind_cancel": st.booleans(),
    }
)


def all_cards(state: MushiState) -> list[str]:
    cards = [*state.hands[0], *state.hands[1], *state.table, *state.stock, *state.set_aside]
    cards += [*state.captures[0], *state.captures[1]]
    if state.flipped:
        cards.append(state.flipped)
    return cards


def codes_in(obj: Any, skip: frozenset[str] = frozenset({"history", "players"})) -> set[str]:
    """Every card code anywhere in a view (finished hands' history aside)."""
    out: set[str] = set()
    if isinstance(obj, str):
        if obj in DECK:
            out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in skip:
                out |= codes_in(v, skip)
    elif isinstance(obj, list | tuple):
        for v in obj:
            out |= codes_in(v, skip)
    return out


def check_views(state: MushiState) -> None:
    stock = set(state.stock)
    for seat in (None, 0, 1):
        view = state.view(seat)
        hidden = set(stock)
        for other in (0, 1):
            if other != seat:
                hidden |= set(state.hands[other])
        leaked = codes_in(view) & hidden
        assert not leaked, f"view({seat}) shows hidden cards {leaked}"
        if seat is None:
            assert view["hand"] is None
        else:
            assert sorted(view["hand"]) == sorted(state.hands[seat])
        assert view["hand_counts"] == [len(h) for h in state.hands]
        # Only the seat that may cancel learns of its four (rule 5).
        assert view["cancel_months"] == (state.cancel_months(seat) if seat is not None else [])
        assert view["stock_count"] == len(state.stock)
        grouped = [c for g in view["captures"][0].values() for c in g]
        assert sorted(grouped) == sorted(state.captures[0])


def check_events(state: MushiState, since: int) -> None:
    """Events a seat (or a spectator) sees never name a card hidden from it."""
    for seat in (None, 0, 1):
        events = state.visible_events(seat, since)
        # Events before a new deal name cards of the old deal, which may now be hidden.
        deals = [i for i, e in enumerate(events) if e.kind == "deal"]
        events = events[deals[-1] :] if deals else events
        hidden = set(state.stock)
        for other in (0, 1):
            if other != seat:
                hidden |= set(state.hands[other])
        text = " ".join(e.text + json.dumps(e.data, default=str) for e in events)
        named = set(CARD_TOKEN.findall(text))
        assert not named & hidden, f"events seen by {seat} name hidden cards {named & hidden}"


def check_controls(state: MushiState) -> None:
    for seat in (0, 1):
        legal = state.legal_actions(seat)
        controls = mushi.controls(state.view(seat), legal)
        assert controls.prompt
        assert len(controls.rows) <= MAX_ROWS
        offered: set[str] = set()
        for row in controls.rows:
            if isinstance(row, Select):
                assert len(row.options) <= MAX_SELECT_OPTIONS
                assert all(len(o.label) <= 100 for o in row.options)
                # The host sends "verb v1 ..." for the chosen options.
                offered |= {row.code_for([o.value]) for o in row.options}
            else:
                assert 1 <= len(row) <= MAX_BUTTONS_PER_ROW
                assert all(len(b.label) <= MAX_LABEL for b in row)
                offered |= {b.code for b in row}
        assert offered <= set(legal)
        # Twins (plains of one month) share a button; every label stays reachable.
        assert {describe(c) for c in offered} == {describe(c) for c in legal}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), options=OPTIONS)
def test_random_playouts(seed: int, options: dict) -> None:
    state = mushi.new_game(seed, ["Ann", "Ben"], options)
    rng = random.Random(seed)
    hands_seen = 0
    steps = 0
    while not state.is_over:
        assert sorted(all_cards(state)) == sorted(DECK)  # 40 cards, each once
        (seat,) = state.to_act
        assert state.legal_actions(1 - seat) == []
        legal = state.legal_actions(seat)
        assert legal
        if "cancel" in legal:  # a four dealt to this seat, before its first card
            assert options["four_of_a_kind_cancel"] and len(state.hands[seat]) == 8
            assert hand_four_months(state.hands[seat])
        if steps % 7 == 0:
            check_views(state)
            check_controls(state)
        since = len(state.events)
        state.apply(seat, rng.choice(legal))
        check_events(state, since)
        steps += 1
        if len(state.history) > hands_seen:
            for h in state.history[hands_seen:]:
                assert sum(h["card_points"]) == 230
                assert sum(h["scores"]) == 0  # zero-sum every hand
                a = (h["card_points"][0] - 115) + h["combo_points"][0] - h["combo_points"][1]
                assert h["scores"][0] == a
            hands_seen = len(state.history)
    assert len(state.history) == options["hands"]
    assert sum(state.scores) == 0
    assert sorted(all_cards(state)) == sorted(DECK)
    check_views(state)
    replayed = mushi.replay(seed, ["Ann", "Ben"], options, state.log)
    assert replayed.snapshot() == state.snapshot()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_ai_playouts_choose_legal_actions(seed: int) -> None:
    state = mushi.new_game(seed, ["Ann", "Ben"], {"hands": 6, "bottom_wild_takes_rain": True})
    rng = random.Random(seed)
    while not state.is_over:
        (seat,) = state.to_act
        legal = state.legal_actions(seat)
        code = mushi.choose(state.view(seat), legal, rng)
        assert code in legal
        state.apply(seat, code)
    assert sum(state.scores) == 0


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    junk=st.sampled_from(
        ["play", "take", "take 1b", "play 6a", "play 1b 1b 1b", "cancel", "keep", "koikoi", ""]
    ),
)
def test_illegal_actions_change_nothing(seed: int, junk: str) -> None:
    state = mushi.new_game(seed, ["Ann", "Ben"])
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 30)):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act[0]
    before = state.snapshot()
    for who, code in ((seat, junk), (1 - seat, "play 1b")):
        if state.normalize(who, code) in state.legal_actions(who):
            continue
        try:
            state.apply(who, code)
        except IllegalAction as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{code!r} was accepted")
        assert state.snapshot() == before
    # Every non-acting seat gets a clear "not your turn".
    try:
        state.apply(1 - seat, "play 1b")
    except IllegalAction as exc:
        assert "turn" in exc.reason


def test_default_action_is_always_legal() -> None:
    for seed in range(3):
        state = mushi.new_game(seed, ["Ann", "Ben"], {"hands": 6})
        while not state.is_over:
            seat = state.to_act[0]
            code = state.default_action(seat)
            assert code in state.legal_actions(seat)
            state.apply(seat, code)
