"""Baseline players for the arena (bench only): ``random`` and a ``greedy`` per game.

A greedy player is what a hobbyist writes in an evening: it looks at this move alone.
Koi-Koi and Mushi capture the most valuable cards (else lay the cheapest card) and stop as
soon as they score; Panda plays the lowest combination that wins the trick; San Da Yi wins
the trick as cheaply as it can (else throws its cheapest card); Mah-Jongg discards to
minimise shanten and goes out whenever it can. Each reads only the seat's view, like the AI.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

View = Mapping[str, Any]
Level = Callable[[View, Sequence[str], random.Random], str]


def random_level(view: View, legal: Sequence[str], rng: random.Random) -> str:
    """Uniformly random among the legal actions (out of turn: nothing, mostly)."""
    if view.get("seat") not in view.get("to_act", [view.get("seat")]) and rng.random() < 0.95:
        return ""
    return rng.choice(list(legal))


# ----- hanafuda ----------------------------------------------------------------------------


def _hanafuda_greedy(
    view: View, legal: Sequence[str], worth: Callable[[str], int], table_key: str
) -> str:
    if "stop" in legal:
        return "stop"
    takes = [c for c in legal if c.startswith("take ")]
    if takes:
        return max(takes, key=lambda c: worth(c.split()[1]))
    plays = [c for c in legal if c.startswith("play ")]
    if not plays:
        return legal[0]
    table = view[table_key]
    month = _month_of(view["game"])

    def gain(code: str) -> int:
        words = code.split()
        card = words[1]
        if len(words) == 3:
            return worth(card) + worth(words[2])
        same = [c for c in table if month(c) == month(card)]
        return worth(card) + sum(worth(c) for c in same) if same else -worth(card) - 100

    return max(plays, key=gain)


def _month_of(game: str) -> Callable[[str], int]:
    if game == "mushi":
        from bot.games.mushi.rules import MONTH
    else:
        from bot.games.koikoi.rules import MONTH
    return MONTH.__getitem__


def koikoi_greedy(view: View, legal: Sequence[str], rng: random.Random) -> str:
    from bot.games.koikoi.rules import card_value

    return _hanafuda_greedy(view, legal, card_value, "board")


def mushi_greedy(view: View, legal: Sequence[str], rng: random.Random) -> str:
    from bot.games.mushi.rules import WILD, card_points

    plays = [c for c in legal if c != "cancel"] or list(legal)
    # The wild's own worth is small, but it takes any card: value it by its best target.
    return _hanafuda_greedy(view, plays, lambda c: 0 if c == WILD else card_points(c), "table")


# ----- Panda -------------------------------------------------------------------------------


def panda_greedy(view: View, legal: Sequence[str], rng: random.Random) -> str:
    from bot.games.panda.combos import classify

    if view["seat"] not in view["to_act"]:
        return ""  # never an Ambush nor a call out of turn
    plays = [c for c in legal if c.startswith("play ")]
    if plays:

        def low(code: str) -> tuple[int, float, int]:
            combo = classify(code.split()[1:])
            value = combo.value if combo is not None else 99.0
            # The lowest winning combination; among equals, the one shedding most cards.
            return (0 if combo is None or "bomb" not in combo.kind else 1, value, -len(code))

        return min(plays, key=low)
    calmer = [c for c in legal if c != "call"]
    return (calmer or list(legal))[0]


# ----- San Da Yi ---------------------------------------------------------------------------


def sandayi_greedy(view: View, legal: Sequence[str], rng: random.Random) -> str:
    from bot.games.sandayi.cards import group, points, trick_strength

    if "pass" in legal:
        return "pass"
    verb = legal[0].split()[0]
    if verb == "bid":
        return legal[0]  # the lowest bid (the last bidder cannot pass)
    if verb == "trump":
        hand = view["hand"]
        return max(legal, key=lambda c: sum(card.endswith(c.split()[1]) for card in hand))
    if verb == "bury":
        return min(legal, key=lambda c: (points(c.split()[1]), c))
    if verb != "play":
        return legal[0]
    trump = view.get("trump") or ""
    trick = [t["card"] for t in view.get("trick") or []]
    cards = [c.split()[1] for c in legal]
    if not trick:
        # Leading: the cheapest card (no points to give away).
        return "play " + min(cards, key=lambda c: (points(c), trick_strength(c, trump, "x")))
    led = group(trick[0], trump)
    best = max(trick_strength(c, trump, led) for c in trick)
    winners = [c for c in cards if trick_strength(c, trump, led) > best]
    if winners:
        return "play " + min(winners, key=lambda c: trick_strength(c, trump, led))
    return "play " + min(cards, key=lambda c: (points(c), trick_strength(c, trump, led)))


# ----- Mah-Jongg ---------------------------------------------------------------------------


def mahjong_greedy(view: View, legal: Sequence[str], rng: random.Random) -> str:
    from bot.games.mahjong.hand import shanten
    from bot.games.mahjong.tiles import INDEX, NUM_KINDS, counts_of

    if "mahjong" in legal:
        return "mahjong"
    discards = [c for c in legal if c.startswith("discard ")]
    if not discards:
        return "pass" if "pass" in legal else legal[0]
    hand = list(view["hand"] or [])  # the drawn card included
    melds = len(view["melds"][view["seat"]])

    def after(code: str) -> int:
        rest = list(hand)
        rest.remove(code.split()[1])
        return shanten(counts_of(INDEX[c] for c in rest if INDEX[c] < NUM_KINDS), melds)

    return min(discards, key=after)


GREEDY: dict[str, Level] = {
    "koikoi": koikoi_greedy,
    "mushi": mushi_greedy,
    "panda": panda_greedy,
    "sandayi": sandayi_greedy,
    "mahjong": mahjong_greedy,
}

__all__ = ["GREEDY", "Level", "random_level"]
