"""San Da Yi bids and the seven-case settlement table (rules 15–17). Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n.text import Text

BIDS: tuple[int, ...] = (60, 65, 70, 75, 80)
MAX_BID = 80
TOTAL_POINTS = 100


def stake(bid: int) -> int:
    """The base stake s: 1, 2, 3, 4, 5 for bids 60, 65, 70, 75, 80."""
    if bid not in BIDS:
        raise ValueError(f"{bid} is not a bid")
    return (bid - 55) // 5


def target(bid: int) -> int:
    """N, the points the defenders need: 105 − bid (45/40/35/30/25)."""
    if bid not in BIDS:
        raise ValueError(f"{bid} is not a bid")
    return 105 - bid


@dataclass(frozen=True)
class SettlementCase:
    """One row of the table: when it applies, and what the declarer and each defender get,
    as multiples of the base stake (declarer + 3 × defender = 0)."""

    code: str
    name: str
    applies: Callable[[int, int, bool], bool]  # (defender points D, target N, 抠底)
    declarer: int
    defender: int


# In order: the first row that applies settles the hand (rule 17).
SETTLEMENT_CASES: tuple[SettlementCase, ...] = (
    SettlementCase(
        "3C",
        Text("Defenders win the last trick and reach twice the target"),
        lambda d, n, k: k and d >= 2 * n,
        -12,
        4,
    ),
    SettlementCase(
        "3B",
        Text("Defenders win the last trick and reach the target"),
        lambda d, n, k: k and n <= d < 2 * n,
        -9,
        3,
    ),
    SettlementCase(
        "3A",
        Text("Defenders win the last trick but fall short of the target"),
        lambda d, n, k: k and d < n,
        -6,
        2,
    ),
    SettlementCase(
        "2B", Text("Defenders reach twice the target"), lambda d, n, k: not k and d >= 2 * n, -6, 2
    ),
    SettlementCase(
        "2A", Text("Defenders reach the target"), lambda d, n, k: not k and n <= d < 2 * n, -3, 1
    ),
    SettlementCase("2C", Text("Defenders take no points"), lambda d, n, k: not k and d == 0, 9, -3),
    SettlementCase(
        "2D", Text("Defenders short of the target"), lambda d, n, k: not k and 0 < d < n, 3, -1
    ),
)
CASES_BY_CODE = {c.code: c for c in SETTLEMENT_CASES}


@dataclass(frozen=True)
class Settlement:
    case: SettlementCase
    bid: int
    stake: int
    target: int
    defender_points: int
    kou_di: bool

    @property
    def declarer_delta(self) -> int:
        return self.case.declarer * self.stake

    @property
    def defender_delta(self) -> int:
        return self.case.defender * self.stake

    def per_seat(self, declarer: int, seats: int = 4) -> list[int]:
        return [self.declarer_delta if s == declarer else self.defender_delta for s in range(seats)]


def settle(bid: int, defender_points: int, kou_di: bool) -> Settlement:
    """Settle a hand: the first row of the table whose condition holds."""
    n = target(bid)
    for case in SETTLEMENT_CASES:
        if case.applies(defender_points, n, kou_di):
            return Settlement(case, bid, stake(bid), n, defender_points, kou_di)
    raise AssertionError(f"no settlement row for D={defender_points} N={n} 抠底={kou_di}")
