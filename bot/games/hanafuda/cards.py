"""The 48 hanafuda cards and their notation.

A card code is the month (1..12) followed by its kind: ``b`` bright, ``a`` animal,
``r`` ribbon, ``pN`` the Nth plain — ``1b`` Crane, ``9a`` Sake cup, ``11p1`` lightning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

BRIGHT, ANIMAL, RIBBON, PLAIN = "bright", "animal", "ribbon", "plain"
CLASS_ORDER = (BRIGHT, ANIMAL, RIBBON, PLAIN)
_KIND_CLASS = {"b": BRIGHT, "a": ANIMAL, "r": RIBBON, "p": PLAIN}

MONTH_PLANTS = {
    1: "Pine",
    2: "Plum",
    3: "Cherry",
    4: "Wisteria",
    5: "Iris",
    6: "Peony",
    7: "Bush clover",
    8: "Pampas grass",
    9: "Chrysanthemum",
    10: "Maple",
    11: "Willow",
    12: "Paulownia",
}

# Which kinds each month holds, in the conventional order (bright/animal, ribbon, plains).
_MONTH_CARDS = {
    1: ("b", "r", "p1", "p2"),
    2: ("a", "r", "p1", "p2"),
    3: ("b", "r", "p1", "p2"),
    4: ("a", "r", "p1", "p2"),
    5: ("a", "r", "p1", "p2"),
    6: ("a", "r", "p1", "p2"),
    7: ("a", "r", "p1", "p2"),
    8: ("b", "a", "p1", "p2"),
    9: ("a", "r", "p1", "p2"),
    10: ("a", "r", "p1", "p2"),
    11: ("b", "a", "r", "p1"),
    12: ("b", "p1", "p2", "p3"),
}

# Names of the special cards; plains are "<plant> plain", ribbons are described by colour.
_NAMES = {
    "1b": "Crane",
    "3b": "Curtain",
    "8b": "Moon",
    "11b": "Rain Man",
    "12b": "Phoenix",
    "2a": "Nightingale",
    "4a": "Cuckoo",
    "5a": "Bridge",
    "6a": "Butterflies",
    "7a": "Boar",
    "8a": "Geese",
    "9a": "Sake cup",
    "10a": "Deer",
    "11a": "Swallow",
    "11p1": "Lightning",
}

RED_POETRY_RIBBONS = frozenset({"1r", "2r", "3r"})
BLUE_RIBBONS = frozenset({"6r", "9r", "10r"})

_CODE = re.compile(r"(1[0-2]|[1-9])(b|a|r|p[1-3])")


@dataclass(frozen=True)
class Card:
    code: str
    month: int
    cls: str  # BRIGHT / ANIMAL / RIBBON / PLAIN

    @property
    def plant(self) -> str:
        return MONTH_PLANTS[self.month]

    @property
    def ribbon_colour(self) -> str | None:
        """``red poetry``, ``blue`` or ``red`` (plain red ribbon); None for non-ribbons."""
        if self.cls != RIBBON:
            return None
        if self.code in RED_POETRY_RIBBONS:
            return "red poetry"
        if self.code in BLUE_RIBBONS:
            return "blue"
        return "red"

    @property
    def name(self) -> str:
        if self.code in _NAMES:
            return _NAMES[self.code]
        if self.cls == RIBBON:
            return f"{self.plant} {self.ribbon_colour} ribbon"
        return f"{self.plant} plain"

    def __str__(self) -> str:
        return self.code


ALL_CARDS: tuple[str, ...] = tuple(f"{m}{k}" for m in range(1, 13) for k in _MONTH_CARDS[m])
_BY_CODE = {
    code: Card(
        code,
        int(_CODE.fullmatch(code).group(1)),
        _KIND_CLASS[code[-1] if code[-1] in "bar" else "p"],
    )  # type: ignore[union-attr]
    for code in ALL_CARDS
}


def card(code: str) -> Card:
    """The card for ``code``; ValueError if there is no such hanafuda card."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"{code!r} is not a hanafuda card") from None


def card_month(code: str) -> int:
    return card(code).month


def card_class(code: str) -> str:
    return card(code).cls


def parse_cards(text: str) -> list[str]:
    """Parse ``"1b 3b 11p1"`` or the compact ``"1b3b11p1"`` into card codes."""
    compact = "".join(text.split())
    out: list[str] = []
    pos = 0
    while pos < len(compact):
        m = _CODE.match(compact, pos)
        # Greedy month parsing would read "11b" as "1" + "1b"; prefer the longest valid code.
        if m is None or m.group(0) not in _BY_CODE:
            raise ValueError(f"cannot read a hanafuda card at {compact[pos:]!r}")
        out.append(m.group(0))
        pos = m.end()
    return out


def sort_cards(codes: Iterable[str]) -> list[str]:
    """Deck order: by month, then bright/animal/ribbon/plains."""
    return sorted(codes, key=ALL_CARDS.index)
