"""What a hand could become: how far it is from each special hand and from one suit (pure).

The AI levels use this to aim at the hands the Israeli rules pay most for. A special hand
is worth 1000-6000 where a regular Mah-Jongg scores tens, so a special a few cards away is
worth playing for even at a small chance; these helpers say *how many* cards away it is
(an estimate: fixed cards first, then the flexible units filled greedily from what is
left), which cards to keep for it, and which discards it would like to claim as a pung.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.games.mahjong.specials import SPECIAL_HANDS, Meld, Pattern, SpecialHand, Unit
from bot.games.mahjong.tiles import HONOURS, NUM_KINDS

_SIZE = {"pung": 3, "pair": 2, "single": 1}


@dataclass(frozen=True)
class Target:
    """A special hand the concealed cards and melds could still become."""

    hand: type[SpecialHand]
    short: int  # cards still missing (an estimate; 0 = complete as counted)
    keep: tuple[int, ...]  # copies of each card to keep for it (34 kinds)
    pungs: frozenset[int]  # cards held twice that a pung unit still wants (claimable)

    @property
    def value(self) -> int:
        return self.hand.value

    @property
    def concealed(self) -> bool:
        return self.hand.concealed


@cache
def _units(pat: Pattern) -> tuple[Unit, ...]:
    # One-card units first so a flexible unit (a pair of any honour) never takes the cards
    # a fixed unit needs (the own-wind pair); then the tightest units.
    return tuple(sorted(pat.units, key=lambda u: (len(u.tiles) > 1, len(u.tiles))))


def _place_melds(
    units: Sequence[Unit], melds: Sequence[Meld]
) -> tuple[list[bool], set[int]] | None:
    """Which units the declared groups fill (and run cards they cover), or None if one
    group fits nowhere."""
    used = [False] * len(units)
    covered: set[int] = set()
    for kind, t, _ in melds:
        placed = False
        for i, u in enumerate(units):
            if used[i]:
                continue
            if kind in ("pung", "kong") and u.kind == "pung" and t in u.tiles:
                ok = kind == "pung" or u.kong
            elif kind == "chow" and u.kind == "chow":
                ok = t in u.tiles
            elif u.kind == "group":
                ok = True
            elif kind == "chow" and u.kind == "run":
                ok = t in u.tiles and t + 2 in u.tiles and not covered & {t, t + 1, t + 2}
                if ok:
                    covered.update((t, t + 1, t + 2))
                    placed = True
                    break
            else:
                ok = False
            if ok:
                used[i] = True
                placed = True
                break
        if not placed:
            return None
    return used, covered


def fit(
    pat: Pattern, conc: Sequence[int], melds: Sequence[Meld], unseen: Sequence[int]
) -> tuple[int, list[int], set[int]] | None:
    """``(short, keep, pungs)`` for one pattern, or None if it cannot be made any more (a
    declared group fits no unit, or a card it needs is no longer live)."""
    units = _units(pat)
    placed = _place_melds(units, melds)
    if placed is None:
        return None
    used, covered = placed
    avail = list(conc)
    keep = [0] * NUM_KINDS
    pungs: set[int] = set()
    short = 0
    for i, u in enumerate(units):
        if used[i]:
            continue
        if u.kind in _SIZE:
            k = _SIZE[u.kind]
            best_t, best_got = -1, -1
            for t in u.tiles:
                got = min(avail[t], k)
                # a card short must still be live (a fixed unit without it is dead)
                if got < k and unseen[t] < k - got:
                    continue
                if got > best_got or (got == best_got and unseen[t] > unseen[best_t]):
                    best_t, best_got = t, got
            if best_t < 0:
                return None
            avail[best_t] -= best_got
            keep[best_t] += best_got
            short += k - best_got
            if u.kind == "pung" and best_got == 2:
                pungs.add(best_t)
        elif u.kind == "run":
            for t in u.tiles:
                if t in covered:
                    continue
                if avail[t]:
                    avail[t] -= 1
                    keep[t] += 1
                elif unseen[t]:
                    short += 1
                else:
                    return None
        else:  # chow or group: the start (or pung) with most cards in hand
            best: tuple[int, list[int]] | None = None
            starts = u.tiles if u.kind == "chow" else range(NUM_KINDS)
            for s in starts:
                if u.kind == "group" and s >= 27:
                    cards = [s, s, s]
                elif u.kind == "group" and avail[s] >= 2:
                    cards = [s, s, s]
                elif s < 27 and s % 9 <= 6:
                    cards = [s, s + 1, s + 2]
                else:
                    continue
                tmp = list(avail)
                taken: list[int] = []
                for t in cards:
                    if tmp[t]:
                        tmp[t] -= 1
                        taken.append(t)
                if best is None or len(taken) > len(best[1]):
                    best = (s, taken)
            if best is None:
                return None
            for t in best[1]:
                avail[t] -= 1
                keep[t] += 1
            short += 3 - len(best[1])
    return short, keep, pungs


def targets(
    conc: Sequence[int],
    melds: Sequence[Meld],
    own: int,
    round_: int,
    unseen: Sequence[int],
    max_short: int,
) -> list[Target]:
    """The special hands at most ``max_short`` cards away, most valuable first for the
    same distance (closest first overall). Concealed specials are left out once the hand
    has a melded group."""
    melded = any(not mc for _, _, mc in melds)
    out: list[Target] = []
    for h in SPECIAL_HANDS:
        if h.concealed and melded:
            continue
        best: tuple[int, list[int], set[int]] | None = None
        for pat in h.patterns(own, round_):
            got = fit(pat, conc, melds, unseen)
            if got is not None and got[0] <= max_short and (best is None or got[0] < best[0]):
                best = got
        if best is not None:
            out.append(Target(h, best[0], tuple(best[1]), frozenset(best[2])))
    out.sort(key=lambda t: (t.short, -t.value))
    return out


def suit_plan(conc: Sequence[int], melds: Sequence[Meld]) -> tuple[int, int]:
    """``(suit, off)``: the suit most of the hand is in, and how many cards lie outside it
    and the honours (a declared group in another suit makes ``off`` large: no plan)."""
    per = [0, 0, 0]
    for t in range(27):
        per[t // 9] += conc[t]
    for _kind, t, _ in melds:
        if t < 27:
            per[t // 9] += 3
    suit = max(range(3), key=lambda s: per[s])
    off = sum(per) - per[suit]
    if any(t < 27 and t // 9 != suit for _, t, _ in melds):
        off += 99
    return suit, off


def honours(conc: Sequence[int]) -> int:
    return sum(conc[t] for t in HONOURS)
