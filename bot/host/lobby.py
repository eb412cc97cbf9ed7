"""Lobbies: ``/<game> new`` (options, quotas), Join / Leave / Add AI / Start / Cancel, and a
lobby's expiry. Start hands over to :meth:`~bot.host.lifecycle.Sessions.start`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.spec import NORMAL
from bot.games import game_spec
from bot.host.base import HostContext
from bot.host.cluster import Leases
from bot.host.components import lobby_view, release_view
from bot.host.finish import Results
from bot.host.lifecycle import Sessions
from bot.host.lobby_board import LobbyBoard
from bot.host.options import validate_options
from bot.host.replies import can_manage, ephemeral
from bot.host.text import NO_PINGS, player_name
from bot.i18n import Text, localize, normalize, ntext
from bot.store import Quota, QuotaExceeded, SeatRow

log = logging.getLogger(__name__)


class Lobby:
    """``/<game> new``, the lobby's buttons and quotas, and ``/table abort``."""

    def __init__(
        self,
        ctx: HostContext,
        board: LobbyBoard,
        leases: Leases,
        sessions: Sessions,
        results: Results,
    ) -> None:
        self.ctx = ctx
        self.board = board
        self.leases = leases
        self.sessions = sessions
        self.results = results

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        language: str | None = None,
    ) -> None:
        """``/<game> new``: validate options, create the table row and post the lobby.

        ``language`` is the table's (its lobby, table message, posts and picture): one of
        ``bot.i18n.LOCALES``; by default the server's preferred locale."""
        self.ctx.remember_locale(interaction)
        try:
            validate_options(game, options)
        except ValueError as e:
            await ephemeral(interaction, e.args[0] if e.args else str(e), prefix="⚠️ ")
            return
        if interaction.guild_id is None:
            await ephemeral(interaction, Text("Tables are opened in a server channel, not in DMs."))
            return
        assert interaction.channel_id is not None  # (a command in a server has its channel)
        locale = normalize(language or getattr(interaction, "guild_locale", None))
        try:
            # The quotas are checked and the table made in one transaction: /new clicked
            # several times at once (on one process or several) opens no more than allowed.
            table_id = await self.ctx.store.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                game=game,
                options=options,
                seed=str(secrets.randbits(63)),
                host_id=interaction.user.id,
                locale=locale,
                quota=self._quota(),
            )
        except QuotaExceeded as refused:
            await ephemeral(interaction, self._quota_refusal(refused), prefix="⏳ ")
            return
        if self.ctx.settings.seed_base is not None:
            await self.ctx.store.update_table(
                table_id, seed=derived_seed(self.ctx.settings.seed_base, table_id)
            )
        user = interaction.user
        await self.ctx.store.set_seats(
            table_id,
            [SeatRow(seat=0, user_id=user.id, name=player_name(user.display_name), is_ai=False)],
        )
        embed = await self.board.lobby_embed(table_id)
        view = lobby_view(table_id, locale=locale, levels=list(game_spec(game).ai_levels()))
        try:
            callback = await interaction.response.send_message(
                embed=embed, view=view, allowed_mentions=NO_PINGS
            )
        finally:
            release_view(view)
        message_id = getattr(callback, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.ctx.store.update_table(table_id, lobby_message_id=message_id)
        self.board.schedule_lobby_expiry(table_id, self.ctx.settings.lobby_ttl)
        log.info("table %s: lobby for %s (%s) opened by %s", table_id, game, locale, user.id)

    def _quota(self) -> Quota:
        s = self.ctx.settings
        return Quota(
            lobbies_per_user=s.max_lobbies_per_user,
            tables_per_user=s.max_tables_per_user,
            lobbies_per_guild=s.max_lobbies_per_guild,
            tables_per_guild=s.max_tables_per_guild,
            cooldown=s.new_cooldown,
        )

    def _quota_refusal(self, refused: QuotaExceeded) -> Text:
        """Why the store refused a new table (the cap it hit), for the user."""
        s = self.ctx.settings
        if refused.limit == "cooldown":
            return Text(
                "You opened a table a moment ago; try again in {seconds} s.",
                seconds=f"{max(1.0, refused.wait):.0f}",
            )
        if refused.limit == "lobbies_per_user":
            return ntext(
                "You already have {n} open lobby: start or cancel it first.",
                "You already have {n} open lobbies: start or cancel one first.",
                s.max_lobbies_per_user,
            )
        if refused.limit == "tables_per_user":
            return ntext(
                "You already host {n} running table: finish it first.",
                "You already host {n} running tables: finish one first.",
                s.max_tables_per_user,
            )
        if refused.limit == "lobbies_per_guild":
            return ntext(
                "This server has {n} open lobby already: join it, or wait until it starts or "
                "closes.",
                "This server has {n} open lobbies already: join one of them, or wait until "
                "one starts or closes.",
                s.max_lobbies_per_guild,
            )
        return ntext(
            "This server has {n} table in play already: wait until it finishes.",
            "This server has {n} tables in play already: wait until one finishes.",
            s.max_tables_per_guild,
        )

    async def on_lobby(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str = NORMAL
    ) -> None:
        lock = self.board.lobby_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            await self._on_lobby(interaction, table_id, action, level)

    async def _on_lobby(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str = NORMAL
    ) -> None:
        row = await self.ctx.store.get_table(table_id)
        if row is None or row.guild_id != interaction.guild_id:
            await ephemeral(interaction, Text("There is no such lobby here."))
            return
        if row.status != "lobby":
            await ephemeral(interaction, Text("This lobby is closed."))
            return
        spec = game_spec(row.game)
        seats = await self.ctx.store.get_seats(table_id)
        user = interaction.user
        is_host = user.id == row.host_id
        mine = next((s for s in seats if s.user_id == user.id and not s.is_ai), None)
        if action == "join":
            if mine is not None:
                await ephemeral(interaction, Text("You already have a seat at this table."))
                return
            free = _free_seat(seats, spec.seats)
            if free is None:
                await ephemeral(interaction, Text("This table is full."))
                return
            seats.append(SeatRow(seat=free, user_id=user.id, name=player_name(user.display_name)))
        elif action == "leave":
            if mine is None:
                await ephemeral(interaction, Text("You are not seated at this table."))
                return
            if is_host:
                await ephemeral(
                    interaction, Text("You are the host: use Cancel to close the table instead.")
                )
                return
            seats.remove(mine)
        elif action == "ai":
            if not is_host:
                await ephemeral(interaction, Text("Only the host can add AI players."))
                return
            free = _free_seat(seats, spec.seats)
            if free is None:
                await ephemeral(interaction, Text("This table is full."))
                return
            if level not in spec.ai_levels():
                await ephemeral(interaction, Text("This game has no such AI level."))
                return
            number = 1 + sum(1 for s in seats if s.is_ai)
            seats.append(
                SeatRow(
                    seat=free,
                    user_id=None,
                    name=ai_seat_name(number, level, row.locale),
                    is_ai=True,
                    ai_level=level,
                )
            )
        elif action == "cancel":
            if not (is_host or can_manage(interaction)):
                await ephemeral(interaction, Text("Only the host or a server manager can cancel."))
                return
            if not await self.ctx.store.transition(table_id, ("lobby",), "aborted"):
                await ephemeral(interaction, Text("This lobby is closed."))
                return
            self.board.lobby_closed(table_id)
            embed = await self.board.lobby_embed(
                table_id, note=Text("Cancelled by {name}.", name=player_name(user.display_name))
            )
            view = lobby_view(table_id, closed=True, locale=row.locale)
            try:
                await interaction.response.edit_message(embed=embed, view=view)
            finally:
                release_view(view)
            return
        elif action == "start":
            if not is_host:
                await ephemeral(interaction, Text("Only the host can start the game."))
                return
            if len(seats) < spec.seats:
                missing = spec.seats - len(seats)
                await ephemeral(
                    interaction,
                    ntext(
                        "{n} seat still empty: wait for a player to join or Add AI.",
                        "{n} seats still empty: wait for players to join or Add AI.",
                        missing,
                    ),
                )
                return
            # The table's lease first, so no other process's takeover scan finds it active
            # without a driver; then the start, atomic: a Cancel, an /abort or the lobby's
            # expiry at this moment loses or wins as a whole, never half-started.
            sent = time.monotonic()
            if await self.ctx.store.claim_lease(
                table_id, self.ctx.owner, self.ctx.settings.lease_seconds
            ):
                self.leases.held[table_id] = sent + self.ctx.settings.lease_seconds
            if table_id not in self.leases.held or not await self.ctx.store.transition(
                table_id, ("lobby",), "active"
            ):
                await self.leases.release(table_id)
                await ephemeral(interaction, Text("This lobby is closed."))
                return
            self.board.lobby_closed(table_id)
            await interaction.response.defer()
            await self.sessions.start(interaction, row, seats)
            return
        seats.sort(key=lambda s: s.seat)
        await self.ctx.store.set_seats(table_id, seats)
        embed = await self.board.lobby_embed(table_id)
        view = lobby_view(table_id, locale=row.locale, levels=list(spec.ai_levels()))
        try:
            await interaction.response.edit_message(embed=embed, view=view)
        finally:
            release_view(view)

    async def abort(self, interaction: discord.Interaction, table_id: int) -> None:
        row = await self.ctx.store.get_table(table_id)
        # A table is reached from its own guild only; elsewhere it does not exist.
        self.ctx.remember_locale(interaction)
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
        await self.sessions.table(table_id)  # replayed first if a restart left it pending
        if not await self.ctx.store.transition(table_id, ("lobby", "active"), "aborted"):
            await ephemeral(interaction, no_table)
            return
        self.board.lobby_closed(table_id)
        table = self.ctx.tables.pop(table_id, None)
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
            await self.results.retire(
                table, note, in_thread=interaction.channel_id != table.thread_id
            )
        else:
            await self.board.close_lobby_message(
                table_id, row.channel_id, row.lobby_message_id, note
            )


def derived_seed(base: str, table_id: int) -> str:
    """A table's seed from a fixed base (tests, soaks): the same base deals the same games."""
    digest = hashlib.sha256(f"{base}:{table_id}".encode()).digest()
    return str(int.from_bytes(digest[:8], "big") >> 1)


def ai_seat_name(number: int, level: str, locale: str) -> str:
    """The name of the ``number``-th AI seat of a table, in the table's language: it is
    stored, so the table, its messages and /history show the level without looking it up
    (``normal``, the default, is not said: "AI 2")."""
    if level == "easy":
        return str(localize(locale, Text("AI {number} (easy)", number=number)))
    if level == "strong":
        return str(localize(locale, Text("AI {number} (strong)", number=number)))
    return f"AI {number}"


def _free_seat(seats: Sequence[SeatRow], total: int) -> int | None:
    taken = {s.seat for s in seats}
    return next((i for i in range(total) if i not in taken), None)
