"""A TableHost without Discord, on a real store: no channel is found, nothing is sent, no
image is drawn. For host tests that need the game flow and the store, not the messages.

``record=True`` keeps what the host would have shown instead: its thread posts
(``host.posts``) and the DM refreshes it would have sent (``host.dms``), per table. A
:class:`Click` stands in for a player's button press (what the host reads of one)."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from bot.config import Settings
from bot.host.manager import TableHost
from bot.store import Store


class NoDiscord:
    """The few bot methods the host calls when it has nothing to send to."""

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> None:
        return None

    async def wait_until_ready(self) -> None:
        return None


_HOST_NUMBERS = itertools.count(1)


async def offline_host(path: str, *, record: bool = False, **settings: Any) -> TableHost:
    store = await Store.open(path)
    # Hosts in one test stand for different processes unless a test names them alike (a
    # restart): each gets a name of its own, so none takes back another's leases.
    settings.setdefault("process_name", f"offline-{next(_HOST_NUMBERS)}")
    host = TableHost(NoDiscord(), store, Settings(token="t", database=path, **settings))  # type: ignore[arg-type]

    async def no_image(*args: Any, **kwargs: Any) -> None:
        return None

    host.outbox.render = no_image  # type: ignore[method-assign]
    host.outbox.render_view = no_image  # type: ignore[method-assign]
    if record:
        host.posts = []  # type: ignore[attr-defined]
        host.dms = []  # type: ignore[attr-defined]
        host.fresh_dms = []  # type: ignore[attr-defined]  # (table, seat, picture's priority)

        async def post(table: Any, text: str, *args: Any, **kwargs: Any) -> None:
            host.posts.append((table.id, text))  # type: ignore[attr-defined]

        async def refresh_dm(table: Any, seat: Any, *args: Any, **kwargs: Any) -> None:
            host.dms.append((table.id, seat.seat))  # type: ignore[attr-defined]

        async def carry_out(table: Any, seat: Any, *args: Any, **kwargs: Any) -> None:
            host.dms.append((table.id, seat.seat))  # type: ignore[attr-defined]

        def carry_out_later(table: Any, seat: Any, *args: Any, **kwargs: Any) -> None:
            host.dms.append((table.id, seat.seat))  # type: ignore[attr-defined]

        async def fresh_dm(table: Any, seat: Any, plan: Any) -> None:
            if plan is not None:
                host.dms.append((table.id, seat.seat))  # type: ignore[attr-defined]
                host.fresh_dms.append((table.id, seat.seat, plan.priority))  # type: ignore[attr-defined]

        host.outbox.post = post  # type: ignore[method-assign]
        host.sessions._fresh_dm = fresh_dm  # type: ignore[method-assign]
        host.presenter.refresh_dm = refresh_dm  # type: ignore[method-assign]
        # (the DMs a change's deliveries carry: bot.host.outbox.Outbox.deliver)
        host.outbox.carry_out = carry_out  # type: ignore[method-assign]
        host.outbox.carry_out_later = carry_out_later  # type: ignore[method-assign]
    return host


class Click:
    """A player's click on a DM button, as the host sees it: who, where, and the answers it
    got (ephemeral texts)."""

    def __init__(self, user_id: int) -> None:
        self.user = SimpleNamespace(id=user_id)
        self.guild_id = None  # a DM
        self.message = None
        # (its webhook, which a seat keeps: bot.host.tokens.ClickToken)
        self.client = None
        self.application_id = 1
        self.token = f"token-{user_id}"
        self.locale = "en-US"
        self.answers: list[str] = []
        self.deferred = False
        #: The modal it was answered with (a form button's), if any.
        self.modal: Any = None
        #: A form's submission (``bot.host.components.form_answers`` reads it).
        self.data: dict[str, Any] | None = None
        click = self

        class Response:
            def is_done(self) -> bool:
                return click.deferred

            async def defer(self, **kwargs: Any) -> None:
                click.deferred = True

            async def send_message(self, text: str = "", **kwargs: Any) -> None:
                click.deferred = True
                click.answers.append(text)

            async def send_modal(self, modal: Any) -> None:
                click.deferred = True
                click.modal = modal

        class Followup:
            async def send(self, text: str = "", **kwargs: Any) -> None:
                click.answers.append(text)

        self.response = Response()
        self.followup = Followup()


async def until(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    """Wait until ``condition()`` is true (a bounded wait, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never came true")
        await asyncio.sleep(0.01)
    return value
