"""When a claim window's remaining answers stop mattering (``MahjongState.moot_answers``):
never before a claim (the window runs to its close, so its length tells nothing); once a
claim is in, for every seat that could not beat it; with the strict option never. The
host answers ``pass`` for those at once, so a claim is resolved as soon as no better one
can come. Known answers on stacked decks."""

from __future__ import annotations

from bot.games.mahjong import new_game
from bot.games.mahjong.tiles import INDEX

try:
    from .mahjong_helpers import FIXED, PLAYERS, full_deck, game
except ImportError:
    from mahjong_helpers import FIXED, PLAYERS, full_deck, game

EAST = "1b 2b 3b 4b 5b 6b 7c 8c 9c E E P 5d N"  # discards 5 Dots first
SOUTH_CHOW = "4d 6d 1c 1c 1c 2c 3c 7b 8b 9b S S W"  # may chow 5 Dots
SOUTH_WINS = "1c 2c 3c 4c 5c 6c 7c 8c 9c 4d 6d E E"  # 5 Dots completes it (or a chow)
SOUTH_NOTHING = "1d 1c 1c 1c 2c 3c 7b 8b 9b S S W 4b"
WEST_PUNG = "5d 5d 2b 5b 8b 3c 6c 9c S W C F 1d"  # may pung 5 Dots
WEST_NOTHING = "9d 2d 2b 5b 8b 3c 6c 9c S W C F 1d"
NORTH_PUNG = "5d 5d 2b 5b 8b 3c 6c 9c S W C F 1d"
NORTH_NOTHING = "2d 8d 3b 6b 9b 4c 7c W C P 7b 3c 9d"


def window(south: str, west: str, north: str, **options: object):  # type: ignore[no-untyped-def]
    g = game(full_deck(EAST, south, west, north), **options)
    g.apply(0, "discard 5d")
    assert g.phase == "claim" and g.to_act == [1, 2, 3]
    return g


def test_nothing_is_moot_before_a_claim_even_when_only_passes_are_possible() -> None:
    g = window(SOUTH_NOTHING, WEST_NOTHING, NORTH_NOTHING)
    assert all(g.legal_actions(p) == ["pass"] for p in (1, 2, 3))
    assert g.moot_answers() is None
    g.apply(2, "pass")
    assert g.moot_answers() is None  # a pass is no claim: the window still runs its time


def test_after_a_pung_a_chow_and_a_pass_only_seat_are_moot() -> None:
    g = window(SOUTH_CHOW, WEST_PUNG, NORTH_NOTHING)
    assert g.moot_answers() is None
    assert "chow 4d 5d 6d" in g.legal_actions(1) and "pung" in g.legal_actions(2)
    g.apply(2, "pung")
    assert g.moot_answers() == [1, 3]  # a chow never beats a pung; North has nothing
    g.apply(1, "pass")
    g.apply(3, "pass")
    assert g.melds[2] == [("pung", INDEX["5d"], False)] and g.turn == 2


def test_after_a_chow_a_possible_pung_still_counts() -> None:
    g = window(SOUTH_CHOW, WEST_PUNG, NORTH_NOTHING)
    g.apply(1, "chow 4d 5d 6d")
    assert g.moot_answers() == [3]  # West's pung would beat the chow: West is waited for
    g.apply(3, "pass")
    assert g.to_act == [2]


def test_a_possible_mahjong_beats_a_pung_made_first() -> None:
    g = window(SOUTH_WINS, NORTH_NOTHING.replace("9d", "1d"), NORTH_PUNG)
    assert "mahjong" in g.legal_actions(1) and g.legal_actions(2) == ["pass"]
    g.apply(3, "pung")
    assert g.moot_answers() == [2]  # South may still go Mah-Jongg on it
    g.apply(1, "mahjong")
    assert g.moot_answers() == [2]
    g.apply(2, "pass")
    assert g.winner == 1


def test_after_a_mahjong_a_pung_is_moot() -> None:
    g = window(SOUTH_WINS, NORTH_NOTHING.replace("9d", "1d"), NORTH_PUNG)
    g.apply(1, "mahjong")
    assert g.moot_answers() == [2, 3]


def test_with_the_strict_option_every_answer_matters() -> None:
    g = window(SOUTH_CHOW, WEST_PUNG, NORTH_NOTHING, strict=True)
    g.apply(2, "pung")
    assert g.moot_answers() == []  # a false claim of another player would cost them points


def test_before_play_a_declared_kong_makes_the_seats_without_four_moot() -> None:
    four = "E E E E 1b 4b 7b 1c 4c 7c 1d 4d 7d"
    other_four = "S S S S 2b 5b 8b 2c 5c 8c 2d 5d 8d"
    deck = full_deck(
        "1b 2b 3b 4b 5b 6b 7c 8c 9c N N P 5d C",
        four,
        other_four,
        "3b 6b 9b 3c 6c 9c 3d 6d 9d W W F F",
        wall="9c",
    )
    g = new_game(1, PLAYERS, FIXED, deck=deck)
    assert g.phase == "prelude" and g.to_act == [0, 1, 2, 3]
    assert g.moot_answers() is None
    g.apply(3, "pass")
    assert g.moot_answers() is None
    g.apply(1, "kong E")
    assert g.moot_answers() == [0]  # West holds four too: their answer still matters
