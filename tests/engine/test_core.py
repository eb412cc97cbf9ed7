"""The contract's shared machinery: validation before change, logs, views, options, results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.engine import IllegalAction, Result, State, make_rng, replay_from
from bot.engine.core import Event, parse_options
from bot.engine.ui import Button, Controls, Select, default_controls


class Countdown(State):
    """A toy game: seats take turns saying a number lower than the last."""

    game = "countdown"

    def __init__(self, seed, players, options):
        super().__init__(seed, players, options)
        self.last = 10
        self.turn = 0

    @property
    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[str]:
        if seat != self.turn or self.is_over:
            return []
        return [f"say {n}" for n in range(self.last)]

    def _apply(self, seat: int, code: str) -> list[Event]:
        self.last = int(code.split()[1])
        self.turn = 1 - self.turn
        return [Event("say", f"{self.players[seat]} says {self.last}", seat)]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"last": self.last}

    @property
    def is_over(self) -> bool:
        return self.last == 0

    @property
    def scores(self) -> list[int]:
        return (
            [0, 0] if not self.is_over else [1 if self.turn == 0 else 0, 1 if self.turn == 1 else 0]
        )

    def result(self) -> Result:
        return Result.free_for_all(self.scores)


def new_countdown(seed, players, options=None, deck=None) -> Countdown:
    return Countdown(seed, players, options or {})


def test_apply_validates_before_any_change() -> None:
    s = new_countdown(1, ["A", "B"])
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="not your turn"):
        s.apply(1, "say 3")
    with pytest.raises(IllegalAction, match="not a legal move"):
        s.apply(0, "say 11")
    with pytest.raises(IllegalAction, match="not seated"):
        s.apply(5, "say 1")
    assert s.snapshot() == before and s.version == 0


def test_apply_logs_normalised_codes_and_events() -> None:
    s = new_countdown(1, ["A", "B"])
    events = s.apply(0, "  say   4 ")
    assert s.log == [(0, "say 4")] and s.version == 1
    assert events[0].text == "A says 4"
    view = s.view(1)
    assert view["last"] == 4 and view["to_act"] == [1] and view["version"] == 1
    assert view["players"] == ["A", "B"] and view["may_act"] == []


def test_replay_rebuilds_the_same_state() -> None:
    s = new_countdown(7, ["A", "B"])
    for code in ("say 8", "say 5", "say 0"):
        s.apply(s.to_act[0], code)
    r = replay_from(new_countdown, 7, ["A", "B"], {}, s.log)
    assert r.snapshot() == s.snapshot() and r.is_over
    with pytest.raises(IllegalAction, match="over"):
        r.apply(0, "say 0")


def test_result_placements_share_ties() -> None:
    assert Result.free_for_all([5, 9, 5]).placements == (2, 1, 2)
    team = Result.from_team_scores([10, 20, 10, 20], [[0, 2], [1, 3]], [10, 20])
    assert team.placements == (2, 1, 2, 1) and team.teams == ((0, 2), (1, 3))


def test_default_action_prefers_pass() -> None:
    s = new_countdown(1, ["A", "B"])
    assert s.default_action(0) == "say 0"
    with pytest.raises(IllegalAction):
        s.default_action(1)


@dataclass(frozen=True)
class Opts:
    rounds: int = 6
    fast: bool = False


def test_parse_options_rejects_unknown_and_mistyped() -> None:
    assert parse_options(Opts, {"rounds": 12}) == Opts(rounds=12)
    with pytest.raises(ValueError, match="Unknown option"):
        parse_options(Opts, {"speed": 1})
    with pytest.raises(ValueError, match="whole number"):
        parse_options(Opts, {"rounds": "six"})
    with pytest.raises(ValueError, match="true or false"):
        parse_options(Opts, {"fast": 1})


def test_seeded_rng_is_stable() -> None:
    assert make_rng("abc", 1).random() == make_rng("abc", 1).random()
    assert make_rng("abc", 1).random() != make_rng("abc", 2).random()


def test_default_controls_respect_discord_limits() -> None:
    few = default_controls("Go", ["pass", "play 1"])
    assert few.codes() == ["pass", "play 1"] and len(few.rows) == 1
    many = default_controls("Go", [f"play {i}" for i in range(60)])
    assert all(isinstance(r, Select) and len(r.options) <= 25 for r in many.rows)
    assert len(many.rows) == 3


def test_default_controls_style_buttons_by_the_games_verbs() -> None:
    """Passing is quiet by default; any other style is the game's to say (no game's verb
    is known to the engine)."""
    plain = default_controls("Go", ["pass", "koikoi", "play 1"])
    assert [b.style for b in plain.rows[0]] == ["secondary", "primary", "primary"]
    styled = default_controls("Go", ["wait", "koikoi"], styles={"koikoi": "success"})
    assert [b.style for b in styled.rows[0]] == ["primary", "success"]


def test_select_code_keeps_option_order() -> None:
    from bot.engine.ui import Option

    sel = Select("play", "cards", tuple(Option(c, c) for c in ["1t", "2t", "3t"]), 1, 3)
    assert sel.code_for(["3t", "1t"]) == "play 1t 3t"
    assert Controls("x", ((Button("Pass", "pass"),),)).codes() == ["pass"]
