"""Hypothesis playouts of whole San Da Yi matches with random legal actions."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandayi_helpers import PLAYERS, card_strings, event_cards, hidden_from, revealed_by

from bot.engine import IllegalAction
from bot.games import sandayi
from bot.games.sandayi.cards import DECK, cards_points
from bot.games.sandayi.rules import SanDaYiState


def check_invariants(state: SanDaYiState) -> None:
    cards = state.cards_in_play()
    assert Counter(cards) == Counter(DECK), "54 cards, each exactly once"
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        leaked = card_strings(view) & hidden_from(state, seat)
        assert not leaked, f"seat {seat} sees hidden cards {leaked}"
        if seat is not None:
            assert sorted(view["hand"]) == sorted(state.hands[seat])
        assert view["hand_counts"] == [len(h) for h in state.hands]
    if state.phase == "play":
        counts = [len(h) for h in state.hands]
        assert max(counts) - min(counts) <= 1
        defenders = sum(t["points"] for t in state.tricks if t["winner"] != state.declarer)
        assert state.defender_points == defenders


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
@given(
    seed=st.integers(0, 10**6),
    hands=st.integers(1, 3),
    fixed=st.booleans(),
    data=st.data(),
)
def test_random_matches(seed: int, hands: int, fixed: bool, data: st.DataObject) -> None:
    options = {"hands": hands, "fixed_minimums": fixed}
    state = sandayi.new_game(seed, PLAYERS, options)
    check_invariants(state)
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        assert legal
        for other in range(4):
            if other != seat:
                assert state.legal_actions(other) == []
        # The simplest bidding choice is the lowest bid (so matches end); every legal action
        # stays drawable.
        if state.phase == "bidding" and len(legal) > 1 and not data.draw(st.booleans()):
            code = legal[1]
        else:
            code = legal[data.draw(st.integers(0, len(legal) - 1))]
        history = len(state.history)
        hidden_before = {s: hidden_from(state, s) for s in (None, 0, 1, 2, 3)}
        declarer_before, events_before = state.declarer, len(state.events)
        state.apply(seat, code)
        steps += 1
        check_invariants(state)
        # The new events name no card hidden from a seat that sees them, except the cards
        # the action itself shows (a played card; the kitty when the bidding ends).
        for viewer, hidden in hidden_before.items():
            hidden = hidden - revealed_by(declarer_before, state, viewer, code)
            for event in state.visible_events(viewer, events_before):
                leaked = event_cards(event) & hidden
                assert not leaked, f"seat {viewer} learns {leaked} from {event}"
        if len(state.history) > history:
            entry = state.history[-1]
            assert sum(entry["settlement"]) == 0
            assert entry["totals"] == state.scores
            assert (
                entry["case"]
                == sandayi.scoring.settle(
                    entry["bid"], entry["defender_points"], entry["kou_di"]
                ).case.code
            )
            assert 0 <= entry["defender_points"] <= 100
            assert entry["defender_points"] % 5 == 0
        assert steps < 5000
    assert len(state.history) == hands
    assert sum(state.scores) == 0
    assert state.to_act == []
    result = state.result()
    assert result.scores == tuple(state.scores)
    rebuilt = sandayi.replay(seed, PLAYERS, options, state.log)
    assert rebuilt.snapshot() == state.snapshot()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_replay_mid_hand_equals_live_state(seed: int, data: st.DataObject) -> None:
    state = sandayi.new_game(seed, PLAYERS, {"hands": 2})
    for _ in range(data.draw(st.integers(0, 70))):
        if state.is_over:
            break
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[data.draw(st.integers(0, len(legal) - 1))])
    rebuilt = sandayi.replay(seed, PLAYERS, {"hands": 2}, state.log)
    assert rebuilt.snapshot() == state.snapshot()
    for seat in (None, 0, 1, 2, 3):
        assert rebuilt.view(seat) == state.view(seat)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    data=st.data(),
    bogus=st.sampled_from(
        ["", "bid", "bid 55", "bid 90", "play", "play ZZ", "play 3D 4D", "trump X", "bury", "xyzzy"]
    ),
)
def test_illegal_actions_change_nothing(seed: int, data: st.DataObject, bogus: str) -> None:
    state = sandayi.new_game(seed, PLAYERS, {"hands": 1})
    for _ in range(data.draw(st.integers(0, 40))):
        if state.is_over:
            break
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[data.draw(st.integers(0, len(legal) - 1))])
    if state.is_over:
        return
    before = state.snapshot()
    seat = state.to_act[0]
    for who, code in [(seat, bogus), ((seat + 1) % 4, state.legal_actions(seat)[0]), (7, "pass")]:
        try:
            state.apply(who, code)
        except IllegalAction as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{code!r} by seat {who} was accepted")
        assert state.snapshot() == before


def test_points_in_tricks_and_kitty_add_up_to_100() -> None:
    state = sandayi.new_game(3, PLAYERS, {"hands": 1})
    state.apply(state.to_act[0], "bid 60")
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.default_action(seat) if state.phase != "bidding" else "pass")
    trick_points = sum(t["points"] for t in state.tricks)
    assert trick_points + cards_points(state.buried) == 100
