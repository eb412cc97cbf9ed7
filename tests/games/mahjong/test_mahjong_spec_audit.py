"""Known answers for spec items that had no test that would fail if they broke (audit of
``docs/rules/mahjong.md``): the card set, the round player, claimed kongs, expansions,
kongs in the one more turn, the standing hand on a discard, irregular special hands with
melded chows, private claim answers, readable refusals, the full special-hands table."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine.core import IllegalAction
from bot.games.mahjong import new_game
from bot.games.mahjong.scoring import (
    WinInfo,
    is_mahjong,
    mahjong_waits,
    score_non_winner,
    score_winner,
)
from bot.games.mahjong.specials import (
    SPECIAL_HANDS,
    BigSnake,
    Imperial,
    irregular_near,
)
from bot.games.mahjong.tiles import (
    EXTRAS,
    FULL_SET,
    NUM_KINDS,
    TERMINALS,
    WINDS,
    code,
    counts_of,
    extra_wind,
    name,
    tile,
    tiles,
)

try:
    from .mahjong_helpers import (
        FULL,
        PLAYERS,
        all_cards,
        full_deck,
        game,
        hand,
        pass_claims,
        pass_prelude,
        skip_empty_prelude,
    )
except ImportError:
    from mahjong_helpers import (
        FULL,
        PLAYERS,
        all_cards,
        full_deck,
        game,
        hand,
        pass_claims,
        pass_prelude,
        skip_empty_prelude,
    )

# Scattered hands without pairs, runs or honours (as in test_mahjong_rules).
S_ = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 2c"
W_ = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
N_ = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"
DEAD = "F P C F P C F P C F P C"
WINNER = "4d 6d 2b 3b 4b 4c 5c 6c 7b 8b 9b 3d 3d"  # complete with 5d (a chow)


def discard(g, seat: int, card: str) -> None:  # type: ignore[no-untyped-def]
    """``seat`` discards ``card`` and the claim window it opens (every discard asks all
    three others, so nobody learns who could claim) is passed by everyone."""
    g.apply(seat, f"discard {card}")
    pass_claims(g)


def finish_last_turns(g) -> None:  # type: ignore[no-untyped-def]
    while g.phase == "last_turns":
        seat = g.to_act[0]
        g.apply(seat, g.default_action(seat))


def sheet_items(sheet: dict) -> dict[str, list]:
    out: dict[str, list] = {}
    for line in sheet["items"]:
        out.setdefault(line["name"], []).append(line["value"])
    return out


# ----- rule 1: the 144 cards -----------------------------------------------------------------
def test_rule_1_the_card_set() -> None:
    counts = Counter(FULL_SET)
    assert len(FULL_SET) == 144
    assert all(counts[t] == 4 for t in range(NUM_KINDS))  # 108 suited + 28 honours
    assert sorted(t for t in counts if t >= NUM_KINDS) == list(EXTRAS)
    assert all(counts[e] == 1 for e in EXTRAS)
    assert [code(t) for t in TERMINALS] == ["1b", "9b", "1c", "9c", "1d", "9d"]
    # seasons Spring/E..Winter/N and flowers Plum/E..Bamboo/N belong to seat winds E..N
    assert [extra_wind(tile(c)) for c in "s1 s2 s3 s4 f1 f2 f3 f4".split()] == [0, 1, 2, 3] * 2
    assert [name(tile(c)) for c in ("s1", "f1", "f3", "f4")] == [
        "Spring (season)",
        "Plum (flower)",
        "Chrysanthemum (flower)",
        "Bamboo blossom (flower)",
    ]


# ----- rules 3, 5, 18: the round player sits in the round wind ----------------------------------
def test_rules_3_5_18_round_player_is_the_seat_of_the_round_wind() -> None:
    """Extended game: in every hand the round player sits in the round wind's seat, holds
    14 cards and discards first; each player is round player once per round wind."""
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    deck = full_deck(east, WINNER, W_, N_, wall=DEAD)
    g = new_game(1, PLAYERS, {"random_seats": False, "game": "extended"}, deck=[deck] * 16)
    round_players: dict[str, list[int]] = {}
    while not g.is_over:
        skip_empty_prelude(g)
        v = g.view(None)
        rp = v["round_player"]
        assert v["seat_winds"][rp] == v["round_wind"]
        assert v["hand_counts"][rp] == 14 and g.to_act == [rp]
        round_players.setdefault(v["round_wind"], []).append(rp)
        g.apply(rp, "discard 5d")
        g.apply(g.next_player(rp), "mahjong")
        pass_claims(g)
        finish_last_turns(g)
    assert list(round_players) == ["E", "S", "W", "N"]
    assert all(sorted(players) == [0, 1, 2, 3] for players in round_players.values())


# ----- rule 10: a melded kong on a discard ---------------------------------------------------------
KONGER = "7d 7d 7d 1c 2c 3c 4b 5b 6b 2d 3d 4d 9b"  # three 7d; complete with 9b after a kong


def test_rule_10_melded_kong_claim_draws_a_replacement_then_play_goes_on() -> None:
    east = "7d 1b 1b 2c 2c 9c 9c E E S S W W N"
    g = game(full_deck(east, KONGER, W_, N_, wall=DEAD, box="8b"))
    g.apply(0, "discard 7d")
    assert g.legal_actions(1) == ["kong", "pung", "pass"]
    g.apply(1, "kong")
    pass_claims(g)
    v = g.view(None)
    assert v["melds"][1] == [{"kind": "kong", "cards": ["7d"] * 4, "concealed": False}]
    assert v["rivers"][0] == [] and v["kong_box"] == 13
    assert g.to_act == [1] and g.view(1)["drawn"] == "8b"  # the replacement
    assert v["hand_counts"][1] == 11  # 10 left + the replacement (the kong is on the table)
    discard(g, 1, "8b")
    assert g.to_act == [2] and g.view(2)["drawn"] == "F"  # play goes on after the claimer
    assert all_cards(g) == FULL


def test_rules_19_20_win_on_the_replacement_for_a_claimed_kong() -> None:
    east = "7d 1b 1b 2c 2c 9c 9c E E S S W W N"
    g = game(full_deck(east, KONGER, W_, N_, wall=DEAD, box="9b"))
    g.apply(0, "discard 7d")
    g.apply(1, "kong")
    pass_claims(g)
    assert "mahjong" in g.legal_actions(1)
    g.apply(1, "mahjong")
    finish_last_turns(g)
    sheet = g.history[-1]["sheets"][1]
    items = sheet_items(sheet)
    assert items["Kong of minors (melded)"] == [8]
    assert items["Win by wall card"] == [3]
    assert items["Win with a card from the kong box"] == [10]
    assert {"name": "Win with a kong", "value": 0.5} in sheet["multipliers"]
    assert sheet["basic"] == 24 and sheet["total"] == 36  # 24 x 1.5


# ----- rule 11: between Mah-Jongg claims a chow beats the pair ---------------------------------------
def test_rule_11_mahjong_completing_a_chow_beats_a_nearer_pair() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c S S W W N N 3c"
    south = "5d 1b 2b 3b 4c 5c 6c 7b 8b 9b E E E"  # 5d completes only the pair
    g = game(full_deck(east, south, WINNER, N_, wall=DEAD))
    g.apply(0, "discard 5d")
    assert g.to_act == [1, 2, 3]  # North cannot claim, but is asked too
    g.apply(1, "mahjong")
    g.apply(2, "mahjong")
    g.apply(3, "pass")
    assert g.winner == 2  # West's 5d completes a chow: ranked above South's pair


# ----- rule 7: expansion with any matching card, no robbing ------------------------------------------
def test_rule_7_expansion_with_a_card_held_before_and_no_claim_window() -> None:
    east = "7d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = "7d 7d 7d 1c 3c 5c 9d 2d E N N S 9b"
    g = game(full_deck(east, south, W_, N_, wall=DEAD, box="3b"))
    g.apply(0, "discard 7d")
    g.apply(1, "pung")  # keeps the fourth 7d in hand
    pass_claims(g)
    assert g.view(1)["drawn"] is None
    assert "extend 7d" in g.legal_actions(1)  # a card held before, not a drawn one
    g.apply(1, "extend 7d")
    v = g.view(None)
    assert v["melds"][1] == [{"kind": "kong", "cards": ["7d"] * 4, "concealed": False}]
    # no robbing the kong: nobody is asked, South goes on with the replacement
    assert g.phase == "discard" and g.to_act == [1] and v["claim"] is None
    assert g.view(1)["drawn"] == "3b"
    assert all_cards(g) == FULL


# ----- rule 15: kongs in the one more turn -----------------------------------------------------------
def test_rule_15_a_kong_in_the_one_more_turn() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    north = "1c 1c 1c 1c 5b 8b 3c 5c 8c 1b 4b 7b 1d"
    g = game(full_deck(east, S_.replace("1c", "6c"), WINNER, north, wall=DEAD, box="6b"))
    assert g.phase == "prelude" and g.to_act == [0, 1, 2, 3]  # everyone is asked
    assert g.legal_actions(3) == ["kong 1c", "pass"] and g.legal_actions(0) == ["pass"]
    pass_prelude(g)  # North keeps the four 1c in hand before play
    g.apply(0, "discard 5d")
    g.apply(2, "mahjong")
    pass_claims(g)
    assert g.phase == "last_turns" and g.to_act == [3]
    legal = g.legal_actions(3)
    assert "kong 1c" in legal and "mahjong" not in legal
    g.apply(3, "kong 1c")
    assert g.view(3)["drawn"] == "6b" and g.to_act == [3] and g.phase == "last_turns"
    g.apply(3, "discard 6b")
    assert g.to_act == [0]
    finish_last_turns(g)
    north_sheet = sheet_items(g.history[-1]["sheets"][3])
    assert north_sheet["Kong of terminals (concealed)"] == [32]


# ----- rule 13: the standing hand wins only on the named card, also from a discard --------------------
def test_rule_13_standing_hand_claims_only_the_named_card() -> None:
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E 6b 7b N"  # after N: waits on 5b and 8b
    g = game(full_deck(east, S_, W_, N_, wall=DEAD))
    assert {"declare 5b", "declare 8b"} <= set(g.legal_actions(0))
    g.apply(0, "declare 8b")
    discard(g, 0, "N")
    g.apply(1, "discard 5b")  # completes East's shape, but it is not the named card
    assert g.legal_actions(0) == ["pass"]  # East is asked (like everyone) but cannot claim
    pass_claims(g)
    discard(g, 2, "P")
    discard(g, 3, "C")  # then East's draw goes out automatically (a window too)
    assert g.view(None)["rivers"][0] == ["N", "F"]
    g.apply(1, "discard 8b")
    assert g.phase == "claim" and g.legal_actions(0) == ["mahjong", "pass"]
    g.apply(0, "mahjong")
    pass_claims(g)
    finish_last_turns(g)
    h = g.history[-1]
    assert h["winner"] == 0 and h["win"]["by"] == "discard" and h["win"]["standing"]
    items = sheet_items(h["sheets"][0])
    assert items["Win from a declared standing hand"] == [100]
    assert "Win by wall card" not in items


# ----- rule 22: an irregular special with a melded chow is called and claimed ----------------------
def test_rule_22_big_snake_with_a_melded_chow_waits_and_wins_on_a_discard() -> None:
    """South chows 6c-7c-8c, then waits on 3c for Big Snake (1..9 Characters with the
    melded chow inside the run + White pung + East pair): not a regular shape, so only the
    special makes it a Mah-Jongg. The 14-card hand holds six honours before the discard."""
    east = "7c 1b 1b 2b 2b 9b 9b 3d 3d 6d 6d 8d 8d N"
    south = "1c 2c 4c 5c 6c 8c 9c E E S P P P"
    g = game(full_deck(east, south, W_, N_, wall="F C F C"))
    g.apply(0, "discard 7c")
    g.apply(1, "chow 6c 7c 8c")
    pass_claims(g)
    assert "declare 3c" in g.legal_actions(1)  # one card from Mah-Jongg after a discard
    discard(g, 1, "S")
    assert g.waits[1] == (tile("3c"),)
    g.apply(2, "discard 3c")
    assert g.phase == "claim" and "mahjong" in g.legal_actions(1)
    g.apply(1, "mahjong")
    for seat in g.to_act:
        g.apply(seat, "pass")
    assert g.winner == 1
    finish_last_turns(g)
    sheet = g.history[-1]["sheets"][1]
    assert sheet["special"] == "Big Snake"
    # 1600 (instead basic and multipliers) + Buried Treasure 300 (run + dragon pung +
    # honour pair); won on the third discard: no Earth Blessing
    assert sheet_items(sheet) == {"Big Snake": [1600], "Buried Treasure": [300]}
    assert sheet["total"] == 1900


def test_irregular_near_sees_a_big_snake_behind_six_honours() -> None:
    conc = counts_of(tiles("1c 2c 4c 5c 9c E E S P P P"))
    melds = (("chow", tile("6c"), False),)
    assert irregular_near(conc, melds, WINDS[1], WINDS[0])
    conc[tile("S")] -= 1
    conc[tile("3c")] += 1
    assert BigSnake.find(conc, melds, WINDS[1], WINDS[0]) is not None


# ----- hidden information: claim answers before resolution ------------------------------------------
def test_claim_answers_stay_private_until_the_window_resolves() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = "4d 6d 1c 3c 7c 7b 8b E N N S W 9b"  # may chow 5d
    west = "5d 5d 2b 4b 6b 8b 1c 3c 5c 7c 9c 9d 9d"  # may pung 5d
    g = game(full_deck(east, south, west, N_, wall=DEAD))
    g.apply(0, "discard 5d")
    before = {s: g.view(s) for s in (None, 0, 2, 3)}
    events = g.apply(1, "chow 4d 5d 6d")
    assert events == []  # nothing public (or private) happens on an answer
    volatile = {"version", "to_act", "claim"}
    for s, old in before.items():
        new = g.view(s)
        assert {k: v for k, v in new.items() if k not in volatile} == {
            k: v for k, v in old.items() if k not in volatile
        }
        assert "chow" not in str(new["claim"])
    assert g.view(1)["claim"]["my_answer"] == "chow 4d 5d 6d"


# ----- readable refusals ---------------------------------------------------------------------------
def refusal(g, seat: int, code: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, code)
    return err.value.reason


def test_refusals_name_the_phase_rule() -> None:
    south = "E E E E 1b 4b 7b 1c 4c 7c 1d 4d 7d"
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d S S S 5b N"
    g = game(full_deck(east, south, W_, N_, wall=DEAD))
    assert g.phase == "prelude"
    assert "Before play" in refusal(g, 1, "discard E")
    assert "Before play" in refusal(g, 1, "mahjong")
    assert "Before play" in refusal(g, 0, "declare 5b")  # East too is asked before play
    pass_prelude(g)
    g.apply(0, "declare 5b")
    assert "declared a standing hand on 5 Bamboo" in refusal(g, 0, "mahjong")
    assert "not the named card" in refusal(g, 0, "discard 1b")


def test_refusals_in_a_claim_window_and_the_one_more_turn() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = "4d 6d 1c 3c 7c 7b 8b E N N S W 9b"
    g = game(full_deck(east, south, WINNER, N_, wall=DEAD))
    g.apply(0, "discard 5d")
    assert refusal(g, 1, "pung") == "You cannot claim 5 Dots for a pung with your hand."
    assert refusal(g, 1, "mahjong") == "5 Dots does not complete a Mah-Jongg for you."
    assert "not one you can make" in refusal(g, 1, "chow 5d 6d 7d")
    g.apply(1, "pass")
    g.apply(2, "mahjong")
    g.apply(3, "pass")
    assert g.phase == "last_turns"
    assert "one more turn" in refusal(g, 3, "mahjong")


# ----- rules 19, 20: kong-box and last-card items from play ------------------------------------------
def test_rules_19_20_win_on_the_replacement_for_a_flower_is_no_win_with_a_kong() -> None:
    south = "2c 2c 2c 4d 5d 6d 7b 8b 9b 1d 2d 3d 9c"  # waits on 9c
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N"
    g = game(full_deck(east, south, W_, N_, wall="f3", box="9c"))
    discard(g, 0, "N")
    assert g.view(None)["extras"][1] == ["f3"] and g.view(1)["drawn"] == "9c"
    g.apply(1, "mahjong")
    info = g.win["info"]
    assert info.from_box and not info.after_kong and not info.last_wall
    finish_last_turns(g)
    sheet = g.history[-1]["sheets"][1]
    items = sheet_items(sheet)
    assert items["Win by wall card"] == [3]
    assert items["Win with a card from the kong box"] == [10]
    assert items["Season/flower"] == [6]  # Chrysanthemum: West's flower, not South's
    assert sheet["multipliers"] == []


@pytest.mark.parametrize("south_discards_4b, expected", [(True, True), (False, False)])
def test_rule_19_last_card_of_its_type_needs_the_other_three_in_sight(
    south_discards_4b: bool, expected: bool
) -> None:
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E 3b 5b N"  # waits on 4b
    west = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 4b"
    g = game(full_deck(east, S_, west, N_, wall="F P C 4b"))
    discard(g, 0, "N")
    discard(g, 1, "4b" if south_discards_4b else "F")
    for seat in (2, 3):
        discard(g, seat, "4b")
    assert g.view(0)["drawn"] == "4b"
    g.apply(0, "mahjong")
    assert g.win["info"].last_of_type is expected
    finish_last_turns(g)
    items = sheet_items(g.history[-1]["sheets"][0])
    assert ("Win with the last card of its type" in items) is expected


# ----- rules 19, 20: scoring details ------------------------------------------------------------------
def test_rule_19_non_winner_scores_a_concealed_honour_pung() -> None:
    sheet = score_non_winner(hand("C C C 2b 5b 9d E", own=1, round_=0))
    assert [(i.name, i.value) for i in sheet.items] == [("Pung of honours (concealed)", 8)]
    assert [m.name for m in sheet.multipliers] == ["Pung/kong of dragons"]
    assert sheet.total == 12


def test_rule_20_win_with_a_kong_needs_a_kong_replacement() -> None:
    cards = "2b 3b 4b 6c 7c 8c 3d 4d 5d 5b 5b"
    h = hand(cards, melds=(("kong", tile("9d"), True),), own=1)
    flower = WinInfo(self_drawn=True, tile=tile("5b"), from_box=True)
    kong = WinInfo(self_drawn=True, tile=tile("5b"), from_box=True, after_kong=True)
    assert "Win with a kong" not in [m.name for m in score_winner(h, flower).multipliers]
    assert "Win with a kong" in [m.name for m in score_winner(h, kong).multipliers]


def test_rule_19_only_chows_refused_with_a_round_wind_pair() -> None:
    cards = "2b 3b 4b 6c 7c 8c 3d 4d 5d 7d 8d 9d {0} {0}"
    win = WinInfo(self_drawn=True, tile=None)
    names = lambda s: [i.name for i in s.items]  # noqa: E731
    assert "Only chows and a plain pair" not in names(
        score_winner(hand(cards.format("E"), own=2, round_=0), win)
    )
    # a dragon pair is neither wind: the 10 stands (with the 3 for a dragon pair)
    plain = names(score_winner(hand(cards.format("C"), own=2, round_=0), win))
    assert "Only chows and a plain pair" in plain and "Pair of dragons" in plain


def test_rule_19_composition_ignores_extras() -> None:
    sheet = score_non_winner(hand("2b 2b 2b 5b 6b 7b", own=1, round_=0, extras="f1 s3"))
    assert [m.name for m in sheet.multipliers] == ["One suit, no honours"]


# ----- rule 22: the special-hands table -------------------------------------------------------------
# name: (score, instead basic, instead multipliers, needs a concealed hand)
SPEC_TABLE = {
    "Imperial": (6000, True, True, True),
    "Mandarin": (5000, True, True, True),
    "Crazy Monkey": (4500, True, True, False),
    "Happy Family": (4000, True, True, False),
    "Big Green": (3600, True, True, False),
    "Small Green": (3500, True, True, False),
    "Red-Green": (3400, True, True, False),
    "Adopted sons of dragon 9": (3300, True, True, False),
    "Adopted sons of dragon 1": (3300, True, True, False),
    "Big Green finger": (3200, True, True, False),
    "Small Green finger": (3000, True, False, False),
    "Horizontal Enemies": (3000, True, True, False),
    "Vertical Enemies": (3000, True, True, False),
    "Three adopted sons of the red dragon": (2800, True, True, False),
    "Three adopted sons of the winds": (2800, True, True, False),
    "4 Big Twin Sisters": (2700, True, False, False),
    "4 Small Twin Sisters": (2500, True, False, False),
    "Harmonic Yin-Yang": (2200, True, False, True),
    "Revolution of fire": (2100, True, False, False),
    "Great Scholars": (2000, True, True, False),
    "Winds and dragons": (1900, True, True, False),
    "Call of the 9th card": (1800, True, True, True),
    "13 Fabulous fingers": (1600, True, True, True),
    "Big Snake": (1600, True, True, False),
    "Snake of the dragons": (1400, True, False, True),
    "Snake of the winds": (1200, True, False, True),
    "Little snake": (1000, True, False, False),
    "United Hand": (300, True, False, False),
    "13 Big and Strange": (250, True, False, True),
}


def test_rule_22_special_hands_table_matches_the_spec() -> None:
    got = {
        h.name: (h.value, h.instead_basic, h.instead_multipliers, h.concealed)
        for h in SPECIAL_HANDS
    }
    assert got == SPEC_TABLE


def test_rule_22_instead_multipliers_no_keeps_the_multipliers() -> None:
    """Revolution of fire replaces all of S (flowers included) but keeps the multipliers:
    North's own flower (Bamboo blossom) still adds +0.25."""
    h = hand("2b 2b 2b 7c 7c 7c 8d 8d 8d C C W E S", own=3, round_=1, extras="f4")
    sheet = score_winner(h, WinInfo(self_drawn=True, tile=None))
    assert sheet.special == "Revolution of fire"
    assert [(i.name, i.value) for i in sheet.items] == [("Revolution of fire", 2100)]
    assert sheet.total == 2625  # 2100 x 1.25


def test_rule_22_imperial_needs_the_players_own_wind() -> None:
    cards = "C C C F F F P P P E E E 5b 5b"
    win = WinInfo(self_drawn=True, tile=None)
    assert score_winner(hand(cards, own=0, round_=1), win).special == Imperial.name
    # East is the round wind here, not the player's own (South): no Imperial
    assert score_winner(hand(cards, own=1, round_=0), win).special != Imperial.name


# ----- rules 13, 15: the one more turn: locked hands play themselves, no claims -----------------------
def test_rules_13_15_one_more_turn_standing_hand_auto_discards_and_nobody_claims() -> None:
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N"  # standing on 5b
    south = "1b 1b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 5d"  # a pair of 1b; discards 5d
    g = game(full_deck(east, south, WINNER, N_, wall=DEAD))
    g.apply(0, "declare 5b")
    discard(g, 0, "N")
    g.apply(1, "discard 5d")
    assert g.legal_actions(0) == ["pass"]  # East's standing hand does not call 5d
    g.apply(2, "mahjong")
    pass_claims(g)
    assert g.phase == "last_turns" and g.to_act == [3]
    g.apply(3, "discard 1b")  # South holds two 1b: in play it could pung; not now
    v = g.view(None)
    assert v["claim"] is None and g.phase == "last_turns"
    assert v["rivers"][0] == ["N", "C"]  # East (locked) drew C and let it go by itself
    assert g.to_act == [1]
    g.apply(1, g.default_action(1))
    assert g.history[-1]["outcome"] == "mahjong" and g.history[-1]["winner"] == 2


# ----- rule 14: Mah-Jongg only on a drawn or a claimed winning card ---------------------------------
def test_rule_14_no_mahjong_after_claiming_a_pung_with_a_complete_hand() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    west = "5d 5d 1c 2c 3c 7c 8c 9c 2b 3b 4b 8d 8d"  # 5d completes the hand as a pung
    g = game(full_deck(east, S_, west, N_, wall=DEAD))
    g.apply(0, "discard 5d")
    assert g.legal_actions(2) == ["mahjong", "pung", "pass"]
    g.apply(2, "pung")  # chooses the pung instead of Mah-Jongg
    pass_claims(g)
    legal = g.legal_actions(2)
    assert "mahjong" not in legal and any(c.startswith("discard ") for c in legal)


def test_default_action_discards_the_drawn_card() -> None:
    g = game(full_deck("1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N", S_, W_, N_, wall="1b"))
    discard(g, 0, "N")
    assert g.view(1)["drawn"] == "1b" and g.default_action(1) == "discard 1b"


# ----- rule 13: a named card must still exist ---------------------------------------------------------
def test_rule_13_no_call_on_a_card_whose_four_copies_the_caller_holds() -> None:
    east = "6b 1b 1b 2c 2c 9c 9c S S W W N N 3c"
    south = "6b 6b 6b 4b 5b 7b 8b 1c 2c 3c E E N"
    west = "3b 2b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
    g = game(full_deck(east, south, west, N_, wall=DEAD))
    g.apply(0, "discard 6b")
    g.apply(1, "pung")  # the fourth 6b stays in South's hand
    pass_claims(g)
    declares = {c.split()[1] for c in g.legal_actions(1) if c.startswith("declare ")}
    # after discarding N: 4b 5b + 6b 7b 8b (or 4b 5b 6b + 7b 8b) wait on 3b, 6b, 9b, but
    # every 6b is South's own
    assert {"3b", "9b"} <= declares and "6b" not in declares


# ----- irregular special hands: waits one honour short -------------------------------------------------
def test_irregular_waits_on_a_missing_wind_or_dragon() -> None:
    little_snake = counts_of(tiles("1c 2c 3c 4c 5c 6c 7c 8c 9c E S W F"))
    assert mahjong_waits(little_snake, (), 0, 0, concealed_ok=False) == [tile("N")]
    enemies = counts_of(tiles("1c 1c 1c 9c 9c 9c E E E W W W N"))  # S: Enemies; N: regular
    assert mahjong_waits(enemies, (), 0, 0, concealed_ok=False) == tiles("S N")
    fabulous = counts_of(tiles("1b 9b 1c 9c 1d 9d E S W N C F 1b"))
    assert mahjong_waits(fabulous, (), 0, 0, concealed_ok=True) == [tile("P")]
    snake = counts_of(tiles("1b 4b 7b 2c 5c 8c 3d 6d 9d C F S S"))  # South's own wind pair
    assert mahjong_waits(snake, (), 1, 0, concealed_ok=True) == [tile("P")]


# ----- rule 22: near misses are not the special ----------------------------------------------------------
@pytest.mark.parametrize(
    "special, cards, own",
    [
        ("Great Scholars", "C C C F F F P P P 3c 4c 5c 8b 8b", 0),  # pair not of the chow's suit
        ("Winds and dragons", "E E E S S S C C C P P P 5b 5b", 0),  # a suited pair
        ("Three adopted sons of the red dragon", "4b 4b 4b 4c 4c 4c 4d 4d 4d C C C F F", 0),
        ("Big Green finger", "3b 3b 3b 2b 2b 2b 4b 4b 4b F F F 5c 5c", 0),  # pair not bamboo
        ("Horizontal Enemies", "1c 1c 1c 9c 9c 9c E E E W W W S S", 0),  # no North
        ("Snake of the dragons", "1b 4b 7b 2c 5c 8c 3d 6d 9d C F P E E", 1),  # not own wind
        ("Adopted sons of dragon 9", "9b 9b 9b 9c 9c 9c 9d 9d 9d E E E S S", 1),  # wind pung
        ("Call of the 9th card", "1d 1d 1d 2d 3d 4d 5d 6d 7d 8d 9d 9d 9d 5c", 0),  # other suit
    ],
)
def test_rule_22_near_misses(special: str, cards: str, own: int) -> None:
    (hand_class,) = [h for h in SPECIAL_HANDS if h.name == special]
    conc = counts_of(tiles(cards))
    assert hand_class.find(conc, (), WINDS[own], WINDS[0]) is None
    if is_mahjong(conc, (), own, 0, concealed_ok=True):  # e.g. a regular reading
        sheet = score_winner(hand(cards, own=own, round_=0), WinInfo(self_drawn=True, tile=None))
        assert sheet.special != special
