"""bot.host.clicks: what a seat keeps of its players' clicks."""

from __future__ import annotations

from types import SimpleNamespace

from bot.host.clicks import keep_token, let_go_of_payloads
from bot.host.table import Seat


def _click(message_id: int) -> SimpleNamespace:
    return SimpleNamespace(
        token=f"t{message_id}", message=SimpleNamespace(id=message_id), _original_response=object()
    )


def test_a_new_click_keeps_the_previous_one_for_its_token_only() -> None:
    seat = Seat(seat=0, name="Alice", user_id=1)
    first, second = _click(10), _click(11)
    keep_token(seat, first)
    assert seat.token is first and seat.token_at > 0 and seat.token_message == 10
    seat.dm_token = first  # the DM being shown was sent through the first click
    keep_token(seat, second)
    assert seat.token is second and seat.token_message == 11
    # The first click stays usable for its token (seat.dm_token) but holds no payloads.
    assert seat.dm_token is first and first.token == "t10"
    assert first.message is None and first._original_response is None


def test_the_same_click_kept_twice_keeps_its_message_id() -> None:
    seat = Seat(seat=0, name="Alice", user_id=1)
    click = _click(10)
    keep_token(seat, click)
    keep_token(seat, click)
    assert seat.token is click and seat.token_message == 10


def test_a_handled_click_keeps_its_token_and_the_id_of_its_message_only() -> None:
    seat = Seat(seat=0, name="Alice", user_id=1)
    click = _click(10)
    keep_token(seat, click)
    let_go_of_payloads(click)  # the click has been answered
    assert seat.token is click and click.token == "t10" and seat.token_message == 10
    assert click.message is None and click._original_response is None
