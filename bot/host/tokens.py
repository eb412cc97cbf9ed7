"""What the host keeps of a DM click to answer through it later.

A component click's token is valid for 15 minutes, and what goes through its webhook (a
follow-up, an edit of the message it was on) costs none of the bot's REST budget: a seat
keeps its last DM click for that (``Seat.token``), and a DM plan the click that led to it.
They keep a :class:`ClickToken`, not the ``discord.Interaction``: with its user, channel,
context and raw payloads that was about 2 KiB and a dozen objects the garbage collector
walks, per player (a few thousand at 1,000 tables).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.store import SharedClick

#: How a click's webhook names the message the click was on (its "original response").
ORIGINAL_MESSAGE = "@original"
#: An interaction token is valid 15 minutes; the host uses one a little less long than that
#: (a request sent at 14:59 must not arrive after 15:00).
TOKEN_SECONDS = 14 * 60
#: Discord's answer to a request through a token that is no longer valid.
INVALID_WEBHOOK_TOKEN = 50027
#: The clock tokens are timed by (monotonic seconds; tests step it).
clock = time.monotonic


@dataclass(slots=True, eq=False)
class ClickToken:
    """A click's webhook (the application's id and the click's token) and the id of the
    message the click was on; it answers as the interaction would, while it is valid. The
    token is a credential (whoever has it may answer as the bot for 15 minutes): it stays
    out of the repr, so out of logs and tracebacks."""

    client: discord.Client = field(repr=False)
    application_id: int
    token: str = field(repr=False)
    message_id: int | None
    #: When the click came (:data:`clock`).
    clicked_at: float = field(default_factory=lambda: clock())
    #: Discord refused it (401 / 50027, Invalid Webhook Token): never tried again.
    refused: bool = False

    @classmethod
    def of(cls, interaction: discord.Interaction) -> ClickToken:
        message = interaction.message
        return cls(
            interaction.client,
            interaction.application_id,
            interaction.token,
            message.id if message is not None else None,
        )

    @classmethod
    def of_shared(cls, client: discord.Client, click: SharedClick) -> ClickToken:
        """A click another process served, as it shared it (see :meth:`shared`): its age
        by the database's clock becomes its time by this process's :data:`clock`."""
        return cls(
            client,
            click.application_id,
            click.token,
            click.message_id,
            clicked_at=clock() - click.age,
        )

    def shared(self) -> SharedClick:
        """The click as the store shares it with the process driving its table."""
        return SharedClick(
            self.application_id, self.token, self.message_id, max(0.0, clock() - self.clicked_at)
        )

    @property
    def usable(self) -> bool:
        """Still worth trying: younger than :data:`TOKEN_SECONDS` and not refused."""
        return not self.refused and clock() - self.clicked_at <= TOKEN_SECONDS

    def note_refusal(self, error: discord.HTTPException) -> None:
        """Remember Discord's refusal of the token itself (not of what was sent through it)."""
        if error.code == INVALID_WEBHOOK_TOKEN:
            self.refused = True

    @property
    def followup(self) -> discord.Webhook:
        """The click's webhook, made as ``discord.Interaction.followup`` makes it."""
        return discord.Webhook.from_state(
            data={"id": self.application_id, "type": 3, "token": self.token},
            state=self.client._connection,  # (discord.py's: what its followup uses too)
        )

    async def edit_original_response(self, **edit: Any) -> None:
        """Edit the message the click was on (``PATCH …/messages/@original``)."""
        await self.followup.edit_message(ORIGINAL_MESSAGE, **edit)  # type: ignore[call-overload]  # (an id typed int; "@original" works)
