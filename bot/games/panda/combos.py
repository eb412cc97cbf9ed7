"""Panda combinations: classification, comparison and enumeration (pure).

A :class:`Combo` is one *reading* of a set of cards. Most card sets have one reading; a set
holding the Catfish may have two (``5t 5g 6t 6g catfish`` is a full house of 5s or of 6s;
``3t 4g 5r 6a 7t catfish`` a straight 2–7 or 3–8). :func:`readings` lists them all,
:func:`classify` picks the stated one or else the highest (rule 13).

Kinds: ``single pair triple fullhouse straight pairs`` (run of pairs) ``ambush kingdom cat``.
Ordinary kinds compare by ``value`` against the same kind and length (rule 7); an Ambush
beats any ordinary combination and a lower Ambush; a Kingdom beats everything (rule 12).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from bot.games.panda.cards import (
    CAT,
    CATFISH,
    PANDA,
    RANK_VALUE,
    STORK,
    SUIT_NAMES,
    VALUE_RANK,
    is_card,
    rank_name,
    sort_cards,
    sort_key,
)
from bot.i18n.text import Text

SINGLE, PAIR, TRIPLE, FULLHOUSE, STRAIGHT, PAIRS = (
    "single",
    "pair",
    "triple",
    "fullhouse",
    "straight",
    "pairs",
)
AMBUSH, KINGDOM, CAT_LEAD = "ambush", "kingdom", "cat"
ORDINARY = frozenset({SINGLE, PAIR, TRIPLE, FULLHOUSE, STRAIGHT, PAIRS})
PANDA_VALUE = 15.0  # above every natural single (Mon = 14)
MON = 14
ROYALS = (11, 12, 13, 14)  # Bushi, Geisha, Emperor, Mon: a Kingdom


@dataclass(frozen=True)
class Combo:
    """One reading of a played set of cards.

    ``value`` is what it compares by (a single's value, a full house's triple, a straight's
    or run's top value; a led Catfish 0.5, otherwise the single below it + 0.5).
    ``catfish`` is the value the Catfish stands for in a multi-card combination, else None.
    """

    kind: str
    cards: tuple[str, ...]
    value: float
    catfish: int | None = None

    @property
    def length(self) -> int:
        return len(self.cards)

    @property
    def is_bomb(self) -> bool:
        """Ambushes and Kingdoms: playable out of turn and on any combination."""
        return self.kind in (AMBUSH, KINGDOM)

    @property
    def is_catfish_single(self) -> bool:
        return self.cards == (CATFISH,)

    @property
    def is_panda(self) -> bool:
        return self.cards == (PANDA,)

    def label(self, capital: bool = False) -> str:
        """``a pair of 5s``, ``a straight 2–6``, ``a full house (9s over 1s)``, ``an Ambush of
        7s`` (a :class:`Text`; ``capital``: ``A pair of 5s``, to begin a sentence)."""
        return combo_label(self, capital)


def _rank_word(v: float) -> str:
    return rank_name(VALUE_RANK[int(v)])


def combo_label(c: Combo, capital: bool = False) -> str:
    """The combination's name as a :class:`Text` (see :meth:`Combo.label`). Each has its
    own message in both cases: English capitalises the first word, most languages do
    not care."""
    k = c.kind
    if k == CAT_LEAD:
        return Text("The Cat") if capital else Text("the Cat")
    if k == SINGLE:
        if c.cards[0] == PANDA:
            return Text("The Panda") if capital else Text("the Panda")
        if c.cards[0] == CATFISH:
            v = _fmt(c.value)
            return (
                Text("The Catfish ({value})", value=v)
                if capital
                else Text("the Catfish ({value})", value=v)
            )
        if c.cards[0] == STORK:
            return Text("The Stork") if capital else Text("the Stork")
        r = _rank_word(c.value)
        return Text("A single {rank}", rank=r) if capital else Text("a single {rank}", rank=r)
    if k == PAIR:
        r = _rank_word(c.value)
        return Text("A pair of {rank}s", rank=r) if capital else Text("a pair of {rank}s", rank=r)
    if k == TRIPLE:
        r = _rank_word(c.value)
        return Text("Three {rank}s", rank=r) if capital else Text("three {rank}s", rank=r)
    if k == FULLHOUSE:
        r, p = _rank_word(c.value), _rank_word(_fullhouse_pair(c))
        if capital:
            return Text("A full house ({rank}s over {pair}s)", rank=r, pair=p)
        return Text("a full house ({rank}s over {pair}s)", rank=r, pair=p)
    if k == STRAIGHT:
        low, high = _rank_word(int(c.value) - c.length + 1), _rank_word(c.value)
        if capital:
            return Text("A straight {low}–{high}", low=low, high=high)
        return Text("a straight {low}–{high}", low=low, high=high)
    if k == PAIRS:
        low, high = _rank_word(int(c.value) - c.length // 2 + 1), _rank_word(c.value)
        if capital:
            return Text("A run of pairs {low}–{high}", low=low, high=high)
        return Text("a run of pairs {low}–{high}", low=low, high=high)
    if k == AMBUSH:
        r = _rank_word(c.value)
        return (
            Text("An Ambush of {rank}s", rank=r)
            if capital
            else Text("an Ambush of {rank}s", rank=r)
        )
    if k == KINGDOM:
        s = SUIT_NAMES[c.cards[0][-1]]
        return (
            Text("The Kingdom of {suit}", suit=s)
            if capital
            else Text("the Kingdom of {suit}", suit=s)
        )
    return k


def _fmt(v: float) -> str:
    return str(int(v)) if v == int(v) else f"{v:g}"


def _fullhouse_pair(c: Combo) -> int:
    vals = _values(c.cards, c.catfish)
    return next(v for v in set(vals) if v != c.value)


def _values(cards: Sequence[str], catfish: int | None) -> list[int]:
    out = []
    for x in cards:
        if x == CATFISH:
            out.append(catfish or 0)
        elif x == STORK:
            out.append(1)
        else:
            out.append(RANK_VALUE[x[:-1]])
    return out


def _shape(values: list[int], natural_only: bool, suits: list[str]) -> tuple[str, float] | None:
    """Kind and value of a multi-card set of values (Stork as 1, Catfish already read)."""
    n = len(values)
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    distinct = sorted(counts)
    if len(distinct) == 1:
        v = distinct[0]
        if n == 2:
            return PAIR, v
        if n == 3:
            return TRIPLE, v
        if n == 4 and natural_only:
            return AMBUSH, v
        return None
    if n == 4 and natural_only and distinct == list(ROYALS) and len(set(suits)) == 1:
        return KINGDOM, MON
    consecutive = distinct[-1] - distinct[0] == len(distinct) - 1
    if n == 5 and sorted(counts.values()) == [2, 3]:
        return FULLHOUSE, next(v for v, k in counts.items() if k == 3)
    if n >= 5 and len(distinct) == n and consecutive:
        return STRAIGHT, distinct[-1]
    if n >= 4 and n % 2 == 0 and consecutive and all(k == 2 for k in counts.values()):
        return PAIRS, distinct[-1]
    return None


def _rank_of(c: Combo) -> tuple[int, float]:
    return (1 if c.kind == KINGDOM else 0, c.value)


def readings(cards: Iterable[str]) -> list[Combo]:
    """Every reading of ``cards`` as a combination, highest first ([] if none)."""
    cs = list(cards)
    if not cs or len(set(cs)) != len(cs) or not all(is_card(c) for c in cs):
        return []
    cs = sort_cards(cs)
    t = tuple(cs)
    if len(cs) == 1:
        c = cs[0]
        if c == CAT:
            return [Combo(CAT_LEAD, t, 0.0)]
        if c == PANDA:
            return [Combo(SINGLE, t, PANDA_VALUE)]
        if c == CATFISH:
            return [Combo(SINGLE, t, 0.5)]
        return [Combo(SINGLE, t, float(_values(t, None)[0]))]
    if CAT in cs or PANDA in cs:
        return []
    has_catfish = CATFISH in cs
    natural_only = not has_catfish and STORK not in cs
    suits = [c[-1] for c in cs if c not in (STORK, CATFISH)]
    out: list[Combo] = []
    if not has_catfish:
        shape = _shape(_values(t, None), natural_only, suits)
        if shape:
            out.append(Combo(shape[0], t, float(shape[1])))
        return out
    for v in range(1, 15):
        shape = _shape(_values(t, v), False, suits)
        if shape:
            out.append(Combo(shape[0], t, float(shape[1]), catfish=v))
    out.sort(key=_rank_of, reverse=True)
    return out


def classify(cards: Iterable[str], catfish: int | None = None) -> Combo | None:
    """The combination ``cards`` make: the stated Catfish reading, else the highest."""
    options = readings(cards)
    if catfish is not None:
        options = [c for c in options if c.catfish == catfish]
    return options[0] if options else None


def placed(combo: Combo, top: Combo | None) -> Combo:
    """The combo as it lies on the table: a single Catfish takes the single below + ½."""
    if combo.is_catfish_single:
        return replace(combo, value=0.5 if top is None else top.value + 0.5)
    return combo


def beats(new: Combo, top: Combo | None) -> bool:
    """May ``new`` be laid on ``top`` (None: an empty table, i.e. a lead)?"""
    if top is None:
        return True
    if top.kind in (KINGDOM, CAT_LEAD) or new.kind == CAT_LEAD:
        return False
    if new.kind == KINGDOM:
        return True
    if new.kind == AMBUSH:
        return top.kind != AMBUSH or new.value > top.value
    if top.kind == AMBUSH:
        return False
    if new.kind != top.kind or new.length != top.length:
        return False
    if new.is_catfish_single:
        # Half a step above any single except a Mon or the Panda (rule 13).
        return top.value < MON
    return new.value > top.value


def contains_value_one(combo: Combo) -> bool:
    """True if the combination holds the Stork or a natural 1 (the first lead, rule 5)."""
    return any(c == STORK or c[:-1] == "1" for c in combo.cards if c not in (CAT, CATFISH, PANDA))


def contains_rank(combo: Combo, rank: str) -> bool:
    """True if a natural card of ``rank`` is in the combination (the Catfish never counts)."""
    return any(c[:-1] == rank for c in combo.cards if c not in (STORK, CAT, CATFISH, PANDA))


# ----- enumeration ---------------------------------------------------------------------


class _Hand:
    """A hand split by value, for enumeration."""

    def __init__(self, hand: Iterable[str]) -> None:
        self.cards = sort_cards(hand)
        self.groups: dict[int, list[str]] = {v: [] for v in range(1, 15)}
        self.naturals: dict[int, list[str]] = {v: [] for v in range(1, 15)}
        for c in self.cards:
            if c == STORK:
                self.groups[1].append(c)
            elif c not in (CAT, CATFISH, PANDA):
                v = RANK_VALUE[c[:-1]]
                self.groups[v].append(c)
                self.naturals[v].append(c)
        self.catfish = CATFISH in self.cards
        self.has_cat = CAT in self.cards
        self.has_panda = PANDA in self.cards


def _combo(kind: str, cards: Iterable[str], value: float, catfish: int | None = None) -> Combo:
    return Combo(kind, tuple(sorted(cards, key=sort_key)), float(value), catfish)


def _n_of_a_kind(h: _Hand, n: int, kind: str, above: float) -> Iterator[Combo]:
    for v in range(1, 15):
        if v <= above:
            continue
        g = h.groups[v]
        for cs in combinations(g, n):
            yield _combo(kind, cs, v)
        if h.catfish:
            for cs in combinations(g, n - 1):
                yield _combo(kind, (*cs, CATFISH), v, v)


def _bombs(h: _Hand, top: Combo | None) -> Iterator[Combo]:
    """Ambushes and Kingdoms that may be laid on ``top`` (None: all of them)."""
    if top is not None and top.kind in (KINGDOM, CAT_LEAD):
        return
    floor = top.value if top is not None and top.kind == AMBUSH else 0
    for v in range(1, 15):
        if len(h.naturals[v]) == 4 and v > floor:
            yield _combo(AMBUSH, h.naturals[v], v)
    for s in SUIT_NAMES:
        royals = [r + s for r in ("B", "G", "E", "M")]
        if all(c in h.cards for c in royals):
            yield _combo(KINGDOM, royals, MON)


def _fullhouses(h: _Hand, above: float) -> Iterator[Combo]:
    triples = list(_n_of_a_kind(h, 3, TRIPLE, above))
    pairs = list(_n_of_a_kind(h, 2, PAIR, 0))
    for t in triples:
        for p in pairs:
            if p.value == t.value or (t.catfish and p.catfish):
                continue
            yield _combo(FULLHOUSE, t.cards + p.cards, t.value, t.catfish or p.catfish)


def _runs(h: _Hand, per: int, lengths: Iterable[int], above: float, kind: str) -> Iterator[Combo]:
    """Straights (``per`` = 1 card a value) or runs of pairs (``per`` = 2) of given lengths
    (counted in values), with a top value above ``above``."""
    options: dict[int, list[tuple[tuple[str, ...], bool]]] = {}
    for v in range(1, 15):
        g = h.groups[v]
        opts = [(cs, False) for cs in combinations(g, per)]
        if h.catfish:
            opts += [((*cs, CATFISH), True) for cs in combinations(g, per - 1)]
        options[v] = opts
    # Prefix counts of values that need the Catfish (one card short) or cannot be had.
    short = [0] * 15
    gone = [0] * 15
    for v in range(1, 15):
        have = len(h.groups[v])
        short[v] = short[v - 1] + (have == per - 1)
        gone[v] = gone[v - 1] + (have < per - 1 or (have < per and not h.catfish))
    for n in lengths:
        for top in range(max(n, int(above) + 1), 15):
            low = top - n + 1
            # At most one value of the run may rest on the Catfish.
            if gone[top] - gone[low - 1] or short[top] - short[low - 1] > 1:
                continue
            yield from _run_products(options, low, top, kind, per)


def _run_products(
    options: dict[int, list[tuple[tuple[str, ...], bool]]],
    low: int,
    top: int,
    kind: str,
    per: int,
) -> Iterator[Combo]:
    def rec(v: int, acc: list[str], cf: int | None) -> Iterator[Combo]:
        if v > top:
            yield _combo(kind, acc, top, cf)
            return
        for cs, uses_cf in options[v]:
            if uses_cf and cf is not None:
                continue
            yield from rec(v + 1, acc + list(cs), v if uses_cf else cf)

    yield from rec(low, [], None)


def _singles(h: _Hand, top: Combo | None) -> Iterator[Combo]:
    floor = top.value if top is not None else 0.0
    for v in range(1, 15):
        if v > floor:
            for c in h.groups[v]:
                yield _combo(SINGLE, (c,), v)
    if h.has_panda and floor < PANDA_VALUE:
        yield _combo(SINGLE, (PANDA,), PANDA_VALUE)
    if h.catfish and floor < MON:
        yield _combo(SINGLE, (CATFISH,), 0.5 if top is None else floor + 0.5)


def all_plays(hand: Iterable[str]) -> list[Combo]:
    """Every combination ``hand`` can lead (the Cat included), without duplicates."""
    return plays_on(hand, None)


def plays_on(hand: Iterable[str], top: Combo | None) -> list[Combo]:
    """Every combination from ``hand`` that may be laid on ``top`` (None: a lead)."""
    return list(_remembered_plays(frozenset(hand), top))


# Remembered by (card set, lying combination): the answer does not depend on the hand's
# order, and strong's playouts ask the same question many times. A tuple: callers get a
# fresh list (the Combos themselves are frozen).
@functools.lru_cache(maxsize=50_000)
def _remembered_plays(cards: frozenset[str], top: Combo | None) -> tuple[Combo, ...]:
    return tuple(_plays_on(cards, top))


def _plays_on(hand: Iterable[str], top: Combo | None) -> list[Combo]:
    h = _Hand(hand)
    out: list[Combo] = []
    if top is None:
        if h.has_cat:
            out.append(Combo(CAT_LEAD, (CAT,), 0.0))
        out.extend(_singles(h, None))
        out.extend(_n_of_a_kind(h, 2, PAIR, 0))
        out.extend(_n_of_a_kind(h, 3, TRIPLE, 0))
        out.extend(_fullhouses(h, 0))
        out.extend(_runs(h, 2, range(2, 8), 0, PAIRS))
        out.extend(_runs(h, 1, range(5, 15), 0, STRAIGHT))
    elif top.kind in ORDINARY:
        k, above = top.kind, top.value
        if k == SINGLE:
            out.extend(_singles(h, top))
        elif k == PAIR:
            out.extend(_n_of_a_kind(h, 2, PAIR, above))
        elif k == TRIPLE:
            out.extend(_n_of_a_kind(h, 3, TRIPLE, above))
        elif k == FULLHOUSE:
            out.extend(_fullhouses(h, above))
        elif k == PAIRS:
            out.extend(_runs(h, 2, [top.length // 2], above, PAIRS))
        elif k == STRAIGHT:
            out.extend(_runs(h, 1, [top.length], above, STRAIGHT))
    out.extend(_bombs(h, top))
    # A card set may come from two routes (a Catfish full house): keep one per reading.
    seen: set[tuple[tuple[str, ...], int | None]] = set()
    unique = []
    for c in out:
        key = (c.cards, c.catfish)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def bombs_on(hand: Iterable[str], top: Combo | None) -> list[Combo]:
    """The Ambushes and Kingdoms from ``hand`` that may be laid on ``top``."""
    return list(_bombs(_Hand(hand), top))


def ambiguous(combo: Combo) -> bool:
    """True if the combo's cards have another reading (its code must state the Catfish).

    Only two shapes can be read two ways: a straight with the Catfish at one end (it could
    sit at the other end instead) and a full house made of two pairs and the Catfish."""
    if combo.catfish is None:
        return False
    if combo.kind == STRAIGHT:
        low = int(combo.value) - combo.length + 1
        if combo.catfish == low:
            return combo.value + 1 <= MON
        if combo.catfish == combo.value:
            return low - 1 >= 1
        return False
    if combo.kind == FULLHOUSE:
        vals = _values([c for c in combo.cards if c != CATFISH], None)
        return sorted(vals.count(v) for v in set(vals)) == [2, 2]
    return False
