"""The Panda match state (rules: ``docs/rules/panda.md``; grammar: the package docstring)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bot.engine.core import Event, IllegalAction, Result, State, parse_options
from bot.engine.rng import make_rng, shuffled
from bot.games.panda.cards import (
    ALL_CARDS,
    CAT,
    CATFISH,
    PANDA,
    RANK_VALUE,
    RANKS,
    STORK,
    VALUE_RANK,
    a_rank,
    card_name,
    card_points,
    is_card,
    normalize_card,
    parse_rank,
    rank_name,
    sort_cards,
)
from bot.games.panda.combos import (
    CAT_LEAD,
    KINGDOM,
    Combo,
    ambiguous,
    beats,
    bombs_on,
    contains_rank,
    contains_value_one,
    placed,
    plays_on,
    readings,
)
from bot.games.panda.scoring import is_double_victory, score_hand, team_of
from bot.games.panda.text import commas, semicolons
from bot.games.panda.views import HandRecord, PandaPart, PandaView
from bot.i18n.text import Text

log = logging.getLogger(__name__)

HAND_SIZE = 15
DIRECTIONS: tuple[str, ...] = ("left", "partner", "right")
OFFSET = {"left": 1, "partner": 2, "right": 3}  # play goes to the left: seat s -> s + 1
PASSING, PLAY, OVER = "passing", "play", "over"
GIFT, WISH = "gift", "wish"


@dataclass(frozen=True)
class PandaOptions:
    """Table options. ``target``: match points to win (rule 19); ``wish``: the Stork's wish
    (rule 9; off = no wish); ``free_first_lead``: the Stork holder may lead anything
    (rule 5); ``kingdom_ends_hand``: a Kingdom ends the hand at once (rule 12)."""

    target: int = 1000
    wish: bool = True
    free_first_lead: bool = False
    kingdom_ends_hand: bool = False

    def __post_init__(self) -> None:
        if not 100 <= self.target <= 10000:
            raise ValueError(Text("The target score must be between 100 and 10000."))


# ----- codes ------------------------------------------------------------------------------


def combo_code(combo: Combo) -> str:
    """``play`` code of a combination; the Catfish's reading is written when ambiguous."""
    words = []
    for c in combo.cards:
        if c == CATFISH and combo.catfish is not None and ambiguous(combo):
            words.append(f"catfish={VALUE_RANK[combo.catfish]}")
        else:
            words.append(c)
    return "play " + " ".join(words)


@dataclass(frozen=True)
class ParsedPlay:
    cards: tuple[str, ...]
    catfish: int | None  # stated reading
    error: str | None = None


def parse_play(words: Sequence[str]) -> ParsedPlay:
    """Parse the words after ``play``. Accepts ``catfish=<rank>``, ``catfish=low|high``."""
    cards: list[str] = []
    reading: int | None = None
    want: str | None = None
    for w in words:
        if w.lower().startswith("catfish="):
            arg = w.split("=", 1)[1]
            if arg.lower() in ("low", "high"):
                want = arg.lower()
            else:
                r = parse_rank(arg)
                if r is None:
                    return ParsedPlay(
                        (), None, Text("`{rank}` is not a rank (1..10, B, G, E, M).", rank=arg)
                    )
                reading = RANK_VALUE[r]
            cards.append(CATFISH)
            continue
        c = normalize_card(w)
        if c is None:
            return ParsedPlay((), None, Text("`{card}` is not a card.", card=w))
        cards.append(c)
    if len(set(cards)) != len(cards):
        if cards.count(CATFISH) > 1:
            return ParsedPlay(
                (), None, Text("Pick the Catfish only once (plain, or as the lower card).")
            )
        return ParsedPlay((), None, Text("A card appears twice in that play."))
    if want is not None:
        opts = readings(cards)
        if opts:
            values = [o.catfish for o in opts if o.catfish is not None]
            if values:
                reading = min(values) if want == "low" else max(values)
    return ParsedPlay(tuple(sort_cards(cards)), reading)


def describe(code: str) -> str:
    """A short label for an action code (buttons, logs): a :class:`Text`, or the code itself
    when it is not one."""
    words = code.split()
    if not words:
        return code
    verb, args = words[0], words[1:]
    if verb == "pass":
        return Text("Pass", context="panda")
    if verb == "call":
        return Text("Call Panda!")
    if verb == "give" and len(args) >= 2 and len(args) % 2 == 0:
        parts = [
            _to_your(d, card_name(normalize_card(c) or c))
            for d, c in zip(args[::2], args[1::2], strict=True)
        ]
        return Text("Give {cards}", cards=commas(parts))
    if verb == "pass_cards" and len(args) == 3:
        return Text("Pass {cards}", cards=cards_text([normalize_card(c) or c for c in args]))
    if verb == "gift" and args:
        return Text("Give the Panda trick to seat {seat}", seat=args[0])
    if verb == "wish" and args:
        if args[0] == "none":
            return Text("No wish")
        r = parse_rank(args[0])
        return Text("Wish for {rank}", rank=a_rank(r)) if r else code
    if verb == "play":
        parsed = parse_play(args)
        if parsed.error:
            return code
        text = cards_text(parsed.cards)
        label = play_label(code)
        if label is None:
            return text
        if any(o.is_bomb for o in readings(parsed.cards)):
            return label  # an Ambush's or Kingdom's name says its cards (and fits a button)
        return Text("{combo}: {cards}", combo=label, cards=text)
    return code


def _to_your(direction: str, card: str) -> str:
    if direction == "left":
        return Text("{card} to your left", card=card)
    if direction == "partner":
        return Text("{card} to your partner", card=card)
    if direction == "right":
        return Text("{card} to your right", card=card)
    return f"{card} to your {direction}"


def play_label(code: str, capital: bool = True) -> str | None:
    """The name of the combination a ``play`` code lays (``A pair of 5s``, with the
    Catfish's reading when it could be read two ways), or None if it is none."""
    parsed = parse_play(code.split()[1:])
    if parsed.error:
        return None
    options = readings(parsed.cards)
    if parsed.catfish is not None:
        options = [o for o in options if o.catfish == parsed.catfish]
    if not options:
        return None
    label = options[0].label(capital)
    if options[0].catfish is not None and ambiguous(options[0]):
        rank = rank_name(VALUE_RANK[options[0].catfish])
        label = Text("{combo}, Catfish as {rank}", combo=label, rank=rank)
    return label


def _already_chosen(direction: str) -> str:
    if direction == "left":
        return Text("You have already chosen the card for your left.")
    if direction == "partner":
        return Text("You have already chosen the card for your partner.")
    return Text("You have already chosen the card for your right.")


def cards_text(cards: Sequence[str]) -> str:
    """Cards by their names, ``7 of Asahi, Catfish``: what people read (never the codes)."""
    return commas([card_name(c) if is_card(c) else c for c in cards])


# ----- the state ----------------------------------------------------------------------------


class PandaState(State):
    game = "panda"
    teams = ((0, 2), (1, 3))
    batches_out_of_turn = True  # simultaneous Ambushes go by rule 11's priority

    def __init__(
        self,
        seed: int | str,
        players: Sequence[str],
        options: Mapping[str, Any] | PandaOptions | None = None,
        deck: Any = None,
    ) -> None:
        if isinstance(options, PandaOptions):
            opts = options
        else:
            opts = parse_options(PandaOptions, options)
        if len(players) != 4:
            raise ValueError("Panda needs exactly four players.")
        super().__init__(seed, players, asdict(opts))
        self.opts = opts
        self.decks = _stacked_decks(deck)
        self.deal_no = 0
        self.team_scores = [0, 0]
        self.history: list[HandRecord] = []
        self.phase = PASSING
        self._cache: dict[tuple[int, int], list[Any]] = {}  # (codes, or seats)
        self._start_hand()

    # ----- setup --------------------------------------------------------------------------
    def _start_hand(self) -> None:
        self.deal_no += 1
        n = self.deal_no
        if n <= len(self.decks):
            deck = list(self.decks[n - 1])
        else:
            deck = shuffled(ALL_CARDS, make_rng(self.seed, "deal", n))
        self.hands: list[list[str]] = [
            sort_cards(deck[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(4)
        ]
        self.phase = PASSING
        self.given: list[dict[str, str]] = [{} for _ in range(4)]
        self.received: list[dict[int, str]] = [{} for _ in range(4)]
        self.called = [False] * 4
        self.played_any = [False] * 4
        self.turn: int | None = None
        self.trick: list[tuple[int, Combo]] = []
        self.top: Combo | None = None
        self.top_seat: int | None = None
        self.passed = [False] * 4
        self.trick_won = False  # everyone passed: the trick waits to be taken (Ambushes allowed)
        self.pending: str | None = None  # GIFT or WISH
        self.pending_seat: int | None = None
        self.wish: str | None = None
        self.piles: list[list[str]] = [[] for _ in range(4)]
        self.tricks_won = [0] * 4
        self.out: list[int] = []
        self.first_kingdom: int | None = None
        self.first_lead = True
        self.played_cards: list[str] = []

    # ----- helpers -------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return self.players[seat]

    def _holders(self) -> list[int]:
        return [s for s in range(4) if self.hands[s]]

    def _next_holder(self, seat: int) -> int:
        """The next seat to the left of ``seat`` (excluded) that still holds cards."""
        for k in range(1, 5):
            s = (seat + k) % 4
            if self.hands[s]:
                return s
        raise AssertionError("nobody holds cards")

    def _leader_after(self, seat: int) -> int:
        return seat if self.hands[seat] else self._next_holder(seat)

    def _can_call(self, seat: int) -> bool:
        return self.phase in (PASSING, PLAY) and not self.called[seat] and not self.played_any[seat]

    def _all_hold(self) -> bool:
        return all(self.hands[s] for s in range(4))

    def _bombs_for(self, seat: int) -> list[Combo]:
        """Ambushes/Kingdoms ``seat`` may lay now on the lying combination (out of turn)."""
        if self.phase != PLAY or self.pending == WISH or self.top is None:
            return []
        if len(self.out) >= 3:
            return []  # the third player's final play (a Panda awaiting its gift) wins (rule 15)
        if not self.hands[seat] or not _may_hold_bomb(self.hands[seat]):
            return []
        bombs = bombs_on(self.hands[seat], self.top)
        if not self._all_hold():
            bombs = [b for b in bombs if b.kind != KINGDOM]
        return bombs

    def _regular_plays(self, seat: int) -> tuple[list[Combo], bool]:
        """The plays ``seat`` may make on its regular turn, and whether it may pass."""
        hand = self.hands[seat]
        leading = self.top is None or self.trick_won
        plays = plays_on(hand, None if leading else self.top)
        if not self._all_hold():
            plays = [p for p in plays if p.kind != KINGDOM]
        if leading and self.first_lead and not self.opts.free_first_lead:
            plays = [p for p in plays if contains_value_one(p)]
        can_pass = not leading
        if self.wish is not None:
            forced = [p for p in plays if contains_rank(p, self.wish)]
            if forced:
                return forced, False
        return plays, can_pass

    def priority(self) -> list[int]:
        """Seats in the order they get to act when several act at once (rule 11): in turn
        order after the last player who played (after the player to act if nobody has)."""
        start = self.top_seat if self.top_seat is not None else ((self.turn or 0) - 1) % 4
        return [(start + k) % 4 for k in range(1, 5)]

    def apply_simultaneous(self, requests: Sequence[tuple[int, str]]) -> list[Event]:
        """Apply actions asked for at the same moment (e.g. two Ambushes) in priority order.
        Each is checked against the state left by the ones before it; those that are no
        longer legal are dropped (an Ambush now facing a higher Ambush)."""
        order = {s: i for i, s in enumerate(self.priority())}
        events: list[Event] = []
        for seat, code in sorted(requests, key=lambda r: order.get(r[0], 9)):
            try:
                events += self.apply(seat, code)
            except IllegalAction as exc:
                log.debug("simultaneous %s by %s dropped: %s", code, seat, exc.reason)
        return events

    # ----- contract ------------------------------------------------------------------------
    @property
    def to_act(self) -> list[int]:
        if self.phase == PASSING:
            return [s for s in range(4) if len(self.given[s]) < 3]
        if self.phase != PLAY:
            return []
        if self.pending is not None:
            assert self.pending_seat is not None  # (set with pending)
            return [self.pending_seat]
        return [self.turn] if self.turn is not None else []

    @property
    def may_act(self) -> list[int]:
        if self.phase not in (PASSING, PLAY):
            return []
        key = (len(self.log), -1)
        cached = self._cache.get(key)
        if cached is None:
            acting = set(self.to_act)
            cached = [
                s for s in range(4) if s not in acting and (self._can_call(s) or self._bombs_for(s))
            ]
            self._remember(key, cached)
        return list(cached)

    def _remember(self, key: tuple[int, int], value: list[Any]) -> None:
        # Legal actions and optional actors per version: views and checks ask repeatedly.
        if len(self._cache) > 32:
            self._cache.clear()
        self._cache[key] = value

    def legal_actions(self, seat: int) -> list[str]:
        key = (len(self.log), seat)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._legal(seat)
            self._remember(key, cached)
        return list(cached)

    def _legal(self, seat: int) -> list[str]:
        if self.phase == PASSING:
            out: list[str] = []
            if len(self.given[seat]) < 3:
                chosen = set(self.given[seat].values())
                for d in DIRECTIONS:
                    if d not in self.given[seat]:
                        out += [f"give {d} {c}" for c in self.hands[seat] if c not in chosen]
            if self._can_call(seat):
                out.append("call")
            return out
        if self.phase != PLAY:
            return []
        out = []
        if self.pending is not None and seat == self.pending_seat:
            if self.pending == WISH:
                out = ["wish none"] + [f"wish {r}" for r in RANKS]
            else:
                out = [f"gift {o}" for o in ((seat + 1) % 4, (seat + 3) % 4)]
        elif self.pending is None and seat == self.turn:
            plays, can_pass = self._regular_plays(seat)
            out = [combo_code(p) for p in plays]
            if can_pass:
                out.append("pass")
        else:
            out = [combo_code(b) for b in self._bombs_for(seat)]
        if self._can_call(seat):
            out.append("call")
        return out

    def normalize(self, seat: int, code: str) -> str:
        words = code.split()
        if not words:
            return ""
        verb = words[0].lower()
        if verb == "play":
            parsed = parse_play(words[1:])
            if parsed.error or not parsed.cards:
                return " ".join(words)
            options = readings(parsed.cards)
            if len(options) > 1 and parsed.catfish is None:
                parsed = ParsedPlay(parsed.cards, options[0].catfish)  # unstated: the higher
            if len(options) == 1 and parsed.catfish == options[0].catfish:
                parsed = ParsedPlay(parsed.cards, None)
            out = []
            for c in parsed.cards:
                if c == CATFISH and parsed.catfish is not None:
                    out.append(f"catfish={VALUE_RANK[parsed.catfish]}")
                else:
                    out.append(c)
            return "play " + " ".join(out)
        if verb == "pass_cards" and len(words) == 4:
            # The all-three shorthand is logged in the one passing grammar.
            words = ["give", "left", words[1], "partner", words[2], "right", words[3]]
            verb = "give"
        if verb == "give":
            rest = [
                w.lower() if w.lower() in DIRECTIONS else (normalize_card(w) or w)
                for w in words[1:]
            ]
            pairs = list(zip(rest[::2], rest[1::2], strict=False))
            if len(rest) % 2 == 0 and all(d in DIRECTIONS for d, _ in pairs):
                pairs.sort(key=lambda p: DIRECTIONS.index(p[0]))
                rest = [w for p in pairs for w in p]
            return " ".join([verb, *rest])
        if verb == "wish" and len(words) == 2:
            r = parse_rank(words[1])
            return f"wish {r}" if r else f"wish {words[1].lower()}"
        return " ".join([verb, *words[1:]])

    def check(self, seat: int, code: str) -> None:
        words = code.split()
        verb = words[0] if words else ""
        if verb == "play" and self.phase == PLAY:
            self._check_play(seat, words[1:])
            return
        if verb == "give" and self.phase == PASSING:
            self._check_give(seat, words[1:])
            return
        if code not in self.legal_actions(seat):
            raise IllegalAction(self.explain_illegal(seat, code))

    def _check_give(self, seat: int, args: Sequence[str]) -> None:
        if len(self.given[seat]) == 3:
            raise IllegalAction(Text("You have already chosen your three cards."))
        if not args or len(args) % 2:
            raise IllegalAction(
                Text("Say who gets which card: `give left 5t` (left, partner or right).")
            )
        pairs = list(zip(args[::2], args[1::2], strict=True))
        directions = [d for d, _ in pairs]
        cards = [c for _, c in pairs]
        for d in directions:
            if d not in DIRECTIONS:
                raise IllegalAction(
                    Text("`{word}` is not a recipient: say left, partner or right.", word=d)
                )
            if d in self.given[seat]:
                raise IllegalAction(_already_chosen(d))
        if len(set(directions)) != len(directions):
            raise IllegalAction(Text("Choose one card per recipient."))
        chosen = set(self.given[seat].values())
        for c in cards:
            if c not in self.hands[seat]:
                raise IllegalAction(Text("You do not hold `{card}`.", card=c))
            if c in chosen:
                raise IllegalAction(
                    Text("You already pass {card} to someone else.", card=card_name(c))
                )
        if len(set(cards)) != len(cards):
            raise IllegalAction(Text("Pass three different cards."))

    def _check_play(self, seat: int, args: Sequence[str]) -> None:
        parsed = parse_play(args)
        if parsed.error:
            raise IllegalAction(parsed.error)
        if not parsed.cards:
            raise IllegalAction(Text("Say which cards to play, e.g. `play 5t 5g`."))
        missing = [c for c in parsed.cards if c not in self.hands[seat]]
        if missing:
            raise IllegalAction(Text("You do not hold {cards}.", cards=cards_text(missing)))
        options = readings(parsed.cards)
        if not options:
            raise IllegalAction(
                Text("{cards} is not a combination.", cards=cards_text(parsed.cards))
            )
        if parsed.catfish is not None:
            options = [o for o in options if o.catfish == parsed.catfish]
            if not options:
                raise IllegalAction(
                    Text(
                        "The Catfish cannot stand for {rank} there.",
                        rank=a_rank(VALUE_RANK[parsed.catfish]),
                    )
                )
        combo = options[0]
        if self.pending is not None:
            if seat == self.pending_seat:
                raise IllegalAction(
                    Text("First give the Panda trick away.")
                    if self.pending == GIFT
                    else Text("First name your wish.")
                )
            if self.pending == WISH:
                raise IllegalAction(Text("Wait until the Stork's wish has been named."))
        regular = self.pending is None and seat == self.turn
        if not regular:
            self._check_out_of_turn(seat, combo)
            return
        leading = self.top is None or self.trick_won
        top = None if leading else self.top
        if combo.kind == KINGDOM and not self._all_hold():
            raise IllegalAction(Text("A Kingdom is only legal while all four players hold cards."))
        if combo.kind == CAT_LEAD and not leading:
            raise IllegalAction(Text("The Cat can only be played alone as a lead."))
        if not beats(combo, top):
            raise IllegalAction(self._why_not_beating(combo, top))
        if leading and self.first_lead and not self.opts.free_first_lead:
            if not contains_value_one(combo):
                raise IllegalAction(
                    Text("The first lead must be the Stork or a combination with a 1 in it.")
                )
        if self.wish is not None and not contains_rank(combo, self.wish):
            plays, _ = self._regular_plays(seat)
            if any(contains_rank(p, self.wish) for p in plays):
                raise IllegalAction(
                    Text(
                        "The Stork's wish: you can play {rank}, so you must.",
                        rank=a_rank(self.wish),
                    )
                )

    def _check_out_of_turn(self, seat: int, combo: Combo) -> None:
        if not combo.is_bomb:
            raise IllegalAction(
                Text("It is not your turn (only an Ambush or a Kingdom may be laid out of turn).")
            )
        if self.top is None:
            raise IllegalAction(
                Text(
                    "An Ambush or Kingdom can be laid out of turn only on a combination "
                    "on the table."
                )
            )
        if len(self.out) >= 3:
            raise IllegalAction(
                Text("The third player out has won this last trick: nothing can be laid on it.")
            )
        if combo.kind == KINGDOM and not self._all_hold():
            raise IllegalAction(Text("A Kingdom is only legal while all four players hold cards."))
        if not beats(combo, self.top):
            raise IllegalAction(self._why_not_beating(combo, self.top))

    def _why_not_beating(self, combo: Combo, top: Combo | None) -> str:
        if top is None:
            return Text("{combo} cannot be led.", combo=combo.label(True))
        if top.kind == KINGDOM:
            return Text("Nothing can be laid on a Kingdom.")
        if combo.is_catfish_single and top.kind == "single":
            return Text("The Catfish cannot be played on a Mon or on the Panda.")
        if top.kind == "ambush" and not combo.is_bomb:
            return Text("Only a higher Ambush or a Kingdom beats an Ambush.")
        if combo.kind != top.kind or combo.length != top.length:
            return Text(
                "On {top} you must play the same kind with as many cards ({n}).",
                top=top.label(),
                n=top.length,
            )
        return Text("{combo} does not beat {top}.", combo=combo.label(True), top=top.label())

    def explain_illegal(self, seat: int, code: str) -> str:
        verb = code.split()[0] if code.split() else ""
        if not verb:
            return Text("Say what you want to do, e.g. `play 5t 5g`, `pass` or `call`.")
        if self.phase == PASSING:
            if verb == "give":
                return Text(
                    "Choose a card you hold and haven't chosen yet, for a recipient still "
                    "open (`give left 5t`)."
                )
            if verb == "call":
                return Text("You have already called Panda.")
            return Text("Now everyone passes three cards: `give left|partner|right <card>`.")
        if verb in ("give", "pass_cards"):
            return Text("The cards of this hand have already been passed.")
        if verb == "call":
            return Text("Panda can only be called before you play your first card, and only once.")
        if verb == "pass":
            if seat != self.turn or self.pending is not None:
                return Text("It is not your turn.", context="panda")
            if self.top is None or self.trick_won:
                return Text("You lead this trick: you cannot pass.")
            return Text("The Stork's wish forces you to play the wished rank.")
        if verb == "gift":
            return Text(
                "Give the Panda trick to one of your two opponents (when your Panda wins a trick)."
            )
        if verb == "wish":
            return Text("Name a rank (1..10, B, G, E, M) or `wish none` after playing the Stork.")
        return Text("`{code}` is not a legal move now.", context="panda", code=code)

    def default_action(self, seat: int) -> str:
        if self.phase == PASSING and len(self.given[seat]) < 3:
            # Every card still to choose at once: the lowest natural cards; specials stay.
            chosen = set(self.given[seat].values())
            cands = [c for c in self.hands[seat] if c not in chosen]
            naturals = [c for c in cands if c not in (STORK, CAT, CATFISH, PANDA)]
            naturals += [c for c in cands if c not in naturals]
            open_dirs = [d for d in DIRECTIONS if d not in self.given[seat]]
            return "give " + " ".join(f"{d} {c}" for d, c in zip(open_dirs, naturals, strict=False))
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction(
                Text("There is nothing to decide for this seat now.", context="panda")
            )
        if self.pending == WISH and seat == self.pending_seat:
            return "wish none"
        if self.pending == GIFT and seat == self.pending_seat:
            opps = [(seat + 1) % 4, (seat + 3) % 4]
            return f"gift {max(opps, key=lambda o: (len(self.hands[o]), -o))}"
        if "pass" in legal:
            return "pass"
        plays = [c for c in legal if c.startswith("play")]
        if not plays:
            raise IllegalAction(
                Text("There is nothing to decide for this seat now.", context="panda")
            )
        # Lead (or must play): the play with the fewest, lowest cards; never a call.
        return min(plays, key=lambda c: (len(c.split()), _code_value(c)))

    # ----- applying --------------------------------------------------------------------------
    def _apply(self, seat: int, code: str) -> list[Event]:
        words = code.split()
        verb = words[0]
        if verb == "call":
            self.called[seat] = True
            return [Event("call", Text("{name} calls Panda!", name=self._name(seat)), seat)]
        if verb == "give":
            events: list[Event] = []
            for d, c in zip(words[1::2], words[2::2], strict=True):
                events += self._give(seat, d, c)
            return events
        if verb == "wish":
            return self._wish(seat, words[1])
        if verb == "gift":
            return self._gift(seat, int(words[1]))
        if verb == "pass":
            return self._pass(seat)
        if verb == "play":
            parsed = parse_play(words[1:])
            options = readings(parsed.cards)
            if parsed.catfish is not None:
                options = [o for o in options if o.catfish == parsed.catfish]
            return self._play(seat, options[0])
        raise IllegalAction(Text("Unknown action `{code}`.", code=code))

    def _give(self, seat: int, direction: str, card: str) -> list[Event]:
        self.given[seat][direction] = card
        target = (seat + OFFSET[direction]) % 4
        events = [
            Event(
                "give",
                Text(
                    "You will pass {card} to {name}.",
                    card=card_name(card),
                    name=self._name(target),
                ),
                seat,
                {"card": card, "to": target},
                private_to=seat,
            )
        ]
        if len(self.given[seat]) == 3:
            events.append(
                Event(
                    "passed",
                    Text("{name} has chosen the cards to pass.", name=self._name(seat)),
                    seat,
                )
            )
        if all(len(g) == 3 for g in self.given):
            events += self._exchange()
        return events

    def _exchange(self) -> list[Event]:
        for s in range(4):
            for card in self.given[s].values():
                self.hands[s].remove(card)
        for s in range(4):
            for d, card in self.given[s].items():
                target = (s + OFFSET[d]) % 4
                self.hands[target].append(card)
                self.received[target][s] = card
        self.hands = [sort_cards(h) for h in self.hands]
        self.phase = PLAY
        starter = next(s for s in range(4) if STORK in self.hands[s])
        self.turn = starter
        events = [Event("exchange", Text("The passed cards are revealed."))]
        for s in range(4):
            got = commas(
                [
                    Text("{card} from {name}", card=card_name(c), name=self._name(g))
                    for g, c in self.received[s].items()
                ]
            )
            events.append(
                Event("received", Text("You received {cards}.", cards=got), s, private_to=s)
            )
        events.append(
            Event(
                "turn",
                Text("{name} holds the Stork and leads.", name=self._name(starter)),
                starter,
            )
        )
        return events

    def _wish(self, seat: int, arg: str) -> list[Event]:
        self.pending = self.pending_seat = None
        if arg == "none":
            return [Event("wish", Text("{name} makes no wish.", name=self._name(seat)), seat)]
        self.wish = arg
        text = Text("{name} wishes for {rank}.", name=self._name(seat), rank=a_rank(arg))
        return [Event("wish", text, seat, {"rank": arg})]

    def _take_trick(self, winner: int) -> None:
        cards = [c for _, combo in self.trick for c in combo.cards]
        self.piles[winner].extend(cards)
        self.tricks_won[winner] += 1
        self.trick = []
        self.top = None
        self.top_seat = None
        self.trick_won = False
        self.passed = [False] * 4

    def _gift(self, seat: int, receiver: int) -> list[Event]:
        points = card_points(c for _, combo in self.trick for c in combo.cards)
        self._take_trick(receiver)
        self.pending = self.pending_seat = None
        events = [
            Event(
                "gift",
                Text(
                    "{name}'s Panda wins: the trick ({points} points) goes to {receiver}.",
                    name=self._name(seat),
                    points=points,
                    receiver=self._name(receiver),
                ),
                seat,
                {"to": receiver},
            )
        ]
        if len(self.out) >= 3:
            return events + self._end_hand()
        self.turn = self._leader_after(seat)
        return events + [
            Event("turn", Text("{name} leads.", name=self._name(self.turn)), self.turn)
        ]

    def _pass(self, seat: int) -> list[Event]:
        self.passed[seat] = True
        events = [Event("pass", Text("{name} passes.", name=self._name(seat)), seat)]
        assert self.top_seat is not None
        others = [s for s in self._holders() if s != self.top_seat]
        if all(self.passed[s] for s in others):
            winner = self.top_seat
            if self.top is not None and self.top.is_panda:
                self.pending, self.pending_seat = GIFT, winner
                self.trick_won = True
                events.append(
                    Event(
                        "panda_wins",
                        Text(
                            "{name}'s Panda wins the trick and must give it to an opponent.",
                            name=self._name(winner),
                        ),
                        winner,
                    )
                )
                return events
            self.trick_won = True
            self.turn = self._leader_after(winner)
            if self.turn != winner:
                text = Text(
                    "{name} wins the trick; {leader} leads.",
                    name=self._name(winner),
                    leader=self._name(self.turn),
                )
            else:
                text = Text("{name} wins the trick.", name=self._name(winner))
            events.append(Event("trick", text, winner))
            return events
        self.turn = self._next_holder(seat)
        return events

    def _play(self, seat: int, combo: Combo) -> list[Event]:
        events: list[Event] = []
        regular = self.pending is None and seat == self.turn
        if self.trick_won and regular and self.top_seat is not None:
            # The leader's lead takes the finished trick for its winner first.
            self._take_trick(self.top_seat)
        elif self.trick_won or self.pending == GIFT:
            # An Ambush before the trick was taken: the trick goes on.
            self.trick_won = False
            self.pending = self.pending_seat = None
        combo = placed(combo, self.top)
        for c in combo.cards:
            self.hands[seat].remove(c)
        self.played_any[seat] = True
        self.played_cards.extend(combo.cards)
        was_first_lead = self.first_lead
        self.first_lead = False
        what = combo.label()
        if combo.cards[0] not in (STORK, CAT, CATFISH, PANDA):
            what = Text("{combo} ({cards})", combo=what, cards=cards_text(combo.cards))
        fulfils = self.wish is not None and contains_rank(combo, self.wish)
        text = _play_text(
            self._name(seat),
            "leads" if was_first_lead else "plays" if regular else "out of turn",
            what,
            a_rank(self.wish) if fulfils and self.wish is not None else None,
        )
        if fulfils:
            self.wish = None
        events.append(Event("play", text, seat, {"cards": list(combo.cards), "kind": combo.kind}))
        went_out = not self.hands[seat]
        if went_out:
            self.out.append(seat)
            events.append(Event("out", _out_text(self._name(seat), len(self.out)), seat))

        if combo.kind == CAT_LEAD:
            self.piles[seat].append(CAT)
            self.tricks_won[seat] += 1
            if self._hand_over():
                return events + self._end_hand()
            self.turn = self._leader_after((seat + 2) % 4)
            return events + [
                Event(
                    "turn",
                    Text("The Cat gives the lead to {name}.", name=self._name(self.turn)),
                    self.turn,
                )
            ]

        self.trick.append((seat, combo))
        self.top, self.top_seat = combo, seat
        self.passed = [False] * 4
        if is_double_victory(self.out):
            return events + self._end_hand()
        if combo.kind == KINGDOM:
            if self.first_kingdom is None:
                self.first_kingdom = seat
                events.append(
                    Event(
                        "kingdom", Text("{name}'s Kingdom scores 100!", name=self._name(seat)), seat
                    )
                )
            self._take_trick(seat)
            events.append(
                Event(
                    "trick",
                    Text("The Kingdom wins the trick for {name}.", name=self._name(seat)),
                    seat,
                )
            )
            if self.opts.kingdom_ends_hand or len(self.out) >= 3:
                return events + self._end_hand()
            self.turn = self._leader_after(seat)
            return events + [
                Event("turn", Text("{name} leads.", name=self._name(self.turn)), self.turn)
            ]
        if len(self.out) >= 3:
            # The third player's final play wins its trick at once (rule 15).
            if combo.is_panda:
                self.pending, self.pending_seat = GIFT, seat
                self.trick_won = True
                return events + [
                    Event(
                        "panda_wins",
                        Text("{name}'s Panda wins the last trick.", name=self._name(seat)),
                        seat,
                    )
                ]
            self._take_trick(seat)
            return events + self._end_hand()
        self.turn = self._next_holder(seat)
        if STORK in combo.cards and self.opts.wish:
            self.pending, self.pending_seat = WISH, seat
        return events

    def _hand_over(self) -> bool:
        return is_double_victory(self.out) or len(self.out) >= 3

    def _end_hand(self) -> list[Event]:
        lines, totals = score_hand(
            self.out, self.piles, self.hands, self.called, self.first_kingdom, self.players
        )
        for t in (0, 1):
            self.team_scores[t] += totals[t]
        last = [s for s in range(4) if self.hands[s]]
        entry: HandRecord = {
            "deal": self.deal_no,
            "out": list(self.out),
            "double_victory": is_double_victory(self.out),
            "calls": [s for s in range(4) if self.called[s]],
            "first_kingdom": self.first_kingdom,
            "left_over": {str(s): list(self.hands[s]) for s in last},
            "lines": [x.as_dict() for x in lines],
            "hand_scores": totals,
            "totals": list(self.team_scores),
        }
        self.history.append(entry)
        a = f"{self._name(0)} & {self._name(2)}"
        b = f"{self._name(1)} & {self._name(3)}"
        detail = semicolons(
            [
                Text("{line} {team} {points:+d}", line=x.name, team="AB"[x.team], points=x.points)
                for x in lines
                if x.points or x.name != "Double victory"
            ]
        )
        text = Text(
            "Hand {deal}: {a} {a_points:+d}, {b} {b_points:+d} ({detail}). Match: {a_total} – {b_total}.",
            deal=self.deal_no,
            a=a,
            a_points=totals[0],
            b=b,
            b_points=totals[1],
            detail=detail,
            a_total=self.team_scores[0],
            b_total=self.team_scores[1],
        )
        events = [Event("deal_end", text, data={"lines": entry["lines"], "totals": totals})]
        self.trick, self.top, self.top_seat = [], None, None
        self.pending = self.pending_seat = None
        self.turn = None
        winner = self._match_winner()
        if winner is not None:
            self.phase = OVER
            names = a if winner == 0 else b
            events.append(
                Event(
                    "match_end",
                    Text(
                        "{names} win the match {score} – {other}.",
                        names=names,
                        score=self.team_scores[winner],
                        other=self.team_scores[1 - winner],
                    ),
                )
            )
            return events
        self._start_hand()
        events.append(
            Event(
                "deal", Text("Hand {deal} is dealt: choose three cards to pass.", deal=self.deal_no)
            )
        )
        return events

    def _match_winner(self) -> int | None:
        a, b = self.team_scores
        target = self.opts.target
        if a < target and b < target:
            return None
        if a == b:
            return None  # an exact tie at or over the target: another hand (R)
        return 0 if a > b else 1

    # ----- views ---------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> PandaView:
        common = self._common(seat)  # (first: it refuses a seat not at the table)
        return {**self._view(seat), **common}

    def _view(self, seat: int | None) -> PandaPart:
        v: PandaPart = {
            "phase": self.phase,
            "deal": self.deal_no,
            "deals": None,
            "target": self.opts.target,
            "options": {
                "target": self.opts.target,
                "wish": self.opts.wish,
                "free_first_lead": self.opts.free_first_lead,
                "kingdom_ends_hand": self.opts.kingdom_ends_hand,
            },
            "team_scores": list(self.team_scores),
            "teams": [list(t) for t in self.teams],
            "hand_counts": [len(h) for h in self.hands],
            "passing_done": [len(g) == 3 for g in self.given],
            "calls": list(self.called),
            "played_any": list(self.played_any),
            "turn": self.turn,
            "trick": [
                {
                    "seat": s,
                    "cards": list(c.cards),
                    "kind": c.kind,
                    "value": c.value,
                    "label": c.label(),
                }
                for s, c in self.trick
            ],
            "top_seat": self.top_seat,
            "trick_won": self.trick_won,
            "passes": list(self.passed),
            "pending": None
            if self.pending is None
            else {"kind": self.pending, "seat": self.pending_seat},
            "wish": self.wish,
            "out": list(self.out),
            "tricks_won": list(self.tricks_won),
            "pile_points": [card_points(p) for p in self.piles],
            "first_kingdom": self.first_kingdom,
            "first_lead": self.first_lead,
            "played_cards": list(self.played_cards),
            "history": [{**h} for h in self.history],
            "hand": None,
            "given": None,
            "received": None,
        }
        if seat is not None:
            v["hand"] = list(self.hands[seat])
            v["given"] = dict(self.given[seat])
            v["received"] = {str(g): c for g, c in self.received[seat].items()}
        return v

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> list[int]:
        return [self.team_scores[team_of(s)] for s in range(4)]

    def result(self) -> Result:
        return Result.from_team_scores(self.scores, self.teams, self.team_scores)

    def describe(self, code: str) -> str:
        return describe(code)

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        snap.pop("_cache", None)
        return snap


def _play_text(name: str, how: str, what: str, wish: str | None) -> str:
    """``Ann plays a pair of 5s (5t 5g)[, fulfilling the wish for a 5].``"""
    if how == "leads":  # the first lead of a hand: no wish stands yet
        return Text("{name} leads {combo}.", name=name, combo=what)
    if how == "plays":
        if wish is not None:
            return Text(
                "{name} plays {combo}, fulfilling the wish for {rank}.",
                name=name,
                combo=what,
                rank=wish,
            )
        return Text("{name} plays {combo}.", name=name, combo=what)
    if wish is not None:
        return Text(
            "{name} lays out of turn {combo}, fulfilling the wish for {rank}.",
            name=name,
            combo=what,
            rank=wish,
        )
    return Text("{name} lays out of turn {combo}.", name=name, combo=what)


def _out_text(name: str, nth: int) -> str:
    if nth == 1:
        return Text("{name} is out first!", name=name)
    if nth == 2:
        return Text("{name} is out second!", name=name)
    return Text("{name} is out third!", name=name)


def _may_hold_bomb(hand: Sequence[str]) -> bool:
    """Cheap test: four natural cards of a value, or all four royals of a suit."""
    ranks: dict[str, int] = {}
    royals: dict[str, int] = {}
    for c in hand:
        if c in (STORK, CAT, CATFISH, PANDA):
            continue
        r = c[:-1]
        ranks[r] = ranks.get(r, 0) + 1
        if r in ("B", "G", "E", "M"):
            royals[c[-1]] = royals.get(c[-1], 0) + 1
    return 4 in ranks.values() or 4 in royals.values()


def _code_value(code: str) -> float:
    parsed = parse_play(code.split()[1:])
    options = readings(parsed.cards)
    return options[0].value if options else 99.0


def _stacked_decks(deck: Any) -> list[list[str]]:
    """``deck`` may be one deck (60 codes, or a string of them) or a list of decks."""
    if deck is None:
        return []
    if isinstance(deck, str):
        return [_check_deck(deck.split())]
    deck = list(deck)
    if deck and not isinstance(deck[0], str):
        return [_check_deck(d.split() if isinstance(d, str) else list(d)) for d in deck]
    return [_check_deck(deck)]


def _check_deck(deck: list[str]) -> list[str]:
    if sorted(deck) != sorted(ALL_CARDS):
        raise ValueError("A stacked Panda deck must hold each of the 60 cards exactly once.")
    return deck


def new_game(
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | PandaOptions | None = None,
    deck: Any = None,
) -> PandaState:
    """A new match. ``deck`` (top first) stacks the first deal: seat s gets cards 15s..15s+14."""
    return PandaState(seed, players, options, deck)
