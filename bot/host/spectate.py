"""What onlookers see: the **Spectate** button of the table message, and the summary posted
in the thread when a deal ends.

- **Spectate** answers anyone in the server privately with the spectator's table as it is
  now — the public view (``state.view(None)``) drawn by the game's table renderer, the same
  picture as the table message — with the status line, the scores and the last moves, and
  a **Refresh** button that redraws it in place. Nothing in it comes from a seat's view,
  so it never shows hidden cards.
- **Deal summaries** name the deal's result and the totals and reveal the hands as they
  stood when the deal ended (text, and a picture: the game's score sheet over every hand
  face up, rendered in the pool; see :mod:`bot.render.reveal`).
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from bot.games import game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.components import spectator_view
from bot.host.intents import Outcome
from bot.host.lifecycle import Sessions
from bot.host.options import game_options
from bot.host.outbox import Outbox
from bot.host.presenter import Presenter
from bot.host.replies import ephemeral, from_table_guild, locale_of, may_see_channel
from bot.host.table import Table
from bot.host.text import NO_PINGS
from bot.i18n import DEFAULT_LOCALE, Text, format_number, localize
from bot.i18n.text import commas
from bot.render.reveal import deal_end_png

log = logging.getLogger(__name__)


def spectator_text(table: Table, locale: str = DEFAULT_LOCALE) -> str:
    """The spectator view's text, in ``locale``: what anyone at the table may know (names,
    no pings)."""
    loc = locale
    state = table.state
    view = state.view(None)
    head = localize(
        loc,
        Text(
            "👀 **{game}** · table #{table}", game=game_title(table.spec.name, loc), table=table.id
        ),
    )
    progress = table.spec.progress(view)
    if progress:
        head += f" · {localize(loc, progress)}"
    lines = [head]
    scores = view.get("scores") or []
    if scores:
        totals = " · ".join(
            f"{s.name} {format_number(loc, score)}"
            for s, score in zip(table.seats, scores, strict=False)
        )
        lines.append(localize(loc, Text("Scores: {scores}", scores=totals)))
    if table.recent:
        lines.append(localize(loc, Text("Last moves:")))
        lines += [f"• {localize(loc, text)}" for text in table.recent]
    if state.is_over:
        lines.append(localize(loc, Text("🏁 The match is over.")))
    else:
        waiting = [table.seats[s] for s in table.waiting_on()]
        if waiting:
            who = tuple(f"🤖 {s.name}" if s.played_by_ai else s.name for s in waiting)
            lines.append(localize(loc, Text("⏳ {names} to act", names=who)))
    lines.append(
        localize(
            loc,
            Text(
                "As of {time} — **Refresh** for the table as it is now.",
                time=f"<t:{int(time.time())}:T>",
            ),
        )
    )
    return "\n".join(lines)[:1900]


def hands_line(
    names: Sequence[str],
    hands: Sequence[Sequence[str]],
    locale: str = DEFAULT_LOCALE,
    card_name: Callable[[str], str] = str,
) -> str:
    """Each player's hand at the end of a deal, in one line, in ``locale``: the cards by
    their names (``card_name``: the game's, from a code), never their codes."""
    if not any(hands):
        return str(localize(locale, Text("Hands at the end: every card was played.")))
    parts = [
        localize(
            locale, Text("{name}: {cards}", name=name, cards=commas([card_name(c) for c in hand]))
        )
        if hand
        else localize(locale, Text("{name} (no cards)", name=name))
        for name, hand in zip(names, hands, strict=False)
    ]
    return str(localize(locale, Text("Hands at the end: {hands}", hands=" · ".join(parts))))


class Spectate:
    """The Spectate button, and the deal summaries posted in the thread (a subscriber of
    the tables' logs)."""

    def __init__(
        self,
        ctx: HostContext,
        sessions: Sessions,
        presenter: Presenter,
        outbox: Outbox,
    ) -> None:
        self.ctx = ctx
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = outbox

    async def on_spectate(
        self, interaction: discord.Interaction, table_id: int, *, refresh: bool
    ) -> None:
        """Spectate (a new private message) or Refresh (that message, redrawn in place).

        Only from the table's server, by a member who can see the table's channel: the
        buttons are on the table message, so a click from a DM, another server or another
        channel's member is forged (its custom id typed by hand)."""
        if interaction.guild_id is None:
            await ephemeral(
                interaction, Text("Spectate works from the table's message in its server.")
            )
            return
        table = await self.sessions.table(table_id)
        if table is None or table.finished or not from_table_guild(interaction, table):
            if refresh:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.edit_message(
                        content=localize(
                            locale_of(interaction),
                            Text("🏁 This table is no longer running: its thread has the end."),
                        ),
                        attachments=[],
                        view=None,
                    )
                    return
            await ephemeral(interaction, Text("This table is no longer running."))
            return
        if not may_see_channel(interaction, table.channel_id):
            await ephemeral(
                interaction, Text("You cannot see the channel this table is played in.")
            )
            return
        locale = locale_of(interaction)
        if refresh:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        async with table.lock:
            if not table.driven:  # a cache of the log: catch up first
                await self.sessions.of(table).catch_up()
            public = table.state.view(None)
            content = spectator_text(table, locale)
            over = table.state.is_over
        file = await self._render_public(table, public, locale)
        kwargs: dict[str, Any] = {"content": content}
        view = None if over else spectator_view(table.id, locale)
        if refresh:
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    attachments=[file] if file else [], view=view, **kwargs
                )
            return
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)

    async def _render_public(
        self, table: Table, public: Mapping[str, Any], locale: str = DEFAULT_LOCALE
    ) -> discord.File | None:
        """The table picture of a public view in ``locale``, in the render pool (behind the
        players' renders: a spectator waits)."""
        return await self.outbox.render_view(
            table, "render_table", public, Priority.TABLE, f"{table.game}-spectator.png", locale
        )

    async def on_outcome(self, outcome: Outcome) -> None:
        """A subscriber of the tables' sessions: a deal that ended gets its summary in the
        thread — where the table is driven (one poster)."""
        table = outcome.table
        if not table.driven:
            return
        for event in outcome.events:
            if event.kind == table.spec.deal_end_kind:
                await self.post_deal_summary(table, event.text)

    async def post_deal_summary(self, table: Table, text: str) -> None:
        """A deal ended: post its result, the totals and the hands as they stood at the end
        (with the score sheet and the hands face up in one picture), in the table's
        language."""
        loc = table.locale
        names = [s.name for s in table.seats]
        totals = " · ".join(
            f"{name} {format_number(loc, score)}"
            for name, score in zip(names, table.state.scores, strict=True)
        )
        reveal = data = None
        try:
            reveal, data = await self.ctx.in_render_pool(
                Priority.POST,
                functools.partial(deal_end_png, locale=loc),
                table.game,
                table.seed,
                names,
                game_options(table.options),
                list(table.state.log),
                table.state.view(None),
            )
        except Exception:
            log.exception("table %s: the deal summary could not be drawn", table.id)
        lines = [
            f"📜 {localize(loc, text)}",
            localize(loc, Text("Totals: {totals}", totals=totals)),
        ]
        if reveal is not None and reveal[0] != table.last_revealed:
            table.last_revealed = reveal[0]
            lines.append(hands_line(names, reveal[1], loc, table.spec.card_name))
        file = (
            discord.File(io.BytesIO(data), filename=f"{table.game}-deal-summary.png")
            if data
            else None
        )
        await self.outbox.post(table, "\n".join(lines), file)


__all__ = ["Spectate", "hands_line", "spectator_text"]
