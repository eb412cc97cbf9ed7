"""The Koi-Koi AI: a one-ply judgement, and the search that may overrule it; both read only
the seat's view.

Normal (:func:`choose`) plays the one-ply judgement (:func:`choose_one_ply`) unless a short
determinized search over its view (``strong.choose_searched``) is sure of a better play
(strong searches the same way, with better playouts).

The one-ply judgement: a capture pile is judged by a *potential*: its yaku points plus
partial credit for yaku still within reach (cards the opponent holds in their captures are
dead). A play is worth what it adds to our potential, plus what it denies the opponent,
minus what the board we leave offers the opponent next turn; a capture that makes or upgrades a yaku
(ours, or one denied to the opponent) is worth :data:`WIN` more, for its taker may end the
round with it (the potential alone credited a fifth animal with a few hundredths). A
capture the opponent cannot take first (they hold none of its month) can wait: it counts
less now, and the turn goes to one they could take from us. An opponent who laid a card
and took nothing is believed to hold no card of a month then on the board
(:func:`opponent_lacks`: true of a player who takes whenever they can, not a rule).
Koi-Koi has no doubling here; whether to call Koi-Koi is weighed by playing the round out
from samples of the unseen cards (a few milliseconds; see :func:`_koikoi_or_stop`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BLUE_RIBBONS,
    BRIGHT,
    PLAIN,
    RED_POETRY_RIBBONS,
    RIBBON,
)
from bot.games.hanafuda.deal import chain_and
from bot.games.koikoi.rules import CLASS, INO_SHIKA_CHO, MONTH, RAIN_MAN, SAKE_CUP, yaku_total
from bot.i18n import Text, ntext

# Weights (tuned against random and greedy opponents).
DENY = 0.4  # a card we take is a card the opponent cannot
RISK = 1.0  # what the board we leave offers the opponent's next turn
THREAT = 1.6  # the opponent already has a yaku: any upgrade of theirs ends the round
WIN = 4.0  # a capture that makes or upgrades a yaku can end the round (its taker may stop)

_NON_RAIN_BRIGHTS = frozenset({"1b", "3b", "8b", "12b"})
# Set yaku: (cards, points, credit for having 1, 2 of the 3 cards).
_SETS = (
    (INO_SHIKA_CHO, 5.0),
    (RED_POETRY_RIBBONS, 6.0),
    (BLUE_RIBBONS, 6.0),
)
_SET_CREDIT = (0.0, 0.15, 0.45)
# A capture that can wait is worth less now: we hold the card that takes it, so it is lost
# only if the opponent takes the board's card first (their hand holds its month). Taking
# it now spends a turn another capture, one they could take from us, may need.
SURE_WAIT = 1.0  # its month's other cards are all seen: nobody else can take it
WAIT = 0.75  # otherwise, times the chance the opponent holds none of its month
#: Whether the plays of the match's last round weigh the match (see ``_Position``).
LAST_ROUND = True
#: How far normal trusts that an opponent who laid a card without taking anything held no
#: card of a month then on the board (1: fully; 0: not at all). The rules let a player lay
#: a card while holding a capture (normal itself holds back a capture that can wait), so
#: this is a belief about players who take whenever they can; 1 was measured against
#: greedy, which does.
INFER = 1.0
#: Whether that reading takes every laid card of the round (``plays``), not just the last.
WHOLE_ROUND = True
COUNT_CREDIT = 1.5  # credit for a counting yaku's progress, times (have / need) squared
# Counting yaku: class, how many make the yaku, how many exist.
_COUNTS = ((PLAIN, 10, 25), (RIBBON, 5, 10), (ANIMAL, 5, 9))


def _class_counts(cards: Iterable[str]) -> dict[str, int]:
    counts = {BRIGHT: 0, ANIMAL: 0, RIBBON: 0, PLAIN: 0}
    for c in cards:
        counts[CLASS[c]] += 1
    if SAKE_CUP in cards:
        counts[PLAIN] += 1  # the cup is an animal and a plain at once
    return counts


def potential(caps: frozenset[str] | set[str], dead: frozenset[str] | set[str]) -> float:
    """Yaku points of ``caps`` plus partial credit for yaku ``dead`` cards do not rule out."""
    counts = _class_counts(caps)
    value = 0.0
    # Brights: only the best bright yaku counts.
    brights = len(_NON_RAIN_BRIGHTS & caps)
    rain = RAIN_MAN in caps
    if brights == 4:
        value += 15.0 if rain else 10.0
    elif brights == 3:
        value += 8.0 if rain else 6.0
    else:
        live = 4 - len(_NON_RAIN_BRIGHTS & dead)
        if live >= 3:
            value += 6.0 * _SET_CREDIT[brights] * (1.0 if live == 4 else 0.6)
    for cards, points in _SETS:
        have = len(cards & caps)
        if have == 3:
            value += points
        elif not cards & dead:
            value += points * _SET_CREDIT[have]
    dead_counts = _class_counts(dead)
    for cls, need, exist in _COUNTS:
        n = counts[cls]
        if n >= need:
            value += n - need + 1
        elif exist - dead_counts[cls] >= need:
            value += COUNT_CREDIT * (n / need) ** 2
    return value


def _p_holds(n: int, total: int, hand: int) -> float:
    """Chance a hand of ``hand`` cards drawn from ``total`` holds one of ``n`` given ones."""
    miss = 1.0
    for i in range(hand):
        miss *= max(0, total - n - i) / (total - i)
    return 1.0 - miss


def opponent_lacks(view: Mapping[str, Any]) -> frozenset[int]:
    """The months of which the opponent's hand is believed to hold no card. Each time this
    round they laid a card and took nothing, their hand then held no card of a month on
    the board they played to — if they take whenever they can, which the rules do not
    demand (see :data:`INFER`) — and a hand only shrinks (nothing is drawn into it), so it
    holds none of them now either. The boards are rebuilt from the round's record
    (``plays``: a play from a hand, then its flip, turn after turn), backwards from
    today's board. A view without the record (older code) reads their last play only."""
    if view.get("phase") not in ("play", "choose_flip", "decide"):
        return frozenset()
    record = view.get("plays")
    if not WHOLE_ROUND or record is None:
        return _last_play_lacks(view)
    opp = 1 - view["seat"]
    board = list(view["board"])
    lacks: set[int] = set()
    for i in range(len(record) - 1, -1, -1):
        play = record[i]
        # Undo it: what it took goes back on the board; a laid card comes off it.
        if play["took"]:
            board.extend(play["took"])
            continue
        if play["card"] not in board:
            return _last_play_lacks(view)  # (a record that does not fit the board)
        board.remove(play["card"])
        if i % 2 == 0 and play["seat"] == opp:  # a play from their hand (odd: a flip)
            lacks.update(MONTH[c] for c in board)
    return frozenset(lacks)


def _last_play_lacks(view: Mapping[str, Any]) -> frozenset[int]:
    """:func:`opponent_lacks` from the opponent's last play alone (``last_play``): the
    board they played to is today's, less their play and their flip."""
    play = view.get("last_play")
    me = view["seat"]
    if not play or play["seat"] == me or play["took"] or view.get("phase") != "play":
        return frozenset()
    board = list(view["board"])
    flip = view.get("last_flip")
    if flip and flip["seat"] != me:
        if flip["took"]:
            board.extend(flip["took"])
        elif flip["card"] in board:
            board.remove(flip["card"])
    if play["card"] in board:
        board.remove(play["card"])
    return frozenset(MONTH[c] for c in board)


class _Position:
    """What the view tells: our pile, theirs, the board and the unseen cards."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.opp = 1 - self.me
        self.hand: list[str] = list(view["hand"] or [])
        self.board: list[str] = list(view["board"])
        self.mine = frozenset(view["captures"][self.me])
        self.theirs = frozenset(view["captures"][self.opp])
        seen = set(self.hand) | set(self.board) | self.mine | self.theirs
        pending = view.get("pending") or {}
        if pending.get("card"):
            seen.add(pending["card"])
        self.unseen = [c for c in ALL_CARDS if c not in seen]
        self.opp_hand = view["hand_counts"][self.opp]
        self.threat = THREAT if view["yaku_points"][self.opp] > 0 else 1.0
        self.urgency = 1.3 if view["yaku_points"][self.me] > 0 else 1.0
        # The yaku total with which each side may stop: any, but in the match's last round
        # what stopping needs to win (or tie) the match; the side ahead stops with any
        # yaku, so any of theirs is a threat, any of ours a win.
        self.need_me = self.need_opp = 0
        if LAST_ROUND and view.get("round", 1) >= view.get("rounds", 6):
            lead = view["scores"][self.me] - view["scores"][self.opp]
            self.need_me, self.need_opp = max(0, -lead), max(0, lead)
            if lead < 0:
                self.threat = THREAT
            elif lead > 0:
                self.urgency = 1.3
        self._base_me = potential(self.mine, self.theirs)
        self._base_opp = potential(self.theirs, self.mine)
        self._points_me = yaku_total(self.mine)
        self._points_opp = yaku_total(self.theirs)
        self._cache: dict[tuple[bool, frozenset[str]], float] = {}
        self._risk_cache: dict[tuple[str, ...], float] = {}
        self.unseen_by_month = {m: 0 for m in range(1, 13)}
        for c in self.unseen:
            self.unseen_by_month[MONTH[c]] += 1
        self.lacks = opponent_lacks(view) if INFER > 0 else frozenset()
        # The unseen cards the opponent's hand may hold (the months it lacks are all in the
        # stack), for the chance they hold a given month.
        self.pool = len(self.unseen) - sum(self.unseen_by_month[m] for m in self.lacks)

    def gain(self, cards: frozenset[str]) -> float:
        """What taking ``cards`` is worth to us (our progress plus what it denies them)."""
        key = (True, cards)
        if key not in self._cache:
            mine = potential(self.mine | cards, self.theirs) - self._base_me
            denied = potential(self.theirs | cards, self.mine) - self._base_opp
            mine += WIN * self._scores(yaku_total(self.mine | cards), True)
            denied += WIN * self._scores(yaku_total(self.theirs | cards), False)
            self._cache[key] = self.urgency * mine + DENY * self.threat * denied
        return self._cache[key]

    def _scores(self, total: int, ours: bool) -> bool:
        """Whether a pile's new yaku ``total`` lets its side stop (it is a raise, and in
        the last round enough to win the match)."""
        if ours:
            return total > self._points_me and total >= self.need_me
        return total > self._points_opp and total >= self.need_opp

    def makes_yaku(self, cards: frozenset[str]) -> bool:
        """Whether taking ``cards`` raises our yaku total (we may stop with it)."""
        return self._scores(yaku_total(self.mine | cards), True)

    def their_gain(self, cards: frozenset[str]) -> float:
        key = (False, cards)
        if key not in self._cache:
            gain = potential(self.theirs | cards, self.mine) - self._base_opp
            gain += WIN * self._scores(yaku_total(self.theirs | cards), False)
            self._cache[key] = self.threat * gain
        return self._cache[key]

    def p_opp_holds(self, month: int) -> float:
        """Chance the opponent's hand holds a card of ``month`` (unseen cards are alike)."""
        n = self.unseen_by_month[month]
        if n == 0 or self.opp_hand == 0:
            return 0.0
        if month in self.lacks:
            return (1.0 - INFER) * _p_holds(n, len(self.unseen), self.opp_hand)
        return _p_holds(n, max(self.pool, self.opp_hand), self.opp_hand)

    def month_risk(self, month_cards: Sequence[str]) -> float:
        """What the opponent may take of one month's board cards on their next turn."""
        if not month_cards:
            return 0.0
        return self.p_opp_holds(MONTH[month_cards[0]]) * self.month_prize(month_cards)

    def month_prize(self, month_cards: Sequence[str]) -> float:
        """What the opponent gains by taking one month's board cards (the best of them)."""
        key = tuple(sorted(month_cards))
        prize = self._risk_cache.get(key)
        if prize is None:
            if len(month_cards) == 3:
                best = self.their_gain(frozenset(month_cards))  # the fourth takes all three
            else:
                best = max(self.their_gain(frozenset((c,))) for c in month_cards)
            prize = self._risk_cache[key] = best + 0.3
        return prize

    def board_by_month(self, board: Iterable[str]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for c in board:
            out.setdefault(MONTH[c], []).append(c)
        return out


def _score_play(pos: _Position, by_month: dict[int, list[str]], code: str) -> float:
    words = code.split()
    played = words[1]
    month = MONTH[played]
    on_board = by_month.get(month, [])
    if not on_board:
        taken: frozenset[str] = frozenset()
        left = [played]
    elif len(on_board) == 2:
        taken = frozenset((played, words[2]))
        left = [c for c in on_board if c != words[2]]
    else:
        taken = frozenset((played, *on_board))
        left = []
    value = pos.gain(taken) if taken else 0.0
    if taken and len(pos.hand) > 1 and not pos.makes_yaku(taken):
        # It can wait (unless it makes our yaku: then we may stop now, before they score).
        if pos.unseen_by_month[month] == 0:
            value *= 1.0 - SURE_WAIT
        else:
            value *= 1.0 - WAIT * (1.0 - pos.p_opp_holds(month))
    # Only this month's part of the board changes; compare it before and after.
    value -= RISK * (pos.month_risk(left) - pos.month_risk(on_board))
    if not taken:
        # A card thrown away: better a cheap one, and one whose month we still hold.
        value -= 0.05 * _card_worth(played)
        if any(MONTH[c] == month and c != played for c in pos.hand):
            value += 0.2
    return value


_CLASS_WORTH = {BRIGHT: 6.0, ANIMAL: 3.0, RIBBON: 2.0, PLAIN: 1.0}


def _card_worth(code: str) -> float:
    return _CLASS_WORTH[CLASS[code]]


def _choose_play(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    pos = _Position(view)
    by_month = pos.board_by_month(pos.board)
    scored = [(_score_play(pos, by_month, code), i) for i, code in enumerate(legal)]
    best = max(s for s, _ in scored)
    ties = [legal[i] for s, i in scored if s >= best - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _choose_flip(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    pos = _Position(view)
    flipped = view["pending"]["card"]
    options = [code.split()[1] for code in legal]

    def worth(target: str) -> float:
        left = [c for c in options if c != target]
        return pos.gain(frozenset((flipped, target))) - RISK * pos.month_risk(left)

    return max(legal, key=lambda code: worth(code.split()[1]))


def _distance(caps: frozenset[str], dead: frozenset[str]) -> int:
    """How many more cards ``caps`` needs for its next yaku (or upgrade); 99 if none."""
    best = 99
    counts = _class_counts(caps)
    dead_counts = _class_counts(dead)
    for cls, need, exist in _COUNTS:
        if exist - dead_counts[cls] >= max(need, counts[cls] + 1):
            best = min(best, max(1, need - counts[cls]))
    for cards, _ in _SETS:
        if not cards & dead and not cards <= caps:
            best = min(best, len(cards - caps))
    brights = len(_NON_RAIN_BRIGHTS & caps)
    live = 4 - len(_NON_RAIN_BRIGHTS & dead)
    if brights < 3 and live >= 3:
        best = min(best, 3 - brights)
    return best


def _decide(view: Mapping[str, Any]) -> str:
    me = view["seat"]
    opp = 1 - me
    points = view["pending"]["points"]
    scores = view["scores"]
    hand_left = len(view["hand"] or [])
    last_round = view["round"] >= view["rounds"]
    if last_round and scores[me] + points < scores[opp] and hand_left >= 1:
        return "koikoi"  # stopping now loses the match anyway: chase
    if last_round:
        return "stop"
    mine = frozenset(view["captures"][me])
    theirs = frozenset(view["captures"][opp])
    opp_far = view["yaku_points"][opp] == 0 and _distance(theirs, mine) >= 3
    near_big = (
        any(len(cards - mine) == 1 and not cards & theirs for cards, _ in _SETS)
        or len(_NON_RAIN_BRIGHTS & mine) == 2
    )
    if points <= 2 and hand_left >= 5 and opp_far and near_big:
        return "koikoi"
    return "stop"


#: Playouts per answer when weighing Koi-Koi against stopping (a few milliseconds; the
#: decision comes a few times a round, and 32 left its verdict noisy).
DECIDE_SAMPLES = 96
#: How the Koi-Koi call's playouts deal the opponent's hand (see ``strong.deal_hidden``): a
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
    from bot.engine.search import Budget, determinized_choice
    from bot.games.koikoi.strong import copy_round, playout_value, sample_round

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
        budget=Budget(samples=DECIDE_SAMPLES, seconds=None),
        prior=rule,
        margin=0.0,
    )


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The normal AI's action for the seat whose ``view`` this is (one of ``legal``): the
    one-ply judgement (:func:`choose_one_ply`), overruled only where a short determinized
    search over this view is sure of a better play (:func:`strong.choose_searched
    <bot.games.koikoi.strong.choose_searched>`)."""
    from bot.games.koikoi.strong import NORMAL_BUDGET, choose_searched

    return choose_searched(view, legal, rng, NORMAL_BUDGET)


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


# ----- hints --------------------------------------------------------------------------------


def _name(code: str) -> Text:
    from bot.games.hanafuda.cards import card

    return card(code).name


def _new_yaku(before: Iterable[str], after: Iterable[str]) -> list[tuple[str, int]]:
    from bot.games.koikoi.rules import score_yaku

    had = dict(score_yaku(before))
    return [(n, p) for n, p in score_yaku(after) if had.get(n, 0) < p]


def hint(view: Mapping[str, Any], legal: Sequence[str]) -> tuple[str, str]:
    """What the AI would play from this view, and why in a line: ``(code, reason)``.

    Deterministic (ties are broken by a fixed die); ``code`` is one of ``legal``."""
    if not legal:
        return "", Text("Nothing to decide now.", context="hanafuda")
    code = choose(view, legal, random.Random(f"hint:{view.get('version')}"))
    phase = view.get("phase")
    me = view["seat"]
    mine = set(view["captures"][me])
    if phase == "decide":
        points = (view.get("pending") or {}).get("points", view["yaku_points"][me])
        if code == "koikoi":
            return code, Text(
                "Koi-Koi: play on for more than {points} — a bigger yaku is close", points=points
            )
        return code, ntext(
            "Stop and score {n} point while you can",
            "Stop and score {n} points while you can",
            points,
        )
    words = code.split()
    if phase == "choose_flip":
        flipped = view["pending"]["card"]
        taken = {flipped, words[1]}
        targets = {words[1]}
    else:
        played = words[1]
        month = MONTH[played]
        on_board = [c for c in view["board"] if MONTH[c] == month]
        if len(words) == 3:
            taken = {played, words[2]}
        elif on_board:
            taken = {played, *on_board}
        else:
            taken = set()
        targets = taken - {played}
    made = _new_yaku(mine, mine | taken)
    if made:
        text = chain_and(
            [Text("{name} ({points})", context="hanafuda", name=n, points=p) for n, p in made]
        )
        return code, Text("Completes {yaku}", yaku=text)
    if taken:
        best = max(targets or taken, key=_card_worth)
        theirs = set(view["captures"][1 - me])
        if _new_yaku(theirs, theirs | taken):
            return code, Text(
                "Takes {card} before the opponent completes a yaku with it", card=_name(best)
            )
        return code, Text("Takes {card}, the most useful capture now", card=_name(best))
    return code, Text("No capture: lays {card}, the cheapest card to give up", card=_name(words[1]))


# ----- levels -------------------------------------------------------------------------------

#: The easy AI's beginner habits (it lost 64.7 % of matches to ``normal`` when a tenth of
#: its plays were normal's and it called Koi-Koi on up to 3 points only; so it loses
#: 72.4 % and still beats uniform random in 91.5 %, 1,000 deals each).
EASY_GREEDY = 0.2  # grabs the most valuable capture in sight (else the first match it sees)
EASY_KOIKOI = 1.0  # pushes its luck: Koi-Koi on a small yaku with cards left
EASY_SMALL = 6  # what a beginner calls a small yaku (points): Sanko and below


def _grab(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, best: bool) -> str:
    """A beginner's play: a capture (the most valuable, or any), else the cheapest card."""
    takes = [c for c in legal if c.startswith("take ")]
    if takes:
        return max(takes, key=lambda c: _card_worth(c.split()[1])) if best else rng.choice(takes)
    by_month = _Position(view).board_by_month(view["board"])
    captures = [c for c in legal if len(c.split()) == 3 or MONTH[c.split()[1]] in by_month]
    if not captures:
        return min(legal, key=lambda c: (_card_worth(c.split()[1]), c))
    if not best:
        return rng.choice(captures)

    def worth(code: str) -> float:
        words = code.split()
        taken = [words[2]] if len(words) == 3 else by_month[MONTH[words[1]]]
        return _card_worth(words[1]) + sum(_card_worth(c) for c in taken)

    return max(captures, key=worth)


def choose_easy(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The easy AI: a beginner's mistakes, never nonsense. It looks at captures, never at
    the board it leaves: a fifth of its plays grab the most valuable capture in sight, the
    rest take whatever match it notices first (with nothing to take it lays its cheapest
    card); on a yaku of up to Sanko it always calls Koi-Koi while cards are left (bigger
    ones it weighs as ``normal`` does)."""
    if len(legal) == 1:
        return legal[0]
    if view.get("phase") == "decide" and {"koikoi", "stop"} <= set(legal):
        small = (view.get("pending") or {}).get("points", 0) <= EASY_SMALL
        if small and len(view["hand"] or []) >= 2 and rng.random() < EASY_KOIKOI:
            return "koikoi"
        return choose_one_ply(view, legal, rng)
    return _grab(view, legal, rng, best=rng.random() < EASY_GREEDY)


def choose_strong(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The strong AI: determinized Monte Carlo over this seat's view (``strong.py``)."""
    from bot.games.koikoi.strong import choose_strong as search

    return search(view, legal, rng)


LEVELS = {"easy": choose_easy, "strong": choose_strong}
