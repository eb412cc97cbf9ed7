"""Whole games with random legal actions (and some AI seats): nothing crashes, the 144 cards
are conserved at every step, no hidden card reaches another seat's view, replay equals the
live state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.mahjong import choose, new_game, replay
from bot.games.mahjong.tiles import CODES, NUM_KINDS

try:
    from .mahjong_helpers import FULL, PLAYERS, all_cards
except ImportError:
    from mahjong_helpers import FULL, PLAYERS, all_cards

PRIVATE = ("hand", "drawn", "pending_declare", "seat", "claim", "prelude")


def public_part(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in PRIVATE}


def check_state(g) -> None:  # type: ignore[no-untyped-def]
    assert all_cards(g) == FULL
    spectator = g.view(None)
    assert spectator["hand"] is None and spectator["drawn"] is None
    if not g.is_over:
        assert g.to_act, "somebody must have a decision"
        for seat in g.to_act:
            assert g.legal_actions(seat), f"seat {seat} is asked but has no legal action"
    for seat in range(4):
        v = g.view(seat)
        # a seat sees exactly the spectator's view plus its own private fields
        assert public_part(v) == public_part(spectator)
        own = sorted(CODES[t] for t in range(NUM_KINDS) for _ in range(g.conc[seat][t]))
        own += [CODES[e] for e in g.held_extras[seat]]
        assert sorted(v["hand"]) == sorted(own)
        if v["drawn"] is not None:
            assert v["drawn"] in v["hand"]
        claim = v["claim"]
        if claim is not None:
            # the public part of a claim window is the spectator's; others' answers never show
            mine = {k: claim[k] for k in claim if k.startswith("my_")}
            assert {k: claim[k] for k in claim if k not in mine} == spectator["claim"]
            assert set(mine) <= {"my_options", "my_answer"}
            assert mine.get("my_answer") in (None, *g.claim["options"].get(seat, []))
        else:
            assert spectator["claim"] is None
        prelude = v["prelude"]
        if prelude is not None:
            # before play likewise: only the seat's own options and answer are added
            mine = {k: prelude[k] for k in prelude if k.startswith("my_")}
            assert {k: prelude[k] for k in prelude if k not in mine} == spectator["prelude"]
            assert set(mine) == {"my_options", "my_answer"}
            assert mine["my_answer"] in (None, *mine["my_options"])
        else:
            assert spectator["prelude"] is None
        # effective hand size: 13 between turns, 14 for the player about to discard
        eff = sum(g.conc[seat]) + 3 * len(g.melds[seat]) + len(g.held_extras[seat])
        assert eff in (13, 14)
    for e in g.events[-6:]:
        if e.private_to is not None:
            assert e.private_to in range(4)


def run(seed: int, ai_seats: frozenset[int], options: dict, steps: int = 4000):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    g = new_game(seed, PLAYERS, options)
    for _ in range(steps):
        if g.is_over:
            break
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        code = choose(g.view(seat), legal, rng) if seat in ai_seats else rng.choice(legal)
        g.apply(seat, code)
        check_state(g)
    return g


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    ai_seats=st.frozensets(st.integers(0, 3)),
    strict=st.booleans(),
    extended=st.booleans(),
)
def test_random_games_conserve_cards_and_hide_hands(
    seed: int, ai_seats: frozenset[int], strict: bool, extended: bool
) -> None:
    options = {
        "max_hands": 3,
        "strict": strict,
        "game": "extended" if extended else "regular",
        "settlement": "classical" if seed % 2 else "addup",
    }
    g = run(seed, ai_seats, options)
    assert g.is_over
    r = replay(seed, PLAYERS, options, g.log)
    assert r.snapshot() == g.snapshot()
    assert len(g.history) == g.hand_no
    for h in g.history:
        assert h["outcome"] in ("mahjong", "draw", "void")
        if h["outcome"] == "mahjong":
            assert len(h["sheets"]) == 4
            if options["settlement"] == "classical":
                assert sum(h["deltas"]) == 0


def test_ai_game_reaches_the_natural_end() -> None:
    """Four AI players finish a regular game by its four seat changes."""
    g = run(11, frozenset({0, 1, 2, 3}), {}, steps=20000)
    assert g.is_over and g.rotations == 4
    assert [e.kind for e in g.events].count("deal_end") == g.hand_no
    assert g.result().placements
