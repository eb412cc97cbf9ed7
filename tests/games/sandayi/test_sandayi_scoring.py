"""The settlement table (rules 15-17): the spec's vectors, every row and its boundaries."""

from __future__ import annotations

import pytest

from bot.games.sandayi.scoring import BIDS, SETTLEMENT_CASES, settle, stake, target


def test_targets_and_stakes() -> None:
    assert [target(b) for b in BIDS] == [45, 40, 35, 30, 25]
    assert [stake(b) for b in BIDS] == [1, 2, 3, 4, 5]
    with pytest.raises(ValueError):
        stake(55)


def test_every_row_sums_to_zero_and_rows_are_in_table_order() -> None:
    assert [c.code for c in SETTLEMENT_CASES] == ["3C", "3B", "3A", "2B", "2A", "2C", "2D"]
    for case in SETTLEMENT_CASES:
        assert case.declarer + 3 * case.defender == 0
    table = {c.code: (c.declarer, c.defender) for c in SETTLEMENT_CASES}
    assert table == {
        "3C": (-12, 4),
        "3B": (-9, 3),
        "3A": (-6, 2),
        "2B": (-6, 2),
        "2A": (-3, 1),
        "2C": (9, -3),
        "2D": (3, -1),
    }


# The spec's test vectors: bid, s, D, 抠底, case, declarer, each defender.
VECTORS = [
    (70, 3, 35, False, "2A", -9, 3),
    (80, 5, 0, False, "2C", 45, -15),
    (65, 2, 80, False, "2B", -12, 4),
    (60, 1, 40, True, "3A", -6, 2),
    (75, 4, 30, True, "3B", -36, 12),
]


@pytest.mark.parametrize(("bid", "s", "d", "kou", "case", "declarer", "defender"), VECTORS)
def test_spec_vectors(
    bid: int, s: int, d: int, kou: bool, case: str, declarer: int, defender: int
) -> None:
    result = settle(bid, d, kou)
    assert result.stake == s
    assert result.case.code == case
    assert result.declarer_delta == declarer
    assert result.defender_delta == defender
    assert result.per_seat(2) == [defender, defender, declarer, defender]
    assert sum(result.per_seat(2)) == 0


def expected_case(d: int, n: int, kou: bool) -> str:
    if kou:
        return "3C" if d >= 2 * n else "3B" if d >= n else "3A"
    if d >= 2 * n:
        return "2B"
    if d >= n:
        return "2A"
    return "2C" if d == 0 else "2D"


BOUNDARY_ROWS = [
    # (D as a function of N, 抠底, case)
    (lambda n: 0, False, "2C"),
    (lambda n: 5, False, "2D"),
    (lambda n: n - 5, False, "2D"),
    (lambda n: n, False, "2A"),
    (lambda n: 2 * n - 5, False, "2A"),
    (lambda n: 2 * n, False, "2B"),
    (lambda n: 0, True, "3A"),
    (lambda n: n - 5, True, "3A"),
    (lambda n: n, True, "3B"),
    (lambda n: 2 * n - 5, True, "3B"),
    (lambda n: 2 * n, True, "3C"),
]


@pytest.mark.parametrize("bid", BIDS)
@pytest.mark.parametrize(("d_of_n", "kou", "case"), BOUNDARY_ROWS)
def test_boundaries_for_every_bid(bid: int, d_of_n, kou: bool, case: str) -> None:
    n = 105 - bid
    d = d_of_n(n)
    result = settle(bid, d, kou)
    assert result.case.code == case
    multiples = {c.code: (c.declarer, c.defender) for c in SETTLEMENT_CASES}[case]
    s = stake(bid)
    assert (result.declarer_delta, result.defender_delta) == (multiples[0] * s, multiples[1] * s)


@pytest.mark.parametrize("bid", BIDS)
def test_every_reachable_score_settles_by_the_first_matching_row(bid: int) -> None:
    n = target(bid)
    for d in range(0, 101, 5):
        for kou in (False, True):
            result = settle(bid, d, kou)
            assert result.case.code == expected_case(d, n, kou)
            assert sum(result.per_seat(0)) == 0
            if result.case.code != "2C" and result.case.code != "2D":
                assert result.declarer_delta < 0  # the defenders win
            else:
                assert result.declarer_delta > 0


def test_all_seven_rows_are_reached() -> None:
    reached = {
        settle(bid, d, kou).case.code
        for bid in BIDS
        for d in range(0, 101, 5)
        for kou in (False, True)
    }
    assert reached == {"3C", "3B", "3A", "2B", "2A", "2C", "2D"}
