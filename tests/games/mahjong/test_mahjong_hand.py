"""The hand decomposer: complete checks, every decomposition, waits, shanten, swap tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.mahjong.hand import (
    decompositions,
    group_splits,
    is_complete,
    one_add_complete,
    one_swap_complete,
    regular_waits,
    shanten,
)
from bot.games.mahjong.scoring import mahjong_waits
from bot.games.mahjong.tiles import CODES, codes, counts_of, tiles


def C(s: str) -> list[int]:
    return counts_of(tiles(s))


def decomp_text(s: str) -> set[str]:
    """Decompositions as readable strings: 'chow 1b, pung 5d | pair E'."""
    out = set()
    for groups, pair in decompositions(C(s)):
        g = ", ".join(f"{k} {CODES[t]}" for k, t in groups)
        out.add(f"{g} | pair {CODES[pair]}")
    return out


# ----- the spec's vectors -------------------------------------------------------------------
def test_spec_vector_complete_two_suits() -> None:
    assert is_complete(C("1d 2d 3d 4d 5d 6d 7d 8d 9d 1b 2b 3b 3c 3c"))


def test_spec_vector_not_complete_five_bamboo() -> None:
    assert not is_complete(C("1d 2d 3d 4d 5d 6d 7d 8d 9d 1b 2b 3b 4b 5b"))


def test_spec_vector_not_complete_pungs_and_loose() -> None:
    assert not is_complete(C("1b 1b 1b 2b 2b 2b 3b 3b 3b 5b 6b 8b 8b 8b"))


def test_spec_vector_nine_gates_waits_on_all_nine() -> None:
    assert codes(regular_waits(C("1d 1d 1d 2d 3d 4d 5d 6d 7d 8d 9d 9d 9d"))) == [
        f"{n}d" for n in range(1, 10)
    ]


# ----- complete or not -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, complete",
    [
        ("1b 1b", True),
        ("E E", True),
        ("E E E", False),
        ("1b 2b 3b E E", True),
        ("1b 2b 4b E E", False),
        ("E E E S S S W W W N N N C C", True),
        ("E E E E S S S W W W N N C C", False),  # an undeclared fourth copy is no kong
        ("2c 3c 4c 4c 5c 6c 6c 7c 8c 9c 9c 9c P P", True),
        ("1b 1b 2b 2b 3b 3b 4b 4b 5b 5b 6b 6b 7b 7b", True),
        ("1b 1b 2b 2b 3b 3b 4b 4b 5b 5b 6b 6b 8b 8b", True),
        ("1b 1b 2b 2b 3b 3b 4b 4b 5b 5b 6b 6b 8b 9b", False),
        ("8b 9b 1c 2c 3c 4c 5c 6c 7c 8c 9c C C C", False),  # no wrap-around or cross-suit
        ("1b 9b 1c 9c 1d 9d E S W N C F P P", False),  # thirteen orphans is not regular
        ("2d 2d 3d 3d 4d 4d 5d 5d", True),
        ("2c 2c 3c 3c 4c 4c 4c 5c", False),
        ("5d 5d 5d 5d 6d 7d 7d 7d", True),
        ("1c 1c 1c 2c 2c 2c 3c 3c 3c 4c 4c", True),
        ("3b 4b 5b 5b 6b 7b 7b 8b 9b F F F N N", True),
        ("3b 4b 5b 5b 6b 7b 7b 8b 9b F F F N S", False),
    ],
)
def test_complete_known_answers(cards: str, complete: bool) -> None:
    assert is_complete(C(cards)) is complete


# ----- every decomposition ---------------------------------------------------------------------
def test_three_identical_chows_read_as_pungs_or_chows() -> None:
    assert decomp_text("1b 1b 1b 2b 2b 2b 3b 3b 3b 5b 5b 7b 8b 9b") == {
        "chow 1b, chow 1b, chow 1b, chow 7b | pair 5b",
        "pung 1b, pung 2b, pung 3b, chow 7b | pair 5b",
    }


def test_nine_gates_plus_five_has_one_reading() -> None:
    assert decomp_text("1d 1d 1d 2d 3d 4d 5d 5d 6d 7d 8d 9d 9d 9d") == {
        "pung 1d, chow 2d, chow 6d, pung 9d | pair 5d"
    }


def test_pair_taken_from_a_pung() -> None:
    assert decomp_text("1c 1c 1c 2c 3c") == {"chow 1c | pair 1c"}
    assert decomp_text("1b 1b 1b 2b 3b 3b 3b 4b") == {"pung 1b, chow 2b | pair 3b"}


def test_three_readings_with_different_pairs() -> None:
    assert decomp_text("2b 2b 2b 3b 3b 3b 4b 4b 4b 5b 5b") == {
        "pung 2b, pung 3b, pung 4b | pair 5b",
        "chow 2b, chow 2b, chow 2b | pair 5b",
        "chow 2b, chow 3b, chow 3b | pair 2b",
    }


def test_incomplete_has_no_decomposition() -> None:
    assert decompositions(C("1b 2b 4b E E")) == []
    assert decompositions(C("1b 2b 3b")) == []


def test_all_pairs_and_runs_hand_has_every_reading() -> None:
    got = decomp_text("1b 1b 2b 2b 3b 3b 4b 4b 5b 5b 6b 6b 7b 7b")
    assert got == {
        "chow 1b, chow 1b, chow 4b, chow 4b | pair 7b",
        "chow 2b, chow 2b, chow 5b, chow 5b | pair 1b",
        "chow 1b, chow 1b, chow 5b, chow 5b | pair 4b",
    }


def test_group_splits_list_partial_groupings() -> None:
    splits = group_splits(C("1b 2b 3b 3b 3b"))
    assert (("chow", 0),) in splits and (("pung", 2),) in splits and () in splits


# ----- waits ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, waits",
    [
        ("2b 3b E E E S S S W W W N N", "1b 4b"),  # two-sided
        ("2b 4b E E E S S S W W W N N", "3b"),  # closed
        ("1b 2b E E E S S S W W W N N", "3b"),  # edge
        ("5d E E E S S S W W W N N N", "5d"),  # single (pair) wait
        ("5d 5d C C E E E S S S W W W", "5d C"),  # two pairs
        ("2c 3c 4c 5c E E E S S S W W W", "2c 5c"),
        ("1d 1d 1d 2d 3d 4d 5d 6d 7d 8d 9d 9d 9d", "1d 2d 3d 4d 5d 6d 7d 8d 9d"),
        ("2c 2c 2c 3c 4c 4c 4c E E E S S S", "1c 2c 3c 4c 5c"),
        ("1b 3b 5b E E E S S S W W W N", ""),
    ],
)
def test_waits_known_answers(cards: str, waits: str) -> None:
    assert codes(regular_waits(C(cards))) == waits.split()


def test_waits_include_irregular_specials() -> None:
    # thirteen different orphans wait for any terminal (13 Fabulous fingers) or honour
    # (13 Big and Strange) on a self-drawn card
    orphans = C("1b 9b 1c 9c 1d 9d E S W N C F P")
    assert codes(mahjong_waits(orphans, (), 0, 0, concealed_ok=True)) == [
        "1b",
        "9b",
        "1c",
        "9c",
        "1d",
        "9d",
        "E",
        "S",
        "W",
        "N",
        "C",
        "F",
        "P",
    ]
    # those specials need a concealed hand: no waits on a discard
    assert mahjong_waits(orphans, (), 0, 0, concealed_ok=False) == []


# ----- shanten and the swap tests ------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, s",
    [
        ("1d 2d 3d 4d 5d 6d 7d 8d 9d 1b 2b 3b 3c 3c", -1),
        ("1d 1d 1d 2d 3d 4d 5d 6d 7d 8d 9d 9d 9d", 0),
        ("1d 2d 3d 4d 5d 6d 7d 8d 9d 1b 2b 3c 5c", 1),
        ("1b 4b 7b 1c 4c 7c 1d 4d 7d E S W N", 8),
    ],
)
def test_shanten_known_answers(cards: str, s: int) -> None:
    assert shanten(C(cards)) == s


def brute_swap(c: list[int]) -> bool:
    for d in range(34):
        if not c[d]:
            continue
        c[d] -= 1
        for w in range(34):
            if c[w] < 4:
                c[w] += 1
                ok = is_complete(c)
                c[w] -= 1
                if ok:
                    c[d] += 1
                    return True
        c[d] += 1
    return False


near_complete = st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
    lambda ts: max(counts_of(ts)) <= 4
)


@st.composite
def built_hands(draw: st.DrawFn) -> list[int]:
    """Complete hands with a couple of cards changed: close to the boundary."""
    c = [0] * 34
    for _ in range(4):
        if draw(st.booleans()):
            s = draw(st.integers(0, 2))
            n = draw(st.integers(0, 6))
            for x in (s * 9 + n, s * 9 + n + 1, s * 9 + n + 2):
                c[x] += 1
        else:
            c[draw(st.integers(0, 33))] += 3
    c[draw(st.integers(0, 33))] += 2
    for _ in range(draw(st.integers(0, 2))):
        held = [t for t in range(34) if c[t]]
        c[draw(st.sampled_from(held))] -= 1
        c[draw(st.integers(0, 33))] += 1
    if max(c) > 4:
        c = [min(n, 4) for n in c]
        while sum(c) < 14:
            c[[t for t in range(34) if c[t] < 4][0]] += 1
    return c


@settings(max_examples=300, deadline=None)
@given(built_hands())
def test_one_swap_matches_brute_force(c: list[int]) -> None:
    assert one_swap_complete(c) == brute_swap(list(c))


@settings(max_examples=300, deadline=None)
@given(built_hands(), st.integers(0, 33))
def test_one_add_matches_waits(c: list[int], drop: int) -> None:
    held = [t for t in range(34) if c[t]]
    c[held[drop % len(held)]] -= 1
    assert one_add_complete(c) == bool(regular_waits(c))


@settings(max_examples=200, deadline=None)
@given(built_hands())
def test_shanten_minus_one_iff_complete(c: list[int]) -> None:
    """Shanten (the AI's yardstick) is exact one swap from complete, except that block
    counting may imagine a fifth copy of a card held four times (then it is a lower bound)."""
    assert (shanten(c) == -1) == is_complete(c)
    if brute_swap(list(c)):
        assert shanten(c) <= 0
    elif 4 not in c:
        assert shanten(c) >= 1


@settings(max_examples=200, deadline=None)
@given(built_hands())
def test_every_decomposition_rebuilds_the_hand(c: list[int]) -> None:
    for groups, pair in decompositions(c):
        rebuilt = [0] * 34
        rebuilt[pair] += 2
        for kind, t in groups:
            for x in (t, t + 1, t + 2) if kind == "chow" else (t, t, t):
                rebuilt[x] += 1
        assert rebuilt == c
    assert bool(decompositions(c)) == is_complete(c)
