"""bot.host.tokens: how long a click's token is tried, and never again once Discord refused
it; one token object per click for every use of it."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

import bot.host.tokens as tokens
from bot.host.presenter import _click_token
from bot.host.table import Seat
from bot.host.tokens import TOKEN_SECONDS, ClickToken


def _refusal(status: int, code: int, message: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=message)
    return discord.HTTPException(response, {"code": code, "message": message})  # type: ignore[arg-type]


def _click(token: str, message_id: int = 10) -> SimpleNamespace:
    return SimpleNamespace(
        client=SimpleNamespace(),
        application_id=7,
        token=token,
        message=SimpleNamespace(id=message_id),
    )


def test_a_token_is_tried_for_fourteen_minutes_by_the_tokens_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    monkeypatch.setattr(tokens, "clock", lambda: now[0])
    token = ClickToken.of(_click("t1"))  # type: ignore[arg-type]
    assert token.clicked_at == 1000.0 and token.usable
    now[0] += TOKEN_SECONDS
    assert token.usable
    now[0] += 1
    assert not token.usable


def test_a_token_discord_refused_is_never_tried_again_other_refusals_leave_it() -> None:
    token = ClickToken.of(_click("t1"))  # type: ignore[arg-type]
    token.note_refusal(_refusal(404, 10008, "Unknown Message"))  # the message, not the token
    assert token.usable
    token.note_refusal(_refusal(401, 50027, "Invalid Webhook Token"))
    assert token.refused and not token.usable


def test_the_dm_plan_uses_the_seats_own_token_object_for_its_last_click() -> None:
    seat = Seat(seat=0, name="Alice", user_id=1)
    click = _click("t1")
    seat.token = ClickToken.of(click)  # type: ignore[arg-type]
    assert _click_token(seat, click) is seat.token  # type: ignore[arg-type]
    other = _click_token(seat, _click("t2"))  # type: ignore[arg-type]
    assert other is not seat.token and other.token == "t2"


def test_a_shared_click_keeps_its_age_across_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared (``click_tokens``), a click carries its age; the driving process dates it by
    its own clock from that age, so it expires there when it would have where it came."""
    now = [1000.0]
    monkeypatch.setattr(tokens, "clock", lambda: now[0])
    served = ClickToken.of(_click("t1", message_id=55))  # type: ignore[arg-type]
    now[0] += 30.0
    shared = served.shared()
    assert (shared.application_id, shared.token, shared.message_id, shared.age) == (
        7,
        "t1",
        55,
        30.0,
    )
    assert "t1" not in repr(shared)
    now[0] = 50_000.0  # another process, another monotonic clock
    adopted = ClickToken.of_shared(SimpleNamespace(), shared)  # type: ignore[arg-type]
    assert adopted.clicked_at == 50_000.0 - 30.0 and adopted.usable
    now[0] += TOKEN_SECONDS - 30.0 + 1
    assert not adopted.usable


def test_the_driver_takes_a_shared_click_as_the_seats_latest_unless_it_holds_a_later_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.host.cluster import TableLog
    from bot.store import SharedClick

    now = [1000.0]
    monkeypatch.setattr(tokens, "clock", lambda: now[0])
    host = SimpleNamespace(ctx=SimpleNamespace(bot=SimpleNamespace()))
    table = SimpleNamespace(seats=[Seat(seat=0, name="Alice", user_id=1)])
    seat = table.seats[0]
    adopt = TableLog._adopt_click
    adopt(host, table, 0, SharedClick(7, "t1", 55, age=5.0))  # type: ignore[arg-type]
    assert seat.token.token == "t1" and seat.token.clicked_at == 995.0
    assert seat.acted_at is not None  # playing since the click: the next DM is an edit
    # An older click read later (its move came first) does not replace a newer one.
    adopt(host, table, 0, SharedClick(7, "t0", 54, age=60.0))  # type: ignore[arg-type]
    assert seat.token.token == "t1"
    adopt(host, table, 0, SharedClick(7, "t2", 56, age=1.0))  # type: ignore[arg-type]
    assert seat.token.token == "t2" and seat.token.message_id == 56
    # A seat the table does not have (a log from elsewhere cannot make one): nothing.
    adopt(host, table, 3, SharedClick(7, "t3", 57, age=1.0))  # type: ignore[arg-type]
    assert seat.token.token == "t2"
