"""Mushi's AI levels: easy, normal and strong."""

from __future__ import annotations

import random
from collections import Counter

from bot.engine.search import Budget
from bot.games.mushi import DECK, SPEC, choose, new_game
from bot.games.mushi.ai import (
    _by_month,
    _choices,
    _Position,
    choose_easy,
)
from bot.games.mushi.rules import MushiState, capture_choices, sort_mushi
from bot.games.mushi.strong import (
    World,
    _parse,
    sample_world,
    searchable,
    solve,
    unseen_cards,
)
from bot.games.mushi.strong import (
    choose_strong as search,
)
from tests.games.mushi.mushi_helpers import swap_hidden

FIXED = Budget(samples=6, seconds=None)  # deterministic: no clock


def _positions(seeds: range, every: int = 1) -> list[tuple[MushiState, int]]:
    out = []
    for seed in seeds:
        state = new_game(seed, ["A", "B"], {"hands": 6})
        rng = random.Random(seed)
        step = 0
        while not state.is_over:
            seat = state.to_act[0]
            if step % every == 0:
                out.append((state.clone(), seat))
            state.apply(seat, choose(state.view(seat), state.legal_actions(seat), rng))
            step += 1
    return out


def test_the_spec_declares_easy_normal_and_strong() -> None:
    assert list(SPEC.ai_levels()) == ["easy", "normal", "strong"]
    assert SPEC.ai("normal") is choose is SPEC.choose
    assert SPEC.ai("") is choose
    assert SPEC.ai("easy") is choose_easy
    assert SPEC.ai("strong") is search


def test_every_level_returns_a_legal_action_at_every_decision_of_seeded_playouts() -> None:
    searched = 0
    for state, seat in _positions(range(2)):
        view, legal = state.view(seat), state.legal_actions(seat)
        for level in SPEC.ai_levels().values():
            assert level(view, legal, random.Random(3)) in legal
        if searchable(view, legal):
            searched += 1
            assert search(view, legal, random.Random(3), FIXED) in legal
    assert searched > 10  # the endgame search really ran


def test_the_fast_matching_of_normal_agrees_with_the_rules() -> None:
    rng = random.Random(7)
    for _ in range(500):
        table = rng.sample(DECK, rng.randrange(0, 12))
        by_month = _by_month(table)
        for code in DECK:
            if code in table:
                continue
            fast = sorted(sort_mushi(t) for t in _choices(code, by_month))
            assert fast == sorted(list(t) for t in capture_choices(code, table))


def _world(state: MushiState) -> World:
    return World(
        state.hands,
        state.table,
        state.stock,
        state.captures,
        elder=state.elder,
        current=state.current,
        set_aside=state.set_aside,
        wild_holder=state.wild_holder,
        flipped=state.flipped,
        bottom_rain=state.opts.bottom_wild_takes_rain,
    )


def test_the_search_world_plays_a_hand_exactly_as_the_rules_do() -> None:
    """Random hands under every option: the same moves, piles and hand score as the engine
    (wild duty, flip choices, bottom wild, set-aside rain, leftovers)."""
    hands = 0
    for seed in range(24):
        options = {
            "hands": 6,
            "bottom_wild_takes_rain": seed % 2 == 0,
            "elder_takes_table_four": seed % 3 == 0,
        }
        state = new_game(seed, ["A", "B"], options)
        rng = random.Random(seed)
        world: World | None = None
        while not state.is_over:
            seat = state.to_act[0]
            legal = [c for c in state.legal_actions(seat) if c != "cancel"]
            if world is None:
                world, played = _world(state), len(state.history)
            moves = [
                f"take {t}" if c == "take" else f"play {c}" + (f" {t}" if t else "")
                for c, t in world.moves()
            ]
            assert sorted(moves) == sorted(legal)
            code = rng.choice(legal)
            state.apply(seat, code)
            world.play(*_parse(code))
            if len(state.history) > played:
                entry = state.history[-1]
                for s in (0, 1):
                    pile = [c for g in entry["captures"][s].values() for c in g]
                    assert sort_mushi(world.piles[s]) == sort_mushi(pile)
                assert world.score(0) == entry["scores"][0] and world.over
                world, hands = None, hands + 1
    assert hands > 100


def _visible(view: dict) -> Counter[str]:
    seen = Counter(view["hand"]) + Counter(view["table"]) + Counter(view["set_aside"])
    for pile in view["captures"]:
        for group in pile.values():
            seen.update(group)
    if view.get("pending"):
        seen[view["pending"]["card"]] += 1
    return seen


def test_the_strong_samples_hold_exactly_the_cards_the_seat_cannot_see() -> None:
    checked = 0
    for state, seat in _positions(range(2), every=3):
        view = state.view(seat)
        opp = 1 - seat
        unseen = Counter(DECK) - _visible(view)
        assert Counter(unseen_cards(view)) == unseen
        # The truly hidden cards are among the unseen ones, and only they are sampled.
        truth = Counter(state.hands[opp]) + Counter(state.stock)
        assert truth == unseen
        for k in range(3):
            world = sample_world(view, random.Random(k))
            assert Counter(world.hands[opp]) + Counter(world.stock) == unseen
            assert sorted(world.hands[seat]) == sorted(view["hand"])
            assert world.table == view["table"]
            assert len(world.hands[opp]) == len(state.hands[opp])
            assert len(world.stock) == len(state.stock)
            checked += 1
    assert checked > 50


def test_a_hidden_card_swapped_changes_neither_the_samples_nor_the_strong_choice() -> None:
    """Swap a card of the opponent's hand with one of the stock: the seat's view is the
    same, and so are its determinizations and the strong AI's choice."""
    compared = 0
    for state, seat in _positions(range(3)):
        view, legal = state.view(seat), state.legal_actions(seat)
        opp = 1 - seat
        if not searchable(view, legal) or not state.hands[opp] or not state.stock:
            continue
        twin = swap_hidden(state, seat)
        a = sample_world(view, random.Random(9))
        b = sample_world(twin.view(seat), random.Random(9))
        assert (a.hands, a.stock) == (b.hands, b.stock)
        assert search(view, legal, random.Random(5), FIXED) == search(
            twin.view(seat), legal, random.Random(5), FIXED
        )
        compared += 1
    assert compared > 5


def _minimax(world: World, me: int) -> float:
    """Plain minimax to the hand's end (no pruning)."""
    if world.over:
        return float(world.score(me))
    values = []
    for move in world.moves():
        child = world.copy()
        child.play(*move)
        values.append(_minimax(child, me))
    return max(values) if world.current == me else min(values)


def test_the_pruned_search_gives_the_exact_minimax_value_of_a_known_hand() -> None:
    """With nothing hidden, alpha-beta's value of the position and of each of its plays is
    plain minimax's: pruning never changes what the search thinks a play is worth."""
    checked = 0
    for state, seat in _positions(range(3)):
        if len(state.hands[seat]) not in (2, 3) or state.current != seat:
            continue
        world = _world(state)
        me = seat

        def value(w: World, me: int = me) -> int:
            return w.score(me)

        assert solve(world, me, value, -1e9, 1e9) == _minimax(world, me)
        for move in world.moves():
            child = world.copy()
            child.play(*move)
            assert solve(child, me, value, -1e9, 1e9) == _minimax(child, me)
        checked += 1
    assert checked > 10


def test_the_easy_level_plays_legal_moves_and_repeats_with_the_same_dice() -> None:
    for state, seat in _positions(range(1), every=4):
        view, legal = state.view(seat), state.legal_actions(seat)
        first = choose_easy(view, legal, random.Random(1))
        assert first in legal and first == choose_easy(view, legal, random.Random(1))


def test_the_easy_ai_captures_when_it_can_unless_normal_would_not() -> None:
    """Its mistakes are which capture to make, never laying a card while normal captures."""
    met = 0
    for state, seat in _positions(range(3)):
        view, legal = state.view(seat), state.legal_actions(seat)
        if view["phase"] != "play" or len(legal) == 1:
            continue
        for k in range(3):
            code = choose_easy(view, legal, random.Random(k))
            assert code in legal and code != "cancel"
            words = code.split()
            took = len(words) == 3 or capture_choices(words[1], view["table"])[0]
            if not took:
                met += 1
                can = any(
                    c != "cancel"
                    and (len(c.split()) == 3 or capture_choices(c.split()[1], view["table"])[0])
                    for c in legal
                )
                # The easy AI's own dice: one roll chose "play like normal" here.
                dice = random.Random(k)
                dice.random()
                plays = [c for c in legal if c != "cancel"]
                assert not can or code == choose(view, plays, dice)
    assert met > 0


def _position(
    hand: str, table: str, mine: str = "", theirs: str = "", opp: str = "", elder: int = 0
) -> MushiState:
    """Seat 0 (to play) holds ``hand``; ``table`` face up; ``mine`` and ``theirs`` are the
    piles; seat 1 holds ``opp`` (default: as many cards as ours, the first in deck order of
    the rest); the other cards are the stock, in deck order, its top card last. Cards are
    written as the rules write them, separated by spaces."""
    state = new_game(1, ["A", "B"], {})
    cards = [hand.split(), table.split(), mine.split(), theirs.split(), opp.split()]
    used = {c for group in cards for c in group}
    rest = [c for c in DECK if c not in used]
    if not opp:
        cards[4], rest = rest[: len(cards[0])], rest[len(cards[0]) :]
    state.hands = [cards[0], cards[4]]
    state.stock = rest
    state.table = cards[1]
    state.captures = [cards[2], cards[3]]
    state.elder, state.current = elder, 0
    return state


def test_normal_takes_a_rain_pair_which_brings_the_third_rain_card() -> None:
    """Rain cards pair only with each other, so the third stays on the table and goes to
    whoever took the other two (rule 8): the Rain Man's 20 points come with 11a + 11r.
    Worth 35, more than 9a taking 9r (15), which normal chose before it counted that."""
    state = _position("11a 9a 2p1 4p1 9p1 10p2 12p1 1p1", "11r 9r 3p1 5p2 10p1 2r 12p2 4p2")
    view, legal = state.view(0), state.legal_actions(0)
    assert _Position(view).value(["11a", "11r"]) == 35
    assert choose(view, legal, random.Random(1)) == "play 11a"


def test_normal_wild_taken_counts_the_leftover_its_holder_receives() -> None:
    """The wild takes 3p1: of Cherry's three other cards one is left unpaired at the end
    and goes to the wild's holder (rule 8), on average (20 + 5 + 1) / 3 card points."""
    state = _position("11p1 9a", "3p1 9r")
    assert _Position(state.view(0)).value(["11p1", "3p1"]) == 2 + 26 / 3


def test_strong_solves_the_end_of_the_hand_where_normal_lays_the_wrong_card() -> None:
    """Two cards each: normal's one-ply heuristic lays the junk 12p2, strong's exact search
    over determinizations the ribbon 10r, and against the true deal (seat 1 holds 12p3,
    which takes 12p2) 10r is indeed worth more."""
    state = _position(
        "10r 12p2",
        "11a 3b",
        mine="11p1 5a 1p2 1r 11r 11b 4p2 4r 9p2 9r 3r 3p2 12b 12p1",
        theirs="1p1 1b 8a 8p1 9p1 9a 10p1 10p2 2a 2p2 4a 4p1 8b 8p2 5p2 5p1 2r 2p1",
        opp="12p3",
        elder=1,
    )
    state.stock = ["10a", "5r", "3p1"]
    view, legal = state.view(0), state.legal_actions(0)
    assert choose(view, legal, random.Random(0)) == "play 12p2"
    assert searchable(view, legal)
    assert search(view, legal, random.Random(0), Budget(samples=32, seconds=None)) == "play 10r"
    exact = {}
    for code in ("play 12p2", "play 10r"):
        world = _world(state)
        world.play(*_parse(code))
        exact[code] = solve(world, 0, lambda w: w.score(0), -1e9, 1e9)
    assert exact["play 10r"] > exact["play 12p2"]
