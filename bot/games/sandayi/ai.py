"""The San Da Yi AI: hand-strength bidding, void-making burial, card-counting play.

It reads only its own view (own hand, the public tricks, the kitty when it may see it).
Fast: a decision is a few list scans over at most 54 cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.sandayi.cards import (
    BIG_JOKER,
    DECK,
    PLAIN_RANK_VALUE,
    SMALL_JOKER,
    SUIT_NAME_LOWER,
    SUITS,
    TRUMP_GROUP,
    group,
    is_trump,
    label,
    points,
    rank,
    sort_canonical,
    suit,
    trick_strength,
)
from bot.i18n.text import Text

SEATS = 4
KITTY_SIZE = 6
HAND_SIZE = 12

# Bidding: the highest bid the AI makes for a hand strength (see hand_strength); found by
# self-play (AI declarer vs AI defenders, mean settlement per bid and strength bucket).
BID_THRESHOLDS: tuple[tuple[float, int], ...] = (
    (20.0, 80),
    (19.0, 75),
    (17.5, 70),
    (16.5, 65),
    (15.0, 60),
)


# ----- evaluation ---------------------------------------------------------------------
def _trump_value(card: str, trump: str) -> float:
    if card == BIG_JOKER:
        return 4.0
    if card == SMALL_JOKER:
        return 3.5
    if rank(card) == "2":
        return 3.0 if suit(card) == trump else 2.5
    r = rank(card)
    return {"A": 2.2, "K": 1.7, "Q": 1.4, "J": 1.2}.get(r, 1.0)


def suit_strength(hand: Sequence[str], trump: str) -> float:
    """How good ``hand`` is as a declarer's hand with ``trump`` as trump: trump quality
    and length, plain aces and kings, and short plain suits (ruffing chances)."""
    trumps = [c for c in hand if is_trump(c, trump)]
    value = sum(_trump_value(c, trump) for c in trumps)
    for s in SUITS:
        if s == trump:
            continue
        plain = [rank(c) for c in hand if suit(c) == s and rank(c) != "2"]
        if "A" in plain:
            value += 1.5
            if "K" in plain:
                value += 1.0
        if len(plain) == 0 and trumps:
            value += 1.0
    return value


def best_trump(hand: Sequence[str]) -> str:
    return max(SUITS, key=lambda s: (suit_strength(hand, s), -SUITS.index(s)))


def hand_strength(hand: Sequence[str]) -> float:
    return max(suit_strength(hand, s) for s in SUITS)


def choose_bid(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    strength = hand_strength(view["hand"])
    max_bid = next((b for t, b in BID_THRESHOLDS if strength >= t), 0)
    bids = [int(c.split()[1]) for c in legal if c.startswith("bid ")]
    affordable = [b for b in bids if b <= max_bid]
    return f"bid {min(affordable)}" if affordable else "pass"


def choose_bury(hand: Sequence[str], count: int = KITTY_SIZE, trump: str | None = None) -> str:
    """Bury ``count`` cards (6 of 18, or the rest after some were buried one by one) in one
    action: keep the trumps of the best suit (or of ``trump``), void the shortest plain
    suits, then bury plain point cards (buried points never count for the defenders) and
    the lowest plain cards; plain aces are kept while there is any other choice."""
    if trump is None:
        trump = best_trump(hand)
    plain = [c for c in hand if not is_trump(c, trump)]
    chosen: list[str] = []
    by_suit: dict[str, list[str]] = {}
    for c in plain:
        by_suit.setdefault(suit(c), []).append(c)
    # Void whole short suits first (an ace alone is still worth keeping).
    for s in sorted(by_suit, key=lambda s: (len(by_suit[s]), SUITS.index(s))):
        cards = by_suit[s]
        if len(chosen) + len(cards) <= count and not any(rank(c) == "A" for c in cards):
            chosen.extend(cards)

    def bury_priority(c: str) -> tuple[int, int, int]:
        # Points first (they leave the game), then low cards of short suits; aces last.
        is_ace = rank(c) == "A"
        length = len(by_suit[suit(c)]) - sum(1 for x in chosen if suit(x) == suit(c))
        return (is_ace, -points(c), length * 20 + PLAIN_RANK_VALUE[rank(c)])

    rest = sorted((c for c in plain if c not in chosen), key=bury_priority)
    chosen.extend(rest[: count - len(chosen)])
    if len(chosen) < count:  # fewer than 6 plain cards: bury the weakest trumps
        trumps = sorted(
            (c for c in hand if is_trump(c, trump) and c not in chosen),
            key=lambda c: (trick_strength(c, trump, TRUMP_GROUP), -points(c)),
        )
        chosen.extend(trumps[: count - len(chosen)])
    return "bury " + " ".join(sort_canonical(chosen))


def choose_trump(hand: Sequence[str]) -> str:
    return f"trump {best_trump(hand)}"


# ----- play ---------------------------------------------------------------------------
class _Table:
    """What the AI knows during play, derived from its view."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.declarer: int = view["declarer"]
        self.trump: str = view["trump"]
        self.hand: list[str] = list(view["hand"])
        self.trick: list[tuple[int, str]] = [(p["seat"], p["card"]) for p in view["trick"]]
        self.tricks_played: int = view["tricks_played"]
        seen = set(self.hand) | {c for _, c in self.trick}
        self.voids: dict[int, set[str]] = {s: set() for s in range(SEATS)}
        for t in view["tricks"]:
            cards = [(p["seat"], p["card"]) for p in t["cards"]]
            led = group(cards[0][1], self.trump)
            for s, c in cards:
                seen.add(c)
                if group(c, self.trump) != led:
                    self.voids[s].add(led)
        if self.trick:
            led = group(self.trick[0][1], self.trump)
            for s, c in self.trick[1:]:
                if group(c, self.trump) != led:
                    self.voids[s].add(led)
        if view.get("buried"):
            seen |= set(view["buried"])
        self.unseen = [c for c in DECK if c not in seen]

    def is_partner(self, seat: int) -> bool:
        return seat != self.me and self.me != self.declarer and seat != self.declarer

    def remaining_after_me(self) -> list[int]:
        leader = self.trick[0][0] if self.trick else self.me
        played = {s for s, _ in self.trick} | {self.me}
        return [(leader + i) % SEATS for i in range(SEATS) if (leader + i) % SEATS not in played]

    def unseen_in(self, grp: str) -> list[str]:
        return [c for c in self.unseen if group(c, self.trump) == grp]

    def is_master(self, card: str) -> bool:
        """Nothing unseen of the card's own group beats it."""
        grp = group(card, self.trump)
        mine = trick_strength(card, self.trump, grp)
        return all(trick_strength(c, self.trump, grp) <= mine for c in self.unseen_in(grp))


def _strength(t: _Table, card: str, led: str) -> int:
    return trick_strength(card, t.trump, led)


def _cheapness(t: _Table, card: str) -> tuple[int, int, int]:
    """Sort key: the card we mind losing least first (plain before trump, no points,
    low)."""
    trump = is_trump(card, t.trump)
    return (int(trump), points(card), trick_strength(card, t.trump, group(card, t.trump)))


def _trick_winner(t: _Table) -> tuple[int, int]:
    led = group(t.trick[0][1], t.trump)
    best_seat, best = t.trick[0][0], _strength(t, t.trick[0][1], led)
    for s, c in t.trick[1:]:
        st = _strength(t, c, led)
        if st > best:
            best_seat, best = s, st
    return best_seat, best


def _could_be_beaten(t: _Table, strength: int, led: str, seats: Sequence[int]) -> bool:
    """Could one of ``seats`` (still to play) beat ``strength``, from the unseen cards and
    the voids they have shown?"""
    if not seats:
        return False
    for c in t.unseen:
        if trick_strength(c, t.trump, led) <= strength:
            continue
        grp = group(c, t.trump)
        for s in seats:
            if grp in t.voids[s]:
                continue
            # A plain card beating a plain lead must be the led suit; a trump beats a plain
            # lead only from a player who is void in the led suit (or may be).
            if grp == TRUMP_GROUP and led != TRUMP_GROUP and led not in t.voids[s]:
                # they may still hold the led suit, but with few unseen cards left in it they
                # are likely void: count it as a risk when the suit is nearly exhausted
                if len(t.unseen_in(led)) > 2:
                    continue
            return True
    return False


def _reserve(t: _Table) -> str | None:
    """The trump kept for the 12th trick: the declarer keeps its strongest trump to stop
    抠底; a defender keeps a master trump (nothing unseen beats it) to win it."""
    trumps = [c for c in t.hand if is_trump(c, t.trump)]
    if not trumps:
        return None
    top = max(trumps, key=lambda c: trick_strength(c, t.trump, TRUMP_GROUP))
    if t.me == t.declarer or t.is_master(top):
        return top
    return None


def _lead(t: _Table, playable: list[str]) -> str:
    reserve = _reserve(t)
    options = [c for c in playable if c != reserve] or playable
    trumps = [c for c in options if is_trump(c, t.trump)]
    plains = [c for c in options if not is_trump(c, t.trump)]
    unseen_trumps = t.unseen_in(TRUMP_GROUP)
    declarer = t.declarer
    if t.me == declarer:
        # Draw trumps with masters while the defenders may hold some.
        masters = [c for c in trumps if t.is_master(c)]
        if masters and unseen_trumps:
            return max(masters, key=lambda c: trick_strength(c, t.trump, TRUMP_GROUP))
        # Plain masters in suits where some defender still follows.
        plain_masters = [
            c
            for c in plains
            if t.is_master(c) and not all(suit(c) in t.voids[s] for s in range(SEATS) if s != t.me)
        ]
        if plain_masters:
            return max(plain_masters, key=lambda c: points(c))
        if plains:
            # Low card from the shortest plain suit, to make voids for ruffing.
            counts = {s: sum(1 for c in plains if suit(c) == s) for s in SUITS}
            return min(
                plains, key=lambda c: (points(c) > 0, counts[suit(c)], PLAIN_RANK_VALUE[rank(c)])
            )
        return min(options, key=lambda c: (points(c), trick_strength(c, t.trump, TRUMP_GROUP)))
    # Defender leads.
    declarer_voids = t.voids[declarer]
    plain_masters = [c for c in plains if t.is_master(c) and suit(c) not in declarer_voids]
    if plain_masters:
        return max(plain_masters, key=lambda c: points(c))
    declarer_has_trumps = TRUMP_GROUP not in declarer_voids and bool(unseen_trumps)
    taps = [c for c in plains if suit(c) in declarer_voids and points(c) == 0]
    if taps and declarer_has_trumps:
        return min(taps, key=lambda c: PLAIN_RANK_VALUE[rank(c)])
    safe_plains = [c for c in plains if points(c) == 0 and suit(c) not in declarer_voids]
    if safe_plains:
        counts = {s: sum(1 for c in plains if suit(c) == s) for s in SUITS}
        return min(safe_plains, key=lambda c: (-counts[suit(c)], PLAIN_RANK_VALUE[rank(c)]))
    masters = [c for c in trumps if t.is_master(c)]
    if masters:
        return max(masters, key=lambda c: trick_strength(c, t.trump, TRUMP_GROUP))
    return min(options, key=lambda c: _cheapness(t, c))


def _follow(t: _Table, playable: list[str]) -> str:
    led = group(t.trick[0][1], t.trump)
    winner, best = _trick_winner(t)
    after = t.remaining_after_me()
    pts_on_table = sum(points(c) for _, c in t.trick)
    reserve = _reserve(t)
    if reserve is not None and len(playable) > 1:
        playable = [c for c in playable if c != reserve] or playable
    friend_winning = t.is_partner(winner)
    if t.me == t.declarer:
        enemies_after = after
    else:
        enemies_after = [s for s in after if s == t.declarer]
    if friend_winning and not _could_be_beaten(t, best, led, enemies_after):
        # Smear points onto the partner's trick (plain before trump, most points).
        return max(
            playable, key=lambda c: (points(c), -int(is_trump(c, t.trump)), -_strength(t, c, led))
        )
    winners = [c for c in playable if _strength(t, c, led) > best]
    if winners and not friend_winning:
        safe = [
            c for c in winners if not _could_be_beaten(t, _strength(t, c, led), led, enemies_after)
        ]
        # Defenders still to play smear points onto a defender's winning card, so the
        # declarer fights for any trick they come after; otherwise only for points.
        worth = pts_on_table > 0 or (t.me == t.declarer and bool(enemies_after))
        if safe and (worth or any(not is_trump(c, t.trump) for c in safe)):
            if enemies_after:
                return min(safe, key=lambda c: (_strength(t, c, led), points(c)))
            # Last to play: the cheapest winner, adding points to our own trick.
            return max(safe, key=lambda c: (points(c), -_strength(t, c, led)))
        if pts_on_table >= 10:
            return max(winners, key=lambda c: _strength(t, c, led))
    # Can't (or won't) win: give away the least.
    return min(playable, key=lambda c: _cheapness(t, c))


def choose_play(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    t = _Table(view)
    if legal:
        playable = [c.split()[1] for c in legal]
    else:
        playable = t.hand
        if t.trick:
            led = group(t.trick[0][1], t.trump)
            following = [c for c in t.hand if group(c, t.trump) == led]
            playable = following or t.hand
    if len(playable) == 1:
        return f"play {playable[0]}"
    card = _follow(t, playable) if t.trick else _lead(t, playable)
    return f"play {card}"


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The AI's action from its own view. In the bury phase it buries every card still to
    bury in one action (``bury c1 … c6``), which ``apply`` accepts though ``legal`` lists
    one card per code; ``legal`` may then be empty."""
    phase = view["phase"]
    if phase == "bidding":
        return choose_bid(view, legal)
    if phase == "bury":
        hand = view["hand"]
        return choose_bury(hand, view.get("to_bury") or len(hand) - HAND_SIZE)
    if phase == "trump":
        return choose_trump(view["hand"])
    if phase == "play":
        return choose_play(view, legal)
    if legal:
        return rng.choice(list(legal))
    raise ValueError("nothing to decide")


# ----- easy: a beginner ---------------------------------------------------------------------

#: A beginner bids when it holds this many high cards (jokers, 2s, aces), whatever else.
EASY_HIGH_CARDS = 6


def high_cards(hand: Sequence[str]) -> int:
    """Jokers, 2s and aces: the cards a beginner counts to judge a hand."""
    return sum(1 for c in hand if c in (BIG_JOKER, SMALL_JOKER) or rank(c) in ("2", "A"))


def _easy_rank(card: str) -> int:
    """A beginner's idea of a card's height, trumps ignored: jokers, 2s, then A down to 3."""
    if card == BIG_JOKER:
        return 20
    if card == SMALL_JOKER:
        return 19
    if rank(card) == "2":
        return 18
    return PLAIN_RANK_VALUE[rank(card)]


def choose_easy(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """A beginner: bids on high cards alone (the lowest bid it may make), buries its lowest
    cards, names its longest suit, and in play leads its highest card and tries to win
    every trick with its highest card, else throws its lowest. It neither counts the cards
    played nor minds its partners, the points it gives away or the trumps still out."""
    phase = view["phase"]
    hand = list(view["hand"])
    if phase == "bidding":
        bids = [c for c in legal if c.startswith("bid ")]
        if bids and high_cards(hand) >= EASY_HIGH_CARDS:
            return min(bids, key=lambda c: int(c.split()[1]))
        return "pass" if "pass" in legal else legal[0]
    if phase == "bury":
        count = view.get("to_bury") or len(hand) - HAND_SIZE
        low = sorted(hand, key=lambda c: (_easy_rank(c), DECK.index(c)))[:count]
        return "bury " + " ".join(sort_canonical(low))
    if phase == "trump":
        counts = {s: sum(1 for c in hand if suit(c) == s) for s in SUITS}
        return f"trump {max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))}"
    if phase != "play" or not legal:
        return rng.choice(list(legal)) if legal else choose(view, legal, rng)
    trump = view["trump"]
    cards = [c.split()[1] for c in legal]
    trick = [p["card"] for p in view["trick"]]
    if not trick:
        return "play " + max(cards, key=lambda c: (_easy_rank(c), -DECK.index(c)))
    led = group(trick[0], trump)
    best = max(trick_strength(c, trump, led) for c in trick)
    if any(trick_strength(c, trump, led) > best for c in cards):
        # The highest card it holds, as a beginner does, not the cheapest winner.
        return "play " + max(cards, key=lambda c: (trick_strength(c, trump, led), _easy_rank(c)))
    return "play " + min(cards, key=lambda c: (_easy_rank(c), DECK.index(c)))


__all__ = [
    "choose",
    "choose_bid",
    "choose_bury",
    "choose_easy",
    "choose_play",
    "choose_trump",
    "hand_strength",
]


# ----- hints --------------------------------------------------------------------------------


def hint(view: Mapping[str, Any], legal: Sequence[str]) -> tuple[str, str]:
    """What the AI would play from this view, and why in a line: ``(code, reason)``.

    Deterministic. In the bury phase the hint buries every card still to bury at once
    (``bury c1 … c6``, which ``apply`` accepts though ``legal`` lists one card per code);
    otherwise ``code`` is one of ``legal``. The reason is a :class:`~bot.i18n.text.Text`."""
    phase = view.get("phase")
    if not legal and phase != "bury":
        return "", Text("Nothing to decide now.")
    code = choose(view, legal, random.Random(f"hint:{view.get('version')}"))
    words = code.split()
    if phase == "bidding":
        strength = f"{hand_strength(view['hand']):.1f}"
        if code == "pass":
            return code, Text(
                "Pass: this hand (strength {strength}) is too weak to declare", strength=strength
            )
        trump = SUIT_NAME_LOWER.get(best_trump(view["hand"]), "")
        return code, Text(
            "Bid {bid}: a strong hand (strength {strength}) with {suit} as trump",
            bid=words[1],
            strength=strength,
            suit=trump,
        )
    if phase == "bury":
        cards = words[1:]
        trump = best_trump(view["hand"])
        voided = tuple(
            SUIT_NAME_LOWER[s]
            for s in SUITS
            if s != trump
            and any(suit(c) == s for c in cards)
            and not any(
                suit(c) == s and c not in cards and not is_trump(c, trump) for c in view["hand"]
            )
        )
        pts = sum(points(c) for c in cards)
        n = len(cards)
        if voided and pts:
            why = Text(
                "Bury {n}: voids {suits} and hides {points} points from the defenders",
                n=n,
                suits=voided,
                points=pts,
            )
        elif voided:
            why = Text("Bury {n}: voids {suits}", n=n, suits=voided)
        elif pts:
            why = Text(
                "Bury {n}: keeps your trumps and aces and hides {points} points from the defenders",
                n=n,
                points=pts,
            )
        else:
            why = Text("Bury {n}: keeps your trumps and aces", n=n)
        return code, why
    if phase == "trump":
        return code, Text(
            "Name {suit} trump: your longest and strongest suit", suit=SUIT_NAME_LOWER[words[1]]
        )
    if phase == "play":
        card = words[1]
        name = label(card)
        t = _Table(view)
        if not t.trick:
            if t.is_master(card):
                return code, Text("Lead {card}: nothing unseen beats it", card=name)
            return code, Text("Lead {card}: a cheap card to give the lead away safely", card=name)
        led = group(t.trick[0][1], t.trump)
        winner, best = _trick_winner(t)
        if t.is_partner(winner) and _strength(t, card, led) <= best:
            if points(card):
                return code, Text(
                    "Your partner wins this trick: give them {card}'s points", card=name
                )
            return code, Text("Your partner wins this trick: play low")
        if _strength(t, card, led) > best:
            return code, Text("Win the trick with {card}", card=name)
        return code, Text(
            "You can't win this trick: give away {card}, your cheapest card", card=name
        )
    return code, Text("The AI's choice here")
