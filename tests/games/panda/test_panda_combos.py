"""The combination classifier, comparison and enumeration of Panda (rules 6, 7, 9-14)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.panda.cards import ALL_CARDS, card_points
from bot.games.panda.combos import (
    AMBUSH,
    CAT_LEAD,
    FULLHOUSE,
    KINGDOM,
    PAIR,
    PAIRS,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    all_plays,
    ambiguous,
    beats,
    classify,
    placed,
    plays_on,
    readings,
)


def c(text: str, catfish: int | None = None):
    combo = classify(text.split(), catfish)
    assert combo is not None, text
    return combo


def on(new: str, top: str) -> bool:
    """Does ``new`` beat ``top`` (singles of the Catfish placed as they would lie)?"""
    t = c(top)
    return beats(placed(c(new), None), t)


# ----- valid combinations ------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, kind, value",
    [
        ("5t", SINGLE, 5),
        ("Mg", SINGLE, 14),
        ("Bt", SINGLE, 11),
        ("Ga", SINGLE, 12),
        ("Er", SINGLE, 13),
        ("1a", SINGLE, 1),
        ("stork", SINGLE, 1),
        ("panda", SINGLE, 15),
        ("catfish", SINGLE, 0.5),
        ("cat", CAT_LEAD, 0),
        ("5t 5g", PAIR, 5),
        ("Mt Ma", PAIR, 14),
        ("stork 1t", PAIR, 1),
        ("1t 1g", PAIR, 1),
        ("7r catfish", PAIR, 7),
        ("stork catfish", PAIR, 1),
        ("9t 9g 9r", TRIPLE, 9),
        ("stork 1t 1g", TRIPLE, 1),
        ("stork 1t catfish", TRIPLE, 1),
        ("Et Eg catfish", TRIPLE, 13),
        ("1t 1g 9t 9g 9r", FULLHOUSE, 9),
        ("1t 1g 1r 5t 5g", FULLHOUSE, 1),
        ("stork 1t 9t 9g 9r", FULLHOUSE, 9),
        ("stork 1t 1g 5t 5g", FULLHOUSE, 1),
        ("2t 2g 10t 10g 10r", FULLHOUSE, 10),
        ("2t 2g 10t 10g catfish", FULLHOUSE, 10),
        ("2t catfish 10t 10g 10r", FULLHOUSE, 10),
        ("1t 2g 3r 4a 5t", STRAIGHT, 5),
        ("stork 2g 3r 4a 5t", STRAIGHT, 5),
        ("2t 3t 4t 5t 6t", STRAIGHT, 6),
        ("10t Bg Gr Ea Mt", STRAIGHT, 14),
        ("stork 2t 3t 4t 5t 6t 7t 8t 9t 10t Bt Gt Et Mt", STRAIGHT, 14),
        ("2t 3g 5r 6a catfish", STRAIGHT, 6),
        ("stork 2t 3g 4r catfish", STRAIGHT, 5),
        ("1t 1g 2t 2g", PAIRS, 2),
        ("stork 1t 2t 2g", PAIRS, 2),
        ("1t 1g 2t 2g 3t 3g 4t 4g 5t 5g", PAIRS, 5),
        ("5t 5g 6t catfish", PAIRS, 6),
        ("5t 5g 6t 6g 7t catfish", PAIRS, 7),
        ("Et Eg Mt Mg", PAIRS, 14),
        ("7t 7g 7r 7a", AMBUSH, 7),
        ("Mt Mg Mr Ma", AMBUSH, 14),
        ("1t 1g 1r 1a", AMBUSH, 1),
        ("Bt Gt Et Mt", KINGDOM, 14),
        ("Ba Ga Ea Ma", KINGDOM, 14),
    ],
)
def test_valid_combinations(cards: str, kind: str, value: float) -> None:
    combo = c(cards)
    assert combo.kind == kind
    assert combo.value == value
    assert combo.length == len(cards.split())


@pytest.mark.parametrize(
    "cards",
    [
        "5t 6t",  # two different singles
        "5t 5g 6t",  # pair + single
        "2t 3t 4t 5t",  # a straight needs five cards
        "1t 2t 3t",
        "5t 5g 7t 7g",  # runs of pairs must be consecutive
        "5t 5g 5r 6t 6g 6r",  # two triples are not a combination
        "5t 5g 5r 5a 6t",  # four of a kind + a card
        "stork 1t 1g 1r",  # the Stork never makes an Ambush
        "5t 5g 5r catfish",  # nor does the Catfish
        "Bt Gt Et catfish",  # the Catfish is never in a Kingdom
        "Bt Gt Et Mg",  # a Kingdom is one suit
        "Bt Gt Et",
        "cat 5t",  # the Cat only alone
        "panda 5t",  # the Panda only alone
        "panda catfish",
        "cat catfish",
        "stork 2t",  # the Stork is only a 1
        "stork 14t",  # not a card
        "5t 5t",  # the same card twice
        "",
        "catfish 2t 3t 4t",  # four cards
        "2t 3t 4t 5t 7t",  # gap without a Catfish
        "2t 3t 4t 6t 8t catfish",  # two gaps, one Catfish
        "Et Mt catfish panda 10t",  # the Panda is no straight card
        "stork 1t 1g 1r 1a",  # five of a kind
    ],
)
def test_invalid_combinations(cards: str) -> None:
    assert classify(cards.split()) is None


def test_a_one_suit_straight_is_an_ordinary_straight() -> None:
    combo = c("3r 4r 5r 6r 7r")
    assert combo.kind == STRAIGHT and not combo.is_bomb
    assert not beats(combo, c("Mt")), "it does not bomb a single"


# ----- Catfish readings ----------------------------------------------------------------------


def test_catfish_full_house_two_readings_higher_by_default() -> None:
    options = readings("5t 5g 6t 6g catfish".split())
    assert [(o.kind, o.value, o.catfish) for o in options] == [
        (FULLHOUSE, 6, 6),
        (FULLHOUSE, 5, 5),
    ]
    assert c("5t 5g 6t 6g catfish").value == 6
    assert c("5t 5g 6t 6g catfish", catfish=5).value == 5
    assert classify("5t 5g 6t 6g catfish".split(), catfish=7) is None


def test_catfish_straight_at_either_end() -> None:
    assert c("3t 4g 5r 6a 7t catfish").value == 8
    low = c("3t 4g 5r 6a 7t catfish", catfish=2)
    assert low.value == 7 and low.catfish == 2
    assert ambiguous(low) and ambiguous(c("3t 4g 5r 6a 7t catfish"))


def test_catfish_straight_at_the_edges_has_one_reading() -> None:
    assert [o.catfish for o in readings("10t Bg Gr Ea catfish".split())] == [14, 9]
    assert [o.catfish for o in readings("Bt Gg Er Ma catfish".split())] == [10]
    assert [o.catfish for o in readings("stork 2g 3r 4a catfish".split())] == [5]
    assert [o.catfish for o in readings("2t 3g 4r 5a catfish".split())] == [6, 1]


def test_catfish_fills_a_gap_once() -> None:
    combo = c("2t 3g 5r 6a catfish")
    assert combo.catfish == 4 and not ambiguous(combo)


def test_catfish_cannot_be_stork_cat_or_panda() -> None:
    # Stork + Catfish is a pair of 1s (the Catfish as a natural 1), never two Storks.
    assert c("stork catfish").catfish == 1
    assert classify("cat catfish".split()) is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=2, max_size=8, unique=True))
def test_ambiguous_matches_readings(cards: list[str]) -> None:
    for combo in readings(cards):
        assert ambiguous(combo) == (len(readings(cards)) > 1)


# ----- comparisons (rule 7 and the test vectors) ------------------------------------------


def test_vector_catfish_on_emperor_is_13_5_and_loses_to_mon() -> None:
    cf = placed(c("catfish"), c("Et"))
    assert cf.value == 13.5
    assert beats(c("catfish"), c("Et"))
    assert beats(c("Mt"), cf)
    assert not beats(c("Et"), cf) and not beats(c("Gt"), cf)


def test_vector_catfish_cannot_go_on_a_mon_or_panda() -> None:
    assert not beats(c("catfish"), c("Ma"))
    assert not beats(c("catfish"), c("panda"))


def test_vector_led_catfish_beaten_by_a_1_or_the_stork() -> None:
    led = placed(c("catfish"), None)
    assert led.value == 0.5
    assert beats(c("1t"), led)
    assert beats(c("stork"), led)


def test_catfish_on_stork_or_one_is_one_and_a_half() -> None:
    assert placed(c("catfish"), c("stork")).value == 1.5
    assert placed(c("catfish"), c("1g")).value == 1.5
    assert beats(c("2t"), placed(c("catfish"), c("1g")))
    assert not beats(c("1t"), placed(c("catfish"), c("1g")))


def test_stork_and_natural_one_do_not_beat_each_other() -> None:
    assert not beats(c("stork"), c("1t"))
    assert not beats(c("1t"), c("stork"))
    assert beats(c("2t"), c("stork"))


def test_panda_beats_every_single_and_only_bombs_beat_it() -> None:
    assert beats(c("panda"), c("Mt"))
    assert beats(c("panda"), placed(c("catfish"), c("Et")))
    assert not beats(c("Mt"), c("panda"))
    assert beats(c("2t 2g 2r 2a"), c("panda"))
    assert beats(c("Bt Gt Et Mt"), c("panda"))
    assert not beats(c("panda"), c("5t 5g")), "the Panda is only a single"


def test_vector_straights_by_top_value_same_length_only() -> None:
    base = c("stork 2t 3g 4r 5a")
    assert base.kind == STRAIGHT
    assert beats(c("2g 3r 4a 5t 6t"), base)
    assert not beats(c("2g 3r 4a 5t 6t 7t"), base)
    assert not beats(c("1t 2g 3r 4a 5t"), base), "equal top value"


def test_vector_full_house_by_triple() -> None:
    assert beats(c("2t 2g 10t 10g 10r"), c("1t 1g 9t 9g 9r"))
    assert not beats(c("1t 1g 9t 9g 9r"), c("2t 2g 10t 10g 10r"))
    assert beats(c("2t 2g 2r 3t 3g"), c("Mt Mg 1t 1g 1r")), "the pair does not count"


def test_runs_of_pairs_by_top_and_length() -> None:
    assert beats(c("3t 3g 4t 4g"), c("2t 2g 3r 3a"))
    assert not beats(c("3t 3g 4t 4g 5t 5g"), c("2t 2g 3r 3a"))
    assert not beats(c("3t 3g 4t 4g"), c("2t 2g 3r 3a 4r 4a"))


def test_kinds_do_not_mix() -> None:
    assert not beats(c("9t 9g"), c("5t"))
    assert not beats(c("9t 9g 9r"), c("5t 5g"))
    assert not beats(c("Mt"), c("2t 2g"))
    assert not beats(c("9t 9g 9r Mt Mg"), c("2t 3t 4t 5t 6t"))


def test_pairs_and_triples_by_value() -> None:
    assert beats(c("6t 6g"), c("5r 5a"))
    assert not beats(c("5t 5g"), c("5r 5a"))
    assert not beats(c("stork 1t"), c("1g 1r"))
    assert beats(c("2t 2g 2r"), c("stork 1t 1g"))


def test_vector_ambushes() -> None:
    assert beats(c("8t 8g 8r 8a"), c("7t 7g 7r 7a"))
    assert not beats(c("7t 7g 7r 7a"), c("8t 8g 8r 8a"))
    for ordinary in ("5t", "panda", "Mt Mg", "2t 3t 4t 5t 6t", "Et Eg Er 2t 2g", "9t 9g 10t 10g"):
        assert beats(c("2t 2g 2r 2a"), c(ordinary)), ordinary
        assert not beats(c(ordinary), c("2t 2g 2r 2a")), ordinary


def test_vector_kingdom_beats_four_mons_and_nothing_beats_it() -> None:
    kingdom = c("Br Gr Er Mr")
    assert beats(kingdom, c("Mt Mg Mr Ma"))
    assert not beats(c("Mt Mg Mr Ma"), kingdom)
    assert not beats(c("Bt Gt Et Mt"), kingdom)
    assert not beats(c("panda"), kingdom)
    for ordinary in ("5t", "panda", "2t 3t 4t 5t 6t", "3t 3g 3r"):
        assert beats(kingdom, c(ordinary))


def test_nothing_goes_on_the_cat_and_the_cat_only_leads() -> None:
    assert beats(c("cat"), None)
    assert not beats(c("2t 2g 2r 2a"), c("cat"))
    assert not beats(c("cat"), c("5t"))


def test_everything_may_lead() -> None:
    for cards in ("5t", "catfish", "panda", "2t 2g 2r 2a", "Bt Gt Et Mt", "cat"):
        assert beats(c(cards), None)


# ----- enumeration -----------------------------------------------------------------------------


def _brute(hand: list[str], top=None) -> set:
    out = set()
    for n in range(1, len(hand) + 1):
        for cs in combinations(hand, n):
            for r in readings(cs):
                if beats(r, top):
                    out.add((r.cards, r.catfish))
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=10, unique=True))
def test_all_plays_equals_brute_force(hand: list[str]) -> None:
    got = [(p.cards, p.catfish) for p in all_plays(hand)]
    assert len(got) == len(set(got)), "no duplicates"
    assert set(got) == _brute(hand)


TOPS = [
    "5t",
    "Et",
    "stork",
    "9t 9g",
    "3t 3g 3r",
    "2t 2g 3t 3g",
    "2t 3g 4r 5a 6t",
    "7t 7g 7r 7a",
    "4t 4g 4r 8t 8g",
    "panda",
    "Mt",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=10, unique=True),
    st.sampled_from(TOPS),
)
def test_plays_on_equals_brute_force(hand: list[str], top_text: str) -> None:
    top = classify(top_text.split())
    hand = [x for x in hand if x not in top.cards]
    got = {(p.cards, p.catfish) for p in plays_on(hand, top)}
    assert got == _brute(hand, top)


def test_plays_from_a_full_hand_are_many_but_fine() -> None:
    hand = "stork 2t 2g 3t 3g 4t 4g 5t 5g 6t 6g 7t 7g catfish panda".split()
    plays = all_plays(hand)
    assert len(plays) > 1000
    assert all(classify(p.cards, p.catfish) == p for p in plays if p.kind != SINGLE)


def test_deck_card_points_total_100() -> None:
    # 4 x (10 + 10 + 5) + 25 + 25 - 25 - 25
    assert card_points(ALL_CARDS) == 100
    assert len(ALL_CARDS) == 60 and len(set(ALL_CARDS)) == 60


def test_labels_read_well() -> None:
    assert c("5t 5g").label() == "a pair of 5s"
    assert c("1t 1g 9t 9g 9r").label() == "a full house (9s over 1s)"
    assert c("stork 2t 3g 4r 5a").label() == "a straight 1–5"
    assert c("7t 7g 7r 7a").label() == "an Ambush of 7s"
    assert c("Bt Gt Et Mt").label() == "the Kingdom of Tamahagane"
    assert c("2t 2g 3t 3g").label() == "a run of pairs 2–3"
    assert c("Bt Bg Br").label() == "three Bushis"
    assert c("panda").label() == "the Panda"
    assert KINGDOM and AMBUSH and TRIPLE  # kinds exported
