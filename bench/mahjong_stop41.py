"""Variants of the strong Mah-Jongg level measured at stop 41 (bench only).

Each is a level function for ``python -m bench.mahjong_paired OUT DEALS SEED FIRST
bench.mahjong_stop41:NAME``; figures in ``docs/ai/mahjong.md`` (stop 41). The search is
``bench/mahjong_search.py``; every variant reads only the seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bench import mahjong_search as search
from bot.games.mahjong import ai


def search_full(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Strong with its close discard decisions searched: which card when ready or one card
    from ready, and a standing hand or silence."""
    return search.choose(view, legal, rng)


def search_wait(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The same search, weighing only which card to throw: strong's own call (a standing
    hand or silence, by its 1.5 ratio) stands."""
    return search.choose(view, legal, rng, calls=False)


def search_claims(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The whole search: close discards, the call, and claims near ready (pass or claim)."""
    return search.choose(view, legal, rng, claims=True)


def search_wait_claims(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Which card to throw and claims near ready; strong's own call stands."""
    return search.choose(view, legal, rng, calls=False, claims=True)


def _leading(view: Mapping[str, Any]) -> bool:
    """The seat's match total is the highest at the table (before any hand: no)."""
    history = view.get("history") or []
    if not history:
        return False
    totals = history[-1]["totals"]
    seat = view["seat"]
    return bool(totals[seat] >= max(t for p, t in enumerate(totals) if p != seat))


def search_behind(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The search (discards and the call) only while the seat does not lead the match
    (its points turn matches only when behind); strong's own play while leading."""
    if _leading(view):
        return ai.play(view, legal, rng, ai.STRONG)
    return search.choose(view, legal, rng)
