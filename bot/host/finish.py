"""The end of a table: results written once and announced, or the table aborted (by its
host, a manager, or because only AIs were left); its controls retired and the table
forgotten.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.games import game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.cluster import Leases
from bot.host.intents import Outcome
from bot.host.lobby_board import LobbyBoard
from bot.host.outbox import Outbox
from bot.host.presenter import Presenter
from bot.host.recovery import Recovery
from bot.host.table import Table
from bot.i18n import Text, format_number, localize
from bot.store import ResultInput

log = logging.getLogger(__name__)


class Results:
    """A table's end: the result recorded and announced, an aborted table retired."""

    def __init__(
        self,
        ctx: HostContext,
        presenter: Presenter,
        outbox: Outbox,
        recovery: Recovery,
        leases: Leases,
        board: LobbyBoard,
    ) -> None:
        self.ctx = ctx
        self.presenter = presenter
        self.outbox = outbox
        self.recovery = recovery
        self.leases = leases
        self.board = board

    async def on_outcome(self, outcome: Outcome) -> None:
        """A subscriber of the tables' logs (after the presenter): a change that ended the
        match writes and announces its results — where the table is driven (one end)."""
        table = outcome.table
        if table.driven and table.state.is_over and not table.finished:
            await self.finish(table)

    async def finish(self, table: Table, *, quiet: bool = True) -> None:
        """Write the results once, then announce them — only if this process wrote them:
        the store records a table's results once, also when two processes try at once, so
        "is over" is posted once.

        If the store fails meanwhile, the table's driver tries again after a pause, for as
        long as it takes (``Driver.drive`` calls this with ``quiet=False``: the
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
        recorded = await self.ctx.store.record_result(
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
            row = await self.ctx.store.get_table(table.id)
            recorded = (
                row is not None
                and row.status == "finished"
                and await self.ctx.store.lease_owner(table.id) == self.ctx.owner
            )
        return recorded

    async def _announce_end(self, table: Table, recorded: bool) -> None:
        """The results are in the store: say so in the thread (once: ``recorded`` by this
        process), close the controls, forget the table."""
        result = table.state.result()
        table.finished = True  # recorded, here or elsewhere (or the table was aborted)
        await self.leases.release(table.id)
        if not recorded:
            log.info(
                "table %s: its results were recorded by another process, or it was aborted",
                table.id,
            )
            self.ctx.evict(table)
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
        await self.outbox.post(table, "\n".join(lines), ping=humans)
        for s in table.seats:
            if not s.is_ai and s.user_id is not None and not s.dms_closed:
                await self.presenter.refresh_dm(table, s)
        await self.board.close_lobby_message(
            table.id,
            table.channel_id,
            table.lobby_message_id,
            Text("Finished — results in the thread."),
        )
        await self.presenter.show_table(table)
        self.ctx.evict(table)
        log.info("table %s finished: %s", table.id, result.scores)

    async def retire(self, table: Table, note: str, *, in_thread: bool) -> None:
        """Stop an aborted table: its tasks, its lease, its controls (DMs, table message,
        lobby). ``note`` (a ``Text``) is said in the thread's and each player's language."""
        table.finished = True
        table.driven = False
        await self.leases.release(table.id)
        self.ctx.scheduler.cancel_table(table)
        async with table.lock:  # let an action in progress finish first
            if in_thread:
                await self.outbox.post(table, note)
            for seat in table.seats:
                if seat.user_id is None or seat.is_ai or seat.dm_message_id is None:
                    continue
                loc = self.ctx.seat_locale(seat)
                content = Text(
                    "**{game}** #{table}: {note}",
                    game=game_title(table.spec.name, loc),
                    table=table.id,
                    note=note,
                )
                with contextlib.suppress(discord.HTTPException):
                    await self.outbox.edit_dm(
                        seat, None, {"content": localize(loc, content), "view": None}
                    )
            with contextlib.suppress(discord.HTTPException):
                if table.table_message_id is not None:
                    await self.ctx.budget.acquire(Priority.TABLE)
                    await self.recovery.edit_table_message(table, view=None)
            await self.board.close_lobby_message(
                table.id, table.channel_id, table.lobby_message_id, note
            )
