"""Known answers for every rule of docs/rules/mushi.md, from stacked decks.

Decks are written as turn scripts: ``turns[i] = (hand card, flipped card)`` of turn i+1;
the elder (seat 0 with a stacked deck) plays the odd turns, the younger the even ones, so
``deck_from_turns`` puts the odd turns' hand cards in the elder's hand, the even ones' in
the younger's, and the flipped cards in the stock in order.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine import IllegalAction
from bot.games import mushi
from bot.games.mushi.rules import (
    DECK,
    FOUR_PAULOWNIA,
    FOUR_WISTERIA,
    HALF_POINTS,
    RAIN_CARDS,
    THE_THREE,
    TOTAL_POINTS,
    WILD,
    MushiState,
    card_points,
    pile_points,
    score_hand,
)

E, Y = 0, 1  # with a stacked deck seat 0 is the first elder

# ----- helpers -------------------------------------------------------------------------------


def deck_from_turns(table: Sequence[str], turns: Sequence[tuple[str, str]]) -> list[str]:
    elder = [hand for hand, _ in turns[0::2]]
    younger = [hand for hand, _ in turns[1::2]]
    stock = [flip for _, flip in turns]
    used = set(elder) | set(younger) | set(table) | set(stock)
    rest = [c for c in DECK if c not in used]
    # Partial scripts: the cards not named fill the hands, then the stock, in deck order.
    elder += [rest.pop(0) for _ in range(8 - len(elder))]
    younger += [rest.pop(0) for _ in range(8 - len(younger))]
    deck = elder + younger + list(table) + stock + rest
    assert sorted(deck) == sorted(DECK) and len(deck) == 40
    return deck


def game(deck, **options) -> MushiState:
    return mushi.new_game("test", ["Elder", "Younger"], options, deck=deck)


def pile(state: MushiState, seat: int) -> set[str]:
    return set(state.captures[seat])


def texts(events) -> str:
    return "\n".join(e.text for e in events)


# The quiet hand: the table holds two cards of Pine, Plum, Cherry and Grass; Wisteria, Iris,
# Chrysanthemum, Maple, Paulownia and the rain cards pair themselves (a card laid, then taken
# by the flip); the wild is flipped on turn 12 and takes the Moon; the last four turns take
# the table. Left over: the Willow ribbon (11r) and the Grass plain 8p2.
QUIET_TABLE = ["1b", "1r", "2a", "2r", "3b", "3r", "8b", "8a"]
QUIET_TURNS = [
    ("4a", "4r"),
    ("4p1", "4p2"),
    ("5a", "5r"),
    ("5p1", "5p2"),
    ("9a", "9r"),
    ("9p1", "9p2"),
    ("10a", "10r"),
    ("10p1", "10p2"),
    ("12b", "12p1"),
    ("12p2", "12p3"),
    ("11b", "11a"),
    ("11r", WILD),
    ("1p1", "1p2"),
    ("2p1", "2p2"),
    ("3p1", "3p2"),
    ("8p1", "8p2"),
]
QUIET_PLAYS = {12: None, 13: "1b", 14: "2a", 15: "3b", 16: None}


def play_script(
    state: MushiState,
    turns: Sequence[tuple[str, str]],
    targets: dict[int, str | None] | None = None,
    flip_targets: dict[int, str] | None = None,
    upto: int = 16,
) -> list:
    """Play turns 1..upto of a script (``targets``/``flip_targets`` by turn number)."""
    targets = targets or {}
    flip_targets = flip_targets or {}
    events = []
    for n, (hand, _flip) in enumerate(turns[:upto], start=1):
        seat = state.to_act[0]
        code = f"play {hand} {targets[n]}" if targets.get(n) else f"play {hand}"
        events += state.apply(seat, code)
        if n in flip_targets:
            assert state.phase == "choose_flip", f"turn {n}: no flip choice"
            events += state.apply(seat, f"take {flip_targets[n]}")
    return events


# ----- cards and scoring ------------------------------------------------------------------------


def test_deck_is_forty_cards_worth_230():
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert not [c for c in DECK if c.startswith(("6", "7"))]
    classes = [c[-1] if c[-1] in "bar" else "p" for c in DECK]
    assert (classes.count("b"), classes.count("a"), classes.count("r"), classes.count("p")) == (
        5,
        7,
        8,
        20,
    )
    assert 5 * 20 + 7 * 10 + 8 * 5 + 20 * 1 == 230 == TOTAL_POINTS == pile_points(DECK)
    assert HALF_POINTS == 115
    assert [card_points(c) for c in ("11b", "11a", "11r", WILD)] == [20, 10, 5, 1]


def test_spec_example_140_with_the_three_against_90():
    a = ["1b", "2a", "3b", "8b", "11b", "12b", "4a", "5a", "8a"]
    b = [c for c in DECK if c not in a]
    assert pile_points(a) == 140 and pile_points(b) == 90
    score = score_hand([a, b])
    assert [c.name for c in score.combos[0]] == ["The Three"] and score.combos[1] == ()
    assert score.scores == (50, -50)


def test_combinations_and_their_values():
    assert (THE_THREE.value, FOUR_WISTERIA.value, FOUR_PAULOWNIA.value) == (25, 10, 10)
    a = ["4a", "4r", "4p1", "4p2", "12b", "12p1", "12p2", "12p3", "2a"]
    b = [c for c in DECK if c not in a]  # without the Nightingale: no The Three
    score = score_hand([a, b])
    assert [c.name for c in score.combos[0]] == ["Four Wisteria", "Four Paulownia"]
    assert score.combos[1] == ()
    assert score.scores == ((50 - 115) + 20, (180 - 115) - 20)
    # Combinations of both players are netted.
    b_three = ["1b", "2a", "3b"]
    score = score_hand([a, b_three])
    assert score.combo_points == (20, 25)


def test_wild_never_completes_a_combination():
    a = ["12b", "12p1", "12p2", WILD, "1b", "2a", "4a", "4r", "4p1"]
    b = [c for c in DECK if c not in a]
    score = score_hand([a, b])
    assert score.combos == ((), ())
    assert score.scores == (pile_points(a) - 115, pile_points(b) - 115)


def test_no_five_brights_combination():
    a = ["1b", "3b", "8b", "11b", "12b", "4a"]  # all five brights (and a Cuckoo)
    score = score_hand([a, [c for c in DECK if c not in a]])
    assert score.combos == ((), ())
    assert score.scores == (110 - 115, 120 - 115)


# ----- the deal ----------------------------------------------------------------------------------


def test_stacked_deal_layout():
    deck = deck_from_turns(QUIET_TABLE, QUIET_TURNS)
    s = game(deck)
    assert s.elder == E and s.to_act == [E] and s.phase == "play"
    assert sorted(s.hands[E]) == sorted(deck[:8]) and sorted(s.hands[Y]) == sorted(deck[8:16])
    assert s.table == QUIET_TABLE
    v = s.view(E)
    assert v["stock_count"] == 16 and v["hand_counts"] == [8, 8] and v["deal"] == 1
    assert v["deals"] == 12 and v["elder"] == E and v["wild_duty"] is False


def test_first_elder_is_drawn_from_the_seed():
    elders = {mushi.new_game(seed, ["a", "b"]).elder for seed in range(20)}
    assert elders == {0, 1}
    assert mushi.new_game(7, ["a", "b"]).elder == mushi.new_game(7, ["a", "b"]).elder


def test_options_are_validated():
    with pytest.raises(ValueError, match="6 or 12"):
        mushi.new_game(1, ["a", "b"], {"hands": 8})
    with pytest.raises(ValueError, match="Unknown"):
        mushi.new_game(1, ["a", "b"], {"jokers": True})
    with pytest.raises(ValueError, match="true or false"):
        mushi.new_game(1, ["a", "b"], {"bottom_wild_takes_rain": 1})
    with pytest.raises(ValueError, match="2 players"):
        mushi.new_game(1, ["a", "b", "c"])
    with pytest.raises(ValueError, match="40 cards"):
        mushi.new_game(1, ["a", "b"], deck=list(DECK[:-1]) + ["6a"])


# ----- capturing -------------------------------------------------------------------------------


def test_one_match_two_matches_three_matches_and_no_match():
    table = ["1b", "1r", "3b", "4a", "4r", "4p1", "8b", "9a"]
    turns = [("1p1", "10a"), ("3p1", "12b"), ("4p2", "12p1"), ("5a", "12p2")]
    s = game(deck_from_turns(table, turns), four_of_a_kind_cancel=False)
    legal = s.legal_actions(E)
    # Two matches: a choice; capturing is compulsory, so there is no bare "play 1p1".
    assert "play 1p1 1b" in legal and "play 1p1 1r" in legal and "play 1p1" not in legal
    s.apply(E, "play 1p1 1r")
    assert pile(s, E) == {"1p1", "1r"} and "1b" in s.table
    assert s.last_play == {"seat": E, "card": "1p1", "took": ["1r"]}
    assert s.last_flip == {"seat": E, "card": "10a", "took": []}  # no match: it stays
    s.apply(Y, "play 3p1")  # one match: takes it
    assert {"3p1", "3b"} <= pile(s, Y)
    assert "12b" in s.table
    s.apply(E, "play 4p2")  # three of its month on the table: takes all three
    assert {"4p2", "4a", "4r", "4p1"} <= pile(s, E)
    assert {"12p1", "12b"} <= pile(s, E)  # the flip took the Phoenix laid on turn 2
    s.apply(Y, "play 5a")  # no match: it stays on the table
    assert "5a" in s.table


def test_flipped_card_with_two_matches_asks_the_player():
    table = ["1b", "1r", "2a", "3b", "4a", "5a", "8b", "9a"]
    s = game(deck_from_turns(table, [("10a", "1p1")]), four_of_a_kind_cancel=False)
    events = s.apply(E, "play 10a")
    assert s.phase == "choose_flip" and s.to_act == [E]
    assert s.legal_actions(E) == ["take 1b", "take 1r"]
    assert s.view(Y)["pending"] == {
        "kind": "flip",
        "seat": E,
        "card": "1p1",
        "options": ["1b", "1r"],
    }
    assert "which one" in texts(events)
    s.apply(E, "take 1b")
    assert pile(s, E) == {"1p1", "1b"} and s.to_act == [Y] and s.phase == "play"


# ----- the quiet hand: leftovers, scoring, next elder --------------------------------------------


def test_quiet_hand_leftover_rain_and_month_mate():
    s = game(deck_from_turns(QUIET_TABLE, QUIET_TURNS))
    events = play_script(s, QUIET_TURNS, QUIET_PLAYS, flip_targets={12: "8b"})
    # Turn 12: the younger's 11r found no rain (the elder paired 11b/11a on turn 11); the
    # flipped wild took the Moon. Left over: 11r and 8p2 (8a went to 8p1 on turn 16).
    leftovers = [e for e in events if e.kind == "leftover"]
    assert [(e.data["card"], e.seat) for e in leftovers] == [("8p2", Y), ("11r", E)]
    h = s.history[0]
    assert h["card_points"] == [170, 60] and sum(h["card_points"]) == 230
    assert h["combos"] == [[], []]
    assert h["scores"] == [55, -55] and s.scores == [55, -55]
    assert {x["card"]: x["seat"] for x in h["leftovers"]} == {"8p2": Y, "11r": E}
    assert h["next_elder"] == E and s.elder == E  # the winner deals the next hand
    assert s.view(None)["deal"] == 2
    assert [e.kind for e in events].count("deal_end") == 1
    end = next(e for e in events if e.kind == "deal_end")
    assert "+55" in end.text and "-55" in end.text


def test_zero_zero_keeps_the_elder():
    # The quiet hand with the pairs re-dealt so that each side ends on 115 card points.
    turns = [
        ("4r", "4p2"),
        ("4a", "4p1"),
        ("5r", "5p2"),
        ("5a", "5p1"),
        ("9r", "9p2"),
        ("9a", "9p1"),
        ("10r", "10p2"),
        ("10a", "10p1"),
        ("12p2", "12p3"),
        ("12b", "12p1"),
        *QUIET_TURNS[10:],
    ]
    s = game(deck_from_turns(QUIET_TABLE, turns))
    play_script(s, turns, QUIET_PLAYS, flip_targets={12: "8b"})
    h = s.history[0]
    assert h["card_points"] == [115, 115] and h["scores"] == [0, 0]
    assert h["next_elder"] == E and s.elder == E


# ----- the wild card --------------------------------------------------------------------------

# The duty hand: Pine and Plum lie three each on the table with two rain cards, so the wild
# has no legal target at first.
DUTY_TABLE = ["1b", "1r", "1p1", "2a", "2r", "2p1", "11b", "11a"]
DUTY_TURNS = [
    (WILD, "1p2"),  # no target: the wild stays; the flip is the fourth Pine: takes three
    ("4a", "11r"),  # a flipped rain card plays normally (takes 11b) and passes the duty on
    ("5a", "4r"),  # 4r matches 4a on the table but must take the wild
    ("5r", "5p1"),
    ("5p2", "2p2"),
    ("3b", "3r"),
    ("3p1", "3p2"),
    ("8b", "8a"),
    ("8p1", "8p2"),
    ("9a", "9r"),
    ("9p1", "9p2"),
    ("10a", "10r"),
    ("10p1", "10p2"),
    ("12b", "12p1"),
    ("12p2", "12p3"),
    ("4p1", "4p2"),
]


def test_wild_from_hand_without_legal_target_stays_and_duty_passes():
    s = game(deck_from_turns(DUTY_TABLE, DUTY_TURNS))
    # Rain cards and months with three on the table are no targets: the wild just stays.
    assert "play 11p1" in s.legal_actions(E)
    assert not [c for c in s.legal_actions(E) if c.startswith("play 11p1 ")]
    events = s.apply(E, "play 11p1")
    assert "stays on the table" in texts(events)
    # The flip 1p2 is the fourth Pine with three on the table: it takes its three, and the
    # duty to take the wild passes on.
    assert {"1p2", "1b", "1r", "1p1"} == pile(s, E)
    assert WILD in s.table and s.view(Y)["wild_duty"] is True
    assert "next flip must take the wild" in texts(events)


def test_flipped_rain_card_passes_the_duty_on():
    s = game(deck_from_turns(DUTY_TABLE, DUTY_TURNS))
    play_script(s, DUTY_TURNS, upto=1)
    # No card from a hand can take the wild: the younger's 4a just stays.
    events = s.apply(Y, "play 4a")
    # The flipped 11r is a rain card: played normally, it matches 11b and 11a (a choice).
    assert s.phase == "choose_flip" and s.legal_actions(Y) == ["take 11b", "take 11a"]
    events += s.apply(Y, "take 11b")
    assert pile(s, Y) == {"11r", "11b"}
    assert WILD in s.table and s.view(E)["wild_duty"] is True
    assert "next flip must take the wild" in texts(events)


def test_next_flip_must_take_the_wild_even_with_a_match():
    s = game(deck_from_turns(DUTY_TABLE, DUTY_TURNS))
    play_script(s, DUTY_TURNS, flip_targets={2: "11b"}, upto=2)
    events = s.apply(E, "play 5a")
    # 4r matches 4a on the table, but it must take the wild.
    assert {"4r", WILD} <= pile(s, E) and "4r" not in s.table
    assert "4a" in s.table and WILD not in s.table
    assert s.wild_holder == E and s.view(None)["wild_duty"] is False
    assert "must take the wild" in texts(events)


def test_hand_card_cannot_take_the_wild():
    s = game(deck_from_turns(DUTY_TABLE, DUTY_TURNS))
    play_script(s, DUTY_TURNS, upto=1)
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="cannot be taken by a card from a hand"):
        s.apply(Y, "play 4a 11p1")
    assert s.snapshot() == before


def test_duty_hand_end_leftovers_and_next_elder():
    s = game(deck_from_turns(DUTY_TABLE, DUTY_TURNS))
    events = play_script(s, DUTY_TURNS, flip_targets={2: "11b"})
    h = s.history[0]
    # 11a is left: the younger holds 11r and 11b. 4p2 is left (its month-mate 4r went with
    # the wild): it goes to the elder, who holds the wild.
    assert {x["card"]: x["seat"] for x in h["leftovers"]} == {"11a": Y, "4p2": E}
    assert h["card_points"] == [63, 167]
    assert h["scores"] == [-52, 52]
    assert h["next_elder"] == Y and s.elder == Y  # whoever scores more becomes elder
    assert s.to_act == [Y]
    assert sum(1 for e in events if e.kind == "deal_end") == 1


def test_wild_from_hand_chooses_its_target():
    table = ["1b", "1r", "1p1", "2a", "3b", "11b", "8b", "9a"]
    s = game(deck_from_turns(table, [(WILD, "12p1")]), four_of_a_kind_cancel=False)
    wild_plays = sorted(c for c in s.legal_actions(E) if c.startswith("play 11p1"))
    # Never a rain card (11b), nor a month with three on the table (Pine).
    assert wild_plays == sorted(f"play 11p1 {t}" for t in ("2a", "3b", "8b", "9a"))
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="rain"):
        s.apply(E, "play 11p1 11b")
    with pytest.raises(IllegalAction, match="choose one"):
        s.apply(E, "play 11p1")
    assert s.snapshot() == before
    s.apply(E, "play 11p1 8b")
    assert pile(s, E) == {WILD, "8b"} and s.wild_holder == E


def test_wild_from_hand_with_one_target_needs_no_choice():
    table = ["1b", "1r", "1p1", "2a", "2r", "2p1", "11b", "3b"]
    s = game(deck_from_turns(table, [(WILD, "12p1")]), four_of_a_kind_cancel=False)
    assert "play 11p1" in s.legal_actions(E)
    s.apply(E, "play 11p1 3b")  # naming the only target is accepted too
    assert pile(s, E) == {WILD, "3b"} and s.log[-1] == (E, "play 11p1")


def test_flipped_wild_chooses_among_targets():
    s = game(deck_from_turns(QUIET_TABLE, QUIET_TURNS))
    play_script(s, QUIET_TURNS, upto=11)
    s.apply(Y, "play 11r")
    assert s.phase == "choose_flip"
    assert s.legal_actions(Y) == [f"take {t}" for t in QUIET_TABLE]
    s.apply(Y, "take 3b")
    assert {WILD, "3b"} <= pile(s, Y) and s.wild_holder == Y


def test_flipped_wild_with_one_target_takes_it():
    table = ["1b", "1r", "1p1", "2a", "2r", "2p1", "11b", "4a"]
    s = game(deck_from_turns(table, [("11a", WILD)]), four_of_a_kind_cancel=False)
    s.apply(E, "play 11a")
    assert pile(s, E) == {"11a", "11b", WILD, "4a"} and s.to_act == [Y]


def test_flipped_wild_without_target_stays_for_the_opponents_flip():
    table = ["1b", "1r", "1p1", "2a", "2r", "2p1", "11b", "11a"]
    s = game(deck_from_turns(table, [("11r", WILD), ("1p2", "5a")]), four_of_a_kind_cancel=False)
    events = s.apply(E, "play 11r 11b")
    assert WILD in s.table and s.view(Y)["wild_duty"] is True
    assert "no legal target" in texts(events)
    s.apply(Y, "play 1p2")  # the fourth Pine takes the three on the table
    # The younger's flip 5a matches nothing, and must take the wild anyway.
    assert {"1p2", "1b", "1r", "1p1", "5a", WILD} == pile(s, Y)
    assert s.wild_holder == Y


def test_last_stock_card_wild_is_kept_by_the_younger():
    turns = [
        *QUIET_TURNS[:11],
        ("8p1", "8p2"),
        ("1p1", "1p2"),
        ("2p1", "2p2"),
        ("3p1", "3p2"),
        ("11r", WILD),
    ]
    s = game(deck_from_turns(QUIET_TABLE, turns))
    events = play_script(s, turns, {12: "8b", 13: "1b", 14: "2a", 15: "3b"})
    assert "last card and keeps it" in texts(events)
    h = s.history[0]
    assert WILD in h["captures"][Y]["plain"]
    # The younger's 11r stayed on the table: it goes to the elder, who holds 11b and 11a.
    assert {x["card"]: x["seat"] for x in h["leftovers"]} == {"11r": E}
    assert sum(h["card_points"]) == 230


def test_option_bottom_wild_takes_a_rain_card():
    turns = [
        *QUIET_TURNS[:11],
        ("8p1", "8p2"),
        ("1p1", "1p2"),
        ("2p1", "2p2"),
        ("3p1", "3p2"),
        ("11r", WILD),
    ]
    s = game(deck_from_turns(QUIET_TABLE, turns), bottom_wild_takes_rain=True)
    play_script(s, turns, {12: "8b", 13: "1b", 14: "2a", 15: "3b"})
    h = s.history[0]
    assert {WILD, "11r"} <= set(h["captures"][Y]["plain"] + h["captures"][Y]["ribbon"])
    assert h["leftovers"] == []


def test_wild_left_on_the_table_at_the_end_goes_to_the_younger():
    # Turn 15: the elder flips the wild with no target (only three Plums and a rain card are
    # left); turn 16: the younger's flip is a rain card, which does not take it.
    table = ["2a", "2r", "2p1", "11b", "1b", "3b", "8b", "9a"]
    turns = [
        ("1r", "1p1"),
        ("1p2", "3r"),
        ("3p1", "3p2"),
        ("8a", "8p1"),
        ("8p2", "9r"),
        ("9p1", "9p2"),
        ("4a", "4r"),
        ("4p1", "4p2"),
        ("5a", "5r"),
        ("5p1", "5p2"),
        ("10a", "10r"),
        ("10p1", "10p2"),
        ("12b", "12p1"),
        ("12p2", "12p3"),
        ("11a", WILD),
        ("2p2", "11r"),
    ]
    s = game(deck_from_turns(table, turns))
    events = play_script(s, turns, {1: "1b"}, upto=15)
    assert s.table == ["2a", "2r", "2p1", WILD] and s.view(None)["wild_duty"] is True
    assert s.wild_holder is None
    events = s.apply(Y, "play 2p2")  # takes three Plums; the flipped 11r just stays
    h = s.history[0]
    assert "younger" in texts(events) and WILD in h["captures"][Y]["plain"]
    # 11r is left: the elder holds 11b and 11a.
    assert {x["card"]: x["seat"] for x in h["leftovers"]} == {WILD: Y, "11r": E}
    assert sum(h["card_points"]) == 230


# ----- redeals -------------------------------------------------------------------------------


def _with_table(table: Sequence[str]) -> list[str]:
    return deck_from_turns(table, [])


def test_table_four_of_a_kind_means_redeal_by_the_same_elder():
    bad = _with_table(["1b", "1r", "1p1", "1p2", "2a", "3b", "8b", "9a"])
    good = deck_from_turns(QUIET_TABLE, QUIET_TURNS)
    s = game([bad, good])
    kinds = [e.kind for e in s.events]
    assert kinds.count("redeal") == 1 and "four Pine cards" in texts(s.events)
    assert s.table == QUIET_TABLE and s.elder == E and s.deal_count == 2
    v = s.view(None)
    assert v["deal"] == 1 and v["redeals"] == 1


def test_three_rain_cards_on_the_table_mean_redeal():
    bad = _with_table(["11b", "11a", "11r", "1b", "2a", "3b", "8b", "9a"])
    s = game([bad, deck_from_turns(QUIET_TABLE, QUIET_TURNS)])
    assert "all three rain cards" in texts(s.events)
    assert s.table == QUIET_TABLE and s.elder == E


def test_three_willows_with_the_wild_are_no_redeal():
    deck = _with_table(["11b", "11a", WILD, "1b", "2a", "3b", "8b", "9a"])
    s = game(deck, four_of_a_kind_cancel=False)
    assert s.deal_count == 1 and "redeal" not in [e.kind for e in s.events]


def test_option_elder_takes_a_table_four():
    deck = _with_table(["1b", "1r", "1p1", "1p2", "2a", "3b", "8b", "9a"])
    s = game(deck, elder_takes_table_four=True, four_of_a_kind_cancel=False)
    assert s.deal_count == 1
    assert pile(s, E) == {"1b", "1r", "1p1", "1p2"} and s.table == ["2a", "3b", "8b", "9a"]
    assert s.view(Y)["card_points"] == [27, 0]


def test_option_four_willows_on_the_table_go_to_the_elder_with_the_wild():
    deck = _with_table(["11b", "11a", "11r", WILD, "2a", "3b", "8b", "9a"])
    s = game(deck, elder_takes_table_four=True, four_of_a_kind_cancel=False)
    assert pile(s, E) == set(RAIN_CARDS) | {WILD} and s.wild_holder == E


def test_option_three_table_rain_cards_go_to_whoever_takes_the_wild():
    table = ["11b", "11a", "11r", "1b", "2a", "3b", "8b", "9a"]
    deck = deck_from_turns(table, [("5a", "5r"), (WILD, "12p1")])
    s = game(deck, elder_takes_table_four=True, four_of_a_kind_cancel=False)
    assert s.set_aside == ["11b", "11a", "11r"] and not set(s.table) & RAIN_CARDS
    assert s.view(None)["set_aside"] == ["11b", "11a", "11r"]
    s.apply(E, "play 5a")
    events = s.apply(Y, "play 11p1 8b")
    assert pile(s, Y) == {WILD, "8b", "11b", "11a", "11r"} and s.set_aside == []
    assert "set-aside rain cards" in texts(events)


# ----- four of a kind in a hand ----------------------------------------------------------------


# The elder holds the four Paulownias (turns 1, 3, 5, 7 of the script).
FOUR_PAULOWNIA_TURNS = [
    ("12b", "4r"),
    ("4a", "5r"),
    ("12p1", "9r"),
    ("5a", "10r"),
    ("12p2", "1p1"),
    ("9a", "11b"),
    ("12p3", "2p1"),
]


def test_four_of_a_kind_in_hand_may_cancel_the_deal():
    turns = FOUR_PAULOWNIA_TURNS
    first = deck_from_turns(QUIET_TABLE, turns)
    second = deck_from_turns(QUIET_TABLE, QUIET_TURNS)
    s = game([first, second])
    # Rule 5: offered on the holder's first turn, next to its plays (playing keeps the deal).
    assert s.phase == "play" and s.to_act == [E]
    assert s.legal_actions(E)[-1] == "cancel" and s.legal_actions(Y) == []
    assert s.view(E)["cancel_months"] == [12]
    events = s.apply(E, "cancel")
    assert "shows four Paulownia cards and cancels the deal" in texts(events)
    assert next(e for e in events if e.kind == "cancel").data["cards"] == [
        "12b",
        "12p1",
        "12p2",
        "12p3",
    ]
    assert s.deal_count == 2 and s.elder == E and s.to_act == [E] and s.phase == "play"
    assert s.table == QUIET_TABLE and s.view(None)["deal"] == 1 and s.history == []


def test_an_unshown_four_stays_secret():
    # Asking at the deal would tell the opponent who holds a four: nothing in the other
    # seat's view or in the public events differs from a deal without one.
    with_four = game(deck_from_turns(QUIET_TABLE, FOUR_PAULOWNIA_TURNS))
    without = game(deck_from_turns(QUIET_TABLE, FOUR_PAULOWNIA_TURNS), four_of_a_kind_cancel=False)
    for seat in (Y, None):
        mine, plain = with_four.view(seat), without.view(seat)
        mine.pop("options"), plain.pop("options")
        assert mine == plain and mine["cancel_months"] == [] and mine["pending"] is None
    assert [e.text for e in with_four.visible_events(Y)] == [
        e.text for e in without.visible_events(Y)
    ]
    with_four.apply(E, "play 12b")  # playing a card keeps the deal; nobody is told
    without.apply(E, "play 12b")
    assert [e.text for e in with_four.visible_events(Y)] == [
        e.text for e in without.visible_events(Y)
    ]


def test_four_of_a_kind_kept_by_playing_a_card():
    turns = FOUR_PAULOWNIA_TURNS
    s = game(deck_from_turns(QUIET_TABLE, turns))
    s.apply(E, "play 12b")
    assert s.to_act == [Y] and "cancel" not in s.legal_actions(Y)
    s.apply(Y, "play 4a")
    # The elder still holds three Paulownias, but the first turn is gone.
    assert s.to_act == [E] and "cancel" not in s.legal_actions(E)
    assert s.view(E)["cancel_months"] == []
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="first turn"):
        s.apply(E, "cancel")
    assert s.snapshot() == before and s.deal_count == 1


def test_four_of_a_kind_option_off_offers_nothing():
    turns = FOUR_PAULOWNIA_TURNS
    s = game(deck_from_turns(QUIET_TABLE, turns), four_of_a_kind_cancel=False)
    assert s.phase == "play" and s.to_act == [E] and "cancel" not in s.legal_actions(E)
    with pytest.raises(IllegalAction, match="does not let"):
        s.apply(E, "cancel")


def test_wild_counts_as_a_willow_for_the_declaration_and_both_may_declare():
    # Elder: the four Willows (the wild among them); younger: four Paulownias.
    table = ["1b", "1r", "2a", "2r", "3b", "3r", "8b", "8a"]
    turns = [
        ("11b", "4a"),
        ("12b", "4r"),
        ("11a", "5a"),
        ("12p1", "5r"),
        ("11r", "9a"),
        ("12p2", "9r"),
        (WILD, "10a"),
        ("12p3", "10r"),
    ]
    s = game([deck_from_turns(table, turns), deck_from_turns(QUIET_TABLE, QUIET_TURNS)])
    assert s.to_act == [E] and s.view(E)["cancel_months"] == [11]
    assert "cancel" in s.legal_actions(E)
    s.apply(E, "play 11b")  # the elder keeps the deal
    assert s.to_act == [Y] and s.view(Y)["cancel_months"] == [12]
    assert "cancel" in s.legal_actions(Y)
    events = s.apply(Y, "cancel")  # the younger cancels on its first turn
    assert "Younger shows four Paulownia cards and cancels the deal. Elder deals again." in texts(
        events
    )
    assert s.deal_count == 2 and s.elder == E and s.to_act == [E]
    assert s.table == QUIET_TABLE and s.captures == [[], []]


# ----- illegal actions, the match ------------------------------------------------------------


def test_illegal_actions_raise_and_change_nothing():
    s = game(deck_from_turns(QUIET_TABLE, QUIET_TURNS))
    before = s.snapshot()
    cases = [
        (Y, "play 4p1", "not your turn"),
        (E, "play 4p1", "not in your hand"),
        (E, "play 6a", "not a Mushi card"),
        (E, "take 1b", "Play a card"),
        (E, "play", "Say which card"),
        (E, "play 4a 1b", "takes nothing"),
        (E, "keep", "Play a card"),
    ]
    for seat, code, message in cases:
        with pytest.raises(IllegalAction, match=message):
            s.apply(seat, code)
        assert s.snapshot() == before


def test_a_match_is_twelve_hands_or_six_and_zero_sum():
    for hands in (12, 6):
        s = mushi.new_game(5, ["a", "b"], {"hands": hands})
        while not s.is_over:
            seat = s.to_act[0]
            s.apply(seat, s.default_action(seat))
        assert len(s.history) == hands and sum(s.scores) == 0
        assert all(sum(h["card_points"]) == 230 for h in s.history)
        assert all(sum(h["scores"]) == 0 for h in s.history)
        assert s.scores == [sum(h["scores"][p] for h in s.history) for p in (0, 1)]
        for prev, h in zip(s.history, s.history[1:], strict=False):
            assert h["elder"] == prev["next_elder"]
        r = s.result()
        assert r.scores == tuple(s.scores)
        a, b = s.scores  # the highest total wins; equal totals share the first place
        assert r.placements == ((1, 1) if a == b else (1, 2) if a > b else (2, 1))
        with pytest.raises(IllegalAction, match="over"):
            s.apply(0, "keep")
        v = s.view(None)
        assert v["phase"] == "over" and v["is_over"] and v["to_act"] == []


def test_describe_labels():
    assert mushi.describe("play 1b") == "Crane (Jan)"
    assert mushi.describe("play 11p1 8b") == "Wild (Lightning) → takes Moon (Aug)"
    assert mushi.describe("take 1p1") == "Take Pine plain"
    assert "cancel" in mushi.describe("cancel").lower()
