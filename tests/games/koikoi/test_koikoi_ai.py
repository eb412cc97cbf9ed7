"""Koi-Koi's normal AI (``bot/games/koikoi/ai.py``): in the match's last round a yaku counts
as a win only when stopping with it wins the match."""

from __future__ import annotations

from bot.games.koikoi.judge import THREAT, _Position

# Four animals of ours: a fifth (the Boar, 7a) makes Tane, 1 point; four ribbons of
# theirs: a fifth (10r) makes Tan, 1 point.
MINE = ["2a", "4a", "5a", "8a"]
THEIRS = ["1r", "4r", "5r", "9r"]


def _view(round_: int, scores: list[int]) -> dict:
    return {
        "seat": 0,
        "phase": "play",
        "hand": ["7p1", "10p1"],
        "board": ["7a", "10a"],
        "captures": [MINE, THEIRS],
        "pending": None,
        "hand_counts": [2, 2],
        "yaku_points": [0, 0],
        "scores": scores,
        "round": round_,
        "rounds": 6,
    }


def test_a_small_yaku_is_a_win_before_the_last_round() -> None:
    pos = _Position(_view(3, [0, 9]))
    assert pos.makes_yaku(frozenset({"7a", "7p1"}))
    assert pos.threat == 1.0  # the opponent has no yaku yet


def test_behind_in_the_last_round_a_yaku_too_small_to_win_is_no_win() -> None:
    """Five points behind, Tane (1) would not win the match: taking the Boar no longer
    counts as making a yaku; and any yaku of the opponent (ahead) ends the match, so
    their threat counts in full."""
    early, last = _Position(_view(3, [0, 5])), _Position(_view(6, [0, 5]))
    boar = frozenset({"7a", "7p1"})
    assert not last.makes_yaku(boar)
    assert last.gain(boar) < early.gain(boar)
    assert last.threat == THREAT
    assert _Position(_view(6, [0, 1])).makes_yaku(boar)  # one behind: Tane ties it


def test_ahead_in_the_last_round_a_small_yaku_of_theirs_is_no_win_for_them() -> None:
    """Five points ahead: the opponent's Tan would not win them the match, so denying it
    is worth less than in an earlier round."""
    early, last = _Position(_view(3, [5, 0])), _Position(_view(6, [5, 0]))
    ribbon = frozenset({"10r"})
    assert last.their_gain(ribbon) < early.their_gain(ribbon)
    assert last.urgency > early.urgency  # any yaku of ours wins the match
