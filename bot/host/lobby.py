"""Lobbies: ``/<game> new`` (options, quotas), Join / Leave / Add AI / Start / Cancel, and a
lobby's expiry. Start hands over to :meth:`~bot.host.lifecycle.LifecycleMixin._start`.
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
from bot.games import game_spec, game_title
from bot.host.base import HostBase
from bot.host.components import lobby_view, release_view
from bot.host.options import shown_options, validate_options
from bot.host.replies import can_manage, ephemeral
from bot.host.text import NO_PINGS, player_name
from bot.i18n import Text, localize, normalize, ntext
from bot.store import Quota, QuotaExceeded, SeatRow, TableRow

log = logging.getLogger(__name__)


class LobbyMixin(HostBase):
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
        self.remember_locale(interaction)
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
            table_id = await self.store.create_table(
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
        if self.settings.seed_base is not None:
            await self.store.update_table(
                table_id, seed=derived_seed(self.settings.seed_base, table_id)
            )
        user = interaction.user
        await self.store.set_seats(
            table_id,
            [SeatRow(seat=0, user_id=user.id, name=player_name(user.display_name), is_ai=False)],
        )
        embed = await self._lobby_embed(table_id)
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
        await self.store.update_table(table_id, lobby_message_id=message_id)
        self._schedule_lobby_expiry(table_id, self.settings.lobby_ttl)
        log.info("table %s: lobby for %s (%s) opened by %s", table_id, game, locale, user.id)

    def _quota(self) -> Quota:
        s = self.settings
        return Quota(
            lobbies_per_user=s.max_lobbies_per_user,
            tables_per_user=s.max_tables_per_user,
            lobbies_per_guild=s.max_lobbies_per_guild,
            tables_per_guild=s.max_tables_per_guild,
            cooldown=s.new_cooldown,
        )

    def _quota_refusal(self, refused: QuotaExceeded) -> Text:
        """Why the store refused a new table (the cap it hit), for the user."""
        s = self.settings
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

    def _schedule_lobby_expiry(self, table_id: int, delay: float) -> None:
        old = self._lobby_timers.pop(table_id, None)
        if old is not None:
            old.cancel()
        task = asyncio.get_running_loop().create_task(
            self._expire_lobby(table_id, delay), name=f"lobby-{table_id}-expiry"
        )
        self._lobby_timers[table_id] = task

    async def _expire_lobby(self, table_id: int, delay: float) -> None:
        """A lobby nobody started closes itself after ``lobby_ttl`` and says so."""
        try:
            await asyncio.sleep(max(0.0, delay))
            lock = self._lobby_locks.setdefault(table_id, asyncio.Lock())
            async with lock:
                if not await self.store.transition(table_id, ("lobby",), "aborted"):
                    return
                minutes = max(1, round(self.settings.lobby_ttl / 60))
                note = ntext(
                    "Closed: nobody started this table within {n} minute.",
                    "Closed: nobody started this table within {n} minutes.",
                    minutes,
                )
                row = await self.store.get_table(table_id)
                if row is not None:
                    await self._close_lobby_message(
                        table_id, row.channel_id, row.lobby_message_id, note
                    )
                log.info("table %s: lobby expired", table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: closing the expired lobby failed", table_id)
        finally:
            self._lobby_timers.pop(table_id, None)
            self._lobby_locks.pop(table_id, None)

    def _lobby_closed(self, table_id: int) -> None:
        """Forget a lobby's lock and expiry timer once it has started or closed."""
        task = self._lobby_timers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._lobby_locks.pop(table_id, None)

    async def _lobby_embed(
        self, table_id: int, note: str = "", row: TableRow | None = None
    ) -> discord.Embed:
        """The lobby message, in the table's language (``note``: a ``Text`` said in it)."""
        row = row or await self.store.get_table(table_id)
        assert row is not None
        loc = row.locale
        spec = game_spec(row.game)
        seats = {s.seat: s for s in await self.store.get_seats(table_id)}
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

    async def on_lobby(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str = NORMAL
    ) -> None:
        lock = self._lobby_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            await self._on_lobby(interaction, table_id, action, level)

    async def _on_lobby(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str = NORMAL
    ) -> None:
        row = await self.store.get_table(table_id)
        if row is None or row.guild_id != interaction.guild_id:
            await ephemeral(interaction, Text("There is no such lobby here."))
            return
        if row.status != "lobby":
            await ephemeral(interaction, Text("This lobby is closed."))
            return
        spec = game_spec(row.game)
        seats = await self.store.get_seats(table_id)
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
            if not await self.store.transition(table_id, ("lobby",), "aborted"):
                await ephemeral(interaction, Text("This lobby is closed."))
                return
            self._lobby_closed(table_id)
            embed = await self._lobby_embed(
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
            if await self.store.claim_lease(table_id, self.owner, self.settings.lease_seconds):
                self._held[table_id] = sent + self.settings.lease_seconds
            if table_id not in self._held or not await self.store.transition(
                table_id, ("lobby",), "active"
            ):
                await self._release(table_id)
                await ephemeral(interaction, Text("This lobby is closed."))
                return
            self._lobby_closed(table_id)
            await interaction.response.defer()
            await self._start(interaction, row, seats)
            return
        seats.sort(key=lambda s: s.seat)
        await self.store.set_seats(table_id, seats)
        embed = await self._lobby_embed(table_id)
        view = lobby_view(table_id, locale=row.locale, levels=list(spec.ai_levels()))
        try:
            await interaction.response.edit_message(embed=embed, view=view)
        finally:
            release_view(view)


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
