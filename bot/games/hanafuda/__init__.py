"""The hanafuda deck shared by Koi-Koi and Mushi (pure: no discord, no PIL).

The art lives in :mod:`bot.games.hanafuda.render`.
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
