"""Random whole matches of Koi-Koi: no crash, cards conserved, no hidden card leaks,
replay equals the live state, and only round winners score."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.hanafuda.cards import ALL_CARDS
from bot.games.koikoi import new_game, replay
from bot.games.koikoi.rules import KoiKoiState

PLAYERS = ["Alice", "Bob"]
CARD_TOKEN = re.compile(r"\b(?:1[0-2]|[1-9])(?:b|a|r|p[1-3])\b")


def all_cards(state: KoiKoiState) -> list[str]:
    cards = state.hands[0] + state.hands[1] + state.board + state.stack
    cards += state.captures[0] + state.captures[1]
    if state.flipped is not None:
        cards.append(state.flipped)  # a flip waiting for its target
    return cards


def visible_text(state: KoiKoiState, seat: int | None, since: int) -> str:
    events = state.visible_events(seat, since)
    # Events before a new deal name cards of the old deal, which may now be in a new hand.
    deals = [i for i, e in enumerate(events) if e.kind == "deal"]
    events = events[deals[-1] :] if deals else events
    return json.dumps(state.view(seat)) + " ".join(e.text + json.dumps(e.data) for e in events)


def check_invariants(state: KoiKoiState, since: int) -> None:
    cards = all_cards(state)
    if not state.is_over:
        assert sorted(cards) == sorted(ALL_CARDS)
    else:
        assert len(cards) == len(set(cards)) and set(cards) <= set(ALL_CARDS)
    for seat in (0, 1):
        seen = set(CARD_TOKEN.findall(visible_text(state, seat, since)))
        assert not seen & set(state.hands[1 - seat]), "the other hand leaked into a view"
        assert state.view(seat)["hand"] == sorted(state.hands[seat], key=ALL_CARDS.index)
    spectator = set(CARD_TOKEN.findall(visible_text(state, None, since)))
    assert not spectator & set(state.hands[0] + state.hands[1])
    assert state.view(None)["hand"] is None
    assert state.view(0)["hand_counts"] == [len(h) for h in state.hands]


def play_match(seed: int, rounds: int, action_rng: random.Random) -> KoiKoiState:
    state = new_game(seed, PLAYERS, {"rounds": rounds})
    check_invariants(state, 0)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        assert legal and state.legal_actions(1 - seat) == []
        assert state.default_action(seat) in legal
        since = len(state.events)
        state.apply(seat, action_rng.choice(legal))
        check_invariants(state, since)
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    action_seed=st.integers(min_value=0, max_value=2**32),
    rounds=st.sampled_from([6, 12]),
)
def test_random_matches(seed: int, action_seed: int, rounds: int) -> None:
    state = play_match(seed, rounds, random.Random(action_seed))
    assert len(state.history) == rounds
    assert state.view(None)["phase"] == "over" and state.to_act == []
    # Only winners score, and the totals are the sum of the rounds.
    totals = [0, 0]
    for h in state.history:
        assert h["points"] >= 0
        if h["winner"] is None:
            assert h["reason"] == "draw" and h["points"] == 0
        else:
            assert h["points"] > 0
            assert h["points"] == sum(y["points"] for y in h["yaku"])
            totals[h["winner"]] += h["points"]
    assert state.scores == totals and min(state.scores) >= 0
    assert replay(seed, PLAYERS, {"rounds": rounds}, state.log).snapshot() == state.snapshot()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), stop_after=st.integers(0, 120))
def test_replay_mid_match(seed: int, stop_after: int) -> None:
    state = new_game(seed, PLAYERS)
    rng = random.Random(seed)
    for _ in range(stop_after):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    again = replay(seed, PLAYERS, None, state.log)
    assert again.snapshot() == state.snapshot()
    assert again.view(0) == state.view(0) and again.view(None) == state.view(None)
