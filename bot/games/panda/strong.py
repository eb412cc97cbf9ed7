"""The ``strong`` Panda level: normal play, with a determinized search where it matters.

Most of a Panda hand's decisions have one sensible answer, and normal finds it. Strong
searches only these (everything else is normal's choice):

- the **Panda call**, at its first own turn after the passing, when the hand is near
  normal's calling line (is going out first likely enough to bet 100 on it?);
- the **lead**, when normal's scores put two or three leads close together;
- an **answer** to an opponent's combination, when normal's best play is near its line
  between playing and passing;
- an out-of-turn **bomb** on an opponent's trick that is rich or near a player's going out.

A search (:func:`bot.engine.search.determinized_choice`) deals the cards the seat cannot
see at random from exactly the cards it has not seen (its own hand, the played cards and
the cards it passed, which the receivers still hold unless played, are known), plays each
candidate and then the rest of the hand with normal play for all four seats, and scores
the hand for the seat's team (its points minus the opponents'). Normal's own choice wins
unless another candidate is better by a margin.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engine.core import parse_options
from bot.engine.search import Budget, determinized_choice
from bot.games.panda import ai
from bot.games.panda.cards import ALL_CARDS, card_points
from bot.games.panda.combos import AMBUSH, KINGDOM, Combo, bombs_on, readings
from bot.games.panda.rules import (
    OFFSET,
    PLAY,
    WISH,
    PandaOptions,
    PandaState,
    _may_hold_bomb,
    combo_code,
)

log = logging.getLogger(__name__)

View = Mapping[str, Any]

#: Determinizations per search and its CPU-time cap: a match asks ~600 decisions of a
#: seat and a few dozen are searched, so a search must stay well under the 300 ms p99.
#: The playouts got ~1.6x faster (``hand_cost`` and ``plays_on`` remembered), so 0.065 s
#: buys the determinizations 0.1 s bought before: the same strength for less CPU.
BUDGET = Budget(samples=5, seconds=0.065)
#: Points (of the team's hand score) per determinization by which another candidate must
#: beat normal's choice to replace it: sampling noise is large, normal's choice is sound.
MARGIN = 4.0
#: Leads and answers are searched once some seat holds at most this many cards.
ENDGAME = 7
#: Leads whose normal score is within this of the best are searched (at most MAX_LEADS).
LEAD_WINDOW = 0.9
MAX_LEADS = 3
#: Answers whose best penalty is within this of normal's pass line are searched.
ANSWER_WINDOW = 0.5
#: Hands whose cost is in this range are searched for the call (normal calls at <= 1.0).
CALL_RANGE = (-0.6, 2.2)
NO_CALL = "-"  # the candidate "do not call now" (not an action code)
_TARGET = 10000  # the largest target: a playout world never ends the match in one hand


# ----- the worlds --------------------------------------------------------------------------


def unseen_cards(view: View) -> list[str]:
    """The cards ``view``'s seat cannot see: neither in its hand nor played this hand."""
    known = set(view.get("hand") or []) | set(view.get("played_cards") or [])
    return [c for c in ALL_CARDS if c not in known]


def _fake_pile(points: int) -> list[str]:
    """Cards worth ``points`` (a multiple of 5): only a pile's points matter to the score."""
    cards: list[str] = []
    while points < 0:
        cards.append("cat")
        points += 25
    cards += ["10t"] * (points // 10) + ["5t"] * ((points % 10) // 5)
    return cards


def _combo_of(entry: Mapping[str, Any]) -> Combo:
    options = readings(entry["cards"])
    combo = min(options, key=lambda o: (o.kind != entry["kind"], abs(o.value - entry["value"])))
    return Combo(combo.kind, combo.cards, float(entry["value"]), combo.catfish)


def sample_hands(view: View, rng: random.Random) -> list[list[str]]:
    """Every seat's hand, consistent with ``view``: the seat's own, and the unseen cards
    dealt at random to the others by their hand counts (a card it passed goes to its
    receiver while not played)."""
    seat = view["seat"]
    counts = view["hand_counts"]
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[seat] = list(view["hand"])
    pool = unseen_cards(view)
    placed: set[str] = set()
    if view["phase"] == PLAY:
        for direction, card in (view.get("given") or {}).items():
            if card in pool:
                hands[(seat + OFFSET[direction]) % 4].append(card)
                placed.add(card)
    rest = [c for c in pool if c not in placed]
    rng.shuffle(rest)
    for s in range(4):
        if s == seat:
            continue
        need = counts[s] - len(hands[s])
        hands[s] += rest[:need]
        rest = rest[need:]
    return hands


def sample_world(view: View, rng: random.Random) -> PandaState:
    """A complete play-phase state consistent with ``view`` (only what the seat sees)."""
    w = PandaState.__new__(PandaState)
    w.seed = f"strong|{rng.getrandbits(32)}"
    w.players = tuple(view.get("players") or ("N", "E", "S", "W"))
    w.options = dict(view["options"])
    w.log = []
    w.events = []
    w.opts = replace(parse_options(PandaOptions, view["options"]), target=_TARGET)
    w.decks = []
    w.deal_no = view["deal"]
    w.team_scores = [0, 0]
    w.history = []
    w.phase = view["phase"]
    w._cache = {}
    w.hands = sample_hands(view, rng)
    w.given = [{} for _ in range(4)]
    w.received = [{} for _ in range(4)]
    w.called = list(view["calls"])
    w.played_any = list(view["played_any"])
    w.turn = view["turn"]
    w.trick = [(e["seat"], _combo_of(e)) for e in view["trick"]]
    w.top = w.trick[-1][1] if w.trick else None
    w.top_seat = view["top_seat"]
    w.passed = list(view["passes"])
    w.trick_won = view["trick_won"]
    pending = view.get("pending")
    w.pending = pending["kind"] if pending else None
    w.pending_seat = pending["seat"] if pending else None
    w.wish = view["wish"]
    w.piles = [_fake_pile(p) for p in view["pile_points"]]
    w.tricks_won = list(view["tricks_won"])
    w.out = list(view["out"])
    w.first_kingdom = view["first_kingdom"]
    w.first_lead = view["first_lead"]
    w.played_cards = list(view["played_cards"])
    return w


def clone(w: PandaState) -> PandaState:
    """An independent copy of a playout world (only what a hand's play changes)."""
    c = PandaState.__new__(PandaState)
    c.__dict__.update(w.__dict__)
    c.log = []
    c.events = []
    c._cache = {}
    c.hands = [list(h) for h in w.hands]
    c.given = [dict(g) for g in w.given]
    c.received = [dict(r) for r in w.received]
    c.called = list(w.called)
    c.played_any = list(w.played_any)
    c.trick = list(w.trick)
    c.passed = list(w.passed)
    c.piles = [list(p) for p in w.piles]
    c.tricks_won = list(w.tricks_won)
    c.out = list(w.out)
    c.played_cards = list(w.played_cards)
    c.team_scores = list(w.team_scores)
    c.history = []
    return c


def _fast_view(w: PandaState, seat: int) -> dict[str, Any]:
    """What normal's ``choose`` reads of a view, built cheaply (no history, no labels)."""
    return {
        "phase": w.phase,
        "seat": seat,
        "hand": w.hands[seat],
        "to_act": w.to_act,
        "given": w.given[seat],
        "calls": w.called,
        "pending": None if w.pending is None else {"kind": w.pending, "seat": w.pending_seat},
        "trick": [{"seat": s, "cards": list(c.cards), "value": c.value} for s, c in w.trick],
        "trick_won": w.trick_won,
        "top_seat": w.top_seat,
        "hand_counts": [len(h) for h in w.hands],
        "out": w.out,
    }


def play_out(w: PandaState, seat: int, rng: random.Random, limit: int = 600) -> float:
    """Play the rest of the hand with normal play for every seat (nobody calls); the
    hand's score for ``seat``'s team minus the opponents'."""
    deal = w.deal_no
    team = seat % 2
    for _ in range(limit):
        if w.deal_no != deal or w.phase != PLAY:
            break
        acted = False
        if w.top is not None and w.pending != WISH and len(w.out) < 3:
            acting = w.to_act
            for s in w.priority():
                if s in acting or not w.hands[s] or not _may_hold_bomb(w.hands[s]):
                    continue
                bombs = bombs_on(w.hands[s], w.top)
                if not w._all_hold():
                    bombs = [b for b in bombs if b.kind != KINGDOM]
                if not bombs:
                    continue
                code = ai.choose(_fast_view(w, s), [combo_code(b) for b in bombs], rng)
                if code:
                    w._apply(s, code)
                    acted = True
                    break
        if acted:
            continue
        s = w.to_act[0]
        legal = [c for c in w._legal(s) if c != "call"]
        w._apply(s, ai.choose(_fast_view(w, s), legal, rng))
    if not w.history:
        return 0.0  # the limit was reached (should not happen): no information
    scores = w.history[-1]["hand_scores"]
    return float(scores[team] - scores[1 - team])


def _playout(seat: int) -> Callable[[PandaState, str, random.Random], float]:
    def run(w: PandaState, code: str, rng: random.Random) -> float:
        if code == "call":
            w._apply(seat, "call")
        elif code and code != NO_CALL:
            w._apply(seat, code)
        return play_out(w, seat, rng)

    return run


# ----- the decisions -----------------------------------------------------------------------


def _search(view: View, cands: list[str], prior: str, rng: random.Random) -> str:
    return determinized_choice(
        view,
        cands,
        rng,
        sample=sample_world,
        playout=_playout(view["seat"]),
        copy=clone,
        budget=BUDGET,
        prior=prior,
        margin=MARGIN,
        # The cap is on this thread's CPU time: on a loaded machine a wall-clock cap would
        # cut the search short and make the level weaker the busier the host is.
        clock=time.thread_time,
    )


def choose_strong(view: View, legal: Sequence[str], rng: random.Random) -> str:
    """The strong AI's action for its seat (``""``: nothing now)."""
    if not legal or view["phase"] != PLAY:
        return ai.choose(view, legal, rng)
    seat = view["seat"]
    in_turn = seat in view.get("to_act", [])
    hand = list(view.get("hand") or [])
    pending = view.get("pending")
    if "call" in legal:
        rest = [c for c in legal if c != "call"]
        if not in_turn or pending:
            # The call is decided at the seat's own first turn, with a search.
            return ai.choose(view, rest, rng) if rest else ""
        if CALL_RANGE[0] <= ai.hand_cost(hand) <= CALL_RANGE[1] and len(hand) >= 14:
            prior = "call" if ai._should_call(hand, passed=True) else NO_CALL
            if _search(view, ["call", NO_CALL], prior, rng) == "call":
                return "call"
        elif ai._should_call(hand, passed=True):
            return "call"
        legal = rest
    normal = ai.choose(view, legal, rng)
    if pending:
        return normal
    if not in_turn:
        return _bomb_choice(view, legal, normal, rng)
    if not _endgame(view):
        return normal
    cands = _turn_candidates(view, hand, legal, normal)
    if len(cands) < 2:
        return normal
    return _search(view, cands, normal, rng)


def _endgame(view: View) -> bool:
    """Whether the hand is near its end (a seat holds few cards): the leads and answers
    then decide who goes out first, and the playouts are short."""
    counts = [n for n in view["hand_counts"] if n]
    return bool(counts) and min(counts) <= ENDGAME


def _turn_candidates(view: View, hand: list[str], legal: Sequence[str], normal: str) -> list[str]:
    top = ai._top_combo(view)
    legal_set = set(legal)
    cands = ai._candidates(hand, top, legal_set)
    if not cands or any(c.length == len(hand) or c.kind == KINGDOM for c, _ in cands):
        return []
    base = ai.hand_cost(hand)
    if top is None:
        scored = sorted(ai.lead_scores(view, hand, cands, base))
        best = scored[0][0]
        out = [code for score, code in scored if score <= best + LEAD_WINDOW][:MAX_LEADS]
    else:
        seat = view["seat"]
        if "pass" not in legal_set or (
            view.get("top_seat") is not None and view["top_seat"] % 2 == seat % 2
        ):
            return []
        scored = sorted(ai.answer_scores(view, hand, cands, base))
        line = 0.15 + ai._urgency(view, seat)
        best_score, best_code = scored[0]
        if abs(best_score - line) > ANSWER_WINDOW:
            return []
        out = [best_code, "pass"]
    if normal not in out:
        out.insert(0, normal)
    return out


def _bomb_choice(view: View, legal: Sequence[str], normal: str, rng: random.Random) -> str:
    """Out of turn: lay a bomb on an opponent's trick now, or wait."""
    bombs = [c for c in legal if c.startswith("play ")]
    top_seat = view.get("top_seat")
    if not bombs or top_seat is None or top_seat % 2 == view["seat"] % 2:
        return normal
    kinds = [readings(c.split()[1:]) for c in bombs]
    if any(k and k[0].kind == KINGDOM for k in kinds):
        return normal  # normal lays a Kingdom at once
    points = card_points(c for e in view["trick"] for c in e["cards"])
    counts = [n for s, n in enumerate(view["hand_counts"]) if s % 2 != view["seat"] % 2 and n]
    if points < 10 and (not counts or min(counts) > 6):
        return normal
    ambush = min(
        (c for c, k in zip(bombs, kinds, strict=True) if k and k[0].kind == AMBUSH),
        key=len,
        default=None,
    )
    if ambush is None:
        return normal
    cands = [normal, ambush] if normal != ambush else ["", ambush]
    if "" not in cands:
        cands.append("")
    return _search(view, cands, normal, rng)


__all__ = ["choose_strong", "clone", "play_out", "sample_hands", "sample_world", "unseen_cards"]
