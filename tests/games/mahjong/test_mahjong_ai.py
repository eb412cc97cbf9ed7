"""The AI: legal, sensible decisions and clearly better results than a random player."""

from __future__ import annotations

import random

from bot.games.mahjong import choose
from bot.games.mahjong.selfplay import ai_vs_random

try:
    from .mahjong_helpers import full_deck, game
except ImportError:
    from mahjong_helpers import full_deck, game

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


def test_ai_scores_clearly_more_than_a_random_player() -> None:
    ai, rnd, ai_wins, rnd_wins, _ = ai_vs_random(range(4), max_hands=6)
    assert ai > rnd + 20, (ai, rnd)
    assert ai_wins > 3 * max(1, rnd_wins)
