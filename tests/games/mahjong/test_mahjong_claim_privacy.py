"""Claim windows reveal nothing about who holds a matching card.

Every discard that may be claimed opens a window for all the other players (those who
cannot claim have only ``pass``), so nothing public — the spectator's view, the other
seats' views, the host's status line (who is waiting), the table image's status line —
depends on the concealed hands of the players who did not discard.

The property test plays seeded random games and, just before a discard, builds a twin
state whose concealed cards differ (cards swapped between two other players' hands, or
between such a hand and the live wall, counts kept). The same discard and the same passes
are then played in both; every public thing and every untouched seat's view must agree.
"""

from __future__ import annotations

import copy
import random

import pytest

from bot.games.mahjong import choose, new_game
from bot.games.mahjong.render import _hand_status as hand_status_line
from bot.games.mahjong.render import _status as table_status_line
from bot.games.mahjong.rules import MahjongState
from bot.games.mahjong.tiles import NUM_KINDS

try:
    from .mahjong_helpers import FULL, PLAYERS, all_cards, full_deck, game
except ImportError:
    from mahjong_helpers import FULL, PLAYERS, all_cards, full_deck, game


def host_status(g: MahjongState, since: int) -> dict:
    """What the host prints about the table (see ``Presenter._status_text``): the head from
    the public view, the public event lines, who is waiting (each with a deadline)."""
    v = g.view(None)
    return {
        "head": (v.get("round"), v.get("rounds"), v.get("deal"), v.get("deals")),
        "events": [e.text for e in g.visible_events(None, since)],
        "waiting": list(g.to_act),
        "may_act": list(g.may_act),
        "phase": g.phase,
        "over": g.is_over,
        "table_line": table_status_line(v),
    }


def _twin(g: MahjongState, discarder: int, rng: random.Random) -> tuple[MahjongState, set[int]]:
    """A copy of ``g`` whose concealed cards of players other than ``discarder`` (and not
    showing a standing hand, nor the winner's while the others take their last turns: both
    are shown) differ; returns it and the seats whose hands changed."""
    t = copy.deepcopy(g)
    others = [p for p in range(4) if p != discarder and t.standing[p] is None and p != t.winner]
    touched: set[int] = set()
    for _ in range(rng.randint(1, 4)):
        if not others:
            break
        a = rng.choice(others)
        mine = [x for x in range(NUM_KINDS) if t.conc[a][x]]
        if not mine:
            continue
        x = rng.choice(mine)
        rest = [p for p in others if p != a]
        if rest and rng.random() < 0.6:
            b = rng.choice(rest)
            theirs = [y for y in range(NUM_KINDS) if t.conc[b][y] and y != x]
            if not theirs:
                continue
            y = rng.choice(theirs)
            t.conc[a][x] -= 1
            t.conc[a][y] += 1
            t.conc[b][y] -= 1
            t.conc[b][x] += 1
            touched |= {a, b}
        else:
            wall = [
                i for i in range(t.live_pos, t.live_end) if t.live[i] < NUM_KINDS and t.live[i] != x
            ]
            if not wall:
                continue
            i = rng.choice(wall)
            y = t.live[i]
            t.live[i] = x
            t.conc[a][x] -= 1
            t.conc[a][y] += 1
            touched.add(a)
    for p in touched:
        t._update_waits(p)  # the engine's cache of each hand's Mah-Jongg waits
    t._cache_version = -1
    assert all_cards(t) == FULL
    return t, touched


def _same_public(a: MahjongState, b: MahjongState, touched: set[int], since: int) -> None:
    assert a.view(None) == b.view(None)
    assert host_status(a, since) == host_status(b, since)
    for seat in range(4):
        if seat not in touched:
            assert a.view(seat) == b.view(seat), f"seat {seat}'s view differs"
            assert a.legal_actions(seat) == b.legal_actions(seat)
    assert "claims from" not in table_status_line(a.view(None))


def _still_comparable(a: MahjongState, b: MahjongState, seat: int, hand_no: int) -> bool:
    """After the window play may have moved on to the next player's draw. Stop comparing
    when something legitimately public may now differ: the hand ended (every hand is shown
    in the history) or a locked standing hand discarded its draw (perhaps a swapped card)."""
    if a.is_over or b.is_over or a.hand_no != hand_no or b.hand_no != hand_no:
        return False
    if a.phase == "claim":
        return a.claim["by"] == seat  # still the window of this discard
    return a.standing[a.turn] is None


def _compare_around_discard(g: MahjongState, seat: int, code: str, rng: random.Random) -> int:
    """Play ``code`` in ``g`` and in a twin, then the same passes; compare all the way.
    Returns 1 if a claim window opened."""
    twin, touched = _twin(g, seat, rng)
    since = len(g.events)
    hand_no = g.hand_no
    a, b = copy.deepcopy(g), twin
    a.apply(seat, code)
    b.apply(seat, code)
    if not _still_comparable(a, b, seat, hand_no):
        return 0
    # the next player may have drawn a card swapped with the wall: their own view may differ
    _same_public(a, b, touched | ({a.turn} if a.phase != "claim" else set()), since)
    if a.phase != "claim":
        return 0
    assert a.to_act == sorted(p for p in range(4) if p != seat), "all the others are asked"
    order = list(a.to_act)
    rng.shuffle(order)
    for p in order:  # everyone passes, in a random order (a pass is always legal)
        assert "pass" in a.legal_actions(p) and "pass" in b.legal_actions(p)
        a.apply(p, "pass")
        b.apply(p, "pass")
        if not _still_comparable(a, b, seat, hand_no):
            break
        _same_public(a, b, touched | ({a.turn} if a.phase != "claim" else set()), since)
    return 1


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("seed", [3, 17, 2024])
def test_public_view_and_status_do_not_depend_on_other_hands(seed: int, strict: bool) -> None:
    rng = random.Random(seed)
    g = new_game(seed, PLAYERS, {"max_hands": 3, "strict": strict})
    windows = 0
    compared = 0
    for _ in range(3000):
        if g.is_over:
            break
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        # mostly the AI, sometimes chance (but no random Mah-Jongg or standing hand: with
        # the strict option a false one ends the hand at once)
        tame = [c for c in legal if c != "mahjong" and not c.startswith("declare")] or legal
        code = rng.choice(tame) if rng.random() < 0.1 else choose(g.view(seat), legal, rng)
        if code.startswith("discard ") and rng.random() < 0.5:
            windows += _compare_around_discard(g, seat, code, rng)
            compared += 1
        elif rng.random() < 0.2 and g.phase != "claim":
            # outside a window too: a twin state shows the same public picture
            twin, touched = _twin(g, seat, rng)
            _same_public(g, twin, touched, len(g.events))
        g.apply(seat, code)
    assert compared >= 20 and windows >= 10


def test_a_discard_nobody_can_claim_still_asks_all_three() -> None:
    # Scattered hands, and East discards an honour none of them holds.
    south = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 2c"
    west = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
    north = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E 5b N"
    g = game(full_deck(east, south, west, north, wall="F P C F P C"))
    g.apply(0, "discard N")
    assert g.phase == "claim" and g.to_act == [1, 2, 3]
    for p in (1, 2, 3):
        assert g.legal_actions(p) == ["pass"]
    v = g.view(None)
    assert v["claim"]["card"] == "N" and v["claim"]["by"] == 0
    assert v["claim"]["asked"] == [1, 2, 3] and v["claim"]["waiting"] == [1, 2, 3]
    # each seat sees the public window plus only its own options
    assert g.view(2)["claim"]["my_options"] == ["pass"]
    # the AI answers (it is asked like everyone else) and passes
    assert choose(g.view(3), g.legal_actions(3), random.Random(0)) == "pass"
    g.apply(3, "pass")
    assert g.view(None)["claim"]["waiting"] == [1, 2]
    g.apply(1, "pass")
    g.apply(2, "pass")
    assert g.phase == "discard" and g.to_act == [1] and g.view(None)["rivers"][0] == ["N"]
    assert g.default_action(1) != "pass"


def test_table_status_line_is_the_same_whoever_can_claim() -> None:
    east = "5d 1b 1b 2c 2c 9c 9c E E S S W W N"
    south = "4d 6d 1c 3c 7c 7b 8b E N N S W 9b"  # can chow 5d
    west = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 5c"
    north = "2b 5b 8b 3c 5c 8c 1b 4b 7b 1c 4c 7c 1d"
    g = game(full_deck(east, south, west, north, wall="F P C F P C"))
    g.apply(0, "discard 5d")
    line = table_status_line(g.view(None))
    assert "claim window open" in line and "Ben" not in line and "Cat" not in line
    # a seat's own hand image may say what it can do
    assert "you can claim" in hand_status_line(g.view(1))
    assert "Nothing to claim" in hand_status_line(g.view(2))


def test_rules_text_explains_the_claim_window() -> None:
    from bot.games import rules_summary

    text = rules_summary("mahjong")
    assert "Only a player who can claim is asked" in text and "nobody can tell" in text
    assert "whether anyone can claim or not" in text
