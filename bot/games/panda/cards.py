"""The 60 Panda cards and their notation (docs/architecture.md).

A natural card is a rank ``1 2 … 10 B G E M`` (Bushi, Geisha, Emperor, Mon; values 1..14)
followed by a suit ``t g r a`` (Tamahagane, Gyokuro, Renge, Asahi): ``1t``, ``10a``, ``Mg``.
The four specials are ``stork``, ``cat``, ``catfish`` and ``panda``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.text import Text

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "G", "E", "M")
SUITS: tuple[str, ...] = ("t", "g", "r", "a")
SUIT_NAMES = {"t": "Tamahagane", "g": "Gyokuro", "r": "Renge", "a": "Asahi"}
RANK_NAMES = {"B": "Bushi", "G": "Geisha", "E": "Emperor", "M": "Mon"}
RANK_VALUE: dict[str, int] = {r: i + 1 for i, r in enumerate(RANKS)}
VALUE_RANK: dict[int, str] = {v: r for r, v in RANK_VALUE.items()}

STORK, CAT, CATFISH, PANDA = "stork", "cat", "catfish", "panda"
SPECIALS: tuple[str, ...] = (STORK, CAT, CATFISH, PANDA)
SPECIAL_NAMES = {STORK: "Stork", CAT: "Cat", CATFISH: "Catfish", PANDA: "Panda"}

NATURALS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
ALL_CARDS: tuple[str, ...] = NATURALS + SPECIALS
_ALL = frozenset(ALL_CARDS)

# Card points (rule 17): Mons and 10s 10, 5s 5, Panda and Stork +25, Catfish and Cat -25.
_POINTS = {STORK: 25, PANDA: 25, CATFISH: -25, CAT: -25}


def is_card(code: str) -> bool:
    return code in _ALL


def is_natural(code: str) -> bool:
    return code not in _POINTS and code in _ALL


def rank(code: str) -> str:
    """Rank of a natural card (``"10"`` for ``10a``)."""
    return code[:-1]


def suit(code: str) -> str:
    return code[-1]


def value(code: str) -> int:
    """Value of a natural card (1..14); the Stork is 1. Other specials have no value (0)."""
    if code == STORK:
        return 1
    if code in _POINTS:
        return 0
    return RANK_VALUE[code[:-1]]


def points(code: str) -> int:
    """Card points of one card."""
    if code in _POINTS:
        return _POINTS[code]
    r = code[:-1]
    if r in ("10", "M"):
        return 10
    if r == "5":
        return 5
    return 0


def card_points(cards: Iterable[str]) -> int:
    return sum(points(c) for c in cards)


_SORT_KEY: dict[str, tuple[int, int]] = {
    CAT: (0, 0),
    STORK: (1, 0),
    CATFISH: (15, 0),
    PANDA: (16, 0),
}
for _c in NATURALS:
    _SORT_KEY[_c] = (RANK_VALUE[_c[:-1]], 1 + SUITS.index(_c[-1]))


def sort_key(code: str) -> tuple[int, int]:
    """Canonical order: Cat, Stork, naturals low to high (suits t g r a), Catfish, Panda."""
    return _SORT_KEY[code]


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)


def card_name(code: str) -> str:
    """A readable name: ``Mon of Renge``, ``7 of Asahi``, ``Panda``. The deck's names
    (ranks, suits, specials) stay in Latin letters in every language; a natural card is a
    :class:`Text`."""
    if code in SPECIAL_NAMES:
        return SPECIAL_NAMES[code]
    r = code[:-1]
    return Text("{rank} of {suit}", rank=RANK_NAMES.get(r, r), suit=SUIT_NAMES[code[-1]])


def rank_name(r: str) -> str:
    return RANK_NAMES.get(r, r)


def a_rank(r: str) -> str:
    """``a 7``, ``an 8``, ``an Emperor``: the rank's name with its article (a :class:`Text`:
    the languages without articles say the rank alone)."""
    name = rank_name(r)
    if name[0] in "8AEIOU" or name == "1":
        return Text("an {rank}", rank=name)
    return Text("a {rank}", rank=name)


def parse_rank(text: str) -> str | None:
    """``"7"``, ``"b"``, ``"Bushi"`` -> canonical rank, or None."""
    t = text.strip()
    if t.upper() in ("B", "G", "E", "M"):
        return t.upper()
    for r, name in RANK_NAMES.items():
        if t.lower() == name.lower():
            return r
    return t if t in RANK_VALUE else None


def normalize_card(text: str) -> str | None:
    """Accept ``mg``/``MG``/``Mg``, ``Stork``… and return the canonical code, or None."""
    t = text.strip()
    low = t.lower()
    if low in SPECIALS:
        return low
    if len(t) < 2:
        return None
    r = parse_rank(t[:-1])
    s = t[-1].lower()
    if r is None or s not in SUITS:
        return None
    return r + s
