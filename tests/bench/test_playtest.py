"""The playtest bench (``python -m bench play``): its counting, and one short run whose
figures must agree with what the fake Discord itself recorded."""

from __future__ import annotations

import random

import pytest

from bench.playtest import (
    ClickEvent,
    MessageEvent,
    PlayOptions,
    ai_form_answer,
    count_clicks,
    count_messages,
    only_pass,
    own_moves,
    play_options,
    run_play,
    single_answer,
)
from bot.games import game_spec
from bot.games.panda import rules as panda_rules
from tests.e2e.fakediscord import MESSAGE_COMPONENT, SELECT_TYPES, FakeDiscord
from tests.e2e.teahouse import Move, state_checks

ALICE, CAROL = 101, 103
DM_ALICE, DM_CAROL, THREAD, TABLE_MSG = 11, 13, 20, 500


def dm(at: float, mid: int, *, user: int = ALICE, created: bool = True, **kw) -> MessageEvent:
    channel = DM_ALICE if user == ALICE else DM_CAROL
    kw.setdefault("ephemeral", False)
    kw.setdefault("notifying", created and not kw["ephemeral"])
    return MessageEvent(at, channel, mid, created, user, **kw)


def guild(at: float, channel: int, mid: int, *, created: bool) -> MessageEvent:
    return MessageEvent(at, channel, mid, created, None, False, created)


EVENTS = [
    guild(0.5, THREAD, TABLE_MSG, created=True),  # the table message itself: no edit
    dm(1.0, 1),
    dm(2.0, 2, notifying=False),  # sent with SUPPRESS_NOTIFICATIONS
    dm(3.0, 3, ephemeral=True),
    dm(4.0, 4),  # a deferred answer's "thinking" message ...
    dm(4.5, 4, created=False, fills=True),  # ... and what fills it: one new message
    dm(5.0, 1, created=False),
    dm(5.5, 9, user=CAROL),  # someone else's DM
    guild(6.0, THREAD, TABLE_MSG, created=False),
    guild(6.5, THREAD, TABLE_MSG, created=False),
    guild(7.0, THREAD, 600, created=True),
    MessageEvent(7.5, THREAD, 601, True, None, True, False),  # ephemeral: not a post
    guild(8.0, 30, 700, created=False),  # another channel's message
    dm(10.0, 5),  # after the window
]


def test_messages_are_counted_by_kind_within_the_window() -> None:
    counted = count_messages(
        EVENTS, 0.0, 10.0, people=[ALICE], table_message=TABLE_MSG, thread=THREAD
    )
    assert counted == {
        "dms_new": 3,
        "dms_notifying": 2,
        "dm_edits": 1,
        "dm_ephemeral": 1,
        "table_edits": 2,
        "thread_posts": 1,
    }
    later = count_messages(
        EVENTS, 5.0, 11.0, people=[ALICE, CAROL], table_message=TABLE_MSG, thread=THREAD
    )
    assert (later["dms_new"], later["dm_edits"], later["table_edits"]) == (2, 1, 2)


def test_clicks_selects_and_single_answers_are_counted_within_the_window() -> None:
    clicks = [
        ClickEvent(1.0, ALICE, 0, "pass", select=False, single_answer=True),
        ClickEvent(2.0, ALICE, 0, "discard 5b", select=True, single_answer=False),
        ClickEvent(3.0, CAROL, 1, "pung", select=False, single_answer=False),
        ClickEvent(9.0, ALICE, 0, "pass", select=False, single_answer=True),
    ]
    assert count_clicks(clicks, 0.0, 5.0) == {
        "clicks": 3,
        "clicks_single_answer": 1,
        "selects": 1,
    }


def button(code: str) -> dict:
    return {"type": 2, "custom_id": f"th:a:1:0:7:{code}"}


def test_a_prompt_has_one_answer_with_one_legal_action_or_one_distinct_control() -> None:
    take = button("take 1p1")
    # Two identical cards: two legal codes, one button.
    assert single_answer(["take 1p1", "take 1p2"], [Move(take, None, "take 1p1")])
    assert single_answer(["pass"], [Move(button("pass"), None, "pass")])
    select = {"type": 3, "custom_id": "th:s:1:0:7:discard"}
    two = [Move(select, ("5b",), "discard 5b"), Move(select, ("6b",), "discard 6b")]
    assert not single_answer(["discard 5b", "discard 6b"], two)
    # An optional out-of-turn play (an Ambush) may also not be made: not one answer.
    ambush = [Move(button("ambush 7t 7g 7r 7a"), None, "ambush 7t 7g 7r 7a")]
    assert not single_answer(["ambush 7t 7g 7r 7a"], ambush, required=False)
    # One select (six cards to bury) or one form button holds many answers.
    bury = {"type": 3, "custom_id": "th:s:1:0:7:bury"}
    assert not single_answer(["bury 2S", "bury 3S"], [Move(bury, ("2S",) * 6, "bury ...")])
    form = {"type": 2, "custom_id": "th:f:1:0:7:give"}
    assert not single_answer(["give left cat", "give left 2t"], [Move(form, None, "give")])


def test_pass_only_prompts_are_a_lone_pass_or_pass_as_the_only_legal_action() -> None:
    lone = [Move(button("pass"), None, "pass")]
    assert only_pass(["pass"], lone)
    assert only_pass(["pass", "pung"], lone)  # the controls offer nothing else
    both = [*lone, Move(button("pung"), None, "pung")]
    assert not only_pass(["pass", "pung"], both)
    assert not only_pass(["discard 5b"], [Move(button("discard 5b"), None, "discard 5b")])


def test_own_moves_are_the_seats_stored_moves_in_the_hand_by_verb() -> None:
    actions = [
        (0, "discard 5b", "player", 1.0),
        (0, "pass", "timeout", 2.0),
        (1, "pung", "ai", 2.5),
        (0, "pung", "player", 3.0),
        (0, "discard 9c", "player", 12.0),
    ]
    assert own_moves(actions, 0, 0.0, 10.0) == {"discard": 1, "pass (timeout)": 1, "pung": 1}


def test_bad_options_are_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        play_options(["chess"], None, hands=1, delay=1, ignore_pass=False, timeout=60, seed=1)
    with pytest.raises(ValueError, match="--humans"):
        play_options(["koikoi"], 0, hands=1, delay=1, ignore_pass=False, timeout=60, seed=1)
    [mahjong] = play_options(
        ["mahjong"], 9, hands=1, delay=1, ignore_pass=False, timeout=60, seed=1
    )
    assert mahjong.humans == 4  # capped at the seats


async def test_a_short_mahjong_match_counts_what_the_fake_recorded() -> None:
    """One person and three AIs play a one-hand Mah-Jongg match with tiny timings: the
    run's totals are what the fake Discord holds, the hand's figures are within them, and
    the person's clicks are their stored moves."""
    fake = FakeDiscord()
    await fake.start()
    try:
        opts = PlayOptions(
            "mahjong", humans=1, hands=0, delay=0.05, timeout=240, seed=5, options={"max_hands": 1}
        )
        result = await run_play(
            [opts], fake=fake, ai_delay=0.0, edit_interval=0.0, claim_seconds=5.0
        )
    finally:
        await fake.stop()
    game = result["games"]["mahjong"]
    assert game["match_over"]
    assert [h["hand"] for h in game["hands"]] == [1]
    hand = game["hands"][0]
    assert "timed_out" not in hand
    assert hand["clicks"] > 0 and hand["dms_new"] > 0 and hand["table_edits"] > 0
    assert not {k for k in game["problems"] if not k.startswith("click refused")}

    people = {fake.user_named("mahjong-person1")}
    dm_channels = {fake.dm_channel_of(u) for u in people}
    in_dms = [
        m
        for m in fake._messages.values()  # (deleted ones too)
        if m.channel_id in dm_channels and not m.ephemeral
    ]
    clicks = [  # (the lobby's clicks are in the games channel)
        i
        for i in fake.interactions
        if i.user_id in people and i.type == MESSAGE_COMPONENT and i.channel_id in dm_channels
    ]
    run = game["whole_run"]
    assert run["dms_new"] == len(in_dms)
    assert run["dm_edits"] == sum(m.edits for m in in_dms)
    assert run["clicks"] == len(clicks)
    assert run["selects"] == sum(
        i.payload["data"]["component_type"] in SELECT_TYPES for i in clicks
    )
    # (the select is Mah-Jongg's standing-hand menu: seed 5's person declares a standing
    # hand; seeds 3 and 4's no longer do since normal aims at value and calls a standing
    # hand only with a discard no standing opponent calls)
    assert run["selects"] > 0
    where = game["table"]
    assert run["table_edits"] == fake.message(where["message"]).edits
    posts = [
        m for m in fake.messages_in(where["thread"]) if not m.ephemeral and m.id != where["message"]
    ]
    assert run["thread_posts"] == len(posts)
    for key in ("dms_new", "dm_edits", "clicks", "selects", "table_edits", "thread_posts"):
        assert hand[key] <= run[key], key

    person = hand["by_person"]["person1"]
    stored = sum(n for verb, n in person["own_moves"].items() if "timeout" not in verb)
    refused = sum(n for k, n in game["problems"].items() if k.startswith("click refused"))
    assert stored <= person["clicks"] and stored >= person["clicks"] - refused
    assert hand["actions"]["player"] == stored


def test_the_command_refuses_bad_input_with_a_message(capsys: pytest.CaptureFixture) -> None:
    from bench.__main__ import main

    assert main(["play", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["play", "--game", "koikoi", "--timeout", "0"]) == 2
    assert "--timeout" in capsys.readouterr().err


def test_a_form_is_answered_with_the_ai_s_whole_choice() -> None:
    """Panda's pass is one form of three questions; the AI decides it one card at a time.
    The person answers the form with the AI's three cards (asked in turn on a copy of the
    state), and the state itself is not touched."""
    spec = game_spec("panda")
    state = panda_rules.new_game(1, ["a", "b", "c", "d"])
    assert state.phase == "passing"
    before = state.view(0)
    normalize, accepts = state_checks(state, 0)
    answer = ai_form_answer(spec, state, 0, "give", normalize, random.Random(5))
    assert answer is not None and state.view(0) == before
    hand = before["hand"]
    modal = {
        "components": [
            {
                "type": 18,
                "component": {
                    "type": 3,
                    "custom_id": key,
                    "options": [{"value": card} for card in hand],
                },
            }
            for key in ("left", "partner", "right")
        ]
    }
    chosen = answer(modal)
    assert sorted(chosen) == ["left", "partner", "right"]
    code = "give " + " ".join(f"{key} {chosen[key][0]}" for key in ("left", "partner", "right"))
    assert accepts(code)
    # The same cards the AI gives one by one with the same dice.
    trial, rng = panda_rules.new_game(1, ["a", "b", "c", "d"]), random.Random(5)
    for _ in range(3):
        choice = spec.choose(trial.view(0), trial.legal_actions(0), rng)
        _, key, card = normalize(choice).split()
        assert chosen[key] == [card]
        trial.apply(0, choice)
    # A choice that is no form's move (a one-question code of another verb): no answer.
    assert ai_form_answer(spec, state, 0, "play", normalize, random.Random(5)) is None
