"""San Da Yi's ``strong`` AI: determinized Monte Carlo at the decisions that matter.

It searches where a hand is won or lost and plays the normal AI everywhere else:

- **bidding**, when the hand is near the normal AI's bidding threshold: the kitty and the
  other three hands are dealt at random from the cards this seat has not seen, and the
  hand is played out with this seat as declarer (normal bury, trump and play for all four
  seats). The same playouts settle the hand at every bid, so one search gives the mean
  settlement of each legal bid; the seat bids the best one when it is worth more than
  passing (a redeal or defending, counted as 0);
- **burying and naming trump**: one candidate per plausible trump suit (the normal bury
  for that trump), each played out in the same determinizations;
- **card play**, when more than one card is sensible and the hand is far enough along for
  the playouts to be cheap and informative: every distinct candidate is played out by
  the normal AI for all four seats, and the normal AI's own card is kept unless another
  is clearly better.

A determinization is built from the seat's view only: its own hand, the public tricks,
the kitty when it was shown, the buried cards for the declarer, and the suits a seat has
shown it lacks. The hidden cards are dealt from exactly the cards this seat has not seen.
The playouts run on :class:`Sim`, a bare trick engine (no events, no views, no history),
with the normal AI's own lead and follow rules.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.search import Budget, determinized_choice
from bot.games.sandayi.ai import (
    HAND_SIZE,
    KITTY_SIZE,
    SEATS,
    _follow,
    _lead,
    _Table,
    best_trump,
    choose,
    choose_bury,
    hand_strength,
    suit_strength,
)
from bot.games.sandayi.cards import (
    DECK,
    SUITS,
    cards_points,
    group,
    points,
    sort_canonical,
    trick_strength,
    trick_winner_index,
)
from bot.games.sandayi.scoring import BIDS, settle

log = logging.getLogger(__name__)

View = Mapping[str, Any]
BURIED = SEATS  # the pseudo-seat of the buried cards in a determinization

#: Bidding is searched only for hands whose normal strength lies in this range: weaker
#: hands lose as declarer whatever the kitty brings, stronger ones win at some bid.
BID_SEARCH_RANGE = (12.5, 40.0)
BID_BUDGET = Budget(samples=16, seconds=0.1)
#: Mean declarer settlement a bid must beat to be made (passing is worth about 0).
BID_MARGIN = 0.0
#: Trumps whose normal suit strength is within this of the best suit's are tried.
TRUMP_SPREAD = 3.0
KITTY_BUDGET = Budget(samples=16, seconds=0.1)
#: Card play is searched from this trick on (0-based; the playouts are then short).
PLAY_SEARCH_FROM = 8
PLAY_BUDGET = Budget(samples=10, seconds=0.05)
#: Mean settlement (stakes, per playout) by which a card must beat the normal AI's card.
PLAY_MARGIN = 0.15
#: The budgets' seconds are CPU seconds of the searching thread: on a busy host (or a
#: loaded bench machine) a search still gets its samples instead of being cut short by
#: other processes' work; unloaded, CPU and wall clock agree.
CLOCK = time.thread_time


# ----- the playout engine -------------------------------------------------------------------

#: ``GROUP[trump][card]``: :func:`group` looked up, not recomputed, in the playouts' loops.
GROUP: dict[str, dict[str, str]] = {t: {c: group(c, t) for c in DECK} for t in SUITS}


class _FastTable(_Table):
    """The normal AI's table with the unseen cards split by group once, not per question
    (the same lists in the same order, so the same choices)."""

    by_group: dict[str, list[str]]

    def unseen_in(self, grp: str) -> list[str]:
        return self.by_group.get(grp, [])


class Sim:
    """One hand in play, all four hands known: a determinization to play out."""

    __slots__ = (
        "hands",
        "declarer",
        "trump",
        "bid",
        "buried",
        "trick",
        "leader",
        "played",
        "voids",
        "tricks_played",
        "defender_points",
        "last_winner",
    )

    def __init__(
        self,
        hands: list[list[str]],
        declarer: int,
        trump: str,
        bid: int,
        buried: list[str],
        leader: int,
        trick: list[tuple[int, str]] | None = None,
        played: set[str] | None = None,
        voids: dict[int, set[str]] | None = None,
        tricks_played: int = 0,
        defender_points: int = 0,
    ) -> None:
        self.hands = hands
        self.declarer = declarer
        self.trump = trump
        self.bid = bid
        self.buried = buried
        self.leader = leader
        self.trick = trick or []
        self.played = played or set()
        self.voids = voids or {s: set() for s in range(SEATS)}
        self.tricks_played = tricks_played
        self.defender_points = defender_points
        self.last_winner = -1

    def copy(self) -> Sim:
        return Sim(
            [list(h) for h in self.hands],
            self.declarer,
            self.trump,
            self.bid,
            self.buried,
            self.leader,
            list(self.trick),
            set(self.played),
            {s: set(v) for s, v in self.voids.items()},
            self.tricks_played,
            self.defender_points,
        )

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % SEATS

    def playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if not self.trick:
            return sort_canonical(hand)
        groups = GROUP[self.trump]
        led = groups[self.trick[0][1]]
        return sort_canonical([c for c in hand if groups[c] == led] or hand)

    def table(self, seat: int) -> _Table:
        """What ``seat`` would know here: the normal AI's picture of the table."""
        t = _FastTable.__new__(_FastTable)
        t.me = seat
        t.declarer = self.declarer
        t.trump = self.trump
        t.hand = list(self.hands[seat])
        t.trick = list(self.trick)
        t.tricks_played = self.tricks_played
        t.voids = self.voids  # read only by the normal AI
        seen = set(self.hands[seat]) | self.played | {c for _, c in self.trick}
        if seat == self.declarer:
            seen |= set(self.buried)
        t.unseen = [c for c in DECK if c not in seen]
        groups = GROUP[self.trump]
        by_group: dict[str, list[str]] = {}
        for c in t.unseen:
            by_group.setdefault(groups[c], []).append(c)
        t.by_group = by_group
        return t

    def normal_card(self, seat: int) -> str:
        playable = self.playable(seat)
        if len(playable) == 1:
            return playable[0]
        t = self.table(seat)
        return _follow(t, playable) if self.trick else _lead(t, playable)

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if self.trick:
            groups = GROUP[self.trump]
            led = groups[self.trick[0][1]]
            if groups[card] != led:
                self.voids[seat].add(led)
        self.trick.append((seat, card))
        if len(self.trick) < SEATS:
            return
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner_index(cards, self.trump)][0]
        if winner != self.declarer:
            self.defender_points += cards_points(cards)
        self.played.update(cards)
        self.trick = []
        self.leader = winner
        self.tricks_played += 1
        self.last_winner = winner

    def run(self) -> tuple[int, bool]:
        """Play the hand out with the normal AI at every seat: ``(D, 抠底)``."""
        while self.tricks_played < HAND_SIZE:
            seat = self.to_play
            self.play(seat, self.normal_card(seat))
        return self.defender_points, self.last_winner != self.declarer

    def value(self, seat: int) -> float:
        """Play out and return ``seat``'s settlement in stakes of its bid (rule 17)."""
        d, kou_di = self.run()
        result = settle(self.bid, d, kou_di)
        return float(result.declarer_delta if seat == self.declarer else result.defender_delta)


# ----- determinizations ---------------------------------------------------------------------


def _deal(
    cards: list[str],
    capacity: dict[int, int],
    allowed: Mapping[str, Sequence[int]],
    rng: random.Random,
) -> dict[int, list[str]] | None:
    """Deal ``cards`` into holders of the given capacities, each card to one of its
    ``allowed`` holders; the most constrained cards first. None at a dead end."""
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: len(allowed[c]))
    left = dict(capacity)
    out: dict[int, list[str]] = {h: [] for h in capacity}
    for c in order:
        holders = [h for h in allowed[c] if left[h] > 0]
        if not holders:
            return None
        pick = rng.randrange(sum(left[h] for h in holders))
        for h in holders:
            pick -= left[h]
            if pick < 0:
                break
        out[h].append(c)
        left[h] -= 1
    return out


def play_voids(view: View) -> dict[int, set[str]]:
    """The groups each seat has shown it lacks (it did not follow the led group)."""
    trump = view["trump"]
    voids: dict[int, set[str]] = {s: set() for s in range(SEATS)}
    tricks = [[(p["seat"], p["card"]) for p in t["cards"]] for t in view["tricks"]]
    tricks.append([(p["seat"], p["card"]) for p in view["trick"]])
    for cards in tricks:
        if not cards:
            continue
        led = group(cards[0][1], trump)
        for s, c in cards[1:]:
            if group(c, trump) != led:
                voids[s].add(led)
    return voids


def unseen_cards(view: View) -> list[str]:
    """The cards the viewing seat has not seen in play: the other hands, and the buried
    cards unless it is the declarer (the kitty, even when shown, may be in either)."""
    seen = set(view["hand"] or [])
    seen |= {p["card"] for t in view["tricks"] for p in t["cards"]}
    seen |= {p["card"] for p in view["trick"]}
    seen |= set(view.get("buried") or [])
    return [c for c in DECK if c not in seen]


def sample_play(view: View, rng: random.Random) -> Sim:
    """A play-phase determinization consistent with ``view``: the unseen cards dealt to
    the other hands (and the buried pile, for a defender) by their sizes, never a card of a
    suit its holder has shown it lacks; a shown kitty's unplayed cards go to the declarer's
    hand or the buried pile."""
    me, declarer, trump = view["seat"], view["declarer"], view["trump"]
    voids = play_voids(view)
    unknown = unseen_cards(view)
    counts = view["hand_counts"]
    capacity = {s: counts[s] for s in range(SEATS) if s != me}
    if me != declarer:
        capacity[BURIED] = KITTY_SIZE
    kitty = set(view.get("kitty") or []) if me != declarer else set()
    holders = list(capacity)
    allowed: dict[str, list[int]] = {}
    for c in unknown:
        g = group(c, trump)
        hs = [h for h in holders if h == BURIED or g not in voids[h]]
        if c in kitty:
            hs = [h for h in hs if h in (declarer, BURIED)]
        allowed[c] = hs
    dealt = None
    for _ in range(20):
        dealt = _deal(unknown, capacity, allowed, rng)
        if dealt is not None:
            break
    if dealt is None:  # inconsistent voids (cannot happen in a legal game): ignore them
        log.debug("sandayi strong: no deal respects the voids; dealing freely")
        dealt = _deal(unknown, capacity, {c: holders for c in unknown}, rng)
        assert dealt is not None
    hands = [list(view["hand"]) if s == me else dealt[s] for s in range(SEATS)]
    buried = list(view.get("buried") or []) if me == declarer else dealt[BURIED]
    trick = [(p["seat"], p["card"]) for p in view["trick"]]
    played = {p["card"] for t in view["tricks"] for p in t["cards"]}
    leader = trick[0][0] if trick else view["leader"]
    return Sim(
        hands,
        declarer,
        trump,
        view["bid"],
        buried,
        leader,
        trick,
        played,
        voids,
        view["tricks_played"],
        view["defender_points"],
    )


def _deal_others(view: View, rng: random.Random, kitty: bool) -> list[list[str]]:
    """Before play: the cards this seat has not seen dealt at random to the three other
    hands (and, in the bidding, to the kitty: the fifth list)."""
    me = view["seat"]
    rest = [c for c in unseen_cards(view)]
    rng.shuffle(rest)
    hands: list[list[str]] = []
    for s in range(SEATS):
        if s == me:
            hands.append(list(view["hand"]))
        else:
            hands.append(rest[:HAND_SIZE])
            rest = rest[HAND_SIZE:]
    if kitty:
        hands.append(rest)
    return hands


# ----- bidding ------------------------------------------------------------------------------


def _declare(hands: list[list[str]], declarer: int, kitty: list[str]) -> Sim:
    """The normal AI's bury and trump for ``declarer`` taking ``kitty``; bid set later."""
    hands = [list(h) for h in hands]
    hands[declarer] += kitty
    buried = choose_bury(hands[declarer]).split()[1:]
    for c in buried:
        hands[declarer].remove(c)
    trump = best_trump(hands[declarer])
    return Sim(hands, declarer, trump, BIDS[0], buried, declarer)


def bid_values(view: View, bids: Sequence[int], rng: random.Random, budget: Budget) -> list[float]:
    """The mean declarer settlement of each bid in ``bids`` for this seat's hand, over
    determinizations of the kitty and the other hands (one playout settles every bid)."""
    me = view["seat"]
    totals = [0.0] * len(bids)
    n = 0
    started = CLOCK()
    for _ in range(budget.samples):
        dealt = _deal_others(view, rng, kitty=True)
        sim = _declare(dealt[:SEATS], me, dealt[SEATS])
        d, kou_di = sim.run()
        for i, b in enumerate(bids):
            totals[i] += settle(b, d, kou_di).declarer_delta
        n += 1
        if budget.seconds is not None and CLOCK() - started >= budget.seconds:
            break
    return [t / n for t in totals]


def choose_bid(view: View, legal: Sequence[str], rng: random.Random, budget: Budget) -> str:
    bids = [int(c.split()[1]) for c in legal if c.startswith("bid ")]
    if "pass" not in legal or not bids:
        return choose(view, legal, rng)
    strength = hand_strength(view["hand"])
    lo, hi = BID_SEARCH_RANGE
    if not lo <= strength <= hi:
        return choose(view, legal, rng)
    values = bid_values(view, bids, rng, budget)
    best = max(range(len(bids)), key=lambda i: (values[i], -i))
    return f"bid {bids[best]}" if values[best] > BID_MARGIN else "pass"


# ----- bury and trump -----------------------------------------------------------------------


def _trump_candidates(hand: Sequence[str]) -> list[str]:
    strengths = {s: suit_strength(hand, s) for s in SUITS}
    top = max(strengths.values())
    return [s for s in SUITS if strengths[s] >= top - TRUMP_SPREAD]


def choose_bury_strong(view: View, rng: random.Random, budget: Budget) -> str:
    hand = list(view["hand"])
    count = view.get("to_bury") or len(hand) - HAND_SIZE
    options: dict[str, str] = {}
    for t in _trump_candidates(hand):
        options.setdefault(choose_bury(hand, count, trump=t), t)
    normal = choose_bury(hand, count)
    if len(options) == 1:
        return normal
    me = view["seat"]
    buried_before = list(view.get("buried") or [])

    def sample(v: View, r: random.Random) -> list[list[str]]:
        return _deal_others(v, r, kitty=False)

    def playout(hands: list[list[str]], code: str, r: random.Random) -> float:
        cards = code.split()[1:]
        mine = [c for c in hands[me] if c not in cards]
        hs = [mine if s == me else hands[s] for s in range(SEATS)]
        sim = Sim(hs, me, options[code], view["bid"], buried_before + cards, me)
        return sim.value(me)

    codes = list(options)
    return determinized_choice(
        view,
        codes,
        rng,
        sample=sample,
        playout=playout,
        copy=lambda hs: [list(h) for h in hs],
        budget=budget,
        prior=normal if normal in options else None,
        clock=CLOCK,
    )


def choose_trump_strong(
    view: View, legal: Sequence[str], rng: random.Random, budget: Budget
) -> str:
    hand = list(view["hand"])
    normal = choose(view, legal, rng)
    codes = [f"trump {s}" for s in _trump_candidates(hand) if f"trump {s}" in legal]
    if normal not in codes:
        codes.append(normal)
    if len(codes) == 1:
        return normal
    me = view["seat"]
    buried = list(view.get("buried") or [])

    def playout(hands: list[list[str]], code: str, r: random.Random) -> float:
        sim = Sim(hands, me, code.split()[1], view["bid"], buried, me)
        return sim.value(me)

    return determinized_choice(
        view,
        codes,
        rng,
        sample=lambda v, r: _deal_others(v, r, kitty=False),
        playout=playout,
        copy=lambda hs: [list(h) for h in hs],
        budget=budget,
        prior=normal,
        clock=CLOCK,
    )


# ----- card play ----------------------------------------------------------------------------


def _candidates(view: View, legal: Sequence[str]) -> list[str]:
    """The cards worth comparing: of cards that are interchangeable (the same group, no
    points, adjacent in strength within the hand), only the lowest."""
    trump = view["trump"]
    cards = [c.split()[1] for c in legal]
    out: list[str] = []
    seen_keys: set[tuple[str, int, int]] = set()
    for c in sorted(cards, key=lambda c: trick_strength(c, trump, group(c, trump))):
        g = group(c, trump)
        key = (g, points(c), trick_strength(c, trump, g) // 100)
        # Plain non-point cards of one suit below the 9 play alike: keep the lowest.
        if points(c) == 0 and trick_strength(c, trump, g) < 40 + 9 and key in seen_keys:
            continue
        seen_keys.add(key)
        out.append(f"play {c}")
    return out


def choose_play_strong(view: View, legal: Sequence[str], rng: random.Random, budget: Budget) -> str:
    normal = choose(view, legal, rng)
    if len(legal) <= 1 or view["tricks_played"] < PLAY_SEARCH_FROM:
        return normal
    codes = _candidates(view, legal)
    if normal not in codes:
        codes.append(normal)
    if len(codes) == 1:
        return normal
    me = view["seat"]

    def playout(sim: Sim, code: str, r: random.Random) -> float:
        sim.play(me, code.split()[1])
        return sim.value(me)

    return determinized_choice(
        view,
        codes,
        rng,
        sample=sample_play,
        playout=playout,
        copy=Sim.copy,
        budget=budget,
        prior=normal,
        margin=PLAY_MARGIN,
        clock=CLOCK,
    )


def choose_strong(view: View, legal: Sequence[str], rng: random.Random) -> str:
    """The strong AI's action from its own view (see the module docstring)."""
    phase = view["phase"]
    if phase == "bidding":
        return choose_bid(view, legal, rng, BID_BUDGET)
    if phase == "bury":
        return choose_bury_strong(view, rng, KITTY_BUDGET)
    if phase == "trump":
        return choose_trump_strong(view, legal, rng, KITTY_BUDGET)
    if phase == "play":
        return choose_play_strong(view, legal, rng, PLAY_BUDGET)
    return choose(view, legal, rng)


__all__ = ["Sim", "choose_strong", "sample_play", "unseen_cards", "bid_values"]
