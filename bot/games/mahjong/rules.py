"""The Mah-Jongg (Israeli rules) state machine (pure; ``docs/rules/mahjong.md``).

One :class:`MahjongState` is a whole game: hands are dealt, played, scored and redealt
inside ``apply`` until the game ends. See the package docstring for the action grammar.

Readings of the spec where it leaves a choice (each noted where it is implemented):

- Before play ("prelude") each player in turn order from the round player lays out their
  extras (with replacements); then all four answer at once whether to declare concealed
  kongs, holding four of a card or not (then ``pass`` is their only answer, which the host
  gives for them when the question closes), so nothing public tells who holds four. The
  declared kongs are carried out in turn order from the round player when all have
  answered, and whoever declared is asked again. (Asking only the holders of four, one
  after another, would show everybody who holds four.)
- Kongs and expansions are allowed whenever it is one's turn to discard (also right after
  claiming a pung or chow, and in the one more turn) while the kong box has a card.
- The standing hand is declared with ``declare <card>`` followed by the discard; the 13
  cards left are shown to everybody and stay locked: a drawn card other than the called one
  is discarded automatically (also in the one more turn, where even the called card goes).
- Mah-Jongg on the round player's first turn (before any discard) is the original hand:
  scored as a self-drawn win (3) with the Celestial Blessing multiplier, without a winning
  card (so no "last card of its type" or kong-box items).
- "Win with a kong" (+0.5) is a win on the replacement for a kong; a replacement for a
  season or flower scores only the 10 for a card from the kong box.
- Between Mah-Jongg claims each claimant is ranked by the best group the discard can
  complete in any reading of their hand (special hand > pung > chow > pair); the hand is
  then scored at its highest-scoring reading.
- Every discard (outside the one more turn) opens a claim window for all three other
  players, whether they can claim or not (then their only answer is ``pass``): nothing
  public — who is waited for, when the window resolves — tells who holds a matching card.
  The window resolves when all three have answered. The host shows the question only to
  those with a claim, passes for the others when the window's time is up (the same after
  every discard), and earlier only once a claim is in that they could not beat
  (:meth:`MahjongState.moot_answers`). (The spec's "only players with a legal claim are
  asked, and the window closes when they have answered" would show everybody who holds
  what; see docs/architecture.md, "Answer windows".)
- Strict option: in every claim window every player may claim anything. A
  false group claim costs 2 and is ignored; among several Mah-Jongg claims a false one
  costs 20 and the valid ones are resolved; a false Mah-Jongg alone (or a false standing
  hand, found when the hand is shown at the discard) costs 300 and the hand is replayed.
- After the last live-wall card only Mah-Jongg may be claimed; if nobody goes out the
  hand is a draw. A game also ends after ``max_hands`` hands when that option is set.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.core import Event, IllegalAction, Result, State, parse_options
from bot.engine.rng import make_rng, shuffled
from bot.games.mahjong.hand import one_add_complete, one_swap_complete, regular_waits
from bot.games.mahjong.scoring import (
    PlayerHand,
    Sheet,
    WinInfo,
    claim_rank,
    is_mahjong,
    mahjong_waits,
    score_non_winner,
    score_winner,
    settle,
)
from bot.games.mahjong.specials import (
    Meld,
    irregular_candidates,
    irregular_complete,
    irregular_near,
)
from bot.games.mahjong.tiles import (
    CODES,
    FULL_SET,
    INDEX,
    NUM_KINDS,
    SUIT_NAMES,
    WIND_CODES,
    WIND_NAMES,
    WINDS,
    counts_of,
    expand,
    hand_text,
    name,
    run_name,
)
from bot.games.mahjong.views import (
    Claim,
    HandRecord,
    MahjongPart,
    MahjongView,
    MeldView,
    Penalty,
    Prelude,
    PublicHand,
    Standing,
    Win,
)
from bot.i18n.text import Text, commas, ntext, semicolons

log = logging.getLogger(__name__)

HAND_SIZE = 13
BOX_SIZE = 14
BOX_MIN = 4
PENALTY_FALSE_CLAIM = 2
PENALTY_WRONG_MAHJONG = 20
PENALTY_FALSE_MAHJONG = 300

DISCARD = tuple(f"discard {c}" for c in CODES[:NUM_KINDS])
KONG = tuple(f"kong {c}" for c in CODES[:NUM_KINDS])
EXTEND = tuple(f"extend {c}" for c in CODES[:NUM_KINDS])
DECLARE = tuple(f"declare {c}" for c in CODES[:NUM_KINDS])

#: The game's name in the view (the same words as the /mahjong command's).
TITLE_TEXT = Text("Mah-Jongg")
#: What a false declaration costs, in the penalties' ``reason`` (and the void hand's).
FALSE_STANDING = Text("false standing hand")
FALSE_MAHJONG = Text("false Mah-Jongg")
WRONG_MAHJONG = Text("wrong Mah-Jongg claim")
FALSE_CLAIM = {
    "pung": Text("false pung claim"),
    "kong": Text("false kong claim"),
    "chow": Text("false chow claim"),
}

#: Claims from the lowest priority to the highest.
CLAIM_KINDS = ("chow", "pung", "kong", "mahjong")

# phases
PRELUDE, DISCARD_PHASE, CLAIM, LAST, OVER = "prelude", "discard", "claim", "last_turns", "over"


@dataclass(frozen=True)
class MahjongOptions:
    """Table options.

    - ``game``: ``regular`` (ends after four seat changes) or ``extended`` (sixteen seat
      changes, the round wind going East, South, West, North).
    - ``strict``: players may declare falsely and pay the seed's penalties (2 for a false
      group claim, 20 for a wrong Mah-Jongg among several claimants, 300 and a replayed
      hand for a false Mah-Jongg or standing hand); every claim is then offered to everyone.
    - ``last_card``: ``last_copy`` (the winning card's other three copies are in sight) or
      ``only_wait`` (the only card that completes the hand) for the 2-point item.
    - ``settlement``: ``addup`` (everyone adds their own total) or ``classical`` (losers
      pay the winner's total and settle their differences).
    - ``random_seats``: seat winds drawn from the seed (off: player i starts in wind i).
    - ``max_hands``: end the game after this many hands even if it is not finished
      (0 = no limit; a table may use it to bound long games).
    """

    game: str = "regular"
    strict: bool = False
    last_card: str = "last_copy"
    settlement: str = "addup"
    random_seats: bool = True
    max_hands: int = 0

    def __post_init__(self) -> None:
        if self.game not in ("regular", "extended"):
            raise ValueError(
                Text("Option game must be `regular` (4 rounds) or `extended` (16 rounds).")
            )
        if self.last_card not in ("last_copy", "only_wait"):
            raise ValueError(Text("Option last_card must be `last_copy` or `only_wait`."))
        if self.settlement not in ("addup", "classical"):
            raise ValueError(Text("Option settlement must be `addup` or `classical`."))
        if self.max_hands < 0:
            raise ValueError(Text("Option max_hands must be 0 (no limit) or more."))

    @property
    def rounds(self) -> int:
        return 4 if self.game == "regular" else 16


def parse_deck(deck: Any) -> list[list[int]] | None:
    """A stacked deck (codes top first, as a list or a string) or a list of such decks."""
    if deck is None:
        return None
    if isinstance(deck, str):
        return [_deck_indices(deck.split())]
    deck = list(deck)
    if deck and not isinstance(deck[0], str):
        return [_deck_indices(d.split() if isinstance(d, str) else d) for d in deck]
    return [_deck_indices(deck)]


def _deck_indices(codes: Sequence[str]) -> list[int]:
    try:
        out = [INDEX[c] for c in codes]
    except KeyError as e:
        raise ValueError(f"Unknown card {e.args[0]!r} in the stacked deck.") from None
    have = counts_of([t for t in out if t < NUM_KINDS])
    if any(n > 4 for n in have) or len(set(t for t in out if t >= NUM_KINDS)) != sum(
        1 for t in out if t >= NUM_KINDS
    ):
        raise ValueError("The stacked deck holds a card more often than the set does.")
    if len(out) > len(FULL_SET):
        raise ValueError("The stacked deck holds more than 144 cards.")
    return out


def _complete_deck(prefix: list[int], rng_seed: Any) -> list[int]:
    """A partial stacked deck is completed with the remaining cards in a seeded order."""
    rest = list(FULL_SET)
    for t in prefix:
        rest.remove(t)
    return prefix + shuffled(rest, make_rng(rng_seed, "stack-fill"))


class MahjongState(State):
    game = "mahjong"

    def __init__(
        self,
        seed: int | str,
        players: Sequence[str],
        options: MahjongOptions,
        decks: list[list[int]] | None = None,
    ) -> None:
        if len(players) != 4:
            raise ValueError("Mah-Jongg needs exactly 4 players.")
        super().__init__(seed, players, dataclasses.asdict(options))
        self.opts = options
        self.totals = [0, 0, 0, 0]
        if options.random_seats:
            self.wind = shuffled([0, 1, 2, 3], make_rng(seed, "seats"))
        else:
            self.wind = [0, 1, 2, 3]
        self.by_wind = self._by_wind()
        self.round_wind = 0
        self.rotations = 0
        self.hand_no = 0
        self.history: list[HandRecord] = []
        self.over = False
        self.decks = decks
        self.phase = PRELUDE
        self._cache_version = -1
        self._cache_legal: dict[int, list[str]] = {}
        self._cache_gate: tuple[int, int, bool] = (-1, -1, True)
        events: list[Event] = []
        self._start_hand(events)
        self.events.extend(events)

    # ----- small helpers ---------------------------------------------------------------
    def _by_wind(self) -> list[int]:
        out = [0] * 4
        for p, w in enumerate(self.wind):
            out[w] = p
        return out

    @property
    def round_player(self) -> int:
        return self.by_wind[self.round_wind]

    def next_player(self, p: int) -> int:
        return self.by_wind[(self.wind[p] + 1) % 4]

    def distance(self, frm: int, to: int) -> int:
        """Turn-order distance from ``frm`` to ``to`` (1 = the next player)."""
        return (self.wind[to] - self.wind[frm]) % 4

    @property
    def live_count(self) -> int:
        return self.live_end - self.live_pos

    @property
    def box_count(self) -> int:
        return len(self.box) - self.box_pos

    def _n(self, p: int) -> str:
        return self.players[p]

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        for k in [k for k in snap if k.startswith("_cache")]:
            del snap[k]
        return snap

    # ----- the contract ------------------------------------------------------------------
    @property
    def to_act(self) -> list[int]:
        if self.over:
            return []
        if self.phase == CLAIM:
            answers = self.claim["answers"]
            return [s for s in self.claim["order"] if s not in answers]
        if self.phase == PRELUDE:
            answers = self.prelude["answers"]
            return sorted(s for s in self.prelude["order"] if s not in answers)
        return [self.turn]

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        return list(self.totals)

    def result(self) -> Result:
        return Result.free_for_all(self.totals)

    def legal_actions(self, seat: int) -> list[str]:
        if self._cache_version != len(self.log):
            self._cache_version = len(self.log)
            self._cache_legal = {}
        hit = self._cache_legal.get(seat)
        if hit is None:
            hit = self._legal(seat)
            self._cache_legal[seat] = hit
        return list(hit)

    def check(self, seat: int, code: str) -> None:
        if self._cache_version == len(self.log) and seat in self._cache_legal:
            legal = self._cache_legal[seat]
        else:
            legal = self.legal_actions(seat)
        if code not in legal:
            raise IllegalAction(self.explain_illegal(seat, code))

    def normalize(self, seat: int, code: str) -> str:
        words = code.split()
        if len(words) == 4 and words[0] == "chow" and all(w in INDEX for w in words[1:]):
            words[1:] = sorted(words[1:], key=INDEX.__getitem__)
        return " ".join(words)

    def default_action(self, seat: int) -> str:
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction(Text("There is nothing to decide for this seat now."))
        if "pass" in legal:
            return "pass"
        if legal == ["mahjong"]:
            return "mahjong"
        if self.drawn is not None and self.turn == seat:
            code = DISCARD[self.drawn]
            if code in legal:
                return code
        discards = [c for c in legal if c.startswith("discard ")]
        return discards[-1] if discards else legal[0]

    def describe(self, code: str) -> str:
        return describe(code)

    def explain_illegal(self, seat: int, code: str) -> str:
        words = code.split()
        verb = words[0] if words else ""
        legal = self.legal_actions(seat)
        if not legal:
            return Text("You have nothing to decide now.")
        if self.phase == CLAIM:
            t = self.claim["card"]
            if self.standing[seat] is not None and verb in ("pung", "kong", "chow"):
                return Text(
                    "Your standing hand is locked: you may claim only the named card, for Mah-Jongg."
                )
            if verb == "chow" and self.distance(self.claim["by"], seat) != 1:
                return Text("You may chow only the discard of the player before you.")
            if verb == "chow":
                return Text(
                    "That chow is not one you can make with {card} and two cards of your hand.",
                    card=name(t),
                )
            if verb == "pung":
                return Text("You cannot claim {card} for a pung with your hand.", card=name(t))
            if verb == "kong":
                return Text("You cannot claim {card} for a kong with your hand.", card=name(t))
            if verb == "mahjong":
                return Text("{card} does not complete a Mah-Jongg for you.", card=name(t))
            # the answers by their labels (Pung, Chow 2-3-4 Bamboo), never their codes
            return Text("Answer the claim: {codes}.", codes=commas([describe(c) for c in legal]))
        if self.phase == PRELUDE and verb not in ("kong", "pass"):
            return Text(
                "Before play you may only declare a concealed kong of four cards you hold "
                "(`kong <card>`) or keep them in hand (`pass`)."
            )
        if self.phase == LAST and verb in ("mahjong", "declare"):
            return Text(
                "No Mah-Jongg or standing hand in the one more turn after a Mah-Jongg: "
                "discard a card."
            )
        if self.pending_declare is not None and verb in ("mahjong", "declare", "kong", "extend"):
            return Text(
                "You have declared a standing hand on {card}: now discard "
                "a card that keeps you one card from Mah-Jongg.",
                card=name(self.pending_declare),
            )
        if self.standing[seat] is not None and legal == ["mahjong"]:
            return Text("You drew the card your standing hand calls: declare Mah-Jongg.")
        if verb in ("discard", "kong", "extend", "declare") and len(words) == 2:
            if words[1] not in INDEX or INDEX[words[1]] >= NUM_KINDS:
                return Text("`{code}` is not a card that can be in a hand.", code=words[1])
            t = INDEX[words[1]]
            c = self.conc[seat]
            if verb == "discard":
                if c[t] == 0:
                    return Text("You do not hold {card}.", card=name(t))
                if self.pending_declare is not None:
                    return Text(
                        "After declaring a standing hand on {card} you must discard a card "
                        "that keeps you one card from Mah-Jongg (not the named card).",
                        card=name(self.pending_declare),
                    )
            if verb in ("kong", "extend") and self.box_count == 0:
                return Text("The kong box is empty: no more kongs this hand.")
            if verb == "kong":
                return Text("A concealed kong needs all four {card} in your hand.", card=name(t))
            if verb == "extend":
                return Text(
                    "You can extend only your own melded pung of {card} with a card from your hand.",
                    card=name(t),
                )
            if verb == "declare":
                return Text(
                    "Your hand is not one card from Mah-Jongg with {card} after a discard.",
                    card=name(t),
                )
        if verb == "mahjong":
            return Text(
                "Your hand is not a Mah-Jongg now (it must be won by wall or by a discard)."
            )
        if verb in ("pung", "chow", "pass"):
            return Text("There is no discard to claim now.")
        return Text(
            "`{code}` is not a legal move now. Legal: {legal}.",
            code=code,
            legal=commas([describe(c) for c in legal[:12]]),
        )

    # ----- legal actions ---------------------------------------------------------------------
    def _legal(self, seat: int) -> list[str]:
        if self.over:
            return []
        phase = self.phase
        if phase == CLAIM:
            opts = self.claim["options"].get(seat)
            if opts is None or seat in self.claim["answers"]:
                return []
            return list(opts)
        if phase == PRELUDE:
            if seat not in self.prelude["order"] or seat in self.prelude["answers"]:
                return []
            return self._prelude_options(seat)
        if seat != self.turn:
            return []
        if phase == LAST:
            return self._turn_actions(seat, last=True)
        return self._turn_actions(seat, last=False)

    def _prelude_options(self, p: int) -> list[str]:
        """Before play: a concealed kong of each four ``p`` holds, and ``pass`` (the only
        answer of a player holding no four)."""
        c = self.conc[p]
        kongs = [KONG[t] for t in range(NUM_KINDS) if c[t] == 4] if self.box_count else []
        return kongs + ["pass"]

    def _turn_actions(self, p: int, last: bool) -> list[str]:
        c = self.conc[p]
        strict = self.opts.strict
        if self.standing[p] is not None:
            if last:
                return [DISCARD[t] for t in range(NUM_KINDS) if c[t]]
            return ["mahjong"]  # the named card was drawn (others are discarded at once)
        if self.pending_declare is not None:
            w = self.pending_declare
            out = []
            for d in range(NUM_KINDS):
                if c[d] and d != w:
                    if strict or self._is_standing_after(p, d, w):
                        out.append(DISCARD[d])
            return out
        acts: list[str] = []
        melds = self.melds[p]
        # A complete hand is trivially "one swap from complete": when the swap test fails
        # the hand cannot be a Mah-Jongg either (the test is cached for the discard too).
        near = strict or (not last and self._swap_gate(p))
        if not last and near and self._may_self_win(p):
            concealed_ok = all(m[2] for m in melds)
            if strict or is_mahjong(c, melds, self.wind[p], self.round_wind, concealed_ok):
                acts.append("mahjong")
        acts += [DISCARD[t] for t in range(NUM_KINDS) if c[t]]
        if self.box_pos < len(self.box):
            if 4 in c:
                acts.extend(KONG[t] for t in range(NUM_KINDS) if c[t] == 4)
            if melds:
                acts.extend(EXTEND[t] for k, t, _ in melds if k == "pung" and c[t])
        if not last:
            if strict:
                acts.extend(DECLARE)
            elif near:
                acts.extend(DECLARE[w] for w in self._declare_waits(p))
        return acts

    def _swap_gate(self, p: int) -> bool:
        """Could one discard and one new card complete ``p``'s 14 cards (regular or special)?

        Remembered for the discard that follows: when it fails, no 13 cards left after a
        discard wait on anything, so the waits need no computing."""
        c = self.conc[p]
        gate = one_swap_complete(c) or irregular_near(
            c, self.melds[p], WINDS[self.wind[p]], WINDS[self.round_wind]
        )
        self._cache_gate = (len(self.log), p, gate)
        return gate

    def _may_self_win(self, p: int) -> bool:
        return self.drawn is not None or (p == self.round_player and self.discards == 0)

    def _is_standing_after(self, p: int, d: int, w: int) -> bool:
        c = self.conc[p]
        c[d] -= 1
        c[w] += 1
        melds = self.melds[p]
        ok = c[w] <= 4 and is_mahjong(
            c, melds, self.wind[p], self.round_wind, all(m[2] for m in melds)
        )
        c[w] -= 1
        c[d] += 1
        return ok

    def _declare_waits(self, p: int) -> list[int]:
        """Cards a standing hand could be declared on (after some discard)."""
        c = self.conc[p]
        melds = self.melds[p]
        regular = one_swap_complete(c)
        irregular = irregular_near(c, melds, WINDS[self.wind[p]], WINDS[self.round_wind])
        if not regular and not irregular:
            return []
        concealed_ok = all(m[2] for m in melds)
        own, rnd = WINDS[self.wind[p]], WINDS[self.round_wind]
        out: set[int] = set()
        for d in range(NUM_KINDS):
            if not c[d]:
                continue
            c[d] -= 1
            found = set(regular_waits(c)) if regular and one_add_complete(c) else set()
            if irregular:
                for w in irregular_candidates(c, melds, own, rnd):
                    if w not in found and c[w] < 4:
                        c[w] += 1
                        if irregular_complete(c, melds, own, rnd, concealed_ok):
                            found.add(w)
                        c[w] -= 1
            found.discard(d)  # the named card may not be the one discarded
            out |= found
            c[d] += 1
        # a named card must still exist somewhere: not all four in the player's own hand/melds
        return sorted(w for w in out if self._own_copies(p, w) < 4)

    def _own_copies(self, p: int, t: int) -> int:
        n = self.conc[p][t]
        for k, mt, _ in self.melds[p]:
            if k == "chow":
                n += mt <= t <= mt + 2
            elif mt == t:
                n += 4 if k == "kong" else 3
        return n

    # ----- dealing ---------------------------------------------------------------------------
    def _deck_for(self, n: int) -> list[int]:
        if self.decks and n <= len(self.decks):
            return _complete_deck(list(self.decks[n - 1]), (self.seed, n))
        return shuffled(FULL_SET, make_rng(self.seed, "deal", n))

    def _start_hand(self, events: list[Event]) -> None:
        self.hand_no += 1
        deck = self._deck_for(self.hand_no)
        rp = self.round_player
        order = [self.by_wind[(self.round_wind + i) % 4] for i in range(4)]
        self.conc = [[0] * NUM_KINDS for _ in range(4)]
        self.held_extras: list[list[int]] = [[] for _ in range(4)]
        pos = 0
        for i, p in enumerate(order):
            n = HAND_SIZE + (1 if i == 0 else 0)
            for t in deck[pos : pos + n]:
                if t >= NUM_KINDS:
                    self.held_extras[p].append(t)
                else:
                    self.conc[p][t] += 1
            pos += n
        self.live = deck[pos : len(deck) - BOX_SIZE]
        self.live_pos = 0
        self.live_end = len(self.live)
        self.box = deck[len(deck) - BOX_SIZE :]
        self.box_pos = 0
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.extras: list[list[int]] = [[] for _ in range(4)]
        self.river: list[list[int]] = [[] for _ in range(4)]
        self.standing: list[int | None] = [None] * 4
        # cards that would let each player claim Mah-Jongg on a discard (their 13 cards)
        self.waits: list[tuple[int, ...]] = [(), (), (), ()]
        self.standing_hand: list[list[int] | None] = [None] * 4
        self.pending_declare: int | None = None
        self.turn = rp
        self.drawn: int | None = None
        self.draw_src = ""
        self.last_wall_draw = False
        self.discards = 0
        self.claim: dict[str, Any] = {}
        self.prelude: dict[str, Any] = {}
        self.last_queue: list[int] = []
        self.winner: int | None = None
        self.win: dict[str, Any] | None = None
        self.penalties: list[Penalty] = []
        self.phase = PRELUDE
        winds = commas(
            [Text("{name} {wind}", name=self._n(p), wind=WIND_NAMES[self.wind[p]]) for p in order]
        )
        events.append(
            Event(
                "deal",
                Text(
                    "Hand {n} ({wind} round): {winds}. "
                    "{name} is the round player and discards first.",
                    n=self.hand_no,
                    wind=WIND_NAMES[self.round_wind],
                    winds=winds,
                    name=self._n(rp),
                ),
                data={"deal": self.hand_no},
            )
        )
        # Before play: each player in turn order lays out their extras (with replacements),
        # then everyone is asked at once about concealed kongs (see _open_prelude).
        for p in order:
            if not self._lay_out_held_extras(p, events):
                return
        self._open_prelude(order)

    def _lay_out_held_extras(self, p: int, events: list[Event]) -> bool:
        """``p`` lays out the extras dealt to them, each replaced from the kong box.
        False if the hand ended for want of cards."""
        held = self.held_extras[p]
        while held:
            e = held.pop(0)
            self.extras[p].append(e)
            events.append(
                Event(
                    "extra", Text("{name} lays out {card}.", name=self._n(p), card=name(e)), seat=p
                )
            )
            t = self._take_box()
            if t is None:
                self._exhausted(events)
                return False
            if t >= NUM_KINDS:
                held.append(t)
            else:
                self.conc[p][t] += 1
                events.append(
                    Event(
                        "draw",
                        Text("You drew {card} from the kong box.", card=name(t)),
                        seat=p,
                        private_to=p,
                    )
                )
        return True

    def _open_prelude(self, asked: list[int]) -> None:
        """Ask ``asked`` (in turn order) at once whether to declare a concealed kong.

        Everyone is asked, holding four of a card or not (then ``pass`` is the only
        answer): who is asked and who is waited for never tell who holds four. The answers
        are carried out when all are in, in turn order from the round player; whoever
        declared a kong is asked again (a second four, or the replacement made one)."""
        if not asked:
            self._end_prelude()
            return
        self.phase = PRELUDE
        self.turn = self.round_player
        self.prelude = {"order": list(asked), "answers": {}}

    def _resolve_prelude(self, events: list[Event]) -> None:
        answers: dict[int, str] = self.prelude["answers"]
        declared = []
        for p in self.prelude["order"]:
            words = answers[p].split()
            if words[0] != "kong":
                continue
            if not self._declare_kong(p, INDEX[words[1]], events, prelude=True):
                return  # the hand ended for want of cards
            declared.append(p)
        self.prelude = {}
        self._open_prelude(declared)

    def _end_prelude(self) -> None:
        self.prelude = {}
        for p in range(4):
            if p != self.round_player:
                self._update_waits(p)
        self.phase = DISCARD_PHASE
        self.turn = self.round_player
        self.drawn = None
        self.draw_src = ""

    # ----- the wall ---------------------------------------------------------------------------
    def _take_box(self) -> int | None:
        if self.box_pos >= len(self.box):
            return None
        t = self.box[self.box_pos]
        self.box_pos += 1
        # keep at least four cards in the box, taken from the far end of the live wall
        while len(self.box) - self.box_pos < BOX_MIN and self.live_end > self.live_pos:
            self.live_end -= 1
            self.box.append(self.live[self.live_end])
        return t

    def _draw(self, p: int, from_box: bool, after_kong: bool, events: list[Event]) -> bool:
        """``p`` draws a card, laying out extras with replacements. False: no card left."""
        while True:
            if from_box:
                t = self._take_box()
                if t is None:
                    return False
                last = False
            else:
                if self.live_pos >= self.live_end:
                    return False
                t = self.live[self.live_pos]
                self.live_pos += 1
                last = self.live_pos >= self.live_end
            if t >= NUM_KINDS:
                self.extras[p].append(t)
                events.append(
                    Event(
                        "extra",
                        Text(
                            "{name} lays out {card} and draws a replacement.",
                            name=self._n(p),
                            card=name(t),
                        ),
                        seat=p,
                    )
                )
                from_box = True
                after_kong = False
                continue
            self.conc[p][t] += 1
            self.drawn = t
            self.draw_src = "kong" if after_kong else ("box" if from_box else "wall")
            self.last_wall_draw = last
            return True  # (the drawn card is in the player's view: no event per draw)

    # ----- turns -------------------------------------------------------------------------------
    def _turn_from(self, p: int, events: list[Event]) -> None:
        """Play continues with ``p`` drawing from the wall; automatic turns run on."""
        while True:
            self.turn = p
            self.claim = {}
            if not self._draw(p, False, False, events):
                self._exhausted(events)
                return
            w = self.standing[p]
            drawn = self.drawn
            assert drawn is not None  # (_draw set it)
            if w is not None and drawn != w:
                # a locked standing hand: the drawn card goes straight out
                if self._discard(p, drawn, events, auto=True):
                    return
                p = self.next_player(p)
                continue
            self.phase = DISCARD_PHASE
            return

    def _discard(self, p: int, t: int, events: list[Event], auto: bool = False) -> bool:
        """``p`` discards ``t``; True if a claim window opened."""
        self.conc[p][t] -= 1
        self.river[p].append(t)
        self.discards += 1
        self.drawn = None
        if auto:
            text = Text(
                "{name} discards {card} (standing hand, automatically).",
                name=self._n(p),
                card=name(t),
            )
        else:
            text = Text("{name} discards {card}.", name=self._n(p), card=name(t))
        events.append(Event("discard", text, seat=p, data={"card": CODES[t]}))
        if self.phase == LAST:
            return False
        if not auto:
            gate = self._cache_gate
            if gate[0] == len(self.log) and gate[1] == p and not gate[2]:
                self.waits[p] = ()
            else:
                self._update_waits(p)
        options = self._claim_options(p, t)
        self.phase = CLAIM
        self.turn = p
        self.claim = {
            "card": t,
            "by": p,
            "options": options,
            "answers": {},
            "order": sorted(options),
        }
        return True

    def _update_waits(self, p: int) -> None:
        """Cache the cards that complete ``p``'s 13 cards on a discard (no concealed hand)."""
        c = self.conc[p]
        melds = self.melds[p]
        own, rnd = WINDS[self.wind[p]], WINDS[self.round_wind]
        out = regular_waits(c) if one_add_complete(c) else []
        extra = irregular_candidates(c, melds, own, rnd)
        if extra:
            waits = set(out)
            for t in extra:
                if t not in waits and c[t] < 4:
                    c[t] += 1
                    if irregular_complete(c, melds, own, rnd, False):
                        waits.add(t)
                    c[t] -= 1
            out = sorted(waits)
        self.waits[p] = tuple(out)

    def _claim_options(self, d: int, t: int) -> dict[int, list[str]]:
        """The answers of each of the three other players to the discard ``t`` of ``d``:
        their claims (only Mah-Jongg once the live wall is used up) and ``pass``."""
        live = self.live_pos < self.live_end
        strict = self.opts.strict
        box = self.box_count > 0
        out: dict[int, list[str]] = {}
        p = d
        for dist in (1, 2, 3):
            p = self.next_player(p)
            c = self.conc[p]
            opts: list[str] = []
            if self.standing[p] is not None:
                if strict:
                    opts.append("mahjong")
                elif t == self.standing[p] and t in self.waits[p]:
                    opts.append("mahjong")
            elif strict:
                opts.append("mahjong")
                if live:
                    if box:
                        opts.append("kong")
                    opts.append("pung")
                    if dist == 1 and t < 27:
                        opts.extend(code for code, _, _ in CHOWS[t])
            else:
                if t in self.waits[p]:
                    opts.append("mahjong")
                if live:
                    n = c[t]
                    if n >= 2:
                        if n >= 3 and box:
                            opts.append("kong")
                        opts.append("pung")
                    if dist == 1 and t < 27:
                        for code, x, y in CHOWS[t]:
                            if c[x] and c[y]:
                                opts.append(code)
            # Everyone is asked, able to claim or not ("pass" only): who is asked, who is
            # waited for and how long the window lasts never tell who holds a matching card.
            opts.append("pass")
            out[p] = opts
        return out

    # ----- apply ----------------------------------------------------------------------------------
    def _apply(self, seat: int, code: str) -> list[Event]:
        self._cache_version = -1
        events: list[Event] = []
        words = code.split()
        verb = words[0]
        t = INDEX[words[1]] if len(words) == 2 else None
        phase = self.phase
        if phase == CLAIM:
            self.claim["answers"][seat] = code
            if len(self.claim["answers"]) == len(self.claim["order"]):
                self._resolve_claims(events)
            return events
        if phase == PRELUDE:
            self.prelude["answers"][seat] = code
            if len(self.prelude["answers"]) == len(self.prelude["order"]):
                self._resolve_prelude(events)
            return events
        if verb == "discard":
            assert t is not None
            if self.pending_declare is not None:
                if not self._make_standing(seat, t, events):
                    return events
            if phase == LAST:
                self._discard(seat, t, events)
                self.last_queue.pop(0)
                self._run_last(events)
                return events
            if not self._discard(seat, t, events):
                self._turn_from(self.next_player(seat), events)
            return events
        if verb == "kong":
            assert t is not None
            self._declare_kong(seat, t, events, prelude=False)
            return events
        if verb == "extend":
            assert t is not None
            self._extend(seat, t, events)
            return events
        if verb == "declare":
            assert t is not None
            self.pending_declare = t
            events.append(
                Event(
                    "declare_pending",
                    Text(
                        "You will declare a standing hand on {card} with your discard.",
                        card=name(t),
                    ),
                    seat=seat,
                    private_to=seat,
                )
            )
            return events
        if verb == "mahjong":
            self._self_drawn_mahjong(seat, events)
            return events
        raise IllegalAction(
            Text("`{code}` is not a legal move now.", code=code)
        )  # pragma: no cover

    def _declare_kong(self, p: int, t: int, events: list[Event], prelude: bool) -> bool:
        """A concealed kong and its replacement. False if the hand ended for want of cards."""
        self.conc[p][t] -= 4
        self.melds[p].append(("kong", t, True))
        events.append(
            Event(
                "kong",
                Text("{name} declares a concealed kong of {card}.", name=self._n(p), card=name(t)),
                seat=p,
                data={"card": CODES[t]},
            )
        )
        if prelude:
            t2 = self._take_box()
            while t2 is not None and t2 >= NUM_KINDS:
                self.extras[p].append(t2)
                events.append(
                    Event(
                        "extra",
                        Text("{name} lays out {card}.", name=self._n(p), card=name(t2)),
                        seat=p,
                    )
                )
                t2 = self._take_box()
            if t2 is None:
                self._exhausted(events)
                return False
            self.conc[p][t2] += 1
            events.append(
                Event(
                    "draw",
                    Text("You drew {card} from the kong box.", card=name(t2)),
                    seat=p,
                    private_to=p,
                )
            )
            return True
        if not self._draw(p, True, True, events):
            self._exhausted(events)
            return False
        return True

    def _extend(self, p: int, t: int, events: list[Event]) -> None:
        melds = self.melds[p]
        for i, (k, mt, _) in enumerate(melds):
            if k == "pung" and mt == t:
                melds[i] = ("kong", t, False)
                break
        self.conc[p][t] -= 1
        events.append(
            Event(
                "extend",
                Text(
                    "{name} adds {card} to their pung: a melded kong.",
                    name=self._n(p),
                    card=name(t),
                ),
                seat=p,
                data={"card": CODES[t]},
            )
        )
        if not self._draw(p, True, True, events):
            self._exhausted(events)

    def _make_standing(self, p: int, d: int, events: list[Event]) -> bool:
        """The discard after ``declare``: lock the hand. False if the hand ended (strict)."""
        w = self.pending_declare
        assert w is not None
        self.pending_declare = None
        if self.opts.strict and not self._is_standing_after(p, d, w):
            self._penalise(p, PENALTY_FALSE_MAHJONG, FALSE_STANDING, events)
            self._void_hand(FALSE_STANDING, events)
            return False
        c = self.conc[p]
        c[d] -= 1
        self.standing[p] = w
        self.standing_hand[p] = expand(c)
        c[d] += 1
        shown = hand_text(self.standing_hand[p] or [])
        events.append(
            Event(
                "declare",
                Text(
                    "{name} declares a standing hand, one card from Mah-Jongg, calling {card} "
                    "(hand shown: {shown}).",
                    name=self._n(p),
                    card=name(w),
                    shown=shown,
                ),
                seat=p,
                data={"card": CODES[w]},
            )
        )
        return True

    # ----- claims ---------------------------------------------------------------------------------
    def _resolve_claims(self, events: list[Event]) -> None:
        t = self.claim["card"]
        d = self.claim["by"]
        answers: dict[int, str] = self.claim["answers"]
        strict = self.opts.strict
        by_kind: dict[str, list[int]] = {"mahjong": [], "kong": [], "pung": [], "chow": []}
        for p, code in answers.items():
            verb = code.split()[0]
            if verb == "pass":
                continue
            if strict and verb != "mahjong" and not self._claim_valid(p, code, t):
                self._penalise(p, PENALTY_FALSE_CLAIM, FALSE_CLAIM[verb], events)
                continue
            by_kind[verb].append(p)
        mj = by_kind["mahjong"]
        if strict and mj:
            valid = [p for p in mj if self._claim_valid(p, "mahjong", t)]
            false = [p for p in mj if p not in valid]
            if false and not valid:
                for p in false:
                    self._penalise(p, PENALTY_FALSE_MAHJONG, FALSE_MAHJONG, events)
                self._void_hand(FALSE_MAHJONG, events)
                return
            for p in false:
                self._penalise(p, PENALTY_WRONG_MAHJONG, WRONG_MAHJONG, events)
            mj = valid
        self.claim = {}
        if mj:
            if len(mj) == 1:
                p = mj[0]
            else:
                ranks = {q: self._mahjong_rank(q, t) for q in mj}
                p = min(mj, key=lambda q: (-ranks[q], self.distance(d, q)))
            self._take_discard(d, t)
            self.conc[p][t] += 1
            self._win(p, self_drawn=False, tile=t, discarder=d, events=events)
            return
        for kind in ("kong", "pung", "chow"):
            claimants = by_kind[kind]
            if not claimants:
                continue
            p = min(claimants, key=lambda q: self.distance(d, q))
            self._take_discard(d, t)
            c = self.conc[p]
            if kind == "chow":
                low = INDEX[answers[p].split()[1]]
                for x in (low, low + 1, low + 2):
                    if x != t:
                        c[x] -= 1
                self.melds[p].append(("chow", low, False))
                events.append(
                    Event(
                        "claim",
                        Text(
                            "{name} claims {card} from {other}: chow {cards}.",
                            name=self._n(p),
                            card=name(t),
                            other=self._n(d),
                            cards=run_name(low),
                        ),
                        seat=p,
                        data={"card": CODES[t], "claim": "chow"},
                    )
                )
            else:
                c[t] -= 3 if kind == "kong" else 2
                self.melds[p].append((kind, t, False))
                events.append(
                    Event(
                        "claim",
                        Text(
                            "{name} claims {card} from {other}: kong.",
                            name=self._n(p),
                            card=name(t),
                            other=self._n(d),
                        )
                        if kind == "kong"
                        else Text(
                            "{name} claims {card} from {other}: pung.",
                            name=self._n(p),
                            card=name(t),
                            other=self._n(d),
                        ),
                        seat=p,
                        data={"card": CODES[t], "claim": kind},
                    )
                )
            self.turn = p
            self.phase = DISCARD_PHASE
            self.drawn = None
            self.draw_src = ""
            if kind == "kong" and not self._draw(p, True, True, events):
                self._exhausted(events)
            return
        # nobody took it: the discard is dead
        self._turn_from(self.next_player(d), events)

    def _mahjong_rank(self, q: int, t: int) -> int:
        """How ``q``'s Mah-Jongg on the discard ``t`` ranks among several (special hand >
        completing a pung > a chow > the pair)."""
        c = list(self.conc[q])
        c[t] += 1
        hand = PlayerHand(tuple(c), tuple(self.melds[q]), (), self.wind[q], self.round_wind)
        return claim_rank(hand, t)

    def _claim_priority(self, p: int, code: str) -> tuple[int, int, int]:
        """Where ``p``'s claim ``code`` on the open window's discard stands in the order
        claims are resolved in (higher wins): kind, then between Mah-Jonggs the group the
        discard completes, then nearness to the discarder."""
        verb = code.split()[0]
        t, d = self.claim["card"], self.claim["by"]
        kind = CLAIM_KINDS.index(verb)
        rank = self._mahjong_rank(p, t) if verb == "mahjong" else 0
        return (kind, rank, -self.distance(d, p))

    def moot_answers(self) -> list[int] | None:
        """Once a claim is in (a kong declared before play), the seats still to answer whose
        answer cannot change the outcome: no claim of theirs would beat the best one made
        (before play: they hold no four). None while only passes are in. With the strict
        option a false claim costs points, so every answer matters."""
        if self.phase == PRELUDE and self.prelude:
            answers = self.prelude["answers"]
            if all(code == "pass" for code in answers.values()):
                return None
            return [p for p in self.to_act if self._prelude_options(p) == ["pass"]]
        if self.phase != CLAIM or not self.claim:
            return None
        made = [(p, code) for p, code in self.claim["answers"].items() if code != "pass"]
        if not made:
            return None
        if self.opts.strict:
            return []
        best = max(self._claim_priority(p, code) for p, code in made)
        moot = []
        for p in self.to_act:
            claims = [code for code in self.claim["options"][p] if code != "pass"]
            if all(self._claim_priority(p, code) < best for code in claims):
                moot.append(p)
        return moot

    def _claim_valid(self, p: int, code: str, t: int) -> bool:
        c = self.conc[p]
        words = code.split()
        verb = words[0]
        if verb == "pung":
            return c[t] >= 2
        if verb == "kong":
            return c[t] >= 3
        if verb == "chow":
            low = INDEX[words[1]]
            return all(c[x] >= 1 for x in (low, low + 1, low + 2) if x != t)
        if verb == "mahjong":
            if self.standing[p] is not None and self.standing[p] != t:
                return False
            c[t] += 1
            ok = is_mahjong(c, self.melds[p], self.wind[p], self.round_wind, False)
            c[t] -= 1
            return ok
        return False

    def _take_discard(self, d: int, t: int) -> None:
        river = self.river[d]
        assert river and river[-1] == t
        river.pop()

    # ----- Mah-Jongg ----------------------------------------------------------------------------
    def _self_drawn_mahjong(self, p: int, events: list[Event]) -> None:
        melds = self.melds[p]
        if self.opts.strict and not is_mahjong(
            self.conc[p], melds, self.wind[p], self.round_wind, all(m[2] for m in melds)
        ):
            self._penalise(p, PENALTY_FALSE_MAHJONG, FALSE_MAHJONG, events)
            self._void_hand(FALSE_MAHJONG, events)
            return
        self._win(p, self_drawn=True, tile=self.drawn, discarder=None, events=events)

    def _visible_copies(self, t: int) -> int:
        n = sum(r.count(t) for r in self.river)
        for melds in self.melds:
            for k, mt, _ in melds:
                if k == "chow":
                    n += mt <= t <= mt + 2
                elif mt == t:
                    n += 4 if k == "kong" else 3
        return n

    def _win(
        self, p: int, self_drawn: bool, tile: int | None, discarder: int | None, events: list[Event]
    ) -> None:
        original = self_drawn and p == self.round_player and self.discards == 0
        if original:
            tile = None
        from_box = self_drawn and tile is not None and self.draw_src in ("box", "kong")
        last_of_type = False
        if tile is not None:
            if self.opts.last_card == "last_copy":
                last_of_type = self._visible_copies(tile) == 3
            else:
                c = list(self.conc[p])
                c[tile] -= 1
                melds = self.melds[p]
                concealed_ok = self_drawn and all(m[2] for m in melds)
                last_of_type = mahjong_waits(
                    c, melds, self.wind[p], self.round_wind, concealed_ok
                ) == [tile]
        info = WinInfo(
            self_drawn=self_drawn,
            tile=tile,
            from_box=from_box,
            after_kong=from_box and self.draw_src == "kong",
            last_wall=self_drawn
            and tile is not None
            and self.draw_src == "wall"
            and self.last_wall_draw,
            last_of_type=last_of_type,
            standing=self.standing[p] is not None,
            original=original,
            earth=not self_drawn and self.discards == 1,
        )
        self.winner = p
        self.win = {"info": info, "discarder": discarder}
        who = self._n(p)
        if original:
            text = Text(
                "Mah-Jongg! {name} goes out with the original hand. The others take one more turn.",
                name=who,
            )
        elif self_drawn and tile is not None:
            text = Text(
                "Mah-Jongg! {name} goes out by wall on {card}. The others take one more turn.",
                name=who,
                card=name(tile),
            )
        elif self_drawn:
            text = Text(
                "Mah-Jongg! {name} goes out by wall. The others take one more turn.", name=who
            )
        else:
            assert discarder is not None and tile is not None
            text = Text(
                "Mah-Jongg! {name} goes out on {other}'s discard {card}. "
                "The others take one more turn.",
                name=who,
                other=self._n(discarder),
                card=name(tile),
            )
        events.append(
            Event(
                "mahjong",
                text,
                seat=p,
                data={"card": CODES[tile] if tile is not None else None},
            )
        )
        self.pending_declare = None
        self.claim = {}
        self.drawn = None
        self.phase = LAST
        q = p
        self.last_queue = []
        for _ in range(3):
            q = self.next_player(q)
            self.last_queue.append(q)
        self._run_last(events)

    def _run_last(self, events: list[Event]) -> None:
        """The others' one more turn each (no claims, no Mah-Jongg), then the scoring."""
        while self.last_queue:
            p = self.last_queue[0]
            self.turn = p
            if not self._draw(p, False, False, events):
                break  # the live wall ran out: stop early
            if self.standing[p] is not None:
                assert self.drawn is not None  # (_draw set it)
                self._discard(p, self.drawn, events, auto=True)
                self.last_queue.pop(0)
                continue
            self.phase = LAST
            return
        self.last_queue = []
        self._score_hand(events)

    # ----- end of a hand ------------------------------------------------------------------------
    def _player_hand(self, p: int) -> PlayerHand:
        return PlayerHand(
            tuple(self.conc[p]),
            tuple(self.melds[p]),
            tuple(self.extras[p]),
            self.wind[p],
            self.round_wind,
        )

    def _score_hand(self, events: list[Event]) -> None:
        w = self.winner
        assert w is not None and self.win is not None
        info: WinInfo = self.win["info"]
        sheets: list[Sheet] = []
        for p in range(4):
            hand = self._player_hand(p)
            sheets.append(score_winner(hand, info) if p == w else score_non_winner(hand))
        totals = [s.total for s in sheets]
        rp = self.round_player
        deltas = settle(totals, w, rp, classical=self.opts.settlement == "classical")
        for p in range(4):
            self.totals[p] += deltas[p]
        pay = 16 if w == rp else 8
        entry = self._history_entry("mahjong")
        entry["winner"] = w
        entry["win"] = {
            "by": "wall" if info.self_drawn else "discard",
            "card": CODES[info.tile] if info.tile is not None else None,
            "from": self.win["discarder"],
            "original": info.original,
            "standing": info.standing,
        }
        entry["sheets"] = [
            {**sheets[p].as_dict(), "payment": pay * 3 if p == w else -pay} for p in range(4)
        ]
        entry["deltas"] = deltas
        entry["totals"] = list(self.totals)
        self.history.append(entry)
        lines = [
            Text(
                "{name} {total} ({special}) → {delta}",
                name=self._n(p),
                total=totals[p],
                special=sheets[p].special,
                delta=f"{deltas[p]:+d}",
            )
            if sheets[p].special
            else Text(
                "{name} {total} → {delta}",
                name=self._n(p),
                total=totals[p],
                delta=f"{deltas[p]:+d}",
            )
            for p in range(4)
        ]
        events.append(
            Event(
                "deal_end",
                Text(
                    "Hand {n} won by {name}. Hand totals: {lines}.",
                    n=self.hand_no,
                    name=self._n(w),
                    lines=semicolons(lines),
                ),
                seat=w,
                data={"deal": self.hand_no, "deltas": deltas},
            )
        )
        self._end_hand(w, events)

    def _history_entry(self, outcome: str) -> HandRecord:
        return {
            "deal": self.hand_no,
            "outcome": outcome,
            "round_wind": WIND_CODES[self.round_wind],
            "round_player": self.round_player,
            "winds": [WIND_CODES[w] for w in self.wind],
            "winner": None,
            "win": None,
            "sheets": None,
            "hands": [self._public_hand(p) for p in range(4)],
            "deltas": [0, 0, 0, 0],
            "totals": list(self.totals),
            "penalties": list(self.penalties),
        }

    def _public_hand(self, p: int) -> PublicHand:
        return {
            "concealed": [CODES[t] for t in expand(self.conc[p])],
            "melds": [_meld_view(m) for m in self.melds[p]],
            "extras": [CODES[e] for e in self.extras[p]],
        }

    def _exhausted(self, events: list[Event]) -> None:
        if self.winner is not None:
            # the live wall ran out during the one more turn: score now
            self.last_queue = []
            self._score_hand(events)
            return
        entry = self._history_entry("draw")
        self.history.append(entry)
        events.append(
            Event(
                "deal_end",
                Text(
                    "Hand {n} is a draw: the wall is exhausted. No scores; the hand is replayed.",
                    n=self.hand_no,
                ),
                data={"deal": self.hand_no, "deltas": [0, 0, 0, 0]},
            )
        )
        self._end_hand(None, events)

    def _penalise(self, p: int, points: int, why: Text, events: list[Event]) -> None:
        self.totals[p] -= points
        self.penalties.append({"seat": p, "points": -points, "reason": why})
        events.append(
            Event(
                "penalty",
                Text(
                    "{name} loses {points} points: {reason}.",
                    name=self._n(p),
                    points=points,
                    reason=why,
                ),
                seat=p,
            )
        )

    def _void_hand(self, why: Text, events: list[Event]) -> None:
        entry = self._history_entry("void")
        entry["reason"] = why
        deltas = [0, 0, 0, 0]
        for pen in self.penalties:
            deltas[pen["seat"]] += pen["points"]
        entry["deltas"] = deltas
        self.history.append(entry)
        events.append(
            Event(
                "deal_end",
                Text(
                    "Hand {n} is void ({reason}); it is replayed without scoring.",
                    n=self.hand_no,
                    reason=why,
                ),
                data={"deal": self.hand_no, "deltas": entry["deltas"]},
            )
        )
        self._end_hand(None, events)

    def _end_hand(self, winner: int | None, events: list[Event]) -> None:
        self.claim = {}
        self.pending_declare = None
        if winner is not None and winner != self.round_player:
            self.wind = [(w + 1) % 4 for w in self.wind]
            self.by_wind = self._by_wind()
            self.rotations += 1
            if self.rotations < self.opts.rounds:
                new_round = self.rotations // 4
                if new_round != self.round_wind:
                    self.round_wind = new_round
                    events.append(
                        Event(
                            "round",
                            Text("The round wind is now {wind}.", wind=WIND_NAMES[new_round]),
                        )
                    )
        if self.rotations >= self.opts.rounds or (
            self.opts.max_hands and self.hand_no >= self.opts.max_hands
        ):
            self.over = True
            self.phase = OVER
            best = max(self.totals)
            winners: str | Text = ""
            for p in range(4):
                if self.totals[p] == best:
                    winners = (
                        Text("{first} and {second}", first=winners, second=self._n(p))
                        if winners
                        else self._n(p)
                    )
            events.append(
                Event(
                    "game_end",
                    ntext(
                        "The game is over. {names} wins with {points} point.",
                        "The game is over. {names} wins with {points} points.",
                        best,
                        names=winners,
                        points=best,
                    ),
                    data={"scores": list(self.totals)},
                )
            )
            return
        self._start_hand(events)

    # ----- views ------------------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> MahjongView:
        common = self._common(seat)  # (first: it refuses a seat not at the table)
        return {**self._view(seat), **common}

    def _view(self, seat: int | None) -> MahjongPart:
        own = seat is not None and 0 <= seat < 4
        claim: Claim | None = None
        if self.phase == CLAIM and self.claim:
            claim = {
                "card": CODES[self.claim["card"]],
                "by": self.claim["by"],
                "asked": sorted(self.claim["options"]),
                "waiting": self.to_act,
            }
            if own and seat in self.claim["options"]:
                claim["my_options"] = list(self.claim["options"][seat])
                claim["my_answer"] = self.claim["answers"].get(seat)
        prelude: Prelude | None = None
        if self.phase == PRELUDE and self.prelude:
            prelude = {"asked": sorted(self.prelude["order"]), "waiting": self.to_act}
            if own and seat is not None and seat in self.prelude["order"]:
                prelude["my_options"] = self._prelude_options(seat)
                prelude["my_answer"] = self.prelude["answers"].get(seat)
        win: Win | None = None
        if self.winner is not None and self.win is not None and not self.over:
            info: WinInfo = self.win["info"]
            win = {
                "winner": self.winner,
                "by": "wall" if info.self_drawn else "discard",
                "card": CODES[info.tile] if info.tile is not None else None,
                "from": self.win["discarder"],
                "hand": self._public_hand(self.winner),
            }
        hand: list[str] | None = None
        drawn: str | None = None
        pending_declare: str | None = None
        if own:
            assert seat is not None
            hand = [CODES[t] for t in expand(self.conc[seat])] + [
                CODES[e] for e in self.held_extras[seat]
            ]
            drawn = (
                CODES[self.drawn]
                if self.drawn is not None
                and self.turn == seat
                and self.phase in (DISCARD_PHASE, LAST)
                else None
            )
            pending_declare = (
                CODES[self.pending_declare]
                if self.pending_declare is not None and self.turn == seat
                else None
            )
        v: MahjongPart = {
            "title": TITLE_TEXT,
            "phase": self.phase,
            "deal": self.hand_no,
            "deals": None,
            "rounds": self.opts.rounds,
            "rounds_played": min(self.rotations, self.opts.rounds),
            "round_wind": WIND_CODES[self.round_wind],
            "seat_winds": [WIND_CODES[w] for w in self.wind],
            "round_player": self.round_player,
            "dealer": self.round_player,
            "east": self.by_wind[0],
            "turn": None if self.over else self.turn,
            "melds": [[_meld_view(m) for m in self.melds[p]] for p in range(4)],
            "extras": [[CODES[e] for e in self.extras[p]] for p in range(4)],
            "rivers": [[CODES[t] for t in self.river[p]] for p in range(4)],
            "wall": self.live_count,
            "kong_box": self.box_count,
            "hand_counts": [sum(self.conc[p]) + len(self.held_extras[p]) for p in range(4)],
            "standing": [self._standing_view(p) for p in range(4)],
            "claim": claim,
            "prelude": prelude,
            "win": win,
            "history": self.history,
            "options": {
                "game": self.opts.game,
                "strict": self.opts.strict,
                "last_card": self.opts.last_card,
                "settlement": self.opts.settlement,
                "random_seats": self.opts.random_seats,
                "max_hands": self.opts.max_hands,
            },
            "hand": hand,
            "drawn": drawn,
            "pending_declare": pending_declare,
        }
        return v

    def _standing_view(self, p: int) -> Standing | None:
        card = self.standing[p]
        if card is None:
            return None
        return {"card": CODES[card], "hand": [CODES[t] for t in self.standing_hand[p] or []]}


def _meld_view(m: Meld) -> MeldView:
    kind, t, concealed = m
    cards = [t, t + 1, t + 2] if kind == "chow" else [t] * (4 if kind == "kong" else 3)
    return {"kind": kind, "cards": [CODES[x] for x in cards], "concealed": concealed}


def _chow_table() -> tuple[tuple[tuple[str, int, int], ...], ...]:
    """For each suited card: the chows it can complete (code, the two other cards)."""
    out = []
    for t in range(NUM_KINDS):
        row = []
        if t < 27:
            for low in (t - 2, t - 1, t):
                if low >= 0 and low // 9 == t // 9 and low % 9 <= 6:
                    others = [x for x in (low, low + 1, low + 2) if x != t]
                    code = f"chow {CODES[low]} {CODES[low + 1]} {CODES[low + 2]}"
                    row.append((code, others[0], others[1]))
        out.append(tuple(row))
    return tuple(out)


CHOWS = _chow_table()


def describe(code: str) -> str:
    """A short label for an action code."""
    words = code.split()
    if not words:
        return code
    verb = words[0]
    card = name(INDEX[words[1]]) if len(words) == 2 and words[1] in INDEX else None
    if verb == "discard" and card:
        return Text("Discard {card}", card=card)
    if verb == "kong" and card:
        return Text("Concealed kong of {card}", card=card)
    if verb == "extend" and card:
        return Text("Add {card} to your pung", card=card)
    if verb == "declare" and card:
        return Text("Declare standing hand on {card}", card=card)
    if verb == "chow" and len(words) == 4 and all(w in INDEX for w in words[1:]):
        low = INDEX[words[1]]
        if low < 27:
            return Text(
                "Chow {low}-{mid}-{high} {suit}",
                low=low % 9 + 1,
                mid=low % 9 + 2,
                high=low % 9 + 3,
                suit=SUIT_NAMES[low // 9],
            )
    return VERB_LABELS.get(verb, code)


#: The labels of the actions without a card.
VERB_LABELS: dict[str, Text] = {
    "mahjong": Text("Mah-Jongg!"),
    "pung": Text("Pung"),
    "kong": Text("Kong"),
    "pass": Text("Pass"),
}


def new_game(
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | MahjongOptions | None = None,
    deck: Any = None,
) -> MahjongState:
    """A new game. ``deck``: a stacked deck (codes, top first; may be partial) or a list of
    decks, one per hand (see the package docstring)."""
    opts = (
        options if isinstance(options, MahjongOptions) else parse_options(MahjongOptions, options)
    )
    return MahjongState(seed, players, opts, parse_deck(deck))
