"""Answers to interactions (ephemeral notes, the one error path) and who may do what.

Shared by every part of the host; nothing here knows about tables beyond their guild.
A private answer is said in the language of the click it answers (``interaction.locale``):
give it a :class:`~bot.i18n.Text`, it is localised here.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.host.text import NO_PINGS, incident_id
from bot.i18n import Text, localize, normalize

if TYPE_CHECKING:
    from bot.host.table import Table

log = logging.getLogger(__name__)


def locale_of(interaction: discord.Interaction) -> str:
    """The language of the user behind ``interaction`` (their Discord client's)."""
    return normalize(getattr(interaction, "locale", None))


def say(interaction: discord.Interaction, text: str, prefix: str = "") -> str:
    """``text`` in the interaction's language, after ``prefix`` (an emoji: the same in
    every language)."""
    return prefix + str(localize(locale_of(interaction), text))


async def ephemeral(interaction: discord.Interaction, text: str, *, prefix: str = "") -> None:
    """A private answer in the user's language: the response if none was sent yet, else a
    follow-up."""
    text = say(interaction, text, prefix)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
    except discord.HTTPException as e:
        log.warning("could not answer interaction: %s", e)


async def acknowledge(interaction: discord.Interaction) -> bool:
    """Defer a click (acknowledge it, to answer within 15 minutes); True once Discord took
    it. A server error is tried again by discord.py itself (after 1, then 3 s...), and past
    Discord's 3 s for the first answer the interaction is gone (404 / 10062): then False,
    logged, and the click is carried out all the same (the player asked for it; their DM
    follows), only its own answers, which would go through its token, are lost."""
    try:
        await interaction.response.defer()
        return True
    except (discord.DiscordServerError, discord.NotFound) as e:
        log.warning("click %s not acknowledged (%s); carrying it out", interaction.id, e)
        return False


async def followup(interaction: discord.Interaction, text: str, *, prefix: str = "") -> None:
    """A private follow-up, in the user's language, to an interaction already acknowledged."""
    text = say(interaction, text, prefix)
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def report_error(
    interaction: discord.Interaction,
    error: BaseException,
    *,
    what: str,
    table_id: int | None = None,
) -> str:
    """The one error path of clicks and commands: log the error with the table id and an
    incident id, and tell the user ephemerally. Returns the incident id."""
    incident = incident_id()
    log.error(
        "incident %s: %s failed (table %s, user %s)",
        incident,
        what,
        table_id,
        getattr(interaction.user, "id", None),
        exc_info=error,
    )
    await ephemeral(
        interaction,
        Text(
            "😵 Sorry, something went wrong on my side and nothing was changed. "
            "If it happens again, tell the server's admins: incident `{incident}`.",
            incident=incident,
        ),
    )
    return incident


def from_table_guild(interaction: discord.Interaction, table: Table) -> bool:
    """Clicks come from DMs (no guild) or from the table's own guild, never another one."""
    return interaction.guild_id is None or interaction.guild_id == table.guild_id


def channels_seen_by(interaction: discord.Interaction) -> frozenset[int] | None:
    """The channels (and cached threads) of the interaction's server its member may view,
    or None for all of them (an administrator, the owner).

    An interaction carries the member's permissions in its own channel only; in the others
    they are worked out here, as Discord does, from the member's roles (in the
    interaction) and the server's roles and each channel's permission overwrites, which the
    bot keeps from the Guilds intent (not a privileged one). Outside a server, or while
    the server is not in the cache: none."""
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return frozenset()
    if member.guild_permissions.administrator:
        return None
    seen = [c.id for c in guild.channels if c.permissions_for(member).view_channel]
    seen += [t.id for t in guild.threads if t.permissions_for(member).view_channel]
    return frozenset(seen)


def may_see_channel(interaction: discord.Interaction, channel_id: int) -> bool:
    """Whether the interaction's member may view the server channel ``channel_id`` (a
    deleted one: only an administrator). See :func:`channels_seen_by`."""
    seen = channels_seen_by(interaction)
    return seen is None or channel_id in seen


def can_manage(interaction: discord.Interaction) -> bool:
    """The user has Manage Server (may cancel or abort anyone's table)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)
