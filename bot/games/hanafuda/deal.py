"""What Koi-Koi and Mushi share around a deal: decks, dealing and card wording (pure).

Both games deal 8 cards to each player and 8 to the field from a hanafuda deck (Koi-Koi
the whole 48, Mushi 40 of them), name cards the same way in buttons and event texts, and
accept stacked decks for tests in the same notation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.rng import make_rng, shuffled
from bot.games.hanafuda.cards import card, parse_cards
from bot.i18n import Text
from bot.i18n.text import commas, fold

HAND_SIZE = 8
FIELD_SIZE = 8


# ----- card wording ----------------------------------------------------------------------------
# Names are Texts (bot.i18n): English as they stand, said in a player's language when shown.
# Joined lists are built of small templates (``{a} and {b}``) so each language joins its way.

# The specials whose name does not say their plant carry their month in a label.
_LABELS = {
    "1b": Text("Crane (Jan)"),
    "2a": Text("Nightingale (Feb)"),
    "3b": Text("Curtain (Mar)"),
    "4a": Text("Cuckoo (Apr)"),
    "5a": Text("Bridge (May)"),
    "6a": Text("Butterflies (Jun)"),
    "7a": Text("Boar (Jul)"),
    "8b": Text("Moon (Aug)"),
    "8a": Text("Geese (Aug)"),
    "9a": Text("Sake cup (Sep)"),
    "10a": Text("Deer (Oct)"),
    "11b": Text("Rain Man (Nov)"),
    "11a": Text("Swallow (Nov)"),
    "11p1": Text("Lightning (Nov)"),
    "12b": Text("Phoenix (Dec)"),
}


def card_label(code: str) -> Text:
    """A player-readable card name: ``Crane (Jan)``, ``Pine plain``, ``Sake cup (Sep)``."""
    c = card(code)
    return _LABELS.get(code) or c.name


def card_text(code: str) -> Text:
    """A card in event texts, prompts and refusals: its readable name, as on the buttons
    (``Curtain (Mar)``, ``Cherry plain``) — people read names, never card codes."""
    return card_label(code)


def _and(a: str, b: str) -> Text:
    return Text("{a} and {b}", context="hanafuda", a=a, b=b)


def _or(a: str, b: str) -> Text:
    return Text("{a} or {b}", context="hanafuda", a=a, b=b)


def join_and(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (a Text when there are several)."""
    if len(parts) <= 1:
        return fold(parts, _and)
    return commas([*parts[:-2], _and(parts[-2], parts[-1])])


def join_or(parts: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` (alternatives to choose from)."""
    if len(parts) <= 1:
        return fold(parts, _or)
    return commas([*parts[:-2], _or(parts[-2], parts[-1])])


def chain_and(parts: Sequence[str]) -> str:
    """``a and b and c`` (every pair joined by "and")."""
    return fold(parts, _and)


def chain_or(parts: Sequence[str]) -> str:
    """``a or b or c``."""
    return fold(parts, _or)


def chain_plus(parts: Sequence[str]) -> str:
    """``a + b + c``."""
    return fold(parts, lambda a, b: Text("{a} + {b}", context="hanafuda", a=a, b=b))


def chain_semicolon(parts: Sequence[str]) -> str:
    """``a; b; c``."""
    return fold(parts, lambda a, b: Text("{a}; {b}", context="hanafuda", a=a, b=b))


def describe_action(code: str, label: Callable[[str], str], verb_labels: Mapping[str, str]) -> str:
    """A short button label for an action code.

    ``play``/``take`` codes name their cards with ``label``; other verbs read from
    ``verb_labels``; a code that names no known card or verb is shown as it is.
    """
    verb, *args = code.split() or [""]
    try:
        if verb == "play" and len(args) == 1:
            return label(args[0])
        if verb == "play" and len(args) == 2:
            return Text("{card} → takes {target}", card=label(args[0]), target=label(args[1]))
        if verb == "take" and len(args) == 1:
            return Text("Take {card}", card=label(args[0]))
    except (ValueError, KeyError):
        return code
    return verb_labels.get(verb, code)


def explain_flip_choice(
    flipped_text: str, options: Sequence[str], options_text: str, *, tried_take: bool
) -> str:
    """Why an action is illegal while a flipped card waits for its player to pick a target."""
    choices = chain_or([f"`take {t}`" for t in options])
    if tried_take:
        return Text(
            "You flipped {card}; it can only take {options}: {choices}.",
            card=flipped_text,
            options=options_text,
            choices=choices,
        )
    return Text(
        "You flipped {card}: first choose what it takes, {choices}.",
        card=flipped_text,
        choices=choices,
    )


# ----- decks and dealing -------------------------------------------------------------------------


def parse_decks(
    deck: Any, full_deck: Sequence[str], requirement: str, unknown_word: str = "unknown"
) -> list[tuple[str, ...]]:
    """Accept one deck (codes, or a string of codes) or a list of decks; validate each.

    Each deck must hold every card of ``full_deck`` exactly once; otherwise ValueError with
    ``requirement`` followed by what is missing, repeated and ``unknown_word``.
    """
    if deck is None:
        return []
    known = frozenset(full_deck)
    if isinstance(deck, str):
        decks: list[Any] = [deck]
    else:
        deck = list(deck)
        if deck and all(isinstance(c, str) and c in known for c in deck):
            decks = [deck]
        else:
            decks = deck
    out = []
    for d in decks:
        codes = parse_cards(d) if isinstance(d, str) else list(d)
        counts = Counter(codes)
        missing = [c for c in full_deck if c not in counts]
        repeated = sorted(c for c, n in counts.items() if n > 1)
        unknown = [c for c in counts if c not in known]
        if missing or repeated or unknown:
            raise ValueError(
                f"{requirement} (missing: {missing or 'none'}, repeated: {repeated or 'none'},"
                f" {unknown_word}: {unknown or 'none'})."
            )
        out.append(tuple(codes))
    return out


def next_deck(
    stacked: list[tuple[str, ...]], cards: Sequence[str], seed: int | str, deal_no: int
) -> tuple[str, ...]:
    """The next stacked deck (taken off ``stacked``), else ``cards`` shuffled for this deal."""
    if stacked:
        return stacked.pop(0)
    return tuple(shuffled(cards, make_rng(seed, "deal", deal_no)))


@dataclass(frozen=True)
class Deal:
    """A deck dealt out: each seat's hand, the field (board/table) and the stock."""

    hands: list[list[str]]
    field: list[str]
    stock: list[str]  # the top card last, so pop() flips it


def deal_out(deck: Sequence[str], first: int) -> Deal:
    """8 cards to ``first``, 8 to the other seat, 8 face up; the rest is the stock."""
    hands: list[list[str]] = [[], []]
    hands[first] = list(deck[:HAND_SIZE])
    hands[1 - first] = list(deck[HAND_SIZE : 2 * HAND_SIZE])
    field_end = 2 * HAND_SIZE + FIELD_SIZE
    return Deal(hands, list(deck[2 * HAND_SIZE : field_end]), list(reversed(deck[field_end:])))
