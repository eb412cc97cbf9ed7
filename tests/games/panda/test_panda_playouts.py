"""Whole Panda matches with random legal actions (hypothesis): invariants at every step."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from panda_helpers import NAMES

from bot.games.panda import new_game, replay
from bot.games.panda.cards import ALL_CARDS, NATURALS, card_name

PUBLIC = ("history", "played_cards", "trick", "given", "game")
OPTIONS = [
    {"target": 400},
    {"target": 300, "wish": False},
    {"target": 300, "free_first_lead": True, "kingdom_ends_hand": True},
    {"target": 500, "wish": True},
]


def _cards_in_play(state) -> Counter:
    cards = Counter(c for h in state.hands for c in h)
    if state.phase == "play":
        cards.update(c for p in state.piles for c in p)
        cards.update(c for _, combo in state.trick for c in combo.cards)
    return cards


def _check_views(state) -> None:
    for seat in (0, 1, 2, 3, None):
        v = state.view(seat)
        json.dumps(v)  # views are plain data
        text = str({k: x for k, x in v.items() if k not in PUBLIC})
        for other in range(4):
            if other == seat:
                assert v["hand"] == state.hands[seat]
                continue
            for card in state.hands[other]:
                assert f"'{card}'" not in text, (seat, other, card)
        if seat is None:
            assert v["hand"] is None and v["given"] is None and v["received"] is None
        else:
            assert v["given"] == state.given[seat]


def _check_events(hidden_before: set[str], events) -> None:
    """Public events name no card that was hidden in a hand, except the cards they show
    being played (texts by code or name, data by code)."""
    public = [e for e in events if e.private_to is None]
    shown = {c for e in public if e.kind == "play" for c in e.data.get("cards", [])}
    hidden = hidden_before - shown
    for e in public:
        named = set(re.findall(r"\w+", e.text)) | set(re.findall(r"'(\w+)'", str(e.data)))
        leaked = {c for c in hidden if c in named}
        leaked |= {c for c in hidden & set(NATURALS) if card_name(c) in e.text}
        assert not leaked, (e, leaked)


def _check_history(entry) -> None:
    lines = entry["lines"]
    if not entry["double_victory"]:
        card = [x["points"] for x in lines if x["name"] == "Card points"]
        assert sum(card) == 100, entry
    else:
        assert sorted(x["points"] for x in lines if x["name"] == "Double victory") == [0, 200]
    kingdoms = [x for x in lines if x["name"] == "Kingdom"]
    assert len(kingdoms) == (entry["first_kingdom"] is not None)
    assert sum(entry["hand_scores"]) == sum(x["points"] for x in lines)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10**9), options=st.sampled_from(OPTIONS), eager=st.floats(0, 0.3))
def test_random_matches_keep_every_invariant(seed: int, options: dict, eager: float) -> None:
    state = new_game(seed, NAMES, options)
    rng = random.Random(seed)
    steps = 0
    histories = 0
    while not state.is_over:
        assert state.deal_no < 200, "the match should have ended long ago"
        assert _cards_in_play(state) == Counter(ALL_CARDS)
        if steps % 4 == 0:
            _check_views(state)
        choices = [(s, c) for s in state.to_act for c in state.legal_actions(s)]
        assert choices, "somebody must be able to act"
        if state.may_act and rng.random() < eager:
            optional = [(s, c) for s in state.may_act for c in state.legal_actions(s)]
            assert optional
            choices = optional
        # Random players who call Panda at every chance could drift below zero forever.
        if rng.random() > 0.05:
            choices = [x for x in choices if x[1] != "call"] or choices
        seat, code = rng.choice(choices)
        if rng.random() < 0.1 and state.to_act:
            seat = state.to_act[0]
            code = state.default_action(seat)  # what a timeout does is always legal
        assert state.normalize(seat, code) == code, "codes are canonical"
        hidden_before = {c for h in state.hands for c in h}
        _check_events(hidden_before, state.apply(seat, code))
        steps += 1
        while histories < len(state.history):
            _check_history(state.history[histories])
            histories += 1
    assert state.to_act == [] and state.may_act == []
    assert max(state.team_scores) >= state.opts.target
    assert state.team_scores[0] != state.team_scores[1]
    assert replay(seed, NAMES, options, state.log).snapshot() == state.snapshot()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_replay_midway_equals_live_state(seed: int) -> None:
    state = new_game(seed, NAMES, {"target": 200})
    rng = random.Random(seed)
    stop = rng.randint(5, 300)
    while not state.is_over and len(state.log) < stop:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice([c for c in state.legal_actions(seat) if c != "call"]))
    assert replay(seed, NAMES, {"target": 200}, state.log).snapshot() == state.snapshot()
