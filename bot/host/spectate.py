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

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot.host.base import HostBase
from bot.host.budget import Priority
from bot.host.components import spectator_view
from bot.host.options import game_options
from bot.host.replies import ephemeral, from_table_guild
from bot.host.table import Table
from bot.host.text import NO_PINGS
from bot.render.reveal import deal_end_png
from bot.render.worker import pool as render_pool

log = logging.getLogger(__name__)


def spectator_text(table: Table) -> str:
    """The spectator view's text: what anyone at the table may know (names, no pings)."""
    state = table.state
    view = state.view(None)
    head = f"👀 **{table.title}** · table #{table.id}"
    progress = table.spec.progress(view)
    if progress:
        head += f" · {progress}"
    lines = [head]
    scores = view.get("scores") or []
    if scores:
        lines.append(
            "Scores: "
            + " · ".join(f"{s.name} {score}" for s, score in zip(table.seats, scores, strict=False))
        )
    if table.recent:
        lines.append("Last moves:")
        lines += [f"• {text}" for text in table.recent]
    if state.is_over:
        lines.append("🏁 The match is over.")
    else:
        waiting = [table.seats[s] for s in table.waiting_on()]
        if waiting:
            who = ", ".join(f"🤖 {s.name}" if s.played_by_ai else s.name for s in waiting)
            lines.append(f"⏳ {who} to act")
    lines.append(f"As of <t:{int(time.time())}:T> — **Refresh** for the table as it is now.")
    return "\n".join(lines)[:1900]


def hands_line(names: Sequence[str], hands: Sequence[Sequence[str]]) -> str:
    """Each player's hand at the end of a deal, in one line of card codes."""
    if not any(hands):
        return "Hands at the end: every card was played."
    parts = [
        f"{name} {' '.join(hand)}" if hand else f"{name} (no cards)"
        for name, hand in zip(names, hands, strict=False)
    ]
    return "Hands at the end: " + " · ".join(parts)


class SpectateMixin(HostBase):
    async def on_spectate(
        self, interaction: discord.Interaction, table_id: int, *, refresh: bool
    ) -> None:
        """Spectate (a new private message) or Refresh (that message, redrawn in place)."""
        table = await self.table(table_id)
        if table is None or table.finished or not from_table_guild(interaction, table):
            if refresh:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.edit_message(
                        content="🏁 This table is no longer running: its thread has the end.",
                        attachments=[],
                        view=None,
                    )
                    return
            await ephemeral(interaction, "This table is no longer running.")
            return
        if refresh:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        async with table.lock:
            if not table.driven:  # a cache of the log: catch up first
                await self._catch_up(table)  # type: ignore[attr-defined]
            public = table.state.view(None)
            content = spectator_text(table)
            over = table.state.is_over
        file = await self._render_public(table, public)
        kwargs: dict[str, Any] = {"content": content}
        view = None if over else spectator_view(table.id)
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

    async def _render_public(self, table: Table, public: dict[str, Any]) -> discord.File | None:
        """The table picture of a public view, in the render pool (behind the players'
        renders: a spectator waits)."""
        return await self._render_view(
            table, "render_table", public, Priority.TABLE, f"{table.game}-spectator.png"
        )

    async def _post_deal_summary(self, table: Table, text: str) -> None:
        """A deal ended: post its result, the totals and the hands as they stood at the end
        (with the score sheet and the hands face up in one picture)."""
        names = [s.name for s in table.seats]
        totals = " · ".join(
            f"{name} {score}" for name, score in zip(names, table.state.scores, strict=True)
        )
        loop = asyncio.get_running_loop()
        reveal = data = None
        await self.render_slots.acquire(Priority.POST)
        try:
            reveal, data = await loop.run_in_executor(
                render_pool(self.settings.render_processes),
                deal_end_png,
                table.game,
                table.seed,
                names,
                game_options(table.options),
                list(table.state.log),
                table.state.view(None),
            )
        except Exception:
            log.exception("table %s: the deal summary could not be drawn", table.id)
        finally:
            self.render_slots.release()
        lines = [f"📜 {text}", f"Totals: {totals}"]
        if reveal is not None and reveal[0] != table.last_revealed:
            table.last_revealed = reveal[0]
            lines.append(hands_line(names, reveal[1]))
        file = (
            discord.File(io.BytesIO(data), filename=f"{table.game}-deal-summary.png")
            if data
            else None
        )
        await self._post(table, "\n".join(lines), file)  # type: ignore[attr-defined]


__all__ = ["SpectateMixin", "hands_line", "spectator_text"]
