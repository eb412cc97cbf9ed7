"""Known answers for every Koi-Koi yaku and the spec's test vectors."""

from __future__ import annotations

import pytest

from bot.games.hanafuda.cards import ALL_CARDS, card, parse_cards
from bot.games.koikoi.rules import YAKU, score_yaku, yaku_total


def score(text: str) -> list[tuple[str, int]]:
    return score_yaku(parse_cards(text))


PLAINS_9 = "1p1 1p2 2p1 2p2 3p1 3p2 4p1 4p2 5p1"


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        # Kasu: 10 plains, +1 per extra plain.
        (PLAINS_9, []),
        (PLAINS_9 + " 5p2", [("Kasu", 1)]),
        (PLAINS_9 + " 5p2 6p1 6p2", [("Kasu", 3)]),
        (PLAINS_9 + " 11p1", [("Kasu", 1)]),  # lightning is a plain
        # Tanzaku: 5 ribbons, +1 per extra.
        ("4r 5r 7r 11r", []),
        ("4r 5r 7r 11r 1r", [("Tanzaku", 1)]),
        ("4r 5r 7r 11r 1r 6r", [("Tanzaku", 2)]),
        # Tane: 5 animals, +1 per extra.
        ("2a 4a 5a 8a", []),
        ("2a 4a 5a 8a 11a", [("Tane", 1)]),
        ("2a 4a 5a 8a 11a 9a", [("Tane", 2)]),
        # Ino-Shika-Chō.
        ("7a 10a", []),
        ("7a 10a 6a", [("Ino-Shika-Chō", 5)]),
        # Akatan and Aotan.
        ("1r 2r", []),
        ("1r 2r 3r", [("Akatan", 6)]),
        ("6r 9r 10r", [("Aotan", 6)]),
        ("1r 2r 4r", []),  # the Wisteria ribbon is not a poetry ribbon
        # Brights.
        ("1b 3b", []),
        ("1b 3b 8b", [("Sankō", 6)]),
        ("1b 3b 12b", [("Sankō", 6)]),
        ("1b 3b 11b", []),  # two brights and the Rain Man score nothing
        ("1b 3b 8b 11b", [("Ame-Shikō", 8)]),
        ("1b 3b 8b 12b", [("Shikō", 10)]),
        ("1b 3b 8b 12b 11b", [("Gokō", 15)]),
        ("", []),
    ],
)
def test_each_yaku(cards: str, expected: list[tuple[str, int]]) -> None:
    assert score(cards) == expected


def test_vector_sake_cup_counts_as_plain_and_animal() -> None:
    # 9 plains + Sake cup + Boar, Deer, Butterflies, Geese = Kasu 1 + Tane 1 + ISC 5 = 7.
    made = score(PLAINS_9 + " 9a 7a 10a 6a 8a")
    assert made == [("Kasu", 1), ("Tane", 1), ("Ino-Shika-Chō", 5)]
    assert sum(p for _, p in made) == 7


@pytest.mark.parametrize(
    ("cards", "total"),
    [
        ("1b 3b 8b", 6),
        ("1b 3b 11b", 0),
        ("1b 3b 8b 11b", 8),  # Ame-Shikō only, not 8 + 6
        ("1b 3b 8b 12b 11b", 15),
    ],
)
def test_vector_brights(cards: str, total: int) -> None:
    assert yaku_total(parse_cards(cards)) == total
    assert len(score(cards)) == (1 if total else 0)  # only the highest bright yaku counts


def test_vector_ribbons() -> None:
    assert score("6r 9r 10r 4r 5r 7r 11r") == [("Tanzaku", 3), ("Aotan", 6)]
    assert yaku_total(parse_cards("6r 9r 10r 4r 5r 7r 11r")) == 9
    assert score("6r 9r 10r 4r 1r 2r 3r") == [("Tanzaku", 3), ("Akatan", 6), ("Aotan", 6)]
    assert yaku_total(parse_cards("6r 9r 10r 4r 1r 2r 3r")) == 15


def test_yaku_stack_and_share_cards() -> None:
    # The ISC animals also count for Tane; every class at once.
    made = dict(score("6a 7a 10a 2a 4a " + "1r 2r 3r 4r 5r " + PLAINS_9 + " 5p2 1b 3b 8b"))
    assert made == {
        "Kasu": 1,
        "Tanzaku": 1,
        "Tane": 1,
        "Ino-Shika-Chō": 5,
        "Akatan": 6,
        "Sankō": 6,
    }


def test_whole_deck() -> None:
    # 24 plains + cup = 25 -> Kasu 16; 10 ribbons -> 6; 9 animals -> 5; the three sets; Gokō.
    assert dict(score_yaku(ALL_CARDS)) == {
        "Kasu": 16,
        "Tanzaku": 6,
        "Tane": 5,
        "Ino-Shika-Chō": 5,
        "Akatan": 6,
        "Aotan": 6,
        "Gokō": 15,
    }


def test_every_yaku_has_a_name_and_a_rule() -> None:
    names = [y.name for y in YAKU]
    assert names == [
        "Kasu",
        "Tanzaku",
        "Tane",
        "Ino-Shika-Chō",
        "Akatan",
        "Aotan",
        "Sankō",
        "Ame-Shikō",
        "Shikō",
        "Gokō",
    ]


# The deck table of docs/rules/koikoi.md: month -> (bright, animal, ribbon colour, plains).
DECK_TABLE = {
    1: ("Crane", None, "red poetry", 2),
    2: (None, "Nightingale", "red poetry", 2),
    3: ("Curtain", None, "red poetry", 2),
    4: (None, "Cuckoo", "red", 2),
    5: (None, "Bridge", "red", 2),
    6: (None, "Butterflies", "blue", 2),
    7: (None, "Boar", "red", 2),
    8: ("Moon", "Geese", None, 2),
    9: (None, "Sake cup", "blue", 2),
    10: (None, "Deer", "blue", 2),
    11: ("Rain Man", "Swallow", "red", 1),
    12: ("Phoenix", None, None, 3),
}


def test_the_deck_matches_the_spec_table() -> None:
    assert len(ALL_CARDS) == 48 == len(set(ALL_CARDS))
    for month, (bright, animal, ribbon, plains) in DECK_TABLE.items():
        cards = [card(c) for c in ALL_CARDS if card(c).month == month]
        assert [c.name for c in cards if c.cls == "bright"] == ([bright] if bright else [])
        assert [c.name for c in cards if c.cls == "animal"] == ([animal] if animal else [])
        assert [c.ribbon_colour for c in cards if c.cls == "ribbon"] == ([ribbon] if ribbon else [])
        assert sum(c.cls == "plain" for c in cards) == plains
    classes = [card(c).cls for c in ALL_CARDS]
    assert [classes.count(k) for k in ("bright", "animal", "ribbon", "plain")] == [5, 9, 10, 24]
    assert card("11p1").name == "Lightning" and card("11p1").cls == "plain"


@pytest.mark.parametrize(
    "cards",
    [
        "3b 9a",  # flower viewing (Hanami) is not in this game
        "8b 9a",  # nor moon viewing (Tsukimi)
        "3b 8b 9a",
    ],
)
def test_viewing_yaku_are_not_played(cards: str) -> None:
    assert score(cards) == []
