"""The Mushi AI: a one-ply expectimax over the flip that reads only the seat's view.

Every card ends the hand in somebody's pile, so a card is worth its card points to whoever
takes it (plus its share of a combination still within reach). A play is worth what it
takes now, plus the expected take of this turn's flip (averaged over the unseen cards,
which is what the stock's top card is, as far as this seat knows), minus the expected best
capture the table we leave offers the opponent's next play, plus our best capture next
turn if the opponent leaves it to us (so a capture nobody else can make can wait).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.games.mushi.rules import (
    COMBINATIONS,
    DECK,
    MONTH,
    RAIN_CARDS,
    WILD,
    capture_choices,
    card_points,
    hand_four_months,
)
from bot.i18n import Text

# Weights, tuned in paired matches against a greedy player (take the most points, else lay
# the cheapest card): the table we leave matters more than the flip's expected take.
RISK = 1.5  # weight of what the opponent's next play may take from the table we leave
FLIP = 0.3  # weight of this turn's flip, in expectation
FUTURE = 0.8  # weight of our best capture next turn, if the opponent leaves it to us
COMBO = 0.8  # weight of progress towards (or denial of) a combination
RAIN = 1.0  # weight of the third rain card that comes with a rain pair (rule 8)
WILD_LEFT = 1.0  # weight of the leftover the wild's holder receives (rule 8)


def _by_month(table: Sequence[str]) -> dict[int, list[str]]:
    """The table's cards by month (the wild is in none: no card pairs it)."""
    out: dict[int, list[str]] = {}
    for t in table:
        if t != WILD:
            out.setdefault(MONTH[t], []).append(t)
    return out


def _wild_targets(by_month: Mapping[int, Sequence[str]]) -> list[str]:
    """:func:`bot.games.mushi.rules.wild_targets` from a table already split by month
    (order aside)."""
    return [t for cs in by_month.values() if len(cs) != 3 for t in cs if t not in RAIN_CARDS]


def _choices(code: str, by_month: Mapping[int, Sequence[str]]) -> list[tuple[str, ...]]:
    """:func:`capture_choices` from a table already split by month (order aside)."""
    if code == WILD:
        targets = _wild_targets(by_month)
        return [(t,) for t in targets] if targets else [()]
    matches = by_month.get(MONTH[code])
    if not matches:
        return [()]
    if len(matches) == 2:
        return [(m,) for m in matches]
    return [tuple(matches)]


class _Position:
    """What the view tells: our pile, theirs, the table and the unseen cards.

    The opponent's hand is a blind draw from the unseen cards: :meth:`p_holds` and
    :meth:`stock_weight` are all that a reading of its hand would change (the bench's
    switched-off readings override them; docs/ai/mushi.md)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.opp = 1 - self.me
        self.hand: list[str] = list(view.get("hand") or [])
        self.table: list[str] = list(view["table"])
        piles = [[c for group in view["captures"][s].values() for c in group] for s in (0, 1)]
        self.mine = frozenset(piles[self.me])
        self.theirs = frozenset(piles[self.opp])
        seen = set(self.hand) | set(self.table) | self.mine | self.theirs
        seen |= set(view.get("set_aside") or [])
        pending = view.get("pending") or {}
        self.pending: str | None = pending.get("card")
        if self.pending:
            seen.add(self.pending)
        self.unseen = [c for c in DECK if c not in seen]
        self.opp_hand: int = view["hand_counts"][self.opp]
        self.stock_count: int = view["stock_count"]
        opts = view.get("options") or {}
        self.bottom_rain = bool(opts.get("bottom_wild_takes_rain"))
        self.set_aside = list(view.get("set_aside") or [])
        self.wild_unseen = WILD in self.unseen
        # With the bottom-wild option the last flip may still take the third rain card.
        self.rain_keeps = 0.8 if self.bottom_rain and self.wild_unseen else 1.0
        self._value_cache: dict[frozenset[str], float] = {}
        self._p_cache: dict[tuple[int, int], float] = {}
        self._future_cache: dict[tuple[frozenset[str], frozenset[str], int | None], float] = {}
        self._risk_cache: dict[tuple[frozenset[str], int | None], float] = {}
        # Cards of each month that the opponent's hand may hold.
        self.unseen_by_month: dict[int, int] = {}
        for c in self.unseen:
            if c != WILD:
                self.unseen_by_month[MONTH[c]] = self.unseen_by_month.get(MONTH[c], 0) + 1

    # ----- values ----------------------------------------------------------------------------
    def value(self, cards: Iterable[str]) -> float:
        """What taking ``cards`` is worth to us: points, combination progress and denial."""
        cards = frozenset(cards)
        if cards in self._value_cache:
            return self._value_cache[cards]
        self._value_cache[cards] = v = self._value(cards)
        return v

    def _value(self, cards: frozenset[str]) -> float:
        total = float(sum(card_points(c) for c in cards))
        if WILD in cards:
            if self.set_aside:
                total += sum(card_points(c) for c in self.set_aside)
            total += WILD_LEFT * self._leftover(cards)
        rain = cards & RAIN_CARDS
        if len(rain) == 2 and not self.set_aside:
            # Rain cards pair only with each other (the wild never takes one), so the third
            # stays on the table and goes to whoever took the other two (rule 8).
            third = RAIN_CARDS - rain - self.mine - self.theirs
            total += RAIN * sum(card_points(c) for c in third) * self.rain_keeps
        for combo in COMBINATIONS:
            got = combo.cards & cards
            if not got:
                continue
            if not combo.cards & self.theirs:  # still ours to make
                have = len(combo.cards & self.mine)
                share = ((have + len(got)) ** 2 - have**2) / len(combo.cards) ** 2
                total += COMBO * combo.value * share
            if not combo.cards & self.mine:  # taking it ends their hope
                have = len(combo.cards & self.theirs)
                total += COMBO * combo.value * (have / len(combo.cards)) ** 2
        return total

    def _leftover(self, cards: frozenset[str]) -> float:
        """What the wild taken with ``cards`` should bring at the hand's end: the card of
        its target's month left unpaired, which goes to the wild's holder (rule 8)."""
        targets = [c for c in cards if c != WILD]
        if len(targets) != 1:
            return 0.0
        month = MONTH[targets[0]]
        gone = self.mine | self.theirs | cards
        mates = [c for c in DECK if MONTH[c] == month and c not in gone and c != WILD]
        if len(mates) % 2 == 0:
            return 0.0  # they pair off: nothing left for the holder
        return sum(card_points(c) for c in mates) / len(mates)

    def p_holds(self, month: int | None, flipped: str | None, wild: bool) -> float:
        """Chance that the opponent's hand holds a card of ``month`` (None: no month) or,
        if ``wild``, the wild, once ``flipped`` (an unseen card; None: no flip) has turned
        up: a blind draw of its hand from the cards still unseen."""
        mates = 0 if month is None else self.unseen_by_month.get(month, 0)
        if flipped is not None and flipped != WILD and MONTH[flipped] == month:
            mates -= 1
        if wild:
            mates += 1
        return self.p_opp_holds(mates, len(self.unseen) - (flipped is not None))

    def stock_weight(self, card: str) -> float:
        """The weight of the unseen ``card`` among the stock's possible top cards (the
        flip's average divides by their sum): blind, every unseen card alike."""
        return 1.0

    def p_opp_holds(self, n: int, total: int) -> float:
        """Chance the opponent's hand holds one of ``n`` given cards among ``total`` unseen."""
        key = (n, total)
        if key not in self._p_cache:
            p = 0.0
            if n > 0 and self.opp_hand > 0 and total > 0:
                miss = 1.0
                for i in range(min(self.opp_hand, total)):
                    miss *= max(0, total - n - i) / (total - i)
                p = 1.0 - miss
            self._p_cache[key] = p
        return self._p_cache[key]

    def risk(self, table: Sequence[str], flipped: str | None) -> float:
        """Expected best capture the opponent's next play finds on ``table``.

        ``flipped`` is the unseen card this turn's flip turned up (no longer unseen).
        """
        if self.opp_hand == 0:
            return 0.0
        # Only the flipped card's month matters (the wild: none), and the table as a set.
        month_key = None if flipped is None else (0 if flipped == WILD else MONTH[flipped])
        key = (frozenset(table), month_key)
        if key not in self._risk_cache:
            self._risk_cache[key] = self._risk(table, flipped)
        return self._risk_cache[key]

    def _risk(self, table: Sequence[str], flipped: str | None) -> float:
        by_month = _by_month(table)
        options: list[tuple[float, float]] = []
        for month, cards in by_month.items():
            p = self.p_holds(month, flipped, wild=False)
            if p > 0:
                taken = cards if len(cards) == 3 else [max(cards, key=card_points)]
                options.append((self.value(taken), p))
        if self.wild_unseen and flipped != WILD:
            targets = _wild_targets(by_month)
            if targets:
                best = max(self.value((t,)) for t in targets)
                p = self.p_holds(None, flipped, wild=True)
                if p > 0:
                    options.append((best, p))
        # E[max] of independent options, best first.
        options.sort(reverse=True)
        expected, miss = 0.0, 1.0
        for v, p in options:
            expected += miss * p * v
            miss *= 1.0 - p
        return expected

    # ----- simulation ---------------------------------------------------------------------------
    def flip_outcome(
        self,
        flip: str,
        table: list[str],
        last: bool,
        by_month: Mapping[int, Sequence[str]] | None = None,
    ) -> tuple[float, list[str]]:
        """What flipping ``flip`` onto ``table`` takes (best choice) and the table after."""
        if flip == WILD and last:
            rain = [t for t in table if t in RAIN_CARDS]
            if self.bottom_rain and rain:
                best = max(rain, key=card_points)
                return self.value([WILD, best]), [t for t in table if t != best]
            return self.value([WILD]), table
        if by_month is None:
            by_month = _by_month(table)
        if flip == WILD:
            targets = _wild_targets(by_month)
            if not targets:
                return -0.5, [*table, WILD]  # the opponent's flip will take it
            best = max(targets, key=lambda t: self.value([t]))
            return self.value([WILD, best]), [t for t in table if t != best]
        if WILD in table and flip not in RAIN_CARDS and len(by_month.get(MONTH[flip], ())) != 3:
            # The flip must take the wild (wild_duty_applies).
            return self.value([flip, WILD]), [t for t in table if t != WILD]
        choices = _choices(flip, by_month)
        took = max(choices, key=self.value)
        if not took:
            return 0.0, [*table, flip]
        return self.value([flip, *took]), [t for t in table if t not in took]

    def future(self, table: Sequence[str], hand: Sequence[str], flipped: str | None) -> float:
        """Our best capture next turn with ``hand`` if the opponent leaves it to us."""
        month_key = None if flipped is None else (0 if flipped == WILD else MONTH[flipped])
        key = (frozenset(table), frozenset(hand), month_key)
        if key in self._future_cache:
            return self._future_cache[key]
        best = 0.0
        by_month = _by_month(table)
        for h in hand:
            for took in _choices(h, by_month):
                if not took:
                    continue
                # (``wild``: the opponent's wild could take it first)
                wild = len(took) < 3 and self.wild_unseen and flipped != WILD and h != WILD
                survive = 1.0 - self.p_holds(MONTH[took[0]], flipped, wild)
                best = max(best, survive * self.value([h, *took]))
        self._future_cache[key] = best
        return best

    def take_value(self, target: str) -> float:
        """What the flip waiting for our choice is worth taking ``target``: the card, and
        the table the choice leaves (the opponent plays next)."""
        flip = [self.pending] if self.pending else []
        table = [t for t in self.table if t != target]
        return (
            self.value([*flip, target])
            - RISK * self.risk(table, None)
            + FUTURE * self.future(table, self.hand, None)
        )

    def play_value(self, card: str, took: Sequence[str]) -> float:
        hand = [h for h in self.hand if h != card]
        if took:
            gain = self.value([card, *took])
            table = [t for t in self.table if t not in took]
        else:
            gain = -0.5 if card == WILD else 0.0
            table = [*self.table, card]
        if self.stock_count == 0 or not self.unseen:
            return gain - RISK * self.risk(table, None) + FUTURE * self.future(table, hand, None)
        last = self.stock_count == 1
        total = weight = 0.0
        # Flips of one month leave the same table, and risk and future read only the
        # flip's month: those terms are worked out once per month.
        tails: dict[int, float] = {}
        by_month = _by_month(table)
        for flip in self.unseen:
            w = self.stock_weight(flip)
            if w <= 0.0:
                continue
            flip_gain, after = self.flip_outcome(flip, table, last, by_month)
            month = 0 if flip == WILD else MONTH[flip]
            tail = tails.get(month)
            if tail is None:
                tail = FUTURE * self.future(after, hand, flip) - RISK * self.risk(after, flip)
                tails[month] = tail
            total += w * (FLIP * flip_gain + tail)
            weight += w
        if weight <= 0.0:
            return gain
        return gain + total / weight


def _parse(code: str, table: Sequence[str]) -> tuple[str, list[str]]:
    words = code.split()
    if len(words) == 3:
        return words[1], [words[2]]
    return words[1], list(capture_choices(words[1], table)[0])


def choose(
    view: Mapping[str, Any],
    legal: Sequence[str],
    rng: random.Random,
    *,
    position: Callable[[Mapping[str, Any]], _Position] = _Position,
) -> str:
    """The AI's action for the seat whose ``view`` this is (one of ``legal``).
    ``position``: how the view is read (the bench's variants pass a subclass)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view.get("phase")
    if "cancel" in legal:
        hand = list(view.get("hand") or [])
        # Four of a month is a sure capture; only a poor hand is worth a new deal.
        points = sum(card_points(c) for c in hand)
        keep = points >= 40 or any(m == 11 for m in hand_four_months(hand))
        if not keep:
            return "cancel"
        legal = [c for c in legal if c != "cancel"]
        if len(legal) == 1:
            return legal[0]
    pos = position(view)
    if phase == "choose_flip":
        return max(legal, key=lambda code: (pos.take_value(code.split()[1]), rng.random()))
    scored = []
    for code in legal:
        card, took = _parse(code, pos.table)
        scored.append((pos.play_value(card, took), rng.random(), code))
    return max(scored)[2]


# ----- hints --------------------------------------------------------------------------------


def _name(code: str) -> Text:
    from bot.games.hanafuda.cards import card

    return card(code).name


def _completes(mine: frozenset[str], taken: set[str]) -> list[Any]:
    return [c for c in COMBINATIONS if c.cards <= (mine | taken) and not c.cards <= mine]


def hint(view: Mapping[str, Any], legal: Sequence[str]) -> tuple[str, str]:
    """What the AI would play from this view, and why in a line: ``(code, reason)``.

    Deterministic (ties are broken by a fixed die); ``code`` is one of ``legal``."""
    if not legal:
        return "", Text("Nothing to decide now.", context="hanafuda")
    code = choose(view, legal, random.Random(f"hint:{view.get('version')}"))
    if code == "cancel":
        return code, Text("Cancel the deal: this hand is too poor to keep its four of a month")
    pos = _Position(view)
    words = code.split()
    if view.get("phase") == "choose_flip":
        target = words[1]
        taken = {view["pending"]["card"], target}
        made = _completes(pos.mine, taken)
        if made:
            return code, _completes_text(made[0])
        return code, Text(
            "Takes {card}: {points} card points, the best here",
            card=_name(target),
            points=card_points(target),
        )
    card, took = _parse(code, pos.table)
    taken = {card, *took}
    if not took:
        return code, Text(
            "Nothing worth taking: lays {card}, the card that gives away least", card=_name(card)
        )
    made = _completes(pos.mine, taken)
    if made:
        return code, _completes_text(made[0])
    points = sum(card_points(c) for c in taken)
    best = max(took, key=card_points)
    denied = [c for c in COMBINATIONS if set(took) & c.cards and c.cards & pos.theirs]
    if denied and not any(c.cards & pos.mine for c in denied):
        return code, Text(
            "Takes {card} and keeps the opponent from {combination}",
            card=_name(best),
            combination=denied[0].name,
        )
    return code, Text(
        "Takes {card}: {points} card points, the best of this turn", card=_name(best), points=points
    )


def _completes_text(made: Any) -> Text:
    return Text("Completes {combination} (+{value})", combination=made.name, value=made.value)


# ----- levels -------------------------------------------------------------------------------

#: How often the easy AI plays like a beginner instead of like ``normal``.
EASY_GREEDY = 0.4  # grabs the most card points in sight, blind to the table it leaves
EASY_ANY_MATCH = 0.4  # takes the first match it notices, whatever it is worth


def _beginner(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, best: bool) -> str:
    """A beginner's play: a capture (the most card points, or any), else the cheapest card."""
    table = list(view["table"])
    if view.get("phase") == "choose_flip":
        takes = list(legal)
        return max(takes, key=lambda c: card_points(c.split()[1])) if best else rng.choice(takes)
    plays = [c for c in legal if c != "cancel"]
    taking = [(c, _parse(c, table)) for c in plays]
    captures = [(c, card, took) for c, (card, took) in taking if took]
    if not captures:
        return min(plays, key=lambda c: (card_points(c.split()[1]), c))
    if not best:
        return rng.choice(captures)[0]
    return max(captures, key=lambda t: card_points(t[1]) + sum(map(card_points, t[2])))[0]


def choose_easy(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The easy AI: a beginner's mistakes, never nonsense. It keeps every dealt four (a
    beginner does not think of cancelling); 40 % of its plays grab the most card points in
    sight (blind to what the table it leaves offers), 40 % whatever match it notices
    first; the rest are ``normal``'s."""
    if len(legal) == 1:
        return legal[0]
    if "cancel" in legal:
        legal = [c for c in legal if c != "cancel"]
        if len(legal) == 1:
            return legal[0]
    roll = rng.random()
    if roll < EASY_GREEDY:
        return _beginner(view, legal, rng, best=True)
    if roll < EASY_GREEDY + EASY_ANY_MATCH:
        return _beginner(view, legal, rng, best=False)
    return choose(view, legal, rng)
