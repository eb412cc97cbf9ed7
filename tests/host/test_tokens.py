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
