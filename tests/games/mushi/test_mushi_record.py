"""The running hand's public record of plays and flips (the view's ``plays``)."""

from __future__ import annotations

import pickle
import random

from bot.games import mushi
from bot.games.mushi.rules import MushiState
from tests.games.mushi.test_mushi_rules import E, Y, deck_from_turns, game


def test_record_of_a_stacked_hand_and_its_pending_flip() -> None:
    table = ["1b", "1r", "3b", "4a", "4r", "4p1", "8b", "9a"]
    turns = [("1p1", "10a"), ("3p1", "12b"), ("4p2", "12p1"), ("5a", "1p2")]
    s = game(deck_from_turns(table, turns), four_of_a_kind_cancel=False)
    assert s.plays == [] and s.view(E)["plays"] == []
    s.apply(E, "play 1p1 1r")
    s.apply(Y, "play 3p1")
    s.apply(E, "play 4p2")
    s.apply(Y, "play 5a")  # no match; the flip 1p2 takes 1b (the only Pine left)
    expected = [
        {"kind": "play", "seat": E, "card": "1p1", "took": ["1r"]},
        {"kind": "flip", "seat": E, "card": "10a", "took": []},
        {"kind": "play", "seat": Y, "card": "3p1", "took": ["3b"]},
        {"kind": "flip", "seat": Y, "card": "12b", "took": []},
        {"kind": "play", "seat": E, "card": "4p2", "took": ["4a", "4r", "4p1"]},
        {"kind": "flip", "seat": E, "card": "12p1", "took": ["12b"]},
        {"kind": "play", "seat": Y, "card": "5a", "took": []},
        {"kind": "flip", "seat": Y, "card": "1p2", "took": ["1b"]},
    ]
    assert s.plays == expected
    # Public: both seats and a spectator see the same record.
    for seat in (E, Y, None):
        assert s.view(seat)["plays"] == expected
    # A view's record is a copy.
    s.view(E)["plays"][0]["took"].append("x")
    assert s.plays == expected


def test_a_flip_waiting_for_its_target_enters_the_record_once_taken() -> None:
    table = ["1b", "1r", "2a", "3b", "4a", "5a", "8b", "9a"]
    s = game(deck_from_turns(table, [("10a", "1p1")]), four_of_a_kind_cancel=False)
    s.apply(E, "play 10a")
    assert s.phase == "choose_flip"
    assert s.plays == [{"kind": "play", "seat": E, "card": "10a", "took": []}]
    s.apply(E, "take 1b")
    assert s.plays[-1] == {"kind": "flip", "seat": E, "card": "1p1", "took": ["1b"]}


def _undo(table: list[str], move: dict) -> None:
    if move["took"]:
        table.extend(move["took"])
    elif move["card"] in table:
        table.remove(move["card"])


def test_seeded_match_record_matches_the_events_and_rebuilds_the_deal() -> None:
    """A whole match from seed 5 with seeded random moves: after every action the record
    is the current hand's plays and flips as the events told them, plays and flips by
    turns, and undoing it from the table gives back the table as dealt."""
    s = mushi.new_game(5, ["a", "b"])
    rng = random.Random(5)
    moves: list[dict] = []
    dealt: list[str] = []
    checked = 0
    events = list(s.events)
    while True:
        for e in events:
            if e.kind == "deal":
                moves, dealt = [], list(e.data["table"])
            elif e.kind in ("play", "flip") and "options" not in e.data:
                move = {"kind": e.kind, "seat": e.seat, "card": e.data["card"]}
                moves.append({**move, "took": list(e.data["took"])})
        if s.is_over:
            break
        view = s.view(None)
        assert view["plays"] == moves
        assert [m["kind"] for m in moves] == ["play", "flip"] * (len(moves) // 2) + (
            ["play"] if len(moves) % 2 else []
        )
        table = list(view["table"])
        for move in reversed(moves):
            _undo(table, move)
        assert sorted(table) == sorted(dealt)
        checked += 1
        seat = s.to_act[0]
        events = s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert checked > 200
    # The last hand's record stays once the match is over (its bottom wild, if any, kept).
    assert s.plays and s.plays == moves


def test_replay_rebuilds_the_record() -> None:
    s = mushi.new_game(9, ["a", "b"])
    rng = random.Random(9)
    log = []
    for _ in range(23):
        seat = s.to_act[0]
        code = rng.choice(s.legal_actions(seat))
        s.apply(seat, code)
        log.append((seat, code))
    again = mushi.replay(9, ["a", "b"], {}, log)
    assert again.plays == s.plays and again.snapshot() == s.snapshot()


def test_a_state_pickled_by_the_old_code_loads_with_an_empty_record() -> None:
    s = mushi.new_game(3, ["a", "b"])
    for _ in range(5):
        seat = s.to_act[0]
        s.apply(seat, s.legal_actions(seat)[0])
    del s.__dict__["plays"]  # what the old code pickled: no record
    old = pickle.loads(pickle.dumps(s))
    assert isinstance(old, MushiState) and old.plays == []
    assert old.view(0)["plays"] == []
    while not old.is_over:  # and it plays on: the record restarts at the next deal
        seat = old.to_act[0]
        old.apply(seat, old.legal_actions(seat)[0])
    assert old.plays[0]["kind"] == "play" and len(old.history) == old.total_hands
