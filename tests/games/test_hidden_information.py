"""Hidden information, for every game: two states that differ only in hidden cards look
the same to everyone who cannot see those cards.

Card-code leak checks (the per-game playout tests) catch a hidden card written into a view;
these catch *derived* information too (who holds a bomb, who could claim, who holds four of
a kind...). For states met in seeded random playouts, a twin is built by dealing the
current deal again with two hidden cards exchanged (between two hands, or a hand and the
undrawn stock/wall, or within the stock) and replaying the same action log. When the log
still replays and the deal count is unchanged, the twin is a real state that differs from
the original only in those cards: the spectator and every seat that sees neither of the two
places must get the same view and the same events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from bot.engine import IllegalAction, State
from bot.games.koikoi import rules as koikoi_rules
from bot.games.mahjong import rules as mahjong_rules
from bot.games.mahjong.tiles import NUM_KINDS
from bot.games.mushi import rules as mushi_rules
from bot.games.panda import rules as panda_rules
from bot.games.panda.cards import CAT, CATFISH, PANDA, STORK
from bot.games.sandayi import rules as sandayi_rules
from tests.engine.random_states import GAMES, sample_states

Deck = Sequence[Any]


@dataclass(frozen=True)
class Swap:
    """Exchange two hidden cards of the current deal: by code (``a``, ``b`` are card codes)
    or, for Mah-Jongg whose cards come four alike, by deck position."""

    a: Any
    b: Any
    #: Seats that see one of the two places (their own hand): their view may change.
    seen_by: frozenset[int]


def _swap_codes(deck: Deck, a: str, b: str) -> Deck:
    out = [b if c == a else a if c == b else c for c in deck]
    return tuple(out) if isinstance(deck, tuple) else out


def _swap_positions(deck: Deck, i: int, j: int) -> Deck:
    out = list(deck)
    out[i], out[j] = out[j], out[i]
    return out


@contextmanager
def _dealing(game: str, target: int, swap: Swap) -> Iterator[None]:
    """While active, deal number ``target`` of ``game`` comes out with ``swap`` applied."""
    if game in ("koikoi", "mushi"):
        module = koikoi_rules if game == "koikoi" else mushi_rules
        original = module.next_deck

        def next_deck(stacked: Any, cards: Any, seed: Any, deal_no: int) -> Any:
            deck = original(stacked, cards, seed, deal_no)
            return _swap_codes(deck, swap.a, swap.b) if deal_no == target else deck

        patches: list[tuple[Any, str, Any]] = [(module, "next_deck", next_deck)]
    elif game in ("panda", "sandayi"):
        module = panda_rules if game == "panda" else sandayi_rules
        original = module.shuffled
        calls = [0]  # in these modules ``shuffled`` deals, once per deal

        def shuffled(items: Any, rng: Any) -> Any:
            deck = original(items, rng)
            calls[0] += 1
            return _swap_codes(deck, swap.a, swap.b) if calls[0] == target else deck

        patches = [(module, "shuffled", shuffled)]
    else:
        original = mahjong_rules.MahjongState._deck_for

        def _deck_for(self: Any, n: int) -> Any:
            deck = original(self, n)
            return _swap_positions(deck, swap.a, swap.b) if n == target else deck

        patches = [(mahjong_rules.MahjongState, "_deck_for", _deck_for)]
    saved = [(obj, name, getattr(obj, name)) for obj, name, _ in patches]
    try:
        for obj, name, value in patches:
            setattr(obj, name, value)
        yield
    finally:
        for obj, name, value in saved:
            setattr(obj, name, value)


def _deal_number(state: State) -> int:
    """The index ``_dealing`` uses for the current deal."""
    return {
        "koikoi": lambda s: s.deal_count,
        "mushi": lambda s: s.deal_count,
        "panda": lambda s: s.deal_no,
        "sandayi": lambda s: s.deals_done,
        "mahjong": lambda s: s.hand_no,
    }[state.game](state)


def twin(state: State, swap: Swap) -> State | None:
    """The state reached by the same actions from the current deal with ``swap`` applied,
    or None if the actions no longer fit or the twin was dealt differently."""
    module = GAMES[state.game]
    with _dealing(state.game, _deal_number(state), swap):
        try:
            other = module.replay(state.seed, state.players, state.options, state.log)
        except IllegalAction:
            return None
    if _deal_number(other) != _deal_number(state):
        return None  # a redeal or a new round went differently: not the same public story
    return other


# ----- where the hidden cards are, per game -----------------------------------------------


def _pairs(rng: random.Random, xs: Sequence[Any], ys: Sequence[Any], n: int = 2) -> list[tuple]:
    out = [(x, y) for x in xs for y in ys if x != y]
    rng.shuffle(out)
    return out[:n]


def _hanafuda_swaps(state: Any, rng: random.Random, stock: list[str]) -> list[Swap]:
    hands = [list(h) for h in state.hands]
    swaps = [Swap(a, b, frozenset({0, 1})) for a, b in _pairs(rng, hands[0], hands[1])]
    for s in (0, 1):
        swaps += [Swap(a, b, frozenset({s})) for a, b in _pairs(rng, hands[s], stock)]
    swaps += [Swap(a, b, frozenset()) for a, b in _pairs(rng, stock, stock)]
    return swaps


def koikoi_swaps(state: Any, rng: random.Random) -> list[Swap]:
    return _hanafuda_swaps(state, rng, list(state.stack))


def mushi_swaps(state: Any, rng: random.Random) -> list[Swap]:
    # The last stock card is the "bottom wild" candidate: any card of the stock may be it.
    return _hanafuda_swaps(state, rng, list(state.stock))


def panda_swaps(state: Any, rng: random.Random) -> list[Swap]:
    """Cards dealt to a hand and still there (not passed on, not received)."""
    moved = {c for g in state.given for c in g.values()}
    moved |= {c for r in state.received for c in r.values()}
    hands = [[c for c in h if c not in moved] for h in state.hands]
    swaps = []
    for a in range(4):
        for b in range(a + 1, 4):
            swaps += [Swap(x, y, frozenset({a, b})) for x, y in _pairs(rng, hands[a], hands[b], 1)]
            # Break up (or make) four of a kind: who holds a bomb is secret too.
            for x in hands[a]:
                if x in (STORK, CAT, CATFISH, PANDA):
                    continue
                same = [c for c in state.hands[a] if c[:-1] == x[:-1]]
                if len(same) == 4:
                    others = [y for y in hands[b] if y[:-1] != x[:-1]]
                    if others:
                        swaps.append(Swap(x, rng.choice(others), frozenset({a, b})))
                    break
    return swaps


def sandayi_swaps(state: Any, rng: random.Random) -> list[Swap]:
    public: set[str] = set()
    if state.declarer is not None:
        public |= set(state.kitty) | set(state.buried)  # the kitty is the declarer's
    if state.deals_done == 1:
        # The first bidder of the match holds the 3♦ (else the lowest diamond): public.
        public |= {c for c in sandayi_rules.DECK if c.endswith("D")}
    hands = [[c for c in h if c not in public] for h in state.hands]
    swaps = []
    for a in range(4):
        for b in range(a + 1, 4):
            swaps += [Swap(x, y, frozenset({a, b})) for x, y in _pairs(rng, hands[a], hands[b], 1)]
    if state.declarer is None:
        kitty = [c for c in state.kitty if c not in public]
        for a in range(4):
            swaps += [Swap(x, y, frozenset({a})) for x, y in _pairs(rng, hands[a], kitty, 1)]
    return swaps


def mahjong_swaps(state: Any, rng: random.Random) -> list[Swap]:
    """Deck positions: a card dealt to a player and a card still in the live wall, two
    dealt cards of different players, two undrawn wall cards. A dealt position whose kind
    the player no longer holds makes a twin whose log does not replay (then skipped)."""
    deck = mahjong_rules.MahjongState._deck_for(state, state.hand_no)
    order = [state.by_wind[(state.round_wind + i) % 4] for i in range(4)]
    dealt: dict[int, list[int]] = {}
    pos = 0
    for i, p in enumerate(order):
        n = mahjong_rules.HAND_SIZE + (1 if i == 0 else 0)
        dealt[p] = [k for k in range(pos, pos + n) if deck[k] < NUM_KINDS]
        pos += n
    start = pos  # the live wall begins here in the deck
    wall = [
        start + k
        for k in range(state.live_pos, state.live_end)
        if deck[start + k] < NUM_KINDS and k < len(state.live)
    ]
    swaps = []
    for p in range(4):
        mine = [k for k in dealt[p] if state.conc[p][deck[k]] > 0]
        pairs = [(x, y) for x, y in _pairs(rng, mine, wall, 3) if deck[x] != deck[y]]
        # Make or break a four of a kind in the hand: holders of four are asked before play.
        for k in mine:
            kind = deck[k]
            if state.conc[p][kind] == 3:
                fourth = [w for w in wall if deck[w] == kind]
                other = [x for x in mine if deck[x] != kind]
                if fourth and other:
                    pairs.append((other[0], fourth[0]))
            if state.conc[p][kind] == 4:
                other = [w for w in wall if deck[w] != kind]
                if other:
                    pairs.append((k, other[0]))
        # In a claim window: give or take away a pair of the discard (who may claim).
        if state.phase == "claim" and p != state.claim["by"]:
            t = state.claim["card"]
            if state.conc[p][t] == 1:
                copies = [w for w in wall if deck[w] == t]
                other = [x for x in mine if deck[x] != t]
                if copies and other:
                    pairs.append((other[0], copies[0]))
            if state.conc[p][t] == 2:
                mine_t = [x for x in mine if deck[x] == t]
                other = [w for w in wall if deck[w] != t]
                if mine_t and other:
                    pairs.append((mine_t[0], other[0]))
        swaps += [Swap(x, y, frozenset({p})) for x, y in pairs]
        for q in range(p + 1, 4):
            theirs = [k for k in dealt[q] if state.conc[q][deck[k]] > 0]
            swaps += [
                Swap(x, y, frozenset({p, q}))
                for x, y in _pairs(rng, mine, theirs, 1)
                if deck[x] != deck[y]
            ]
    swaps += [Swap(x, y, frozenset()) for x, y in _pairs(rng, wall, wall, 2) if deck[x] != deck[y]]
    return swaps


SWAPS: dict[str, Callable[[Any, random.Random], list[Swap]]] = {
    "koikoi": koikoi_swaps,
    "mushi": mushi_swaps,
    "panda": panda_swaps,
    "sandayi": sandayi_swaps,
    "mahjong": mahjong_swaps,
}


# ----- the property -----------------------------------------------------------------------


def _seen(state: State, viewer: int | None) -> tuple[Any, ...]:
    events = [
        (e.kind, e.text, e.seat, dict(e.data), e.private_to) for e in state.visible_events(viewer)
    ]
    return state.view(viewer), events


def differences(state: State, other: State, swap: Swap) -> list[str]:
    out = []
    for viewer in [None, *range(state.num_seats)]:
        if viewer in swap.seen_by:
            continue
        mine, theirs = _seen(state, viewer)[0], _seen(other, viewer)[0]
        if mine != theirs:
            keys = sorted(k for k in mine if mine.get(k) != theirs.get(k))
            out.append(f"view({viewer}) differs in {keys}")
        elif _seen(state, viewer)[1] != _seen(other, viewer)[1]:
            out.append(f"events seen by {viewer} differ")
    return out


def check_game(game: str, states: int, seed: int = 1, only: Callable[[State], bool] | None = None):
    rng = random.Random(f"hidden-{game}-{seed}")
    checked = 0
    for state in sample_states(game, seed, states):
        if only is not None and not only(state):
            continue
        for swap in SWAPS[game](state, rng):
            other = twin(state, swap)
            if other is None:
                continue
            found = differences(state, other, swap)
            assert not found, (
                f"{game}: exchanging hidden {swap.a!r} and {swap.b!r} (seen by"
                f" {sorted(swap.seen_by)}) after {state.log[-3:]} shows: {'; '.join(found)}"
            )
            checked += 1
    return checked


def _in_claim(state: State) -> bool:
    return getattr(state, "phase", None) == "claim"


def _before_first_discard(state: State) -> bool:
    return getattr(state, "discards", 0) == 0


@pytest.mark.parametrize("game", ["koikoi", "mushi", "panda", "sandayi"])
def test_hidden_cards_do_not_show_in_views(game: str) -> None:
    assert check_game(game, 12) > 20


def test_hidden_cards_do_not_show_in_mahjong_views_in_play() -> None:
    """From the first discard on, outside claim windows. (20 sampled states: since every
    hand opens with a prelude question to all four players, 12 happened to meet no state
    in play.)"""
    only = lambda s: not _in_claim(s) and not _before_first_discard(s)  # noqa: E731
    assert check_game("mahjong", 20, only=only) > 20


def test_hidden_cards_do_not_show_in_mahjong_claim_windows() -> None:
    assert check_game("mahjong", 30, only=_in_claim) > 5


def test_hidden_cards_do_not_show_in_mahjong_prelude() -> None:
    """Before the first discard: everyone is asked about concealed kongs, holding four of a
    kind or not, so making or breaking a four changes nothing anyone else sees."""
    assert check_game("mahjong", 30, only=_before_first_discard) > 5


def test_panda_nobody_learns_who_holds_an_ambush() -> None:
    """Issue: ``may_act`` (who could lay a bomb out of turn) was in every view. The same
    table with the fourth 7 in another hand looks the same to everyone but the two."""
    from tests.games.panda.panda_helpers import start_hand

    options = {"free_first_lead": True}
    with_bomb = start_hand(["stork 5t", "", "7t 7g 7r 7a 2t 2g 2r", "8a 3t 3g 3r"], options)
    without = start_hand(["stork 5t", "", "7t 7g 7r 8a 2t 2g 2r", "7a 3t 3g 3r"], options)
    for state in (with_bomb, without):
        for seat in (1, 2, 3):
            state.apply(seat, "call")  # nobody may call any more: only a bomb lets one act
        assert state.to_act == [0]
        state.apply(0, "play 5t")
    assert with_bomb.may_act == [2] and without.may_act == []
    assert with_bomb.view(2)["may_act"] == [2], "the bomb holder is told it may act"
    for viewer in (None, 0, 1):
        assert with_bomb.view(viewer) == without.view(viewer), viewer
