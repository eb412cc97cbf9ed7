"""Koi-Koi rules: yaku scoring and the match state machine (pure; see docs/rules/koikoi.md).

A match is one :class:`KoiKoiState`: deals follow each other automatically inside
``apply`` (void deals, instant wins by teshi/kuttsuki, stops and draws), so the only
decisions left to players are the ones the action grammar names (see the package
docstring).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from bot.engine.core import Event, IllegalAction, Result, State, parse_options
from bot.engine.rng import make_rng
from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BLUE_RIBBONS,
    BRIGHT,
    MONTH_PLANTS,
    PLAIN,
    RED_POETRY_RIBBONS,
    RIBBON,
    card,
    sort_cards,
)
from bot.games.hanafuda.deal import (
    card_label,
    card_text,
    chain_plus,
    deal_out,
    describe_action,
    explain_flip_choice,
    join_and,
    join_or,
    next_deck,
)
from bot.games.hanafuda.deal import parse_decks as parse_hanafuda_decks
from bot.games.hanafuda.views import HanafudaPlay
from bot.games.hanafuda.views import copy_play as _copy_play
from bot.games.koikoi.views import (
    FlipChoice,
    KoiKoiDecision,
    KoiKoiPart,
    KoiKoiView,
    RoundRecord,
)
from bot.i18n import Text, ntext

log = logging.getLogger(__name__)

INSTANT_WIN_POINTS = 6
RAIN_MAN = "11b"
SAKE_CUP = "9a"
INO_SHIKA_CHO = frozenset({"7a", "10a", "6a"})

MONTH: dict[str, int] = {c: card(c).month for c in ALL_CARDS}
CLASS: dict[str, str] = {c: card(c).cls for c in ALL_CARDS}


@dataclass(frozen=True)
class KoiKoiOptions:
    """Table options. ``rounds``: how many rounds make a match (6, or 12 for a long game)."""

    rounds: int = 6

    def __post_init__(self) -> None:
        if self.rounds not in (6, 12):
            raise ValueError(
                Text("A Koi-Koi match is 6 or 12 rounds long, not {rounds}.", rounds=self.rounds)
            )


# ----- card names --------------------------------------------------------------------------


def _cards_text(codes: Sequence[str]) -> str:
    return join_and([card_text(c) for c in codes])


# ----- yaku ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pile:
    """What the yaku rules look at in a capture pile."""

    codes: frozenset[str]
    brights: int  # all brights, the Rain Man included
    animals: int
    ribbons: int
    plains: int  # the Sake cup counts here too (it is an animal and a plain at once)

    @classmethod
    def of(cls, codes: Iterable[str]) -> Pile:
        codes = frozenset(codes)
        counts = Counter(CLASS[c] for c in codes)
        return cls(
            codes=codes,
            brights=counts[BRIGHT],
            animals=counts[ANIMAL],
            ribbons=counts[RIBBON],
            plains=counts[PLAIN] + (SAKE_CUP in codes),
        )

    @property
    def rain_man(self) -> bool:
        return RAIN_MAN in self.codes


class Yaku:
    """One scoring combination: its ``name`` and ``points(pile)`` (0 when not made).

    Yaku of the same ``group`` do not stack: only the highest of the group counts.
    """

    name: ClassVar[Text]
    group: ClassVar[str | None] = None

    def points(self, pile: Pile) -> int:
        raise NotImplementedError


class Kasu(Yaku):
    """10 plains: 1 point, +1 per extra plain."""

    name = Text("Kasu")

    def points(self, pile: Pile) -> int:
        return max(0, pile.plains - 9)


class Tanzaku(Yaku):
    """5 ribbons: 1 point, +1 per extra ribbon."""

    name = Text("Tanzaku")

    def points(self, pile: Pile) -> int:
        return max(0, pile.ribbons - 4)


class Tane(Yaku):
    """5 animals: 1 point, +1 per extra animal."""

    name = Text("Tane")

    def points(self, pile: Pile) -> int:
        return max(0, pile.animals - 4)


class InoShikaCho(Yaku):
    """Boar, Deer and Butterflies: 5 points."""

    name = Text("Ino-Shika-Chō")

    def points(self, pile: Pile) -> int:
        return 5 if INO_SHIKA_CHO <= pile.codes else 0


class Akatan(Yaku):
    """The three red poetry ribbons: 6 points."""

    name = Text("Akatan")

    def points(self, pile: Pile) -> int:
        return 6 if RED_POETRY_RIBBONS <= pile.codes else 0


class Aotan(Yaku):
    """The three blue ribbons: 6 points."""

    name = Text("Aotan")

    def points(self, pile: Pile) -> int:
        return 6 if BLUE_RIBBONS <= pile.codes else 0


class Sanko(Yaku):
    """Three brights, not counting the Rain Man: 6 points."""

    name = Text("Sankō")
    group = "brights"

    def points(self, pile: Pile) -> int:
        return 6 if pile.brights - pile.rain_man >= 3 else 0


class AmeShiko(Yaku):
    """Four brights including the Rain Man: 8 points."""

    name = Text("Ame-Shikō")
    group = "brights"

    def points(self, pile: Pile) -> int:
        return 8 if pile.rain_man and pile.brights >= 4 else 0


class Shiko(Yaku):
    """Four brights without the Rain Man: 10 points."""

    name = Text("Shikō")
    group = "brights"

    def points(self, pile: Pile) -> int:
        return 10 if pile.brights - pile.rain_man >= 4 else 0


class Goko(Yaku):
    """All five brights: 15 points."""

    name = Text("Gokō")
    group = "brights"

    def points(self, pile: Pile) -> int:
        return 15 if pile.brights == 5 else 0


#: Every yaku, in the order of the spec's table (and of score listings).
YAKU: tuple[Yaku, ...] = (
    Kasu(),
    Tanzaku(),
    Tane(),
    InoShikaCho(),
    Akatan(),
    Aotan(),
    Sanko(),
    AmeShiko(),
    Shiko(),
    Goko(),
)

#: The instant wins' titles (they stand where yaku do in a round's history).
TESHI, KUTTSUKI = Text("Teshi"), Text("Kuttsuki")
#: Every name a round's yaku list may hold, by its English: a view read back from JSON (or
#: written by hand) holds plain strings, which renderers turn back into Texts with this.
YAKU_NAMES: dict[str, Text] = {str(y.name): y.name for y in YAKU} | {
    str(TESHI): TESHI,
    str(KUTTSUKI): KUTTSUKI,
}


def yaku_name(name: str) -> str:
    """The Text of a yaku's name (``name`` itself if it is none of them)."""
    return YAKU_NAMES.get(str(name), name)


def score_yaku(captures: Iterable[str]) -> list[tuple[str, int]]:
    """The yaku a capture pile makes, as ``[(name, points), ...]`` in table order."""
    pile = Pile.of(captures)
    made: list[tuple[str, int]] = []
    best_of_group: dict[str, int] = {}  # group -> index into made
    for yaku in YAKU:
        pts = yaku.points(pile)
        if not pts:
            continue
        if yaku.group is None:
            made.append((yaku.name, pts))
        elif yaku.group not in best_of_group:
            best_of_group[yaku.group] = len(made)
            made.append((yaku.name, pts))
        elif pts > made[best_of_group[yaku.group]][1]:
            made[best_of_group[yaku.group]] = (yaku.name, pts)
    return made


def yaku_total(captures: Iterable[str]) -> int:
    return sum(p for _, p in score_yaku(captures))


def yaku_points_text(name: str, points: int) -> Text:
    """``Tane 1``: a yaku and its points."""
    return Text("{name} {points}", context="hanafuda", name=name, points=points)


def yaku_text(yaku: Sequence[tuple[str, int]]) -> str:
    """``Tane 1 + Akatan 6 = 7 points``."""
    total = sum(p for _, p in yaku)
    parts = chain_plus([yaku_points_text(name, pts) for name, pts in yaku])
    return ntext("{yaku} = {n} point", "{yaku} = {n} points", total, yaku=parts)


# ----- deal checks ---------------------------------------------------------------------------


def four_of_a_month(cards: Sequence[str]) -> int | None:
    """The month of which ``cards`` hold all four, if any."""
    for month, n in Counter(MONTH[c] for c in cards).items():
        if n == 4:
            return month
    return None


def four_pairs(cards: Sequence[str]) -> bool:
    """Eight cards that are exactly four pairs of months."""
    counts = Counter(MONTH[c] for c in cards)
    return len(cards) == 8 and len(counts) == 4 and all(n == 2 for n in counts.values())


def instant_win(hand: Sequence[str]) -> tuple[str, str] | None:
    """``("teshi", "four Pine cards")`` / ``("kuttsuki", "four pairs")`` or None."""
    month = four_of_a_month(hand)
    if month is not None:
        return "teshi", Text("four {plant} cards", plant=MONTH_PLANTS[month])
    if four_pairs(hand):
        return "kuttsuki", Text("four pairs")
    return None


def parse_decks(deck: Any) -> list[tuple[str, ...]]:
    """Accept one deck (codes, or a string of codes) or a list of decks; validate each."""
    return parse_hanafuda_decks(
        deck, ALL_CARDS, "A Koi-Koi deck must hold each of the 48 cards exactly once"
    )


# ----- the state -----------------------------------------------------------------------------

PLAY, CHOOSE_FLIP, DECIDE, OVER = "play", "choose_flip", "decide", "over"
KOIKOI_ALIASES = {"koi-koi": "koikoi", "koi koi": "koikoi"}


class KoiKoiState(State):
    """A Koi-Koi match between seats 0 and 1."""

    game = "koikoi"

    def __init__(
        self,
        seed: int | str,
        players: Sequence[str],
        options: KoiKoiOptions,
        decks: Sequence[tuple[str, ...]] = (),
    ) -> None:
        if len(players) != 2:
            raise ValueError("Koi-Koi is a game for exactly 2 players.")
        super().__init__(seed, players, asdict(options))
        self.rounds = options.rounds
        self._decks = list(decks)
        self.deal_count = 0
        self.void_deals = 0
        # A stacked deck makes seat 0 the first dealer, so tests know who holds what.
        self._next_dealer = 0 if decks else make_rng(seed, "first_dealer").randrange(2)
        self.dealer = self._next_dealer
        self.current = self.dealer
        self.phase = PLAY
        self.hands: list[list[str]] = [[], []]
        self.board: list[str] = []
        self.stack: list[str] = []  # top of the stack last (pop() flips it)
        self.captures: list[list[str]] = [[], []]
        self.yaku_points = [0, 0]
        self.koikoi = [False, False]
        self.match_scores = [0, 0]
        self.history: list[RoundRecord] = []
        self.turn_start_points = 0
        self.flipped: str | None = None  # the flipped card waiting for its target
        self.flip_options: list[str] = []
        self.last_play: HanafudaPlay | None = None
        self.last_flip: HanafudaPlay | None = None
        #: This round's plays and flips, in order (public: see ``KoiKoiPart.plays``).
        self.plays: list[HanafudaPlay] = []
        self.events.extend(self._start_round())

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A state pickled by older code has no record of the round's plays: it starts with
        # the last turn's play and flip (what that code kept), a play first, as always.
        self.__dict__.update(state)
        if "plays" not in state:
            plays = [self.last_play] if self.last_play else []
            if plays and self.last_flip and self.phase != CHOOSE_FLIP:
                plays.append(self.last_flip)
            self.plays = [{**p, "took": list(p["took"])} for p in plays]

    # ----- dealing -------------------------------------------------------------------------
    def _start_round(self) -> list[Event]:
        """Deal until a deal stands (void deals and instant wins are settled here)."""
        events: list[Event] = []
        while not self.is_over:
            self.deal_count += 1
            deck = next_deck(self._decks, ALL_CARDS, self.seed, self.deal_count)
            self.dealer = self._next_dealer
            second = 1 - self.dealer
            deal = deal_out(deck, self.dealer)
            self.hands, self.board, self.stack = deal.hands, deal.field, deal.stock
            self.captures = [[], []]
            self.yaku_points = [0, 0]
            self.koikoi = [False, False]
            self.flipped, self.flip_options = None, []
            self.last_play = self.last_flip = None
            self.plays = []
            self.current = self.dealer
            self.turn_start_points = 0
            self.phase = PLAY
            round_no = len(self.history) + 1
            dealer_name = self.players[self.dealer]
            events.append(
                Event(
                    "deal",
                    Text("Round {round}: {name} deals.", round=round_no, name=dealer_name),
                    seat=self.dealer,
                    data={"round": round_no, "deal": self.deal_count, "board": list(self.board)},
                )
            )
            void = self._void_reason()
            if void:
                self.void_deals += 1
                self._next_dealer = second
                events.append(
                    Event(
                        "void",
                        Text(
                            "Deal void: {reason}; redeal ({name} deals).",
                            reason=void,
                            name=self.players[second],
                        ),
                        data={"deal": self.deal_count},
                    )
                )
                continue
            wins = [instant_win(self.hands[s]) for s in (0, 1)]
            found = next(((s, w) for s in (0, 1) if (w := wins[s]) is not None), None)
            if found is not None:
                winner, (kind, what) = found
                name = self.players[winner]
                if kind == "teshi":
                    text = Text(
                        "{name} holds teshi ({what}) and wins {points} points.",
                        name=name,
                        what=what,
                        points=INSTANT_WIN_POINTS,
                    )
                else:
                    text = Text(
                        "{name} holds kuttsuki ({what}) and wins {points} points.",
                        name=name,
                        what=what,
                        points=INSTANT_WIN_POINTS,
                    )
                events.append(Event(kind, text, seat=winner))
                title = TESHI if kind == "teshi" else KUTTSUKI
                events.extend(
                    self._end_round(winner, INSTANT_WIN_POINTS, kind, [(title, INSTANT_WIN_POINTS)])
                )
                continue
            return events
        return events

    def _void_reason(self) -> str | None:
        month = four_of_a_month(self.board)
        if month is not None:
            return Text("four {plant} cards on the board", plant=MONTH_PLANTS[month])
        if four_pairs(self.board):
            return Text("four pairs on the board")
        if instant_win(self.hands[0]) and instant_win(self.hands[1]):
            return Text("both players hold an instant win (teshi or kuttsuki)")
        return None

    # ----- round end -------------------------------------------------------------------------
    def _end_round(
        self, winner: int | None, points: int, reason: str, yaku: Sequence[tuple[str, int]]
    ) -> list[Event]:
        round_no = len(self.history) + 1
        self.history.append(
            {
                "round": round_no,
                "dealer": self.dealer,
                "winner": winner,
                "points": points,
                "reason": reason,
                "yaku": [{"name": n, "points": p} for n, p in yaku],
            }
        )
        if winner is None:
            self._next_dealer = 1 - self.dealer
            text = Text(
                "Round {round} is a draw; {name} deals next.",
                round=round_no,
                name=self.players[self._next_dealer],
            )
        else:
            self.match_scores[winner] += points
            self._next_dealer = winner
            text = ntext(
                "Round {round}: {name} scores {points} point ({first} {first_total},"
                " {second} {second_total}).",
                "Round {round}: {name} scores {points} points ({first} {first_total},"
                " {second} {second_total}).",
                points,
                round=round_no,
                name=self.players[winner],
                points=points,
                first=self.players[0],
                first_total=self.match_scores[0],
                second=self.players[1],
                second_total=self.match_scores[1],
            )
        events = [Event("deal_end", text, seat=winner, data=dict(self.history[-1]))]
        if len(self.history) >= self.rounds:
            self.phase = OVER
            events.append(Event("match_end", self._match_end_text()))
        return events

    def _match_end_text(self) -> str:
        a, b = self.match_scores
        if a == b:
            return Text("The match ends in a tie, {a}–{b}.", a=a, b=b)
        w = 0 if a > b else 1
        return Text(
            "The match is over: {name} wins {won}–{lost}.",
            name=self.players[w],
            won=self.match_scores[w],
            lost=self.match_scores[1 - w],
        )

    # ----- the contract ----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return len(self.history) >= self.rounds

    @property
    def scores(self) -> list[int]:
        return list(self.match_scores)

    def result(self) -> Result:
        return Result.free_for_all(self.match_scores)

    @property
    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.current]

    def _matches(self, code: str) -> list[str]:
        month = MONTH[code]
        return [b for b in self.board if MONTH[b] == month]

    def legal_actions(self, seat: int) -> list[str]:
        if self.is_over or seat != self.current:
            return []
        if self.phase == PLAY:
            out: list[str] = []
            for c in sort_cards(self.hands[seat]):
                targets = self._matches(c)
                if len(targets) == 2:
                    out.extend(f"play {c} {t}" for t in sort_cards(targets))
                else:
                    out.append(f"play {c}")
            return out
        if self.phase == CHOOSE_FLIP:
            return [f"take {t}" for t in self.flip_options]
        return ["koikoi", "stop"]

    def normalize(self, seat: int, code: str) -> str:
        code = " ".join(str(code).lower().split())
        return KOIKOI_ALIASES.get(code, code)

    def _apply(self, seat: int, code: str) -> list[Event]:
        verb, *args = code.split()
        if verb == "play":
            return self._play(seat, args[0], args[1] if len(args) > 1 else None)
        if verb == "take":
            return self._take_flip(seat, args[0])
        if verb == "koikoi":
            self.koikoi[seat] = True
            text = Text("{name} calls Koi-Koi!", name=self.players[seat])
            events = [Event("koikoi", text, seat=seat)]
            self._next_turn()
            return events
        return self._stop(seat, last_card=False)

    # ----- a turn ----------------------------------------------------------------------------
    def _capture(self, seat: int, code: str, target: str | None) -> list[str]:
        """Match ``code`` against the board; return what it took ([] = it stays on the board)."""
        targets = self._matches(code)
        if not targets:
            self.board.append(code)
            return []
        # 1: the pair; 2: the one the move names; 3: collect all four
        if len(targets) == 2:
            assert target is not None  # (two: the move, checked legal, names one)
            took = [target]
        else:
            took = targets
        for t in took:
            self.board.remove(t)
        self.captures[seat].extend([code, *took])
        return took

    def _play(self, seat: int, code: str, target: str | None) -> list[Event]:
        name = self.players[seat]
        self.hands[seat].remove(code)
        took = self._capture(seat, code, target)
        self.last_play = {"seat": seat, "card": code, "took": list(took)}
        self.last_flip = None
        self.plays.append({"seat": seat, "card": code, "took": list(took)})
        if took:
            text = Text(
                "{name} plays {card} and takes {cards}",
                name=name,
                card=card_text(code),
                cards=_cards_text(took),
            )
        else:
            text = Text("{name} plays {card} — no match", name=name, card=card_text(code))
        events = [Event("play", text, seat=seat, data={"card": code, "took": list(took)})]
        flip = self.stack.pop()
        targets = self._matches(flip)
        if len(targets) == 2:
            self.phase = CHOOSE_FLIP
            self.flipped, self.flip_options = flip, sort_cards(targets)
            self.last_flip = {"seat": seat, "card": flip, "took": []}
            events.append(
                Event(
                    "flip",
                    Text(
                        "{name} flips {card}: it matches {cards} — which one does it take?",
                        name=name,
                        card=card_text(flip),
                        cards=_cards_text(self.flip_options),
                    ),
                    seat=seat,
                    data={"card": flip, "options": list(self.flip_options)},
                )
            )
            return events
        events.append(self._flip_event(seat, flip, self._capture(seat, flip, None)))
        return events + self._finish_turn(seat)

    def _flip_event(self, seat: int, flip: str, took: list[str]) -> Event:
        self.last_flip = {"seat": seat, "card": flip, "took": list(took)}
        self.plays.append({"seat": seat, "card": flip, "took": list(took)})
        name = self.players[seat]
        if took:
            text = Text(
                "{name} flips {card} and takes {cards}",
                name=name,
                card=card_text(flip),
                cards=_cards_text(took),
            )
        else:
            text = Text("{name} flips {card} — no match", name=name, card=card_text(flip))
        return Event("flip", text, seat=seat, data={"card": flip, "took": list(took)})

    def _take_flip(self, seat: int, target: str) -> list[Event]:
        flip = self.flipped
        assert flip is not None
        self.flipped, self.flip_options = None, []
        events = [self._flip_event(seat, flip, self._capture(seat, flip, target))]
        return events + self._finish_turn(seat)

    def _finish_turn(self, seat: int) -> list[Event]:
        yaku = score_yaku(self.captures[seat])
        points = sum(p for _, p in yaku)
        self.yaku_points[seat] = points
        events: list[Event] = []
        if points > self.turn_start_points:
            events.append(
                Event(
                    "yaku",
                    Text("{name} has {yaku}.", name=self.players[seat], yaku=yaku_text(yaku)),
                    seat=seat,
                    data={"yaku": [{"name": n, "points": p} for n, p in yaku]},
                )
            )
            if not self.hands[seat]:
                return events + self._stop(seat, last_card=True)  # no koi-koi on the last card
            self.phase = DECIDE
            return events
        if not self.hands[0] and not self.hands[1]:
            # The Second played the last card without a new yaku: a draw, roles swap.
            events.extend(self._end_round(None, 0, "draw", []))
            if not self.is_over:
                events.extend(self._start_round())
            return events
        self._next_turn()
        return events

    def _next_turn(self) -> None:
        self.current = 1 - self.current
        self.turn_start_points = self.yaku_points[self.current]
        self.phase = PLAY

    def _stop(self, seat: int, last_card: bool) -> list[Event]:
        yaku = score_yaku(self.captures[seat])
        points = sum(p for _, p in yaku)
        if last_card:
            text = Text(
                "{name} stops on the last card with {yaku}.",
                name=self.players[seat],
                yaku=yaku_text(yaku),
            )
        else:
            text = Text("{name} stops with {yaku}.", name=self.players[seat], yaku=yaku_text(yaku))
        events = [
            Event(
                "stop",
                text,
                seat=seat,
                data={"points": points},
            )
        ]
        events.extend(self._end_round(seat, points, "stop", yaku))
        if not self.is_over:
            events.extend(self._start_round())
        return events

    # ----- timeouts, labels, explanations -----------------------------------------------------
    def default_action(self, seat: int) -> str:
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction(
                Text(
                    "There is nothing to decide for this seat now.",
                    context="hanafuda",
                )
            )
        if self.phase == PLAY:
            # The lowest-value card; its first target when it has two.
            return min(legal, key=lambda code: (card_value(code.split()[1]), legal.index(code)))
        if self.phase == DECIDE:
            return "stop"
        return legal[0]

    def describe(self, code: str) -> str:
        return describe(code)

    def explain_illegal(self, seat: int, code: str) -> str:
        verb, *args = code.split() or [""]
        if self.phase == CHOOSE_FLIP:
            assert self.flipped is not None
            return explain_flip_choice(
                card_text(self.flipped),
                self.flip_options,
                join_or([card_text(t) for t in self.flip_options]),
                tried_take=verb == "take" and bool(args),
            )
        if self.phase == DECIDE:
            return Text("You made a yaku: choose `koikoi` (play on) or `stop` (score now).")
        if verb != "play":
            return Text("Play a card from your hand first, e.g. `play 1b`.")
        if not args:
            return Text("Say which card to play, e.g. `play 1b`.")
        c = args[0]
        if c not in MONTH:
            return Text("`{code}` is not a hanafuda card.", code=c)
        if c not in self.hands[seat]:
            return Text("{card} is not in your hand.", card=card_text(c))
        targets = sort_cards(self._matches(c))
        if len(targets) == 2:
            if len(args) == 1:
                return Text(
                    "{card} matches two cards on the board, {cards}: choose which one it"
                    " takes, e.g. `{example}`.",
                    card=card_text(c),
                    cards=_cards_text(targets),
                    example=f"play {c} {targets[0]}",
                )
            return Text(
                "{card} can only take {choices}.",
                card=card_text(c),
                choices=join_or([card_text(t) for t in targets]),
            )
        if len(args) > 1:
            if not targets:
                return Text(
                    "{card} matches nothing on the board: play it as `{example}`.",
                    card=card_text(c),
                    example=f"play {c}",
                )
            return Text(
                "{card} takes {cards} by itself: play it as `{example}`.",
                card=card_text(c),
                cards=_cards_text(targets),
                example=f"play {c}",
            )
        return Text("`{code}` is not a legal move now.", context="hanafuda", code=code)

    # ----- the view ---------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> KoiKoiView:
        common = self._common(seat)  # (first: it refuses a seat not at the table)
        return {**self._view(seat), **common}

    def _view(self, seat: int | None) -> KoiKoiPart:
        pending: FlipChoice | KoiKoiDecision | None = None
        if self.phase == CHOOSE_FLIP and not self.is_over:
            assert self.flipped is not None
            pending = {"card": self.flipped, "options": list(self.flip_options)}
        elif self.phase == DECIDE and not self.is_over:
            pending = {"points": self.yaku_points[self.current]}
        yaku = [score_yaku(self.captures[s]) for s in (0, 1)]
        return {
            "round": min(len(self.history) + 1, self.rounds),
            "rounds": self.rounds,
            "deal": self.deal_count,
            "dealer": self.dealer,
            "board": list(self.board),
            "stack_count": len(self.stack),
            "hand": sort_cards(self.hands[seat]) if seat in (0, 1) else None,
            "hand_counts": [len(h) for h in self.hands],
            "captures": [sort_cards(c) for c in self.captures],
            "yaku": [[{"name": n, "points": p} for n, p in y] for y in yaku],
            "yaku_points": [sum(p for _, p in y) for y in yaku],
            "koikoi": list(self.koikoi),
            "phase": OVER if self.is_over else self.phase,
            "pending": pending,
            "last_play": _copy_play(self.last_play),
            "last_flip": _copy_play(self.last_flip),
            "history": [{**h, "yaku": [{**y} for y in h["yaku"]]} for h in self.history],
            "void_deals": self.void_deals,
            "plays": [{**p, "took": list(p["took"])} for p in self.plays],
        }


# ----- module-level helpers (exported by the package) --------------------------------------

_CLASS_VALUE = {BRIGHT: 20, ANIMAL: 10, RIBBON: 5, PLAIN: 1}


def card_value(code: str) -> int:
    """A rough worth of a card (for timeouts): bright > animal > ribbon > plain."""
    return _CLASS_VALUE[CLASS[code]]


_VERB_LABELS = {"koikoi": Text("Koi-Koi!"), "stop": Text("Stop and score")}


def describe(code: str) -> str:
    """A short button label for an action code."""
    return describe_action(code, card_label, _VERB_LABELS)


def progress(view: Mapping[str, Any]) -> str:
    """The status line's progress: ``round 3/6``."""
    if not view.get("round"):
        return ""
    return Text("round {round}/{rounds}", round=view["round"], rounds=view.get("rounds", 6))


def new_game(
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | KoiKoiOptions | None = None,
    deck: Any = None,
) -> KoiKoiState:
    opts = options if isinstance(options, KoiKoiOptions) else parse_options(KoiKoiOptions, options)
    return KoiKoiState(seed, players, opts, parse_decks(deck))
