"""The hanafuda deck shared by Koi-Koi and Mushi (pure: no discord, no PIL).

What else both games share: dealing, deck checks and card wording in
:mod:`bot.games.hanafuda.deal`, controls helpers in :mod:`bot.games.hanafuda.ui`, and the
card art and table pieces in :mod:`bot.games.hanafuda.render`.
"""

from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BRIGHT,
    MONTH_PLANTS,
    PLAIN,
    RIBBON,
    Card,
    card,
    card_class,
    card_month,
    parse_cards,
    sort_cards,
)

__all__ = [
    "ALL_CARDS",
    "ANIMAL",
    "BRIGHT",
    "MONTH_PLANTS",
    "PLAIN",
    "RIBBON",
    "Card",
    "card",
    "card_class",
    "card_month",
    "parse_cards",
    "sort_cards",
]
