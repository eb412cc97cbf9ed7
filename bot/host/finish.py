"""The end of a table: results written once and announced, or the table aborted (by its
host, a manager, or because only AIs were left); its controls retired and the table
forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from bot.games import game_title
from bot.host.base import HostBase
from bot.host.budget import Priority
from bot.host.components import lobby_view, release_view
from bot.host.replies import can_manage, ephemeral
from bot.host.table import Table
from bot.host.text import NO_PINGS, player_name
from bot.i18n import Text, format_number, localize, normalize
from bot.store import ResultInput

log = logging.getLogger(__name__)


class FinishMixin(HostBase):
    async def _finish(self, table: Table, *, quiet: bool = True) -> None:
        """Write the results once, then announce them — only if this process wrote them:
        the store records a table's results once, also when two processes try at once, so
        "is over" is posted once.

        If the store fails meanwhile, the table's driver tries again after a pause, for as
        long as it takes (``DriverMixin._drive`` calls this with ``quiet=False``: the
        failure is raised, and the driver pauses before the next try): the match is never
        left unrecorded, with its table active and its lease held."""
        if table.finished or table.ending:
            return
        table.ending = True
        try:
            recorded = await self._record_result(table)
        except Exception as e:
            table.ending = False
            # The write may have been committed with its answer lost: a later try finding
            # the results there then announces them (see _record_result).
            table.result_unsure = True
            log.warning("table %s: recording its results failed (%r); trying again", table.id, e)
            if not quiet:
                raise
            table.wake_driver()
            return
        await self._announce_end(table, recorded)

    async def _record_result(self, table: Table) -> bool:
        """Write the match's results; whether this process is the one to announce them."""
        result = table.state.result()
        team_of = {seat: t for t, team in enumerate(result.teams) for seat in team}
        rows = [
            ResultInput(
                seat=s.seat,
                user_id=None if s.is_ai else s.user_id,
                name=s.name,
                score=result.scores[s.seat],
                place=result.placements[s.seat],
                team=team_of.get(s.seat, s.seat),
            )
            for s in table.seats
        ]
        assert table.guild_id is not None  # (a stored table's is never NULL)
        recorded = await self.store.record_result(
            table.id,
            guild_id=table.guild_id,
            game=table.game,
            rows=rows,
            rating_games=result.rating_games,
        )
        if not recorded and table.result_unsure:
            # An earlier try of ours failed, perhaps after its commit. Ours if the lease is
            # still this process's: a finished table's lease is claimed by nobody, so
            # another process writing the end would have claimed it from us before.
            row = await self.store.get_table(table.id)
            recorded = (
                row is not None
                and row.status == "finished"
                and await self.store.lease_owner(table.id) == self.owner
            )
        return recorded

    async def _announce_end(self, table: Table, recorded: bool) -> None:
        """The results are in the store: say so in the thread (once: ``recorded`` by this
        process), close the controls, forget the table."""
        result = table.state.result()
        table.finished = True  # recorded, here or elsewhere (or the table was aborted)
        await self._release(table.id)
        if not recorded:
            log.info(
                "table %s: its results were recorded by another process, or it was aborted",
                table.id,
            )
            self._evict(table)
            return
        table.mark_dirty()
        ranking = sorted(table.seats, key=lambda s: (result.placements[s.seat], s.seat))
        loc = table.locale
        title = game_title(table.spec.name, loc)
        lines = [localize(loc, Text("🏁 **{game}** #{table} is over.", game=title, table=table.id))]
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        for s in ranking:
            place = result.placements[s.seat]
            who = f"<@{s.user_id}>" if s.user_id and not s.is_ai else f"🤖 {s.name}"
            score = format_number(loc, result.scores[s.seat])
            lines.append(f"{medals.get(place, f'{place}.')} {who} — {score}")
        lines.append(localize(loc, Text("See `/leaderboard` for the server's standings.")))
        humans = [s.user_id for s in table.seats if s.user_id and not s.is_ai]
        await self._post(table, "\n".join(lines), ping=humans)
        for s in table.seats:
            if not s.is_ai and s.user_id is not None and not s.dms_closed:
                await self._refresh_dm(table, s)
        await self._close_lobby_message(
            table.id,
            table.channel_id,
            table.lobby_message_id,
            Text("Finished — results in the thread."),
        )
        await self._show_table(table)
        self._evict(table)
        log.info("table %s finished: %s", table.id, result.scores)

    async def abort(self, interaction: discord.Interaction, table_id: int) -> None:
        row = await self.store.get_table(table_id)
        # A table is reached from its own guild only; elsewhere it does not exist.
        self.remember_locale(interaction)
        no_table = Text("There is no open table #{table} in this server.", table=table_id)
        if (
            row is None
            or row.guild_id != interaction.guild_id
            or row.status not in ("lobby", "active")
        ):
            await ephemeral(interaction, no_table)
            return
        if not (interaction.user.id == row.host_id or can_manage(interaction)):
            await ephemeral(
                interaction, Text("Only the table's host or a server manager can abort it.")
            )
            return
        await self.table(table_id)  # replayed first if a restart left it pending
        if not await self.store.transition(table_id, ("lobby", "active"), "aborted"):
            await ephemeral(interaction, no_table)
            return
        self._lobby_closed(table_id)
        table = self.tables.pop(table_id, None)
        note = Text(
            "🛑 Table #{table} was aborted by {name}.",
            table=table_id,
            name=player_name(interaction.user.display_name),
        )
        # A public answer: in the table's language.
        await interaction.response.send_message(
            localize(normalize(row.locale), note), allowed_mentions=NO_PINGS
        )
        if table is not None:
            await self._retire(table, note, in_thread=interaction.channel_id != table.thread_id)
        else:
            await self._close_lobby_message(table_id, row.channel_id, row.lobby_message_id, note)

    async def _retire(self, table: Table, note: str, *, in_thread: bool) -> None:
        """Stop an aborted table: its tasks, its lease, its controls (DMs, table message,
        lobby). ``note`` (a ``Text``) is said in the thread's and each player's language."""
        table.finished = True
        table.driven = False
        await self._release(table.id)
        for task in table.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        async with table.lock:  # let an action in progress finish first
            if in_thread:
                await self._post(table, note)
            for seat in table.seats:
                if seat.user_id is None or seat.is_ai or seat.dm_message_id is None:
                    continue
                loc = self.seat_locale(seat)
                content = Text(
                    "**{game}** #{table}: {note}",
                    game=game_title(table.spec.name, loc),
                    table=table.id,
                    note=note,
                )
                with contextlib.suppress(discord.HTTPException):
                    await self._edit_dm(
                        seat, None, {"content": localize(loc, content), "view": None}
                    )
            with contextlib.suppress(discord.HTTPException):
                if table.table_message_id is not None:
                    await self.budget.acquire(Priority.TABLE)
                    await self._edit_table_message(table, view=None)
            await self._close_lobby_message(
                table.id, table.channel_id, table.lobby_message_id, note
            )

    async def _close_lobby_message(
        self, table_id: int, channel_id: int, message_id: int | None, note: str
    ) -> None:
        """Show the lobby message closed (its buttons disabled) with a note why."""
        if message_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            row = await self.store.get_table(table_id)
            if row is None:
                return
            embed = await self._lobby_embed(table_id, note=note, row=row)
            await self.budget.acquire(Priority.BACKGROUND)
            view = lobby_view(table_id, closed=True, locale=row.locale)
            try:
                message = self._channel(channel_id).get_partial_message(message_id)
                await message.edit(embed=embed, view=view)
            finally:
                release_view(view)

    def _evict(self, table: Table) -> None:
        """Forget a finished table (its messages are final; a click on them finds the table
        finished in the store and is refused) and stop its updater and driver."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for task in table.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        table.tasks = []

    def table_in_channel(self, channel_id: int | None) -> int | None:
        for table in self.tables.values():
            if channel_id in (table.thread_id, table.channel_id) and not table.finished:
                return table.id
        return None
