"""The Panda AI: legal, sensible, and much stronger than random play."""

from __future__ import annotations

import random

from panda_helpers import everyone_passes, start_hand

from bot.games.panda import choose
from bot.games.panda.ai import hand_cost, pass_plan
from bot.games.panda.selfplay import play_match, random_agent


def _ask(state, seat):
    return choose(state.view(seat), state.legal_actions(seat), random.Random(0))


def test_ai_team_beats_random_team() -> None:
    rnd = random_agent()
    wins = 0
    matches = 20
    for m in range(matches):
        state = play_match(4242 + m, [choose, rnd, choose, rnd])
        wins += state.team_scores[0] > state.team_scores[1]
    assert wins / matches >= 0.8


def test_ai_only_returns_legal_codes_in_ai_matches() -> None:
    state = play_match(77, [choose] * 4, {"target": 600})
    assert state.is_over  # every apply() succeeded: each chosen code was legal


def test_ai_leads_low_and_never_passes_a_lead() -> None:
    state = start_hand(["stork 2t 9g Mt", "", "", ""], {"free_first_lead": True})
    code = _ask(state, 0)
    assert code.startswith("play")
    assert "Mt" not in code and "panda" not in code


def test_ai_passes_on_its_partner() -> None:
    state = start_hand(["stork 1t", "", "2r 3r 9r", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    state.apply(1, "pass")
    assert _ask(state, 2) == "pass"


def test_ai_keeps_its_ambush_for_a_cheap_trick() -> None:
    state = start_hand(["stork 1t", "6t 6g 6r 6a 2g 3g", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    code = _ask(state, 1)
    assert code != "play 6t 6g 6r 6a"
    # Out of turn it waits too.
    state.apply(1, "pass")
    assert _ask(state, 1) == ""


def test_ai_lays_a_kingdom_at_once() -> None:
    state = start_hand(["stork", "Bg Gg Eg Mg", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    state.apply(1, "pass")
    code = _ask(state, 1)
    if code == "call":  # a strong hand may call Panda first
        state.apply(1, code)
        code = _ask(state, 1)
    assert code == "play Bg Gg Eg Mg"


def test_ai_gifts_the_panda_trick_to_the_opponent_doing_worse() -> None:
    # Seat 2 is out first; the Panda trick goes to seat 3, who still holds cards? No -
    # here both opponents hold cards; the one with more cards is the likelier last.
    state = start_hand(["stork", "panda", "", ""])
    state.apply(0, "play stork")
    state.apply(0, "wish none")
    state.apply(1, "play panda")
    everyone_passes(state)
    assert state.pending == "gift"
    state.hands[0] = state.hands[0][:3]  # seat 0 close to going out
    state._cache.clear()
    assert _ask(state, 1) == "gift 2"


def test_ai_wish_targets_high_ranks_opponents_must_spend() -> None:
    from bot.games.panda.ai import _wish_choice

    legal = {"wish none"} | {f"wish {r}" for r in "1 2 3 4 5 6 7 8 9 10 B G E M".split()}
    hand = ["2t", "3g", "Mt", "Eg"]
    # The high card passed to the next player (an opponent) is a sure hit.
    view = {"hand": hand, "given": {"left": "Ga", "partner": "4g", "right": "2a"}}
    assert _wish_choice(view, legal) == "wish G"
    # Else the highest rank it lacks, but not the one its partner got from it.
    view = {"hand": hand, "given": {"left": "3a", "partner": "Gg", "right": "2a"}}
    assert _wish_choice(view, legal) == "wish B"
    view = {"hand": "Mt Et Gt Bt 10t".split(), "given": {"left": "2a"}}
    assert _wish_choice(view, legal) == "wish none"


def test_ai_calls_with_a_strong_hand_only() -> None:
    strong = "panda catfish Mt Mg Mr Ma Et Eg Er Gt Gg Gr Bt Bg Br".split()
    weak = "2t 3g 4r 6a 7t 8g 9r 10a 2g 4t 6t 8t 10t cat stork".split()
    assert hand_cost(strong) < 0 < hand_cost(weak)
    from bot.games.panda.ai import _should_call

    assert _should_call(strong) and not _should_call(weak)


def test_pass_plan_gives_the_cat_to_an_opponent_and_keeps_bombs() -> None:
    hand = "cat 2t 3g 5r 7a 7t 7g 7r 9a Bt Gg Er Ma stork panda".split()
    view = {"seat": 0, "calls": [False] * 4}
    plan = pass_plan(view, hand)
    assert "cat" in (plan["left"], plan["right"])
    assert not {"7a", "7t", "7g", "7r", "panda", "stork"} & set(plan.values())
    assert len(set(plan.values())) == 3


def test_ai_handles_a_hand_with_thousands_of_plays() -> None:
    state = start_hand(["stork 2t 2g 3t 3g 4t 4g 5t 5g 6t 6g 7t 7g catfish panda", "", "", ""])
    assert len(state.legal_actions(0)) > 100
    code = _ask(state, 0)
    assert code == "call", "a hand this strong calls Panda"
    state.apply(0, code)
    code = _ask(state, 0)
    assert code in state.legal_actions(0) and code.startswith("play")
    # One long combination empties most of the hand.
    assert len(code.split()) >= 6
