"""Variants of the strong Mah-Jongg level measured at stop 39 (bench only, none kept).

Each is a level function for ``python -m bench.mahjong_paired OUT DEALS SEED FIRST
bench.mahjong_stop39:NAME``; figures in ``docs/ai/mahjong.md`` (stop 39) and
``bench/results/arena/mahjong-strong-variants-stop39.json``. They read only the seat's
view (the standing hands they value are shown to everyone). Ratio 2.5 needs no code: the
style JSON ``'{"silent": 2.5}'``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.mahjong import ai
from bot.games.mahjong.scoring import PlayerHand, WinInfo, score_winner
from bot.games.mahjong.tiles import CODES, INDEX


def standing_value(view: Mapping[str, Any], p: int) -> int:
    """What seat ``p``'s standing hand scores if it wins on its called card from a discard
    (its hand, melds and seasons/flowers are shown)."""
    st = view["standing"][p]
    w = INDEX[st["card"]]
    conc = ai._counts(st["hand"])
    conc[w] += 1
    own, rnd = ai._winds(view, p)
    hand = PlayerHand(
        tuple(conc),
        tuple(ai._melds(view, p)),
        tuple(INDEX[e] for e in view["extras"][p]),
        own,
        rnd,
    )
    return score_winner(hand, WinInfo(self_drawn=False, tile=w, standing=True)).total


def _standing(view: Mapping[str, Any]) -> list[int]:
    seat = view["seat"]
    return [p for p, st in enumerate(view.get("standing") or []) if st and p != seat]


def _discards(legal: Sequence[str]) -> set[int]:
    return {INDEX[c.split()[1]] for c in legal if c.startswith("discard ")}


def race_odds(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """No standing call while the standing opponents' called cards have more live copies
    than the call's card (a locked hand throws their card when it draws it): the
    silent discard instead."""
    code = ai.play(view, legal, rng, ai.STRONG)
    if not code.startswith("declare "):
        return code
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    melds = ai._melds(view, seat)
    unseen = ai._unseen(view, seat, hand)
    opp = sum(unseen[INDEX[view["standing"][p]["card"]]] for p in _standing(view))
    if not opp or unseen[INDEX[code.split()[1]]] >= opp:
        return code
    allowed = ai._safe(view, seat, _discards(legal))
    quiet = ai._silent_discard(view, seat, hand, melds, unseen, allowed)
    if quiet is not None:
        return f"discard {CODES[quiet[1]]}"
    t = ai.best_discard(hand, len(melds), unseen, ai._value_tiles(view, seat), allowed)
    return f"discard {CODES[t]}"


def stop_the_big_hand(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """With two standing opponents and no discard leaving the hand ready: throw the called
    card of the cheaper one when the other's shown hand scores 60 more (its Mah-Jongg
    ends the hand before the big one's)."""
    code = ai.play(view, legal, rng, ai.STRONG)
    if view["phase"] != "discard" or not code.startswith("discard "):
        return code
    if view.get("pending_declare"):
        return code
    stand = _standing(view)
    if len(stand) < 2:
        return code
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    m = len(ai._melds(view, seat))
    allowed = _discards(legal)
    if min(ai._after(hand, m, t) for t in allowed) <= 0:
        return code
    vals = {p: standing_value(view, p) for p in stand}
    big = max(stand, key=lambda p: vals[p])
    card = {p: INDEX[view["standing"][p]["card"]] for p in stand}
    cands = [
        (vals[p], card[p])
        for p in stand
        if p != big and card[p] in allowed and card[p] != card[big] and vals[big] - vals[p] >= 60
    ]
    return f"discard {CODES[min(cands)[1]]}" if cands else code


_DEALER = dataclasses.replace(ai.STRONG, silent=1.0)
_OTHERS = dataclasses.replace(ai.STRONG, silent=2.5)
_SILENT_ANY = dataclasses.replace(ai.STRONG, silent=0.0)


def dealer_split(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Silent ratio 1.0 for the round player (paid double, keeps the deal), 2.5 for the
    others."""
    style = _DEALER if view["seat"] == view["round_player"] else _OTHERS
    return ai.play(view, legal, rng, style)


def _race_big(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, big: int) -> str:
    stand = _standing(view)
    if (
        view["phase"] == "discard"
        and not view.get("pending_declare")
        and stand
        and max(standing_value(view, p) for p in stand) >= big
    ):
        return ai.play(view, legal, rng, _SILENT_ANY)
    return ai.play(view, legal, rng, ai.STRONG)


def race_big_200(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Silent on any live wait (never lock) while a standing opponent's shown hand would
    score 200 or more."""
    return _race_big(view, legal, rng, 200)


def race_big_120(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The same from 120."""
    return _race_big(view, legal, rng, 120)
