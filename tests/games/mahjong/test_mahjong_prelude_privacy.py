"""Before play (the prelude) nothing public shows who holds four of a kind: every player
is asked about concealed kongs, able to declare one or not (then ``pass`` is the only
answer), and the kongs are carried out in turn order once everyone has answered.

Known answers on stacked decks; the random twin-state property is in
``tests/games/test_hidden_information.py``."""

from __future__ import annotations

from bot.games.mahjong import controls, new_game
from bot.games.mahjong.render import _hand_status, _status
from bot.games.mahjong.tiles import tile

try:
    from .mahjong_helpers import FIXED, FULL, PLAYERS, all_cards, full_deck
except ImportError:
    from mahjong_helpers import FIXED, FULL, PLAYERS, all_cards, full_deck

EAST = "1b 2b 3b 4c 5c 6c 7d 8d 9d S S S 5b N"
W_ = "3b 6b 9b 3c 6c 9c 3d 6d 9d 2d 5d 8d 2c"
N_ = "1b 4b 7b 1c 4c 7c 1d 4d 7d 2b 5b 8b 5c"
DEAD = "C C C C F F F F P P P P"
# South holds four East winds, or (the twin) three and a 9 Characters, the fourth East being
# the live wall's first card: the two deals differ only in cards South and the wall hold.
WITH_FOUR = "E E E E 1b 4b 7b 1c 4c 7c 1d 4d 7d"
WITHOUT = "E E E 9c 1b 4b 7b 1c 4c 7c 1d 4d 7d"


def dealt(deck):  # type: ignore[no-untyped-def]
    """A game at its start, in the prelude (``game`` would answer an all-pass prelude)."""
    return new_game(1, PLAYERS, FIXED, deck=deck)


def twins():  # type: ignore[no-untyped-def]
    four = dealt(full_deck(EAST, WITH_FOUR, W_, N_, wall="9c " + DEAD))
    three = dealt(full_deck(EAST, WITHOUT, W_, N_, wall="E " + DEAD))
    return four, three


def public(g, viewer):  # type: ignore[no-untyped-def]
    events = [(e.kind, e.text, e.seat, dict(e.data)) for e in g.visible_events(viewer)]
    return g.view(viewer), events


def test_everyone_is_asked_before_play_four_of_a_kind_or_not() -> None:
    four, three = twins()
    for g in (four, three):
        assert g.phase == "prelude" and g.to_act == [0, 1, 2, 3]
        assert g.view(None)["prelude"] == {"asked": [0, 1, 2, 3], "waiting": [0, 1, 2, 3]}
        for seat in (0, 2, 3):
            assert g.legal_actions(seat) == ["pass"]
    assert four.legal_actions(1) == ["kong E", "pass"]
    assert three.legal_actions(1) == ["pass"]
    assert four.view(1)["prelude"]["my_options"] == ["kong E", "pass"]
    # East, West, North and a spectator see the same table, the same line, the same events
    for viewer in (None, 0, 2, 3):
        assert public(four, viewer) == public(three, viewer), viewer
    assert _status(four.view(None)) == _status(three.view(None))
    assert "everyone" in _status(four.view(None))


def test_the_twins_stay_alike_when_the_holder_of_four_passes() -> None:
    four, three = twins()
    for g in (four, three):
        for seat in (2, 0, 1):
            g.apply(seat, "pass")
            for viewer in (None, 0, 2, 3):
                assert g.view(viewer)["to_act"] == g.to_act
        assert g.view(None)["prelude"]["waiting"] == [3]
    for viewer in (None, 0, 2, 3):
        assert public(four, viewer) == public(three, viewer), viewer
    for g in (four, three):
        g.apply(3, "pass")
        assert g.phase == "discard" and g.to_act == [0] and g.view(None)["prelude"] is None
    for viewer in (None, 0, 2, 3):
        assert public(four, viewer) == public(three, viewer), viewer


def test_kongs_are_carried_out_in_turn_order_whatever_the_order_of_the_answers() -> None:
    """East and North hold four: North answers first, yet East draws the kong box's first
    card and North the second; both are asked again, the others are done."""
    east = "1b 2b 3b 4c 5c 6c 7d 8d 9d E E E E N"
    north = "W W W W 2b 5b 8b 2c 5c 8c 1d 4d 7d"
    south = "1b 4b 7b 1c 4c 7c 3d 6d 9d 2b 5b 8b 9c"
    deck = full_deck(east, south, W_, north, wall=DEAD, box="6b 6c")
    g = dealt(deck)
    assert g.to_act == [0, 1, 2, 3]
    assert g.legal_actions(0) == ["kong E", "pass"] and g.legal_actions(3) == ["kong W", "pass"]
    g.apply(3, "kong W")
    assert g.view(None)["melds"][3] == [], "nothing is carried out before everyone answered"
    assert g.view(3)["prelude"]["my_answer"] == "kong W"
    assert "my_answer" not in g.view(0)["prelude"] or g.view(0)["prelude"]["my_answer"] is None
    g.apply(1, "pass")
    g.apply(0, "kong E")
    g.apply(2, "pass")
    assert g.phase == "prelude" and g.to_act == [0, 3]  # who declared is asked again
    assert g.conc[0][tile("6b")] == 1 and g.conc[3][tile("6c")] == 1
    kongs = [e.text for e in g.events if e.kind == "kong"]
    assert kongs == [
        "Ann declares a concealed kong of East wind.",
        "Dov declares a concealed kong of West wind.",
    ]
    assert g.legal_actions(0) == ["pass"] and g.legal_actions(3) == ["pass"]
    g.apply(3, "pass")
    g.apply(0, "pass")
    assert g.phase == "discard" and g.to_act == [0]
    assert all_cards(g) == FULL


def test_controls_and_hand_status_before_play() -> None:
    four, three = twins()
    none = controls(three.view(1), three.legal_actions(1))
    assert "nothing to declare" in none.prompt
    assert [b.code for row in none.rows for b in row] == ["pass"]
    some = controls(four.view(1), four.legal_actions(1))
    assert [b.code for row in some.rows for b in row] == ["kong E", "pass"]
    assert "nothing to declare" in _hand_status(three.view(1))
    assert "declare a concealed kong" in _hand_status(four.view(1))
    four.apply(1, "pass")
    assert _hand_status(four.view(1)) == "Before play: waiting for the others."
