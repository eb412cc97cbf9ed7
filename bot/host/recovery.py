"""Discord's failure modes around a table's thread and table message, and what the host does
about each (docs/architecture.md, "Discord's failure modes"):

- the thread archived for inactivity: a post unarchives it by itself, an edit is refused
  (50083), so the host unarchives the thread and edits again;
- the table message deleted by a moderator (10008): it is posted again, and its new id
  stored; the thread deleted (10003): a new thread in the table's channel takes the table
  (the channel itself if none can be opened), stored too;
- the bot's Send Messages (in Threads) or Attach Files taken away in the channel (50013):
  the host of the table is told by DM which permission is missing; the game goes on by DM,
  the table message is edited without its picture while only Attach Files is missing, and
  catches up when the permission is back (the channel's update says so, or a later try).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Literal

import discord

from bot.games import game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.table import Seat, Table
from bot.host.text import NO_PINGS
from bot.i18n import Text, localize

log = logging.getLogger(__name__)

#: Discord's JSON error codes met here.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
PUBLIC_THREAD: Literal[11] = 11

#: The permissions a table needs in its channel (discord.py's names), as Discord's settings
#: name them to the server's moderators.
SEND_MESSAGES = "send_messages"
SEND_IN_THREADS = "send_messages_in_threads"
ATTACH_FILES = "attach_files"
PERMISSION_NAMES: dict[str, Text] = {
    SEND_MESSAGES: Text("Send Messages"),
    SEND_IN_THREADS: Text("Send Messages in Threads"),
    ATTACH_FILES: Text("Attach Files"),
}
#: s after which permissions Discord refused (and the bot's cache did not know of) are
#: tried again, by refusals in a row; then every last one of them.
REFUSED_RETRY_DELAYS = (30.0, 120.0, 300.0, 600.0)


class Recovery:
    """Discord's failure modes around a table's thread, its table message and its players'
    DM channels."""

    def __init__(self, ctx: HostContext) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------------ permissions

    def send_permission(self, table: Table) -> str:
        """The permission that posting where the table is needs."""
        return SEND_IN_THREADS if table.thread_id is not None else SEND_MESSAGES

    async def check_permissions(self, table: Table) -> tuple[str, ...]:
        """The permissions the table lacks where it is played (see
        :meth:`_missing_permissions`); the table's host is told when they change."""
        missing = self._missing_permissions(table)
        if missing:
            await self.tell_host_missing(table, missing)
        return missing

    def _missing_permissions(self, table: Table) -> tuple[str, ...]:
        """The permissions the table's messages need where it is played (to send, to attach
        its picture) and the bot lacks: as its cache of the channel and its roles says, or
        as Discord refused lately (see :meth:`_learn_refusal`)."""
        needed = (self.send_permission(table), ATTACH_FILES)
        granted = self._channel_permissions(table.channel_id)
        return tuple(
            name
            for name in needed
            if name in table.refused_permissions
            or (granted is not None and not getattr(granted, name))
        )

    def _channel_permissions(self, channel_id: int) -> discord.Permissions | None:
        """The bot's permissions in a guild channel (its threads have the same), from
        discord.py's cache; None if it does not know the channel."""
        channel = self.ctx.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        me = getattr(guild, "me", None)
        if channel is None or me is None or not hasattr(channel, "permissions_for"):
            return None
        return channel.permissions_for(me)

    async def tell_host_missing(self, table: Table, missing: Iterable[str]) -> None:
        """Tell the table's host by DM which permissions the table lacks where it is played,
        once for each set of them (nothing while they are what the host was told; when
        nothing is missing any more, the next set is told again)."""
        missing = frozenset(missing)
        if missing == table.missing_told:
            return
        table.missing_told = missing
        if not missing:
            log.info("table %s: the bot's permissions in its channel are back", table.id)
            return
        log.warning("table %s: the bot lacks %s in its channel", table.id, sorted(missing))
        host = table.seat_of(table.host_id)
        if host is None or host.dms_closed:
            return
        loc = self.ctx.seat_locale(host)
        names = tuple(PERMISSION_NAMES[name] for name in sorted(missing))
        text = Text(
            "⚠️ I can't keep table #{table} up to date in {channel}: I'm missing this "
            "permission there: **{permissions}**. The game goes on by DM and nothing is "
            "lost; the table catches up as soon as the permission is back.",
            table=table.id,
            channel=f"<#{table.channel_id}>",
            permissions=names,
        )
        try:
            channel = await self.dm_channel(host)
            await self.ctx.budget.acquire(Priority.DM)
            await channel.send(localize(loc, text), allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.warning("table %s: could not tell the host about permissions: %s", table.id, e)

    def _learn_refusal(self, table: Table, refused: str) -> None:
        """Discord refused a message for a permission the bot's cache thought it had (a role
        taken from the bot: no intent tells it): take it as missing until the channel's
        permissions change or, later and later, until it is tried again."""
        if refused != ATTACH_FILES:  # (whether Attach Files is missing too is not known)
            table.refused_permissions = frozenset()
        table.refused_permissions = table.refused_permissions | {refused}
        delay = REFUSED_RETRY_DELAYS[min(table.refusals, len(REFUSED_RETRY_DELAYS) - 1)]
        table.refusals += 1
        asyncio.get_running_loop().call_later(delay, self._retry_refused, table)

    def _retry_refused(self, table: Table) -> None:
        if table.refused_permissions and not table.finished:
            table.refused_permissions = frozenset()
            table.mark_dirty()

    def permissions_changed(self, channel_id: int) -> None:
        """A channel's permissions changed (CHANNEL_UPDATE), or the bot's roles did (then
        ``channel_id`` is 0: every table): tables there that lacked a permission try again."""
        for table in self.ctx.tables.values():
            if not table.driven or table.finished:
                continue
            if channel_id and table.channel_id != channel_id:
                continue
            if table.missing_told or table.refused_permissions:
                table.refused_permissions = frozenset()
                table.refusals = 0
                table.mark_dirty()

    # ------------------------------------------------------------------ thread and message

    async def edit_table_message(self, table: Table, **edit: Any) -> None:
        """Edit the table message; in a thread archived for inactivity (Discord refuses
        edits there, 50083), unarchive it first."""
        channel = self.ctx.channel(table.channel_for_table)
        message = channel.get_partial_message(table.table_message_id)
        try:
            await message.edit(**edit)
        except discord.HTTPException as e:
            if e.code != THREAD_ARCHIVED or not await self._unarchive(table):
                raise
            for attachment in edit.get("attachments") or []:
                if isinstance(attachment, discord.File):
                    attachment.reset()
            await message.edit(**edit)

    async def _unarchive(self, table: Table) -> bool:
        """Unarchive the table's thread (``PATCH /channels/{thread} {"archived": false}``:
        the bot may, the thread not being locked); False if Discord refused."""
        if table.thread_id is None:
            return False
        await self.ctx.budget.acquire(Priority.TABLE)
        try:
            await self.ctx.bot.http.edit_channel(table.thread_id, archived=False)
        except discord.HTTPException as e:
            log.warning("table %s: could not unarchive its thread: %s", table.id, e)
            return False
        log.info("table %s: its thread was archived; unarchived it", table.id)
        return True

    async def recovered(self, table: Table, error: BaseException, *, with_file: bool) -> bool:
        """After Discord refused a table message or post: put right what can be (a message
        or thread a moderator deleted, a permission learnt missing); True if sending again
        now may work."""
        if not isinstance(error, discord.HTTPException):
            return False
        if error.code == UNKNOWN_MESSAGE and table.table_message_id is not None:
            log.warning("table %s: its table message was deleted; posting it again", table.id)
            table.table_message_id = None
            table.shown = None
            return True
        if error.code == UNKNOWN_CHANNEL and table.thread_id is not None:
            await self._rehome(table, table.thread_id)
            return True
        if error.code == MISSING_PERMISSIONS:
            # With a picture, Attach Files may be all that is missing: without it, the
            # message may go (and if it does not, Send Messages is what is missing).
            self._learn_refusal(table, ATTACH_FILES if with_file else self.send_permission(table))
            return with_file
        return False

    async def _rehome(self, table: Table, gone: int) -> None:
        """The table's thread ``gone`` was deleted: a new thread in the table's channel
        takes the table (the channel itself if none can be opened), and its table message
        is posted there; both stored, so a restart finds them."""
        if table.thread_id != gone:
            return  # (moved already)
        if table.rehoming is None:  # a post and the table message may find it gone at once
            table.rehoming = asyncio.get_running_loop().create_task(self._move_table(table))
            table.rehoming.add_done_callback(lambda _: setattr(table, "rehoming", None))
        await asyncio.shield(table.rehoming)

    async def _move_table(self, table: Table) -> None:
        """Give the table a new thread, stored; its table message is posted there next."""
        log.warning("table %s: its thread was deleted; opening another", table.id)
        thread_id = await self._new_thread(table)
        table.thread_id, table.table_message_id, table.shown = thread_id, None, None
        await self.ctx.store.update_table(table.id, thread_id=thread_id, table_message_id=None)
        table.mark_dirty()

    async def _new_thread(self, table: Table) -> int | None:
        """A public thread in the table's channel, not started from a message (the lobby's
        had the deleted one); None if Discord refuses it."""
        name = f"{game_title(table.spec.name, table.locale)} #{table.id}"
        await self.ctx.budget.acquire(Priority.POST)
        try:
            data = await self.ctx.bot.http.start_thread_without_message(
                table.channel_id, name=name[:100], auto_archive_duration=1440, type=PUBLIC_THREAD
            )
        except discord.HTTPException as e:
            log.warning("table %s: no new thread (%s); playing in the channel", table.id, e)
            return None
        return int(data["id"])

    async def dm_channel(self, seat: Seat) -> Any:
        if seat.dm_channel_id is not None:
            # A DM channel id we know is enough to send and edit (no lookup, no request:
            # after a restart the cache is empty and opening DMs again is rate-limited).
            return self.ctx.bot.get_channel(
                seat.dm_channel_id
            ) or self.ctx.bot.get_partial_messageable(
                seat.dm_channel_id, type=discord.ChannelType.private
            )
        assert seat.user_id is not None
        user = self.ctx.bot.get_user(seat.user_id)
        if user is not None and user.dm_channel is not None:
            channel: discord.DMChannel | discord.PartialMessageable = user.dm_channel
        else:
            # Opened from the user's id alone: looking the user up first (a user discord.py
            # no longer caches) would be one more request per player.
            await self.ctx.budget.acquire(Priority.DM)
            data = await self.ctx.bot.http.start_private_message(seat.user_id)
            channel = self.ctx.bot.get_partial_messageable(
                int(data["id"]), type=discord.ChannelType.private
            )
        seat.dm_channel_id = channel.id
        return channel
