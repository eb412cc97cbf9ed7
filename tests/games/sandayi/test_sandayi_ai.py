"""The San Da Yi AI: legal, sensible choices from its own view, and clearly better than random."""

from __future__ import annotations

import random

from sandayi_helpers import PLAYERS, new, stack

from bot.games import sandayi
from bot.games.sandayi import ai
from bot.games.sandayi.arena import ai_policy, declarer_stats, match, random_policy
from bot.games.sandayi.cards import is_trump, points, suit


def test_ai_always_chooses_a_legal_action() -> None:
    for seed in range(6):
        state = sandayi.new_game(seed, PLAYERS, {"hands": 2})
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            code = sandayi.choose(view, legal, rng)
            if state.phase == "bury":
                # One action burying every card still to bury: not one of the one-card
                # codes ``legal`` lists, but each of its cards is one, and apply takes it.
                cards = code.split()[1:]
                assert len(cards) == state.to_bury
                assert all(f"bury {c}" in legal for c in cards)
                state.check(seat, state.normalize(seat, code))
            else:
                assert code in legal
            state.apply(seat, code)


def test_strong_hand_bids_and_weak_hand_passes() -> None:
    strong = ["BJ", "SJ", "2S", "2H", "2D", "AS", "KS", "QS", "JS", "10S", "AH", "3D"]
    weak = ["3S", "4H", "5C", "6D", "7S", "8H", "9C", "3C", "4D", "6H", "7C", "8D"]
    state = new(stack({0: strong, 1: weak}))
    view = state.view(0)
    assert ai.hand_strength(strong) > ai.hand_strength(weak)
    assert ai.choose(view, state.legal_actions(0), random.Random(0)).startswith("bid")
    state.apply(0, "pass")
    assert ai.choose(state.view(1), state.legal_actions(1), random.Random(0)) == "pass"


def test_ai_bids_no_more_than_its_hand_is_worth() -> None:
    hand = ["BJ", "SJ", "2S", "2H", "2D", "AS", "KS", "QS", "JS", "10S", "AH", "3D"]
    view = {"phase": "bidding", "hand": hand}
    max_bid = int(
        ai.choose_bid(view, ["pass", "bid 60", "bid 65", "bid 70", "bid 75", "bid 80"]).split()[1]
    )
    assert max_bid == 60  # the lowest bid it accepts
    assert ai.choose_bid(view, ["pass", "bid 80"]) in ("pass", "bid 80")


def test_bury_keeps_trumps_voids_short_suits_and_buries_points() -> None:
    hand = [
        # spades: the obvious trump suit, with jokers and 2s
        "BJ", "SJ", "2S", "2H", "AS", "KS", "QS", "JS", "10S", "7S",
        # a short club suit with points, a short diamond suit, some hearts
        "KC", "5C", "4D", "10D", "AH", "9H", "6H", "3H",
    ]  # fmt: skip
    code = ai.choose_bury(hand)
    buried = code.split()[1:]
    assert len(buried) == 6 and set(buried) <= set(hand)
    assert not any(is_trump(c, "S") for c in buried)
    assert {"KC", "5C", "4D", "10D"} <= set(buried)  # two suits voided, 25 points buried
    assert "AH" not in buried
    assert ai.choose_trump([c for c in hand if c not in buried]) == "trump S"


def test_defender_smears_points_on_a_partner_winning_the_last_seat() -> None:
    # Seat 3 plays last; partner seat 2 wins with the big joker: throw the 10.
    view = {
        "phase": "play",
        "seat": 3,
        "declarer": 0,
        "trump": "S",
        "hand": ["10H", "4C", "6D", "KD"],
        "trick": [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "3S"}, {"seat": 2, "card": "BJ"}],
        "tricks_played": 8,
        "tricks": [],
        "buried": None,
    }
    code = ai.choose(view, ["play 10H", "play 4C", "play 6D", "play KD"], random.Random(0))
    assert points(code.split()[1]) == 10


def test_declarer_keeps_its_top_trump_for_the_last_trick() -> None:
    view = {
        "phase": "play",
        "seat": 0,
        "declarer": 0,
        "trump": "S",
        "hand": ["BJ", "4S", "7H"],
        "trick": [],
        "tricks_played": 9,
        "tricks": [],
        "buried": None,
    }
    code = ai.choose(view, ["play BJ", "play 4S", "play 7H"], random.Random(0))
    assert code != "play BJ"


def test_declarer_ruffs_a_trick_defenders_could_smear_on() -> None:
    # Void in clubs, the declarer is second to play: ruff cheaply rather than discard.
    view = {
        "phase": "play",
        "seat": 0,
        "declarer": 0,
        "trump": "S",
        "hand": ["BJ", "3S", "7H", "8D"],
        "trick": [{"seat": 3, "card": "4C"}],
        "tricks_played": 8,
        "tricks": [],
        "buried": None,
    }
    code = ai.choose(view, ["play BJ", "play 3S", "play 7H", "play 8D"], random.Random(0))
    assert code == "play 3S"


SEEDS = range(150)


def test_ai_declarer_beats_random_declarer_against_random_defenders() -> None:
    smart = declarer_stats(SEEDS, ai_policy, random_policy)
    naive = declarer_stats(SEEDS, random_policy, random_policy)
    assert smart.mean_declarer > 0 > naive.mean_declarer
    assert smart.mean_declarer - naive.mean_declarer > 5
    assert smart.declarer_win_rate > 0.5 > naive.declarer_win_rate


def test_ai_defenders_beat_random_defenders_against_a_random_declarer() -> None:
    smart = declarer_stats(SEEDS, random_policy, ai_policy)
    naive = declarer_stats(SEEDS, random_policy, random_policy)
    assert smart.mean_defenders > naive.mean_defenders + 1
    assert smart.kou_di_rate > naive.kou_di_rate


def test_ai_wins_matches_against_random_players() -> None:
    firsts = 0
    for seed in range(8):
        state = match(seed, [ai_policy, random_policy, random_policy, random_policy], hands=4)
        firsts += state.result().placements[0] == 1
        assert sum(state.scores) == 0
    assert firsts >= 6


def test_bury_suits_have_expected_shape() -> None:
    # Fewer than 6 plain cards: the weakest trumps are buried too.
    hand = ["BJ", "SJ", "2S", "2H", "2D", "2C", "AS", "KS", "QS", "JS", "10S", "9S",
            "8S", "7S", "6S", "3H", "4H", "5D"]  # fmt: skip
    buried = ai.choose_bury(hand).split()[1:]
    assert len(buried) == 6
    assert {"3H", "4H", "5D"} <= set(buried)
    assert not {"BJ", "SJ", "2S"} & set(buried)
    assert all(suit(c) in "SHD" for c in buried)


def test_ai_buries_the_rest_after_a_partial_bury() -> None:
    state = new(stack({0: ["3D"]}))
    state.apply(0, "bid 60")
    for seat in (1, 2, 3):
        state.apply(seat, "pass")
    hand = list(state.hands[0])
    state.apply(0, f"bury {hand[0]} {hand[1]}")
    code = sandayi.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert code.startswith("bury ") and len(code.split()) == 1 + 4
    state.apply(0, code)
    assert state.phase == "trump" and len(state.hands[0]) == 12
