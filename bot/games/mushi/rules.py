"""Mushi rules: card points, combinations and the match state machine (pure; docs/rules/mushi.md).

A match is one :class:`MushiState`. Deals, redeals, flips without a choice, the end-of-hand
leftovers and the scoring all happen inside ``apply``; the only decisions left to players
are the ones the action grammar names (see the package docstring).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bot.engine.core import Event, IllegalAction, Result, State, parse_options
from bot.engine.rng import make_rng
from bot.games.hanafuda import deal as hanafuda
from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BRIGHT,
    CLASS_ORDER,
    MONTH_PLANTS,
    PLAIN,
    RIBBON,
    card,
)
from bot.games.hanafuda.deal import (
    FIELD_SIZE,
    HAND_SIZE,
    chain_and,
    deal_out,
    describe_action,
    explain_flip_choice,
    join_and,
    join_or,
    next_deck,
)
from bot.games.hanafuda.views import HanafudaPlay
from bot.games.hanafuda.views import copy_play as _copy_play
from bot.games.mushi.views import (
    Combo,
    FlipChoice,
    HandRecord,
    Leftover,
    MushiMove,
    MushiPart,
    MushiView,
)
from bot.i18n import Text

log = logging.getLogger(__name__)

# ----- the 40-card deck --------------------------------------------------------------------

#: Peony (6) and Bush clover (7) are not used (spec rule 1).
REMOVED_MONTHS = frozenset({6, 7})
DECK: tuple[str, ...] = tuple(c for c in ALL_CARDS if card(c).month not in REMOVED_MONTHS)
MONTH: dict[str, int] = {c: card(c).month for c in DECK}
CLASS: dict[str, str] = {c: card(c).cls for c in DECK}
_DECK_ORDER = {c: i for i, c in enumerate(DECK)}

WILD = "11p1"  # the Willow junk card (lightning)
RAIN_CARDS = frozenset({"11b", "11a", "11r"})  # the other three Willow cards

STOCK_SIZE = len(DECK) - 2 * HAND_SIZE - FIELD_SIZE  # 16: one flip per turn
HALF_POINTS = 115

#: Card points by class (spec rule 1).
CLASS_POINTS: dict[str, int] = {BRIGHT: 20, ANIMAL: 10, RIBBON: 5, PLAIN: 1}
TOTAL_POINTS = sum(CLASS_POINTS[CLASS[c]] for c in DECK)  # 230


def card_points(code: str) -> int:
    """The card points of one card: bright 20, animal 10, ribbon 5, junk 1."""
    return CLASS_POINTS[CLASS[code]]


def pile_points(codes: Iterable[str]) -> int:
    return sum(card_points(c) for c in codes)


def sort_mushi(codes: Iterable[str]) -> list[str]:
    """Deck order: by month, then bright/animal/ribbon/plains."""
    return sorted(codes, key=_DECK_ORDER.__getitem__)


def group_by_class(codes: Iterable[str]) -> dict[str, list[str]]:
    """A capture pile as it lies on the table: brights, animals, ribbons, junk, each sorted."""
    out: dict[str, list[str]] = {cls: [] for cls in CLASS_ORDER}
    for c in sort_mushi(codes):
        out[CLASS[c]].append(c)
    return out


# ----- card names ---------------------------------------------------------------------------


WILD_LABEL = Text("Wild (Lightning)")
WILD_TEXT = Text("the wild Lightning")
#: The wild when it opens a sentence.
WILD_TEXT_START = Text("The wild Lightning")


def card_label(code: str) -> str:
    """A player-readable card name: ``Crane``, ``Pine plain``, ``Wild (Lightning)``."""
    if code == WILD:
        return WILD_LABEL
    return hanafuda.card_label(code)


def card_text(code: str, *, start: bool = False) -> str:
    """A card for event texts: its readable name, ``Curtain (Mar)`` (``start``: opening a
    sentence, ``The wild Lightning``)."""
    if code == WILD:
        return WILD_TEXT_START if start else WILD_TEXT
    return hanafuda.card_text(code)


def cards_text(codes: Sequence[str]) -> str:
    return join_and([card_text(c) for c in codes])


def choices_text(codes: Sequence[str]) -> str:
    """Cards to choose from: ``Crane (Jan) or Pine plain``."""
    return join_or([card_text(c) for c in codes])


# ----- combinations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Combination:
    """A set of cards that, captured by one player, earns ``value`` from the opponent.

    Only the real cards count: the wild never stands in for a missing card (R).
    """

    name: str
    cards: frozenset[str]
    value: int

    def made_by(self, captured: Iterable[str]) -> bool:
        return self.cards <= set(captured)


THE_THREE = Combination(Text("The Three"), frozenset({"1b", "2a", "3b"}), 25)
FOUR_WISTERIA = Combination(Text("Four Wisteria"), frozenset({"4a", "4r", "4p1", "4p2"}), 10)
FOUR_PAULOWNIA = Combination(Text("Four Paulownia"), frozenset({"12b", "12p1", "12p2", "12p3"}), 10)
COMBINATIONS: tuple[Combination, ...] = (THE_THREE, FOUR_WISTERIA, FOUR_PAULOWNIA)
#: The combinations' names by their English (a view read back from JSON holds plain strings).
COMBINATION_NAMES: dict[str, str] = {str(c.name): c.name for c in COMBINATIONS}


def combination_name(name: str) -> str:
    """The Text of a combination's name (``name`` itself if it is none of them)."""
    return COMBINATION_NAMES.get(str(name), name)


# Why a card left on the table at the end of a hand went where it did (``leftovers``' "why").
WILD_LEFT = Text("wild left on the table")
HOLDS_RAIN = Text("the other rain cards")
HOLDS_WILD = Text("the wild")
_LEFTOVER_REASONS = {str(t): t for t in (WILD_LEFT, HOLDS_RAIN, HOLDS_WILD)}


def leftover_reason(why: str) -> str:
    """The Text of a leftover's reason (``why`` itself if it is none of them)."""
    return _LEFTOVER_REASONS.get(str(why), why)


def combinations_made(captured: Iterable[str]) -> list[Combination]:
    pile = set(captured)
    return [combo for combo in COMBINATIONS if combo.made_by(pile)]


@dataclass(frozen=True)
class HandScore:
    """The scoring of one hand: card points, combinations and the zero-sum scores."""

    card_points: tuple[int, int]
    combos: tuple[tuple[Combination, ...], tuple[Combination, ...]]
    scores: tuple[int, int]

    @property
    def combo_points(self) -> tuple[int, int]:
        a, b = (sum(c.value for c in self.combos[s]) for s in (0, 1))
        return a, b


def score_hand(captures: Sequence[Iterable[str]]) -> HandScore:
    """``score_A = (card_points_A − 115) + combos_A − combos_B`` and ``score_B = −score_A``."""
    piles = [list(captures[0]), list(captures[1])]
    points = (pile_points(piles[0]), pile_points(piles[1]))
    combos = (tuple(combinations_made(piles[0])), tuple(combinations_made(piles[1])))
    combo_a = sum(c.value for c in combos[0])
    combo_b = sum(c.value for c in combos[1])
    score_a = (points[0] - HALF_POINTS) + combo_a - combo_b
    score_b = (points[1] - HALF_POINTS) + combo_b - combo_a
    return HandScore(points, combos, (score_a, score_b))


# ----- matching (pure; shared with the AI) ------------------------------------------------------


def month_count(table: Sequence[str], month: int) -> int:
    """How many cards of ``month`` lie on the table (the wild is not counted as a Willow)."""
    return sum(1 for t in table if t != WILD and MONTH[t] == month)


def wild_targets(table: Sequence[str]) -> list[str]:
    """What the wild may take: any table card except rain cards and months with three there."""
    return sort_mushi(
        t for t in table if t != WILD and t not in RAIN_CARDS and month_count(table, MONTH[t]) != 3
    )


def month_matches(code: str, table: Sequence[str]) -> list[str]:
    """Table cards of the same month as ``code`` (never the wild: no card can pair it)."""
    month = MONTH[code]
    return sort_mushi(t for t in table if t != WILD and MONTH[t] == month)


def capture_choices(code: str, table: Sequence[str]) -> list[tuple[str, ...]]:
    """What a card played from hand may take, one tuple per choice; ``[()]``: it stays.

    One match: take it; two: a choice; three: take all three; the wild: any legal target.
    """
    if code == WILD:
        targets = wild_targets(table)
        return [(t,) for t in targets] if targets else [()]
    matches = month_matches(code, table)
    if len(matches) == 2:
        return [(m,) for m in matches]
    return [tuple(matches)]


def wild_duty_applies(code: str, table: Sequence[str]) -> bool:
    """Whether a flipped ``code`` must take the wild lying on the table.

    A rain card is played normally, and the fourth card of a month with three on the table
    takes its three; both pass the duty on to the next flip.
    """
    if WILD not in table or code == WILD or code in RAIN_CARDS:
        return False
    return month_count(table, MONTH[code]) != 3


def four_of_a_month(cards: Iterable[str], wild_is_willow: bool) -> list[int]:
    """Months of which ``cards`` hold all four."""
    counts = Counter(MONTH[c] for c in cards if wild_is_willow or c != WILD)
    return sorted(m for m, n in counts.items() if n == 4)


def table_four_months(table: Sequence[str]) -> list[int]:
    """Months of which the table holds all four cards (four Willows are three rain + wild)."""
    return four_of_a_month(table, wild_is_willow=True)


def three_rain_on_table(table: Sequence[str]) -> bool:
    return RAIN_CARDS <= set(table)


def hand_four_months(hand: Sequence[str]) -> list[int]:
    """Months of which a hand holds four cards; the wild counts as a Willow here (R)."""
    return four_of_a_month(hand, wild_is_willow=True)


# ----- options and decks ----------------------------------------------------------------------


@dataclass(frozen=True)
class MushiOptions:
    """Table options.

    - ``hands``: hands in a match, 12 (R) or 6.
    - ``elder_takes_table_four``: a table four of a kind is taken by the elder instead of a
      redeal, and three rain cards on the table go to whoever later takes the wild.
    - ``bottom_wild_takes_rain``: the wild as the last stock card captures a rain card.
    - ``four_of_a_kind_cancel``: a player dealt four of one month may cancel the deal.
    """

    hands: int = 12
    elder_takes_table_four: bool = False
    bottom_wild_takes_rain: bool = False
    four_of_a_kind_cancel: bool = True

    def __post_init__(self) -> None:
        if self.hands not in (6, 12):
            raise ValueError(
                Text("A Mushi match is 6 or 12 hands long, not {hands}.", hands=self.hands)
            )


def parse_decks(deck: Any) -> list[tuple[str, ...]]:
    """Accept one deck (codes, or a string of codes) or a list of decks; validate each."""
    return hanafuda.parse_decks(
        deck,
        DECK,
        "A Mushi deck must hold each of the 40 cards (no Peony, no Bush clover) exactly once",
        unknown_word="not in the deck",
    )


# ----- the state -------------------------------------------------------------------------------

PLAY, CHOOSE_FLIP, OVER = "play", "choose_flip", "over"


class MushiState(State):
    """A Mushi match between seats 0 and 1."""

    game = "mushi"

    def __init__(
        self,
        seed: int | str,
        players: Sequence[str],
        options: MushiOptions,
        decks: Sequence[tuple[str, ...]] = (),
    ) -> None:
        if len(players) != 2:
            raise ValueError("Mushi is a game for exactly 2 players.")
        super().__init__(seed, players, asdict(options))
        self.opts = options
        self.total_hands = options.hands
        self._decks = list(decks)
        self.deal_count = 0  # every deal, redeals included (salts the shuffle)
        self.redeals = 0  # redeals of the current hand
        # A stacked deck makes seat 0 the first elder, so tests know who holds what.
        self.elder = 0 if decks else make_rng(seed, "first_elder").randrange(2)
        self.current = self.elder
        self.phase = PLAY
        self.hands: list[list[str]] = [[], []]
        self.table: list[str] = []  # in the order the cards were laid
        self.stock: list[str] = []  # top of the stock last (pop() flips it)
        self.captures: list[list[str]] = [[], []]
        self.set_aside: list[str] = []  # three table rain cards waiting for the wild (option)
        self.wild_holder: int | None = None
        self.flipped: str | None = None  # the flipped card waiting for its target
        self.flip_options: list[str] = []
        self.last_play: HanafudaPlay | None = None
        self.last_flip: HanafudaPlay | None = None
        #: The running hand's plays and flips (public), reset at every deal.
        self.plays: list[MushiMove] = []
        self.match_scores = [0, 0]
        self.history: list[HandRecord] = []
        self.events.extend(self._start_hand())

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A state pickled by older code has no record of the hand's plays: it starts empty
        # (the AI then reads less of the opponent's hand until the next deal).
        state.setdefault("plays", [])
        self.__dict__.update(state)

    # ----- dealing -------------------------------------------------------------------------
    @property
    def younger(self) -> int:
        return 1 - self.elder

    @property
    def hand_no(self) -> int:
        """The 1-based number of the current hand (the last one once the match is over)."""
        return min(len(self.history) + 1, self.total_hands)

    def _start_hand(self) -> list[Event]:
        """Deal until a deal stands (table redeals are settled here; the same elder deals)."""
        events: list[Event] = []
        while True:
            self.deal_count += 1
            deck = next_deck(self._decks, DECK, self.seed, self.deal_count)
            elder = self.elder
            deal = deal_out(deck, elder)
            self.hands, self.table, self.stock = deal.hands, deal.field, deal.stock
            self.captures = [[], []]
            self.set_aside = []
            self.wild_holder = None
            self.flipped, self.flip_options = None, []
            self.last_play = self.last_flip = None
            self.plays = []
            self.current = elder
            self.phase = PLAY
            if self.redeals:
                text = Text(
                    "Hand {hand}/{hands} (redeal): {name} is elder and plays first.",
                    hand=self.hand_no,
                    hands=self.total_hands,
                    name=self.players[elder],
                )
            else:
                text = Text(
                    "Hand {hand}/{hands}: {name} is elder and plays first.",
                    hand=self.hand_no,
                    hands=self.total_hands,
                    name=self.players[elder],
                )
            events.append(
                Event(
                    "deal",
                    text,
                    seat=elder,
                    data={"hand": self.hand_no, "deal": self.deal_count, "table": list(self.table)},
                )
            )
            reason = self._table_redeal_reason()
            if reason:
                self.redeals += 1
                events.append(
                    Event(
                        "redeal",
                        Text(
                            "The hand is thrown in: {reason}. {name} deals again.",
                            reason=reason,
                            name=self.players[elder],
                        ),
                        data={"deal": self.deal_count, "reason": reason},
                    )
                )
                continue
            if self.opts.elder_takes_table_four:
                events.extend(self._elder_takes_table())
            return events

    def _table_redeal_reason(self) -> str | None:
        if self.opts.elder_takes_table_four:
            return None
        months = table_four_months(self.table)
        if months:
            return Text("four {plant} cards on the table", plant=MONTH_PLANTS[months[0]])
        if three_rain_on_table(self.table):
            return Text("all three rain cards on the table")
        return None

    def _elder_takes_table(self) -> list[Event]:
        """Option: the elder takes a table four; three table rain cards wait for the wild."""
        events: list[Event] = []
        elder = self.elder
        for month in table_four_months(self.table):
            four = sort_mushi(t for t in self.table if MONTH[t] == month)  # the wild is a Willow
            for t in four:
                self.table.remove(t)
            self._capture(elder, four)
            events.append(
                Event(
                    "table_four",
                    Text(
                        "{name} (elder) takes the four {plant} cards on the table.",
                        name=self.players[elder],
                        plant=MONTH_PLANTS[month],
                    ),
                    seat=elder,
                    data={"cards": four},
                )
            )
        if three_rain_on_table(self.table):
            rain = sort_mushi(RAIN_CARDS)
            for t in rain:
                self.table.remove(t)
            self.set_aside = rain
            events.append(
                Event(
                    "rain_aside",
                    Text(
                        "The three rain cards on the table are set aside for whoever takes the"
                        " wild."
                    ),
                    data={"cards": rain},
                )
            )
        return events

    # ----- captures --------------------------------------------------------------------------
    def _capture(self, seat: int, cards: Sequence[str]) -> list[Event]:
        """Put ``cards`` in ``seat``'s pile; whoever takes the wild also gets set-aside rain."""
        self.captures[seat].extend(cards)
        if WILD in cards:
            self.wild_holder = seat
            if self.set_aside:
                rain, self.set_aside = self.set_aside, []
                self.captures[seat].extend(rain)
                return [
                    Event(
                        "rain_aside",
                        Text(
                            "{name} took the wild and gets the three set-aside rain cards:"
                            " {cards}.",
                            name=self.players[seat],
                            cards=cards_text(rain),
                        ),
                        seat=seat,
                        data={"cards": rain},
                    )
                ]
        return []

    def _lay(self, seat: int, code: str, took: Sequence[str]) -> list[Event]:
        """``code`` (already out of hand or stock) takes ``took`` or, with nothing, stays."""
        if not took:
            self.table.append(code)
            return []
        for t in took:
            self.table.remove(t)
        return self._capture(seat, [code, *took])

    # ----- the contract ----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return len(self.history) >= self.total_hands

    @property
    def scores(self) -> list[int]:
        return list(self.match_scores)

    def result(self) -> Result:
        return Result.free_for_all(self.match_scores)

    @property
    def to_act(self) -> list[int]:
        if self.is_over:
            return []
        return [self.current]

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act:
            return []
        if self.phase == CHOOSE_FLIP:
            return [f"take {t}" for t in self.flip_options]
        out: list[str] = []
        for c in sort_mushi(self.hands[seat]):
            choices = capture_choices(c, self.table)
            if len(choices) > 1:
                out.extend(f"play {c} {took[0]}" for took in choices)
            else:
                out.append(f"play {c}")
        if self.cancel_months(seat):
            out.append("cancel")
        return out

    def cancel_months(self, seat: int) -> list[int]:
        """Months of which ``seat`` was dealt four, while it may still cancel the deal.

        Rule 5: the declaration is offered on the player's first turn, before they play a
        card (playing one keeps the deal), so the opponent learns of a four only if it is
        shown: asking at the deal would tell them who holds one.
        """
        if (
            not self.opts.four_of_a_kind_cancel
            or self.is_over
            or self.phase != PLAY
            or seat != self.current
            or len(self.hands[seat]) != HAND_SIZE
        ):
            return []
        return hand_four_months(self.hands[seat])

    def normalize(self, seat: int, code: str) -> str:
        code = " ".join(str(code).lower().split())
        words = code.split()
        # "play <card> <its only target>" is accepted as "play <card>".
        if (
            len(words) == 3
            and words[0] == "play"
            and seat in self.to_act
            and self.phase == PLAY
            and words[1] in self.hands[seat]
        ):
            choices = capture_choices(words[1], self.table)
            if len(choices) == 1 and words[2] in choices[0]:
                return f"play {words[1]}"
        return code

    def _apply(self, seat: int, code: str) -> list[Event]:
        verb, *args = code.split()
        if verb == "cancel":
            return self._cancel(seat)
        if verb == "play":
            return self._play(seat, args[0], args[1] if len(args) > 1 else None)
        return self._take_flip(seat, args[0])

    # ----- four of a kind in hand ---------------------------------------------------------------
    def _cancel(self, seat: int) -> list[Event]:
        months = hand_four_months(self.hands[seat])
        what = chain_and([MONTH_PLANTS[m] for m in months])
        shown = sort_mushi(c for c in self.hands[seat] if MONTH[c] in months)
        self.redeals += 1
        events = [
            Event(
                "cancel",
                Text(
                    "{name} shows four {plants} cards and cancels the deal. {elder} deals again.",
                    name=self.players[seat],
                    plants=what,
                    elder=self.players[self.elder],
                ),
                seat=seat,
                data={"months": months, "cards": shown},
            )
        ]
        return events + self._start_hand()

    # ----- a turn ---------------------------------------------------------------------------
    def _play(self, seat: int, code: str, target: str | None) -> list[Event]:
        choices = capture_choices(code, self.table)
        if len(choices) == 1:
            took = list(choices[0])
        else:
            assert target is not None  # (a choice: the move, checked legal, names it)
            took = [target]
        self.hands[seat].remove(code)
        events = [self._play_event(seat, code, took)]
        events.extend(self._lay(seat, code, took))
        self.last_play = {"seat": seat, "card": code, "took": list(took)}
        self.last_flip = None
        self.plays.append({"kind": "play", "seat": seat, "card": code, "took": list(took)})
        return events + self._flip(seat)

    def _play_event(self, seat: int, code: str, took: Sequence[str]) -> Event:
        name, played = self.players[seat], card_text(code)
        if took:
            text = Text(
                "{name} plays {card} and takes {cards}",
                name=name,
                card=played,
                cards=cards_text(took),
            )
        elif code == WILD:
            text = Text(
                "{name} plays {card}: it has no legal target and stays on the table — the next"
                " flip must take it",
                name=name,
                card=played,
            )
        else:
            text = Text(
                "{name} plays {card} — no match, it stays on the table", name=name, card=played
            )
        return Event("play", text, seat=seat, data={"card": code, "took": list(took)})

    def _flip(self, seat: int) -> list[Event]:
        flip = self.stock.pop()
        last = not self.stock
        if flip == WILD and last:
            return self._bottom_wild(seat)
        if flip == WILD:
            targets = wild_targets(self.table)
            if len(targets) > 1:
                return self._ask_flip(seat, flip, targets, Text("which card does the wild take?"))
            took = targets
        elif wild_duty_applies(flip, self.table):
            took = [WILD]
        else:
            choices = capture_choices(flip, self.table)
            if len(choices) > 1:
                return self._ask_flip(
                    seat, flip, [c[0] for c in choices], Text("which one does it take?")
                )
            took = list(choices[0])
        return self._resolve_flip(seat, flip, took)

    def _ask_flip(self, seat: int, flip: str, options: list[str], question: str) -> list[Event]:
        self.phase = CHOOSE_FLIP
        self.flipped, self.flip_options = flip, options
        self.last_flip = {"seat": seat, "card": flip, "took": []}
        return [
            Event(
                "flip",
                Text(
                    "{name} flips {card}: it may take {choices} — {question}",
                    name=self.players[seat],
                    card=card_text(flip),
                    choices=choices_text(options),
                    question=question,
                ),
                seat=seat,
                data={"card": flip, "options": list(options)},
            )
        ]

    def _resolve_flip(self, seat: int, flip: str, took: Sequence[str]) -> list[Event]:
        duty_before = WILD in self.table
        name, flipped = self.players[seat], card_text(flip)
        if took == [WILD]:
            text = Text(
                "{name} flips {card} and must take the wild on the table", card=flipped, name=name
            )
        elif took:
            text = Text(
                "{name} flips {card} and takes {cards}",
                name=name,
                card=flipped,
                cards=cards_text(took),
            )
        elif flip == WILD:
            text = Text(
                "{name} flips {card}: it has no legal target and stays on the table",
                name=name,
                card=flipped,
            )
        else:
            text = Text(
                "{name} flips {card} — no match, it stays on the table", name=name, card=flipped
            )
        if duty_before and WILD not in took and flip != WILD:
            text = Text("{event}; the next flip must take the wild", event=text)
        events = [Event("flip", text, seat=seat, data={"card": flip, "took": list(took)})]
        events.extend(self._lay(seat, flip, took))
        self.last_flip = {"seat": seat, "card": flip, "took": list(took)}
        self.plays.append({"kind": "flip", "seat": seat, "card": flip, "took": list(took)})
        return events + self._end_turn()

    def _bottom_wild(self, seat: int) -> list[Event]:
        """The last stock card is the wild: the younger keeps it (option: it takes a rain)."""
        rain = sort_mushi(t for t in self.table if t in RAIN_CARDS)
        if self.opts.bottom_wild_takes_rain and rain:
            if len(rain) > 1:
                return self._ask_flip(seat, WILD, rain, Text("which rain card does it take?"))
            return self._resolve_flip(seat, WILD, rain)
        self.last_flip = {"seat": seat, "card": WILD, "took": []}
        self.plays.append({"kind": "flip", "seat": seat, "card": WILD, "took": []})
        events = [
            Event(
                "flip",
                Text(
                    "{name} flips {card} as the last card and keeps it.",
                    name=self.players[seat],
                    card=card_text(WILD),
                ),
                seat=seat,
                data={"card": WILD, "took": [], "kept": True},
            )
        ]
        events.extend(self._capture(seat, [WILD]))
        return events + self._end_turn()

    def _take_flip(self, seat: int, target: str) -> list[Event]:
        flip = self.flipped
        assert flip is not None
        self.flipped, self.flip_options = None, []
        self.phase = PLAY
        return self._resolve_flip(seat, flip, [target])

    def _end_turn(self) -> list[Event]:
        self.phase = PLAY
        if not self.stock and not self.hands[0] and not self.hands[1]:
            return self._end_hand()
        self.current = 1 - self.current
        return []

    # ----- the end of a hand -------------------------------------------------------------------
    def _end_hand(self) -> list[Event]:
        events: list[Event] = []
        leftovers: list[Leftover] = []
        younger = self.younger
        if WILD in self.table:
            # R: the wild still on the table when the stock is gone goes to the younger.
            self.table.remove(WILD)
            events.append(
                Event(
                    "leftover",
                    Text(
                        "The wild is still on the table: {name} (younger) takes it.",
                        name=self.players[younger],
                    ),
                    seat=younger,
                    data={"card": WILD},
                )
            )
            events.extend(self._capture(younger, [WILD]))
            leftovers.append({"card": WILD, "seat": younger, "why": WILD_LEFT})
        holder = self.wild_holder if self.wild_holder is not None else younger
        for t in sort_mushi(self.table):
            if t in RAIN_CARDS:
                rain_held = [sum(1 for c in self.captures[s] if c in RAIN_CARDS) for s in (0, 1)]
                to = holder if rain_held[0] == rain_held[1] else rain_held.index(max(rain_held))
                why = HOLDS_RAIN
            else:
                to, why = holder, HOLDS_WILD
            events.append(
                Event(
                    "leftover",
                    Text(
                        "{card} is left on the table: it goes to {name}, who holds {why}.",
                        card=card_text(t, start=True),
                        name=self.players[to],
                        why=why,
                    ),
                    seat=to,
                    data={"card": t},
                )
            )
            self._capture(to, [t])
            leftovers.append({"card": t, "seat": to, "why": why})
        self.table = []
        events.extend(self._score_hand(leftovers))
        if not self.is_over:
            self.redeals = 0
            events.extend(self._start_hand())
        return events

    def _score_hand(self, leftovers: list[Leftover]) -> list[Event]:
        hand_no = len(self.history) + 1
        score = score_hand(self.captures)
        for s in (0, 1):
            self.match_scores[s] += score.scores[s]
        elder = self.elder
        a, b = score.scores
        next_elder = elder if a == b else (0 if a > b else 1)  # R: on 0–0 the elder stays
        names = self.players
        parts = []
        for s in (0, 1):
            part = Text("{name} {points} card points", name=names[s], points=score.card_points[s])
            for c in score.combos[s]:
                part = Text(
                    "{points} + {combination} {value}",
                    points=part,
                    combination=c.name,
                    value=c.value,
                )
            parts.append(part)
        reason = Text("{first}; {second}", context="mushi", first=parts[0], second=parts[1])
        entry: HandRecord = {
            "hand": hand_no,
            "elder": elder,
            "card_points": list(score.card_points),
            "combos": [
                [{"name": c.name, "value": c.value} for c in score.combos[s]] for s in (0, 1)
            ],
            "combo_points": list(score.combo_points),
            "scores": list(score.scores),
            "totals": list(self.match_scores),
            "captures": [group_by_class(self.captures[s]) for s in (0, 1)],
            "leftovers": leftovers,
            "next_elder": next_elder,
            "reason": reason,
        }
        self.history.append(entry)
        self.elder = next_elder
        self.current = next_elder
        text = Text(
            "Hand {hand}: {reason} → {first} {first_score}, {second} {second_score}"
            " (totals {first} {first_total}, {second} {second_total}).",
            hand=hand_no,
            reason=reason,
            first=names[0],
            first_score=f"{a:+d}",
            second=names[1],
            second_score=f"{b:+d}",
            first_total=self.match_scores[0],
            second_total=self.match_scores[1],
        )
        events = [Event("deal_end", text, data=entry)]
        if self.is_over:
            self.phase = OVER
            events.append(Event("match_end", self._match_end_text()))
        return events

    def _match_end_text(self) -> str:
        a, b = self.match_scores
        if a == b:
            return Text("The match ends in a tie, {a} to {b}.", a=a, b=b)
        w = 0 if a > b else 1
        return Text(
            "The match is over: {name} wins with {won} against {lost}.",
            name=self.players[w],
            won=f"{self.match_scores[w]:+d}",
            lost=f"{self.match_scores[1 - w]:+d}",
        )

    # ----- timeouts, labels, explanations -----------------------------------------------------
    def default_action(self, seat: int) -> str:
        """Timeout: keep the deal; take the most points; else lay the least valuable card."""
        legal = [c for c in self.legal_actions(seat) if c != "cancel"]
        if not legal:
            raise IllegalAction(
                Text(
                    "There is nothing to decide for this seat now.",
                    context="hanafuda",
                )
            )
        if self.phase == CHOOSE_FLIP:
            return max(legal, key=lambda c: (card_points(c.split()[1]), -legal.index(c)))

        def worth(code: str) -> tuple[int, int, int]:
            words = code.split()
            took = list(capture_choices(words[1], self.table)[0]) if len(words) == 2 else words[2:]
            gain = pile_points([words[1], *took]) if took else -card_points(words[1])
            return gain, -legal.index(code), 0

        return max(legal, key=worth)

    def describe(self, code: str) -> str:
        return describe(code)

    def explain_illegal(self, seat: int, code: str) -> str:
        return self._why_illegal(seat, code)

    def _why_illegal(self, seat: int, code: str) -> str:
        verb, *args = code.split() or [""]
        if self.phase == CHOOSE_FLIP:
            assert self.flipped is not None
            return explain_flip_choice(
                card_text(self.flipped),
                self.flip_options,
                choices_text(self.flip_options),
                tried_take=verb == "take" and bool(args),
            )
        if verb == "cancel":
            if not self.opts.four_of_a_kind_cancel:
                return Text("This table does not let a four of a kind in hand cancel the deal.")
            return Text(
                "Only a player dealt four cards of one month may cancel the deal, on their"
                " first turn before playing a card."
            )
        if verb != "play":
            return Text("Play a card from your hand, e.g. `play 1b`.")
        if not args:
            return Text("Say which card to play, e.g. `play 1b`.")
        c = args[0]
        if c not in _DECK_ORDER:
            return Text("`{code}` is not a Mushi card.", code=c)
        played = card_text(c, start=True)
        if c not in self.hands[seat]:
            return Text("{card} is not in your hand.", card=played)
        choices = capture_choices(c, self.table)
        targets = [t for took in choices for t in took]
        if len(args) > 2:
            return Text("Name the card to play and at most one target.")
        if len(args) == 2 and args[1] not in _DECK_ORDER:
            return Text("`{code}` is not a Mushi card.", code=args[1])
        if len(args) == 2 and args[1] == WILD != c:
            return Text("The wild on the table cannot be taken by a card from a hand.")
        if len(args) == 2 and c == WILD and args[1] in RAIN_CARDS:
            return Text("The wild cannot take a rain card.")
        if len(choices) > 1:
            example = f"play {c} {targets[0]}"
            if len(args) == 1:
                return Text(
                    "{card} may take {choices}: choose one, e.g. `{example}`.",
                    card=played,
                    choices=choices_text(targets),
                    example=example,
                )
            if c == WILD:
                return Text(
                    "The wild cannot take {card}: it may take {choices} (never a rain card nor"
                    " a month with three on the table).",
                    card=card_text(args[1]),
                    choices=choices_text(targets),
                )
            return Text(
                "{card} can only take {choices}.", card=played, choices=choices_text(targets)
            )
        if len(args) == 2:
            if not targets:
                return Text(
                    "{card} takes nothing here: play it as `{example}`.",
                    card=played,
                    example=f"play {c}",
                )
            return Text(
                "{card} takes {cards} by itself: play it as `{example}`.",
                card=played,
                cards=cards_text(targets),
                example=f"play {c}",
            )
        return Text("`{code}` is not a legal move now.", context="hanafuda", code=code)

    # ----- the view ---------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> MushiView:
        common = self._common(seat)  # (first: it refuses a seat not at the table)
        return {**self._view(seat), **common}

    def _view(self, seat: int | None) -> MushiPart:
        over = self.is_over
        pending: FlipChoice | None = None
        if not over and self.phase == CHOOSE_FLIP:
            assert self.flipped is not None
            pending = {
                "kind": "flip",
                "seat": self.current,
                "card": self.flipped,
                "options": list(self.flip_options),
            }
        # Between hands the next deal is already out, so these are the running hand's figures
        # (the finished hand's are in history); once the match is over, the last hand's.
        score = score_hand(self.captures)
        combos: list[list[Combo]] = [
            [{"name": c.name, "value": c.value} for c in score.combos[s]] for s in (0, 1)
        ]
        return {
            "deal": self.hand_no,
            "deals": self.total_hands,
            "deal_count": self.deal_count,
            "redeals": self.redeals,
            "elder": self.elder,
            "younger": self.younger,
            "turn": None if over else self.to_act[0],
            "table": list(self.table),
            "stock_count": len(self.stock),
            "hand": sort_mushi(self.hands[seat]) if seat in (0, 1) else None,
            "hand_counts": [len(h) for h in self.hands],
            "captures": [group_by_class(self.captures[s]) for s in (0, 1)],
            "card_points": list(score.card_points),
            "combos": combos,
            "wild_duty": WILD in self.table,
            "wild_holder": self.wild_holder,
            "set_aside": list(self.set_aside),
            "phase": OVER if over else self.phase,
            "pending": pending,
            "last_play": _copy_play(self.last_play),
            "last_flip": _copy_play(self.last_flip),
            "plays": [{**m, "took": list(m["took"])} for m in self.plays],
            "history": [_copy_entry(h) for h in self.history],
            "options": {
                "hands": self.opts.hands,
                "elder_takes_table_four": self.opts.elder_takes_table_four,
                "bottom_wild_takes_rain": self.opts.bottom_wild_takes_rain,
                "four_of_a_kind_cancel": self.opts.four_of_a_kind_cancel,
            },
            # Only the seat itself learns that it may cancel (rule 5): the four stays secret.
            "cancel_months": self.cancel_months(seat) if seat in (0, 1) else [],
        }


def _copy_entry(entry: HandRecord) -> HandRecord:
    return {
        **entry,
        "combos": [[{**c} for c in cs] for cs in entry["combos"]],
        "captures": [{k: list(v) for k, v in g.items()} for g in entry["captures"]],
        "leftovers": [{**x} for x in entry["leftovers"]],
        "card_points": list(entry["card_points"]),
        "combo_points": list(entry["combo_points"]),
        "scores": list(entry["scores"]),
        "totals": list(entry["totals"]),
    }


# ----- module-level helpers (exported by the package) --------------------------------------

_VERB_LABELS = {"cancel": Text("Show the four and cancel the deal")}


def describe(code: str) -> str:
    """A short button label for an action code."""
    return describe_action(code, card_label, _VERB_LABELS)


def progress(view: Mapping[str, Any]) -> str:
    """The status line's progress: ``hand 2/12``."""
    if not view.get("deal"):
        return ""
    return Text("hand {hand}/{hands}", hand=view["deal"], hands=view.get("deals", 12))


def new_game(
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | MushiOptions | None = None,
    deck: Any = None,
) -> MushiState:
    opts = options if isinstance(options, MushiOptions) else parse_options(MushiOptions, options)
    return MushiState(seed, players, opts, parse_decks(deck))
