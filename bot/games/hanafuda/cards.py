"""The 48 hanafuda cards and their notation.

A card code is the month (1..12) followed by its kind: ``b`` bright, ``a`` animal,
``r`` ribbon, ``pN`` the Nth plain — ``1b`` Crane, ``9a`` Sake cup, ``11p1`` lightning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from bot.i18n import Text

BRIGHT, ANIMAL, RIBBON, PLAIN = "bright", "animal", "ribbon", "plain"
CLASS_ORDER = (BRIGHT, ANIMAL, RIBBON, PLAIN)
_KIND_CLASS = {"b": BRIGHT, "a": ANIMAL, "r": RIBBON, "p": PLAIN}

#: The plant of each month (a :class:`~bot.i18n.Text`: its English, said in any locale).
MONTH_PLANTS = {
    1: Text("Pine"),
    2: Text("Plum"),
    3: Text("Cherry"),
    4: Text("Wisteria"),
    5: Text("Iris"),
    6: Text("Peony"),
    7: Text("Bush clover"),
    8: Text("Pampas grass"),
    9: Text("Chrysanthemum"),
    10: Text("Maple"),
    11: Text("Willow"),
    12: Text("Paulownia"),
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

# Every card's name, written out so that each is a message of the catalogs (its own words in
# every language: 松に鶴, 송학 광). The specials have names of their own; ribbons are named by
# their plant and colour, plains by their plant.
_NAMES = {
    "1b": Text("Crane"),
    "3b": Text("Curtain"),
    "8b": Text("Moon"),
    "11b": Text("Rain Man"),
    "12b": Text("Phoenix"),
    "2a": Text("Nightingale"),
    "4a": Text("Cuckoo"),
    "5a": Text("Bridge"),
    "6a": Text("Butterflies"),
    "7a": Text("Boar"),
    "8a": Text("Geese"),
    "9a": Text("Sake cup"),
    "10a": Text("Deer"),
    "11a": Text("Swallow"),
    "11p1": Text("Lightning"),
    "1r": Text("Pine red poetry ribbon"),
    "2r": Text("Plum red poetry ribbon"),
    "3r": Text("Cherry red poetry ribbon"),
    "4r": Text("Wisteria red ribbon"),
    "5r": Text("Iris red ribbon"),
    "6r": Text("Peony blue ribbon"),
    "7r": Text("Bush clover red ribbon"),
    "9r": Text("Chrysanthemum blue ribbon"),
    "10r": Text("Maple blue ribbon"),
    "11r": Text("Willow red ribbon"),
}
_PLAIN_NAMES = {
    1: Text("Pine plain"),
    2: Text("Plum plain"),
    3: Text("Cherry plain"),
    4: Text("Wisteria plain"),
    5: Text("Iris plain"),
    6: Text("Peony plain"),
    7: Text("Bush clover plain"),
    8: Text("Pampas grass plain"),
    9: Text("Chrysanthemum plain"),
    10: Text("Maple plain"),
    12: Text("Paulownia plain"),
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
    def plant(self) -> Text:
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
    def name(self) -> Text:
        """``Crane``, ``Pine red poetry ribbon``, ``Pine plain`` (a Text)."""
        return _NAMES.get(self.code) or _PLAIN_NAMES[self.month]

    def __str__(self) -> str:
        return self.code


ALL_CARDS: tuple[str, ...] = tuple(f"{m}{k}" for m in range(1, 13) for k in _MONTH_CARDS[m])
_BY_CODE = {
    code: Card(
        code,
        int(_CODE.fullmatch(code).group(1)),  # type: ignore[union-attr]  # (every code matches)
        _KIND_CLASS[code[-1] if code[-1] in "bar" else "p"],
    )
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


_PLAIN_CODE = re.compile(r"(1[0-2]|[1-9])p[1-3]")


def answer_key(code: str) -> str:
    """An action code with every plain named by its month only (``take 1p2`` → ``take 1p``):
    the plains of a month are interchangeable in every rule of Koi-Koi and Mushi (no yaku
    or combination tells them apart; November's only plain stays unique), so choosing one
    or the other is the same answer."""
    return " ".join(
        word[: word.index("p") + 1] if _PLAIN_CODE.fullmatch(word) else word
        for word in code.split()
    )
