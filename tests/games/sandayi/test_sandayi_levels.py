"""San Da Yi's AI levels (issue 30): easy and strong are registered, legal, and play to type;
strong's determinizations come from the seat's view alone."""

from __future__ import annotations

import random

import pytest
from sandayi_helpers import PLAYERS, new, stack

from bot.engine.search import Budget
from bot.games import sandayi
from bot.games.sandayi import ai, strong
from bot.games.sandayi.cards import DECK, group
from bot.games.sandayi.rules import SanDaYiState
from bot.games.sandayi.strong import Sim, play_voids, sample_play, unseen_cards

SMALL = Budget(samples=3, seconds=None)  # deterministic and quick for the tests


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BID_BUDGET", "KITTY_BUDGET", "PLAY_BUDGET"):
        monkeypatch.setattr(strong, name, SMALL)
    # Search every card decision, not only the last tricks: the tests cover them all.
    monkeypatch.setattr(strong, "PLAY_SEARCH_FROM", 0)


def test_levels_are_registered_weakest_first() -> None:
    levels = sandayi.SPEC.ai_levels()
    assert list(levels) == ["easy", "normal", "strong"]
    assert levels["easy"] is ai.choose_easy
    assert levels["strong"] is strong.choose_strong
    assert sandayi.SPEC.ai("strong") is strong.choose_strong


def _assert_legal(state: SanDaYiState, seat: int, code: str) -> None:
    legal = state.legal_actions(seat)
    if state.phase == "bury":
        cards = code.split()[1:]
        assert len(cards) == state.to_bury
        assert all(f"bury {c}" in legal for c in cards)
        state.check(seat, state.normalize(seat, code))
    else:
        assert code in legal


@pytest.mark.usefixtures("small_budgets")
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_each_level_chooses_a_legal_action_in_seeded_playouts(level: str) -> None:
    choose = sandayi.SPEC.ai(level)
    decisions = 0
    for seed in range(3):
        state = sandayi.new_game(seed, PLAYERS, {"hands": 2})
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            code = choose(state.view(seat), state.legal_actions(seat), rng)
            _assert_legal(state, seat, code)
            state.apply(seat, code)
            decisions += 1
    assert decisions > 100


def _normal_until(state: SanDaYiState, tricks: int) -> None:
    rng = random.Random(0)
    while not state.is_over and not (state.phase == "play" and len(state.tricks) >= tricks):
        seat = state.to_act[0]
        state.apply(seat, ai.choose(state.view(seat), state.legal_actions(seat), rng))


def _declared_at(seed: int, bid: str) -> SanDaYiState:
    """A hand where the first bidder declares at ``bid`` and the normal AI plays on."""
    state = sandayi.new_game(seed, PLAYERS, {"hands": 1})
    state.apply(state.to_act[0], bid)
    while state.phase == "bidding":
        state.apply(state.to_act[0], "pass")
    return state


@pytest.mark.parametrize("bid", ["bid 60", "bid 70"])
@pytest.mark.parametrize("seed", range(4))
def test_determinizations_deal_only_the_cards_the_seat_has_not_seen(seed: int, bid: str) -> None:
    state = _declared_at(seed, bid)
    _normal_until(state, 5)
    declarer = state.declarer
    assert declarer is not None
    for me in range(4):
        view = state.view(me)
        hidden = {c for s in range(4) if s != me for c in state.hands[s]}
        if me != declarer:
            hidden |= set(state.buried)
        assert set(unseen_cards(view)) == hidden  # exactly the cards it cannot see
        voids = play_voids(view)
        kitty = set(state.kitty) if state.kitty_public and me != declarer else set()
        for k in range(5):
            sim = sample_play(view, random.Random(k))
            assert sim.hands[me] == list(view["hand"])
            dealt = {c for s in range(4) if s != me for c in sim.hands[s]}
            if me != declarer:
                dealt |= set(sim.buried)
                assert len(sim.buried) == 6
            else:
                assert sim.buried == view["buried"]
            assert dealt == hidden  # the pool is the unseen cards, each once
            for s in range(4):
                assert len(sim.hands[s]) == len(state.hands[s])
                if s != me:
                    assert not {group(c, state.trump) for c in sim.hands[s]} & voids[s]
            for c in kitty & hidden:  # a shown kitty card is the declarer's or buried
                assert c in sim.hands[declarer] or c in sim.buried


def test_a_view_with_hidden_cards_swapped_gives_the_same_determinizations() -> None:
    state = _declared_at(2, "bid 70")
    _normal_until(state, 3)
    me = next(s for s in range(4) if s != state.declarer)
    a, b = [s for s in range(4) if s != me][:2]
    other = state.clone()
    assert isinstance(other, SanDaYiState)
    # Swap a card of one hidden hand with the other's (same group, so no void is broken).
    trump = state.trump
    ca, cb = next(
        (x, y)
        for x in other.hands[a]
        for y in other.hands[b]
        if group(x, trump) == group(y, trump) and x != y
    )
    other.hands[a][other.hands[a].index(ca)] = cb
    other.hands[b][other.hands[b].index(cb)] = ca
    # Swap a buried card with a hidden hand's card too: the defender cannot see either.
    other.buried[0], other.hands[a][0] = other.hands[a][0], other.buried[0]
    assert other.hands != state.hands
    assert other.view(me) == state.view(me)
    for k in range(4):
        s1 = sample_play(state.view(me), random.Random(k))
        s2 = sample_play(other.view(me), random.Random(k))
        assert s1.hands == s2.hands and s1.buried == s2.buried


def test_bidding_determinizations_hide_the_others_and_the_kitty() -> None:
    state = new(seed=5)
    me = state.to_act[0]
    view = state.view(me)
    hidden = set(DECK) - set(state.hands[me])
    assert set(unseen_cards(view)) == hidden
    dealt = strong._deal_others(view, random.Random(1), kitty=True)
    assert dealt[me] == list(view["hand"])
    assert len(dealt[4]) == 6 and all(len(h) == 12 for h in dealt[:4])
    assert {c for i, h in enumerate(dealt) if i != me for c in h} == hidden


@pytest.mark.parametrize("seed", range(12))
def test_the_playout_engine_plays_the_normal_ai_exactly(seed: int) -> None:
    state = _declared_at(seed, "bid 60")
    _normal_until(state, 0)
    assert state.trump is not None and state.leader is not None and state.declarer is not None
    sim = Sim(
        [list(h) for h in state.hands],
        state.declarer,
        state.trump,
        60,
        list(state.buried),
        state.leader,
    )
    d, kou_di = sim.run()
    _normal_until(state, 99)
    assert (d, kou_di) == (state.defender_points, state.history[-1]["kou_di"])


def test_strong_bids_a_powerhouse_and_passes_rubbish() -> None:
    power = ["BJ", "SJ", "2S", "2H", "2D", "AS", "KS", "QS", "JS", "10S", "AH", "3D"]
    junk = ["3S", "4H", "6C", "6D", "7S", "8H", "9C", "3C", "4D", "6H", "7C", "8D"]
    state = new(stack({0: power, 1: junk}, kitty=["3H", "4C", "7D", "8C", "9D", "JC"]))
    budget = Budget(samples=12, seconds=None)
    code = strong.choose_bid(state.view(0), state.legal_actions(0), random.Random(0), budget)
    assert code.startswith("bid ")
    state.apply(0, "pass")
    code = strong.choose_bid(state.view(1), state.legal_actions(1), random.Random(0), budget)
    assert code == "pass"


def test_strong_settles_each_bid_from_one_set_of_playouts() -> None:
    hand = ["BJ", "SJ", "2S", "2H", "AS", "KS", "QS", "JS", "10S", "AH", "KH", "3D"]
    state = new(stack({0: hand}))
    values = strong.bid_values(
        state.view(0), [60, 70, 80], random.Random(3), Budget(samples=8, seconds=None)
    )
    assert len(values) == 3
    # The same playouts at a higher bid: a bigger stake, a smaller target for the defenders.
    assert values[0] > 0


def test_easy_tries_to_win_with_its_highest_card_and_leads_high() -> None:
    # Seat 1 follows a low spade lead with the jokers and a small trump in hand: a beginner
    # throws the big joker on it (the normal AI wins with the small trump, 3S).
    view = {
        "phase": "play",
        "seat": 1,
        "declarer": 0,
        "trump": "S",
        "hand": ["BJ", "3S", "7H", "8D"],
        "trick": [{"seat": 0, "card": "4S"}],
        "tricks_played": 3,
        "tricks": [],
        "buried": None,
    }
    legal = ["play 3S", "play BJ"]
    assert ai.choose_easy(view, legal, random.Random(0)) == "play BJ"
    lead = dict(view, trick=[])
    assert (
        ai.choose_easy(lead, ["play 3S", "play 7H", "play 8D", "play BJ"], random.Random(0))
        == "play BJ"
    )
    # It cannot win: it throws its lowest card, points or not.
    cannot = dict(view, hand=["KH", "9D"], trick=[{"seat": 0, "card": "AH"}])
    assert ai.choose_easy(cannot, ["play KH"], random.Random(0)) == "play KH"
    cannot = dict(view, hand=["10C", "9D"], trick=[{"seat": 0, "card": "AH"}])
    assert ai.choose_easy(cannot, ["play 10C", "play 9D"], random.Random(0)) == "play 9D"


def test_easy_bids_on_high_cards_alone() -> None:
    # Six high cards in a hand of short, scattered suits: the beginner bids; a long strong
    # suit with few aces and 2s (a good trump hand for the normal AI) it passes.
    aces = ["BJ", "2S", "2H", "AS", "AH", "AD", "3C", "4C", "3D", "6H", "7D", "8C"]
    long_suit = ["SJ", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3H"]
    state = new(stack({0: aces, 1: long_suit}))
    legal = state.legal_actions(0)
    assert ai.high_cards(aces) == 6
    assert ai.choose_easy(state.view(0), legal, random.Random(0)) == "bid 60"
    state.apply(0, "pass")
    assert ai.choose_easy(state.view(1), state.legal_actions(1), random.Random(0)) == "pass"
    assert ai.choose(state.view(1), state.legal_actions(1), random.Random(0)).startswith("bid")


def test_easy_beats_random_and_loses_to_normal_in_short_matches() -> None:
    from bench.arena import run_arena

    vs_random = run_arena("sandayi", "easy", "random", 4, options={"hands": 4})
    vs_normal = run_arena("sandayi", "easy", "normal", 4, options={"hands": 4})
    assert vs_random["score_diff"] > 0 > vs_normal["score_diff"]


def test_card_lookups_answer_as_the_rules_compute() -> None:
    """rank/suit/points/group/is_trump are table lookups for the deck's cards (the strong
    AI's playouts ask them constantly): the same answers as computing them by rule 9."""
    from bot.games.sandayi import cards as cards_mod

    for trump in (*cards_mod.SUITS, None):
        for c in cards_mod.DECK:
            r = "" if c in cards_mod.JOKERS else c[:-1]
            s = "" if c in cards_mod.JOKERS else c[-1]
            trumps = c in cards_mod.JOKERS or r == "2" or (trump is not None and s == trump)
            assert cards_mod.rank(c) == r and cards_mod.suit(c) == s
            assert cards_mod.points(c) == cards_mod.RANK_POINTS.get(r, 0)
            assert cards_mod.is_trump(c, trump) == trumps
            assert cards_mod.group(c, trump) == (cards_mod.TRUMP_GROUP if trumps else s)
