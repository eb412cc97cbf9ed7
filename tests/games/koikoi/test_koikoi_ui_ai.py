"""Koi-Koi controls (Discord limits, labels, prompts) and the AI (legal, strong)."""

from __future__ import annotations

import random

from bot.engine.ui import MAX_BUTTONS_PER_ROW, MAX_ROWS, Select
from bot.games import koikoi
from bot.games.koikoi import choose, controls, new_game
from bot.games.koikoi.rules import KoiKoiState

PLAYERS = ["Alice", "Bob"]
SECOND = "1r 2r 4r 6r 7r 9r 10r 11a"


def check_limits(c) -> None:
    assert len(c.rows) <= MAX_ROWS
    for row in c.rows:
        if isinstance(row, Select):
            assert len(row.options) <= 25
        else:
            assert 1 <= len(row) <= MAX_BUTTONS_PER_ROW
            assert all(len(b.label) <= 80 for b in row)


def test_play_buttons_name_the_cards(stacked) -> None:
    state = new_game(
        1,
        PLAYERS,
        deck=stacked("1b 1p2 3b 4a 5a 6a 7a 8b", SECOND, "9a 10a 11b 12b 1p1 3r 3p1 4p1"),
    )
    c = controls(state.view(0), state.legal_actions(0))
    check_limits(c)
    assert c.prompt == "Your turn: play a card from your hand."
    labels = {b.code: b for row in c.rows for b in row}
    assert labels["play 1b"].label == "Crane (Jan)"
    assert labels["play 1p2"].label == "Pine plain"
    assert labels["play 3b 3r"].label == "Curtain (Mar) → takes Cherry red poetry ribbon"
    assert labels["play 3b 3p1"].label == "Curtain (Mar) → takes Cherry plain"
    assert labels["play 1b"].style == "primary"  # it takes something
    assert labels["play 5a"].style == "secondary"  # it matches nothing
    assert set(c.codes()) <= set(state.legal_actions(0))


def test_twin_plains_share_one_button(stacked) -> None:
    state = new_game(
        1,
        PLAYERS,
        deck=stacked("12p1 12p2 3b 4a 5a 6a 7a 8b", SECOND, "9a 10a 11b 1b 1p1 3r 3p1 4p1"),
    )
    c = controls(state.view(0), state.legal_actions(0))
    codes = c.codes()
    assert "play 12p1" in codes and "play 12p2" not in codes


def test_many_plays_fall_back_to_a_select() -> None:
    view = {"phase": "play", "board": [], "seat": 0, "players": PLAYERS}
    legal = [f"play {c}" for c in koikoi.rules.ALL_CARDS[::2]]  # 24 distinct labels... and more
    legal += [f"play {c}" for c in ("1r", "2r", "3r", "4r")]
    c = controls(view, legal)
    check_limits(c)
    assert all(isinstance(row, Select) for row in c.rows)
    values = [o.value for row in c.rows for o in row.options]
    assert sorted(values) == sorted(legal)
    assert c.rows[0].code_for([values[0]]) == values[0]


def test_flip_choice_controls(stacked) -> None:
    deck = stacked("1b 2a 3b 4a 5a 6a 7a 8b", SECOND, "9a 10a 11b 12b 5r 5p2 1p1 2p1", "5p1")
    state = new_game(1, PLAYERS, deck=deck)
    state.apply(0, "play 1b")
    c = controls(state.view(0), state.legal_actions(0))
    check_limits(c)
    assert c.prompt == "You flipped Iris plain: choose which card it takes."
    assert [(b.label, b.code) for b in c.rows[0]] == [
        ("Take Iris red ribbon", "take 5r"),
        ("Take Iris plain", "take 5p2"),
    ]


def test_koikoi_or_stop_controls(akatan_decks, first_five_turns) -> None:
    state = new_game(1, PLAYERS, deck=akatan_decks)
    for code in first_five_turns:
        state.apply(state.to_act[0], code)
    c = controls(state.view(0), state.legal_actions(0))
    assert c.prompt == "You made a yaku (Akatan 6 = 6 points): Koi-Koi or stop?"
    buttons = {b.code: b for b in c.rows[0]}
    assert buttons["koikoi"].style == "success" and buttons["stop"].style == "danger"
    assert "6" in buttons["stop"].label


def test_waiting_and_over_prompts(stacked) -> None:
    state = new_game(
        1,
        PLAYERS,
        deck=stacked("1b 2a 3b 4a 5a 6a 7a 8b", SECOND, "9a 10a 11b 12b 1p1 2p1 3p1 4p1"),
    )
    c = controls(state.view(1), state.legal_actions(1))
    assert c.prompt == "Waiting for Alice." and c.rows == ()
    four = stacked(
        "1b 1r 1p1 1p2 2a 3b 4a 5a", "2r 3r 4r 5r 6a 7a 8b 9a", "6r 7r 8a 9r 10a 11b 12b 2p1"
    )
    over = new_game(1, PLAYERS, deck=[four] * 6)
    assert controls(over.view(0), []).prompt == "The match is over."


def reachable_codes(c) -> set[str]:
    """Every code a click can send: buttons, and each option of a select (as the host
    composes it, ``verb v1 ...``)."""
    codes: set[str] = set()
    for row in c.rows:
        if isinstance(row, Select):
            codes |= {row.code_for([o.value]) for o in row.options}
        else:
            codes |= {b.code for b in row}
    return codes


def twins(a: str, b: str) -> bool:
    """Codes that differ only by plains of one month (interchangeable cards)."""
    wa, wb = a.split(), b.split()
    if len(wa) != len(wb) or wa[0] != wb[0]:
        return False
    for x, y in zip(wa[1:], wb[1:], strict=True):
        cx, cy = koikoi.rules.card(x), koikoi.rules.card(y)
        if x != y and not (cx.month == cy.month and cx.cls == cy.cls == "plain"):
            return False
    return True


def test_controls_in_random_matches_stay_in_limits_and_reach_every_action() -> None:
    for seed in range(12):
        state = new_game(seed, PLAYERS, {"rounds": 6})
        rng = random.Random(seed)
        while not state.is_over:
            for seat in (0, 1):
                legal = state.legal_actions(seat)
                c = controls(state.view(seat), legal)
                check_limits(c)
                assert c.prompt
                reach = reachable_codes(c)
                assert reach <= set(legal)
                # Every legal action has a control (twin plains share one).
                assert all(any(twins(code, r) for r in reach) for code in legal), legal
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


# ----- the AI --------------------------------------------------------------------------------


def random_player(view, legal, rng: random.Random) -> str:
    return rng.choice(legal)


def play_match(seed: int, players) -> KoiKoiState:
    state = new_game(seed, PLAYERS)
    rng = random.Random(f"ai-test-{seed}")
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        code = players[seat](state.view(seat), legal, rng)
        assert code in legal
        state.apply(seat, code)
    return state


def test_ai_beats_a_random_player() -> None:
    matches, wins = 200, 0
    for seed in range(matches):
        ai_seat = seed % 2  # both seat orders
        players = [choose, random_player] if ai_seat == 0 else [random_player, choose]
        scores = play_match(seed, players).scores
        wins += scores[ai_seat] > scores[1 - ai_seat]  # a tie is not a win
    rate = wins / matches
    print(f"AI vs random: {rate:.1%} of {matches} matches won")
    assert rate >= 0.75


def test_ai_plays_whole_matches_legally_against_itself() -> None:
    state = play_match(5, [choose, choose])  # play_match asserts every choice is legal
    assert state.is_over and len(state.history) == 6
