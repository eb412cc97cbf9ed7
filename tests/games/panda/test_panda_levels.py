"""Panda's AI levels (issue 30): easy and strong registered, legal, view-only, distinct."""

from __future__ import annotations

import copy
import random

import pytest
from panda_helpers import start_hand

from bot.engine.search import Budget
from bot.games.panda import LEVELS, SPEC, new_game
from bot.games.panda import strong as strong_mod
from bot.games.panda.ai import choose, choose_easy
from bot.games.panda.cards import ALL_CARDS, value
from bot.games.panda.rules import DIRECTIONS
from bot.games.panda.selfplay import PLAYERS
from bot.games.panda.strong import choose_strong

# Deterministic and cheap: the wall-clock cap off, two determinizations per search.
TEST_BUDGET = Budget(samples=2, seconds=None)


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong_mod, "BUDGET", TEST_BUDGET)


def test_levels_are_registered() -> None:
    levels = SPEC.ai_levels()
    assert levels["easy"] is choose_easy and levels["strong"] is choose_strong
    assert SPEC.ai("normal") is choose
    assert set(LEVELS) == {"easy", "strong"}


@pytest.mark.parametrize("seed", [3, 8])
def test_every_level_plays_legal_codes_through_seeded_hands(seed: int) -> None:
    """Easy, strong and normal at one table (and random-free): every code each level
    returns is legal, or "" where the seat may only act out of turn; three hands each."""
    players = [choose_easy, choose_strong, choose, choose_strong]
    if seed % 2:
        players = players[1:] + players[:1]
    state = new_game(seed, PLAYERS)
    rng = random.Random(seed)
    asked = 0
    while not state.is_over and state.deal_no <= 3:
        acted = False
        for seat in state.priority():
            if seat in state.may_act:
                legal = state.legal_actions(seat)
                code = players[seat](state.view(seat), legal, rng)
                asked += 1
                if code:
                    assert code in legal, (seat, code)
                    state.apply(seat, code)
                    acted = True
                    break
        if acted:
            continue
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        code = players[seat](state.view(seat), legal, rng)
        asked += 1
        assert code in legal, (seat, code)
        state.apply(seat, code)
    assert state.deal_no > 3 or state.is_over
    assert asked > 100


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
@pytest.mark.parametrize("seed", [1, 2, 5])
def test_each_level_passes_a_complete_legal_set_of_three_cards(level: str, seed: int) -> None:
    """The pass is one form (three cards, one per recipient) that the host asks the AI one
    question at a time: each answer is legal and together they name three different cards
    of the hand, one per recipient; the three as one code are what the form would send."""
    level_fn = SPEC.ai(level)
    state = new_game(seed, PLAYERS)
    for seat in range(4):
        hand = list(state.hands[seat])
        trial = copy.deepcopy(state)
        picks: dict[str, str] = {}
        rng = random.Random(seed)
        while trial.phase == "passing" and seat in trial.to_act:
            legal = trial.legal_actions(seat)
            code = level_fn(trial.view(seat), legal, rng)
            assert code in legal
            trial.apply(seat, code)
            if code == "call":
                continue
            words = code.split()
            assert words[0] == "give" and words[1] not in picks
            picks[words[1]] = words[2]
        assert set(picks) == set(DIRECTIONS)
        assert len(set(picks.values())) == 3 and set(picks.values()) <= set(hand)
        whole = "give " + " ".join(f"{d} {picks[d]}" for d in DIRECTIONS)
        fresh = copy.deepcopy(state)
        assert fresh.validate(seat, whole)  # the form's one code is legal too
        state = trial


# ----- strong sees only its view ------------------------------------------------------------


def _mid_hand_state():
    state = new_game(21, PLAYERS)
    rng = random.Random(21)
    while state.phase == "passing" or len(state.played_cards) < 12:
        seat = state.to_act[0]
        state.apply(seat, choose(state.view(seat), state.legal_actions(seat), rng))
    return state


def test_strong_samples_only_unseen_cards_and_honours_its_passes() -> None:
    state = _mid_hand_state()
    seat = state.to_act[0]
    view = state.view(seat)
    unseen = set(ALL_CARDS) - set(state.hands[seat]) - set(state.played_cards)
    assert set(strong_mod.unseen_cards(view)) == unseen
    true_hidden = {c for s in range(4) if s != seat for c in state.hands[s]}
    assert true_hidden == unseen  # the truth is drawn from exactly the sampled pool
    for k in range(20):
        hands = strong_mod.sample_hands(view, random.Random(k))
        assert hands[seat] == state.hands[seat]
        others = [c for s in range(4) if s != seat for c in hands[s]]
        assert sorted(others) == sorted(unseen)
        assert [len(h) for h in hands] == [len(h) for h in state.hands]
        for d, card in state.given[seat].items():
            if card not in state.played_cards:
                assert card in hands[(seat + {"left": 1, "partner": 2, "right": 3}[d]) % 4]


def test_strong_sample_does_not_depend_on_the_hidden_cards() -> None:
    """Swapping two cards between the other seats' hands changes nothing the seat sees, so
    its determinizations (and its choice) are the same."""
    state = _mid_hand_state()
    seat = state.to_act[0]
    a, b = [(seat + k) % 4 for k in (1, 3)]
    other = copy.deepcopy(state)
    # Swap a card the seat did not pass (it knows where those are).
    known = set(other.given[seat].values())
    ca = next(c for c in other.hands[a] if c not in known)
    cb = next(c for c in other.hands[b] if c not in known)
    other.hands[a][other.hands[a].index(ca)] = cb
    other.hands[b][other.hands[b].index(cb)] = ca
    other._cache.clear()
    v1, v2 = state.view(seat), other.view(seat)
    assert v1 == v2
    for k in range(5):
        assert strong_mod.sample_hands(v1, random.Random(k)) == strong_mod.sample_hands(
            v2, random.Random(k)
        )
    legal = state.legal_actions(seat)
    assert choose_strong(v1, legal, random.Random(4)) == choose_strong(v2, legal, random.Random(4))


def test_strong_playout_world_matches_the_view() -> None:
    state = _mid_hand_state()
    seat = state.to_act[0]
    view = state.view(seat)
    world = strong_mod.sample_world(view, random.Random(3))
    assert world.view(seat)["hand"] == view["hand"]
    assert world.legal_actions(seat) == state.legal_actions(seat)
    assert world.to_act == state.to_act
    # A playout finishes the hand and scores it from the seat's team's side.
    score = strong_mod.play_out(strong_mod.clone(world), seat, random.Random(1))
    assert world.deal_no == state.deal_no  # the clone, not the world, was played
    assert -400 <= score <= 400


# ----- easy is a beginner, not random ------------------------------------------------------


def test_easy_leads_its_lowest_single() -> None:
    state = start_hand(["stork 2t 2g 5r 9g 9a Mt", "", "", ""], {"free_first_lead": True})
    code = choose_easy(state.view(0), state.legal_actions(0), random.Random(0))
    assert code == "play stork"  # normal would lead the pair or keep the Stork for later
    state.apply(0, code)
    state.apply(0, "wish none")
    for seat in (1, 2, 3):
        state.apply(seat, "pass")
    code = choose_easy(state.view(0), state.legal_actions(0), random.Random(0))
    lowest = min(value(c) for c in state.hands[0] if c not in ("cat", "catfish", "panda"))
    words = code.split()
    assert words[0] == "play" and len(words) == 2 and value(words[1]) == lowest


def test_easy_lays_a_bomb_at_once_where_normal_waits() -> None:
    state = start_hand(["stork 1t", "6t 6g 6r 6a 2g 3g", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    state.apply(1, "pass")
    legal = state.legal_actions(1)  # out of turn now: the Ambush on the Stork
    assert "play 6t 6g 6r 6a" in legal and 1 not in state.to_act
    assert choose(state.view(1), legal, random.Random(0)) == ""
    assert choose_easy(state.view(1), legal, random.Random(0)) == "play 6t 6g 6r 6a"


def test_easy_passes_its_three_lowest_cards_and_the_partner_gets_junk() -> None:
    state = new_game(5, PLAYERS)
    hand = list(state.hands[0])
    rng = random.Random(0)
    while 0 in state.to_act:
        state.apply(0, choose_easy(state.view(0), state.legal_actions(0), rng))
    given = state.given[0]
    assert [given["left"], given["right"], given["partner"]] == hand[:3]


def test_remembered_hand_cost_and_plays_equal_the_computed_ones() -> None:
    """The memos behind strong's cheaper playouts answer exactly as the plain functions,
    whatever the order of the hand's cards, and hand out fresh lists."""
    from bot.games.panda import ai, combos

    rng = random.Random(30)
    for _ in range(200):
        hand = rng.sample(ALL_CARDS, rng.randint(1, 15))
        shuffled = rng.sample(hand, len(hand))
        assert ai.hand_cost(hand) == ai._hand_cost(hand) == ai.hand_cost(shuffled)
        tops = [None, *combos._plays_on(rng.sample(ALL_CARDS, 8), None)[:5]]
        for top in tops:
            plays = combos.plays_on(hand, top)
            assert plays == combos._plays_on(hand, top) == combos.plays_on(shuffled, top)
            plays.clear()
            assert combos.plays_on(hand, top) == combos._plays_on(hand, top)
