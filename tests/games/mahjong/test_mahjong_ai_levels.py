"""The AI levels (easy, normal, strong): registered, legal on seeded playouts, normal aims
at value, strong plays for speed and never hands a standing hand its card, strong decides
from its view alone, easy plays like a beginner."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games.mahjong import SPEC, new_game
from bot.games.mahjong.ai import (
    LEVELS,
    NORMAL,
    STRONG,
    Style,
    _unseen,
    choose,
    easy,
    hint,
    play,
    strong,
)
from bot.games.mahjong.plan import targets
from bot.games.mahjong.tiles import INDEX, NUM_KINDS, counts_of
from tests.games.mahjong.mahjong_helpers import hidden_from, swap_hidden

try:
    from .mahjong_helpers import PLAYERS, full_deck, game
except ImportError:
    from mahjong_helpers import PLAYERS, full_deck, game

S_ = "1c 4c 7c 1c 4c 7c 1d 4d 7d 2c 5c 8c 2c"
W_ = "3c 6c 9c 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
N_ = "2d 5d 8d 3c 5c 8c 1d 4d 7d 1c 4c 7c 1d"
SPEED_ONLY = Style(hunt=-1, one_suit=False, concealed=False)  # the normal level before


def test_every_level_is_registered() -> None:
    levels = SPEC.ai_levels()
    assert set(levels) >= {"easy", "normal", "strong"}
    assert levels["easy"] is easy and levels["strong"] is strong
    assert LEVELS == {"easy": easy, "strong": strong}


@pytest.mark.parametrize("seed", [3, 11, 27])
def test_each_level_returns_a_legal_action_in_seeded_playouts(seed: int) -> None:
    """Two hands with easy, normal and strong at the table (and a level repeated): every
    answer is one of the legal actions, in every phase."""
    g = new_game(seed, PLAYERS, {"max_hands": 2})
    seats = [easy, choose, strong, easy if seed % 2 else strong]
    rng = random.Random(seed)
    asked = set()
    for _ in range(4000):
        if g.is_over:
            break
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        code = seats[seat](g.view(seat), legal, rng)
        assert code in legal, (seat, code, legal)
        asked.add(g.phase)
        g.apply(seat, code)
    assert g.is_over
    assert {"discard", "claim"} <= asked


def test_normal_keeps_the_pair_card_of_a_special_hand_in_reach() -> None:
    """1-9 Bamboo, three Red dragons, a North and a 5 Dots: the North is half the honour
    pair of a Big Snake (1600), so normal throws the 5 Dots; playing for speed alone, the
    old normal called a standing hand on the 5 Dots and threw the North."""
    g = game(full_deck("1b 2b 3b 4b 5b 6b 7b 8b 9b C C C 5d N", S_, W_, N_))
    view, legal = g.view(0), g.legal_actions(0)
    assert play(view, legal, random.Random(0), SPEED_ONLY) == "declare 5d"
    assert choose(view, legal, random.Random(0)) == "discard 5d"
    hand = counts_of(INDEX[c] for c in view["hand"])
    found = targets(hand, [], 0, 0, _unseen(view, 0, hand), 2)
    assert found and found[0].hand.__name__ == "BigSnake" and found[0].short == 1


def _one_suit_position() -> tuple[Any, list[str]]:
    """East's view and legal actions early in a hand of ten Characters, a South pair and a
    5-6 Bamboo (a suit dominates: one suit is in reach)."""
    g = game(
        full_deck(
            "1c 2c 3c 4c 5c 6c 7c 7c 9c 9c 5b 6b S S",
            "1b 4b 7b 1b 4b 7b 1d 4d 7d 2b 5b 8b 2b",
            "3b 6b 9b 3b 6b 9b 3d 6d 9d 2d 5d 8d 5d",
            "N N N W W W E E E C C C P",
        )
    )
    return g.view(0), g.legal_actions(0)


def test_normal_goes_one_suit_when_a_suit_dominates() -> None:
    """Ten Characters, a South pair and a 5-6 Bamboo early in the hand: normal gives up
    the Bamboo (one suit + honours multiplies the hand by 1.5) though it costs a card of
    speed; the speed-only player keeps it and throws a Characters card."""
    view, legal = _one_suit_position()
    assert choose(view, legal, random.Random(0)) in ("discard 5b", "discard 6b")
    assert play(view, legal, random.Random(0), SPEED_ONLY) == "discard 1c"


def test_normal_declines_a_chow_that_would_open_a_close_concealed_hand() -> None:
    """One card from ready with nothing melded, normal keeps its hand concealed rather
    than claim a chow; the speed-only player takes it."""
    from bot.games.mahjong.ai import _claim_for_plan, _melds, _value_tiles

    view = {
        "phase": "claim",
        "seat": 1,
        "claim": {"card": "3d"},
        "melds": [[], [], [], []],
        "wall": 60,
        "seat_winds": ["E", "S", "W", "N"],
        "round_wind": "E",
    }
    hand = counts_of(INDEX[c] for c in "1b 2b 3b 4c 5c 6c 7b 8b 9b 1d 2d 8c 9d".split())
    legal = ["pass", "chow 1d 2d 3d"]
    got = _claim_for_plan(view, legal, hand, _melds(view, 1), _value_tiles(view, 1), None, NORMAL)
    old = _claim_for_plan(view, legal, hand, [], _value_tiles(view, 1), None, SPEED_ONLY)
    assert (got, old) == ("pass", "chow 1d 2d 3d")


def _midgame(seed: int, decisions: int) -> object:
    g = new_game(seed, PLAYERS, {"max_hands": 1})
    rng = random.Random(seed)
    n = 0
    # play on to the first ordinary discard turn after ``decisions`` decisions
    while not g.is_over and (n < decisions or g.phase != "discard" or g.pending_declare):
        seat = g.to_act[0]
        g.apply(seat, choose(g.view(seat), g.legal_actions(seat), rng))
        n += 1
    return g


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_strong_reads_only_its_view(seed: int) -> None:
    """The cards strong counts as unseen (its live-card counts) are exactly the ones its
    seat cannot see, and swapping two hidden cards (an opponent's and one in the wall)
    gives the same view and the same decision. (Strong samples nothing: no deal of the
    hidden cards exists that could hold a card it cannot know.)"""
    g = _midgame(seed, 60)
    assert not g.is_over and g.phase == "discard"
    seat = g.to_act[0]
    view = g.view(seat)
    hand = counts_of(INDEX[c] for c in view["hand"] if INDEX[c] < NUM_KINDS)
    assert _unseen(view, seat, hand) == hidden_from(g, seat)
    code = strong(view, g.legal_actions(seat), random.Random(1))
    p = (seat + 1) % 4
    other = swap_hidden(g, p)
    assert other.view(seat) == view
    assert strong(other.view(seat), other.legal_actions(seat), random.Random(1)) == code


@pytest.mark.parametrize("level", [choose, strong])
def test_no_level_but_easy_throws_the_card_a_standing_opponent_calls(level: Any) -> None:
    """West has called a standing hand on the 9 Characters (its hand is shown): throwing
    the lone 9 Characters would hand West the Mah-Jongg, so normal (and its hint) and
    strong throw the North instead. With West calling the North, they throw the 9."""
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7b 8b 2d 3d 5d 5d 9c N", S_, W_, N_))
    view, legal = g.view(0), g.legal_actions(0)
    assert level(view, legal, random.Random(0)) == "discard 9c"
    view["standing"][2] = {"card": "9c", "hand": W_.split()}
    assert level(view, legal, random.Random(0)) == "discard N"
    assert hint(view, legal)[0] == "discard N"
    view["standing"][2] = {"card": "N", "hand": W_.split()}
    assert level(view, legal, random.Random(0)) == "discard 9c"


@pytest.mark.parametrize("level", [choose, strong])
def test_a_standing_hand_is_called_only_with_a_safe_discard(level: Any) -> None:
    """Ready after throwing the lone 9 Characters (waiting on the 3 Dots alone), the level
    calls a standing hand on the 3 Dots. When South's standing hand calls the 9
    Characters, the call would have to go with that very card: the level keeps the card
    and throws another."""
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7b 8b 9b 1d 2d 5d 5d 9c", S_, W_, N_))
    view, legal = g.view(0), g.legal_actions(0)
    assert level(view, legal, random.Random(0)) == "declare 3d"
    view["standing"][1] = {"card": "9c", "hand": S_.split()}
    code = level(view, legal, random.Random(0))
    assert code.startswith("discard ") and code != "discard 9c"


def test_strong_stays_silent_on_a_wide_wait() -> None:
    """Ready after throwing the lone 9 Characters on the 1 and 4 Dots (8 live cards), a
    standing hand would call one of them (4 live): normal calls it, strong throws the 9
    Characters without a call (a silent hand wins on either card, from anyone's discard;
    the others keep a called card). With three 4 Dots in sight (5 live, a call on the 1
    Dots keeps 4 of them) strong calls."""
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7b 8b 9b 2d 3d 5d 5d 9c", S_, W_, N_))
    view, legal = g.view(0), g.legal_actions(0)
    assert STRONG.silent is not None and 1 < STRONG.silent <= 2
    assert choose(view, legal, random.Random(0)) == "declare 1d"
    assert strong(view, legal, random.Random(0)) == "discard 9c"
    view["rivers"][2] = ["4d", "4d", "4d"]
    assert strong(view, legal, random.Random(0)) == "declare 1d"


def test_strong_plays_for_speed_not_one_suit() -> None:
    """The one-suit hand of normal's test: strong keeps the Bamboo pair that makes the
    hand quicker, where normal throws one (nearly every hand is won from a standing hand,
    so the hands won decide a match more than one suit's multiplier)."""
    view, legal = _one_suit_position()
    assert choose(view, legal, random.Random(0)) in ("discard 5b", "discard 6b")
    assert strong(view, legal, random.Random(0)) == play(view, legal, random.Random(0), SPEED_ONLY)


def test_easy_claims_every_pung_it_can() -> None:
    """A beginner's trait: easy claims a pung of a card it holds twice even when that does
    not bring its hand closer; normal passes."""
    view = {
        "phase": "claim",
        "seat": 1,
        "claim": {"card": "5c"},
        "melds": [[], [], [], []],
        "rivers": [[], [], [], []],
        "standing": [None] * 4,
        "wall": 60,
        "seat_winds": ["E", "S", "W", "N"],
        "round_wind": "E",
        "hand": "1b 2b 3b 4c 5c 5c 6c 7b 8b 9b 1d 2d 3d".split(),
    }
    legal = ["pass", "pung"]
    assert easy(view, legal, random.Random(0)) == "pung"
    assert choose(view, legal, random.Random(0)) == "pass"


def test_easy_discards_honours_last() -> None:
    """With a lone West among suited cards, easy keeps the West and throws a suited card
    whatever its dice; normal, seeing no value in a West that is neither its wind nor the
    round's, throws it."""
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7b 8b 9b W 9d 2d 3d 3d", S_, W_, N_))
    view, legal = g.view(0), g.legal_actions(0)
    assert choose(view, legal, random.Random(0)) == "discard W"
    picks = {easy(view, legal, random.Random(n)) for n in range(12)}
    assert "discard W" not in picks
    assert picks <= {"discard 9d", "discard 3d", "discard 2d"}
