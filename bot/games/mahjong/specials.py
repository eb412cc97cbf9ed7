"""The special Mah-Jonggs of the Israeli rules, one class each (pure).

A special hand is described by **patterns**: lists of units a hand must be arranged into
exactly (every card used once, every declared group used by one unit):

- ``pung`` — three of a card (a declared kong qualifies only where the spec says
  "pungs/kongs"; an undeclared fourth copy in hand never makes a kong);
- ``pair``, ``single`` — two / one card, from the concealed part only;
- ``chow`` — a run of three (melded or concealed);
- ``run`` — 1..9 of one suit (melded chows inside it may be used);
- ``group`` — any pung, kong or chow.

Choices ("which suit", "which number", "which wind is the pair") are spelt out as several
patterns, so a hand matches a special if one pattern fits. :func:`match` does the fitting
by a small backtracking search; each pattern first checks cheap count minimums.

Rows marked † in the spec are completed to 14 cards; "kongs stand for pungs" (each kong
counts as three cards of a unit). Specials needing a **concealed hand** (every group and
the pair from the wall) fail on a discard win or with melded groups; declared concealed
kongs are fine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations
from typing import ClassVar

from bot.games.mahjong.tiles import DRAGONS, GREEN, HONOURS, NUM_KINDS, RED, TERMINALS, WINDS
from bot.i18n.text import Text

Meld = tuple[str, int, bool]  # (kind: chow|pung|kong, card (lowest for a chow), concealed)
Assigned = tuple[
    str, int, bool
]  # (unit kind as played: chow|pung|kong|pair|single|run, card, melded?)

ALL = tuple(range(NUM_KINDS))
CHOW_STARTS = tuple(t for t in range(27) if t % 9 <= 6)


@dataclass(frozen=True)
class Unit:
    kind: str  # pung | pair | single | chow | run | group
    tiles: tuple[int, ...]
    kong: bool = False  # a declared kong may stand for this pung


@dataclass(frozen=True)
class Pattern:
    units: tuple[Unit, ...]
    need: tuple[tuple[int, int], ...]  # (card, minimum count) from single-card units


def P(t: int | Sequence[int], kong: bool = False) -> Unit:
    return Unit("pung", (t,) if isinstance(t, int) else tuple(t), kong)


def PK(t: int | Sequence[int]) -> Unit:
    return P(t, kong=True)


def PAIR(t: int | Sequence[int]) -> Unit:
    return Unit("pair", (t,) if isinstance(t, int) else tuple(t))


def S(t: int | Sequence[int]) -> Unit:
    return Unit("single", (t,) if isinstance(t, int) else tuple(t))


def CHOW(starts: Sequence[int]) -> Unit:
    return Unit("chow", tuple(starts))


def RUN(suit: int) -> Unit:
    return Unit("run", tuple(range(suit * 9, suit * 9 + 9)))


GROUP = Unit("group", ALL)
_ORDER = {"run": 0, "pung": 1, "chow": 2, "group": 3, "pair": 4, "single": 5}


def pattern(*units: Unit) -> Pattern:
    # Fixed single-card units first: they fail fastest.
    ordered = tuple(sorted(units, key=lambda u: (_ORDER[u.kind], len(u.tiles))))
    need: dict[int, int] = {}
    per = {"pung": 3, "pair": 2, "single": 1}
    for u in ordered:
        if u.kind in per and len(u.tiles) == 1:
            need[u.tiles[0]] = need.get(u.tiles[0], 0) + per[u.kind]
        elif u.kind == "run":
            for t in u.tiles:
                need[t] = need.get(t, 0) + 1
    return Pattern(ordered, tuple(sorted(need.items())))


def normalized_counts(conc: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """All of a hand's cards with each kong counted as three (sums to 14 when complete)."""
    n = list(conc)
    for kind, t, _ in melds:
        if kind == "chow":
            n[t] += 1
            n[t + 1] += 1
            n[t + 2] += 1
        else:
            n[t] += 3
    return n


def match(pat: Pattern, conc: Sequence[int], melds: Sequence[Meld]) -> list[Assigned] | None:
    """Arrange the hand into the pattern's units; the arrangement, or None."""
    c = list(conc)
    used = [False] * len(melds)
    out: list[Assigned] = []
    units = pat.units

    def rec(k: int, floor: int) -> bool:
        if k == len(units):
            return all(used) and not any(c)
        u = units[k]
        # Identical consecutive units take cards in non-decreasing order (no permutations).
        lo = floor if k and units[k - 1] == u else -1
        kind = u.kind
        if kind == "run":
            return _run(u, k)
        if kind in ("pung", "chow", "group"):
            for i, (mk, mt, _mc) in enumerate(melds):
                if used[i] or mt < lo:
                    continue
                if kind == "pung":
                    ok = (mk == "pung" or (mk == "kong" and u.kong)) and mt in u.tiles
                elif kind == "chow":
                    ok = mk == "chow" and mt in u.tiles
                else:
                    ok = True
                if ok:
                    used[i] = True
                    out.append((mk, mt, True))
                    if rec(k + 1, mt):
                        return True
                    out.pop()
                    used[i] = False
        if kind in ("pung", "group"):
            for t in u.tiles:
                if t >= lo and c[t] >= 3:
                    c[t] -= 3
                    out.append(("pung", t, False))
                    if rec(k + 1, t):
                        return True
                    out.pop()
                    c[t] += 3
        if kind in ("chow", "group"):
            for t in u.tiles if kind == "chow" else CHOW_STARTS:
                if t >= lo and c[t] and c[t + 1] and c[t + 2]:
                    c[t] -= 1
                    c[t + 1] -= 1
                    c[t + 2] -= 1
                    out.append(("chow", t, False))
                    if rec(k + 1, t):
                        return True
                    out.pop()
                    c[t] += 1
                    c[t + 1] += 1
                    c[t + 2] += 1
        if kind in ("pair", "single"):
            size = 2 if kind == "pair" else 1
            for t in u.tiles:
                if t >= lo and c[t] >= size:
                    c[t] -= size
                    out.append((kind, t, False))
                    if rec(k + 1, t):
                        return True
                    out.pop()
                    c[t] += size
        return False

    def _run(u: Unit, k: int) -> bool:
        base = u.tiles[0]
        chows = [
            i
            for i, (mk, mt, _) in enumerate(melds)
            if not used[i] and mk == "chow" and base <= mt <= base + 6
        ]
        for mask in range(1 << len(chows)):
            chosen = [chows[j] for j in range(len(chows)) if mask >> j & 1]
            covered: set[int] = set()
            ok = True
            for i in chosen:
                cells = {melds[i][1], melds[i][1] + 1, melds[i][1] + 2}
                if covered & cells:
                    ok = False
                    break
                covered |= cells
            if not ok:
                continue
            rest = [t for t in u.tiles if t not in covered]
            if all(c[t] for t in rest):
                for t in rest:
                    c[t] -= 1
                for i in chosen:
                    used[i] = True
                out.append(("run", base, bool(chosen)))
                if rec(k + 1, -1):
                    return True
                out.pop()
                for i in chosen:
                    used[i] = False
                for t in rest:
                    c[t] += 1
        return False

    return out if rec(0, -1) else None


def fits(pat: Pattern, norm: Sequence[int]) -> bool:
    """The cheap pre-check: the hand holds at least the pattern's fixed cards."""
    for t, n in pat.need:
        if norm[t] < n:
            return False
    return True


# ----- the special hands -----------------------------------------------------------------
EVEN_BAMBOO = (1, 3, 5, 7)  # 2b 4b 6b 8b
SUITED = tuple(range(27))


class SpecialHand:
    """A special Mah-Jongg: its name, score and how it combines with the regular scoring."""

    name: ClassVar[str]
    value: ClassVar[int]
    instead_basic: ClassVar[bool] = True
    instead_multipliers: ClassVar[bool] = True
    concealed: ClassVar[bool] = False  # needs a concealed hand
    # True if the hand is not a regular four groups + pair, so it makes a Mah-Jongg on its own.
    irregular: ClassVar[bool] = False
    consists_of: ClassVar[str] = ""

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        """The patterns for a player with wind card ``own`` in round wind ``round_``."""
        raise NotImplementedError

    @classmethod
    def patterns(cls, own: int, round_: int) -> tuple[Pattern, ...]:
        return _patterns(cls, own, round_)  # type: ignore[arg-type]  # (mypy: a class is not Hashable)

    @classmethod
    def near(cls, norm: Sequence[int]) -> bool:
        """A sharper "at most one card short" test than the fixed cards alone (optional)."""
        return True

    @classmethod
    def find(
        cls,
        conc: Sequence[int],
        melds: Sequence[Meld],
        own: int,
        round_: int,
        norm: Sequence[int] | None = None,
    ) -> list[Assigned] | None:
        """The hand arranged as this special (own/round wind as card indices), or None.

        The concealed-hand requirement is the caller's (it depends on how the hand was won).
        """
        if norm is None:
            norm = normalized_counts(conc, melds)
        for pat in cls.patterns(own, round_):
            if fits(pat, norm):
                got = match(pat, conc, melds)
                if got is not None:
                    return got
        return None


@cache
def _patterns(cls: type[SpecialHand], own: int, round_: int) -> tuple[Pattern, ...]:
    return tuple(cls.build(own, round_))


def _suits() -> range:
    return range(3)


class Imperial(SpecialHand):
    name = Text("Imperial")
    value = 6000
    concealed = True
    consists_of = "concealed pungs/kongs of all three dragons and of own wind + a pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(31), PK(32), PK(33), PK(own), PAIR(ALL))]


class Mandarin(SpecialHand):
    name = Text("Mandarin")
    value = 5000
    concealed = True
    consists_of = "concealed pungs/kongs of 3 winds + pair of the 4th + any group"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(*(PK(w) for w in WINDS if w != pw), PAIR(pw), GROUP) for pw in WINDS]


class CrazyMonkey(SpecialHand):
    name = Text("Crazy Monkey")
    value = 4500
    irregular = True
    consists_of = "3 dragon pungs + one more of each dragon + a pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(31), P(32), P(33), S(31), S(32), S(33), PAIR(ALL))]


class HappyFamily(SpecialHand):
    name = Text("Happy Family")
    value = 4000
    consists_of = "pungs/kongs of all 4 winds + dragon pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(*(PK(w) for w in WINDS), PAIR(DRAGONS))]


class BigGreen(SpecialHand):
    name = Text("Big Green")
    value = 3600
    consists_of = "Bamboo 2, 4, 6 and Green dragon pungs/kongs + Bamboo 8 pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(1), PK(3), PK(5), PK(GREEN), PAIR(7))]


class SmallGreen(SpecialHand):
    name = Text("Small Green")
    value = 3500
    consists_of = "Bamboo 2, 4, 6, 8 pungs/kongs + Green dragon pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(1), PK(3), PK(5), PK(7), PAIR(GREEN))]


class RedGreen(SpecialHand):
    name = Text("Red-Green")
    value = 3400
    irregular = True
    consists_of = "Bamboo 1, 5, 7, 9 pungs + one Green + one Red"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(0), P(4), P(6), P(8), S(GREEN), S(RED))]


class AdoptedSonsOfDragon9(SpecialHand):
    name = Text("Adopted sons of dragon 9")
    value = 3300
    consists_of = "9 pung/kong in each suit + dragon pung/kong + pair of own wind"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(8), PK(17), PK(26), PK(DRAGONS), PAIR(own))]


class AdoptedSonsOfDragon1(SpecialHand):
    name = Text("Adopted sons of dragon 1")
    value = 3300
    consists_of = "1 pung/kong in each suit + dragon pung/kong + pair of own wind"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(0), PK(9), PK(18), PK(DRAGONS), PAIR(own))]


class BigGreenFinger(SpecialHand):
    name = Text("Big Green finger")
    value = 3200
    consists_of = "Bamboo 3 pung + 2 even-bamboo pungs + Green pung + even-bamboo pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(2), P(EVEN_BAMBOO), P(EVEN_BAMBOO), P(GREEN), PAIR(EVEN_BAMBOO))]


class SmallGreenFinger(SpecialHand):
    name = Text("Small Green finger")
    value = 3000
    instead_multipliers = False
    consists_of = "Bamboo 3 pung + 3 even-bamboo pungs + Green pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(2), P(EVEN_BAMBOO), P(EVEN_BAMBOO), P(EVEN_BAMBOO), PAIR(GREEN))]


class HorizontalEnemies(SpecialHand):
    name = Text("Horizontal Enemies")
    value = 3000
    irregular = True
    consists_of = (
        "1 and 9 pungs/kongs of one suit + East and West pungs/kongs + one North + one South"
    )

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(s * 9), PK(s * 9 + 8), PK(27), PK(29), S(30), S(28)) for s in _suits()]


class VerticalEnemies(SpecialHand):
    name = Text("Vertical Enemies")
    value = 3000
    irregular = True
    consists_of = (
        "1 and 9 pungs/kongs of one suit + North and South pungs/kongs + one East + one West"
    )

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(s * 9), PK(s * 9 + 8), PK(30), PK(28), S(27), S(29)) for s in _suits()]


class ThreeAdoptedSonsOfTheRedDragon(SpecialHand):
    name = Text("Three adopted sons of the red dragon")
    value = 2800
    consists_of = "3 pungs of one number in the three suits + Red pung + a wind pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(n), P(n + 9), P(n + 18), P(RED), PAIR(WINDS)) for n in range(9)]


class ThreeAdoptedSonsOfTheWinds(SpecialHand):
    name = Text("Three adopted sons of the winds")
    value = 2800
    consists_of = "3 pungs of one number in the three suits + a wind pung + a dragon pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(n), P(n + 9), P(n + 18), P(WINDS), PAIR(DRAGONS)) for n in range(9)]


class FourBigTwinSisters(SpecialHand):
    name = Text("4 Big Twin Sisters")
    value = 2700
    instead_multipliers = False
    consists_of = "4 pungs/kongs of consecutive numbers in one suit + dragon pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [
            pattern(*(PK(s * 9 + n + i) for i in range(4)), PAIR(DRAGONS))
            for s in _suits()
            for n in range(6)
        ]


class FourSmallTwinSisters(SpecialHand):
    name = Text("4 Small Twin Sisters")
    value = 2500
    instead_multipliers = False
    consists_of = "4 pungs/kongs of consecutive numbers in one suit + wind pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [
            pattern(*(PK(s * 9 + n + i) for i in range(4)), PAIR(WINDS))
            for s in _suits()
            for n in range(6)
        ]


class HarmonicYinYang(SpecialHand):
    name = Text("Harmonic Yin-Yang")
    value = 2200
    instead_multipliers = False
    concealed = True
    irregular = True
    consists_of = "concealed pairs of all 7 honours"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(*(PAIR(h) for h in HONOURS))]


class RevolutionOfFire(SpecialHand):
    name = Text("Revolution of fire")
    value = 2100
    instead_multipliers = False
    irregular = True
    consists_of = "3 suited pungs + Red pair + one West, one East, one South"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(P(SUITED), P(SUITED), P(SUITED), PAIR(RED), S(29), S(27), S(28))]

    @classmethod
    def near(cls, norm: Sequence[int]) -> bool:
        # the honours short, plus the suited pungs still to complete from pairs: at most one
        short = max(0, 2 - norm[RED]) + sum(1 for t in (27, 28, 29) if not norm[t])
        n3 = n2 = 0
        for t in range(27):
            if norm[t] >= 3:
                n3 += 1
            elif norm[t] == 2:
                n2 += 1
        missing = max(0, 3 - n3)
        return missing <= n2 and short + missing <= 1


class GreatScholars(SpecialHand):
    name = Text("Great Scholars")
    value = 2000
    consists_of = "3 dragon pungs/kongs + a chow + a pair of the chow's suit"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [
            pattern(
                PK(31),
                PK(32),
                PK(33),
                CHOW([t for t in CHOW_STARTS if t // 9 == s]),
                PAIR(range(s * 9, s * 9 + 9)),
            )
            for s in _suits()
        ]


class WindsAndDragons(SpecialHand):
    name = Text("Winds and dragons")
    value = 1900
    consists_of = "honours only: 4 pungs/kongs + a pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(PK(HONOURS), PK(HONOURS), PK(HONOURS), PK(HONOURS), PAIR(HONOURS))]


class CallOfTheNinthCard(SpecialHand):
    name = Text("Call of the 9th card")
    value = 1800
    concealed = True
    consists_of = "concealed, one suit: 1-1-1, 2..8, 9-9-9 + one more of that suit"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        out = []
        for s in _suits():
            b = s * 9
            out.append(
                pattern(P(b), *(S(b + i) for i in range(1, 8)), P(b + 8), S(range(b, b + 9)))
            )
        return out


class ThirteenFabulousFingers(SpecialHand):
    name = Text("13 Fabulous fingers")
    value = 1600
    concealed = True
    irregular = True
    consists_of = "concealed: one of each dragon, wind and terminal + one more terminal"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(*(S(t) for t in TERMINALS + HONOURS), S(TERMINALS))]


class BigSnake(SpecialHand):
    name = Text("Big Snake")
    value = 1600
    irregular = True  # with a melded chow such as 2-3-4 inside the run it is not regular-shaped
    consists_of = "1..9 of one suit + honour pung + honour pair"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(RUN(s), P(HONOURS), PAIR(HONOURS)) for s in _suits()]


def _snake_units(perm: tuple[int, ...]) -> list[Unit]:
    """1-4-7 in one suit, 2-5-8 in another, 3-6-9 in the third."""
    units = []
    for offset, s in enumerate(perm):
        for n in (0, 3, 6):
            units.append(S(s * 9 + n + offset))
    return units


class SnakeOfTheDragons(SpecialHand):
    name = Text("Snake of the dragons")
    value = 1400
    instead_multipliers = False
    concealed = True
    irregular = True
    consists_of = "concealed 1-4-7 / 2-5-8 / 3-6-9 across the three suits + one of each dragon + pair of own wind"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [
            pattern(*_snake_units(perm), S(31), S(32), S(33), PAIR(own))
            for perm in permutations(range(3))
        ]


class SnakeOfTheWinds(SpecialHand):
    name = Text("Snake of the winds")
    value = 1200
    instead_multipliers = False
    concealed = True
    irregular = True
    consists_of = "concealed 1-4-7 / 2-5-8 / 3-6-9 + one of each wind + one honour"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [
            pattern(*_snake_units(perm), *(S(w) for w in WINDS), S(HONOURS))
            for perm in permutations(range(3))
        ]


class LittleSnake(SpecialHand):
    name = Text("Little snake")
    value = 1000
    instead_multipliers = False
    irregular = True
    consists_of = "1..9 of one suit + one of each wind + one dragon or wind"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(RUN(s), *(S(w) for w in WINDS), S(HONOURS)) for s in _suits()]


class UnitedHand(SpecialHand):
    name = Text("United Hand")
    value = 300
    instead_multipliers = False
    consists_of = "chow + suited pung + 2 dragon pungs/kongs + pair of the round wind"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(CHOW(CHOW_STARTS), P(SUITED), PK(DRAGONS), PK(DRAGONS), PAIR(round_))]


class ThirteenBigAndStrange(SpecialHand):
    name = Text("13 Big and Strange")
    value = 250
    instead_multipliers = False
    concealed = True
    irregular = True
    consists_of = "concealed: one of each terminal, wind and dragon + one more honour"

    @classmethod
    def build(cls, own: int, round_: int) -> list[Pattern]:
        return [pattern(*(S(t) for t in TERMINALS + HONOURS), S(HONOURS))]


#: Every "instead basic" special hand, highest first.
SPECIAL_HANDS: tuple[type[SpecialHand], ...] = (
    Imperial,
    Mandarin,
    CrazyMonkey,
    HappyFamily,
    BigGreen,
    SmallGreen,
    RedGreen,
    AdoptedSonsOfDragon9,
    AdoptedSonsOfDragon1,
    BigGreenFinger,
    SmallGreenFinger,
    HorizontalEnemies,
    VerticalEnemies,
    ThreeAdoptedSonsOfTheRedDragon,
    ThreeAdoptedSonsOfTheWinds,
    FourBigTwinSisters,
    FourSmallTwinSisters,
    HarmonicYinYang,
    RevolutionOfFire,
    GreatScholars,
    WindsAndDragons,
    CallOfTheNinthCard,
    ThirteenFabulousFingers,
    BigSnake,
    SnakeOfTheDragons,
    SnakeOfTheWinds,
    LittleSnake,
    UnitedHand,
    ThirteenBigAndStrange,
)
IRREGULAR_HANDS = tuple(h for h in SPECIAL_HANDS if h.irregular)


# ----- bonus specials ("N / N": added to whichever base applies) -------------------------
class BonusHand:
    name: ClassVar[str]
    value: ClassVar[int]
    consists_of: ClassVar[str] = ""


class EarthBlessing(BonusHand):
    name = Text("Earth Blessing")
    value = 800
    consists_of = "win on the first discard of the round"


class BuriedTreasure(BonusHand):
    name = Text("Buried Treasure")
    value = 300
    consists_of = "1..9 of one suit + dragon pung/kong + honour pair"

    @classmethod
    def patterns(cls) -> tuple[Pattern, ...]:
        return _buried_patterns()

    @classmethod
    def find(cls, conc: Sequence[int], melds: Sequence[Meld]) -> list[Assigned] | None:
        norm = normalized_counts(conc, melds)
        for pat in cls.patterns():
            if fits(pat, norm):
                got = match(pat, conc, melds)
                if got is not None:
                    return got
        return None


@lru_cache(maxsize=1)
def _buried_patterns() -> tuple[Pattern, ...]:
    return tuple(pattern(RUN(s), PK(DRAGONS), PAIR(HONOURS)) for s in _suits())


class GoldenCoin(BonusHand):
    name = Text("Golden Coin")
    value = 100
    consists_of = "win with a concealed pung/kong of 5 Dots"


BONUS_HANDS: tuple[type[BonusHand], ...] = (EarthBlessing, BuriedTreasure, GoldenCoin)


def _signature(conc: Sequence[int], melds: Sequence[Meld], slack: int) -> bool:
    """Cheap honour test: could an irregular special be ``slack`` (0 or 1) cards away?

    Every irregular special needs all four winds (Enemies, Snake of the winds, Little snake,
    the 13s, Yin-Yang), all three dragons (Crazy Monkey, Snake of the dragons, Yin-Yang,
    the 13s), a Red pair with East, South and West (Revolution), a run 1..9 of one suit
    (Big Snake) — with five honours or more — or exactly one Red and one Green among
    bamboos 1, 5, 7, 9 (Red-Green).
    """
    h = conc[27:34]
    if melds:
        h = list(h)
        for _kind, t, _ in melds:
            if t >= 27:
                h[t - 27] += 3
    total = sum(h)
    e, s, w, n, red, green, white = h
    if total >= 5 - slack:
        winds = (e > 0) + (s > 0) + (w > 0) + (n > 0)
        dragons = (red > 0) + (green > 0) + (white > 0)
        if winds >= 4 - slack or dragons >= 3 - slack:
            return True
        esw = (e > 0) + (s > 0) + (w > 0)
        if red >= 2 - slack and esw >= 3 - slack and red + esw >= 5 - slack:
            return True
        # Big Snake: a run 1..9 of one suit + an honour pung and pair (five honours; one
        # more in a 14-card hand that must still swap an honour for the missing run card)
        if total <= 5 + slack:
            norm = normalized_counts(conc, melds)
            for b in (0, 9, 18):
                if sum(1 for t in range(b, b + 9) if norm[t]) >= 9 - slack:
                    return True
    if red <= 1 and green <= 1 and red + green >= 2 - slack and total - red - green <= slack:
        norm = normalized_counts(conc, melds)
        rg = norm[0] + norm[4] + norm[6] + norm[8] + red + green
        return rg >= sum(norm) - slack
    return False


def irregular_complete(
    conc: Sequence[int], melds: Sequence[Meld], own: int, round_: int, concealed_ok: bool
) -> bool:
    """True if the hand is one of the special hands that are not regular-shaped.

    ``concealed_ok``: the hand is a concealed hand (won from the wall, no melded group).
    """
    if not _signature(conc, melds, 0):
        return False
    norm = normalized_counts(conc, melds)
    for h in IRREGULAR_HANDS:
        if h.concealed and not concealed_ok:
            continue
        if h.find(conc, melds, own, round_, norm) is not None:
            return True
    return False


def irregular_candidates(
    conc: Sequence[int], melds: Sequence[Meld], own: int, round_: int
) -> set[int]:
    """Cards that might turn a 13-card hand into an irregular special (a superset).

    For each pattern whose fixed cards are at most one short: the missing card, or (none
    missing) a card already held or one a wildcard single unit accepts.
    """
    out: set[int] = set()
    if not _signature(conc, melds, 1):
        return out
    norm = normalized_counts(conc, melds)
    for h in IRREGULAR_HANDS:
        for pat in h.patterns(own, round_):
            short = 0
            missing = -1
            for t, n in pat.need:
                if norm[t] < n:
                    short += n - norm[t]
                    missing = t
                    if short > 1:
                        break
            if short > 1 or not h.near(norm):
                continue
            if short == 1:
                out.add(missing)
                continue
            out.update(t for t in range(NUM_KINDS) if conc[t])
            for u in pat.units:
                if u.kind == "single" and len(u.tiles) > 1:
                    out.update(u.tiles)
    return out


def irregular_near(conc: Sequence[int], melds: Sequence[Meld], own: int, round_: int) -> bool:
    """Could one swap of a card (14-card hand) make an irregular special? (necessary test)"""
    if not _signature(conc, melds, 1):
        return False
    norm = normalized_counts(conc, melds)
    for h, need in _irregular_needs(own, round_):
        short = 0
        for t, n in need:
            if norm[t] < n:
                short += n - norm[t]
                if short > 1:
                    break
        if short <= 1 and h.near(norm):
            return True
    return False


@lru_cache(maxsize=64)
def _irregular_needs(
    own: int, round_: int
) -> tuple[tuple[type[SpecialHand], tuple[tuple[int, int], ...]], ...]:
    return tuple((h, pat.need) for h in IRREGULAR_HANDS for pat in h.patterns(own, round_))
