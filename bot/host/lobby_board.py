"""A lobby's message and its expiry: what the lobby, a table's start and its end show of
the lobby, and the lobby's lock (one change of a lobby at a time)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from bot.games import game_spec, game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.components import lobby_view, release_view
from bot.host.options import shown_options
from bot.i18n import Text, localize, ntext
from bot.store import TableRow

log = logging.getLogger(__name__)


class LobbyBoard:
    """The lobby messages, the lobbies' locks and their expiry timers (in the scheduler)."""

    def __init__(self, ctx: HostContext) -> None:
        self.ctx = ctx
        self.lobby_locks: dict[int, asyncio.Lock] = {}

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lobby's lock (one change of the lobby at a time)."""
        return self.lobby_locks.setdefault(table_id, asyncio.Lock())

    def schedule_lobby_expiry(self, table_id: int, delay: float) -> None:
        self.ctx.scheduler.spawn(
            ("lobby", table_id),
            self._expire_lobby(table_id, delay),
            name=f"lobby-{table_id}-expiry",
        )

    async def _expire_lobby(self, table_id: int, delay: float) -> None:
        """A lobby nobody started closes itself after ``lobby_ttl`` and says so."""
        try:
            await asyncio.sleep(max(0.0, delay))
            lock = self.lock(table_id)
            async with lock:
                if not await self.ctx.store.transition(table_id, ("lobby",), "aborted"):
                    return
                minutes = max(1, round(self.ctx.settings.lobby_ttl / 60))
                note = ntext(
                    "Closed: nobody started this table within {n} minute.",
                    "Closed: nobody started this table within {n} minutes.",
                    minutes,
                )
                row = await self.ctx.store.get_table(table_id)
                if row is not None:
                    await self.close_lobby_message(
                        table_id, row.channel_id, row.lobby_message_id, note
                    )
                log.info("table %s: lobby expired", table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: closing the expired lobby failed", table_id)
        finally:
            self.ctx.scheduler.discard(("lobby", table_id), asyncio.current_task())
            self.lobby_locks.pop(table_id, None)

    def lobby_closed(self, table_id: int) -> None:
        """Forget a lobby's lock and expiry timer once it has started or closed."""
        self.ctx.scheduler.cancel(("lobby", table_id))
        self.lobby_locks.pop(table_id, None)

    async def lobby_embed(
        self, table_id: int, note: str = "", row: TableRow | None = None
    ) -> discord.Embed:
        """The lobby message, in the table's language (``note``: a ``Text`` said in it)."""
        row = row or await self.ctx.store.get_table(table_id)
        assert row is not None
        loc = row.locale
        spec = game_spec(row.game)
        seats = {s.seat: s for s in await self.ctx.store.get_seats(table_id)}
        team_of = spec.team_of()
        lines = []
        for i in range(spec.seats):
            s = seats.get(i)
            who = (
                localize(loc, Text("*empty*"))
                if s is None
                else f"🤖 {s.name}"
                if s.is_ai
                else f"<@{s.user_id}>"
            )
            team = (
                localize(loc, Text(" · team {team}", team="AB"[team_of[i]])) if i in team_of else ""
            )
            lines.append(f"`{i + 1}` — {who}{team}")
        status = {
            "lobby": Text("Waiting for players"),
            "active": Text("In play"),
            "finished": Text("Finished", context="status"),
            "aborted": Text("Cancelled", context="status"),
        }[row.status]
        embed = discord.Embed(
            title=localize(
                loc,
                Text("{game} — table #{table}", game=game_title(spec.name, loc), table=table_id),
            ),
            description="\n".join(lines),
            colour=discord.Colour.from_rgb(176, 48, 48),
        )
        options = shown_options(row.options, loc)
        if options:
            embed.add_field(name=localize(loc, Text("Options")), value=options)
        embed.add_field(name=localize(loc, Text("Status")), value=localize(loc, status))
        embed.set_footer(
            text=localize(loc, note)
            or localize(
                loc,
                Text(
                    "Join to take a seat. The host may add AI players and start when all "
                    "seats are filled."
                ),
            )
        )
        return embed

    async def close_lobby_message(
        self, table_id: int, channel_id: int, message_id: int | None, note: str
    ) -> None:
        """Show the lobby message closed (its buttons disabled) with a note why."""
        if message_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            row = await self.ctx.store.get_table(table_id)
            if row is None:
                return
            embed = await self.lobby_embed(table_id, note=note, row=row)
            await self.ctx.budget.acquire(Priority.BACKGROUND)
            view = lobby_view(table_id, closed=True, locale=row.locale)
            try:
                message = self.ctx.channel(channel_id).get_partial_message(message_id)
                await message.edit(embed=embed, view=view)
            finally:
                release_view(view)
