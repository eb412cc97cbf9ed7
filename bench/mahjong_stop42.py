"""Variants of the strong Mah-Jongg level measured at stop 42 (bench only).

Level functions for ``python -m bench.mahjong_paired OUT DEALS SEED FIRST
bench.mahjong_stop42:NAME``; figures in ``docs/ai/mahjong.md`` (stop 42). The search is
``bench/mahjong_search.py``; every variant reads only the seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bench import mahjong_search as search


def search_match(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Stop 41's search (close discards and the call) judging each simulated end by the
    seat's chance of winning the match, from the totals, instead of the hand's points."""
    return search.choose(view, legal, rng, objective="match")


def search_match_claims(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The same with claims near ready weighed too."""
    return search.choose(view, legal, rng, claims=True, objective="match")
