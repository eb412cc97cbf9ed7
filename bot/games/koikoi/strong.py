"""Koi-Koi's determinized Monte Carlo over the seat's own view: normal's plays and strong's.

Each determinization deals the cards this seat has not seen (the opponent's hand and the
stack) at random from exactly those cards; the candidates (the one-ply judgement's best few
plays, :func:`choose_one_ply`) are played out in the same samples to the end of the round by
a fast normal-like policy for both seats (:func:`_policy_play`) — in strong's playouts the
first :data:`NORMAL_PLIES` plays after the searched one are the one-ply judgement's own.
Each seat stops at its first yaku, except in the match's last round, where a seat behind
plays on until stopping wins or ties the match (:func:`needs`). A playout is judged by the
chance of winning the match the round's result leaves; the one-ply choice stands unless
another beats it by :data:`Z` standard errors (:func:`search`). Koi-Koi or stop is the
one-ply judgement's call (itself weighed by playouts).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.core import State
from bot.engine.search import Budget, determinized_choice
from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BLUE_RIBBONS,
    BRIGHT,
    PLAIN,
    RED_POETRY_RIBBONS,
    RIBBON,
    sort_cards,
)
from bot.games.koikoi import judge
from bot.games.koikoi.judge import _choose_flip, _choose_play, _decide, _Position, _score_play
from bot.games.koikoi.rules import (
    CHOOSE_FLIP,
    CLASS,
    DECIDE,
    INO_SHIKA_CHO,
    MONTH,
    PLAY,
    RAIN_MAN,
    SAKE_CUP,
    KoiKoiState,
    card_value,
    score_yaku,
)

View = Mapping[str, Any]
#: In the last round only the match counts: a win is worth this many round points.
MATCH_POINTS = 30.0
#: The spread of one round's score difference (normal against greedy players, measured).
ROUND_SD = 3.7
_MAX = 40  # round points beyond this change the match chances no more


def unseen_cards(view: View) -> list[str]:
    """The cards the viewing seat has not seen: the opponent's hand and the stack."""
    me = view["seat"]
    seen = set(view["hand"] or []) | set(view["board"])
    seen |= set(view["captures"][0]) | set(view["captures"][1])
    pending = view.get("pending") or {}
    if pending.get("card"):
        seen.add(pending["card"])
    assert me in (0, 1)
    return [c for c in ALL_CARDS if c not in seen]


def deal_hidden(view: View, rng: random.Random, lack_weight: float = 1.0) -> list[str]:
    """The unseen cards in a random order: the opponent's hand first, then the stack (top
    last). With ``lack_weight`` below 1 the hand is drawn with cards of the months the
    opponent is believed to lack (:func:`~bot.games.koikoi.judge.opponent_lacks`) weighted by
    it against the others' 1 — a belief, never a certainty: 0 rules them out while the
    other unseen cards suffice; the cards dealt are the unseen ones either way."""
    hidden = unseen_cards(view)
    rng.shuffle(hidden)
    n_opp = view["hand_counts"][1 - view["seat"]]
    if len(hidden) != n_opp + view["stack_count"]:
        raise ValueError("the view's card counts do not add up")
    if lack_weight >= 1.0 or not n_opp:
        return hidden
    lacks = _lacks(view)
    if not lacks:
        return hidden
    likely = [c for c in hidden if MONTH[c] not in lacks]
    unlikely = [c for c in hidden if MONTH[c] in lacks]
    hand: list[str] = []
    for _ in range(n_opp):
        total = len(likely) + lack_weight * len(unlikely)
        if not likely or (unlikely and rng.random() * total >= len(likely)):
            hand.append(unlikely.pop())
        else:
            hand.append(likely.pop())
    stack = likely + unlikely
    rng.shuffle(stack)
    return hand + stack


#: The last view each thread read, and its reading: searches of several tables run at once
#: in worker threads, and one must never take another's reading.
_LACKS = threading.local()


def _lacks(view: View) -> frozenset[int]:
    """:func:`~bot.games.koikoi.judge.opponent_lacks`, read once per view (a search deals
    many samples from one view)."""
    last: tuple[View, frozenset[int]] | None = getattr(_LACKS, "last", None)
    if last is None or last[0] is not view:
        last = _LACKS.last = (view, judge.opponent_lacks(view))
    return last[1]


def sample_world(view: View, rng: random.Random, lack_weight: float = 1.0) -> KoiKoiState:
    """One full state consistent with ``view``, built from the view alone: the unseen cards
    dealt into the opponent's hand and the stack (:func:`deal_hidden`). The world's match
    is this one round (``rounds`` 1, scores 0), so its final scores are the round's
    outcome."""
    me = view["seat"]
    opp = 1 - me
    hidden = deal_hidden(view, rng, lack_weight)
    n_opp = view["hand_counts"][opp]
    world = object.__new__(KoiKoiState)
    State.__init__(world, "world", ("A", "B"), {"rounds": 1})
    world.rounds = 1
    world._decks = []
    world.deal_count = view["deal"]
    world.void_deals = 0
    world._next_dealer = view["dealer"]
    world.dealer = view["dealer"]
    world.current = me
    world.phase = view["phase"]
    world.hands = [[], []]
    world.hands[me] = list(view["hand"])
    world.hands[opp] = hidden[:n_opp]
    world.board = list(view["board"])
    world.stack = hidden[n_opp:]
    world.captures = [list(view["captures"][0]), list(view["captures"][1])]
    world.yaku_points = list(view["yaku_points"])
    world.koikoi = list(view["koikoi"])
    world.match_scores = [0, 0]
    world.history = []
    world.flipped, world.flip_options = None, []
    world.last_play = world.last_flip = None
    world.plays = []
    world.turn_start_points = view["yaku_points"][me]
    if world.phase == CHOOSE_FLIP:
        world.flipped = view["pending"]["card"]
        world.flip_options = list(view["pending"]["options"])
        # Points at the turn's start: the pile without this turn's play.
        play = view.get("last_play") or {}
        this_turn = {play.get("card"), *(play.get("took") or [])}
        before = [c for c in view["captures"][me] if c not in this_turn]
        world.turn_start_points = world.yaku_points[me] = sum(p for _, p in score_yaku(before))
    elif world.phase == DECIDE:
        world.yaku_points[me] = view["pending"]["points"]
    return world


_VALUE = {c: card_value(c) for c in ALL_CARDS}


def _best_target(targets: Sequence[str]) -> str:
    return max(targets, key=_VALUE.__getitem__)


# A capture pile as counts, for the playouts' yaku totals: brights, the Rain Man, animals,
# ribbons, plains (the Sake cup is an animal and a plain), Ino-Shika-Cho, red and blue
# poetry ribbons.
def _card_vector(code: str) -> tuple[int, ...]:
    cls = CLASS[code]
    return (
        int(cls == BRIGHT),
        int(code == RAIN_MAN),
        int(cls == ANIMAL),
        int(cls == RIBBON),
        int(cls == PLAIN or code == SAKE_CUP),
        int(code in INO_SHIKA_CHO),
        int(code in RED_POETRY_RIBBONS),
        int(code in BLUE_RIBBONS),
    )


_VECTOR = {c: _card_vector(c) for c in ALL_CARDS}


def _counts(pile: Sequence[str]) -> list[int]:
    counts = [0] * 8
    for c in pile:
        for i, n in enumerate(_VECTOR[c]):
            counts[i] += n
    return counts


def _add(counts: list[int], code: str) -> None:
    for i, n in enumerate(_VECTOR[code]):
        counts[i] += n


def count_points(counts: Sequence[int]) -> int:
    """The yaku total of a pile from its counts: :func:`score_yaku`'s sum, computed fast."""
    brights, rain, animals, ribbons, plains, isc, red, blue = counts
    points = max(0, plains - 9) + max(0, ribbons - 4) + max(0, animals - 4)
    points += 5 * (isc == 3) + 6 * (red == 3) + 6 * (blue == 3)
    if brights == 5:
        points += 15
    elif brights - rain >= 4:
        points += 10
    elif rain and brights >= 4:
        points += 8
    elif brights - rain >= 3:
        points += 6
    return points


def _capture(board: list[str], pile: list[int], card: str, target: str | None) -> bool:
    """Koi-Koi's matching (as the rules): none lays it, one or a chosen one is taken,
    three are all taken. True if it took something."""
    month = MONTH[card]
    same = [b for b in board if MONTH[b] == month]
    if not same:
        board.append(card)
        return False
    took = [target or _best_target(same)] if len(same) == 2 else same
    for t in took:
        board.remove(t)
        _add(pile, t)
    _add(pile, card)
    return True


def _greedy_play(hand: Sequence[str], board: Sequence[str]) -> tuple[str, str | None]:
    """The playout policy's play: the most valuable capture, else lay the cheapest card."""
    by_month: dict[int, list[str]] = {}
    for b in board:
        by_month.setdefault(MONTH[b], []).append(b)
    best: tuple[int, str, str | None] | None = None
    for card in hand:
        same = by_month.get(MONTH[card])
        if not same:
            option: tuple[int, str, str | None] = (-_VALUE[card] - 100, card, None)
        elif len(same) == 2:
            target = _best_target(same)
            option = (_VALUE[card] + _VALUE[target], card, target)
        else:
            option = (_VALUE[card] + sum(map(_VALUE.__getitem__, same)), card, None)
        if best is None or option[0] > best[0]:
            best = option
    assert best is not None
    return best[1], best[2]


_PLAINS = frozenset(c for c in ALL_CARDS if CLASS[c] == PLAIN) | {SAKE_CUP}
_RIBBONS = frozenset(c for c in ALL_CARDS if CLASS[c] == RIBBON)
_ANIMALS = frozenset(c for c in ALL_CARDS if CLASS[c] == ANIMAL)
_NON_RAIN_BRIGHTS = frozenset(c for c in ALL_CARDS if CLASS[c] == BRIGHT and c != RAIN_MAN)
_HOT: dict[tuple[bool, ...], frozenset[str]] = {}


def hot_cards(counts: Sequence[int]) -> frozenset[str]:
    """The cards any one of which would raise the yaku total of a pile with ``counts``
    (a yaku one card away, or a counting yaku already made: each extra card adds a point).
    Cached by which of the yaku are one card away, so a playout pays a tuple and a lookup."""
    brights, rain, animals, ribbons, plains, isc, red, blue = counts
    key = (
        plains >= 9,
        ribbons >= 4,
        animals >= 4,
        isc == 2,
        red == 2,
        blue == 2,
        brights - rain >= 2,
        brights - rain >= 3 and not rain,
    )
    hot = _HOT.get(key)
    if hot is None:
        parts: list[frozenset[str]] = [
            _PLAINS,
            _RIBBONS,
            _ANIMALS,
            INO_SHIKA_CHO,
            RED_POETRY_RIBBONS,
            BLUE_RIBBONS,
            _NON_RAIN_BRIGHTS,
            frozenset({RAIN_MAN}),
        ]
        hot = _HOT[key] = frozenset().union(*(p for p, on in zip(parts, key, strict=True) if on))
    return hot


#: What the playout policy adds to a capture's card values when it raises the taker's yaku
#: total (the taker may stop with it) or takes a card the opponent's next yaku needs.
POLICY_MAKE = 60
POLICY_DENY = 25


def _policy_play(
    hand: Sequence[str], board: Sequence[str], mine: Sequence[int], theirs: Sequence[int]
) -> tuple[str, str | None]:
    """The playouts' policy, normal-like rather than greedy: a capture that makes or raises
    a yaku first, then one that takes a card the opponent's yaku is waiting for, then the
    most valuable capture; with nothing to take, lay the cheapest card the opponent does
    not need (a greedy policy misjudges plays that the normal AI's denial gets right)."""
    hot_me, hot_opp = hot_cards(mine), hot_cards(theirs)
    by_month: dict[int, list[str]] = {}
    for b in board:
        by_month.setdefault(MONTH[b], []).append(b)
    best: tuple[int, str, str | None] | None = None
    for card in hand:
        same = by_month.get(MONTH[card])
        option: tuple[int, str, str | None]
        if not same:
            option = (-_VALUE[card] - 100 - POLICY_DENY * (card in hot_opp), card, None)
        else:
            if len(same) == 2:

                def worth(t: str, card: str = card) -> int:
                    return (
                        _VALUE[t]
                        + POLICY_MAKE * (t in hot_me or card in hot_me)
                        + POLICY_DENY * (t in hot_opp or card in hot_opp)
                    )

                target: str | None = max(same, key=worth)
                taken: Sequence[str] = (target,)  # type: ignore[assignment]
            else:
                target, taken = None, same
            value = _VALUE[card] + sum(map(_VALUE.__getitem__, taken))
            if card in hot_me or any(t in hot_me for t in taken):
                value += POLICY_MAKE
            if card in hot_opp or any(t in hot_opp for t in taken):
                value += POLICY_DENY
            option = (value, card, target)
        if best is None or option[0] > best[0]:
            best = option
    assert best is not None
    return best[1], best[2]


def _policy_target(targets: Sequence[str], mine: Sequence[int], theirs: Sequence[int]) -> str:
    """The policy's pick of two board cards for a flipped card: as :func:`_policy_play`."""
    hot_me, hot_opp = hot_cards(mine), hot_cards(theirs)
    return max(
        targets,
        key=lambda t: _VALUE[t] + POLICY_MAKE * (t in hot_me) + POLICY_DENY * (t in hot_opp),
    )


class _Round:
    """A fast copy of one round for playouts: plain lists, no events, no checks (the first
    action comes from ``legal`` and the rest from the policy, so all are legal)."""

    __slots__ = (
        "hands",
        "board",
        "stack",
        "piles",
        "start",
        "current",
        "phase",
        "flipped",
        "smart",
        "need",
        "caps",
        "normal",
        "table",
    )

    def __init__(self, world: KoiKoiState, smart: bool = False) -> None:
        #: Play on with :func:`_policy_play` (normal-like) rather than :func:`_greedy_play`.
        self.smart = smart
        self.hands = [list(world.hands[0]), list(world.hands[1])]
        self.board = list(world.board)
        self.stack = list(world.stack)
        self.piles = [_counts(world.captures[0]), _counts(world.captures[1])]
        # The points each seat must beat to score: its total when its turn began.
        self.start = list(world.yaku_points)
        self.start[world.current] = world.turn_start_points
        self.current = world.current
        self.phase = world.phase
        self.flipped = world.flipped
        #: The points each seat stops with (any more than it had, if 0): in the match's
        #: last round a seat plays on while stopping would lose the match (see :func:`needs`).
        self.need = [0, 0]
        #: How many plays after the first are the one-ply judgement's (:func:`_normal_play`),
        #: the capture piles as cards for its views, and the match's public keys.
        self.normal = 0
        self.caps: list[list[str]] = [list(world.captures[0]), list(world.captures[1])]
        self.table: Mapping[str, Any] = {}

    def run(self, code: str) -> tuple[int | None, int]:
        """Apply the searching seat's ``code``, play on to the round's end; return the
        winner (None: a draw) and their points."""
        words = code.split()
        seat = self.current
        if words[0] == "stop":
            return seat, count_points(self.piles[seat])
        if words[0] == "koikoi":
            self.start[seat] = count_points(self.piles[seat])
            return self._next_turns()
        if words[0] == "take":
            assert self.flipped is not None
            self._take(seat, self.flipped, words[1])
        else:
            self.hands[seat].remove(words[1])
            self._take(seat, words[1], words[2] if len(words) > 2 else None)
            self._flip(seat)
        return self._finish(seat) or self._next_turns()

    def _flip(self, seat: int) -> bool:
        card = self.stack.pop()
        target = None
        if self.smart:
            month = MONTH[card]
            same = [b for b in self.board if MONTH[b] == month]
            if len(same) == 2:
                target = _policy_target(same, self.piles[seat], self.piles[1 - seat])
        return self._take(seat, card, target)

    def _take(self, seat: int, card: str, target: str | None) -> bool:
        """:func:`_capture`, keeping the capture piles as cards too while normal plays."""
        if not self.normal:
            return _capture(self.board, self.piles[seat], card, target)
        before = list(self.board)
        took = _capture(self.board, self.piles[seat], card, target)
        if took:
            gone = [c for c in before if c not in self.board]
            self.caps[seat].extend([card, *gone])
        return took

    def _normal_play(self, seat: int) -> tuple[str, str | None]:
        """The one-ply judgement's play for ``seat`` in this sampled round, from the view
        the seat would have (its own hand; the record of plays is not kept, so no
        reading)."""
        hand, board = self.hands[seat], self.board
        legal: list[str] = []  # (in the rules' order: ties are broken by a die)
        for c in sort_cards(hand):
            same = [b for b in board if MONTH[b] == MONTH[c]]
            if len(same) == 2:
                legal += [f"play {c} {t}" for t in sort_cards(same)]
            else:
                legal.append(f"play {c}")
        view = {
            **self.table,
            "seat": seat,
            "hand": list(hand),
            "board": list(board),
            "captures": [self.caps[0], self.caps[1]],
            "hand_counts": [len(self.hands[0]), len(self.hands[1])],
            "yaku_points": [count_points(self.piles[0]), count_points(self.piles[1])],
            "pending": None,
            "phase": PLAY,
        }
        words = _choose_play(view, legal, random.Random(len(hand))).split()
        return words[1], words[2] if len(words) > 2 else None

    def _finish(self, seat: int) -> tuple[int | None, int] | None:
        points = count_points(self.piles[seat])
        if points > self.start[seat]:
            if points >= self.need[seat] or not self.hands[seat]:
                return seat, points  # the policy stops at once (and must on the last card)
            self.start[seat] = points  # Koi-Koi: stopping now would lose the match
        if not self.hands[0] and not self.hands[1]:
            return None, 0
        return None

    def _next_turns(self) -> tuple[int | None, int]:
        seat = self.current
        while True:
            seat = 1 - seat
            if self.normal:
                self.normal -= 1
                card, target = self._normal_play(seat)
            elif self.smart:
                card, target = _policy_play(
                    self.hands[seat], self.board, self.piles[seat], self.piles[1 - seat]
                )
            else:
                card, target = _greedy_play(self.hands[seat], self.board)
            self.hands[seat].remove(card)
            took = self._take(seat, card, target)
            took = self._flip(seat) or took
            if took:
                done = self._finish(seat)
                if done:
                    return done
            elif not self.hands[0] and not self.hands[1]:
                return None, 0


def playout_value(
    view: View, match_chances: bool = False
) -> Callable[[_Round, str, random.Random], float]:
    """The playout function for ``view``'s seat (the outcome measure reads the match).

    In the last round a playout is judged by the match won or lost. Before it, by the
    round's points, or with ``match_chances`` by the chance of winning the match that the
    lead after this round gives (the rounds left each moving the lead by about
    :data:`ROUND_SD` points): a point matters more when the match is close."""
    me = view["seat"]
    opp = 1 - me
    last_round = view["round"] >= view["rounds"]
    lead = view["scores"][me] - view["scores"][opp]
    spread = ROUND_SD * math.sqrt(2 * max(1, view["rounds"] - view["round"]))
    chances = [MATCH_POINTS * math.erf((lead + d) / spread) for d in range(-_MAX, _MAX + 1)]

    def playout(world: _Round, code: str, rng: random.Random) -> float:
        winner, points = world.run(code)
        delta = 0 if winner is None else points if winner == me else -points
        if last_round:
            final = lead + delta
            return delta + MATCH_POINTS * ((final > 0) - (final < 0))
        if match_chances:
            return chances[max(-_MAX, min(_MAX, delta)) + _MAX]
        return float(delta)

    return playout


def needs(view: View) -> list[int]:
    """The round points each seat stops with in the playouts, by seat: any yaku (0) before
    the match's last round; in it, what stopping needs to win or tie the match (a seat that
    trails plays on, as the normal AI does, rather than stop and lose the match)."""
    if view["round"] < view["rounds"]:
        return [0, 0]
    scores = view["scores"]
    return [max(0, scores[1] - scores[0]), max(0, scores[0] - scores[1])]


def sample_round(view: View, rng: random.Random) -> _Round:
    """A sampled round that plays on greedily (the normal AI's Koi-Koi call), the hidden
    cards dealt with :data:`DECIDE_LACK_WEIGHT`."""
    world = _Round(sample_world(view, rng, DECIDE_LACK_WEIGHT))
    world.need = needs(view)
    return world


#: How the search deals the opponent's hand: a card of a month the reading of their laid
#: cards says they lack counts this much against another unseen card's 1 (1: the reading
#: is ignored). Against a player who holds captures back (normal does) the reading is
#: wrong now and then, so not 0.
LACK_WEIGHT = 1.0


#: How many plays after the searched one strong's playouts leave to the one-ply judgement
#: of normal (:func:`choose_one_ply`), then the normal-like policy;
#: normal's own search leaves none.
NORMAL_PLIES = 2


def sample_round_smart(view: View, rng: random.Random, normal_plies: int = 0) -> _Round:
    """A sampled round that plays on with the normal-like policy (:func:`_policy_play`),
    its first ``normal_plies`` plays with the normal AI's one-ply judgement."""
    world = _Round(sample_world(view, rng, LACK_WEIGHT), smart=True)
    world.need = needs(view)
    if normal_plies:
        world.normal = normal_plies
        world.table = {k: view[k] for k in ("scores", "round", "rounds") if k in view}
    return world


def copy_round(r: _Round) -> _Round:
    new = object.__new__(_Round)
    new.hands = [list(r.hands[0]), list(r.hands[1])]
    new.board = list(r.board)
    new.stack = list(r.stack)
    new.piles = [list(r.piles[0]), list(r.piles[1])]
    new.start = list(r.start)
    new.current, new.phase, new.flipped, new.smart = r.current, r.phase, r.flipped, r.smart
    new.need = r.need
    new.normal, new.table = r.normal, r.table
    new.caps = [list(r.caps[0]), list(r.caps[1])] if r.normal else r.caps
    return new


#: Playouts per answer when weighing Koi-Koi against stopping (a few milliseconds; the
#: decision comes a few times a round, and 32 left its verdict noisy).
CALL_SAMPLES = 96
#: How the Koi-Koi call's playouts deal the opponent's hand (see :func:`deal_hidden`): a
#: card of a month the reading says they lack counts this much against another's 1.
DECIDE_LACK_WEIGHT = 1.0


def _koikoi_or_stop(view: Mapping[str, Any], rng: random.Random) -> str:
    """Koi-Koi or stop, weighed by playing the round out: the unseen cards are dealt at
    random (from this view only) and both seats play on greedily, so what a Koi-Koi risks
    (the opponent's yaku within reach, the cards they may hold) and what it may still win
    (the cards left, our yaku close) are counted, not guessed. A playout is judged by the
    chance of winning the match the lead after it gives (a point matters more in a close
    match than in a decided one). In the last round only the match counts: stop if that
    wins it, play on if stopping loses it (a tie is weighed, each playout judged by the
    match). The rule of thumb (:func:`_decide`) settles ties. Deterministic for given
    dice (a fixed number of playouts)."""
    rule = _decide(view)
    me = view["seat"]
    scores = view["scores"]
    if view["round"] >= view["rounds"]:
        final = scores[me] + view["pending"]["points"] - scores[1 - me]
        if final > 0:
            return "stop"  # stopping wins the match: playing on could only lose it
        if final < 0:
            return "koikoi"  # stopping loses it: only playing on can still win
    return determinized_choice(
        view,
        ["stop", "koikoi"],
        random.Random(rng.getrandbits(64)),
        sample=sample_round,
        playout=playout_value(view, match_chances=True),
        copy=copy_round,
        budget=Budget(samples=CALL_SAMPLES, seconds=None),
        prior=rule,
        margin=0.0,
    )


def choose_one_ply(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The one-ply judgement (plays and flip choices by :func:`_score_play`, Koi-Koi or stop
    by playouts): the search's prior, and the beginner's Koi-Koi call on a big yaku."""
    if len(legal) == 1:
        return legal[0]
    phase = view.get("phase")
    if phase == "decide":
        return _koikoi_or_stop(view, rng) if {"koikoi", "stop"} <= set(legal) else legal[0]
    if phase == "choose_flip":
        return _choose_flip(view, legal)
    return _choose_play(view, legal, rng)


def candidates(view: View, legal: Sequence[str], keep: int) -> list[str]:
    """The plays worth searching: the ``keep`` best by the one-ply score (the
    rest it judges clearly worse: searching them costs time and only adds the playouts'
    noise). Flip choices are two at most and all kept."""
    if view.get("phase") != PLAY or len(legal) <= keep:
        return list(legal)
    pos = _Position(view)
    by_month = pos.board_by_month(pos.board)
    ranked = sorted(legal, key=lambda code: -_score_play(pos, by_month, code))
    return ranked[:keep]


#: How many plays the search weighs (the one-ply judgement's best).
KEEP = 4
#: How sure the search must be that a play beats the one-ply choice to take it: the
#: mean gain over the shared samples must exceed this many standard errors.
Z = 2.0
#: Samples per search, and the thread's CPU time (seconds) a search may take at most.
SAMPLES = 64
CPU_SECONDS = 0.15
#: Every this many samples, options that have done no better than the prior are dropped
#: (and the search ends if none is left): most searches end after the first round of them.
PRUNE_EVERY = 16
#: Whether Koi-Koi or stop is searched (the best mean over DECIDE_SAMPLES samples, with the
#: normal-like playouts) rather than left to the one-ply call.
DECIDE_SEARCH = False
DECIDE_SAMPLES = 256


def search(
    view: View,
    options: Sequence[str],
    prior: str,
    rng: random.Random,
    samples: int = SAMPLES,
    cpu_seconds: float | None = CPU_SECONDS,
    z: float | None = None,
    normal_plies: int = 0,
) -> str:
    """Play every option out in the same sampled rounds (common random numbers: the same
    deal of the unseen cards, the same dice) and take the best by its mean outcome, if it
    beats ``prior`` (the one-ply choice) by :data:`Z` standard errors of the paired
    difference; else ``prior``. The outcome is the chance of winning the match the round's
    result leaves (:func:`playout_value` with ``match_chances``)."""
    if len(options) == 1:
        return options[0]
    z = Z if z is None else z
    playout = playout_value(view, match_chances=True)
    p = options.index(prior)
    k = len(options)
    diffs: list[list[float]] = [[] for _ in range(k)]
    active = [i for i in range(k) if i != p]  # the options still in the race
    started = time.thread_time()
    for n in range(1, samples + 1):
        world = sample_round_smart(view, rng, normal_plies)
        dice = rng.getrandbits(64)
        base = playout(copy_round(world), prior, random.Random(dice))
        for i in active:
            diffs[i].append(playout(copy_round(world), options[i], random.Random(dice)) - base)
        if cpu_seconds is not None and time.thread_time() - started >= cpu_seconds:
            break
        if n % PRUNE_EVERY == 0 and n < samples:
            # An option that has done no better than the prior so far is dropped.
            active = [i for i in active if _t_stat(diffs[i])[1] > 0.0]
            if not active:
                return prior
    best, best_gain = p, 0.0
    for i in active:
        mean, t = _t_stat(diffs[i])
        if mean > best_gain and t > z:
            best, best_gain = i, mean
    return options[best]


def _t_stat(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of paired differences and its t statistic (0 when undefined)."""
    n = len(diffs)
    if n < 2:
        return 0.0, 0.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var <= 0.0:
        return mean, math.inf if mean > 0 else 0.0
    return mean, mean / math.sqrt(var / n)


def choose_searched(
    view: View,
    legal: Sequence[str],
    rng: random.Random,
    budget: Budget | None = None,
    normal_plies: int = 0,
) -> str:
    """An action (one of ``legal``) searched over the view only: normal's (with no plays
    left to the one-ply judgement in the playouts) and strong's.

    Koi-Koi or stop is the one-ply judgement's call: it already plays the round out from
    samples and judges each by the match it leaves. Plays and flip choices are searched
    among the one-ply judgement's best few (:func:`search`), and overrule its own choice
    only when the playouts are sure of the gain. ``budget`` fixes the samples and the
    clock (normal's :data:`NORMAL_BUDGET`, tests); without it, strong's :data:`SAMPLES`
    and :data:`CPU_SECONDS`."""
    if len(legal) == 1 or view.get("phase") not in (PLAY, CHOOSE_FLIP, DECIDE):
        return legal[0]
    prior = choose_one_ply(view, legal, random.Random(rng.random()))
    if view.get("phase") == DECIDE:
        if not DECIDE_SEARCH or view["round"] >= view["rounds"] or budget is not None:
            return prior
        return search(view, legal, prior, rng, DECIDE_SAMPLES, CPU_SECONDS, z=0.0)
    options = candidates(view, legal, KEEP)
    if prior not in options:
        options.append(prior)
    samples, seconds = (
        (SAMPLES, CPU_SECONDS) if budget is None else (budget.samples, budget.seconds)
    )
    return search(view, options, prior, rng, samples, seconds, normal_plies=normal_plies)


#: Normal's search: its samples, no clock — so its choice, and every hint, is the same for
#: the same view and dice on any machine (64 samples of policy playouts: tens of ms at most).
NORMAL_BUDGET = Budget(samples=SAMPLES, seconds=None)


def choose_strong(
    view: View, legal: Sequence[str], rng: random.Random, budget: Budget | None = None
) -> str:
    """The strong AI's action: normal's search, with the first :data:`NORMAL_PLIES` plays
    after the searched one in each playout made by normal's one-ply judgement."""
    return choose_searched(view, legal, rng, budget, NORMAL_PLIES)


__all__ = [
    "choose_one_ply",
    "choose_searched",
    "choose_strong",
    "sample_world",
    "search",
    "unseen_cards",
]
