"""The rules of play from stacked decks: deal, wall, extras, kongs, claims, standing hands,
Mah-Jongg, the one more turn, draws, rotation, game length, strict penalties, views."""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalAction
from bot.games.mahjong import OPTIONS, new_game, replay
from bot.games.mahjong.rules import MahjongOptions
from bot.games.mahjong.tiles import CODES, tile

try:
    from .mahjong_helpers import (
        FULL,
        PLAYERS,
        all_cards,
        full_deck,
        game,
        pass_claims,
        play,
        skip_empty_prelude,
    )
except ImportError:
    from mahjong_helpers import (
        FULL,
        PLAYERS,
        all_cards,
        full_deck,
        game,
        pass_claims,
        play,
        skip_empty_prelude,
    )

# Scattered hands without pairs, runs or honours: they never claim an honour discard.
S_ = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 2c"
W_ = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
N_ = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"
E_ = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N"  # discarding N leaves a wait on 5b
DEAD = "F P C F P C F P C F P C"  # honours nobody holds
CHOWER = "4d 6d 1c 3c 7c 7b 8b E N N S W 9b"  # South: can chow 5d with 4d 6d
WINNER = "4d 6d 2b 3b 4b 4c 5c 6c 7b 8b 9b 3d 3d"  # complete with 5d (a chow)


def standard(**kw) -> object:  # type: ignore[no-untyped-def]
    return game(full_deck(E_, S_, W_, N_, wall=kw.pop("wall", DEAD), box=kw.pop("box", "")), **kw)


def end_turns(g, n: int) -> None:  # type: ignore[no-untyped-def]
    """Let the next ``n`` turns discard their drawn card (the tests use dead draws); the
    claim windows they open (every discard asks the three others) are passed."""
    for _ in range(n):
        seat = g.to_act[0]
        g.apply(seat, f"discard {g.view(seat)['drawn']}")
        pass_claims(g)


# ----- the deal -----------------------------------------------------------------------------------
def test_deal_sizes_wall_and_box() -> None:
    g = standard()
    v = g.view(None)
    assert v["hand_counts"] == [14, 13, 13, 13]
    assert v["wall"] == 144 - 53 - 14 == 77
    assert v["kong_box"] == 14
    assert v["round_player"] == 0 and v["seat_winds"] == ["E", "S", "W", "N"]
    assert g.phase == "discard" and g.to_act == [0]  # the round player discards first
    assert all_cards(g) == FULL


def test_deck_is_dealt_as_documented() -> None:
    g = standard()
    assert sorted(g.view(1)["hand"], key=CODES.index) == sorted(S_.split(), key=CODES.index)
    g.apply(0, "discard N")
    pass_claims(g)
    assert g.view(1)["drawn"] == "F"  # the first live-wall card


def test_random_seats_come_from_the_seed() -> None:
    a = new_game(5, PLAYERS).view(None)["seat_winds"]
    b = new_game(5, PLAYERS).view(None)["seat_winds"]
    assert a == b and sorted(a) == ["E", "N", "S", "W"]


# ----- extras and the kong box ---------------------------------------------------------------------
def test_extras_at_the_deal_are_replaced_from_the_kong_box_in_turn_order() -> None:
    east = "f1 s3 1b 2b 3b 4c 5c 6c 7d 8d 9d E E N"
    south = "f2 1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b"
    g = game(full_deck(east, south, W_, N_, wall=DEAD, box="f4 3d 9c 9b"))
    v = g.view(None)
    assert v["extras"][0] == ["f1", "s3", "f4"]  # f1 -> f4 (laid out too) -> ...
    assert "3d" in g.view(0)["hand"] and "9c" in g.view(0)["hand"]
    assert v["extras"][1] == ["f2"] and "9b" in g.view(1)["hand"]
    assert v["hand_counts"][:2] == [14, 13]
    assert v["kong_box"] == 14 - 4


def test_an_extra_drawn_in_play_is_laid_out_and_replaced() -> None:
    g = standard(wall="f3 P", box="6b")
    g.apply(0, "discard N")
    pass_claims(g)
    assert g.view(None)["extras"][1] == ["f3"]
    assert g.view(1)["drawn"] == "6b"  # the replacement from the kong box
    assert g.view(None)["wall"] == 76 and g.view(None)["kong_box"] == 13


def test_kong_box_is_topped_up_to_four_from_the_far_end_of_the_wall() -> None:
    # eight extras and three concealed kongs at the deal: eleven replacements
    east = "f1 f2 f3 f4 s1 s2 s3 s4 1b 2b 3b 4c 5c 6c"
    south = "E E E E 1b 4b 7b 1c 4c 7c 1d 4d 7d"
    west = "S S S S 3b 6b 9b 3c 6c 9c 3d 6d 9d"
    north = "W W W W 2b 5b 8b 2c 5c 8c 1d 4d 7d"
    deck = full_deck(east, south, west, north, wall=DEAD, box="2d 3d 4d 5d 6d 7d 8d 9d 1c 2c 3c")
    g = game(deck)
    far_end = tile(deck[129])  # the live wall's last card
    # Before play everyone is asked at once (East too, who holds no four: pass only).
    assert g.phase == "prelude" and g.to_act == [0, 1, 2, 3]
    assert g.legal_actions(0) == ["pass"]
    g.apply(0, "pass")
    for seat in (1, 2, 3):
        assert g.legal_actions(seat) == [f"kong {'ESW'[seat - 1]}", "pass"]
        g.apply(seat, f"kong {'ESW'[seat - 1]}")
    # the three kongs are carried out; the three who declared are asked again
    assert g.phase == "prelude" and g.to_act == [1, 2, 3]
    for seat in (1, 2, 3):
        g.apply(seat, "pass")
    assert g.phase == "discard" and g.to_act == [0]
    v = g.view(None)
    assert v["kong_box"] == 4  # 14 - 11 = 3 -> topped up to 4
    assert v["wall"] == 77 - 1
    assert g.box[-1] == far_end
    assert all_cards(g) == FULL


def test_prelude_kong_is_optional() -> None:
    south = "E E E E 1b 4b 7b 1c 4c 7c 1d 4d 7d"
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d S S S 5b N"
    g = game(full_deck(east, south, W_, N_, wall=DEAD))
    assert g.to_act == [0, 1, 2, 3] and g.phase == "prelude"
    for seat in (0, 1, 2, 3):
        g.apply(seat, "pass")
    assert g.phase == "discard" and g.to_act == [0]
    assert g.view(None)["melds"][1] == []


# ----- turns and claims --------------------------------------------------------------------------------
def test_a_dead_discard_still_opens_a_window_for_all_three() -> None:
    # (It used to open no window: asking only those who can claim showed who held what.)
    g = standard()
    g.apply(0, "discard N")
    assert g.phase == "claim" and g.to_act == [1, 2, 3]
    assert all(g.legal_actions(p) == ["pass"] for p in (1, 2, 3))
    pass_claims(g)
    assert g.phase == "discard" and g.to_act == [1]
    assert g.view(None)["rivers"][0] == ["N"]


def claim_deck(east: str, south: str, west: str, north: str) -> object:  # type: ignore[no-untyped-def]
    return game(full_deck(east, south, west, north, wall=DEAD))


def test_pung_beats_chow_and_answers_stay_hidden() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    west = "5d 5d 2b 4b 6b 8b 1c 3c 5c 7c 9c 9d 9d"
    north = "1d 2d 3d 7d 8d 9d 2b 4b 6b 8b 3c 5c 7c"
    g = claim_deck(east, south, west, north)
    g.apply(0, "discard 5d")
    # all three at once; North cannot claim but is asked too (only "pass"), so that the
    # window does not show who holds a matching card
    assert g.phase == "claim" and g.to_act == [1, 2, 3]
    assert g.legal_actions(1) == ["chow 4d 5d 6d", "pass"]
    assert g.legal_actions(2) == ["pung", "pass"]
    assert g.legal_actions(3) == ["pass"]
    g.apply(1, "chow 6d 4d 5d")  # any order of the three cards
    v2 = g.view(2)
    assert v2["claim"]["card"] == "5d" and v2["claim"]["asked"] == [1, 2, 3]
    assert "chow" not in str(v2["claim"]) and v2["claim"]["waiting"] == [2, 3]
    assert g.view(1)["claim"]["my_answer"] == "chow 4d 5d 6d"
    g.apply(2, "pung")
    g.apply(3, "pass")
    v = g.view(None)
    assert v["melds"][2] == [{"kind": "pung", "cards": ["5d"] * 3, "concealed": False}]
    assert v["melds"][1] == [] and v["rivers"][0] == []
    assert g.phase == "discard" and g.to_act == [2] and g.drawn is None
    assert "mahjong" not in g.legal_actions(
        2
    )  # no Mah-Jongg without a drawn or claimed winning card
    assert all_cards(g) == FULL


def test_chow_only_from_the_previous_player() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    north = "4d 6d 1c 3c 7c 7b 8b 9b 2b 4b 8c 3b 9d"
    g = claim_deck(east, S_, W_, north)
    g.apply(0, "discard 5d")
    # North holds 4d 6d but is not after East: only "pass" (asked like everyone)
    assert g.legal_actions(3) == ["pass"]
    pass_claims(g)
    assert g.phase == "discard" and g.to_act == [1]


def test_chow_claim_then_claimer_discards_and_play_goes_on_from_them() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    g = claim_deck(east, south, W_, N_)
    g.apply(0, "discard 5d")
    g.apply(1, "chow 4d 5d 6d")
    pass_claims(g)  # the others pass
    assert g.view(None)["melds"][1][0]["cards"] == ["4d", "5d", "6d"]
    assert g.to_act == [1] and g.view(1)["drawn"] is None  # no draw after a claim
    g.apply(1, "discard 1c")
    pass_claims(g)
    assert g.to_act == [2] and g.view(2)["drawn"] == "F"


def test_mahjong_beats_kong() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    west = "4d 6d 1b 2b 3b 4c 5c 6c 7b 8b 9b 3d 3d"  # wins with 4d 5d 6d
    north = "5d 5d 5d 2b 4b 6b 8b 3c 7c 1d 9d 2d 8d"
    g = claim_deck(east, S_, west, north)
    g.apply(0, "discard 5d")
    assert g.to_act == [1, 2, 3]  # (South cannot claim: "pass" only)
    assert g.legal_actions(3) == ["kong", "pung", "pass"]
    g.apply(3, "kong")
    g.apply(2, "mahjong")
    g.apply(1, "pass")
    assert g.winner == 2 and g.phase == "last_turns"


def test_mahjong_claims_nearest_wins_between_equal_readings() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = WINNER
    north = "4d 6d 1c 2c 3c 7c 8c 9c 2b 3b 4b 8d 8d"
    g = claim_deck(east, south, W_, north)
    g.apply(0, "discard 5d")
    assert g.to_act == [1, 2, 3]
    g.apply(3, "mahjong")
    g.apply(1, "mahjong")
    g.apply(2, "pass")
    assert g.winner == 1  # both complete a chow: South sits nearer East


def test_mahjong_claim_completing_a_pung_beats_a_nearer_chow() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = WINNER
    west = "5d 5d 1c 2c 3c 7c 8c 9c 2b 3b 4b 8d 8d"
    g = claim_deck(east, south, west, N_)
    g.apply(0, "discard 5d")
    play(g, 1, "mahjong")
    play(g, 2, "mahjong")
    play(g, 3, "pass")
    assert g.winner == 2


def test_mahjong_claim_with_a_special_hand_beats_a_pung() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c 3b 3b 6b 6b 7c 7c 5c"
    west = "5d 5d 1b 2b 3b 4c 5c 6c 7b 8b 9b 8d 8d"
    north = "1d 2d 3d 4d 6d 7d 8d 9d E S W N E"  # + 5d: Little snake
    g = claim_deck(east, S_, west, north)
    g.apply(0, "discard 5d")
    assert g.to_act == [1, 2, 3]
    play(g, 2, "mahjong")
    play(g, 3, "mahjong")
    play(g, 1, "pass")
    assert g.winner == 3


def test_all_pass_leaves_the_discard_dead() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    g = claim_deck(east, south, W_, N_)
    g.apply(0, "discard 5d")
    g.apply(1, "pass")
    assert g.phase == "claim" and g.to_act == [2, 3]  # West and North are asked too
    pass_claims(g)
    assert g.phase == "discard" and g.to_act == [1] and g.view(None)["rivers"][0] == ["5d"]


def test_discard_after_the_last_wall_card_only_for_mahjong() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    g = claim_deck(east, south, W_, N_)
    g.live_end = g.live_pos  # (test set-up) the live wall is used up
    g.apply(0, "discard 5d")
    # South could chow 5d, but no claim but Mah-Jongg is allowed now (all are still asked)
    assert g.to_act == [1, 2, 3] and all(g.legal_actions(p) == ["pass"] for p in (1, 2, 3))
    pass_claims(g)
    # nobody draws: a draw
    assert g.hand_no == 2 and g.history[-1]["outcome"] == "draw"


def test_exhaustive_draw_keeps_seats_and_replays_the_hand() -> None:
    g = standard()
    g.live_end = g.live_pos + 2  # (test set-up) two live cards left
    g.apply(0, "discard N")
    pass_claims(g)
    end_turns(g, 2)
    assert g.hand_no == 2
    assert g.history[-1]["outcome"] == "draw" and g.history[-1]["deltas"] == [0, 0, 0, 0]
    assert g.scores == [0, 0, 0, 0]
    assert g.view(None)["seat_winds"] == ["E", "S", "W", "N"]
    assert [e for e in g.events if e.kind == "deal_end"]


# ----- kongs -------------------------------------------------------------------------------------------
def test_concealed_kong_draws_a_replacement_and_wins_with_a_kong() -> None:
    south = "2c 2c 2c 4d 5d 6d 7b 8b 9b 1d 2d 3d 9c"  # waits on 9c
    g = game(full_deck(E_.replace("5b", "2b"), south, W_, N_, wall="2c", box="9c"))
    g.apply(0, "discard N")
    pass_claims(g)
    assert "kong 2c" in g.legal_actions(1)
    g.apply(1, "kong 2c")
    assert g.view(None)["melds"][1] == [{"kind": "kong", "cards": ["2c"] * 4, "concealed": True}]
    assert g.view(1)["drawn"] == "9c" and "mahjong" in g.legal_actions(1)
    g.apply(1, "mahjong")
    assert g.winner == 1
    info = g.win["info"]
    assert info.from_box and info.after_kong


def test_melded_kong_claim_and_extension() -> None:
    east = "7d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = "7d 7d 1c 3c 5c 9d 2d E N N S W 9b"
    g = game(full_deck(east, south, W_, N_, wall="F P C 7d", box="3b 4b"))
    g.apply(0, "discard 7d")
    assert g.legal_actions(1) == ["pung", "pass"]
    g.apply(1, "pung")
    pass_claims(g)
    g.apply(1, "discard 1c")
    pass_claims(g)
    end_turns(g, 3)  # West, North, East discard their dead draws
    # South draws the fourth 7d and adds it to the pung
    assert g.view(1)["drawn"] == "7d" and "extend 7d" in g.legal_actions(1)
    g.apply(1, "extend 7d")
    assert g.view(None)["melds"][1][0] == {"kind": "kong", "cards": ["7d"] * 4, "concealed": False}
    assert g.view(1)["drawn"] == "3b"
    assert all_cards(g) == FULL


# ----- the standing hand ----------------------------------------------------------------------------------
def test_standing_hand_declaration_lock_and_win() -> None:
    g = standard(wall="F P C 9c F P C 5b")
    assert "declare 5b" in g.legal_actions(0)
    g.apply(0, "declare 5b")
    assert g.legal_actions(0) == ["discard N"]  # only discards that keep the call
    g.apply(0, "discard N")
    pass_claims(g)
    shown = g.view(2)["standing"][0]
    assert shown["card"] == "5b" and len(shown["hand"]) == 13
    end_turns(g, 3)
    # East drew 9c: discarded automatically (the hand is locked)
    assert g.view(None)["rivers"][0] == ["N", "9c"]
    assert any("automatically" in e.text for e in g.events)
    end_turns(g, 3)
    assert g.legal_actions(0) == ["mahjong"]  # the called card
    g.apply(0, "mahjong")
    g2 = g
    while g2.phase == "last_turns":
        seat = g2.to_act[0]
        g2.apply(seat, g2.default_action(seat))
    sheet = g.history[-1]["sheets"][0]
    assert {"name": "Win from a declared standing hand", "value": 100} in sheet["items"]


def test_false_standing_declaration_is_refused() -> None:
    g = standard()
    assert "declare 9d" not in g.legal_actions(0)
    with pytest.raises(IllegalAction):
        g.apply(0, "declare 9d")


@pytest.mark.parametrize(
    "east, never",
    [
        ("1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b 5b", None),  # complete: may call 5b, E...
        # only discarding an N leaves a wait on N: N may not be called (it would be discarded)
        ("1b 2b 3b 4c 5c 6c 7d 8d 9d 1d 2d 3d N N", "N"),
    ],
)
def test_standing_hand_may_not_discard_the_called_card(east: str, never: str | None) -> None:
    g = game(full_deck(east, S_, W_, N_, wall=DEAD))
    declares = [c for c in g.legal_actions(0) if c.startswith("declare ")]
    assert declares
    if never:
        assert f"declare {never}" not in declares
    for code in declares:
        w = code.split()[1]
        g2 = g.clone()
        g2.apply(0, code)
        after = g2.legal_actions(0)
        assert after and all(c.startswith("discard ") for c in after)  # some discard keeps it
        assert f"discard {w}" not in after


# ----- Mah-Jongg, the one more turn, scoring and rotation -------------------------------------------------
def finish_last_turns(g) -> None:  # type: ignore[no-untyped-def]
    while g.phase == "last_turns":
        seat = g.to_act[0]
        g.apply(seat, g.default_action(seat))


def test_original_hand_and_round_player_keeps_the_seat() -> None:
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b 5b"
    g = game(full_deck(east, S_, W_, N_, wall=DEAD))
    assert "mahjong" in g.legal_actions(0)
    g.apply(0, "mahjong")
    assert g.phase == "last_turns" and g.to_act == [1]
    assert "mahjong" not in g.legal_actions(1) and not any(
        c.startswith("declare") for c in g.legal_actions(1)
    )
    finish_last_turns(g)
    h = g.history[-1]
    assert h["outcome"] == "mahjong" and h["winner"] == 0 and h["win"]["original"]
    assert {"name": "Original hand (Celestial Blessing)", "value": 1.5} in h["sheets"][0][
        "multipliers"
    ]
    # the round player won: 16 from each other player, seats stay
    assert h["sheets"][0]["payment"] == 48 and h["sheets"][1]["payment"] == -16
    assert g.view(None)["seat_winds"] == ["E", "S", "W", "N"] and g.hand_no == 2
    assert sum(h["deltas"]) == sum(s["total"] for s in h["sheets"])


def test_one_more_turn_has_no_claims_and_then_seats_rotate() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    west = WINNER
    g = claim_deck(east, S_, west, N_)
    g.apply(0, "discard 5d")
    g.apply(2, "mahjong")
    pass_claims(g)
    assert g.view(None)["win"]["winner"] == 2
    assert g.to_act == [3]  # the player after the winner starts
    assert g.legal_actions(3) == [
        c for c in g.legal_actions(3) if c.split()[0] in ("discard", "kong", "extend")
    ]
    g.apply(3, g.default_action(3))
    assert g.to_act == [0]  # no claim window in the one more turn
    finish_last_turns(g)
    h = g.history[-1]
    assert {"name": "Earth Blessing", "value": 800} in h["sheets"][2]["items"]
    assert h["sheets"][2]["payment"] == 24
    # West (not the round player) won: everyone moves one seat; the old North is East now
    assert g.view(None)["seat_winds"] == ["S", "W", "N", "E"]
    # the next hand starts with everyone asked about concealed kongs (nobody holds four)
    assert g.phase == "prelude" and g.to_act == [0, 1, 2, 3]
    skip_empty_prelude(g)
    assert g.view(None)["round_player"] == 3 and g.to_act == [3]


def test_one_more_turn_stops_when_the_wall_runs_out() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    west = WINNER
    g = claim_deck(east, S_, west, N_)
    g.live_end = g.live_pos + 1  # (test set-up) one live card left
    g.apply(0, "discard 5d")
    g.apply(2, "mahjong")
    pass_claims(g)
    g.apply(3, g.default_action(3))
    assert g.history[-1]["outcome"] == "mahjong" and g.hand_no == 2


def test_last_wall_card_scores_ten() -> None:
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N"
    g = game(full_deck(east, S_, W_, N_, wall="F P C 5b"))
    g.live_end = g.live_pos + 4  # (test set-up) East's next draw is the last live card
    g.apply(0, "discard N")
    pass_claims(g)
    end_turns(g, 3)
    g.apply(0, "mahjong")
    finish_last_turns(g)
    items = g.history[-1]["sheets"][0]["items"]
    assert {"name": "Win by the last wall card", "value": 10} in items
    assert not any(i["name"] == "Win by wall card" for i in items)


@pytest.mark.parametrize(
    "east, wins_on, expected",
    [
        ("1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N", "5b", True),  # waits on 5b only
        ("1b 2b 3b 4c 5c 6c 7d 8d 9d E E 5b 6b N", "4b", False),  # 4b or 7b
    ],
)
def test_last_card_of_its_type_option_only_wait(east: str, wins_on: str, expected: bool) -> None:
    g = game(full_deck(east, S_, W_, N_, wall=f"F P C {wins_on}"), last_card="only_wait")
    g.apply(0, "discard N")
    pass_claims(g)
    end_turns(g, 3)
    g.apply(0, "mahjong")
    finish_last_turns(g)
    items = g.history[-1]["sheets"][0]["items"]
    assert ({"name": "Win with the last card of its type", "value": 2} in items) is expected


def test_last_card_of_its_type_last_copy() -> None:
    # East waits on 4b (closed); the other three 4b are discarded before East draws the last
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E 3b 5b N"
    west = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 4b"
    g = game(full_deck(east, S_, west, N_, wall="F P C 4b"))
    g.apply(0, "discard N")
    pass_claims(g)
    for seat in (1, 2, 3):
        g.apply(seat, "discard 4b")
        assert 0 in g.to_act and g.legal_actions(0)[0] == "mahjong"  # (after North: chows too)
        pass_claims(g)
    assert g.view(0)["drawn"] == "4b"
    g.apply(0, "mahjong")
    finish_last_turns(g)
    items = g.history[-1]["sheets"][0]["items"]
    assert {"name": "Win with the last card of its type", "value": 2} in items


def test_regular_game_ends_after_four_seat_changes() -> None:
    g = _rotation_game("regular")
    assert g.is_over and g.rotations == 4 and g.hand_no == 4
    assert g.legal_actions(0) == [] and g.to_act == []
    r = g.result()
    assert sorted(r.placements)[0] == 1 and len(r.scores) == 4


def test_extended_game_plays_four_round_winds() -> None:
    seen = []
    g = _rotation_game("extended", seen)
    assert g.is_over and g.rotations == 16 and g.hand_no == 16
    assert seen == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4


def _rotation_game(kind: str, winds_seen: list | None = None):  # type: ignore[no-untyped-def]
    """Every hand: the round player discards 5d, the next player wins on it at once."""
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = WINNER
    deck = full_deck(east, south, W_, N_, wall=DEAD)
    g = new_game(1, PLAYERS, {"random_seats": False, "game": kind}, deck=[deck] * 16)
    while not g.is_over:
        skip_empty_prelude(g)
        if winds_seen is not None:
            winds_seen.append(g.view(None)["round_wind"])
        rp = g.view(None)["round_player"]
        g.apply(rp, "discard 5d")
        nxt = g.next_player(rp)
        g.apply(nxt, "mahjong")
        pass_claims(g)
        finish_last_turns(g)
    return g


# ----- strict mode penalties -----------------------------------------------------------------------------
def test_strict_false_group_claim_costs_two() -> None:
    g = standard(strict=True)
    g.apply(0, "discard N")
    assert g.phase == "claim" and g.to_act == [1, 2, 3]  # everyone is asked
    assert "pung" in g.legal_actions(2)
    g.apply(1, "pass")
    g.apply(2, "pung")  # West holds no N
    g.apply(3, "pass")
    assert g.scores == [0, 0, -2, 0]
    assert g.phase == "discard" and g.to_act == [1]


def test_strict_false_mahjong_costs_300_and_replays_the_hand() -> None:
    g = standard(strict=True)
    assert "mahjong" in g.legal_actions(0)
    g.apply(0, "mahjong")
    assert g.scores == [-300, 0, 0, 0]
    assert g.hand_no == 2 and g.history[-1]["outcome"] == "void"
    assert g.view(None)["seat_winds"] == ["E", "S", "W", "N"]


def test_strict_wrong_mahjong_among_several_costs_20() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = WINNER
    g = game(full_deck(east, south, W_, N_, wall=DEAD), strict=True)
    g.apply(0, "discard 5d")
    g.apply(1, "mahjong")
    g.apply(2, "pass")
    g.apply(3, "mahjong")  # false
    assert g.winner == 1 and g.totals[3] == -20


def test_strict_false_standing_hand_costs_300() -> None:
    g = standard(strict=True)
    g.apply(0, "declare 9d")
    g.apply(0, "discard N")
    assert g.scores[0] == -300 and g.history[-1]["outcome"] == "void"


# ----- illegal actions and views ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "seat, code",
    [
        (0, "discard 9c"),  # not held
        (1, "discard 1b"),  # not this seat's turn
        (0, "mahjong"),  # not a complete hand
        (0, "kong 1b"),
        (0, "pung"),
        (0, "discard"),
        (0, "hello"),
        (7, "discard N"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(seat: int, code: str) -> None:
    g = standard()
    before = g.snapshot()
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, code)
    assert err.value.reason
    assert g.snapshot() == before


def test_illegal_chow_explains_itself() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    g = claim_deck(east, south, W_, N_)
    g.apply(0, "discard 5d")
    with pytest.raises(IllegalAction) as err:
        g.apply(1, "chow 5d 6d 7d")
    assert "7d" not in g.view(1)["hand"] and err.value.reason


def test_views_hide_other_hands() -> None:
    g = standard()
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        assert v["hand_counts"] == [14, 13, 13, 13]
        if seat is None:
            assert v["hand"] is None
        else:
            assert len(v["hand"]) == v["hand_counts"][seat]
    # East's cards appear nowhere in South's view (except public fields)
    text = str({k: v for k, v in g.view(1).items() if k not in ("hand",)})
    assert "'7d'" not in text


def test_options_validation() -> None:
    assert OPTIONS is MahjongOptions
    with pytest.raises(ValueError):
        MahjongOptions(game="long")
    with pytest.raises(ValueError):
        new_game(1, PLAYERS, {"nonsense": 1})
    with pytest.raises(ValueError):
        new_game(1, PLAYERS, {"settlement": "other"})
    assert MahjongOptions().rounds == 4 and MahjongOptions(game="extended").rounds == 16


def test_classical_settlement_option_zero_sum() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    west = WINNER
    g = game(full_deck(east, S_, west, N_, wall=DEAD), settlement="classical")
    g.apply(0, "discard 5d")
    g.apply(2, "mahjong")
    pass_claims(g)
    finish_last_turns(g)
    assert sum(g.history[-1]["deltas"]) == 0 and sum(g.scores) == 0


def test_replay_rebuilds_the_state() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    deck = full_deck(east, south, W_, N_, wall=DEAD)
    g = game(deck)
    play(g, 0, "discard 5d")
    play(g, 1, "chow 4d 5d 6d")
    play(g, 2, "pass")
    play(g, 3, "pass")
    play(g, 1, "discard 1c")
    r = replay(1, PLAYERS, {"random_seats": False}, g.log, deck=deck)
    assert r.snapshot() == g.snapshot()


def test_default_actions_are_safe() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = CHOWER
    g = claim_deck(east, south, W_, N_)
    assert g.default_action(0).startswith("discard ")
    g.apply(0, "discard 5d")
    assert g.default_action(1) == "pass"
    with pytest.raises(IllegalAction):
        g.default_action(0)
