"""The regular-hand decomposer: complete checks, every decomposition, waits, shanten (pure).

A hand's concealed part is an array of 34 counts (see :mod:`bot.games.mahjong.tiles`).
A regular Mah-Jongg splits the concealed part into groups (chows, pungs) plus exactly one
pair; declared kongs and melded groups are already out of it, so a complete concealed part
holds ``3k + 2`` cards.

Speed matters (random play must reach hundreds of hands a second): every question is
answered suit by suit, and each suit's answer is cached by its 9 counts, so after warm-up a
complete check is a handful of dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.mahjong.tiles import NUM_KINDS

Group = tuple[str, int]  # ("chow", lowest card) or ("pung", card)
Decomposition = tuple[tuple[Group, ...], int]  # (groups in card order, pair card)

_SUIT_BASES = (0, 9, 18)

# ----- per-suit caches -----------------------------------------------------------------
_GROUPS: dict[tuple[int, ...], bool] = {}  # 9 counts -> splits into groups only
_PAIRED: dict[tuple[int, ...], bool] = {}  # 9 counts -> splits into groups + one pair


def _groups_only(key: tuple[int, ...]) -> bool:
    v = _GROUPS.get(key)
    if v is None:
        v = _compute_groups(list(key))
        _GROUPS[key] = v
    return v


def _compute_groups(c: list[int]) -> bool:
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _groups_only(tuple(c))
        c[i] += 3
        if ok:
            return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _groups_only(tuple(c))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def _with_pair(key: tuple[int, ...]) -> bool:
    v = _PAIRED.get(key)
    if v is None:
        c = list(key)
        v = False
        for i in range(9):
            if c[i] >= 2:
                c[i] -= 2
                if _groups_only(tuple(c)):
                    v = True
                c[i] += 2
                if v:
                    break
        _PAIRED[key] = v
    return v


def is_complete(c: Sequence[int]) -> bool:
    """True if the concealed counts split into groups plus exactly one pair."""
    pair = False
    for b in _SUIT_BASES:
        seg = c[b : b + 9]
        s = sum(seg)
        if s == 0:
            continue
        r = s % 3
        if r == 0:
            key = tuple(seg)
            v = _GROUPS.get(key)
            if v is None:
                v = _groups_only(key)
            if not v:
                return False
        elif r == 2:
            if pair:
                return False
            pair = True
            key = tuple(seg)
            v = _PAIRED.get(key)
            if v is None:
                v = _with_pair(key)
            if not v:
                return False
        else:
            return False
    for h in range(27, 34):
        n = c[h]
        if n == 0 or n == 3:
            continue
        if n == 2 and not pair:
            pair = True
            continue
        return False
    return pair


def groups_only(c: Sequence[int]) -> bool:
    """True if the counts split into groups (no pair)."""
    for b in _SUIT_BASES:
        seg = tuple(c[b : b + 9])
        if sum(seg) % 3 or not _groups_only(seg):
            return False
    return all(c[h] in (0, 3) for h in range(27, 34))


def decompositions(c: Sequence[int]) -> list[Decomposition]:
    """Every distinct split of the counts into groups plus one pair (empty if incomplete)."""
    work = list(c)
    out: set[Decomposition] = set()
    groups: list[Group] = []

    def rec(i: int, pair: int | None) -> None:
        while i < NUM_KINDS and work[i] == 0:
            i += 1
        if i == NUM_KINDS:
            if pair is not None:
                out.add((tuple(groups), pair))
            return
        n = work[i]
        if pair is None and n >= 2:
            work[i] -= 2
            rec(i, i)
            work[i] += 2
        if n >= 3:
            work[i] -= 3
            groups.append(("pung", i))
            rec(i, pair)
            groups.pop()
            work[i] += 3
        if i < 27 and i % 9 <= 6 and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            groups.append(("chow", i))
            rec(i, pair)
            groups.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1

    if sum(work) % 3 == 2:
        rec(0, None)
    return sorted(out)


def group_splits(c: Sequence[int]) -> list[tuple[Group, ...]]:
    """Every way to take a set of disjoint groups out of the counts (leftovers allowed).

    Used to score a non-winner's concealed cards; callers keep the best split.
    """
    work = list(c)
    out: set[tuple[Group, ...]] = set()
    groups: list[Group] = []

    def rec(i: int) -> None:
        while i < NUM_KINDS and work[i] == 0:
            i += 1
        if i == NUM_KINDS:
            out.add(tuple(groups))
            return
        if work[i] >= 3:
            work[i] -= 3
            groups.append(("pung", i))
            rec(i)
            groups.pop()
            work[i] += 3
        if i < 27 and i % 9 <= 6 and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            groups.append(("chow", i))
            rec(i)
            groups.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1
        # leave every remaining copy of card i out of the groups
        n = work[i]
        work[i] = 0
        rec(i + 1)
        work[i] = n

    rec(0)
    return sorted(out)


def candidate_tiles(c: Sequence[int]) -> list[int]:
    """Cards that could complete a regular hand: held cards and their suit neighbours."""
    cand = []
    for t in range(NUM_KINDS):
        if c[t]:
            cand.append(t)
            continue
        if t < 27:
            n = t % 9
            if (n >= 1 and c[t - 1]) or (n <= 7 and c[t + 1]):
                cand.append(t)
            elif (n >= 2 and c[t - 2]) or (n <= 6 and c[t + 2]):
                cand.append(t)
    return cand


def regular_waits(c: Sequence[int]) -> list[int]:
    """Cards that complete the (3k+1)-card concealed part as a regular hand.

    A shape wait: a card is listed even if all its copies are in sight.
    """
    work = list(c)
    out = []
    for t in candidate_tiles(c):
        if work[t] >= 4:
            continue
        work[t] += 1
        if is_complete(work):
            out.append(t)
        work[t] -= 1
    return out


# ----- shanten ---------------------------------------------------------------------------
# For a suit, the achievable (groups, partial blocks, head pair) triples, kept Pareto-maximal.
_SUIT_BLOCKS: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]] = {}


def _pareto(options: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    keep = []
    for o in options:
        if not any(p != o and p[2] == o[2] and p[0] >= o[0] and p[1] >= o[1] for p in options):
            keep.append(o)
    return tuple(sorted(keep, reverse=True))


def _suit_blocks(key: tuple[int, ...], honours: bool = False) -> tuple[tuple[int, int, int], ...]:
    cache_key = key if not honours else (-1, *key)
    v = _SUIT_BLOCKS.get(cache_key)
    if v is not None:
        return v
    c = list(key)
    n = len(c)
    results: set[tuple[int, int, int]] = set()

    def rec(i: int, g: int, p: int, q: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            results.add((g, p, q))
            return
        if c[i] >= 3:
            c[i] -= 3
            rec(i, g + 1, p, q)
            c[i] += 3
        if not honours and i <= n - 3 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, g + 1, p, q)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if q == 0:
                rec(i, g, p, 1)
            rec(i, g, p + 1, q)
            c[i] += 2
        if not honours:
            if i <= n - 2 and c[i + 1]:
                c[i] -= 1
                c[i + 1] -= 1
                rec(i, g, p + 1, q)
                c[i] += 1
                c[i + 1] += 1
            if i <= n - 3 and c[i + 2]:
                c[i] -= 1
                c[i + 2] -= 1
                rec(i, g, p + 1, q)
                c[i] += 1
                c[i + 2] += 1
        c[i] -= 1  # leave one copy of card i isolated
        rec(i, g, p, q)
        c[i] += 1

    rec(0, 0, 0, 0)
    v = _pareto(results)
    _SUIT_BLOCKS[cache_key] = v
    return v


def shanten(c: Sequence[int], melds: int = 0) -> int:
    """Regular-hand shanten of the concealed counts with ``melds`` declared groups.

    -1 = complete (with 3k+2 cards), 0 = one card away (tenpai), and so on. The classical
    block count: 8 - 2·groups - partial blocks - head pair, with groups + blocks ≤ 4.
    """
    parts = [_suit_blocks(tuple(c[b : b + 9])) for b in _SUIT_BASES]
    hon = tuple(sorted((c[h] for h in range(27, 34) if c[h]), reverse=True))
    parts.append(_suit_blocks(hon, honours=True) if hon else ((0, 0, 0),))
    best = 8
    for g0, p0, q0 in parts[0]:
        for g1, p1, q1 in parts[1]:
            q01 = q0 + q1
            if q01 > 1:
                continue
            for g2, p2, q2 in parts[2]:
                q012 = q01 + q2
                if q012 > 1:
                    continue
                for g3, p3, q3 in parts[3]:
                    q = q012 + q3
                    if q > 1:
                        continue
                    g = g0 + g1 + g2 + g3 + melds
                    p = p0 + p1 + p2 + p3
                    if g > 4:
                        g = 4
                    if g + p > 4:
                        p = 4 - g
                    s = 8 - 2 * g - p - q
                    if s < best:
                        best = s
    return best


_ISOLATED: dict[tuple[int, ...], int] = {}


def _suit_isolated(key: tuple[int, ...]) -> int:
    v = _ISOLATED.get(key)
    if v is None:
        v = 0
        for k in range(9):
            if key[k] == 1 and not (
                (k >= 1 and key[k - 1])
                or (k <= 7 and key[k + 1])
                or (k >= 2 and key[k - 2])
                or (k <= 6 and key[k + 2])
            ):
                v += 1
        _ISOLATED[key] = v
    return v


def isolated_count(c: Sequence[int]) -> int:
    """Cards that are alone: single honours, single suit cards with no card within two."""
    n = (
        _suit_isolated(tuple(c[0:9]))
        + _suit_isolated(tuple(c[9:18]))
        + _suit_isolated(tuple(c[18:27]))
    )
    for h in range(27, 34):
        if c[h] == 1:
            n += 1
    return n


# ----- "one card away" after a discard, suit by suit -----------------------------------------
# Flags of a segment (a suit's 9 counts, or the 7 honour counts): can it be made into groups
# only (G) or groups + one pair (P) as it is, after adding one card, after removing one,
# or after both (a swap inside the segment)?
_G0, _P0, _GA, _PA, _GR, _PR, _GS, _PS = (1 << i for i in range(8))
_SEG_FLAGS: dict[tuple[int, ...], int] = {}


def _seg_state(c: list[int], honours: bool) -> int:
    """2 bits: groups-only possible, groups + pair possible."""
    if honours:
        twos = 0
        for n in c:
            if n == 2:
                twos += 1
            elif n not in (0, 3):
                return 0
        return (_G0 if twos == 0 else 0) | (_P0 if twos == 1 else 0)
    key = tuple(c)
    s = sum(c) % 3
    if s == 0:
        return _G0 if _groups_only(key) else 0
    if s == 2:
        return _P0 if _with_pair(key) else 0
    return 0


def _seg_flags(key: tuple[int, ...], honours: bool) -> int:
    cache_key = key if not honours else (-1, *key)
    v = _SEG_FLAGS.get(cache_key)
    if v is not None:
        return v
    c = list(key)
    n = len(c)
    v = _seg_state(c, honours)
    for j in range(n):  # add one
        if c[j] < 4:
            c[j] += 1
            st = _seg_state(c, honours)
            v |= (_GA if st & _G0 else 0) | (_PA if st & _P0 else 0)
            c[j] -= 1
    for i in range(n):  # remove one, and remove one + add one
        if c[i]:
            c[i] -= 1
            st = _seg_state(c, honours)
            v |= (_GR if st & _G0 else 0) | (_PR if st & _P0 else 0)
            for j in range(n):
                if c[j] < 4:
                    c[j] += 1
                    st = _seg_state(c, honours)
                    v |= (_GS if st & _G0 else 0) | (_PS if st & _P0 else 0)
                    c[j] -= 1
            c[i] += 1
    v |= (_GS if v & _G0 else 0) | (_PS if v & _P0 else 0)  # swapping a card for itself
    v |= (sum(key) % 3) << 8  # the segment's size mod 3 rides along
    _SEG_FLAGS[cache_key] = v
    return v


# For (is pair segment, is removal segment, is addition segment): the flag needed.
_NEED = {
    (False, False, False): _G0,
    (True, False, False): _P0,
    (False, True, False): _GR,
    (True, True, False): _PR,
    (False, False, True): _GA,
    (True, False, True): _PA,
    (False, True, True): _GS,
    (True, True, True): _PS,
}


_PLANS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _plans(res: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For segment sizes mod 3: every (flag per segment...) that would have to hold.

    Each plan picks the pair segment, the segment the discard leaves and the one the new
    card joins (the same one: a swap inside it), and lists the flag each segment needs.
    """
    v = _PLANS.get(res)
    if v is not None:
        return v
    plans: list[tuple[int, ...]] = []  # (a flag per segment)
    for pair in range(4):
        delta = [((2 if s == pair else 0) - res[s]) % 3 for s in range(4)]
        moved = [s for s in range(4) if delta[s]]
        if not moved:
            moves = [(sw, sw) for sw in range(4)]
        elif len(moved) == 2 and sorted(delta[s] for s in moved) == [1, 2]:
            a, b = moved
            moves = [(a, b)] if delta[a] == 2 else [(b, a)]
        else:
            moves = []
        for rem, add in moves:
            plans.append(tuple(_NEED[(s == pair, s == rem, s == add)] for s in range(4)))
    v = tuple(plans)
    _PLANS[res] = v
    return v


def _flags4(c: Sequence[int]) -> tuple[int, int, int, int]:
    a = tuple(c[0:9])
    b = tuple(c[9:18])
    d = tuple(c[18:27])
    h = (-1, *c[27:34])
    get = _SEG_FLAGS.get
    fa = get(a)
    if fa is None:
        fa = _seg_flags(a, False)
    fb = get(b)
    if fb is None:
        fb = _seg_flags(b, False)
    fd = get(d)
    if fd is None:
        fd = _seg_flags(d, False)
    fh = get(h)
    if fh is None:
        fh = _seg_flags(h[1:], True)
    return fa, fb, fd, fh


def one_swap_complete(c: Sequence[int]) -> bool:
    """True if discarding one card and drawing one could make a regular complete hand
    (the concealed part holds 3k+2 cards). This gates the standing-hand declaration."""
    fa, fb, fd, fh = _flags4(c)
    for na, nb, nd, nh in _plans((fa >> 8, fb >> 8, fd >> 8, fh >> 8)):
        if fa & na and fb & nb and fd & nd and fh & nh:
            return True
    return False


_ADD_PLANS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _add_plans(res: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    v = _ADD_PLANS.get(res)
    if v is not None:
        return v
    plans: list[tuple[int, ...]] = []  # (a flag per segment)
    for pair in range(4):
        delta = [((2 if s == pair else 0) - res[s]) % 3 for s in range(4)]
        moved = [s for s in range(4) if delta[s]]
        if len(moved) == 1 and delta[moved[0]] == 1:
            add = moved[0]
            plans.append(tuple(_NEED[(s == pair, False, s == add)] for s in range(4)))
    v = tuple(plans)
    _ADD_PLANS[res] = v
    return v


def one_add_complete(c: Sequence[int]) -> bool:
    """True if some card would complete the (3k+1)-card concealed part as a regular hand
    (regular tenpai; a shape test: a card the player holds four of is not counted)."""
    fa, fb, fd, fh = _flags4(c)
    for na, nb, nd, nh in _add_plans((fa >> 8, fb >> 8, fd >> 8, fh >> 8)):
        if fa & na and fb & nb and fd & nd and fh & nh:
            return True
    return False
