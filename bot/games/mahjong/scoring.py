"""The whole Israeli Mah-Jongg scoring, one small class per item (pure).

Every player scores their own hand (spec rule 19): basic points ``S`` from groups and
extras (plus the winner-only items), then ``T = S × (1 + sum of fractions)`` (rule 20),
rounded half up at the end. A winner's hand is read every way it can be (every regular
decomposition, every group the winning discard may complete, every special hand) and the
reading with the highest total is kept. A non-winner's hand is its declared groups plus the
split of its concealed cards into complete groups that scores most (pairs score for the
winner only).

Fractions are kept in quarters (``0.25`` = 1) so totals are exact until the final rounding.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from bot.games.mahjong.hand import decompositions, is_complete, regular_waits
from bot.games.mahjong.specials import (
    SPECIAL_HANDS,
    Assigned,
    BuriedTreasure,
    EarthBlessing,
    GoldenCoin,
    Meld,
    SpecialHand,
    irregular_candidates,
    irregular_complete,
)
from bot.games.mahjong.tiles import (
    DRAGONS,
    FLOWERS,
    NUM_KINDS,
    SEASONS,
    WINDS,
    code,
    extra_wind,
    is_honour,
    is_terminal,
)
from bot.games.mahjong.views import SheetLine, SheetScore
from bot.i18n.text import Text

GOLDEN_COIN_CARD = 22  # 5 Dots
QUARTER = 4


# ----- the facts a score looks at ---------------------------------------------------------
@dataclass(frozen=True)
class WinInfo:
    """How the winner went out (everything the winner-only items need)."""

    self_drawn: bool  # Mah-Jongg by wall (original hand included)
    tile: int | None  # the winning card (None for an original hand)
    from_box: bool = False  # the winning card came from the kong box
    after_kong: bool = False  # ... as the replacement for a kong
    last_wall: bool = False  # the winning card was the last live-wall card
    last_of_type: bool = False  # "the last card of its type"
    standing: bool = False  # won from a declared standing hand
    original: bool = False  # the round player's original hand (Celestial Blessing)
    earth: bool = False  # won on the first discard of the round (Earth Blessing)


@dataclass(frozen=True)
class PlayerHand:
    """One player's cards at the end of a hand."""

    conc: tuple[
        int, ...
    ]  # 34 counts of the concealed part (the winner's includes the winning card)
    melds: tuple[Meld, ...]  # declared groups (kind, card, concealed)
    extras: tuple[int, ...]  # seasons and flowers laid out
    own: int  # seat wind 0..3
    round_: int  # round wind 0..3

    @property
    def own_tile(self) -> int:
        return WINDS[self.own]

    @property
    def round_tile(self) -> int:
        return WINDS[self.round_]

    def all_tiles(self) -> set[int]:
        kinds = {t for t in range(NUM_KINDS) if self.conc[t]}
        for kind, t, _ in self.melds:
            kinds.update((t, t + 1, t + 2) if kind == "chow" else (t,))
        return kinds


@dataclass
class Reading:
    """One way to read a hand: its groups (kind, card, concealed) and pair, or a special."""

    groups: list[tuple[str, int, bool]]
    pair: int | None = None
    pair_concealed: bool = True
    special: type[SpecialHand] | None = None
    arrangement: list[Assigned] | None = None


@dataclass
class Line:
    name: str
    value: float  # points for items, the fraction for multipliers

    def as_dict(self) -> SheetLine:
        v = self.value
        return {"name": self.name, "value": int(v) if float(v).is_integer() else v}


@dataclass
class Sheet:
    """A player's score for one hand, item by item."""

    items: list[Line] = field(default_factory=list)
    multipliers: list[Line] = field(default_factory=list)
    basic: int = 0
    quarters: int = QUARTER  # 4 × (1 + sum of fractions)
    total: int = 0
    special: str | None = None
    groups: list[tuple[str, int, bool]] = field(default_factory=list)
    pair: int | None = None

    @property
    def factor(self) -> float:
        return self.quarters / QUARTER

    def as_dict(self) -> SheetScore:
        return {
            "items": [i.as_dict() for i in self.items],
            "multipliers": [m.as_dict() for m in self.multipliers],
            "basic": self.basic,
            "factor": self.factor,
            "total": self.total,
            "special": self.special,
            "groups": [{"kind": k, "card": code(t), "concealed": c} for k, t, c in self.groups],
            "pair": code(self.pair) if self.pair is not None else None,
        }


def round_half_up(basic: int, quarters: int) -> int:
    """``basic × quarters / 4`` rounded half up (quarter points kept until here)."""
    return (2 * basic * quarters + QUARTER) // (2 * QUARTER)


# ----- basic points of groups (every player) ----------------------------------------------
class GroupScore:
    """A row of the basic-points table: a group kind with its concealed / melded value."""

    name: ClassVar[str]
    kind: ClassVar[str]  # chow | pung | kong
    rank: ClassVar[str]  # any | minor | terminal | honour
    concealed_value: ClassVar[int]
    melded_value: ClassVar[int]

    @classmethod
    def matches(cls, kind: str, t: int) -> bool:
        if kind != cls.kind:
            return False
        if cls.rank == "any":
            return True
        return cls.rank == card_rank(t)

    @classmethod
    def points(cls, concealed: bool) -> int:
        return cls.concealed_value if concealed else cls.melded_value


def card_rank(t: int) -> str:
    if is_honour(t):
        return "honour"
    return "terminal" if is_terminal(t) else "minor"


class ChowScore(GroupScore):
    name, kind, rank, concealed_value, melded_value = Text("Chow"), "chow", "any", 1, 0


class PungOfMinors(GroupScore):
    name, kind, rank, concealed_value, melded_value = Text("Pung of minors"), "pung", "minor", 4, 2


class PungOfTerminals(GroupScore):
    name, kind, rank, concealed_value, melded_value = (
        Text("Pung of terminals"),
        "pung",
        "terminal",
        8,
        4,
    )


class PungOfHonours(GroupScore):
    name, kind, rank, concealed_value, melded_value = (
        Text("Pung of honours"),
        "pung",
        "honour",
        8,
        5,
    )


class KongOfMinors(GroupScore):
    name, kind, rank, concealed_value, melded_value = Text("Kong of minors"), "kong", "minor", 16, 8


class KongOfTerminals(GroupScore):
    name, kind, rank, concealed_value, melded_value = (
        Text("Kong of terminals"),
        "kong",
        "terminal",
        32,
        16,
    )


class KongOfHonours(GroupScore):
    name, kind, rank, concealed_value, melded_value = (
        Text("Kong of honours"),
        "kong",
        "honour",
        32,
        16,
    )


GROUP_SCORES: tuple[type[GroupScore], ...] = (
    ChowScore,
    PungOfMinors,
    PungOfTerminals,
    PungOfHonours,
    KongOfMinors,
    KongOfTerminals,
    KongOfHonours,
)


def group_score(kind: str, t: int) -> type[GroupScore]:
    for g in GROUP_SCORES:
        if g.matches(kind, t):
            return g
    raise ValueError(f"no score row for {kind} {t}")


def group_points(kind: str, t: int, concealed: bool) -> int:
    return group_score(kind, t).points(concealed)


#: A group's line on the score sheet, (melded, concealed), built once per row.
GROUP_LINE_NAMES: dict[type[GroupScore], tuple[Text, Text]] = {
    g: (Text("{group} (melded)", group=g.name), Text("{group} (concealed)", group=g.name))
    for g in GROUP_SCORES
}


def group_line(kind: str, t: int, concealed: bool) -> Line:
    """The score sheet's line of a group: ``Pung of minors (concealed)`` and its points."""
    g = group_score(kind, t)
    return Line(GROUP_LINE_NAMES[g][concealed], g.points(concealed))


class SeasonOrFlower:
    name = Text("Season/flower")
    value = 6


# ----- basic points for the winner only ----------------------------------------------------
class WinnerItem:
    """A winner-only basic-points item."""

    name: ClassVar[str]
    value: ClassVar[int]

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        raise NotImplementedError


class WinByWallCard(WinnerItem):
    name, value = Text("Win by wall card"), 3

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return win.self_drawn and not win.last_wall


class WinByLastWallCard(WinnerItem):
    name, value = Text("Win by the last wall card"), 10

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return win.self_drawn and win.last_wall


class LastCardOfItsType(WinnerItem):
    name, value = Text("Win with the last card of its type"), 2

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return win.last_of_type


class StandingHandWin(WinnerItem):
    name, value = Text("Win from a declared standing hand"), 100

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return win.standing


class NoChow(WinnerItem):
    name, value = Text("No chow in the hand"), 10

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return not any(k == "chow" for k, _, _ in r.groups)


class OnlyChows(WinnerItem):
    name, value = Text("Only chows and a plain pair"), 10

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return (
            bool(r.groups)
            and all(k == "chow" for k, _, _ in r.groups)
            and r.pair not in (hand.round_tile, hand.own_tile)
        )


class WinFromKongBox(WinnerItem):
    name, value = Text("Win with a card from the kong box"), 10

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return win.from_box


class PairOfDragons(WinnerItem):
    name, value = Text("Pair of dragons"), 3

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return r.pair in DRAGONS


class PairOfRoundWind(WinnerItem):
    name, value = Text("Pair of the round wind"), 3

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return r.pair == hand.round_tile


class PairOfOwnWind(WinnerItem):
    name, value = Text("Pair of own wind"), 3

    @classmethod
    def applies(cls, r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
        return r.pair == hand.own_tile


WINNER_ITEMS: tuple[type[WinnerItem], ...] = (
    WinByWallCard,
    WinByLastWallCard,
    LastCardOfItsType,
    StandingHandWin,
    NoChow,
    OnlyChows,
    WinFromKongBox,
    PairOfDragons,
    PairOfRoundWind,
    PairOfOwnWind,
)


# ----- multipliers ------------------------------------------------------------------------
class Multiplier:
    """A fraction added to the factor; ``times`` says how often it applies (0 = not)."""

    name: ClassVar[str]
    quarters: ClassVar[int]
    winner_only: ClassVar[bool] = False

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        raise NotImplementedError


def _pung_tiles(groups: Iterable[tuple[str, int, bool]]) -> set[int]:
    return {t for k, t, _ in groups if k in ("pung", "kong")}


class OwnWindGroup(Multiplier):
    name, quarters = Text("Pung/kong of own wind"), 2

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return int(hand.own_tile in _pung_tiles(groups))


class RoundWindGroup(Multiplier):
    name, quarters = Text("Pung/kong of the round wind"), 2

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return int(hand.round_tile in _pung_tiles(groups))


class OwnSeasonOrFlower(Multiplier):
    name, quarters = Text("Own-seat season/flower"), 1

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return sum(1 for e in hand.extras if extra_wind(e) == hand.own)


class DragonGroup(Multiplier):
    name, quarters = Text("Pung/kong of dragons"), 2

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return int(bool(_pung_tiles(groups) & set(DRAGONS)))


class FourWindsOrFlowers(Multiplier):
    name, quarters = Text("All four winds or flowers"), 6

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        extras = set(hand.extras)
        return int(
            set(WINDS) <= _pung_tiles(groups) or set(FLOWERS) <= extras or set(SEASONS) <= extras
        )


class Composition(Multiplier):
    """The hand's make-up; these exclude each other (the highest that applies counts)."""

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return int(cls.fits(hand.all_tiles()))

    @classmethod
    def fits(cls, kinds: set[int]) -> bool:
        raise NotImplementedError


def _make_up(kinds: set[int]) -> tuple[set[int], bool, bool]:
    suits = {t // 9 for t in kinds if t < 27}
    honours = any(t >= 27 for t in kinds)
    terminals_only = all(is_terminal(t) for t in kinds if t < 27)
    return suits, honours, terminals_only


class OneSuitOnly(Composition):
    name, quarters = Text("One suit, no honours"), 6

    @classmethod
    def fits(cls, kinds: set[int]) -> bool:
        suits, honours, _ = _make_up(kinds)
        return len(suits) == 1 and not honours


class TerminalsOnly(Composition):
    name, quarters = Text("Only terminals, no honours"), 6

    @classmethod
    def fits(cls, kinds: set[int]) -> bool:
        suits, honours, terms = _make_up(kinds)
        return bool(suits) and terms and not honours


class HonoursOnly(Composition):
    name, quarters = Text("Only honours"), 6

    @classmethod
    def fits(cls, kinds: set[int]) -> bool:
        suits, honours, _ = _make_up(kinds)
        return honours and not suits


class OneSuitWithHonours(Composition):
    name, quarters = Text("One suit + honours"), 2

    @classmethod
    def fits(cls, kinds: set[int]) -> bool:
        suits, honours, _ = _make_up(kinds)
        return len(suits) == 1 and honours


class TerminalsAndHonours(Composition):
    name, quarters = Text("Only terminals and honours"), 2

    @classmethod
    def fits(cls, kinds: set[int]) -> bool:
        suits, honours, terms = _make_up(kinds)
        return bool(suits) and terms and honours


COMPOSITIONS: tuple[type[Composition], ...] = (
    OneSuitOnly,
    TerminalsOnly,
    HonoursOnly,
    OneSuitWithHonours,
    TerminalsAndHonours,
)


class WinWithKong(Multiplier):
    name, quarters, winner_only = Text("Win with a kong"), 2, True

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return int(win is not None and win.after_kong)


class CelestialBlessing(Multiplier):
    """Original hand: the round player goes out on the deal (the seed's Celestial Blessing)."""

    name, quarters, winner_only = Text("Original hand (Celestial Blessing)"), 6, True

    @classmethod
    def times(
        cls, groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
    ) -> int:
        return int(win is not None and win.original)


MULTIPLIERS: tuple[type[Multiplier], ...] = (
    OwnWindGroup,
    RoundWindGroup,
    OwnSeasonOrFlower,
    DragonGroup,
    FourWindsOrFlowers,
    WinWithKong,
    CelestialBlessing,
)


def multiplier_lines(
    groups: Sequence[tuple[str, int, bool]], hand: PlayerHand, win: WinInfo | None
) -> list[Line]:
    lines = []
    for m in MULTIPLIERS:
        if m.winner_only and win is None:
            continue
        n = m.times(groups, hand, win)
        for _ in range(n):
            lines.append(Line(m.name, m.quarters / QUARTER))
    kinds = hand.all_tiles()
    best = max((c for c in COMPOSITIONS if c.fits(kinds)), key=lambda c: c.quarters, default=None)
    if best is not None:
        lines.append(Line(best.name, best.quarters / QUARTER))
    return lines


def _finish(sheet: Sheet, with_multipliers: bool, lines: list[Line]) -> Sheet:
    sheet.basic = int(sum(i.value for i in sheet.items))
    if with_multipliers:
        sheet.multipliers = lines
        sheet.quarters = QUARTER + int(sum(m.value * QUARTER for m in lines))
    else:
        sheet.multipliers = []
        sheet.quarters = QUARTER
    sheet.total = round_half_up(sheet.basic, sheet.quarters)
    return sheet


# ----- completeness -------------------------------------------------------------------------
def is_mahjong(
    conc: Sequence[int], melds: Sequence[Meld], own: int, round_: int, concealed_ok: bool
) -> bool:
    """True if the hand (concealed part with the winning card, plus declared groups) is a
    Mah-Jongg: regular, or one of the special hands that are not regular-shaped."""
    if is_complete(conc):
        return True
    return irregular_complete(conc, melds, WINDS[own], WINDS[round_], concealed_ok)


def mahjong_waits(
    conc: Sequence[int], melds: Sequence[Meld], own: int, round_: int, concealed_ok: bool
) -> list[int]:
    """Every card that would complete the (3k+1)-card concealed part (a shape wait)."""
    out = set(regular_waits(conc))
    work = list(conc)
    for t in irregular_candidates(conc, melds, WINDS[own], WINDS[round_]):
        if t in out or work[t] >= 4:
            continue
        work[t] += 1
        if irregular_complete(work, melds, WINDS[own], WINDS[round_], concealed_ok):
            out.add(t)
        work[t] -= 1
    return sorted(out)


def concealed_hand(melds: Sequence[Meld], win: WinInfo) -> bool:
    """A concealed hand: every group and the pair from the wall (R: won on a self-drawn card)."""
    return win.self_drawn and all(c for _, _, c in melds)


# ----- readings ------------------------------------------------------------------------------
def winner_readings(hand: PlayerHand, win: WinInfo) -> list[Reading]:
    """Every regular reading and every special the winner's hand can be read as."""
    melds = [(k, t, c) for k, t, c in hand.melds]
    out: list[Reading] = []
    for groups, pair in decompositions(hand.conc):
        if win.self_drawn or win.tile is None:
            out.append(
                Reading(melds + [(k, t, True) for k, t in groups], pair=pair, pair_concealed=True)
            )
            continue
        w = win.tile
        seen: set[tuple[str, int] | None] = set()
        for i, (k, t) in enumerate(groups):
            holds = t == w if k == "pung" else t <= w <= t + 2
            if holds and (k, t) not in seen:
                seen.add((k, t))
                gs = [(kk, tt, j != i) for j, (kk, tt) in enumerate(groups)]
                out.append(Reading(melds + gs, pair=pair, pair_concealed=True))
        if pair == w:
            out.append(
                Reading(melds + [(k, t, True) for k, t in groups], pair=pair, pair_concealed=False)
            )
    concealed = concealed_hand(hand.melds, win) or win.original
    for special in SPECIAL_HANDS:
        if special.concealed and not concealed:
            continue
        arr = special.find(hand.conc, hand.melds, hand.own_tile, hand.round_tile)
        if arr is not None:
            flags = {(k, t): c for k, t, c in hand.melds}
            special_groups = [
                (k, t, flags[(k, t)] if from_meld else True)
                for k, t, from_meld in arr
                if k in ("pung", "kong", "chow")
            ]
            out.append(Reading(special_groups, special=special, arrangement=arr))
    return out


def _golden_coin(r: Reading, hand: PlayerHand, win: WinInfo) -> bool:
    if r.special is None:
        return any(k in ("pung", "kong") and t == GOLDEN_COIN_CARD and c for k, t, c in r.groups)
    for k, t, from_meld in r.arrangement or []:
        if t != GOLDEN_COIN_CARD or k not in ("pung", "kong"):
            continue
        if from_meld:
            if any(mk == "kong" and mt == t and mc for mk, mt, mc in hand.melds):
                return True
        elif win.self_drawn or win.tile != GOLDEN_COIN_CARD or hand.conc[t] >= 4:
            return True
    return False


def score_reading(r: Reading, hand: PlayerHand, win: WinInfo, buried: bool) -> Sheet:
    sheet = Sheet(groups=list(r.groups), pair=r.pair)
    bonuses = []
    if win.earth:
        bonuses.append(Line(EarthBlessing.name, EarthBlessing.value))
    if buried:
        bonuses.append(Line(BuriedTreasure.name, BuriedTreasure.value))
    if _golden_coin(r, hand, win):
        bonuses.append(Line(GoldenCoin.name, GoldenCoin.value))
    if r.special is not None:
        sheet.special = r.special.name
        sheet.items = [Line(r.special.name, r.special.value), *bonuses]
        lines = multiplier_lines(r.groups, hand, win)
        return _finish(sheet, not r.special.instead_multipliers, lines)
    items = [group_line(k, t, c) for k, t, c in r.groups]
    items += [Line(SeasonOrFlower.name, SeasonOrFlower.value) for _ in hand.extras]
    items += [Line(w.name, w.value) for w in WINNER_ITEMS if w.applies(r, hand, win)]
    sheet.items = items + bonuses
    return _finish(sheet, True, multiplier_lines(r.groups, hand, win))


def score_winner(hand: PlayerHand, win: WinInfo) -> Sheet:
    """The winner's highest-scoring reading."""
    readings = winner_readings(hand, win)
    if not readings:
        raise ValueError("the hand is not a Mah-Jongg")
    buried = BuriedTreasure.find(hand.conc, hand.melds) is not None
    best: Sheet | None = None
    for r in readings:
        s = score_reading(r, hand, win, buried)
        if best is None or s.total > best.total:
            best = s
    assert best is not None
    return best


_SUIT_BEST: dict[tuple[int, ...], tuple[int, tuple[tuple[str, int], ...]]] = {}


def _best_suit_split(seg: tuple[int, ...], base: int) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Highest concealed-group points of one suit's cards (leftovers allowed)."""
    key = (base, *seg)
    hit = _SUIT_BEST.get(key)
    if hit is not None:
        return hit
    c = list(seg)
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        best: tuple[int, tuple[tuple[str, int], ...]] = (0, ())
    else:
        c2 = list(c)
        c2[i] = 0
        best = _best_suit_split(tuple(c2), base)  # leave card i out
        if c[i] >= 3:
            c2 = list(c)
            c2[i] -= 3
            p, g = _best_suit_split(tuple(c2), base)
            p += group_points("pung", base + i, True)
            if p > best[0]:
                best = (p, (("pung", base + i), *g))
        if i <= 6 and c[i + 1] and c[i + 2]:
            c2 = list(c)
            c2[i] -= 1
            c2[i + 1] -= 1
            c2[i + 2] -= 1
            p, g = _best_suit_split(tuple(c2), base)
            p += group_points("chow", base + i, True)
            if p > best[0]:
                best = (p, (("chow", base + i), *g))
    _SUIT_BEST[key] = best
    return best


def score_non_winner(hand: PlayerHand) -> Sheet:
    """Declared groups + the best split of the concealed cards into groups; no pair."""
    groups: list[tuple[str, int, bool]] = list(hand.melds)
    for b in (0, 9, 18):
        _, gs = _best_suit_split(tuple(hand.conc[b : b + 9]), b)
        groups += [(k, t, True) for k, t in gs]
    groups += [("pung", h, True) for h in range(27, 34) if hand.conc[h] >= 3]
    sheet = Sheet(groups=groups)
    sheet.items = [group_line(k, t, c) for k, t, c in groups]
    sheet.items += [Line(SeasonOrFlower.name, SeasonOrFlower.value) for _ in hand.extras]
    return _finish(sheet, True, multiplier_lines(groups, hand, None))


# ----- Mah-Jongg claim ranking ----------------------------------------------------------------
CLAIM_SPECIAL, CLAIM_PUNG, CLAIM_CHOW, CLAIM_PAIR = 3, 2, 1, 0


def claim_rank(hand: PlayerHand, discard: int) -> int:
    """How a Mah-Jongg claim on ``discard`` ranks (rule 11): special hand > completing a pung >
    a chow > the pair, the claimant taken at their best reading. ``hand.conc`` includes it."""
    for special in SPECIAL_HANDS:
        if special.concealed:
            continue  # a discard win is never a concealed hand
        if special.find(hand.conc, hand.melds, hand.own_tile, hand.round_tile) is not None:
            return CLAIM_SPECIAL
    best = -1
    for groups, pair in decompositions(hand.conc):
        for k, t in groups:
            if k == "pung" and t == discard:
                best = max(best, CLAIM_PUNG)
            elif k == "chow" and t <= discard <= t + 2:
                best = max(best, CLAIM_CHOW)
        if pair == discard:
            best = max(best, CLAIM_PAIR)
    return max(best, CLAIM_PAIR)


# ----- payments ---------------------------------------------------------------------------
PAYMENT = 8


def settle(
    totals: Sequence[int], winner: int, round_player: int, classical: bool = False
) -> list[int]:
    """Each seat's change of match score for a won hand (rule 21).

    Each non-winner pays the winner 8, and 8 more if the winner is the round player. Add-up
    (default): everyone then adds their own hand total. Classical: the non-winners pay the
    winner the winner's total and settle the differences of their totals among themselves.
    """
    n = len(totals)
    delta = [0] * n
    pay = PAYMENT * (2 if winner == round_player else 1)
    for s in range(n):
        if s != winner:
            delta[s] -= pay
            delta[winner] += pay
    if not classical:
        for s in range(n):
            delta[s] += totals[s]
        return delta
    losers = [s for s in range(n) if s != winner]
    for s in losers:
        delta[s] -= totals[winner]
        delta[winner] += totals[winner]
    for i, a in enumerate(losers):
        for b in losers[i + 1 :]:
            diff = totals[a] - totals[b]
            delta[a] += diff
            delta[b] -= diff
    return delta
