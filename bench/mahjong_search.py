"""A determinized search for the few Mah-Jongg decisions that decide the race (pure).

Strong plays for speed (``ai.STRONG``); this module weighs, where it matters, the discards
that leave its hand ready or one card from ready, and calling a standing hand or staying
silent, by simulated futures of the hand. No level uses it: measured against normal at
stop 41 (``bench/mahjong_stop41.py``, ``docs/ai/mahjong.md``), it wins a few points a
match but no matches, nor did judging its outcomes by the chance of winning the match
(stop 42, ``bench/mahjong_stop42.py``); so it lives in the bench (built in
``bot/games/mahjong/`` at stop 41, moved here at stop 42). It reads only the seat's view:

- **Determinize.** The cards hidden from the seat (``ai._unseen``: 4 − hand, melds, rivers,
  shown standing hands) are shuffled and dealt to the opponents' concealed hands (their
  sizes are public) and the live wall (its count is public); nothing else enters a sample.
  Each sample's generator is seeded from the view alone, so the same view gives the same
  samples and the same choice, whatever the hidden cards really are.
- **Simulate.** A light simulator plays the rest of the hand from the sample: the seat's
  own draws and discards by the speed policy (the fewest cards to Mah-Jongg, the drawn
  card thrown on a tie; once ready it keeps its wait, calling a standing hand by strong's
  rule), the opponents by a hazard: each turn a hand that is not ready becomes ready with
  the chance measured from the arena for its discards and melds at the decision (then it
  calls a standing hand on one card of its sampled hand, or waits silently on two); it
  throws its drawn card or a card of its hand at random; every seat keeps a card a standing hand
  calls while it can (a locked standing hand throws every card it draws but its own).
- **Score.** An outcome is worth the seat's match points against the mean of the others':
  a win its hand total (the scoring module's, standing hand and self-drawn included) plus
  the payments; a loss the seat's losing hand total (scoring module) minus the payment and
  the winner's gain (a standing opponent's shown hand is scored; any other hand is
  worth ``OTHER_WIN``); a drawn hand nothing (``points``). Or (``objective="match"``) the
  seat's chance of ending the match with the highest total: the totals so far (the view's
  ``history``) plus each player's points from the hand, then each player's points in the
  hands still to come spread normally (:func:`first_chance`); a hand that ends the match
  (the last rotation, won by a seat that is not the round player) leaves no spread.
- **Decide.** Every candidate plays the same samples and the same random numbers; strong's
  own choice stands unless another candidate beats it by ``MARGIN`` standard errors of the
  paired difference.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.mahjong import ai
from bot.games.mahjong.hand import shanten
from bot.games.mahjong.scoring import (
    PAYMENT,
    PlayerHand,
    WinInfo,
    mahjong_waits,
    score_non_winner,
    score_winner,
)
from bot.games.mahjong.tiles import CODES, INDEX, NUM_KINDS, WIND_CODES

#: Chance that a hand not yet ready becomes ready at its next discard, by its discards so
#: far (in threes: 0-2, 3-5, ...) and its melds (0, 1, 2+); measured over 12 deals (24
#: matches) of seed 13, strong vs normal (docs/ai/mahjong.md, stop 41).
READY_HAZARD: tuple[tuple[float, float, float], ...] = (
    (0.005, 0.015, 0.18),
    (0.035, 0.07, 0.18),
    (0.055, 0.09, 0.23),
    (0.07, 0.15, 0.29),
    (0.07, 0.15, 0.37),
    (0.07, 0.15, 0.40),
)
#: What an opponent's win is worth to it when its hand is not shown (a standing win of
#: normal's is about 150, a silent one about 25-40).
OTHER_WIN = 110
#: A losing opponent's hand (about 18 a losing hand).
OTHER_LOSS = 18
#: Share of the opponents' readies that call a standing hand (the rest wait silently).
STANDING_SHARE = 0.7
SAMPLES = 40
MARGIN = 2.0
#: Candidates per decision (the best by shanten, then live improving cards).
WIDTH = 3


@dataclass
class Opp:
    seat: int
    standing: int | None  # called card of a shown standing hand
    value: int  # what it gains winning (its shown hand's total, or OTHER_WIN)
    hazard: float  # its chance of becoming ready at each of its turns
    hand: int  # concealed cards


@dataclass
class Table:
    """What the simulator needs from the view (public or the seat's own)."""

    seat: int
    melds: tuple[tuple[str, int, bool], ...]
    extras: tuple[int, ...]
    own: int
    rnd: int
    round_player: int
    opps: list[Opp]  # in turn order after the seat
    unseen: list[int]
    draws: int  # live-wall draws left (seasons and flowers taken out)
    concealed_ok: bool
    win_cache: dict[tuple[tuple[int, ...], int, bool, bool], int] = field(default_factory=dict)
    loss_cache: dict[tuple[int, ...], int] = field(default_factory=dict)
    waits_cache: dict[tuple[int, ...], frozenset[int]] = field(default_factory=dict)
    step_cache: dict[tuple[tuple[int, ...], int, frozenset[int]], tuple[tuple[int, ...], int]] = (
        field(default_factory=dict)
    )


#: How a simulated hand ends: ``(who, points)``. ``who`` -1: drawn (``points`` 0); 0: the
#: seat won, ``points`` its hand's total; ``j + 1``: the ``j``-th opponent in turn order
#: won, ``points`` the seat's losing hand's total.
End = tuple[int, float]
DRAWN: End = (-1, 0.0)


@dataclass(frozen=True)
class Sample:
    """One determinization: the opponents' concealed hands (turn order) and the wall."""

    hands: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]


def hidden_pool(view: Mapping[str, Any], seat: int) -> list[int]:
    """Every card hidden from the seat, one entry per copy (from its view only)."""
    hand = ai._counts(view["hand"])
    unseen = ai._unseen(view, seat, hand)
    return [t for t in range(NUM_KINDS) for _ in range(unseen[t])]


def _order(view: Mapping[str, Any], seat: int) -> list[int]:
    winds = [WIND_CODES.index(w) for w in view["seat_winds"]]
    return sorted((p for p in range(4) if p != seat), key=lambda p: (winds[p] - winds[seat]) % 4)


def _rng(view: Mapping[str, Any], seat: int, tag: str) -> random.Random:
    """A generator seeded from the seat's view alone (the same view, the same samples)."""
    key = "|".join(
        [
            tag,
            str(seat),
            str(view.get("deal")),
            str(view.get("wall")),
            ",".join(sorted(view["hand"] or [])),
            ";".join(",".join(r) for r in view["rivers"]),
        ]
    )
    return random.Random(key)


def samples(view: Mapping[str, Any], seat: int, n: int, tag: str = "s") -> list[Sample]:
    """``n`` determinizations of the cards hidden from the seat."""
    pool = hidden_pool(view, seat)
    rng = _rng(view, seat, tag)
    order = _order(view, seat)
    sizes = []
    for p in order:
        st = (view.get("standing") or [None] * 4)[p]
        size = 0 if st else max(0, 13 - 3 * len(view["melds"][p]))
        sizes.append(size)
    out = []
    for _ in range(n):
        cards = list(pool)
        rng.shuffle(cards)
        hands = []
        i = 0
        for size in sizes:
            hands.append(tuple(cards[i : i + size]))
            i += size
        out.append(Sample(tuple(hands), tuple(cards[i:])))
    return out


def _table(view: Mapping[str, Any], seat: int, hand: list[int]) -> Table:
    own, rnd = ai._winds(view, seat)
    melds = tuple(ai._melds(view, seat))
    opps = []
    standing = view.get("standing") or [None] * 4
    for p in _order(view, seat):
        st = standing[p]
        m = len(view["melds"][p])
        n = len(view["rivers"][p])
        if st:
            w = INDEX[st["card"]]
            value = _shown_value(view, p, st, w)
            opps.append(Opp(p, w, value, 0.0, 0))
        else:
            hz = READY_HAZARD[min(n // 3, len(READY_HAZARD) - 1)][min(m, 2)]
            opps.append(Opp(p, None, OTHER_WIN, hz, max(0, 13 - 3 * m)))
    laid = sum(len(e) for e in view["extras"]) + sum(
        1 for c in view["hand"] or [] if INDEX[c] >= NUM_KINDS
    )
    left = max(0, 8 - laid)
    wall = view.get("wall", 0)
    hidden = wall + view.get("kong_box", 0) + sum(o.hand for o in opps)
    draws = wall - round(left * wall / hidden) if hidden else wall
    return Table(
        seat=seat,
        melds=melds,
        extras=tuple(INDEX[e] for e in view["extras"][seat]),
        own=own,
        rnd=rnd,
        round_player=view["round_player"],
        opps=opps,
        unseen=ai._unseen(view, seat, hand),
        draws=max(0, draws),
        concealed_ok=all(mc for _, _, mc in melds),
    )


def _shown_value(view: Mapping[str, Any], p: int, st: Mapping[str, Any], w: int) -> int:
    """What a standing opponent's shown hand scores winning on its card (public)."""
    c = ai._counts(st["hand"])
    c[w] += 1
    melds = tuple(ai._melds(view, p))
    own, rnd = ai._winds(view, p)
    ph = PlayerHand(tuple(c), melds, tuple(INDEX[e] for e in view["extras"][p]), own, rnd)
    try:
        return score_winner(ph, WinInfo(self_drawn=False, tile=w, standing=True)).total
    except ValueError:
        return OTHER_WIN


# ----- the simulator ------------------------------------------------------------------------


def _waits(tb: Table, key: tuple[int, ...]) -> frozenset[int]:
    got = tb.waits_cache.get(key)
    if got is None:
        c = list(key)
        if shanten(c, len(tb.melds)) > 0:
            got = frozenset()
        else:
            got = frozenset(
                w for w in mahjong_waits(c, tb.melds, tb.own, tb.rnd, tb.concealed_ok) if c[w] < 4
            )
        tb.waits_cache[key] = got
    return got


def _win_value(tb: Table, key: tuple[int, ...], tile: int, self_drawn: bool, stand: bool) -> int:
    ck = (key, tile, self_drawn, stand)
    got = tb.win_cache.get(ck)
    if got is None:
        c = list(key)
        c[tile] += 1
        ph = PlayerHand(tuple(c), tb.melds, tb.extras, tb.own, tb.rnd)
        info = WinInfo(self_drawn=self_drawn, tile=tile, standing=stand)
        try:
            got = score_winner(ph, info).total
        except ValueError:  # (a wait the scoring module reads otherwise)
            got = 0
        tb.win_cache[ck] = got
    return got


def _loss_value(tb: Table, key: tuple[int, ...]) -> int:
    got = tb.loss_cache.get(key)
    if got is None:
        ph = PlayerHand(key, tb.melds, tb.extras, tb.own, tb.rnd)
        got = score_non_winner(ph).total
        tb.loss_cache[key] = got
    return got


def _step(
    tb: Table, key: tuple[int, ...], x: int, called: frozenset[int]
) -> tuple[tuple[int, ...], int]:
    """The speed policy's 13 cards after drawing ``x``, and the card it throws: the fewest
    cards to Mah-Jongg, the drawn card thrown on a tie, a card a standing opponent calls
    kept while another will do."""
    ck = (key, x, called)
    got = tb.step_cache.get(ck)
    if got is None:
        c = list(key)
        c[x] += 1
        m = len(tb.melds)
        best: tuple[int, int, int] | None = None
        chosen = x
        for t in range(NUM_KINDS):
            if not c[t]:
                continue
            c[t] -= 1
            s = shanten(c, m)
            c[t] += 1
            rank = (1 if t in called else 0, s, 0 if t == x else 1)
            if best is None or rank < best:
                best, chosen = rank, t
        c[chosen] -= 1
        got = (tuple(c), chosen)
        tb.step_cache[ck] = got
    return got


def _want_stand(tb: Table, waits: frozenset[int], left: int) -> int | None:
    """Strong's call in the simulator: the wait with most unseen copies, unless the whole
    wait has 1.5 times as many (silent), or late in the hand."""
    if not waits or left < 8:
        return None
    u = tb.unseen
    w = max(sorted(waits), key=lambda t: u[t])
    if u[w] < 2:
        return None
    if sum(u[t] for t in waits) >= 1.5 * u[w]:
        return None
    return w


def rollout(
    tb: Table,
    key: tuple[int, ...],
    stand: int | None,
    sample: Sample,
    rng: random.Random,
    start: int = 0,
) -> End:
    """The rest of the hand from the seat's 13 cards ``key`` (standing on ``stand``, if
    not None), the next draw being the ``start``-th opponent's in turn order after the
    seat (its own: the number of opponents); how it ends (:data:`End`)."""
    opps = tb.opps
    n_opp = len(opps)
    # per opponent: 0 not ready, 1 standing, 2 silent; its waits; its value; its hand
    kind = [1 if o.standing is not None else 0 for o in opps]
    waits: list[frozenset[int]] = [
        frozenset([o.standing]) if o.standing is not None else frozenset() for o in opps
    ]
    hands = [list(h) for h in sample.hands]
    wall = sample.wall
    draws = min(tb.draws, len(wall))
    my_waits = _waits(tb, key)
    pos = 0
    calls: set[int] = {o.standing for o in opps if o.standing is not None}
    if stand is not None:
        calls.add(stand)

    def opp_wins(j: int) -> End:
        return (j + 1, _loss_value(tb, key))

    def my_win(tile: int, self_drawn: bool) -> End:
        return (0, _win_value(tb, key, tile, self_drawn, stand is not None))

    turn = start
    while True:
        if pos >= draws:
            return DRAWN
        x = wall[pos]
        pos += 1
        if turn < n_opp:
            j = turn
            if kind[j]:
                if x in waits[j]:
                    return opp_wins(j)
                y = x
            else:
                h = hands[j]
                if h and rng.random() < opps[j].hazard:
                    # it becomes ready: a standing hand on one of its cards, or silent
                    if rng.random() < STANDING_SHARE:
                        kind[j] = 1
                        w = h[rng.randrange(len(h))]
                        waits[j] = frozenset([w])
                        calls.add(w)
                    else:
                        kind[j] = 2
                        waits[j] = frozenset([h[rng.randrange(len(h))], x])
                # it throws the drawn card or one of its own (a card a standing hand
                # calls is kept while another will do)
                if h and rng.random() < 0.5:
                    i = rng.randrange(len(h))
                    y, h[i] = h[i], x
                else:
                    y = x
                if y in calls and h:
                    for i in range(len(h)):
                        if h[i] not in calls:
                            y, h[i] = h[i], y
                            break
            # a discard: the seat first (it is asked as the others are), then the others
            if stand is not None:
                if y == stand:
                    return my_win(y, False)
            elif y in my_waits:
                return my_win(y, False)
            for i in range(1, n_opp):
                q = (j + i) % n_opp
                if kind[q] and y in waits[q]:
                    return opp_wins(q)
        else:
            # the seat's turn
            if stand is not None:
                if x == stand:
                    return my_win(x, True)
                y = x
            elif x in my_waits:
                return my_win(x, True)
            else:
                key, y = _step(tb, key, x, frozenset(calls))
                new = _waits(tb, key)
                if new and not my_waits:
                    stand = _want_stand(tb, new, draws - pos)
                    if stand is not None:
                        calls.add(stand)
                my_waits = new
            for j in range(n_opp):
                if kind[j] and y in waits[j]:
                    return opp_wins(j)
        turn = turn + 1 if turn < n_opp else 0


# ----- what an end is worth -------------------------------------------------------------


def _payment(tb: Table, winner: int) -> int:
    return PAYMENT * (2 if winner == tb.round_player else 1)


def points(tb: Table, end: End) -> float:
    """The seat's points from the hand against the others' mean (an opponent that loses
    scores ``OTHER_LOSS``; one that wins, its shown hand or ``OTHER_WIN``)."""
    who, amount = end
    if who < 0:
        return 0.0
    if who == 0:
        return amount + 4 * _payment(tb, tb.seat) - OTHER_LOSS
    opp = tb.opps[who - 1]
    w_pay = _payment(tb, opp.seat)
    return amount - w_pay - (opp.value + w_pay) / 3.0 - 2.0 * OTHER_LOSS / 3.0


def _deltas(tb: Table, end: End) -> list[float]:
    """Each player's points from the hand: the seat first, then the opponents in turn order."""
    who, amount = end
    n = len(tb.opps)
    if who < 0:
        return [0.0] * (n + 1)
    winner = tb.seat if who == 0 else tb.opps[who - 1].seat
    w_pay = _payment(tb, winner)
    out = [float(OTHER_LOSS - w_pay)] * (n + 1)
    if who == 0:
        out[0] = amount + 3 * w_pay
    else:
        out[0] = amount - w_pay
        out[who] = tb.opps[who - 1].value + 3 * w_pay
    return out


#: The spread of one player's points over a hand (standard deviation; 109 measured over 40
#: matches of strong and normal, seed 9) and the hands a rotation of the round player
#: lasts (1.46: the round player wins again, or the hand is drawn).
HAND_SPREAD = 110.0
HANDS_PER_ROTATION = 1.46
#: Standard normal points and weights for the integral over the seat's own luck to come.
_GRID = [i / 4.0 for i in range(-24, 25)]
_WEIGHTS = [math.exp(-z * z / 2.0) for z in _GRID]
_NORM = sum(_WEIGHTS)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def first_chance(totals: Sequence[float], hands_left: float) -> float:
    """The chance that player 0 ends the match with the highest total (a tie shared), each
    player's points in ``hands_left`` more hands spread normally (``HAND_SPREAD`` a hand)."""
    me, others = totals[0], totals[1:]
    if hands_left <= 0:
        best = max(others)
        if me != best:
            return 1.0 if me > best else 0.0
        return 1.0 / (1 + sum(1 for t in others if t == best))
    scale = HAND_SPREAD * math.sqrt(hands_left)
    gaps = [(me - t) / scale for t in others]
    acc = 0.0
    for z, w in zip(_GRID, _WEIGHTS, strict=True):
        p = w
        for g in gaps:
            p *= _phi(g + z)
        acc += p
    return acc / _NORM


@dataclass(frozen=True)
class Match:
    """Where the match stands (public, from the view): the totals before this hand (the
    seat first, then the opponents in turn order), the rotations of the round player still
    to come and the hands the match may still last (``max_hands``; None: no limit)."""

    totals: tuple[float, ...]
    rotations_left: int
    hands_cap: int | None


def match_of(view: Mapping[str, Any], tb: Table) -> Match:
    history = view.get("history") or []
    totals = history[-1]["totals"] if history else [0] * 4
    order = [tb.seat] + [o.seat for o in tb.opps]
    cap = (view.get("options") or {}).get("max_hands") or 0
    return Match(
        totals=tuple(float(totals[p]) for p in order),
        rotations_left=int(view.get("rounds", 4)) - int(view.get("rounds_played", 0)),
        hands_cap=cap - int(view.get("deal") or 0) if cap else None,
    )


def match_chance(tb: Table, match: Match, end: End) -> float:
    """The seat's chance of winning the match (the highest total) after the hand ends so."""
    who = end[0]
    totals = [t + d for t, d in zip(match.totals, _deltas(tb, end), strict=True)]
    rotations = match.rotations_left
    if who >= 0:
        winner = tb.seat if who == 0 else tb.opps[who - 1].seat
        if winner != tb.round_player:
            rotations -= 1
    hands = HANDS_PER_ROTATION * max(0, rotations)
    if match.hands_cap is not None:
        hands = min(hands, float(max(0, match.hands_cap)))
    return first_chance(totals, hands)


def _scorer(view: Mapping[str, Any], tb: Table, objective: str) -> Callable[[End], float]:
    """What an end is worth to the seat: ``points`` (the hand's points against the others'
    mean) or ``match`` (the chance of winning the match)."""
    if objective == "points":
        return lambda end: points(tb, end)
    if objective != "match":
        raise ValueError(f"unknown objective {objective!r}")
    match = match_of(view, tb)
    cache: dict[End, float] = {}

    def score(end: End) -> float:
        got = cache.get(end)
        if got is None:
            got = cache[end] = match_chance(tb, match, end)
        return got

    return score


# ----- the decision ------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """A candidate: throw ``discard``, standing on ``stand`` (None: silent)."""

    discard: int
    stand: int | None = None


def _options(
    view: Mapping[str, Any], seat: int, hand: list[int], legal: Sequence[str], code: str
) -> tuple[list[Option], Option] | None:
    """The close candidates of a discard decision and strong's own (None: nothing to
    weigh: the hand is two or more cards from ready, or strong's choice is not a discard)."""
    words = code.split()
    if words[0] not in ("discard", "declare") or view.get("wall", 0) < 4:
        return None
    melds = ai._melds(view, seat)
    m = len(melds)
    unseen = ai._unseen(view, seat, hand)
    allowed = ai._safe(view, seat, {INDEX[c.split()[1]] for c in legal if c.startswith("discard ")})
    pending = view.get("pending_declare")
    if pending is not None:
        w = INDEX[pending]
        stands = [d for d in sorted(allowed) if ai._standing_after(view, seat, hand, melds, d, w)]
        if words[0] != "discard" or len(stands) < 2:
            return None
        return [Option(d, w) for d in stands], Option(INDEX[words[1]], w)
    after = {d: ai._after(hand, m, d) for d in sorted(allowed)}
    if not after:
        return None
    low = min(after.values())
    if low > 1:
        return None
    close = [d for d in after if after[d] == low]
    ranked = []
    for d in close:
        hand[d] -= 1
        ranked.append((-ai._ukeire(hand, m, low, unseen), d))
        hand[d] += 1
    ranked.sort()
    keep = [d for _, d in ranked[:WIDTH]]
    valuable = ai._value_tiles(view, seat)
    if words[0] == "declare":
        w0 = INDEX[words[1]]
        ok = {d for d in allowed if ai._standing_after(view, seat, hand, melds, d, w0)}
        if not ok:
            return None
        default = Option(ai.best_discard(hand, m, unseen, valuable, ok), w0)
    else:
        default = Option(INDEX[words[1]])
    opts = [Option(d) for d in keep]
    if low == 0 and view.get("wall", 0) >= 8:
        declares = {INDEX[c.split()[1]] for c in legal if c.startswith("declare ")}
        for d in keep:
            ws = [w for w in declares if ai._standing_after(view, seat, hand, melds, d, w)]
            if ws:
                opts.append(Option(d, max(sorted(ws), key=lambda t: unseen[t])))
    if default not in opts:
        opts.append(default)
    if default.stand is None and default.discard not in keep:
        return None  # (strong threw a card for another reason: leave it)
    return (opts, default) if len(opts) > 1 else None


def _overrule(
    results: Sequence[Sequence[float]], means: Sequence[float], default: int, margin: float
) -> int:
    """The candidate to play: the best by its mean outcome if it beats the ``default``
    one by ``margin`` standard errors of their paired differences (the same samples and
    random numbers), else the default."""
    best = max(range(len(means)), key=lambda i: (means[i], i == default))
    if best == default:
        return default
    diffs = [a - b for a, b in zip(results[best], results[default], strict=True)]
    mu = sum(diffs) / len(diffs)
    var = sum((x - mu) ** 2 for x in diffs) / max(1, len(diffs) - 1)
    se = math.sqrt(var / len(diffs))
    return best if mu > margin * se and se > 0 else default


@dataclass
class Verdict:
    """The search's reading of a decision (for tests and benches)."""

    options: list[Option]
    default: Option
    means: list[float]
    chosen: Option


def weigh(
    view: Mapping[str, Any],
    legal: Sequence[str],
    code: str,
    n: int = SAMPLES,
    margin: float = MARGIN,
    calls: bool = True,
    objective: str = "points",
) -> Verdict | None:
    """Weigh the close candidates of the seat's discard decision by simulated futures;
    None when there is nothing to weigh. ``calls`` False: only candidates that call as
    strong does (a standing hand or silence) are weighed. ``objective``: what an outcome
    is worth (``points`` or ``match``, see :func:`_scorer`)."""
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    got = _options(view, seat, hand, legal, code)
    if got is None:
        return None
    opts, default = got
    if not calls:
        opts = [o for o in opts if (o.stand is None) == (default.stand is None)]
        if len(opts) < 2:
            return None
    tb = _table(view, seat, hand)
    score = _scorer(view, tb, objective)
    sams = samples(view, seat, n)
    base = _rng(view, seat, "r").getrandbits(32)
    results: list[list[float]] = []
    for o in opts:
        c = list(hand)
        c[o.discard] -= 1
        key = tuple(c)
        row = []
        for i, s in enumerate(sams):
            row.append(score(rollout(tb, key, o.stand, s, random.Random(base + i))))
        results.append(row)
    means = [sum(r) / len(r) for r in results]
    chosen = opts[_overrule(results, means, opts.index(default), margin)]
    return Verdict(opts, default, means, chosen)


def _claim_options(
    view: Mapping[str, Any], seat: int, hand: list[int], legal: Sequence[str]
) -> list[tuple[str, tuple[tuple[str, int, bool], ...], tuple[int, ...]]]:
    """Each pung or chow on offer with the hand it leaves after the speed discard (that
    discard keeping a card a standing opponent calls while it can): ``(code, melds, the
    13 cards' concealed part)``, only those that leave the hand one card from ready or
    closer."""
    t = INDEX[view["claim"]["card"]]
    melds = ai._melds(view, seat)
    unseen = ai._unseen(view, seat, hand)
    valuable = ai._value_tiles(view, seat)
    called = ai._called(view, seat)
    out = []
    for code in legal:
        claimed = None if code.startswith("kong") else ai.claim_meld(code, hand, t)
        if claimed is None:
            continue
        used, meld = claimed
        c = list(hand)
        for x in used:
            c[x] -= 1
        m = len(melds) + 1
        allowed = {d for d in range(NUM_KINDS) if c[d]}
        allowed = (allowed - called) or allowed
        d = ai.best_discard(c, m, unseen, valuable, allowed)
        c[d] -= 1
        if shanten(c, m) <= 1:
            out.append((code, (*melds, meld), tuple(c)))
    return out


def weigh_claim(
    view: Mapping[str, Any],
    legal: Sequence[str],
    code: str,
    n: int = SAMPLES,
    margin: float = MARGIN,
    objective: str = "points",
) -> tuple[list[str], list[float], str] | None:
    """Weigh passing against each pung or chow that leaves the hand one card from ready
    or closer (with the speed discard after it): ``(codes, means, chosen)``; None when
    there is nothing to weigh."""
    if view.get("wall", 0) < 4 or code not in ("pass", *legal):
        return None
    seat = view["seat"]
    hand = ai._counts(view["hand"])
    near = _claim_options(view, seat, hand, legal)
    if not near or (code != "pass" and code not in [c for c, _, _ in near]):
        return None
    if shanten(hand, len(ai._melds(view, seat))) > 1 and code == "pass":
        # a hand two or more cards away: strong's claim rule stands
        return None
    tb = _table(view, seat, hand)
    score = _scorer(view, tb, objective)
    sams = samples(view, seat, n)
    base = _rng(view, seat, "r").getrandbits(32)
    order = _order(view, seat)
    start_pass = order.index(view["claim"]["by"]) + 1
    codes = ["pass"]
    runs: list[tuple[Table, tuple[int, ...], int]] = [(tb, tuple(hand), start_pass)]
    for c, melds, key in near:
        sub = Table(
            seat=tb.seat,
            melds=melds,
            extras=tb.extras,
            own=tb.own,
            rnd=tb.rnd,
            round_player=tb.round_player,
            opps=tb.opps,
            unseen=tb.unseen,
            draws=tb.draws,
            concealed_ok=False,
        )
        codes.append(c)
        runs.append((sub, key, 0))
    results: list[list[float]] = []
    for sub, key, start in runs:
        w = _waits(sub, key)
        stand = _want_stand(sub, w, sub.draws) if w else None
        results.append(
            [
                score(rollout(sub, key, stand, smp, random.Random(base + i), start))
                for i, smp in enumerate(sams)
            ]
        )
    means = [sum(r) / len(r) for r in results]
    return codes, means, codes[_overrule(results, means, codes.index(code), margin)]


def _code(chosen: Option, view: Mapping[str, Any]) -> str:
    if chosen.stand is not None and view.get("pending_declare") is None:
        return f"declare {CODES[chosen.stand]}"
    return f"discard {CODES[chosen.discard]}"


def choose(
    view: Mapping[str, Any],
    legal: Sequence[str],
    rng: random.Random,
    calls: bool = True,
    claims: bool = False,
    objective: str = "points",
) -> str:
    """Strong's action, with its close discard decisions (ready or one card from ready:
    which card, a standing hand or silence) weighed by the search; ``claims``: its claims
    near ready too (pass or claim)."""
    code = ai.play(view, legal, rng, ai.STRONG)
    if claims and view.get("phase") == "claim" and len(legal) > 1 and code != "mahjong":
        got = weigh_claim(view, legal, code, objective=objective)
        return got[2] if got is not None else code
    if view.get("phase") != "discard" or view.get("turn") != view.get("seat"):
        return code
    verdict = weigh(view, legal, code, calls=calls, objective=objective)
    if verdict is None or verdict.chosen == verdict.default:
        return code
    out = _code(verdict.chosen, view)
    return out if out in legal else code
