"""The 144 Mah-Jongg cards, their notation and their integer indices (pure).

Codes (docs/architecture.md): ``1b``..``9b`` bamboo, ``1c``..``9c`` characters, ``1d``..``9d`` dots;
winds ``E S W N``; dragons ``C`` red, ``F`` green, ``P`` white; flowers ``f1``..``f4``
(plum, orchid, chrysanthemum, bamboo); seasons ``s1``..``s4`` (spring..winter).

Internally a card is an index: 0-8 bamboo 1-9, 9-17 characters 1-9, 18-26 dots 1-9,
27-30 winds E S W N, 31-33 dragons C F P, 34-37 flowers, 38-41 seasons. A hand is an
array of 34 counts (extras never sit in a hand: they are laid out at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n.text import Text, commas, ntext

SUIT_LETTERS = ("b", "c", "d")
#: The suits' names (English values; each says itself in any locale with ``localize``).
SUIT_NAMES = (Text("Bamboo"), Text("Characters"), Text("Dots"))
WIND_CODES = ("E", "S", "W", "N")
#: The four winds as a seat, a round or a wind (``East round``, ``Ann East``).
WIND_NAMES = (Text("East"), Text("South"), Text("West"), Text("North"))
DRAGON_CODES = ("C", "F", "P")

NUM_KINDS = 34  # kinds that can be in a hand
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONOURS = WINDS + DRAGONS
FLOWERS = (34, 35, 36, 37)
SEASONS = (38, 39, 40, 41)
EXTRAS = FLOWERS + SEASONS
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = TERMINALS + HONOURS  # one of each terminal and honour: the 13 "strange" cards

CODES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in SUIT_LETTERS for n in range(1, 10))
    + WIND_CODES
    + DRAGON_CODES
    + tuple(f"f{i}" for i in range(1, 5))
    + tuple(f"s{i}" for i in range(1, 5))
)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}

#: The full set: four of each of the 34 kinds, one of each extra (144 cards).
FULL_SET: tuple[int, ...] = tuple(t for t in range(NUM_KINDS) for _ in range(4)) + EXTRAS


def is_suited(t: int) -> bool:
    return t < 27


def is_honour(t: int) -> bool:
    return 27 <= t < 34


def is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def is_extra(t: int) -> bool:
    return t >= 34


def suit_of(t: int) -> int:
    """0 bamboo, 1 characters, 2 dots (suited cards only)."""
    return t // 9


def number_of(t: int) -> int:
    """1..9 for suited cards."""
    return t % 9 + 1


def extra_wind(t: int) -> int:
    """The seat wind (0 E .. 3 N) an extra belongs to: f1/s1 East ... f4/s4 North."""
    return (t - 34) % 4


def tile(code: str) -> int:
    """Index of a card code; raises ValueError with a readable message."""
    try:
        return INDEX[code.strip()]
    except KeyError:
        raise ValueError(
            Text("`{code}` is not a Mah-Jongg card (try 5d, 9b, E, C, f1...).", code=code)
        ) from None


def tiles(codes: str | Iterable[str]) -> list[int]:
    if isinstance(codes, str):
        codes = codes.split()
    return [tile(c) for c in codes]


def code(t: int) -> str:
    return CODES[t]


def codes(ts: Iterable[int]) -> list[str]:
    return [CODES[t] for t in ts]


def _suited_name(t: int) -> Text:
    """``1 Dot``, ``5 Dots``, ``3 Bamboo``: the number of symbols and the suit (a plural:
    one Dot, never ``1 Dots``)."""
    n, suit = number_of(t), suit_of(t)
    if suit == 0:
        return Text("{n} Bamboo", n=n)
    if suit == 1:
        return ntext("{n} Character", "{n} Characters", n)
    return ntext("{n} Dot", "{n} Dots", n)


#: Every card's readable name, built once (a Text: English, localised when shown).
NAMES: tuple[Text, ...] = (
    tuple(_suited_name(t) for t in range(27))
    + (Text("East wind"), Text("South wind"), Text("West wind"), Text("North wind"))
    + (Text("Red dragon"), Text("Green dragon"), Text("White dragon"))
    + (
        Text("Plum (flower)"),
        Text("Orchid (flower)"),
        Text("Chrysanthemum (flower)"),
        Text("Bamboo blossom (flower)"),
    )
    + (
        Text("Spring (season)"),
        Text("Summer (season)"),
        Text("Autumn (season)"),
        Text("Winter (season)"),
    )
)


def name(t: int) -> Text:
    """A readable name: ``5 Dots``, ``East wind``, ``Red dragon``, ``Plum (flower)``."""
    return NAMES[t]


def code_name(code_: str) -> Text:
    """The readable name of a card code: ``5d`` -> ``5 Dots``."""
    return NAMES[tile(code_)]


def run_name(low: int) -> Text:
    """A chow by its numbers and suit: ``3-4-5 Characters`` (``low``: its lowest card)."""
    n = number_of(low)
    return Text(
        "{low}-{mid}-{high} {suit}", low=n, mid=n + 1, high=n + 2, suit=SUIT_NAMES[suit_of(low)]
    )


def hand_text(ts: Iterable[int]) -> str:
    """Cards shown to everyone, by name and grouped: ``2 3 Bamboo, 5 5 8 8 8 Dots, South
    wind, South wind`` (numbers of a suit together, honours by name; sorted)."""
    ordered = sorted(ts)
    parts: list[str] = []
    for suit in range(3):
        numbers = [number_of(t) for t in ordered if is_suited(t) and suit_of(t) == suit]
        if numbers:
            parts.append(
                Text("{numbers} {suit}", numbers=" ".join(map(str, numbers)), suit=SUIT_NAMES[suit])
            )
    parts += [NAMES[t] for t in ordered if not is_suited(t)]
    return commas(parts)


def counts_of(ts: Iterable[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in ts:
        c[t] += 1
    return c


def expand(counts: Sequence[int]) -> list[int]:
    """The sorted cards of a count array."""
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def sort_key(code_: str) -> int:
    return INDEX[code_]
