"""Variants of the strong Mah-Jongg level measured at stop 40 (bench only, none kept).

Each is a level function for ``python -m bench.mahjong_paired OUT DEALS SEED FIRST
bench.mahjong_stop40:NAME``; figures in ``docs/ai/mahjong.md`` (stop 40) and
``bench/results/arena/mahjong-strong-variants-stop40.json``. They read only
the seat's view (its own hand, the table's melds, rivers and shown standing hands).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.mahjong import ai
from bot.games.mahjong.hand import shanten
from bot.games.mahjong.scoring import PlayerHand, WinInfo, mahjong_waits, score_winner
from bot.games.mahjong.tiles import CODES, INDEX

_CALL = dataclasses.replace(ai.STRONG, silent=None)


def _discards(legal: Sequence[str]) -> set[int]:
    return {INDEX[c.split()[1]] for c in legal if c.startswith("discard ")}


def _win_total(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    d: int,
    w: int,
    standing: bool,
) -> int:
    """What this seat scores winning on ``w`` from a discard after throwing ``d``."""
    own, rnd = ai._winds(view, seat)
    c = list(hand)
    c[d] -= 1
    c[w] += 1
    ph = PlayerHand(tuple(c), tuple(melds), tuple(INDEX[e] for e in view["extras"][seat]), own, rnd)
    return score_winner(ph, WinInfo(self_drawn=False, tile=w, standing=standing)).total


def call_values(
    view: Mapping[str, Any], legal: Sequence[str], w: int
) -> tuple[int, float, int, int, float] | None:
    """For a standing call on ``w``: (its live cards, what the called hand scores, the
    silent discard, its live waits, what the silent hand scores on average over them);
    None when no safe discard leaves a silent wait."""
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    melds = ai._melds(view, seat)
    unseen = ai._unseen(view, seat, hand)
    allowed = ai._safe(view, seat, _discards(legal))
    quiet = ai._silent_discard(view, seat, hand, melds, unseen, allowed)
    if quiet is None:
        return None
    t_call = max(
        (
            _win_total(view, seat, hand, melds, d, w, True)
            for d in allowed
            if ai._standing_after(view, seat, hand, melds, d, w)
        ),
        default=0,
    )
    live_q, q = quiet
    own, rnd = ai._winds(view, seat)
    hand[q] -= 1
    waits = [
        x for x in mahjong_waits(hand, melds, own, rnd, all(mc for _, _, mc in melds)) if unseen[x]
    ]
    hand[q] += 1
    t_silent = sum(
        unseen[x] * _win_total(view, seat, hand, melds, q, x, False) for x in waits
    ) / max(1, sum(unseen[x] for x in waits))
    return unseen[w], float(t_call), q, live_q, t_silent


def _value_call(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, k: float) -> str:
    """Call a standing hand or stay silent by live cards times what each wins: silent when
    live_silent × (T_silent + P) ≥ k × live_call × (T_call + P), P the payments (24, 48 for
    the round player). The +100 of a call is worth 100 × the hand's multipliers."""
    code = ai.play(view, legal, rng, _CALL)
    if not code.startswith("declare "):
        return code
    vals = call_values(view, legal, INDEX[code.split()[1]])
    if vals is None:
        return code
    live_w, t_call, q, live_q, t_silent = vals
    pay = 48 if view["seat"] == view["round_player"] else 24
    if live_q * (t_silent + pay) >= k * live_w * (t_call + pay):
        return f"discard {CODES[q]}"
    return code


def value_call_40(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Value-aware call with k = 0.40 (silent about as often as the 1.5 ratio: 58 % of
    the calls strong weighs, on 12 deals of seed 7)."""
    return _value_call(view, legal, rng, 0.40)


def _lost(view: Mapping[str, Any], hand: list[int], m: int, far: int, wall: int) -> bool:
    """The hand is lost: ``far`` or more cards from ready while an opponent stands, or
    with ``wall`` cards or fewer left in the live wall."""
    seat = view["seat"]
    standing = any(st and p != seat for p, st in enumerate(view.get("standing") or []))
    return shanten(hand, m) >= far and (standing or view.get("wall", 0) <= wall)


def lost_pungs(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """When the hand is lost (2+ cards from ready while an opponent stands, or 20 wall
    cards left), claim every pung and kong offered: a melded group scores for a losing
    hand (2-5, a kong 8-16, with its multipliers), a pair does not."""
    if view["phase"] == "claim":
        code = ai.play(view, legal, rng, ai.STRONG)
        if code != "pass":
            return code
        seat = view["seat"]
        hand = ai._counts(view["hand"])
        t = INDEX[view["claim"]["card"]]
        if _lost(view, hand, len(ai._melds(view, seat)), 2, 20):
            for verb, need in (("kong", 3), ("pung", 2)):
                if verb in legal and hand[t] >= need:
                    return verb
        return code
    return ai.play(view, legal, rng, ai.STRONG)


def _silent_total(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    unseen: list[int],
    q: int,
) -> tuple[int, float]:
    """Throwing ``q``: the live cards the hand then waits on, and what it scores on average
    winning on one of them from a discard (0, 0.0 if it does not wait)."""
    own, rnd = ai._winds(view, seat)
    hand[q] -= 1
    waits = [
        x
        for x in mahjong_waits(hand, melds, own, rnd, all(mc for _, _, mc in melds))
        if unseen[x] and x != q
    ]
    hand[q] += 1
    live = sum(unseen[x] for x in waits)
    if not live:
        return 0, 0.0
    total = sum(unseen[x] * _win_total(view, seat, hand, melds, q, x, False) for x in waits)
    return live, total / live


def value_discards(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Strong, with ties that cost no speed broken by what the hand scores: the discard
    that goes with a standing call is the one whose standing hand scores most, and a
    discard that leaves the hand ready is swapped for one that waits on as many live
    cards and scores more on average."""
    code = ai.play(view, legal, rng, ai.STRONG)
    if view["phase"] != "discard" or not code.startswith("discard "):
        return code
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    melds = ai._melds(view, seat)
    allowed = ai._safe(view, seat, _discards(legal))
    pending = view.get("pending_declare")
    if pending is not None:
        w = INDEX[pending]
        cands = [d for d in allowed if ai._standing_after(view, seat, hand, melds, d, w)]
        if len(cands) < 2:
            return code
        best = max(cands, key=lambda d: (_win_total(view, seat, hand, melds, d, w, True), -d))
        cur = INDEX[code.split()[1]]
        if cur in cands and _win_total(view, seat, hand, melds, cur, w, True) >= _win_total(
            view, seat, hand, melds, best, w, True
        ):
            return code
        return f"discard {CODES[best]}"
    unseen = ai._unseen(view, seat, hand)
    cur = INDEX[code.split()[1]]
    live, value = _silent_total(view, seat, hand, melds, unseen, cur)
    if not live:
        return code
    best_d, best_v = cur, value
    for d in sorted(allowed):
        if d == cur:
            continue
        lv, v = _silent_total(view, seat, hand, melds, unseen, d)
        if lv == live and v > best_v:
            best_d, best_v = d, v
    return f"discard {CODES[best_d]}"


def _strong_free_discard(
    view: Mapping[str, Any], legal: Sequence[str], rng: random.Random
) -> tuple[str, bool]:
    """Strong's action, and whether it is a discard a variant may swap (a discard turn's,
    not the one that goes with a standing call)."""
    code = ai.play(view, legal, rng, ai.STRONG)
    free = view["phase"] == "discard" and code.startswith("discard ")
    return code, free and view.get("pending_declare") is None


def _free_suit(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, most: int) -> str:
    code, free = _strong_free_discard(view, legal, rng)
    if not free:
        return code
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    melds = ai._melds(view, seat)
    m = len(melds)
    suit, off_n = ai.suit_plan(hand, melds)
    total = sum(hand) + 3 * m
    if off_n == 0 or off_n > most or total - off_n < 10:
        return code
    off = {t for t in range(27) if hand[t] and t // 9 != suit}
    allowed = ai._safe(view, seat, _discards(legal))
    best_s = min(ai._after(hand, m, t) for t in allowed)
    near = {t for t in off & allowed if ai._after(hand, m, t) == best_s}
    if not near or INDEX[code.split()[1]] in near:
        return code
    unseen = ai._unseen(view, seat, hand)
    t = ai.best_discard(hand, m, unseen, ai._value_tiles(view, seat), near)
    return f"discard {CODES[t]}"


def free_suit_3(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """One suit when it costs no card of speed: with at most 3 cards outside the main suit
    (honours count for it), throw one of them whenever it leaves the hand as close to
    Mah-Jongg as the speed discard (claims unchanged)."""
    return _free_suit(view, legal, rng, 3)


def claim_wider(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Strong, and where strong passes on a chow or pung that leaves the hand as many cards
    from ready (2+ away), claim it when the best discard after it leaves at least 1.2 times
    as many live cards that bring the hand closer as the hand has now."""
    code = ai.play(view, legal, rng, ai.STRONG)
    if view["phase"] != "claim" or code != "pass":
        return code
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    m = len(ai._melds(view, seat))
    s0 = shanten(hand, m)
    if s0 < 1:
        return code
    unseen = ai._unseen(view, seat, hand)
    now = ai._ukeire(hand, m, s0, unseen)
    t = INDEX[view["claim"]["card"]]
    best_code, best_u = code, 1.2 * now
    for c in legal:
        verb = c.split()[0]
        if verb == "pung" and hand[t] >= 2:
            used = [t, t]
        elif verb == "chow":
            used = [x for x in (INDEX[y] for y in c.split()[1:]) if x != t]
            if any(hand[x] < 1 for x in used):
                continue
        else:
            continue
        for x in used:
            hand[x] -= 1
        if shanten(hand, m + 1) == s0:
            for d in range(len(hand)):
                if not hand[d]:
                    continue
                hand[d] -= 1
                if shanten(hand, m + 1) == s0:
                    u = ai._ukeire(hand, m + 1, s0, unseen)
                    if u > best_u:
                        best_code, best_u = c, u
                hand[d] += 1
        for x in used:
            hand[x] += 1
    return best_code


def keep_value_pairs(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Strong, but when its discard breaks a pair (or pung) of a dragon, its own wind or
    the round wind (a pung of one adds 0.5 to the multiplier of a winning or losing hand),
    throw instead a card that keeps the hand as close with at least 0.8 times the live
    improving cards."""
    code, free = _strong_free_discard(view, legal, rng)
    if not free:
        return code
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    valuable = ai._value_tiles(view, seat)
    cur = INDEX[code.split()[1]]
    if cur not in valuable or hand[cur] < 2:
        return code
    m = len(ai._melds(view, seat))
    unseen = ai._unseen(view, seat, hand)
    allowed = ai._safe(view, seat, _discards(legal))
    s = ai._after(hand, m, cur)
    hand[cur] -= 1
    base = ai._ukeire(hand, m, s, unseen)
    hand[cur] += 1
    best: tuple[int, int] | None = None
    for d in sorted(allowed):
        if d == cur or (d in valuable and hand[d] >= 2) or ai._after(hand, m, d) != s:
            continue
        hand[d] -= 1
        u = ai._ukeire(hand, m, s, unseen)
        hand[d] += 1
        if u >= 0.8 * base and (best is None or u > best[0]):
            best = (u, d)
    return f"discard {CODES[best[1]]}" if best else code
