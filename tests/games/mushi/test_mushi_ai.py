"""The Mushi AI: legal, deterministic for a given rng, and stronger than random play."""

from __future__ import annotations

import random

from bot.games import mushi
from bot.games.mushi.rules import MushiState


def play_match(seed: int, ai_seat: int) -> MushiState:
    state = mushi.new_game(seed, ["AI", "Random"] if ai_seat == 0 else ["Random", "AI"])
    rng = random.Random(seed)
    while not state.is_over:
        (seat,) = state.to_act
        legal = state.legal_actions(seat)
        code = mushi.choose(state.view(seat), legal, rng) if seat == ai_seat else rng.choice(legal)
        state.apply(seat, code)
    return state


def test_ai_beats_uniformly_random_play():
    matches = 40  # of 12 hands, the AI in each seat half of the time
    wins = 0
    for i in range(matches):
        ai_seat = i % 2
        state = play_match(1000 + i, ai_seat)
        wins += state.scores[ai_seat] > state.scores[1 - ai_seat]
    assert wins / matches >= 0.75, f"AI won {wins} of {matches} matches"


def test_ai_is_deterministic_for_a_seeded_rng():
    state = mushi.new_game(3, ["a", "b"])
    seat = state.to_act[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    assert mushi.choose(view, legal, random.Random(1)) == mushi.choose(
        view, legal, random.Random(1)
    )


def test_ai_takes_the_best_card_and_keeps_a_four_of_a_kind():
    # The elder holds the Moon's month-mate: taking the Moon (20) beats taking a plain.
    table = ["8b", "1p1", "2a", "3b", "4r", "5p1", "9p1", "10p1"]
    hand = ["8p1", "1p2", "12p1", "12p2", "12p3", "11r", "9a", "10a"]
    younger = ["1r", "2r", "3r", "4a", "5a", "9r", "10r", "11a"]
    rest = [c for c in mushi.DECK if c not in table + hand + younger]
    state = mushi.new_game(
        1, ["a", "b"], {"four_of_a_kind_cancel": False}, deck=hand + younger + table + rest
    )
    legal = state.legal_actions(0)
    choice = mushi.choose(state.view(0), legal, random.Random(0))
    assert choice == "play 8p1"


def test_ai_answers_the_four_of_a_kind_question():
    # The younger's hand: four Paulownias (and strong cards): the AI keeps the deal.
    table = ["1b", "1r", "2a", "2r", "3b", "3r", "8b", "8a"]
    elder = ["4a", "5a", "9a", "10a", "1p1", "2p1", "3p1", "8p1"]
    younger = ["12b", "12p1", "12p2", "12p3", "11b", "11a", "4r", "5r"]
    rest = [c for c in mushi.DECK if c not in table + elder + younger]
    state = mushi.new_game(1, ["a", "b"], deck=elder + younger + table + rest)
    while state.to_act == [0]:  # the elder's first turn (its flip may ask for a choice)
        state.apply(0, state.default_action(0))
    assert state.to_act == [1] and "cancel" in state.legal_actions(1)
    choice = mushi.choose(state.view(1), state.legal_actions(1), random.Random(0))
    assert choice != "cancel" and choice in state.legal_actions(1)
    # A poor four (the Pines, with junk) is thrown in.
    elder = ["1b", "1r", "1p1", "1p2", "2p1", "3p1", "4p1", "5p1"]
    younger = ["12b", "12p1", "2a", "2r", "3b", "3r", "8b", "8a"]
    table = ["4a", "5a", "9a", "10a", "9r", "10r", "4r", "5r"]
    rest = [c for c in mushi.DECK if c not in table + elder + younger]
    state = mushi.new_game(1, ["a", "b"], deck=elder + younger + table + rest)
    assert mushi.choose(state.view(0), state.legal_actions(0), random.Random(0)) == "cancel"
