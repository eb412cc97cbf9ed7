"""A heuristic Panda player. It sees only its own view.

The core is :func:`hand_cost`, a rough count of how many tricks' worth of leads a hand
still needs (its combinations after a greedy split, high cards and bombs counting less).
Leads pick the play that leaves the cheapest hand, low cards first; answers play the
cheapest card that beats an opponent and pass on the partner; the Panda, Ambushes and high
singles are kept for when they matter (an opponent close to going out, a rich trick).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.panda.cards import (
    CAT,
    CATFISH,
    PANDA,
    RANK_VALUE,
    STORK,
    card_points,
    value,
)
from bot.games.panda.combos import (
    AMBUSH,
    CAT_LEAD,
    KINGDOM,
    SINGLE,
    Combo,
    plays_on,
    readings,
)
from bot.games.panda.rules import DIRECTIONS, combo_code, parse_play
from bot.i18n.text import Text

ROYALS = ("B", "G", "E", "M")


# ----- hand evaluation ------------------------------------------------------------------------


def hand_cost(cards: Sequence[str]) -> float:
    """Estimated number of losing combinations left in ``cards`` (lower is better)."""
    return _remembered_cost(frozenset(cards))


def _hand_cost(cards: Iterable[str]) -> float:
    counts = [0] * 16
    suits_of: dict[str, set[str]] = {}
    panda = catfish = cat = False
    for c in cards:
        if c == PANDA:
            panda = True
        elif c == CATFISH:
            catfish = True
        elif c == CAT:
            cat = True
        elif c == STORK:
            counts[1] += 1
        else:
            counts[RANK_VALUE[c[:-1]]] += 1
            if c[:-1] in ROYALS:
                suits_of.setdefault(c[-1], set()).add(c[:-1])
    cost = 0.0
    bombs = 0
    for v in range(1, 15):
        if counts[v] == 4:
            counts[v] = 0
            bombs += 1
    for s, rs in suits_of.items():
        if len(rs) == 4 and all(counts[RANK_VALUE[r]] for r in ROYALS):
            for r in ROYALS:
                counts[RANK_VALUE[r]] -= 1
            bombs += 1
            del s
    # Straights that swallow at least three lone cards.
    while True:
        best = None
        v = 1
        while v <= 14:
            if counts[v]:
                start = v
                while v <= 14 and counts[v]:
                    v += 1
                if v - start >= 5:
                    lone = sum(1 for x in range(start, v) if counts[x] == 1)
                    if lone >= 3 and (best is None or v - start > best[1] - best[0]):
                        best = (start, v)
            else:
                v += 1
        if best is None:
            break
        for x in range(best[0], best[1]):
            counts[x] -= 1
        cost += 0.4 if best[1] - 1 >= 12 else 0.8
    # Runs of pairs.
    v = 1
    while v <= 13:
        if counts[v] in (2, 3) and counts[v + 1] in (2, 3):
            end = v
            while end + 1 <= 14 and counts[end + 1] in (2, 3):
                end += 1
            for x in range(v, end + 1):
                counts[x] -= 2
            cost += 0.5 if end >= 12 else 0.9
            v = end + 1
        else:
            v += 1
    triples = [v for v in range(1, 15) if counts[v] == 3]
    pairs = [v for v in range(1, 15) if counts[v] == 2]
    singles = [v for v in range(1, 15) if counts[v] == 1]
    for t in triples:
        if pairs:
            pairs.pop(0)  # full house with the lowest pair
        cost += 0.3 if t >= 12 else 0.8
    for p in pairs:
        cost += 0.2 if p >= 13 else 0.5 if p >= 10 else 1.0
    for v in singles:
        cost += 0.0 if v == 14 else 0.4 if v == 13 else 0.7 if v >= 11 else 1.0
    if catfish:
        # The Catfish turns a lone low card into a pair, or is a strong single itself.
        cost -= 0.8 if singles else 0.5
    if panda:
        cost -= 0.7
    if cat:
        cost += 0.2
    cost -= 1.0 * bombs
    return cost


#: ``_hand_cost`` remembered by card set: strong's playouts ask it of the same hands again
#: and again (the same determinization played out once per candidate).
_remembered_cost = functools.lru_cache(maxsize=100_000)(_hand_cost)


def _remove(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    gone = set(cards)
    return [c for c in hand if c not in gone]


def _protected(hand: Sequence[str]) -> set[str]:
    """Cards of Ambushes and Kingdoms: answers avoid breaking them."""
    by_value: dict[str, list[str]] = {}
    for c in hand:
        if c not in (STORK, CAT, CATFISH, PANDA):
            by_value.setdefault(c[:-1], []).append(c)
    out = {c for cs in by_value.values() if len(cs) == 4 for c in cs}
    for s in "tgra":
        royals = [r + s for r in ROYALS]
        if all(c in hand for c in royals):
            out.update(royals)
    return out


def _signature(combo: Combo) -> tuple:
    parts = []
    for c in combo.cards:
        if c in (STORK, CATFISH, PANDA, CAT):
            parts.append(c)
        else:
            parts.append(str(value(c)))
    return (combo.kind, combo.catfish, tuple(parts))


def _candidates(hand: Sequence[str], top: Combo | None, legal: set[str]) -> list[tuple[Combo, str]]:
    """Legal plays, one per shape (suits rarely matter), keeping bombs intact if possible."""
    protected = _protected(hand)
    best: dict[tuple, tuple[int, Combo, str]] = {}
    for combo in plays_on(hand, top):
        code = combo_code(combo)
        if code not in legal:
            continue
        broken = 0 if combo.kind in (AMBUSH, KINGDOM) else sum(c in protected for c in combo.cards)
        key = _signature(combo)
        if key not in best or broken < best[key][0]:
            best[key] = (broken, combo, code)
    return [(c, code) for _, c, code in best.values()]


def _top_combo(view: Mapping[str, Any]) -> Combo | None:
    if not view["trick"] or view.get("trick_won"):
        return None
    last = view["trick"][-1]
    options = readings(last["cards"])
    if not options:
        return None
    combo = min(options, key=lambda o: abs(o.value - last["value"]))
    return Combo(combo.kind, combo.cards, float(last["value"]), combo.catfish)


# ----- decisions --------------------------------------------------------------------------------


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The AI's action for its seat (``""``: nothing now, for an optional out-of-turn act)."""
    if not legal:
        return ""
    seat = view["seat"]
    hand = list(view.get("hand") or [])
    legal_set = set(legal)
    in_turn = seat in view.get("to_act", [])
    if view["phase"] == "passing":
        if "call" in legal_set and _should_call(hand):
            return "call"
        if not in_turn:
            return ""
        return _pass_choice(view, hand, legal_set)
    if "call" in legal_set and _should_call(hand, passed=True):
        return "call"
    pending = view.get("pending")
    if in_turn and pending and pending["seat"] == seat:
        if pending["kind"] == "wish":
            return _wish_choice(view, legal_set)
        return _gift_choice(view, legal)
    if not in_turn:
        return _out_of_turn(view, hand, legal_set)
    return _turn_choice(view, hand, legal_set, rng)


# Measured over AI-vs-AI hands: a hand costing at most 1 after the passing goes out first
# a little over half the time; before the passing only near-certain hands are called.
CALL_BEFORE_PASSING = 0.0
CALL_AFTER_PASSING = 1.0


def _should_call(hand: Sequence[str], passed: bool = False) -> bool:
    limit = CALL_AFTER_PASSING if passed else CALL_BEFORE_PASSING
    return len(hand) == 15 and hand_cost(hand) <= limit


def _pass_choice(view: Mapping[str, Any], hand: list[str], legal: set[str]) -> str:
    plan = pass_plan(view, hand)
    given = view.get("given") or {}
    for d in DIRECTIONS:
        if d not in given:
            code = f"give {d} {plan[d]}"
            if code in legal:
                return code
            # Fall back to any open card for this recipient.
            opts = sorted(c for c in legal if c.startswith(f"give {d} "))
            if opts:
                return opts[0]
    return sorted(legal)[0]


def pass_plan(view: Mapping[str, Any], hand: list[str]) -> dict[str, str]:
    """Which card goes to left, partner and right (a function of the full 15-card hand)."""
    seat = view["seat"]
    calls = view.get("calls", [False] * 4)
    protected = _protected(hand)
    base = hand_cost(hand)
    keep = {STORK, PANDA, CATFISH} | protected

    def loss(c: str) -> float:
        return hand_cost(_remove(hand, [c])) - base

    naturals = [c for c in hand if c not in keep and c != CAT]
    # Opponents: the cheapest lone low cards, point cards last; the Cat goes to an opponent.
    to_opp = sorted(naturals, key=lambda c: (loss(c), card_points([c]) > 0, value(c)))
    partner_pool = [c for c in hand if c not in protected and c not in (CAT,)]
    if calls[seat]:
        # I called: keep my strength, give the partner my weakest card.
        partner_card = min(
            (c for c in partner_pool if c not in (PANDA, CATFISH, STORK)),
            key=lambda c: (loss(c), value(c)),
            default=partner_pool[0],
        )
    elif calls[(seat + 2) % 4]:
        partner_card = max(
            partner_pool, key=lambda c: 20 if c == PANDA else 16 if c == CATFISH else value(c)
        )
    else:
        # A good card the hand can spare: a high lone natural card.
        spare = [c for c in partner_pool if c not in (PANDA, CATFISH, STORK)]
        partner_card = max(
            spare, key=lambda c: value(c) - 3 * max(0.0, loss(c)), default=partner_pool[0]
        )
    opp_cards = [c for c in to_opp if c != partner_card]
    if CAT in hand and CAT != partner_card:
        opp_cards = [CAT, *opp_cards]
    rest = [c for c in hand if c != partner_card and c not in opp_cards]
    opp_cards += rest
    return {"partner": partner_card, "left": opp_cards[0], "right": opp_cards[1]}


def _wish_choice(view: Mapping[str, Any], legal: set[str]) -> str:
    """A high rank the AI does not hold and did not pass to its partner: opponents holding
    it must spend it. The seed's tip: the card passed to the next player (an opponent)
    is a sure hit, so a high one of those comes first."""
    hand = view.get("hand") or []
    given = view.get("given") or {}
    held = {c[:-1] for c in hand if c not in (STORK, CAT, CATFISH, PANDA)}
    to_partner = given.get("partner", "")[:-1]
    left = given.get("left", "")
    if left and left not in (STORK, CAT, CATFISH, PANDA) and value(left) >= 9:
        if left[:-1] not in held and f"wish {left[:-1]}" in legal:
            return f"wish {left[:-1]}"
    for rank in ("M", "E", "G", "B", "10"):
        if rank not in held and rank != to_partner and f"wish {rank}" in legal:
            return f"wish {rank}"
    return "wish none"


def _gift_choice(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    counts = view["hand_counts"]
    out = view.get("out", [])

    def badness(code: str) -> tuple:
        o = int(code.split()[1])
        # The opponent most likely to finish last: their tricks then go to the first out.
        return (counts[o], o not in out[:1])

    return max(legal, key=badness)


def _urgency(view: Mapping[str, Any], seat: int) -> float:
    """How much it matters to take the lying trick from an opponent now."""
    top_seat = view.get("top_seat")
    if top_seat is None or top_seat % 2 == seat % 2:
        return 0.0
    counts = view["hand_counts"]
    pts = sum(card_points(p["cards"]) for p in view["trick"])
    u = max(0.0, pts / 20)
    opp_min = min(counts[(seat + 1) % 4] or 99, counts[(seat + 3) % 4] or 99)
    if opp_min <= 2:
        u += 2.0
    elif opp_min <= 4:
        u += 0.8
    calls = view.get("calls", [False] * 4)
    if calls[(seat + 1) % 4] or calls[(seat + 3) % 4]:
        u += 0.7
    out = view.get("out", [])
    if out and out[0] % 2 != seat % 2 and len(out) == 1:
        # The first out is an opponent: their partner going out next is a double victory.
        u += 1.0 if opp_min > 4 else 2.0
    return u


def _out_of_turn(view: Mapping[str, Any], hand: list[str], legal: set[str]) -> str:
    bombs = [c for c in legal if c.startswith("play")]
    if not bombs:
        return ""
    # A Kingdom scores 100 and dies once anyone is out: lay it at the first chance.
    for code in bombs:
        combo = readings(code.split()[1:])
        if combo and combo[0].kind == KINGDOM:
            return code
    seat = view["seat"]
    if view.get("top_seat") is not None and view["top_seat"] % 2 == seat % 2:
        return ""
    if _urgency(view, seat) >= 2.0 or len(hand) <= 5:
        return min(bombs, key=lambda c: len(c))
    return ""


def _turn_choice(
    view: Mapping[str, Any], hand: list[str], legal: set[str], rng: random.Random
) -> str:
    seat = view["seat"]
    top = _top_combo(view)
    cands = _candidates(hand, top, legal)
    if not cands:
        return "pass" if "pass" in legal else sorted(legal)[0]
    # Going out beats everything.
    for combo, code in cands:
        if combo.length == len(hand):
            return code
    kingdoms = [code for combo, code in cands if combo.kind == KINGDOM]
    if kingdoms:
        return kingdoms[0]
    base = hand_cost(hand)
    if top is None:
        return _lead_choice(view, hand, cands, base)
    partner_on_top = view.get("top_seat") is not None and view["top_seat"] % 2 == seat % 2
    if partner_on_top and "pass" in legal:
        return "pass"
    scored = answer_scores(view, hand, cands, base)
    best = min(range(len(scored)), key=lambda i: scored[i][0])
    best_score, best_code = scored[best]
    if "pass" not in legal:
        return best_code
    threshold = 0.15 + _urgency(view, seat)
    return best_code if best_score <= threshold else "pass"


def answer_scores(
    view: Mapping[str, Any], hand: list[str], cands: list[tuple[Combo, str]], base: float
) -> list[tuple[float, str]]:
    """Each candidate answer to the lying combination with normal's penalty (lower is
    better; normal passes when the best is above ``0.15 + urgency``)."""
    out: list[tuple[float, str]] = []
    for combo, code in cands:
        after = hand_cost(_remove(hand, combo.cards))
        delta = after - base
        penalty = delta + combo.value / 40
        if combo.kind in (AMBUSH, KINGDOM):
            penalty += 3.0
        elif combo.is_panda:
            # A won Panda trick goes to an opponent: its points are no reason to play it.
            pts = sum(card_points(p["cards"]) for p in view["trick"])
            penalty += 1.2 + max(0.0, pts / 20) * 2
        elif combo.kind == SINGLE and combo.value >= 13:
            penalty += 0.5
        out.append((penalty, code))
    return out


def _lead_choice(
    view: Mapping[str, Any], hand: list[str], cands: list[tuple[Combo, str]], base: float
) -> str:
    scored = lead_scores(view, hand, cands, base)
    best = min(range(len(scored)), key=lambda i: scored[i][0])
    return scored[best][1]


def lead_scores(
    view: Mapping[str, Any], hand: list[str], cands: list[tuple[Combo, str]], base: float
) -> list[tuple[float, str]]:
    """Each candidate lead with normal's score (lower is better); the strong level searches
    among the best few of them."""
    seat = view["seat"]
    counts = view["hand_counts"]
    partner = (seat + 2) % 4
    calls = view.get("calls", [False] * 4)
    out: list[tuple[float, str]] = []
    for combo, code in cands:
        if combo.kind == CAT_LEAD:
            if counts[partner] == 0:
                score = 5.0
            elif calls[partner] or (counts[partner] < len(hand) - 3):
                score = -10.0
            else:
                score = 0.5
        else:
            rest = _remove(hand, combo.cards)
            score = hand_cost(rest) - base + combo.value / 15 - 0.05 * combo.length
            if combo.kind in (AMBUSH, KINGDOM):
                score += 4.0
            elif combo.is_panda:
                score += 2.0
            elif combo.is_catfish_single:
                score += 1.5
            elif combo.kind == SINGLE and combo.value >= 13:
                score += 0.8
            if len(rest) and hand_cost(rest) <= 0.0:
                score -= 1.0  # what remains wins by itself
        out.append((score, code))
    return out


# ----- the easy level -----------------------------------------------------------------------
# A beginner who knows the rules but not the game: it plays the lowest thing that works,
# never counts cards, calls on a couple of big cards, passes its three lowest cards
# (the partner gets junk, an opponent may get the Stork), lays a bomb the moment it can and
# does not think about whom it gives a Panda trick.


def _easy_calls(hand: Sequence[str]) -> bool:
    """A beginner's call: the Panda and a Mon, or any bomb, look like a sure thing."""
    if len(hand) < 14:
        return False
    mons = sum(1 for c in hand if c[:-1] == "M")
    return (PANDA in hand and mons >= 1) or bool(_protected(hand))


def _easy_pass(view: Mapping[str, Any], hand: list[str], legal: set[str]) -> str:
    # The three lowest cards in hand order (Cat, Stork, then the naturals upwards), left first.
    given = view.get("given") or {}
    chosen = set(given.values())
    for d in ("left", "right", "partner"):
        if d in given:
            continue
        for c in hand:
            code = f"give {d} {c}"
            if c not in chosen and code in legal:
                return code
    return sorted(c for c in legal if c != "call")[0]


def _easy_value(combo: Combo) -> tuple[int, float, int]:
    return (1 if combo.kind in (AMBUSH, KINGDOM) else 0, combo.value, -combo.length)


def choose_easy(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The ``easy`` level: a beginner's play (see above). Deterministic."""
    if not legal:
        return ""
    seat = view["seat"]
    hand = list(view.get("hand") or [])
    legal_set = set(legal)
    in_turn = seat in view.get("to_act", [])
    if view["phase"] == "passing":
        if not in_turn:
            return ""
        return _easy_pass(view, hand, legal_set)
    if "call" in legal_set and in_turn and _easy_calls(hand):
        return "call"
    pending = view.get("pending")
    if in_turn and pending and pending["seat"] == seat:
        if pending["kind"] == "wish":
            held = {c[:-1] for c in hand}
            return "wish M" if "M" not in held and "wish M" in legal_set else "wish none"
        return sorted(c for c in legal if c.startswith("gift"))[0]
    plays: list[tuple[Combo, str]] = []
    for code in legal:
        if code.startswith("play "):
            parsed = parse_play(code.split()[1:])
            options = [o for o in readings(parsed.cards) if parsed.catfish in (None, o.catfish)]
            if options:
                plays.append((options[0], code))
    if not in_turn:
        # Bombs go down the moment they can, on anyone's trick.
        return plays[0][1] if plays else ""
    if not plays:
        return "pass" if "pass" in legal_set else sorted(legal)[0]
    for combo, code in plays:
        if combo.length == len(hand):
            return code
    top = _top_combo(view)
    if top is None:
        # Leads the lowest single; the Panda only when nothing else is left.
        singles = [
            (c, code) for c, code in plays if c.kind in (SINGLE, CAT_LEAD) and not c.is_panda
        ]
        pool = singles or plays
        return min(pool, key=lambda p: (p[0].kind == CAT_LEAD, _easy_value(p[0])))[1]
    top_seat = view.get("top_seat")
    if (
        top_seat is not None
        and top_seat % 2 == seat % 2
        and top.value >= 11
        and "pass" in legal_set
    ):
        return "pass"  # it sees a high card from its partner; a low one it beats
    return min(plays, key=lambda p: _easy_value(p[0]))[1]


# ----- hints --------------------------------------------------------------------------------


def _what(code: str, capital: bool = True) -> str:
    """``A pair of 5s`` from ``play 5t 5g`` (the rules' own label, without the cards), or
    the action's description (``Wish for a 7``)."""
    from bot.games.panda.rules import describe, play_label

    if code.startswith("play "):
        label = play_label(code, capital)
        if label is not None:
            return label
    return describe(code)


def hint(view: Mapping[str, Any], legal: Sequence[str]) -> tuple[str, str]:
    """What the AI would play from this view, and why in a line: ``(code, reason)``.

    Deterministic. ``code`` is one of ``legal`` whenever the seat must decide (it is in
    ``to_act``); a seat that may only act out of turn (an Ambush) gets ``""`` when the AI
    would keep its bomb for later. The reason is a :class:`Text`."""
    if not legal:
        return "", Text("Nothing to decide now.", context="panda")
    seat = view["seat"]
    code = choose(view, legal, random.Random(f"hint:{view.get('version')}"))
    in_turn = seat in view.get("to_act", [])
    if code not in legal:
        if not in_turn:
            return "", Text("Wait: keep your bomb for a trick that matters more")
        code = "pass" if "pass" in legal else sorted(legal)[0]
    names = view.get("players") or []

    def name(s: int) -> str:
        return names[s] if 0 <= s < len(names) else f"seat {s}"

    hand = list(view.get("hand") or [])
    words = code.split()
    if code == "call":
        return code, Text("Call Panda (+100): this hand can go out first")
    if words[0] == "give" and not (view.get("given") or {}):
        # The three cards are chosen together (one form): the hint names all three.
        plan = pass_plan(view, hand)
        pairs = [f"{d} {plan[d]}" for d in DIRECTIONS if f"give {d} {plan[d]}" in legal]
        if len(pairs) == len(DIRECTIONS):
            whole = "give " + " ".join(pairs)
            return whole, Text("{action}: the cards your hand can best spare", action=_what(whole))
    if words[0] == "give":
        label = _what(code)
        if words[1] == "partner":
            return code, Text("{action}: a strong card your hand can spare", action=label)
        return code, Text("{action}: an opponent gets a card you will not miss", action=label)
    if words[0] == "wish":
        if words[1] == "none":
            return code, Text("Wish for nothing: no rank would hurt the opponents")
        return code, Text("{action}: an opponent who holds one must spend it", action=_what(code))
    if words[0] == "gift":
        return (
            code,
            Text(
                "Give the Panda trick to {name}: the opponent likely to finish last",
                name=name(int(words[1])),
            ),
        )
    if code == "pass":
        top = view.get("top_seat")
        if top is not None and top % 2 == seat % 2:
            return code, Text("Pass: your partner is winning this trick")
        return code, Text("Pass: nothing cheap beats it; keep your strength for later")
    cards = words[1:]
    what = _what(code, capital=False)
    if len(cards) == len(hand):
        return code, Text("Go out: {combo} empties your hand", combo=what)
    combos = readings([c.split("=")[0] for c in cards])
    kind = combos[0].kind if combos else None
    if kind == KINGDOM:
        return code, Text("Lay the Kingdom (+100) while nobody is out")
    if kind == AMBUSH:
        return code, Text("Ambush: take this trick from the opponents before they go out")
    if kind == CAT_LEAD:
        return code, Text("Lead the Cat: it hands the lead to your partner")
    if _top_combo(view) is None:
        if cards == [STORK]:
            return code, Text("Lead the Stork to set a wish")
        return code, Text("Lead {combo}: it leaves your hand the fewest losing plays", combo=what)
    if PANDA in cards:
        return code, Text("Play the Panda: it takes the trick (you will give it to an opponent)")
    return code, Text("Beat the trick with {combo}: the cheapest play that wins it", combo=what)
