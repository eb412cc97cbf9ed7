"""The host's per-table bookkeeping: which DMs need refreshing, and deadlines."""

from __future__ import annotations

from bot.games import game_spec
from bot.host.options import game_options
from bot.host.table import Seat, Table


def _table(
    game: str = "koikoi", seed: str = "5", names: tuple[str, ...] = ("Alice", "Bob")
) -> Table:
    spec = game_spec(game)
    state = spec.new_game(seed, list(names))
    return Table(
        id=1,
        spec=spec,
        guild_id=1,
        channel_id=2,
        host_id=10,
        seed=seed,
        options={},
        seats=[Seat(i, name, 10 + i) for i, name in enumerate(names)],
        state=state,
    )


def test_changed_prompts_stamp_the_current_version_once() -> None:
    table = _table()
    assert table.changed_prompts() == [0, 1]  # first time: everyone
    assert table.changed_prompts() == []  # nothing happened since
    actor = table.state.to_act[0]
    version = table.prompts[actor].version
    table.state.apply(actor, table.state.legal_actions(actor)[0])
    changed = table.changed_prompts()
    assert actor in changed and table.prompts[actor].version == table.state.version > version


def test_deadlines_follow_the_seats_that_must_act() -> None:
    table = _table()
    table.changed_prompts()
    table.set_deadlines(30, now=100.0)
    actor = table.state.to_act[0]
    assert table.deadlines == {actor: 130.0}
    # Still the same decision a moment later: the running deadline is kept.
    table.set_deadlines(30, now=110.0)
    assert table.deadlines == {actor: 130.0}
    table.state.apply(actor, table.state.legal_actions(actor)[0])
    table.changed_prompts()
    table.set_deadlines(30, now=120.0)
    assert all(t == 150.0 for t in table.deadlines.values())
    assert set(table.deadlines) == set(table.state.to_act)


def test_seat_lookup_and_host_options() -> None:
    table = _table()
    assert table.seat_of(11).seat == 1 and table.seat_of(99) is None
    assert game_options({"rounds": 12, "turn_seconds": 30}) == {"rounds": 12}


def test_player_names_cannot_ping_link_or_format() -> None:
    from bot.host.text import player_name

    assert player_name("@everyone <@123456789> **Eve**") == "everyone Eve"
    assert player_name("<#42> <@&7> <a:party:99> @here") == "here"
    assert player_name("`code` ~~x~~ ||spoiler||") == "code x spoiler"
    assert player_name("   ") == "Player"
    assert player_name("名前") == "名前"
    assert len(player_name("x" * 200)) == 32


def test_option_validation_is_server_side() -> None:
    import pytest

    from bot.host.options import validate_options

    assert validate_options("koikoi", {"rounds": 12, "turn_seconds": 30})
    for game, options in (
        ("koikoi", {"turn_seconds": 1}),
        ("koikoi", {"turn_seconds": True}),
        ("koikoi", {"turn_seconds": "60"}),
        ("koikoi", {"rounds": 7}),
        ("koikoi", {"colour": "red"}),
        ("panda", {"target": 99}),
        ("panda", {"wish": 1}),
        ("mahjong", {"max_hands": 201}),
        ("mahjong", {"settlement": "whatever"}),
        ("sandayi", {"hands": 41}),
    ):
        with pytest.raises(ValueError):
            validate_options(game, options)


def test_a_dm_is_behind_when_it_was_sent_for_another_decision() -> None:
    table = _table()
    first = table.state.to_act[0]
    seat = table.seats[first]
    assert table.must_decide(seat)
    assert table.dm_behind(seat)  # nobody knows what its DM offers
    seat.dm_decision = table.decision_fingerprint(first)
    assert not table.dm_behind(seat)
    offered = table.state.legal_actions(first)
    # Play on until the seat must decide something else.
    while first in table.state.to_act and table.state.legal_actions(first) == offered:
        table.state.apply(first, offered[0])
    while first not in table.state.to_act:
        other = table.state.to_act[0]
        table.state.apply(other, table.state.legal_actions(other)[0])
    assert table.state.legal_actions(first) != offered
    assert table.dm_behind(seat)
    seat.dm_decision = table.decision_fingerprint(first)
    assert not table.dm_behind(seat)
    # An AI (or a taken-over seat) never needs one.
    seat.dm_decision, seat.ai_takeover = None, True
    assert not table.must_decide(seat) and not table.dm_behind(seat)


def test_a_seat_that_may_only_pass_a_claim_window_is_waited_on_but_not_asked() -> None:
    table = _table("mahjong", "7", ("Alice", "Bob", "Cleo", "Dan"))
    state = table.state

    def passers() -> list[int]:
        if not table.in_answer_phase():
            return []
        return [s for s in table.waiting_on() if state.legal_actions(s) == ["pass"]]

    for _ in range(200):
        if passers():
            break
        actor = state.to_act[0]
        state.apply(actor, state.legal_actions(actor)[0])
    assert passers(), "no claim window within 200 actions"
    table.changed_prompts()
    seat = table.seats[passers()[0]]
    # Waited on (the window answers for it when it closes), but shown no decision.
    assert seat.seat in table.waiting_on() and table.forced(seat.seat)
    assert not table.asked(seat.seat) and not table.must_decide(seat)
    assert not table.dm_behind(seat)  # no DM is owed
    # Not played early either: in an answer window a pass waits for the close.
    assert seat.seat not in table.auto_movers()


def test_controls_are_worked_out_once_per_state_version() -> None:
    table = _table("panda", names=("A", "B", "C", "D"))
    actor = table.state.to_act[0]
    first = table.controls_for(actor)
    assert table.controls_for(actor) is first  # the DM's text and components share it
    assert first == table.spec.controls(table.state.view(actor), table.state.legal_actions(actor))
    code = table.state.legal_actions(actor)[0]
    table.state.apply(actor, code)
    after = table.controls_for(actor)
    assert after != first
    assert after == table.spec.controls(table.state.view(actor), table.state.legal_actions(actor))
    # A state put in its place (a replay after a restart) is never answered from the cache.
    table.state = table.spec.new_game("6", ["A", "B", "C", "D"])
    fresh = table.state.to_act[0]
    assert table.controls_for(fresh) == table.spec.controls(
        table.state.view(fresh), table.state.legal_actions(fresh)
    )


def test_a_decision_notifies_a_player_away_or_in_a_claim_window() -> None:
    """A player who acted within the attention span sees their next decision as an edit;
    one who has not acted for longer, or has not acted yet, is notified; a decision in an
    answer phase (a Mah-Jongg claim window: it closes within seconds) always notifies."""
    table = _table()
    seat = table.seats[0]
    assert table.notifies(seat, now=100.0, attention=30.0)  # never acted: notified
    seat.acted_at = 90.0
    assert not table.notifies(seat, now=100.0, attention=30.0)  # playing: edited in place
    assert table.notifies(seat, now=121.0, attention=30.0)  # away 31 s: notified
    mahjong = _table("mahjong", "7", ("Alice", "Bob", "Cleo", "Dan"))
    state = mahjong.state
    for _ in range(200):
        if mahjong.in_answer_phase():
            break
        actor = state.to_act[0]
        state.apply(actor, state.legal_actions(actor)[0])
    assert mahjong.in_answer_phase()
    claimer = mahjong.seats[0]
    claimer.acted_at = 99.0
    assert mahjong.notifies(claimer, now=100.0, attention=30.0)


def test_a_deadline_is_shown_as_one_unix_time_per_decision(monkeypatch) -> None:
    import time

    table = _table()
    table.changed_prompts()
    monkeypatch.setattr(time, "monotonic", lambda: 1000.0)
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    table.set_deadlines(120, now=1000.0)
    actor = table.state.to_act[0]
    assert table.deadline_epoch(actor) == 1_700_000_120
    # A moment later (the clocks moved) the same decision shows the same second.
    monkeypatch.setattr(time, "monotonic", lambda: 1003.4)
    monkeypatch.setattr(time, "time", lambda: 1_700_000_003.9)
    assert table.deadline_epoch(actor) == 1_700_000_120
    other = 1 - actor
    assert table.deadline_epoch(other) is None  # no decision, no deadline
    # The next decision gets its own.
    table.state.apply(actor, table.state.legal_actions(actor)[0])
    table.changed_prompts()
    table.set_deadlines(120, now=1003.4)
    assert all(table.deadline_epoch(s) == 1_700_000_124 for s in table.deadlines)


def test_interaction_tokens_stay_out_of_reprs() -> None:
    """A click's token is a credential for 15 minutes: neither a ClickToken's nor a Seat's
    repr (what a log line or a traceback prints) shows it."""
    from bot.host.tokens import ClickToken

    secret = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldHRva2Vu"
    click = ClickToken(object(), 42, secret, 7)  # type: ignore[arg-type]
    seat = Seat(0, "Alice", 10, token=click, dm_token=ClickToken(object(), 42, secret, 8))  # type: ignore[arg-type]
    for shown in (repr(click), repr(seat), str(seat)):
        assert secret not in shown
    assert "message_id=7" in repr(click) and "Alice" in repr(seat)
    assert click.token == secret  # still there to answer with
