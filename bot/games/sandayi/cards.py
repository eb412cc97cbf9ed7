"""The 54 San Da Yi cards, their notation, trump groups, trick order and points.

A card code is a rank ``2 3 … 10 J Q K A`` followed by a suit ``S H D C`` (``10H``, ``QS``);
the jokers are ``BJ`` (big) and ``SJ`` (small). Pure: imports neither discord nor PIL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.i18n.text import Text

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BIG_JOKER, SMALL_JOKER = "BJ", "SJ"
JOKERS: tuple[str, ...] = (BIG_JOKER, SMALL_JOKER)

#: The deck in canonical order (suit by suit, 2 up to A, then the jokers).
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (SMALL_JOKER, BIG_JOKER)
DECK_INDEX: dict[str, int] = {c: i for i, c in enumerate(DECK)}

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME: dict[str, str] = {
    "S": Text("Spades"),
    "H": Text("Hearts"),
    "D": Text("Diamonds"),
    "C": Text("Clubs"),
}
#: The suit names inside a sentence ("with spades as trump").
SUIT_NAME_LOWER: dict[str, str] = {
    "S": Text("spades"),
    "H": Text("hearts"),
    "D": Text("diamonds"),
    "C": Text("clubs"),
}
JOKER_NAME: dict[str, str] = {BIG_JOKER: Text("Big joker"), SMALL_JOKER: Text("Small joker")}
RED_SUITS = frozenset({"H", "D"})

#: Rank order inside a plain suit (and inside the trump suit below the 2s): 3 low, A high.
PLAIN_RANK_VALUE = {r: i for i, r in enumerate(RANKS[1:], start=3)}  # 3→3 … A→14

#: Point cards (rule 14): 5 = 5, 10 = 10, K = 10; the deck holds 100 points.
RANK_POINTS = {"5": 5, "10": 10, "K": 10}

TRUMP_GROUP = "T"  # the "suit" of every trump when following (rule 12)

_CODE = re.compile(r"^(?:(10|[2-9JQKA])([SHDC])|BJ|SJ)$")


def is_card(code: str) -> bool:
    return bool(_CODE.match(code))


def _rank(card: str) -> str:
    return "" if card in JOKERS else card[:-1]


def _suit(card: str) -> str:
    return "" if card in JOKERS else card[-1]


# The deck's cards looked up, not sliced: the strong AI's playouts ask these questions
# hundreds of thousands of times a match. Other strings fall back to the computation.
_RANK: dict[str, str] = {c: _rank(c) for c in DECK}
_SUIT: dict[str, str] = {c: _suit(c) for c in DECK}
_POINTS: dict[str, int] = {c: RANK_POINTS.get(_rank(c), 0) for c in DECK}
_GROUP: dict[str | None, dict[str, str]] = {
    t: {
        c: TRUMP_GROUP if c in JOKERS or _rank(c) == "2" or _suit(c) == t else _suit(c)
        for c in DECK
    }
    for t in (*SUITS, None)
}


def rank(card: str) -> str:
    """The rank of a suited card ('' for a joker)."""
    r = _RANK.get(card)
    return _rank(card) if r is None else r


def suit(card: str) -> str:
    """The suit letter of a suited card ('' for a joker)."""
    s = _SUIT.get(card)
    return _suit(card) if s is None else s


def points(card: str) -> int:
    p = _POINTS.get(card)
    return RANK_POINTS.get(rank(card), 0) if p is None else p


def cards_points(cards: Iterable[str]) -> int:
    return sum(points(c) for c in cards)


def is_trump(card: str, trump: str | None) -> bool:
    """Jokers and every 2 are always trumps (rule 9); so is every card of the trump suit."""
    return group(card, trump) == TRUMP_GROUP


def group(card: str, trump: str | None) -> str:
    """The "suit" a card belongs to for following: ``T`` (trump group) or its plain suit."""
    g = _GROUP.get(trump, {}).get(card)
    if g is not None:
        return g
    trumps = card in JOKERS or rank(card) == "2" or (trump is not None and suit(card) == trump)
    return TRUMP_GROUP if trumps else suit(card)


def trick_strength(card: str, trump: str, led_group: str) -> int:
    """Rule 10's order as a number: higher beats lower; equal numbers are equal cards.

    Big joker > small joker > trump-suit 2 > the other 2s (equal) > trump A … 3 > cards of
    the led plain suit A … 3 > anything else (0: another plain suit never wins).
    """
    if card == BIG_JOKER:
        return 100
    if card == SMALL_JOKER:
        return 99
    r, s = card[:-1], card[-1]
    if r == "2":
        return 98 if s == trump else 97
    if s == trump:
        return 80 + PLAIN_RANK_VALUE[r]
    if s == led_group:
        return 40 + PLAIN_RANK_VALUE[r]
    return 0


def trick_winner_index(cards: list[str], trump: str) -> int:
    """Index of the card that wins a trick; between equal cards the first played wins."""
    led = group(cards[0], trump)
    best, best_strength = 0, trick_strength(cards[0], trump, led)
    for i, card in enumerate(cards[1:], start=1):
        strength = trick_strength(card, trump, led)
        if strength > best_strength:
            best, best_strength = i, strength
    return best


def display_key(card: str, trump: str | None = None) -> tuple[int, int]:
    """Sort key for showing a hand: trumps first (strongest first), then the plain suits
    in alternating colours ♠ ♥ ♣ ♦, each from A down to 3."""
    if is_trump(card, trump):
        if card == BIG_JOKER:
            return (0, 0)
        if card == SMALL_JOKER:
            return (0, 1)
        if rank(card) == "2":
            return (0, 2 if suit(card) == trump else 3 + SUITS.index(suit(card)))
        return (0, 100 - PLAIN_RANK_VALUE[rank(card)])
    order = {"S": 1, "H": 2, "C": 3, "D": 4}[suit(card)]
    return (order, 100 - PLAIN_RANK_VALUE[rank(card)])


def sort_for_display(cards: Iterable[str], trump: str | None = None) -> list[str]:
    return sorted(cards, key=lambda c: display_key(c, trump))


def sort_canonical(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=lambda c: DECK_INDEX.get(c, len(DECK)))


def label(card: str) -> str:
    """A short readable label: ``Q♠``, ``10♥``, ``Big joker`` (the jokers' names are
    :class:`~bot.i18n.text.Text`: said in each player's language; ranks and suit symbols
    read the same everywhere)."""
    joker = JOKER_NAME.get(card)
    if joker is not None:
        return joker
    return rank(card) + SUIT_SYMBOL[suit(card)]


def card_list(cards: Iterable[str]) -> str:
    """The cards' labels separated by spaces (``Q♠ 10♥ Big joker``): a plain string, or a
    :class:`~bot.i18n.text.Text` around the jokers' names when the list holds a joker."""
    cards = list(cards)
    labels = [str(label(c)) for c in cards]
    jokers = [i for i, c in enumerate(cards) if c in JOKERS]
    if not jokers:
        return " ".join(labels)

    def part(i: int, j: int, before: bool) -> str:
        words = " ".join(labels[i:j])
        return "" if not words else words + " " if before else " " + words

    first = jokers[0]
    before, after = part(0, first, True), part(jokers[-1] + 1, len(cards), False)
    if len(jokers) == 1:
        if cards[first] == BIG_JOKER:
            return Text("{before}Big joker{after}", before=before, after=after)
        return Text("{before}Small joker{after}", before=before, after=after)
    middle = " " + " ".join(labels[first + 1 : jokers[1]] + [""])
    if cards[first] == BIG_JOKER:
        return Text(
            "{before}Big joker{middle}Small joker{after}",
            before=before,
            middle=middle,
            after=after,
        )
    return Text(
        "{before}Small joker{middle}Big joker{after}", before=before, middle=middle, after=after
    )


def diamond_bidding_order() -> list[str]:
    """Diamonds from the lowest up, in play order (3 … A, then the 2, which is a trump):
    the first of these in a hand bids first in hand 1 (rule 3, R)."""
    return [r + "D" for r in RANKS[1:]] + ["2D"]
