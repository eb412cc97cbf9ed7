"""The San Da Yi match state machine (pure: no discord, no PIL).

See the package docstring for the action grammar and how a stacked deck is dealt.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.core import Event, IllegalAction, Result, State
from bot.engine.rng import make_rng, shuffled
from bot.games.sandayi.cards import (
    DECK,
    SUIT_NAME,
    SUIT_SYMBOL,
    SUITS,
    TRUMP_GROUP,
    card_list,
    cards_points,
    diamond_bidding_order,
    group,
    is_card,
    label,
    sort_canonical,
    sort_for_display,
    trick_winner_index,
)
from bot.games.sandayi.scoring import BIDS, MAX_BID, settle, stake, target
from bot.games.sandayi.views import HandRecord, SanDaYiPart, SanDaYiView, Trick
from bot.i18n.text import Text, ntext

log = logging.getLogger(__name__)

SEATS = 4
HAND_SIZE = 12
KITTY_SIZE = 6
TRICKS = 12
PUBLIC_KITTY_BIDS = frozenset({60, 65})  # rule 7: the kitty is shown for these bids

BIDDING, BURY, TRUMP, PLAY, OVER = "bidding", "bury", "trump", "play", "over"


@dataclass(frozen=True)
class Options:
    """Table options. ``hands``: hands in the match (rule 18, default 8).
    ``fixed_minimums``: rule 5's alternative reading (3rd bidder ≥ 65 and 4th ≥ 70 always,
    not only when everyone before passed)."""

    hands: int = 8
    fixed_minimums: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.hands <= 40:
            raise ValueError(Text("hands must be between 1 and 40."))


def _check_deck(deck: Sequence[str]) -> list[str]:
    deck = list(deck)
    if sorted(deck) != sorted(DECK):
        raise ValueError("A stacked deck must hold each of the 54 cards exactly once.")
    return deck


class SanDaYiState(State):
    game = "sandayi"
    teams = None  # everyone for themselves in the match; 1 v 3 only inside a hand

    def __init__(
        self,
        seed: int | str,
        players: Sequence[str],
        options: Options,
        decks: Sequence[Sequence[str]] = (),
    ) -> None:
        if len(players) != SEATS:
            raise ValueError("San Da Yi needs exactly 4 players.")
        super().__init__(seed, players, dataclasses.asdict(options))
        self.hands_total = options.hands
        self.fixed_minimums = options.fixed_minimums
        self.stacked = [_check_deck(d) for d in decks]
        self.hand_no = 1
        self.deals_done = 0  # shuffles so far, redeals included (salt of the deal RNG)
        self.redeals = 0  # redeals within the current hand
        self.totals = [0] * SEATS
        self.history: list[HandRecord] = []
        self.first_bidder = -1
        self._deal()

    # ----- dealing ---------------------------------------------------------------------
    def _deal(self) -> None:
        n = self.deals_done
        deck = (
            self.stacked[n]
            if n < len(self.stacked)
            else shuffled(DECK, make_rng(self.seed, "deal", n))
        )
        self.deals_done += 1
        self.hands: list[list[str]] = [deck[s : SEATS * HAND_SIZE : SEATS] for s in range(SEATS)]
        self.kitty: list[str] = deck[SEATS * HAND_SIZE :]
        if self.first_bidder < 0:  # rule 3: the 3♦ holder (R: else the lowest diamond's)
            for card in diamond_bidding_order():
                holder = next((s for s in range(SEATS) if card in self.hands[s]), None)
                if holder is not None:
                    self.first_bidder = holder
                    break
        self.phase = BIDDING
        self.bids: list[tuple[int, int | None]] = []  # (seat, bid or None for a pass)
        self.declarer: int | None = None
        self.bid: int | None = None
        self.kitty_public = False
        self.buried: list[str] = []
        self.trump: str | None = None
        self.leader: int | None = None
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[Trick] = []
        self.defender_points = 0

    # ----- helpers ---------------------------------------------------------------------
    @property
    def high_bid(self) -> int:
        return max((b for _, b in self.bids if b is not None), default=0)

    def _bidder(self) -> int:
        return (self.first_bidder + len(self.bids)) % SEATS

    def bid_minimum(self) -> int:
        """The lowest bid the current bidder may make (rule 5)."""
        position = len(self.bids)  # 0-based place in the bidding order
        by_position = (60, 60, 65, 70)[position]
        if self.fixed_minimums or self.high_bid == 0:
            floor = by_position
        else:
            floor = BIDS[0]
        return max(floor, self.high_bid + 5)

    @property
    def to_bury(self) -> int:
        """Cards the declarer still has to bury (0 outside the bury phase)."""
        return KITTY_SIZE - len(self.buried) if self.phase == BURY else 0

    def _next_player(self) -> int:
        assert self.leader is not None
        return (self.leader + len(self.trick)) % SEATS

    def _led_group(self) -> str | None:
        return group(self.trick[0][1], self.trump) if self.trick else None

    def _playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        led = self._led_group()
        if led is None:
            return list(hand)
        following = [c for c in hand if group(c, self.trump) == led]
        return following or list(hand)

    def _name(self, seat: int) -> str:
        return self.players[seat]

    # ----- contract --------------------------------------------------------------------
    @property
    def to_act(self) -> list[int]:
        if self.phase == BIDDING:
            return [self._bidder()]
        if self.phase in (BURY, TRUMP):
            assert self.declarer is not None
            return [self.declarer]
        if self.phase == PLAY:
            return [self._next_player()]
        return []

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act:
            return []
        if self.phase == BIDDING:
            return ["pass"] + [f"bid {b}" for b in BIDS if b >= self.bid_minimum()]
        if self.phase == BURY:
            # One code per card; ``apply`` also takes several cards at once (up to the
            # number still to bury), validated as a set: no list of the C(18, 6) choices.
            return [f"bury {c}" for c in sort_canonical(self.hands[seat])]
        if self.phase == TRUMP:
            return [f"trump {s}" for s in SUITS]
        if self.phase == PLAY:
            return [f"play {c}" for c in sort_canonical(self._playable(seat))]
        return []

    def normalize(self, seat: int, code: str) -> str:
        words = code.split()
        if words and words[0] == "bury":
            return " ".join(["bury", *sort_canonical(words[1:])])
        return " ".join(words)

    def check(self, seat: int, code: str) -> None:
        if self.phase == BURY and code.split()[:1] == ["bury"]:
            self._check_bury(seat, code.split()[1:])
            return
        super().check(seat, code)

    def _check_bury(self, seat: int, cards: list[str]) -> None:
        """A bury of one or several cards, checked as a set (rule 7: any cards)."""
        left = self.to_bury
        if not cards:
            raise IllegalAction(
                ntext(
                    "Name the cards to bury ({n} more card to bury): `bury 10H`.",
                    "Name the cards to bury ({n} more cards to bury): `bury 10H`.",
                    left,
                )
            )
        unknown = [c for c in cards if not is_card(c)]
        if unknown:
            raise IllegalAction(_not_a_card(unknown[0]))
        twice = sorted({c for c in cards if cards.count(c) > 1}, key=cards.index)
        if twice:
            raise IllegalAction(
                Text("Each card is buried once: {card} is named twice.", card=label(twice[0]))
            )
        if len(cards) > left:
            raise IllegalAction(
                ntext(
                    "You have {n} more card to bury, not {count}.",
                    "You have {n} more cards to bury, not {count}.",
                    left,
                    count=len(cards),
                )
            )
        missing = tuple(label(c) for c in cards if c not in self.hands[seat])
        if missing:
            raise IllegalAction(Text("You don't hold {cards}.", cards=missing))

    def explain_illegal(self, seat: int, code: str) -> str:
        words = code.split()
        verb = words[0] if words else ""
        if self.phase == BIDDING:
            if verb == "bid" and len(words) == 2:
                if words[1] not in {str(b) for b in BIDS}:
                    return Text("Bids are 60, 65, 70, 75 or 80.")
                return self._explain_low_bid()
            return Text("It is time to bid (`bid 60` … `bid 80`) or `pass`.")
        if self.phase == BURY:
            return ntext(
                "Bury {n} more card from your hand, one at a time (`bury 10H`) or together "
                "(`bury c1 c2 …`).",
                "Bury {n} more cards from your hand, one at a time (`bury 10H`) or together "
                "(`bury c1 c2 …`).",
                self.to_bury,
            )
        if self.phase == TRUMP:
            return Text("Name the trump suit: `trump S`, `trump H`, `trump D` or `trump C`.")
        if self.phase == PLAY:
            if verb != "play" or len(words) != 2:
                return Text("Play one card: `play QS`.")
            card = words[1]
            if not is_card(card):
                return _not_a_card(card)
            if card not in self.hands[seat]:
                return Text("You don't hold {cards}.", cards=(label(card),))
            led = self._led_group()
            if led == TRUMP_GROUP:
                return Text("You must follow suit: play one of your trumps.")
            what = SUIT_NAME.get(led or "") or Text("the led suit")
            return Text("You must follow suit: play one of your {suit}.", suit=what)
        return Text("`{code}` is not a legal move now.", code=code)

    def _explain_low_bid(self) -> str:
        """Why the current bidder must bid at least ``bid_minimum()`` (rules 4-5)."""
        minimum, high = self.bid_minimum(), self.high_bid
        if high and minimum == high + 5:
            return Text(
                "The highest bid is {high}: bid {minimum} or more, or pass.",
                high=high,
                minimum=minimum,
            )
        if self.fixed_minimums:
            position = len(self.bids)
            if position == 0:
                why = Text("The 1st bidder bids at least {minimum}", minimum=minimum)
            elif position == 1:
                why = Text("The 2nd bidder bids at least {minimum}", minimum=minimum)
            elif position == 2:
                why = Text("The 3rd bidder bids at least {minimum}", minimum=minimum)
            else:
                why = Text("The 4th bidder bids at least {minimum}", minimum=minimum)
        else:
            why = ntext(
                "After {n} pass you must bid at least {minimum}",
                "After {n} passes you must bid at least {minimum}",
                len(self.bids),
                minimum=minimum,
            )
        return Text("{why}: bid {minimum} or more, or pass.", why=why, minimum=minimum)

    def default_action(self, seat: int) -> str:
        """Timeout: pass in the bidding; otherwise the AI's choice (a sensible trump or
        card; in the bury phase all the cards still to bury, in one action)."""
        if seat not in self.to_act:
            raise IllegalAction(Text("There is nothing to decide for this seat now."))
        if self.phase == BIDDING:
            return "pass"
        from bot.games.sandayi import ai  # pure; imported late to keep the modules apart

        legal = self.legal_actions(seat)
        return ai.choose(self.view(seat), legal, make_rng(self.seed, "timeout", self.version))

    def describe(self, code: str) -> str:
        return describe(code)

    # ----- actions ---------------------------------------------------------------------
    def _apply(self, seat: int, code: str) -> list[Event]:
        verb, *args = code.split()
        if verb in ("bid", "pass"):
            return self._apply_bid(seat, int(args[0]) if verb == "bid" else None)
        if verb == "bury":
            return self._apply_bury(seat, args)
        if verb == "trump":
            return self._apply_trump(seat, args[0])
        return self._apply_play(seat, args[0])

    def _apply_bid(self, seat: int, bid: int | None) -> list[Event]:
        self.bids.append((seat, bid))
        name = self._name(seat)
        text = (
            Text("{name} passes.", context="bidding", name=name)
            if bid is None
            else Text("{name} bids {bid}.", name=name, bid=bid)
        )
        events = [Event("bid", text, seat, {"bid": bid})]
        if bid != MAX_BID and len(self.bids) < SEATS:
            return events
        if self.high_bid == 0:  # rule 6: everyone passed
            self.redeals += 1
            self._deal()
            events.append(
                Event(
                    "redeal",
                    Text(
                        "Everyone passed: the cards are dealt again; {name} bids first again.",
                        name=self._name(self.first_bidder),
                    ),
                )
            )
            return events
        declarer, high = next((s, b) for s, b in reversed(self.bids) if b is not None)
        self.declarer, self.bid = declarer, high
        self.kitty_public = high in PUBLIC_KITTY_BIDS
        self.hands[declarer].extend(self.kitty)
        self.phase = BURY
        name = self._name(declarer)
        shown = card_list(sort_for_display(self.kitty))
        if self.kitty_public:
            text = Text(
                "{name} declares at {bid}: the defenders need {target} points. "
                "The kitty is shown: {cards}.",
                name=name,
                bid=high,
                target=target(high),
                cards=shown,
            )
            events.append(Event("declare", text, declarer, {"kitty": list(self.kitty)}))
        else:
            text = Text(
                "{name} declares at {bid}: the defenders need {target} points. "
                "{name} takes the kitty unseen.",
                name=name,
                bid=high,
                target=target(high),
            )
            events.append(Event("declare", text, declarer))
            events.append(
                Event(
                    "kitty",
                    Text("You take the kitty: {cards}.", cards=shown),
                    declarer,
                    {"kitty": list(self.kitty)},
                    private_to=declarer,
                )
            )
        return events

    def _apply_bury(self, seat: int, cards: list[str]) -> list[Event]:
        for c in cards:
            self.hands[seat].remove(c)
        self.buried.extend(cards)
        left = KITTY_SIZE - len(self.buried)
        if not left:
            self.phase = TRUMP
        n = len(cards)
        name = self._name(seat)
        if left:
            text = ntext(
                "{name} buries {n} card ({left} more to bury).",
                "{name} buries {n} cards ({left} more to bury).",
                n,
                name=name,
                left=left,
            )
        else:
            text = ntext("{name} buries {n} card.", "{name} buries {n} cards.", n, name=name)
        mine = Text("You bury {cards}.", cards=card_list(sort_for_display(cards)))
        return [
            Event("bury", text, seat, {"count": n, "left": left}),
            Event("buried", mine, seat, {"cards": list(cards)}, private_to=seat),
        ]

    def _apply_trump(self, seat: int, suit_letter: str) -> list[Event]:
        self.trump = suit_letter
        self.phase = PLAY
        self.leader = seat  # rule 11: the declarer leads the first trick
        return [
            Event(
                "trump",
                Text(
                    "{name} names {symbol} {suit} as trump.",
                    name=self._name(seat),
                    symbol=SUIT_SYMBOL[suit_letter],
                    suit=SUIT_NAME[suit_letter],
                ),
                seat,
                {"trump": suit_letter},
            )
        ]

    def _apply_play(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        text = Text("{name} plays {card}.", name=self._name(seat), card=label(card))
        events = [Event("play", text, seat, {"card": card})]
        if len(self.trick) < SEATS:
            return events
        assert self.trump is not None and self.leader is not None
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner_index(cards, self.trump)][0]
        pts = cards_points(cards)
        by_defenders = winner != self.declarer
        if by_defenders:
            self.defender_points += pts
        self.tricks.append(
            {
                "leader": self.leader,
                "cards": [{"seat": s, "card": c} for s, c in self.trick],
                "winner": winner,
                "points": pts,
            }
        )
        self.trick = []
        self.leader = winner
        if by_defenders:
            text = Text(
                "{name} wins trick {n} ({points} points to the defenders).",
                name=self._name(winner),
                n=len(self.tricks),
                points=pts,
            )
        else:
            text = Text(
                "{name} wins trick {n} ({points} points to the declarer).",
                name=self._name(winner),
                n=len(self.tricks),
                points=pts,
            )
        events.append(Event("trick", text, winner, {"winner": winner, "points": pts}))
        if len(self.tricks) == TRICKS:
            events.extend(self._end_hand())
        return events

    def _end_hand(self) -> list[Event]:
        assert self.declarer is not None and self.bid is not None and self.trump is not None
        declarer, bid = self.declarer, self.bid
        kou_di = self.tricks[-1]["winner"] != declarer  # rule 16
        result = settle(bid, self.defender_points, kou_di)
        deltas = result.per_seat(declarer)
        for s in range(SEATS):
            self.totals[s] += deltas[s]
        entry: HandRecord = {
            "hand": self.hand_no,
            "first_bidder": self.first_bidder,
            "bids": [{"seat": s, "bid": b} for s, b in self.bids],
            "declarer": declarer,
            "bid": bid,
            "stake": result.stake,
            "trump": self.trump,
            "target": result.target,
            "defender_points": self.defender_points,
            "kou_di": kou_di,
            "last_trick_winner": self.tricks[-1]["winner"],
            "case": result.case.code,
            "case_name": result.case.name,
            "declarer_multiple": result.case.declarer,
            "defender_multiple": result.case.defender,
            "settlement": deltas,
            "totals": list(self.totals),
            "redeals": self.redeals,
        }
        self.history.append(entry)
        pay = tuple(f"{self._name(s)} {deltas[s]:+d}" for s in range(SEATS))
        text = Text(
            "Hand {hand}: {name} bid {bid} (trump {symbol}); the defenders took "
            "{points}/{target} points, {kou} — case {case} ({case_name}, stake {stake}): "
            "{pay}.",
            hand=self.hand_no,
            name=self._name(declarer),
            bid=bid,
            symbol=SUIT_SYMBOL[self.trump],
            points=self.defender_points,
            target=result.target,
            kou=KOU_DI if kou_di else NO_KOU_DI,
            case=result.case.code,
            case_name=result.case.name,
            stake=result.stake,
            pay=pay,
        )
        events = [Event("deal_end", text, None, entry)]
        log.debug("sandayi hand end: %s", text)
        if self.hand_no >= self.hands_total:
            self.phase = OVER
            best = max(self.totals)
            top = [self._name(s) for s in range(SEATS) if self.totals[s] == best]
            if len(top) == 1:
                text = Text(
                    "The match is over: {name} wins with {score}.", name=top[0], score=f"{best:+d}"
                )
            else:
                names = Text("{names} and {last}", names=tuple(top[:-1]), last=top[-1])
                text = Text(
                    "The match is over: {names} share the win with {score}.",
                    names=names,
                    score=f"{best:+d}",
                )
            events.append(Event("match_end", text))
            return events
        self.hand_no += 1
        self.redeals = 0
        self.first_bidder = declarer  # rule 3: the previous declarer bids first
        self._deal()
        events.append(
            Event(
                "deal",
                Text(
                    "Hand {hand}: {name} bids first.",
                    hand=self.hand_no,
                    name=self._name(self.first_bidder),
                ),
            )
        )
        return events

    # ----- views and results -----------------------------------------------------------
    def view(self, seat: int | None = None) -> SanDaYiView:
        common = self._common(seat)  # (first: it refuses a seat not at the table)
        return {**self._view(seat), **common}

    def _view(self, seat: int | None) -> SanDaYiPart:
        is_declarer = seat is not None and seat == self.declarer
        kitty_known = self.declarer is not None and (self.kitty_public or is_declarer)
        last = self.tricks[-1] if self.tricks else None
        v: SanDaYiPart = {
            "deal": self.hand_no,
            "deals": self.hands_total,
            "redeals": self.redeals,
            "phase": self.phase,
            "first_bidder": self.first_bidder,
            "bids": [{"seat": s, "bid": b} for s, b in self.bids],
            "high_bid": self.high_bid or None,
            "bid_minimum": self.bid_minimum() if self.phase == BIDDING else None,
            "fixed_minimums": self.fixed_minimums,
            "declarer": self.declarer,
            "bid": self.bid,
            "stake": stake(self.bid) if self.bid else None,
            "target": target(self.bid) if self.bid else None,
            "trump": self.trump,
            "kitty_public": self.kitty_public,
            "kitty": sort_for_display(self.kitty, self.trump) if kitty_known else None,
            "buried": sort_for_display(self.buried, self.trump)
            if is_declarer and self.buried
            else None,
            "to_bury": self.to_bury,
            "hand": sort_for_display(self.hands[seat], self.trump) if seat is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "leader": self.leader,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "tricks_played": len(self.tricks),
            "tricks": [{**t, "cards": [{**c} for c in t["cards"]]} for t in self.tricks],
            "tricks_won": [sum(1 for t in self.tricks if t["winner"] == s) for s in range(SEATS)],
            "last_trick": {**last, "cards": [{**c} for c in last["cards"]]} if last else None,
            "defender_points": self.defender_points,
            "history": [
                {
                    **h,
                    "bids": [{**b} for b in h["bids"]],
                    "settlement": list(h["settlement"]),
                    "totals": list(h["totals"]),
                }
                for h in self.history
            ],
        }
        return v

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> list[int]:
        return list(self.totals)

    def result(self) -> Result:
        """Final totals decide the places; for ratings every hand is one contest, the
        declarer against the three defenders (docs/architecture.md: San Da Yi is rated 1 v 3)."""
        contests = []
        for hand in self.history:
            declarer = hand["declarer"]
            defenders = tuple(s for s in range(SEATS) if s != declarer)
            won = hand["settlement"][declarer] > 0
            contests.append((((declarer,), defenders), (1, 2) if won else (2, 1)))
        return dataclasses.replace(Result.free_for_all(self.totals), rating_games=tuple(contests))

    def cards_in_play(self) -> list[str]:
        """Every card somewhere (hands, kitty or buried, current trick, finished tricks);
        always the 54 cards, for the conservation tests."""
        out = [c for h in self.hands for c in h]
        if self.declarer is None:
            out += self.kitty
        out += self.buried
        out += [c for _, c in self.trick]
        out += [c["card"] for t in self.tricks for c in t["cards"]]
        return out


#: Whether the defenders took the last trick (rule 16), inside the deal-end sentence.
KOU_DI = Text("a defender won the last trick (抠底)")
NO_KOU_DI = Text("the declarer won the last trick (no 抠底)")


def _not_a_card(code: str) -> str:
    return Text(
        "`{code}` is not a card: cards are written like `QS`, `10H`, `BJ` (big joker).",
        code=code,
    )


def describe(code: str) -> str:
    """A short label for an action code, for buttons and logs."""
    words = code.split()
    if not words:
        return code
    verb, args = words[0], words[1:]
    if verb == "pass":
        return PASS
    if verb == "bid" and args:
        return Text("Bid {bid}", bid=args[0])
    if verb == "trump" and args and args[0] in SUIT_NAME:
        return Text("Trump {symbol} {suit}", symbol=SUIT_SYMBOL[args[0]], suit=SUIT_NAME[args[0]])
    if verb == "play" and args and is_card(args[0]):
        return Text("Play {card}", card=label(args[0]))
    if verb == "bury":
        # Never the cards: the host posts a timeout's action in the thread, and the
        # buried cards are never shown to the defenders (rule 7).
        return ntext("Bury {n} card", "Bury {n} cards", len(args))
    return code


#: "Pass" in the bidding (a button, a seat's badge): a pass in the auction, not in play.
PASS = Text("Pass", context="bidding")
