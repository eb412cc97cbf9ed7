"""One known answer for every special hand (and the bonus hands), with its score."""

from __future__ import annotations

import pytest

from bot.games.mahjong.scoring import WinInfo, is_mahjong, score_winner
from bot.games.mahjong.specials import (
    BONUS_HANDS,
    SPECIAL_HANDS,
    AdoptedSonsOfDragon1,
    AdoptedSonsOfDragon9,
    BigGreen,
    BigGreenFinger,
    BigSnake,
    BuriedTreasure,
    CallOfTheNinthCard,
    CrazyMonkey,
    EarthBlessing,
    FourBigTwinSisters,
    FourSmallTwinSisters,
    GoldenCoin,
    GreatScholars,
    HappyFamily,
    HarmonicYinYang,
    HorizontalEnemies,
    Imperial,
    LittleSnake,
    Mandarin,
    RedGreen,
    RevolutionOfFire,
    SmallGreen,
    SmallGreenFinger,
    SnakeOfTheDragons,
    SnakeOfTheWinds,
    ThirteenBigAndStrange,
    ThirteenFabulousFingers,
    ThreeAdoptedSonsOfTheRedDragon,
    ThreeAdoptedSonsOfTheWinds,
    UnitedHand,
    VerticalEnemies,
    WindsAndDragons,
)
from bot.games.mahjong.tiles import counts_of, tile, tiles

try:
    from .mahjong_helpers import hand
except ImportError:
    from mahjong_helpers import hand

WALL = WinInfo(self_drawn=True, tile=None)

# (special, cards, own wind, round wind, expected total). Own wind East and round wind East
# unless said. Totals: the special's score; "instead multipliers: no" specials are
# multiplied by the hand's multipliers (composition, dragon pungs...).
CASES = [
    (Imperial, "C C C F F F P P P E E E 5b 5b", 0, 0, 6000),
    (Mandarin, "E E E S S S W W W N N 2b 3b 4b", 0, 0, 5000),
    (CrazyMonkey, "C C C C F F F F P P P P 5d 5d", 0, 0, 4500),
    (HappyFamily, "E E E S S S W W W N N N C C", 0, 0, 4000),
    (BigGreen, "2b 2b 2b 4b 4b 4b 6b 6b 6b F F F 8b 8b", 0, 0, 3600),
    (SmallGreen, "2b 2b 2b 4b 4b 4b 6b 6b 6b 8b 8b 8b F F", 0, 0, 3500),
    (RedGreen, "1b 1b 1b 5b 5b 5b 7b 7b 7b 9b 9b 9b F C", 0, 0, 3400),
    (AdoptedSonsOfDragon9, "9b 9b 9b 9c 9c 9c 9d 9d 9d P P P S S", 1, 0, 3300),
    (AdoptedSonsOfDragon1, "1b 1b 1b 1c 1c 1c 1d 1d 1d F F F W W", 2, 0, 3300),
    (BigGreenFinger, "3b 3b 3b 2b 2b 2b 4b 4b 4b F F F 8b 8b", 0, 0, 3200),
    # 3000 x (1 + one suit with honours 0.5)
    (SmallGreenFinger, "3b 3b 3b 2b 2b 2b 4b 4b 4b 6b 6b 6b F F", 0, 0, 4500),
    (HorizontalEnemies, "1c 1c 1c 9c 9c 9c E E E W W W N S", 0, 0, 3000),
    (VerticalEnemies, "1c 1c 1c 9c 9c 9c N N N S S S E W", 0, 0, 3000),
    (ThreeAdoptedSonsOfTheRedDragon, "4b 4b 4b 4c 4c 4c 4d 4d 4d C C C N N", 0, 0, 2800),
    (ThreeAdoptedSonsOfTheWinds, "6b 6b 6b 6c 6c 6c 6d 6d 6d N N N F F", 0, 0, 2800),
    # 2700 x (1 + one suit with honours 0.5)
    (FourBigTwinSisters, "3c 3c 3c 4c 4c 4c 5c 5c 5c 6c 6c 6c P P", 0, 0, 4050),
    (FourSmallTwinSisters, "3c 3c 3c 4c 4c 4c 5c 5c 5c 6c 6c 6c S S", 0, 0, 3750),
    # 2200 x (1 + only honours 1.5)
    (HarmonicYinYang, "E E S S W W N N C C F F P P", 0, 0, 5500),
    (RevolutionOfFire, "2b 2b 2b 7c 7c 7c 8d 8d 8d C C W E S", 3, 1, 2100),
    (GreatScholars, "C C C F F F P P P 3c 4c 5c 8c 8c", 0, 0, 2000),
    (WindsAndDragons, "E E E S S S C C C P P P W W", 0, 0, 1900),
    (CallOfTheNinthCard, "1d 1d 1d 2d 3d 4d 5d 6d 7d 8d 9d 9d 9d 6d", 0, 0, 1800),
    (ThirteenFabulousFingers, "1b 9b 1c 9c 1d 9d E S W N C F P 9b", 0, 0, 1600),
    (BigSnake, "1c 2c 3c 4c 5c 6c 7c 8c 9c W W W N N", 0, 0, 1600),
    (SnakeOfTheDragons, "1b 4b 7b 2c 5c 8c 3d 6d 9d C F P S S", 1, 0, 1400),
    (SnakeOfTheWinds, "1b 4b 7b 2c 5c 8c 3d 6d 9d E S W N W", 0, 0, 1200),
    # 1000 x (1 + one suit with honours 0.5)
    (LittleSnake, "1c 2c 3c 4c 5c 6c 7c 8c 9c E S W N F", 0, 0, 1500),
    # 300 x (1 + dragon pung 0.5)
    (UnitedHand, "2b 3b 4b 6d 6d 6d C C C F F F S S", 0, 1, 450),
    # 250 x (1 + only terminals and honours 0.5)
    (ThirteenBigAndStrange, "1b 9b 1c 9c 1d 9d E S W N C F P C", 3, 3, 375),
]


def test_every_special_hand_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(SPECIAL_HANDS)
    assert len(SPECIAL_HANDS) == 29


@pytest.mark.parametrize(
    "special, cards, own, round_, total", CASES, ids=[c[0].name for c in CASES]
)
def test_special_hand_known_answer(special, cards: str, own: int, round_: int, total: int) -> None:  # type: ignore[no-untyped-def]
    h = hand(cards, own=own, round_=round_)
    assert is_mahjong(h.conc, (), own, round_, concealed_ok=True)
    sheet = score_winner(h, WALL)
    assert sheet.special == special.name
    assert sheet.items[0].name == special.name and sheet.items[0].value == special.value
    assert sheet.total == total
    if special.instead_multipliers:
        assert sheet.multipliers == []


def test_specials_table_values() -> None:
    table = {h.name: (h.value, h.instead_basic, h.instead_multipliers) for h in SPECIAL_HANDS}
    assert table["Imperial"] == (6000, True, True)
    assert table["Small Green finger"] == (3000, True, False)
    assert table["Harmonic Yin-Yang"] == (2200, True, False)
    assert table["United Hand"] == (300, True, False)
    assert table["13 Big and Strange"] == (250, True, False)
    assert {b.name: b.value for b in BONUS_HANDS} == {
        "Earth Blessing": 800,
        "Buried Treasure": 300,
        "Golden Coin": 100,
    }


# ----- concealed hands and kongs ------------------------------------------------------------------
def test_imperial_needs_a_concealed_hand() -> None:
    h = hand("C C C F F F P P P E E E 5b 5b")
    on_discard = score_winner(h, WinInfo(self_drawn=False, tile=tile("5b")))
    assert on_discard.special != "Imperial"
    # a melded group spoils it too
    melded = hand("F F F P P P E E E 5b 5b", melds=(("pung", tile("C"), False),))
    assert score_winner(melded, WALL).special != "Imperial"


def test_declared_concealed_kongs_keep_a_hand_concealed() -> None:
    h = hand("F F F P P P E E E 5b 5b", melds=(("kong", tile("C"), True),))
    assert score_winner(h, WinInfo(self_drawn=True, tile=tile("5b"))).special == "Imperial"


def test_irregular_concealed_special_is_no_mahjong_on_a_discard() -> None:
    c = counts_of(tiles("E E S S W W N N C C F F P P"))
    assert is_mahjong(c, (), 0, 0, concealed_ok=True)
    assert not is_mahjong(c, (), 0, 0, concealed_ok=False)


def test_pungs_only_specials_refuse_a_declared_kong() -> None:
    # Red-Green asks for pungs (not pungs/kongs): a declared kong of 1 Bamboo spoils it
    conc = counts_of(tiles("5b 5b 5b 7b 7b 7b 9b 9b 9b F C"))
    assert RedGreen.find(conc, (("kong", tile("1b"), True),), 27, 27) is None
    assert RedGreen.find(conc, (("pung", tile("1b"), False),), 27, 27) is not None


def test_pungs_or_kongs_specials_accept_kongs() -> None:
    conc = counts_of(tiles("S S S W W W N N N C C"))
    melds = (("kong", tile("E"), False),)
    assert HappyFamily.find(conc, melds, 27, 27) is not None


def test_melded_chows_fit_inside_a_snake() -> None:
    conc = counts_of(tiles("1c 5c 6c 7c 8c 9c W W W N N"))
    melds = (("chow", tile("2c"), False),)
    assert BigSnake.find(conc, melds, 27, 27) is not None
    assert is_mahjong(conc, melds, 0, 0, concealed_ok=False)


def test_special_beats_regular_reading_only_when_higher() -> None:
    # Great Scholars (2000, no multipliers) vs the regular reading of the same cards
    sheet = score_winner(hand("C C C F F F P P P 3c 4c 5c 8c 8c"), WALL)
    assert sheet.special == "Great Scholars" and sheet.total == 2000


# ----- the bonus hands ("N / N": added to the base before the multipliers) ----------------------------
def test_earth_blessing_adds_800() -> None:
    h = hand("2b 3b 4b 6c 7c 8c 3d 4d 5d 7d 8d 9d 5b 5b", own=1)
    win = WinInfo(self_drawn=False, tile=tile("5b"), earth=True)
    sheet = score_winner(h, win)
    names = [i.name for i in sheet.items]
    assert EarthBlessing.name in names
    # 3 concealed chows 3 + melded... the 5b completes the pair: 4 concealed chows (4) +
    # only chows 10 + Earth Blessing 800 = 814
    assert sheet.basic == 814


def test_buried_treasure_adds_300() -> None:
    h = hand("1d 2d 3d 4d 5d 6d 7d 8d 9d F F F N N", own=1, round_=0)
    sheet = score_winner(h, WinInfo(self_drawn=True, tile=tile("9d")))
    assert [i.value for i in sheet.items if i.name == BuriedTreasure.name] == [300]


def test_golden_coin_adds_100_for_a_concealed_pung_of_5_dots() -> None:
    h = hand("5d 5d 5d 2b 3b 4b 6c 7c 8c 7d 8d 9d 9b 9b", own=1)
    sheet = score_winner(h, WinInfo(self_drawn=True, tile=tile("9b")))
    assert [i.value for i in sheet.items if i.name == GoldenCoin.name] == [100]
    # completed by the winning discard, the pung is melded: no Golden Coin
    sheet = score_winner(h, WinInfo(self_drawn=False, tile=tile("5d")))
    assert GoldenCoin.name not in [i.name for i in sheet.items]


def test_bonus_adds_to_an_instead_basic_special() -> None:
    # Big Snake (1600, no multipliers) with a dragon pung is also Buried Treasure: 1900
    h = hand("1c 2c 3c 4c 5c 6c 7c 8c 9c C C C N N", own=1)
    sheet = score_winner(h, WALL)
    assert sheet.special == "Big Snake"
    assert sheet.total == 1900


def test_celestial_blessing_is_the_original_hand_multiplier() -> None:
    from bot.games.mahjong.scoring import CelestialBlessing

    h = hand("2b 3b 4b 6c 7c 8c 3d 4d 5d 7d 8d 9d 5b 5b")
    sheet = score_winner(h, WinInfo(self_drawn=True, tile=None, original=True))
    assert CelestialBlessing.name in [m.name for m in sheet.multipliers]
