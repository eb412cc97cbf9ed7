"""A sensible Mah-Jongg player that sees only its own view (pure).

It goes out whenever it can; discards toward a complete hand by shanten (cards short of
Mah-Jongg) with the number of live cards that would improve the hand as tie-break, and a
small value bias (it keeps dragons, its own and the round wind, and pairs); claims a
discard when that brings the hand closer (or makes a valuable pung); declares concealed
kongs and expansions; calls a standing hand when it waits on enough live cards; and in the
one more turn after someone's Mah-Jongg it keeps the cards that score most.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.mahjong.hand import shanten
from bot.games.mahjong.plan import Target, fit, suit_plan, targets
from bot.games.mahjong.scoring import PlayerHand, is_mahjong, mahjong_waits, score_non_winner
from bot.games.mahjong.tiles import CODES, INDEX, NUM_KINDS, WIND_CODES, WINDS, counts_of
from bot.i18n.text import Text


def _counts(codes: Sequence[str]) -> list[int]:
    return counts_of(INDEX[c] for c in codes if INDEX[c] < NUM_KINDS)


def _melds(view: Mapping[str, Any], seat: int) -> list[tuple[str, int, bool]]:
    return [(m["kind"], INDEX[m["cards"][0]], m["concealed"]) for m in view["melds"][seat]]


def _unseen(view: Mapping[str, Any], seat: int, hand: list[int]) -> list[int]:
    """Copies of each card the seat has not seen (4 minus hand, melds, rivers, shown hands)."""
    seen = list(hand)
    for melds in view["melds"]:
        for m in melds:
            for c in m["cards"]:
                seen[INDEX[c]] += 1
    for river in view["rivers"]:
        for c in river:
            seen[INDEX[c]] += 1
    for p, st in enumerate(view.get("standing") or []):
        if st and p != seat:
            for c in st["hand"]:
                seen[INDEX[c]] += 1
    return [max(0, 4 - n) for n in seen]


def _value_tiles(view: Mapping[str, Any], seat: int) -> set[int]:
    own = WINDS[WIND_CODES.index(view["seat_winds"][seat])]
    rnd = WINDS[WIND_CODES.index(view["round_wind"])]
    return {own, rnd, 31, 32, 33}


def _keep_value(t: int, c: list[int], valuable: set[int]) -> float:
    """How much a card is worth keeping beyond shanten (higher = keep)."""
    v = 0.0
    n = c[t]
    if t >= 27:
        v += 1.5 if t in valuable else 0.0
        v += 2.0 * (n - 1)
    else:
        k = t % 9
        v += 0.3 if 2 <= k <= 6 else 0.0  # middle cards connect more
        v += 1.0 * (n - 1)
        if n >= 3:
            v += 1.0
    return v


def _ukeire(c: list[int], melds: int, s: int, unseen: list[int]) -> int:
    total = 0
    for t in range(NUM_KINDS):
        if not unseen[t] or c[t] >= 4:
            continue
        if t < 27:
            k = t % 9
            near = c[t] or (k >= 1 and c[t - 1]) or (k <= 7 and c[t + 1])
            near = near or (k >= 2 and c[t - 2]) or (k <= 6 and c[t + 2])
            if not near:
                continue
        elif not c[t]:
            continue
        c[t] += 1
        if shanten(c, melds) < s:
            total += unseen[t]
        c[t] -= 1
    return total


def best_discard(
    c: list[int], melds: int, unseen: list[int], valuable: set[int], allowed: set[int] | None = None
) -> int:
    """The discard that leaves the hand closest to Mah-Jongg (ties: more live improving
    cards, then the least valuable card)."""
    options = [t for t in range(NUM_KINDS) if c[t] and (allowed is None or t in allowed)]
    scored = []
    for t in options:
        c[t] -= 1
        scored.append((shanten(c, melds), t))
        c[t] += 1
    best_s = min(s for s, _ in scored)
    tied = [t for s, t in scored if s == best_s]
    if len(tied) == 1:
        return tied[0]
    ranked = []
    for t in tied:
        c[t] -= 1
        uk = _ukeire(c, melds, best_s, unseen)
        c[t] += 1
        ranked.append((-uk, _keep_value(t, c, valuable), t))
    ranked.sort()
    return ranked[0][2]


def _last_turn_discard(view: Mapping[str, Any], seat: int, legal: Sequence[str]) -> str:
    """In the one more turn: keep the 13 cards that score most for this seat."""
    hand = _counts(view["hand"])
    melds = tuple(_melds(view, seat))
    extras = tuple(INDEX[e] for e in view["extras"][seat])
    own = WIND_CODES.index(view["seat_winds"][seat])
    rnd = WIND_CODES.index(view["round_wind"])
    best = None
    for code in legal:
        if not code.startswith("discard "):
            continue
        t = INDEX[code.split()[1]]
        hand[t] -= 1
        total = score_non_winner(PlayerHand(tuple(hand), melds, extras, own, rnd)).total
        hand[t] += 1
        key = (total, -t)
        if best is None or key > best[0]:
            best = (key, code)
    return best[1] if best else legal[0]


@dataclass(frozen=True)
class Style:
    """How a level plays: what it aims at beyond a quick Mah-Jongg."""

    hunt: int = 4  # play for a special hand at most this many cards away (-1: never)
    one_suit: bool = True  # go one suit when a suit dominates
    concealed: bool = True  # keep a concealed hand that is close (no chow claims)
    #: Never throw the card a standing opponent calls (it is shown: throwing it hands them
    #: the Mah-Jongg), as a discard or as the one that goes with a call, while another
    #: card will do. Every level but easy: a hint must not advise it either.
    defend: bool = True
    #: Stay silent (no standing hand) when the widest wait of a safe discard has at least
    #: this many times the live cards of the card a standing hand would call (None: always
    #: call). A standing hand wins only on its card, and the others keep that card; a
    #: silent hand wins on every card it waits on, from anyone's discard.
    silent: float | None = None


NORMAL = Style()


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The AI's action for the seat whose view this is (the ``normal`` level)."""
    return play(view, legal, rng, NORMAL)


def _obvious(view: Mapping[str, Any], legal: list[str]) -> str | None:
    """What every level does without weighing anything: the only action; before play, a
    kong if it may declare one (else pass); a Mah-Jongg its own hand really makes (with the
    strict option every claim is listed: the hand is checked before claiming). None: a
    decision to weigh."""
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "prelude":
        kongs = [c for c in legal if c.startswith("kong ")]
        return kongs[0] if kongs else "pass"
    seat = view["seat"]
    if "mahjong" in legal and _really_mahjong(
        view, seat, _counts(view["hand"]), _melds(view, seat)
    ):
        return "mahjong"
    return None


def play(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, style: Style) -> str:
    """The action of a level playing ``style`` for the seat whose view this is."""
    legal = list(legal)
    obvious = _obvious(view, legal)
    if obvious is not None:
        return obvious
    seat = view["seat"]
    phase = view["phase"]
    hand = _counts(view["hand"])
    melds = _melds(view, seat)
    m = len(melds)
    unseen = _unseen(view, seat, hand)
    valuable = _value_tiles(view, seat)
    if phase == "last_turns":
        for code in legal:
            if code.split()[0] in ("kong", "extend"):
                return code
        return _last_turn_discard(view, seat, legal)
    target = _target(view, seat, hand, melds, unseen, style)
    if phase == "claim":
        return _claim_for_plan(view, legal, hand, melds, valuable, target, style)
    # our turn
    for code in legal:
        if code.split()[0] in ("kong", "extend"):
            if target is None or _kong_fits(code, target):
                return code
    pending = view.get("pending_declare")
    allowed = {INDEX[c.split()[1]] for c in legal if c.startswith("discard ")}
    if style.defend:
        allowed = _safe(view, seat, allowed)
    if pending is not None and view.get("options", {}).get("strict"):
        allowed = {
            d for d in allowed if _standing_after(view, seat, hand, melds, d, INDEX[pending])
        } or allowed
    if pending is None and (target is None or target.short > 1):
        declares = [INDEX[c.split()[1]] for c in legal if c.startswith("declare ")]
        if view.get("options", {}).get("strict"):
            declares = _true_declares(view, seat, hand, melds, declares)
        if style.defend:
            declares = _safe_declares(view, seat, hand, melds, declares, allowed)
        if declares and view.get("wall", 0) >= 8 and target is None:
            w = max(declares, key=lambda t: unseen[t])
            if unseen[w] >= 2:
                if style.silent is not None:
                    quiet = _silent_discard(view, seat, hand, melds, unseen, allowed)
                    if quiet is not None and quiet[0] >= style.silent * unseen[w]:
                        return f"discard {CODES[quiet[1]]}"
                return f"declare {CODES[w]}"
    if pending is None and target is not None:
        spare = {t for t in allowed if hand[t] > target.keep[t]}
        if spare:
            return f"discard {CODES[best_discard(hand, m, unseen, valuable, spare)]}"
    if pending is None and style.one_suit:
        off = _off_suit(hand, melds, view)
        if off:
            offered = off & allowed
            if offered:
                best_s = min(_after(hand, m, t) for t in allowed)
                slack = 1 if view.get("wall", 0) >= 40 else 0
                near = {t for t in offered if _after(hand, m, t) <= best_s + slack}
                if near:
                    return f"discard {CODES[best_discard(hand, m, unseen, valuable, near)]}"
    t = best_discard(hand, m, unseen, valuable, allowed)
    return f"discard {CODES[t]}"


def _called(view: Mapping[str, Any], seat: int) -> set[int]:
    """The cards the other seats' standing hands call (public: a standing hand is shown)."""
    return {
        INDEX[st["card"]] for p, st in enumerate(view.get("standing") or []) if st and p != seat
    }


def _safe(view: Mapping[str, Any], seat: int, allowed: set[int]) -> set[int]:
    """The discards that hand no standing opponent its Mah-Jongg (all if none is safe).

    A standing hand wins only on the card it calls, and nearly every Mah-Jongg is won
    from a standing hand (worth 100 more): the called card is the one card that loses a
    hand, every other card is safe from it."""
    called = _called(view, seat)
    return (allowed - called) or allowed


def _silent_discard(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    unseen: list[int],
    allowed: set[int],
) -> tuple[int, int] | None:
    """The discard among ``allowed`` whose waits have the most live cards, and that count
    (None if no discard leaves the hand one card from Mah-Jongg)."""
    own, rnd = _winds(view, seat)
    concealed = all(mc for _, _, mc in melds)
    best: tuple[int, int] | None = None
    for d in sorted(allowed):
        hand[d] -= 1
        live = sum(unseen[w] for w in mahjong_waits(hand, melds, own, rnd, concealed))
        hand[d] += 1
        if live and (best is None or live > best[0]):
            best = (live, d)
    return best


def _safe_declares(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    declares: list[int],
    safe: set[int],
) -> list[int]:
    """The calls that some safe discard makes (a call whose only discard is a card a
    standing opponent calls would hand them the Mah-Jongg at once)."""
    return [
        w for w in declares if any(_standing_after(view, seat, hand, melds, d, w) for d in safe)
    ]


def _after(hand: list[int], m: int, t: int) -> int:
    hand[t] -= 1
    s = shanten(hand, m)
    hand[t] += 1
    return s


def _target(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    unseen: list[int],
    style: Style,
) -> Target | None:
    """The special hand worth playing for now, if any: close enough for the cards left.

    A special scores 1000-6000 where a regular hand scores tens, so it is worth a slower
    hand; but only while enough of the wall is left to draw the missing cards (a hand of
    13 in a claim window is always at least one card short)."""
    found = _targets_in_reach(view, seat, hand, melds, unseen, style)
    return found[0] if found else None


def _targets_in_reach(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    unseen: list[int],
    style: Style,
) -> list[Target]:
    if style.hunt < 0:
        return []
    wall = view.get("wall", 0)
    reach = style.hunt + (1 if view["phase"] == "claim" else 0)
    # each missing card takes a few turns to come: no point late in the hand
    reach = min(reach, wall // 8 + (1 if view["phase"] == "claim" else 0))
    if reach <= 0:
        return []
    own, rnd = _winds(view, seat)
    found = targets(hand, melds, own, rnd, unseen, reach)
    if not found:
        return []
    s = shanten(hand, len(melds))
    extra = 1 if view["phase"] == "claim" else 0
    # a regular hand already close is only given up for a special as close or closer
    return [t for t in found if s + 1 + extra >= t.short - 1]


def _kong_fits(code: str, target: Target) -> bool:
    return target.keep[INDEX[code.split()[1]]] >= 3


def _off_suit(
    hand: list[int], melds: list[tuple[str, int, bool]], view: Mapping[str, Any]
) -> set[int]:
    """The cards outside the dominating suit when the hand should go one suit, else empty.

    One suit (with honours) multiplies the whole hand by 1.5, without honours by 2.5, for
    every player (not only the winner): worth a slower hand once a suit has most cards."""
    suit, off = suit_plan(hand, melds)
    total = sum(hand) + 3 * len(melds)
    if off == 0 or off > 4 or total - off < 10:
        return set()
    return {t for t in range(27) if hand[t] and t // 9 != suit}


def _winds(view: Mapping[str, Any], seat: int) -> tuple[int, int]:
    return WIND_CODES.index(view["seat_winds"][seat]), WIND_CODES.index(view["round_wind"])


def _really_mahjong(
    view: Mapping[str, Any], seat: int, hand: list[int], melds: list[tuple[str, int, bool]]
) -> bool:
    own, rnd = _winds(view, seat)
    c = list(hand)
    if view["phase"] == "claim":
        c[INDEX[view["claim"]["card"]]] += 1
        return is_mahjong(c, melds, own, rnd, False)
    return is_mahjong(c, melds, own, rnd, all(mc for _, _, mc in melds))


def _standing_after(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    d: int,
    w: int,
) -> bool:
    own, rnd = _winds(view, seat)
    c = list(hand)
    c[d] -= 1
    c[w] += 1
    return c[w] <= 4 and is_mahjong(c, melds, own, rnd, all(mc for _, _, mc in melds))


def _true_declares(
    view: Mapping[str, Any],
    seat: int,
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    offered: list[int],
) -> list[int]:
    """The calls that are really one card from Mah-Jongg (the strict option lists them all)."""
    if shanten(hand, len(melds)) > 0:
        return []
    own, rnd = _winds(view, seat)
    out: set[int] = set()
    for d in range(NUM_KINDS):
        if hand[d]:
            hand[d] -= 1
            out.update(
                w
                for w in mahjong_waits(hand, melds, own, rnd, all(mc for _, _, mc in melds))
                if w != d
            )
            hand[d] += 1
    return [w for w in offered if w in out]


def _claim_for_plan(
    view: Mapping[str, Any],
    legal: Sequence[str],
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    valuable: set[int],
    target: Target | None,
    style: Style,
) -> str:
    t = INDEX[view["claim"]["card"]]
    if target is not None:
        return _claim_for_target(view, legal, hand, melds, target)
    if style.one_suit and t < 27:
        off = _off_suit(hand, melds, view)
        if off and t // 9 != suit_plan(hand, melds)[0]:
            return "pass"  # a group outside the suit ends the one-suit plan
    # A concealed hand close to Mah-Jongg keeps its chows concealed (they score only
    # concealed) and may still win by wall: no chow claim then.
    no_chow = (
        style.concealed and not any(not mc for _, _, mc in melds) and shanten(hand, len(melds)) <= 1
    )
    return _claim(view, legal, hand, len(melds), valuable, no_chow)


def claim_meld(
    code: str, hand: Sequence[int], t: int
) -> tuple[list[int], tuple[str, int, bool]] | None:
    """What claiming discard ``t`` with ``code`` (a pung, kong or chow) takes from the hand
    and the melded group it makes; None for any other code or one the hand cannot make."""
    verb = code.split()[0]
    if verb == "pung" and hand[t] >= 2:
        return [t, t], ("pung", t, False)
    if verb == "kong" and hand[t] >= 3:
        return [t, t, t], ("kong", t, False)
    if verb == "chow":
        cards = [INDEX[x] for x in code.split()[1:]]
        used = [x for x in cards if x != t]
        if all(hand[x] >= 1 for x in used):
            return used, ("chow", min(cards), False)
    return None


def _claim_for_target(
    view: Mapping[str, Any],
    legal: Sequence[str],
    hand: list[int],
    melds: list[tuple[str, int, bool]],
    target: Target,
) -> str:
    """Claim the discard only if the group it makes brings the special hand closer."""
    if target.concealed:
        return "pass"
    t = INDEX[view["claim"]["card"]]
    own, rnd = _winds(view, view["seat"])
    unseen = _unseen(view, view["seat"], hand)
    best_code, best_short = "pass", target.short
    for code in legal:
        claimed = claim_meld(code, hand, t)
        if claimed is None:
            continue
        used, meld = claimed
        for x in used:
            hand[x] -= 1
        short = _short_for(target, hand, [*melds, meld], own, rnd, unseen)
        for x in used:
            hand[x] += 1
        if short is not None and short < best_short:
            best_code, best_short = code, short
    return best_code


def _short_for(
    target: Target,
    hand: list[int],
    melds: Sequence[tuple[str, int, bool]],
    own: int,
    rnd: int,
    unseen: list[int],
) -> int | None:
    best: int | None = None
    for pat in target.hand.patterns(own, rnd):
        got = fit(pat, hand, melds, unseen)
        if got is not None and (best is None or got[0] < best):
            best = got[0]
    return best


def _claim(
    view: Mapping[str, Any],
    legal: Sequence[str],
    hand: list[int],
    m: int,
    valuable: set[int],
    no_chow: bool = False,
) -> str:
    t = INDEX[view["claim"]["card"]]
    s0 = shanten(hand, m)
    if "kong" in legal and hand[t] >= 3:
        return "kong"
    best_code, best_s = "pass", s0
    if "pung" in legal and hand[t] >= 2:
        hand[t] -= 2
        s = shanten(hand, m + 1)
        hand[t] += 2
        if s < best_s or (s == best_s and t in valuable):
            best_code, best_s = "pung", s
    for code in legal:
        if not code.startswith("chow ") or no_chow:
            continue
        cards = [INDEX[x] for x in code.split()[1:]]
        if any(hand[x] < 1 for x in cards if x != t):
            continue  # (strict option: a chow we cannot make)
        for x in cards:
            if x != t:
                hand[x] -= 1
        s = shanten(hand, m + 1)
        for x in cards:
            if x != t:
                hand[x] += 1
        if s < best_s:
            best_code, best_s = code, s
    return best_code


# ----- hints --------------------------------------------------------------------------------


def _tile(code: str) -> Text:
    from bot.games.mahjong.tiles import name

    return name(INDEX[code])


def _away(s: int) -> Text:
    if s <= 0:
        return Text("ready: one card from Mah-Jongg")
    return Text("{n} cards from Mah-Jongg", n=s + 1)


def hint(view: Mapping[str, Any], legal: Sequence[str]) -> tuple[str, str]:
    """What the AI would play from this view, and why in a line: ``(code, reason)``; the
    reason is a :class:`~bot.i18n.text.Text` (English, localised by the host).

    Deterministic; ``code`` is one of ``legal``."""
    if not legal:
        return "", Text("Nothing to decide now.")
    code = choose(view, legal, random.Random(f"hint:{view.get('version')}"))
    words = code.split()
    seat = view["seat"]
    phase = view.get("phase")
    if code == "mahjong":
        return code, Text("Mah-Jongg! Your hand is complete")
    if phase == "prelude":
        if words[0] == "kong":
            return code, Text("Declare your concealed kong of {card}", card=_tile(words[1]))
        return code, Text("Pass: you have no kong to declare")
    hand = _counts(view.get("hand") or [])
    melds = len(_melds(view, seat))
    if phase == "claim":
        card = view["claim"]["card"]
        if code == "pass":
            return code, Text(
                "Pass: claiming {card} would not bring your hand closer", card=_tile(card)
            )
        t = INDEX[card]
        if words[0] == "kong":
            return code, Text("Claim {card} for a kong: your fourth copy", card=_tile(card))
        if words[0] == "pung":
            hand[t] -= 2
            s = shanten(hand, melds + 1)
            valuable = t in _value_tiles(view, seat)
            why = Text("a valuable pung") if valuable else _away(s)
            return code, Text("Claim {card} for a pung: {why}", card=_tile(card), why=why)
        for x in (INDEX[c] for c in words[1:]):
            if x != t:
                hand[x] -= 1
        return code, Text(
            "Claim {card} for a chow: {why}",
            card=_tile(card),
            why=_away(shanten(hand, melds + 1)),
        )
    if words[0] in ("kong", "extend"):
        return code, Text(
            "Declare a kong of {card}: it scores and draws a spare card", card=_tile(words[1])
        )
    if words[0] == "declare":
        unseen = _unseen(view, seat, hand)[INDEX[words[1]]]
        return code, Text(
            "Call a standing hand waiting on {card} ({n} still unseen)",
            card=_tile(words[1]),
            n=unseen,
        )
    if words[0] == "discard":
        t = INDEX[words[1]]
        if phase == "last_turns":
            return code, Text(
                "Discard {card}: the 13 cards you keep score most", card=_tile(words[1])
            )
        hand[t] -= 1
        s = shanten(hand, melds)
        live = _ukeire(hand, melds, s, _unseen(view, seat, hand))
        if live and s > 0:
            return code, Text(
                "Discard {card}: keeps you {away}, {n} live cards improve it",
                card=_tile(words[1]),
                away=_away(s),
                n=live,
            )
        return code, Text("Discard {card}: keeps you {away}", card=_tile(words[1]), away=_away(s))
    return code, Text("The AI's choice here")


# ----- the other levels ---------------------------------------------------------------------


def easy(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """A beginner: goes out when it can and knows what brings a hand closer, but claims
    every pung and kong it can (even when that breaks up its hand), keeps its honours
    (discards them last, as newcomers treasure the pretty cards), never plays for value or
    a special hand, never calls a standing hand and ignores what the others discard
    (which cards are still live)."""
    legal = list(legal)
    obvious = _obvious(view, legal)
    if obvious is not None:
        return obvious
    seat = view["seat"]
    phase = view["phase"]
    hand = _counts(view["hand"])
    melds = _melds(view, seat)
    m = len(melds)
    if phase == "claim":
        t = INDEX[view["claim"]["card"]]
        for verb in ("kong", "pung"):
            if verb in legal and hand[t] >= (3 if verb == "kong" else 2):
                return verb
        # a chow only when it plainly helps (a beginner sees a run being finished)
        s0 = shanten(hand, m)
        for code in legal:
            if code.startswith("chow "):
                cards = [INDEX[x] for x in code.split()[1:]]
                used = [x for x in cards if x != t]
                if any(hand[x] < 1 for x in used):
                    continue
                for x in used:
                    hand[x] -= 1
                s = shanten(hand, m + 1)
                for x in used:
                    hand[x] += 1
                if s < s0:
                    return code
        return "pass"
    for code in legal:
        if code.split()[0] in ("kong", "extend"):
            return code
    allowed = [INDEX[c.split()[1]] for c in legal if c.startswith("discard ")]
    if not allowed:
        return rng.choice(legal)
    after = {t: _after(hand, m, t) for t in allowed}
    best = min(after.values())
    suited = [t for t in allowed if t < 27]
    # honours last: a suited card unless every suited discard costs two cards or more
    pool = [t for t in suited if after[t] <= best + 1] or allowed
    low = min(after[t] for t in pool)
    return f"discard {CODES[rng.choice(sorted(t for t in pool if after[t] == low))]}"


# Measured against normal (docs/ai/mahjong.md): nearly every Mah-Jongg is won from a
# standing hand (+100, about 190 a win where a loser scores about 8), so the hands won
# decide a match; normal's slower plans for value (specials, one suit, a concealed hand)
# lose it more hands than the value wins back.
STRONG = Style(hunt=-1, one_suit=False, concealed=False, silent=1.5)


def strong(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """Plays for the quickest Mah-Jongg (normal's shanten and live-card discards, claims
    and standing-hand calls, no slower plans for value), and never hands a standing
    opponent the card it calls: neither as a discard nor as the discard that goes with
    its own call, while any other card will do."""
    return play(view, legal, rng, STRONG)


LEVELS = {"easy": easy, "strong": strong}
