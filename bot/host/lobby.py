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

from bot.games import game_spec
from bot.host.base import HostBase
from bot.host.components import lobby_view
from bot.host.options import shown_options, validate_options
from bot.host.replies import can_manage, ephemeral
from bot.host.text import NO_PINGS, player_name
from bot.store import SeatRow

log = logging.getLogger(__name__)


class LobbyMixin(HostBase):
    async def open_lobby(
        self, interaction: discord.Interaction, game: str, options: dict[str, Any]
    ) -> None:
        """``/<game> new``: validate options, create the table row and post the lobby."""
        try:
            validate_options(game, options)
        except ValueError as e:
            await interaction.response.send_message(f"⚠️ {e}", ephemeral=True)
            return
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "Tables are opened in a server channel, not in DMs.", ephemeral=True
            )
            return
        refusal = await self._quota_refusal(interaction.guild_id, interaction.user.id)
        if refusal:
            await interaction.response.send_message(f"⏳ {refusal}", ephemeral=True)
            return
        self._last_new[interaction.user.id] = time.monotonic()
        table_id = await self.store.create_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game,
            options=options,
            seed=str(secrets.randbits(63)),
            host_id=interaction.user.id,
        )
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
        callback = await interaction.response.send_message(
            embed=embed, view=lobby_view(table_id), allowed_mentions=NO_PINGS
        )
        message_id = getattr(callback, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.store.update_table(table_id, lobby_message_id=message_id)
        self._schedule_lobby_expiry(table_id, self.settings.lobby_ttl)
        log.info("table %s: lobby for %s opened by %s", table_id, game, user.id)

    async def _quota_refusal(self, guild_id: int, user_id: int) -> str | None:
        """Why this user may not open a table now (cooldown, caps), or None."""
        s = self.settings
        now = time.monotonic()
        # Forget cooldowns that are over, so the map stays small.
        self._last_new = {u: t for u, t in self._last_new.items() if now - t < s.new_cooldown}
        last = self._last_new.get(user_id)
        if last is not None:
            wait = s.new_cooldown - (now - last)
            return f"You opened a table a moment ago; try again in {wait:.0f} s."
        count = self.store.count_tables
        if await count("lobby", host_id=user_id) >= s.max_lobbies_per_user:
            return (
                f"You already have {s.max_lobbies_per_user} open lobby(ies): start or cancel "
                "one first."
            )
        if await count("active", host_id=user_id) >= s.max_tables_per_user:
            return f"You already host {s.max_tables_per_user} running table(s): finish one first."
        if await count("lobby", guild_id=guild_id) >= s.max_lobbies_per_guild:
            return (
                f"This server has {s.max_lobbies_per_guild} open lobbies already: join one "
                "of them, or wait until one starts or closes."
            )
        if await count("active", guild_id=guild_id) >= s.max_tables_per_guild:
            return (
                f"This server has {s.max_tables_per_guild} tables in play already: wait "
                "until one finishes."
            )
        return None

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
                note = f"Closed: nobody started this table within {minutes} minute(s)."
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

    async def _lobby_embed(self, table_id: int, note: str = "") -> discord.Embed:
        row = await self.store.get_table(table_id)
        assert row is not None
        spec = game_spec(row.game)
        seats = {s.seat: s for s in await self.store.get_seats(table_id)}
        team_of = spec.team_of()
        lines = []
        for i in range(spec.seats):
            s = seats.get(i)
            who = "*empty*" if s is None else f"🤖 {s.name}" if s.is_ai else f"<@{s.user_id}>"
            team = f" · team {'AB'[team_of[i]]}" if i in team_of else ""
            lines.append(f"`{i + 1}` — {who}{team}")
        status = {
            "lobby": "Waiting for players",
            "active": "In play",
            "finished": "Finished",
            "aborted": "Cancelled",
        }[row.status]
        embed = discord.Embed(
            title=f"{spec.title} — table #{table_id}",
            description="\n".join(lines),
            colour=discord.Colour.from_rgb(176, 48, 48),
        )
        if shown_options(row.options):
            embed.add_field(name="Options", value=shown_options(row.options))
        embed.add_field(name="Status", value=status)
        embed.set_footer(
            text=note
            or "Join to take a seat. The host may add AI players and start when all seats are filled."
        )
        return embed

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        lock = self._lobby_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            await self._on_lobby(interaction, table_id, action)

    async def _on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        row = await self.store.get_table(table_id)
        if row is None or row.guild_id != interaction.guild_id:
            await ephemeral(interaction, "There is no such lobby here.")
            return
        if row.status != "lobby":
            await ephemeral(interaction, "This lobby is closed.")
            return
        spec = game_spec(row.game)
        seats = await self.store.get_seats(table_id)
        user = interaction.user
        is_host = user.id == row.host_id
        mine = next((s for s in seats if s.user_id == user.id and not s.is_ai), None)
        if action == "join":
            if mine is not None:
                await ephemeral(interaction, "You already have a seat at this table.")
                return
            free = _free_seat(seats, spec.seats)
            if free is None:
                await ephemeral(interaction, "This table is full.")
                return
            seats.append(SeatRow(seat=free, user_id=user.id, name=player_name(user.display_name)))
        elif action == "leave":
            if mine is None:
                await ephemeral(interaction, "You are not seated at this table.")
                return
            if is_host:
                await ephemeral(
                    interaction, "You are the host: use Cancel to close the table instead."
                )
                return
            seats.remove(mine)
        elif action == "ai":
            if not is_host:
                await ephemeral(interaction, "Only the host can add AI players.")
                return
            free = _free_seat(seats, spec.seats)
            if free is None:
                await ephemeral(interaction, "This table is full.")
                return
            number = 1 + sum(1 for s in seats if s.is_ai)
            seats.append(SeatRow(seat=free, user_id=None, name=f"AI {number}", is_ai=True))
        elif action == "cancel":
            if not (is_host or can_manage(interaction)):
                await ephemeral(interaction, "Only the host or a server manager can cancel.")
                return
            if not await self.store.transition(table_id, ("lobby",), "aborted"):
                await ephemeral(interaction, "This lobby is closed.")
                return
            self._lobby_closed(table_id)
            embed = await self._lobby_embed(
                table_id, note=f"Cancelled by {player_name(user.display_name)}."
            )
            await interaction.response.edit_message(
                embed=embed, view=lobby_view(table_id, closed=True)
            )
            return
        elif action == "start":
            if not is_host:
                await ephemeral(interaction, "Only the host can start the game.")
                return
            if len(seats) < spec.seats:
                missing = spec.seats - len(seats)
                await ephemeral(
                    interaction,
                    f"{missing} seat(s) still empty: wait for players to join or Add AI.",
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
                await ephemeral(interaction, "This lobby is closed.")
                return
            self._lobby_closed(table_id)
            await interaction.response.defer()
            await self._start(interaction, row, seats)
            return
        seats.sort(key=lambda s: s.seat)
        await self.store.set_seats(table_id, seats)
        embed = await self._lobby_embed(table_id)
        await interaction.response.edit_message(embed=embed, view=lobby_view(table_id))


def derived_seed(base: str, table_id: int) -> str:
    """A table's seed from a fixed base (tests, soaks): the same base deals the same games."""
    digest = hashlib.sha256(f"{base}:{table_id}".encode()).digest()
    return str(int.from_bytes(digest[:8], "big") >> 1)


def _free_seat(seats: Sequence[SeatRow], total: int) -> int | None:
    taken = {s.seat for s in seats}
    return next((i for i in range(total) if i not in taken), None)
