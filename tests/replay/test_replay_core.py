"""The replay core: any step equals the live match at that point, the JSON file round-trips
to the same final scores and views, and bad files are refused with a reason."""

from __future__ import annotations

import json

import pytest

from bot.games import GAME_NAMES, game_spec
from bot.replay.core import (
    Replayer,
    ReplayError,
    final_results,
    from_json,
    game_options,
    to_json,
)
from tests.replay.helpers import SHORT, play, record_of


@pytest.fixture(scope="module", params=GAME_NAMES)
def match(request):
    state = play(request.param, f"replay-{request.param}")
    assert state.is_over
    return state


def test_export_import_gives_the_same_final_scores_and_views(match) -> None:
    record = record_of(match)
    text = to_json(record)
    doc = json.loads(text)
    assert doc["format"] == "teahouse-replay" and doc["version"] == 1
    assert doc["actions"][0].keys() == {"seat", "code", "source", "time"}
    back = from_json(text)
    assert back == record
    final = Replayer(back).final
    assert final.scores == match.scores
    assert final.result() == match.result()
    for seat in [None, *range(match.num_seats)]:
        assert final.view(seat) == match.view(seat)
    scores, places = final_results(back)
    assert scores == list(match.result().scores) and places == list(match.result().placements)


def test_every_step_is_the_state_after_that_many_actions(match) -> None:
    record = record_of(match)
    rp = Replayer(record, checkpoint_every=10)
    spec = game_spec(match.game)
    assert rp.last == len(match.log) == len(rp.steps)
    # Forward, backward, across checkpoints and jumps.
    last = rp.last
    for step in [0, 1, 2, 9, 10, 11, 35, 34, 33, last // 2, last - 1, last, 3, last // 3]:
        expected = spec.replay(match.seed, match.players, SHORT[match.game], match.log[:step])
        got = rp.state_at(step)
        assert got.version == step
        assert got.view(None) == expected.view(None), step
        assert [got.view(s) for s in range(got.num_seats)] == [
            expected.view(s) for s in range(expected.num_seats)
        ]


def test_hands_start_where_the_deal_number_changes(match) -> None:
    rp = Replayer(record_of(match))
    numbers = [rp.spec.deal_number(rp.state_at(s).view(None)) for s in range(rp.last + 1)]
    starts = [0] + [s for s in range(1, rp.last + 1) if numbers[s] != numbers[s - 1]]
    assert [h.first_step for h in rp.hands] == starts
    for hand in rp.hands:
        assert rp.hand_start(hand.number) == hand.first_step
        assert rp.hand_of(hand.first_step) is hand
        assert rp.hand_of(hand.last_step) is hand
    assert rp.hand_start(999) is None
    assert rp.steps[-1].hand == rp.hands[-1].number


def test_descriptions_name_the_player_and_the_move_once(match) -> None:
    """Each step says its move once: by the table's own event when one says it (``Ann
    plays …``), else as "who: move"; the last step says the match is over."""
    rp = Replayer(record_of(match))
    assert "before anyone has acted" in rp.describe(0)
    for index in range(rp.last):
        step = rp.steps[index]
        lines = rp.describe(index + 1).split("\n")
        who = match.players[step.seat]
        labelled = f"{who}: {step.label}"
        if step.move_said:
            assert labelled not in lines
            # ("Ann plays …", "Mah-Jongg! Ann goes out …": the event names the mover)
            assert any(who in line for line in lines), lines
            events = lines
        else:
            assert lines[0] == labelled
            events = lines[1:]
        if len(step.events) <= 6:
            assert events[: len(step.events)] == list(step.events)
    last = rp.describe(rp.last)
    assert "is over" in last or "win the match" in last
    assert any(s.deal_end for s in rp.steps)
    assert any(s.move_said for s in rp.steps)


def test_host_options_are_left_out() -> None:
    assert game_options("koikoi", {"rounds": 6, "turn_seconds": 60}) == {"rounds": 6}


def _doc(match) -> dict:
    return json.loads(to_json(record_of(match)))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(format="something else"), "not a Teahouse replay"),
        (lambda d: d.update(version=99), "newer"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d["players"].pop(0), "seats"),
        (lambda d: d["actions"][0].update(code="nonsense 7"), "does not replay"),
        (lambda d: d["actions"][0].pop("seat"), "no seat or code"),
    ],
)
def test_bad_files_are_refused_with_a_reason(change, says) -> None:
    state = play("koikoi", "bad-files")
    doc = _doc(state)
    change(doc)
    with pytest.raises(ReplayError, match=says):
        Replayer(from_json(json.dumps(doc)))


def test_not_json_is_refused() -> None:
    with pytest.raises(ReplayError, match="not a JSON file"):
        from_json(b"\x89PNG...")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(result={"scores": [None], "places": [1]}), "result.scores"),
        (lambda d: d.update(result={"scores": [10, 5], "places": ["1st", 2]}), "result.places"),
        (lambda d: d.update(result={"scores": "10,5"}), "result.scores"),
    ],
)
def test_malformed_results_are_refused_with_a_reason(change, says) -> None:
    doc = _doc(play("koikoi", "bad-results"))
    change(doc)
    with pytest.raises(ReplayError, match=says):
        from_json(json.dumps(doc))


def test_deeply_nested_json_is_refused_with_a_reason() -> None:
    with pytest.raises(ReplayError, match="nested too deeply"):
        from_json("[" * 100_000 + "]" * 100_000)
