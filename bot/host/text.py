"""Text that goes to Discord: player names made safe, and who a message may ping.

Display names are chosen by users, so they may hold ``@everyone``, ``<@id>`` or markdown.
A seat's name is cleaned once, when the player sits down, so it is safe both in messages
and on the rendered images; every message is also sent with explicit ``allowed_mentions``.
"""

from __future__ import annotations

import re
import secrets

import discord

NAME_LIMIT = 32
#: Characters that start mentions, channel links, emoji or markdown in Discord.
_UNSAFE = re.compile(r"[@#<>*_~`|\\:\[\]()]")
_SPACES = re.compile(r"\s+")
#: Whole mentions and custom emoji (``<@123>``, ``<#123>``, ``<@&123>``, ``<a:name:123>``).
_MARKUP = re.compile(r"<(?:[@#][!&]?\d+|a?:\w+:\d+|t:\d+(?::\w)?)>")

#: The default for every message: nothing pings.
NO_PINGS = discord.AllowedMentions.none()


def player_name(display_name: str | None, fallback: str = "Player") -> str:
    """A display name that cannot ping, link or format anything (and is not too long)."""
    cleaned = _MARKUP.sub("", display_name or "")
    cleaned = _UNSAFE.sub("", cleaned)
    cleaned = "".join(ch for ch in cleaned if ch.isprintable())
    cleaned = _SPACES.sub(" ", cleaned).strip()[:NAME_LIMIT].strip()
    return cleaned or fallback


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Allow pinging exactly these users (the players a message is for), nobody else."""
    users = [discord.Object(id=u) for u in user_ids if u]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def incident_id() -> str:
    """A short id the user can quote and the log carries (not a seed: never chosen by tests)."""
    return secrets.token_hex(4)
