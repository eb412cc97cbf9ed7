"""Every scoring item, multiplier and payment rule, with the spec's vectors."""

from __future__ import annotations

import pytest

from bot.games.mahjong.scoring import (
    COMPOSITIONS,
    GROUP_SCORES,
    MULTIPLIERS,
    WINNER_ITEMS,
    CelestialBlessing,
    ChowScore,
    DragonGroup,
    FourWindsOrFlowers,
    HonoursOnly,
    KongOfHonours,
    KongOfMinors,
    KongOfTerminals,
    LastCardOfItsType,
    NoChow,
    OneSuitOnly,
    OneSuitWithHonours,
    OnlyChows,
    OwnSeasonOrFlower,
    OwnWindGroup,
    PairOfDragons,
    PairOfOwnWind,
    PairOfRoundWind,
    PungOfHonours,
    PungOfMinors,
    PungOfTerminals,
    RoundWindGroup,
    SeasonOrFlower,
    StandingHandWin,
    TerminalsAndHonours,
    TerminalsOnly,
    WinByLastWallCard,
    WinByWallCard,
    WinFromKongBox,
    WinInfo,
    WinWithKong,
    group_points,
    round_half_up,
    score_non_winner,
    score_winner,
    settle,
)
from bot.games.mahjong.tiles import tile

try:
    from .mahjong_helpers import hand
except ImportError:  # tests collected as plain modules
    from mahjong_helpers import hand

WALL = WinInfo(self_drawn=True, tile=None)


def items(sheet) -> dict[str, list[float]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[float]] = {}
    for line in sheet.items:
        out.setdefault(line.name, []).append(line.value)
    return out


def mults(sheet) -> dict[str, list[float]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[float]] = {}
    for line in sheet.multipliers:
        out.setdefault(line.name, []).append(line.value)
    return out


# ----- basic points of groups (every player) -------------------------------------------------
@pytest.mark.parametrize(
    "row, kind, card, concealed, points",
    [
        (ChowScore, "chow", "1b", True, 1),
        (ChowScore, "chow", "4d", False, 0),
        (PungOfMinors, "pung", "5d", True, 4),
        (PungOfMinors, "pung", "2c", False, 2),
        (PungOfTerminals, "pung", "9c", True, 8),
        (PungOfTerminals, "pung", "1b", False, 4),
        (PungOfHonours, "pung", "C", True, 8),
        (PungOfHonours, "pung", "E", False, 5),
        (KongOfMinors, "kong", "5d", True, 16),
        (KongOfMinors, "kong", "8b", False, 8),
        (KongOfTerminals, "kong", "1b", True, 32),
        (KongOfTerminals, "kong", "9d", False, 16),
        (KongOfHonours, "kong", "N", True, 32),
        (KongOfHonours, "kong", "F", False, 16),
    ],
)
def test_group_rows(row, kind: str, card: str, concealed: bool, points: int) -> None:  # type: ignore[no-untyped-def]
    t = tile(card)
    assert row.matches(kind, t) and row.points(concealed) == points
    assert group_points(kind, t, concealed) == points
    # and on a score sheet: a non-winner with just that declared group
    sheet = score_non_winner(hand("", melds=((kind, t, concealed),), own=1, round_=2))
    suffix = " (concealed)" if concealed else " (melded)"
    assert items(sheet) == {row.name + suffix: [points]}
    assert sheet.basic == points


def test_every_group_row_is_tested() -> None:
    assert len(GROUP_SCORES) == 7


def test_spec_vector_red_dragon_pungs_and_terminal_kong() -> None:
    assert group_points("pung", tile("C"), concealed=False) == 5
    assert group_points("pung", tile("C"), concealed=True) == 8
    assert group_points("kong", tile("1b"), concealed=True) == 32


def test_season_or_flower_is_six_each() -> None:
    sheet = score_non_winner(hand("", extras="f2 s3", own=0))
    assert items(sheet) == {SeasonOrFlower.name: [6, 6]}


def test_spec_vector_twenty_three_times_one_and_three_quarters() -> None:
    # melded Red pung 5 + concealed 9c pung 8 + concealed 5d pung 4 + own flower 6 = 23
    h = hand(
        "9c 9c 9c 5d 5d 5d 2b 7b", melds=(("pung", tile("C"), False),), own=0, round_=1, extras="f1"
    )
    sheet = score_non_winner(h)
    assert sheet.basic == 23
    assert mults(sheet) == {DragonGroup.name: [0.5], OwnSeasonOrFlower.name: [0.25]}
    assert sheet.factor == 1.75 and sheet.total == 40  # 40.25 rounded half up


def test_round_half_up() -> None:
    assert round_half_up(23, 7) == 40  # 40.25
    assert round_half_up(2, 5) == 3  # 2.5 -> 3
    assert round_half_up(6, 5) == 8  # 7.5 -> 8
    assert round_half_up(10, 4) == 10


# ----- the non-winner's reading ----------------------------------------------------------------
def test_non_winner_keeps_the_best_split_and_no_pair() -> None:
    # 111 222 333 bamboo: three concealed pungs (8+4+4) beat three chows (3); the E pair scores nothing
    sheet = score_non_winner(hand("1b 1b 1b 2b 2b 2b 3b 3b 3b E E 7d 9c", own=1, round_=2))
    assert sheet.basic == 16
    assert items(sheet) == {
        "Pung of terminals (concealed)": [8],
        "Pung of minors (concealed)": [4, 4],
    }


def test_non_winner_composition_counts_every_card() -> None:
    # one suit plus honours, even though the honours are loose
    sheet = score_non_winner(hand("2d 2d 2d 5d 6d E S", own=2, round_=3))
    assert mults(sheet) == {OneSuitWithHonours.name: [0.5]}
    assert sheet.total == round_half_up(4, 6)


# ----- winner-only basic points -------------------------------------------------------------------
REGULAR = "2b 3b 4b 6c 7c 8c 3d 4d 5d 7d 8d 9d 5b 5b"  # four chows, plain pair


def test_win_by_wall_card() -> None:
    sheet = score_winner(hand(REGULAR, own=1, round_=0), WinInfo(self_drawn=True, tile=tile("5b")))
    assert items(sheet)[WinByWallCard.name] == [3]
    assert WinByLastWallCard.name not in items(sheet)


def test_win_by_last_wall_card_replaces_the_three() -> None:
    win = WinInfo(self_drawn=True, tile=tile("5b"), last_wall=True)
    sheet = score_winner(hand(REGULAR, own=1), win)
    assert items(sheet)[WinByLastWallCard.name] == [10]
    assert WinByWallCard.name not in items(sheet)


def test_last_card_of_its_type() -> None:
    sheet = score_winner(
        hand(REGULAR, own=1), WinInfo(self_drawn=False, tile=tile("4b"), last_of_type=True)
    )
    assert items(sheet)[LastCardOfItsType.name] == [2]


def test_standing_hand_win() -> None:
    sheet = score_winner(
        hand(REGULAR, own=1), WinInfo(self_drawn=False, tile=tile("4b"), standing=True)
    )
    assert items(sheet)[StandingHandWin.name] == [100]


def test_no_chow() -> None:
    sheet = score_winner(hand("2b 2b 2b 6c 6c 6c 3d 3d 3d 9d 9d 9d 5b 5b", own=1), WALL)
    assert items(sheet)[NoChow.name] == [10]
    assert OnlyChows.name not in items(sheet)


def test_only_chows_and_a_plain_pair() -> None:
    sheet = score_winner(hand(REGULAR, own=1, round_=0), WALL)
    assert items(sheet)[OnlyChows.name] == [10]
    assert NoChow.name not in items(sheet)
    # with a pair of the player's own wind the 10 is not given
    own_pair = hand("2b 3b 4b 6c 7c 8c 3d 4d 5d 7d 8d 9d S S", own=1, round_=0)
    assert OnlyChows.name not in items(score_winner(own_pair, WALL))


def test_win_from_the_kong_box_adds_ten_to_the_three() -> None:
    win = WinInfo(self_drawn=True, tile=tile("5b"), from_box=True)
    sheet = score_winner(hand(REGULAR, own=1), win)
    assert items(sheet)[WinFromKongBox.name] == [10]
    assert items(sheet)[WinByWallCard.name] == [3]


@pytest.mark.parametrize(
    "pair, own, round_, expected",
    [
        ("C", 1, 0, {PairOfDragons.name: [3]}),
        ("E", 1, 0, {PairOfRoundWind.name: [3]}),
        ("S", 1, 0, {PairOfOwnWind.name: [3]}),
        ("E", 0, 0, {PairOfRoundWind.name: [3], PairOfOwnWind.name: [3]}),  # both: 3 + 3
        ("N", 1, 0, {}),
    ],
)
def test_pair_items(pair: str, own: int, round_: int, expected: dict) -> None:
    h = hand(f"2b 3b 4b 6c 7c 8c 3d 4d 5d 7d 8d 9d {pair} {pair}", own=own, round_=round_)
    got = items(score_winner(h, WALL))
    pairs = {k: v for k, v in got.items() if k.startswith("Pair of")}
    assert pairs == expected


def test_every_winner_item_is_tested() -> None:
    assert len(WINNER_ITEMS) == 10


# ----- multipliers ----------------------------------------------------------------------------------
def test_own_and_round_wind_groups() -> None:
    base = "2b 3b 4b 6c 7c 8c 3d 4d 5d 9d 9d"
    sheet = score_non_winner(hand(base, melds=(("pung", tile("S"), False),), own=1, round_=0))
    assert mults(sheet) == {OwnWindGroup.name: [0.5]}
    sheet = score_non_winner(hand(base, melds=(("pung", tile("E"), False),), own=1, round_=0))
    assert mults(sheet) == {RoundWindGroup.name: [0.5]}
    # the same wind: both apply
    sheet = score_non_winner(hand(base, melds=(("kong", tile("E"), True),), own=0, round_=0))
    assert mults(sheet) == {OwnWindGroup.name: [0.5], RoundWindGroup.name: [0.5]}


def test_own_seat_extras_are_addable() -> None:
    sheet = score_non_winner(hand("2b 2b 2b 9d", own=1, extras="f2 s2 f3"))
    assert mults(sheet)[OwnSeasonOrFlower.name] == [0.25, 0.25]


def test_dragon_groups_count_once() -> None:
    sheet = score_non_winner(
        hand("2b 2b 2b", melds=(("pung", tile("C"), False), ("kong", tile("F"), False)), own=1)
    )
    assert mults(sheet)[DragonGroup.name] == [0.5]


@pytest.mark.parametrize(
    "melds, extras",
    [
        ((("pung", 27, False), ("pung", 28, False), ("pung", 29, False), ("kong", 30, True)), ""),
        ((), "f1 f2 f3 f4"),
        ((), "s1 s2 s3 s4"),
    ],
)
def test_all_four_winds_or_flowers(melds: tuple, extras: str) -> None:
    sheet = score_non_winner(hand("2b 2b 2b 5c", melds=melds, own=2, round_=2, extras=extras))
    assert mults(sheet)[FourWindsOrFlowers.name] == [1.5]


@pytest.mark.parametrize(
    "cards, best, fraction",
    [
        ("2b 3b 4b 5b 5b 5b 7b 8b 9b 9b", OneSuitOnly, 1.5),
        ("1b 1b 1b 9c 9c 9c 1d 1d 9d 9d", TerminalsOnly, 1.5),
        ("E E E C C C S S P P", HonoursOnly, 1.5),
        ("2b 3b 4b 5b 5b 5b N N N C C", OneSuitWithHonours, 0.5),
        ("1b 1b 1b 9c 9c 9c E E E C C", TerminalsAndHonours, 0.5),
        ("1b 1b 1b 9b 9b 9b 1b", OneSuitOnly, 1.5),  # one suit and only terminals: one 1.5
        ("2b 3b 4b 2c 3c 4c", None, 0),
    ],
)
def test_compositions_exclusive_highest(cards: str, best, fraction: float) -> None:  # type: ignore[no-untyped-def]
    got = mults(score_non_winner(hand(cards, own=1, round_=3)))
    names = {c.name for c in COMPOSITIONS}
    comp = {k: v for k, v in got.items() if k in names}
    assert comp == ({best.name: [fraction]} if best else {})


def test_win_with_a_kong_multiplier_for_the_winner_only() -> None:
    win = WinInfo(self_drawn=True, tile=tile("5b"), from_box=True, after_kong=True)
    h = hand("2b 3b 4b 6c 7c 8c 3d 4d 5d 5b 5b", melds=(("kong", tile("9d"), True),), own=1)
    sheet = score_winner(h, win)
    assert mults(sheet)[WinWithKong.name] == [0.5]
    assert WinWithKong.name not in mults(score_non_winner(h))


def test_original_hand_is_the_celestial_blessing_multiplier() -> None:
    win = WinInfo(self_drawn=True, tile=None, original=True)
    sheet = score_winner(hand(REGULAR, own=0, round_=0), win)
    assert mults(sheet)[CelestialBlessing.name] == [1.5]
    # 4 concealed chows 4 + wall 3 + only chows 10 = 17; x 2.5 = 42.5 -> 43
    assert sheet.basic == 17 and sheet.total == 43


def test_every_multiplier_is_tested() -> None:
    assert len(MULTIPLIERS) == 7 and len(COMPOSITIONS) == 5


# ----- readings --------------------------------------------------------------------------------------
def test_winner_takes_the_highest_reading() -> None:
    # 111 222 333 + 789 + 55: three concealed pungs beat three chows
    sheet = score_winner(hand("1b 1b 1b 2b 2b 2b 3b 3b 3b 7d 8d 9d 5c 5c", own=1), WALL)
    kinds = sorted(k for k, _, _ in sheet.groups)
    assert kinds == ["chow", "pung", "pung", "pung"]


def test_group_completed_by_a_discard_is_melded() -> None:
    # winning on the 5d discard into a pung: melded pung of minors (2), not concealed (4)
    h = hand("2b 3b 4b 6c 7c 8c 3d 4d 5d 5d 5d 5d 9b 9b", own=1)
    sheet = score_winner(h, WinInfo(self_drawn=False, tile=tile("5d")))
    got = items(sheet)
    # best: read 3d4d5d + 5d5d5d with the discard completing the chow (melded chow 0,
    # concealed pung 4) rather than the pung (concealed chow 1 + melded pung 2)
    assert got["Pung of minors (concealed)"] == [4]
    assert got["Chow (melded)"] == [0]


def test_discard_completing_only_a_pung_melds_it() -> None:
    h = hand("2b 3b 4b 6c 7c 8c 1d 2d 3d 5d 5d 5d 9b 9b", own=1)
    sheet = score_winner(h, WinInfo(self_drawn=False, tile=tile("5d")))
    assert items(sheet)["Pung of minors (melded)"] == [2]


# ----- payments -----------------------------------------------------------------------------------------
def test_payments_add_up() -> None:
    # winner seat 1 (not the round player 0): each other seat pays 8
    assert settle([10, 50, 20, 0], winner=1, round_player=0) == [10 - 8, 50 + 24, 20 - 8, 0 - 8]


def test_payments_double_for_the_round_player() -> None:
    assert settle([10, 50, 20, 0], winner=0, round_player=0) == [10 + 48, 50 - 16, 20 - 16, -16]


def test_classical_settlement() -> None:
    totals = [10, 50, 20, 0]
    delta = settle(totals, winner=1, round_player=0, classical=True)
    # losers pay 50 + 8 each; among losers: 0 pays 10 to seat 0 and 20 to seat 2; 0 pays 10
    assert delta == [-58 + (10 - 20) + (10 - 0), 3 * 58, -58 + (20 - 10) + (20 - 0), -58 - 10 - 20]
    assert sum(delta) == 0
