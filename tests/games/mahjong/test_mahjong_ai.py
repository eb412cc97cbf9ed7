"""The AI: legal, sensible decisions and clearly better results than a random player."""

from __future__ import annotations

import random

from bot.games.mahjong import choose, new_game

try:
    from .mahjong_helpers import PLAYERS, full_deck, game
except ImportError:
    from mahjong_helpers import PLAYERS, full_deck, game

S_ = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 2c"
W_ = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
N_ = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"


def test_ai_goes_out_when_it_can() -> None:
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b 5b", S_, W_, N_))
    assert choose(g.view(0), g.legal_actions(0), random.Random(0)) == "mahjong"


def test_ai_discards_the_loose_card() -> None:
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N", S_, W_, N_))
    code = choose(g.view(0), g.legal_actions(0), random.Random(0))
    # one away from Mah-Jongg after discarding N: it keeps the wait (and may call it)
    assert code in ("discard N", "declare 5b")


def test_ai_declares_a_concealed_kong_before_play() -> None:
    g = game(
        full_deck(
            "1b 2b 3b 4c 5c 6c 7d 8d 9d S S S 5b N", "E E E E 1b 4b 7b 1c 4c 7c 1d 4d 7d", W_, N_
        )
    )
    assert g.phase == "prelude"
    assert choose(g.view(1), g.legal_actions(1), random.Random(0)) == "kong E"


def per_hand_means(seeds: range) -> tuple[float, float, int, int]:
    """Mean score change per hand of the AI seats (0, 2) and the random seats (1, 3)."""
    totals = [0, 0]
    wins = [0, 0]
    hands = 0
    for seed in seeds:
        rng = random.Random(seed)
        g = new_game(seed, PLAYERS, {"max_hands": 6})
        while not g.is_over:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            code = choose(g.view(seat), legal, rng) if seat % 2 == 0 else rng.choice(legal)
            g.apply(seat, code)
        hands += g.hand_no
        for p in range(4):
            totals[p % 2] += g.totals[p]
        for h in g.history:
            if h["winner"] is not None:
                wins[h["winner"] % 2] += 1
    return totals[0] / 2 / hands, totals[1] / 2 / hands, wins[0], wins[1]


def test_ai_scores_clearly_more_than_a_random_player() -> None:
    ai, rnd, ai_wins, rnd_wins = per_hand_means(range(4))
    assert ai > rnd + 20, (ai, rnd)
    assert ai_wins > 3 * max(1, rnd_wins)
