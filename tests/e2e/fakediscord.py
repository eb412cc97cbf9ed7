"""A fake Discord (REST + gateway over aiohttp on 127.0.0.1) that the real discord.py talks to.

The fake keeps a small world (guilds, text channels, threads, users, DM channels, messages)
and answers the REST routes and gateway ops discord.py 2.7 uses for slash commands,
components, DMs, files and threads. Simulated users send slash commands, button clicks,
select choices and modal submissions as INTERACTION_CREATE dispatches; tests then assert on
what the bot did (recorded messages, edits, attachments, interaction callbacks).

Like Discord it refuses what Discord refuses (DMs to users with closed DMs: 403/50007, a
second interaction callback: 400/40060), so such bugs surface in tests instead of
production. Every request body is validated before its handler runs against Discord's
official OpenAPI spec and documented limits (:mod:`tests.e2e.discord_schema`): an invalid
one is answered 400/50035 with Discord's nested ``errors`` and recorded in
:attr:`FakeDiscord.spec_violations`; refusals (4xx but 429) in :attr:`FakeDiscord.refusals`. Routes it does not know are logged and
answered with 404 JSON (see :attr:`FakeDiscord.unknown_routes`).

It shards like Discord: ``GET /gateway/bot`` recommends ``FakeDiscord.shard_count``
shards, each gateway connection identifies as one shard ``[shard_id, shard_count]``, a
guild lives on shard ``(guild_id >> 22) % shard_count`` and its events (threads,
interactions from its channels) go only to that shard's session; DM events and DM clicks go
only to shard 0. With one shard (the default) every event reaches the one session.

Usage::

    fake = FakeDiscord()
    await fake.start()
    restore = configure_discord_py(fake)
    guild = fake.add_guild("Test")
    games = fake.add_text_channel(guild, "games")
    alice = fake.add_user("Alice")
    task = await start_client(bot)            # bot.start("token") + wait until ready
    inter = await fake.slash(alice, games, "koikoi new")
    await inter.wait_response()
    ...
    await stop_client(bot, task)
    restore()
    await fake.stop()
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import copy
import hashlib
import io
import logging
import math
import mimetypes
import os
import re
import secrets
import struct
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar
from urllib.parse import quote, unquote

import discord
import orjson
import yarl
from aiohttp import WSMsgType, web

from tests.e2e import discord_schema

log = logging.getLogger(__name__)

T = TypeVar("T")
#: ``FakeDiscord.dispatch``'s default: take the guild from the event's data.
_FROM_DATA: Any = object()

DISCORD_EPOCH_MS = 1420070400000
API_VERSION = 10
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
HEARTBEAT_INTERVAL_MS = 41250
#: Gateway sharding (Discord's numbers): a session may hold at most 2500 guilds, a bot may
#: start 1000 sessions a day, and ``max_concurrency`` IDENTIFYs per 5 s.
MAX_GUILDS_PER_SHARD = 2500
SESSION_START_TOTAL = 1000
SESSION_START_WINDOW_S = 24 * 60 * 60
#: Dispatches a session keeps for a RESUME to replay.
SESSION_HISTORY = 256
#: Gateway close codes for a refused IDENTIFY.
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011
#: Close codes after which a client may not RESUME (discord.py identifies anew or stops).
NO_RESUME_CLOSE_CODES = (1000, 4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014)

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15

# Interaction types and callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9

# Channel types.
GUILD_TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12

# Component types that a user can interact with.
BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
SELECT_TYPES = (3, 5, 6, 7, 8)

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    create_instant_invite=True,
    connect=True,
    speak=True,
).value
ALL_PERMISSIONS = discord.Permissions.all().value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
#: Permission overwrite targets (Discord's ``type``: 0 a role, 1 a member).
OVERWRITE_ROLE, OVERWRITE_MEMBER = 0, 1
#: An interaction's token lives 15 minutes; then its webhook answers 401 / 50027.
TOKEN_LIFETIME_S = 15 * 60


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _snowflake_time_iso(snowflake: int) -> str:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat()


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def pinged_by(content: str, allowed: Mapping[str, Any] | None) -> set[str]:
    """Who a new message with ``content`` notifies, as Discord decides from
    ``allowed_mentions`` (absent: every mention in the text pings)."""
    parse = {"everyone", "users", "roles"} if allowed is None else set(allowed.get("parse") or [])
    users = {str(u) for u in (allowed or {}).get("users") or []}
    roles = {str(r) for r in (allowed or {}).get("roles") or []}
    out: set[str] = set()
    if ("@everyone" in content or "@here" in content) and "everyone" in parse:
        out.add("everyone")
    for uid in _USER_MENTION.findall(content):
        if "users" in parse or uid in users:
            out.add(f"user:{uid}")
    for rid in _ROLE_MENTION.findall(content):
        if "roles" in parse or rid in roles:
            out.add(f"role:{rid}")
    return out


class FakeHTTPError(Exception):
    """An error answer of the fake, shaped like Discord's (``{code, message, errors}``)."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} (code {code}) {message}" + (f" {errors}" if errors else ""))
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            out["errors"] = self.errors
        return out


def _invalid_form(problems: Mapping[str, str]) -> FakeHTTPError:
    """400 / 50035 for what the handlers check against the fake's world (attachments,
    threads, ...), by dotted path ("attachments.0.id"), nested as Discord nests them."""
    errors = discord_schema.errors_object(
        discord_schema.Problem(tuple(path.split(".")), "FAKE_INVALID", text)
        for path, text in problems.items()
    )
    return FakeHTTPError(400, 50035, "Invalid Form Body", errors)


class SpecViolation(NamedTuple):
    """A request Discord would refuse as invalid (400 / 50035): its route ("METHOD
    template"), its JSON body (a multipart request's ``payload_json``) and the ``errors``
    object the fake answered."""

    route: str
    body: Any
    errors: dict[str, Any]


class Refusal(NamedTuple):
    """A request answered with a 4xx other than 429: route ("METHOD template", or "METHOD
    path" for an unknown route), status and Discord's JSON error code."""

    route: str
    status: int
    code: int


class RequestRecord(NamedTuple):
    """One REST request the fake answered. ``path`` is relative to the API base; ``route``
    is "METHOD template" (``POST /channels/{cid}/messages``), "" if no route matched."""

    method: str
    path: str
    status: int
    route: str = ""


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: Administrator in every guild (like the guild owner).
    admin: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    joined_at: str
    member_ids: list[int] = field(default_factory=list)
    channel_ids: list[int] = field(default_factory=list)
    #: The server's language (Discord's ``preferred_locale``, an interaction's ``guild_locale``).
    preferred_locale: str = "en-US"


@dataclass
class FakeChannel:
    """A guild text channel, a thread (type 11/12, ``parent_id``) or a DM (``recipient_id``)."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    recipient_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=_now_iso)
    member_ids: set[int] = field(default_factory=set)
    messages: list[FakeMessage] = field(default_factory=list)
    last_message_id: int | None = None
    total_message_sent: int = 0
    #: Permission overwrites of a guild channel: target id -> (type, allow, deny).
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM


@dataclass
class FakeAttachment:
    id: int
    channel_id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None
    width: int | None = None
    height: int | None = None


@dataclass
class FakeCallback:
    """The first (accepted) answer of the bot to an interaction."""

    type: int
    data: dict[str, Any]
    files: list[tuple[str, bytes]]
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)


class FakeMessage:
    """A message as the fake currently holds it (edits applied in place)."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: int,
        channel_id: int,
        author_id: int,
        msg_type: int = 0,
    ) -> None:
        self._fake = fake
        self.id = id
        self.channel_id = channel_id
        self.author_id = author_id
        self.type = msg_type
        self.content: str = ""
        self.embeds: list[dict[str, Any]] = []
        #: Raw component rows as the bot sent them.
        self.components: list[dict[str, Any]] = []
        self.flags: int = 0
        self.tts: bool = False
        self.nonce: str | int | None = None
        self.message_reference: dict[str, Any] | None = None
        self.attachment_objects: list[FakeAttachment] = []
        self.reactions: dict[str, set[int]] = {}
        self.pinned = False
        self.edited_at: str | None = None
        #: Number of edits applied after creation.
        self.edits = 0
        #: ``allowed_mentions`` as sent, and whom the new message notified (edits never do):
        #: "everyone", "user:<id>", "role:<id>".
        self.allowed_mentions: dict[str, Any] | None = None
        self.pinged: set[str] = set()
        #: Snapshots (``snapshot()``) of every earlier version, oldest first.
        self.history: list[dict[str, Any]] = []
        self.deleted = False
        #: For ephemeral messages: the only user who sees them.
        self.ephemeral_for: int | None = None
        #: The interaction whose response or follow-up created this message, if any.
        self.interaction: FakeInteraction | None = None
        self.thread_id: int | None = None

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return (
            f"<FakeMessage id={self.id} channel={self.channel_id}{flags} edits={self.edits} "
            f"content={self.content[:60]!r} components={len(find_components(self))} "
            f"attachments={[a.filename for a in self.attachment_objects]}>"
        )

    @property
    def attachments(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.attachment_objects]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "flags": self.flags,
            "attachments": [a.filename for a in self.attachment_objects],
        }

    def payload(self) -> dict[str, Any]:
        fake = self._fake
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": fake._users[self.author_id].payload(),
            "content": self.content,
            "timestamp": _snowflake_time_iso(self.id),
            "edited_timestamp": self.edited_at,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": fake._mentions(self.content),
            "mention_roles": [],
            "attachments": [fake._attachment_payload(a) for a in self.attachment_objects],
            "embeds": fake._resolve_embed_urls(self.embeds, self.attachment_objects),
            "components": _json_copy(self.components),
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
        }
        if self.reactions:
            out["reactions"] = [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": fake.bot_user_id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ]
        if self.nonce is not None:
            out["nonce"] = self.nonce
        if self.message_reference is not None:
            out["message_reference"] = self.message_reference
        inter = self.interaction
        if inter is not None:
            out["webhook_id"] = str(fake.application_id)
            out["application_id"] = str(fake.application_id)
            meta: dict[str, Any] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": fake._users[inter.user_id].payload(),
                "authorizing_integration_owners": inter.payload["authorizing_integration_owners"],
            }
            if inter.type == APPLICATION_COMMAND:
                meta["name"] = inter.command_name
                meta["command_type"] = 1
            if inter.message_id is not None:
                meta["interacted_message_id"] = str(inter.message_id)
            if inter.original_id is not None and inter.original_id != self.id:
                meta["original_response_message_id"] = str(inter.original_id)
            out["interaction_metadata"] = meta
        if self.thread_id is not None and self.thread_id in fake._channels:
            out["thread"] = fake._channel_payload(fake._channels[self.thread_id])
        return out


class FakeInteraction:
    """One simulated user action, and everything the bot answered to it."""

    def __init__(
        self,
        *,
        id: int,
        token: str,
        type: int,
        user_id: int,
        channel_id: int,
        payload: dict[str, Any],
        message_id: int | None = None,
        command_name: str = "",
    ) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.user_id = user_id
        self.channel_id = channel_id
        #: The INTERACTION_CREATE ``d`` that was dispatched.
        self.payload = payload
        #: For component/modal interactions: the message the component was on.
        self.message_id = message_id
        self.command_name = command_name
        self.dispatched_at: float = 0.0
        self.first_callback_at: float | None = None
        self.callback: FakeCallback | None = None
        #: Callback attempts the fake refused (e.g. 40060 already acknowledged), as errors.
        self.rejected_callbacks: list[FakeHTTPError] = []
        #: The response message (type 4/5), or the component message (type 6/7).
        self.original_id: int | None = None
        self.followups: list[FakeMessage] = []
        #: Edits made through ``/webhooks/{app}/{token}/messages/@original`` (or its id).
        self.original_edits = 0
        #: The modal the bot opened (callback type 9), raw.
        self.modal: dict[str, Any] | None = None
        #: The shard (shard_id, shard_count) whose session got it; None if no live session
        #: held its guild (or shard 0, for a DM): then nobody answers, as on Discord.
        self.shard: tuple[int, int] | None = None
        #: When (the fake's clock) it was dispatched: its token expires TOKEN_LIFETIME_S later
        #: (None: not dispatched by the fake, never by the clock).
        self.created_clock: float | None = None
        #: Expired ahead of time by ``FakeDiscord.expire_tokens``.
        self.token_expired = False
        self._responded = asyncio.Event()
        self._fake: FakeDiscord | None = None

    def __repr__(self) -> str:
        cb = self.callback.type if self.callback else None
        return f"<FakeInteraction id={self.id} type={self.type} callback={cb}>"

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the arrival of the first callback, or None."""
        if self.first_callback_at is None:
            return None
        return self.first_callback_at - self.dispatched_at

    @property
    def ephemeral(self) -> bool:
        return self.callback is not None and self.callback.ephemeral

    @property
    def original(self) -> FakeMessage | None:
        """The message the interaction's response created or updated, if any."""
        if self.original_id is None or self._fake is None:
            return None
        return self._fake._messages.get(self.original_id)

    @property
    def response_message(self) -> FakeMessage | None:
        return self.original

    async def wait_response(self, timeout: float = 5.0) -> FakeCallback:
        """Wait for the bot's first callback to this interaction and return it."""
        try:
            await asyncio.wait_for(self._responded.wait(), timeout)
        except TimeoutError:
            hint = ""
            if self.rejected_callbacks:
                hint = f"; refused callbacks: {self.rejected_callbacks}"
            raise TimeoutError(
                f"the bot did not answer interaction {self.id} (type {self.type}, "
                f"{self.command_name or self.payload.get('data', {}).get('custom_id')!r}) "
                f"within {timeout}s{hint}"
            ) from None
        assert self.callback is not None
        return self.callback


@dataclass
class _Upload:
    index: int
    filename: str
    data: bytes
    content_type: str


_BOUNDARY = re.compile(r'boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
_PARAM = re.compile(r';\s*([\w*.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')


def multipart_parts(body: bytes, content_type: str) -> list[tuple[dict[str, str], bytes]]:
    """The parts of a ``multipart/form-data`` body (RFC 7578): each part's headers (names
    in lower case) and content. Read whole, split on the boundary: what Discord's API
    receives from discord.py (a JSON payload and files), without aiohttp's reader."""
    m = _BOUNDARY.search(content_type)
    if m is None:
        raise FakeHTTPError(400, 50035, "Invalid Form Body")
    delimiter = b"\r\n--" + (m.group(1) or m.group(2)).encode()
    parts = []
    # (the body opens with the delimiter, without the line break that precedes the others)
    for chunk in (b"\r\n" + body).split(delimiter)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, sep, content = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not sep:
            raise FakeHTTPError(400, 50035, "Invalid Form Body")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        parts.append((headers, content))
    return parts


def disposition_params(value: str) -> dict[str, str]:
    """The parameters of a Content-Disposition header (``name``, ``filename``), unquoted;
    ``filename*=utf-8''…`` (RFC 5987) is read as ``filename``, and wins over it."""
    params: dict[str, str] = {}
    extended = set()
    for key, quoted, token in _PARAM.findall(value):
        text = re.sub(r"\\(.)", r"\1", quoted) if quoted or not token else token
        key = key.lower()
        if key.endswith("*"):
            charset, _, encoded = text.partition("''")
            key, text = key[:-1], unquote(encoded, encoding=charset or "utf-8")
            extended.add(key)
        elif key in extended:
            continue
        params[key] = text
    return params


# ---------------------------------------------------------------------- rate limits

#: Discord's default global limit: requests per second per bot token, all routes together.
GLOBAL_LIMIT = 50
#: Invalid requests (401, 403, 429 except scope "shared") tolerated per window before a ban.
INVALID_REQUEST_LIMIT = 10_000
INVALID_REQUEST_WINDOW = 600.0
#: How long the (Cloudflare) ban for too many invalid requests lasts.
BAN_SECONDS = 3600.0


@dataclass(frozen=True)
class RouteLimit:
    """A per-route bucket: ``limit`` requests per ``per`` seconds for each major parameter
    (channel, guild, or webhook id + token). Routes with the same ``name`` share a bucket
    (and its ``X-RateLimit-Bucket`` hash). ``scope`` is what a 429 from it announces:
    "user" (this bot's own limit) or "shared" (a limit of the resource, shared by everyone)."""

    name: str
    limit: int
    per: float
    scope: str = "user"

    @property
    def hash(self) -> str:
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]


#: The buckets the fake models, by "METHOD template" (templates as in the fake's route
#: table). Messages and edits follow Discord's well-known 5 per 5 s per channel and
#: reactions 1 per 0.25 s; the others are plausible values (Discord does not publish them).
#: Routes not listed get a bucket of their own with :data:`DEFAULT_ROUTE_LIMIT`.
ROUTE_LIMITS: dict[str, RouteLimit] = {
    "POST /channels/{cid}/messages": RouteLimit("messages.create", 5, 5.0),
    "PATCH /channels/{cid}/messages/{mid}": RouteLimit("messages.edit", 5, 5.0),
    "DELETE /channels/{cid}/messages/{mid}": RouteLimit("messages.delete", 5, 1.0),
    "POST /channels/{cid}/messages/bulk-delete": RouteLimit("messages.bulk-delete", 1, 1.0),
    "PUT /channels/{cid}/messages/{mid}/reactions/{emoji}/@me": RouteLimit("reactions", 1, 0.25),
    "DELETE /channels/{cid}/messages/{mid}/reactions/{emoji}/@me": RouteLimit("reactions", 1, 0.25),
    "DELETE /channels/{cid}/messages/{mid}/reactions": RouteLimit("reactions", 1, 0.25),
    "POST /users/@me/channels": RouteLimit("users.dm-channels", 10, 10.0),
    "POST /channels/{cid}/messages/{mid}/threads": RouteLimit("threads.create", 5, 5.0),
    "POST /channels/{cid}/threads": RouteLimit("threads.create", 5, 5.0),
    "PATCH /channels/{cid}": RouteLimit("channels.edit", 5, 5.0),
    "POST /channels/{cid}/typing": RouteLimit("channels.typing", 5, 5.0),
    "POST /webhooks/{app}/{token}": RouteLimit("webhooks.execute", 5, 2.0),
    "GET /webhooks/{app}/{token}/messages/{mid}": RouteLimit("webhooks.messages", 5, 2.0),
    "PATCH /webhooks/{app}/{token}/messages/{mid}": RouteLimit("webhooks.messages", 5, 2.0),
    "DELETE /webhooks/{app}/{token}/messages/{mid}": RouteLimit("webhooks.messages", 5, 2.0),
    "POST /interactions/{iid}/{token}/callback": RouteLimit("interactions.callback", 5, 1.0),
}
DEFAULT_ROUTE_LIMIT = (50, 1.0)

#: Routes exempt from the global limit: interaction callbacks, and everything sent through
#: an interaction's webhook token (follow-ups, edits of the original response).
GLOBAL_EXEMPT = ("POST /interactions/{iid}/{token}/callback",)


@dataclass
class _Window:
    """A fixed window: opened by the first request, ``count`` requests until ``reset``."""

    count: int = 0
    reset: float = 0.0


class RateLimits:
    """Discord's REST rate limits as the fake enforces them, and counters for benchmarks.

    * Global: ``global_limit`` requests per second per bot token (Discord: 50; large bots
      get more), all routes together except interaction callbacks and requests through an
      interaction token (``/webhooks/{application_id}/{token}...``). Exceeding it answers
      429 ``{"message", "retry_after", "global": true}`` with ``Retry-After``,
      ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``.
    * Per route: the buckets of :data:`ROUTE_LIMITS` per major parameter; every answer of a
      limited route carries ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``; a 429
      from a bucket says ``"global": false`` and ``X-RateLimit-Scope: user`` (or shared).
    * Invalid requests: 401, 403 and 429 (not scope "shared") answers are counted in a
      sliding ``invalid_request_window``; at ``invalid_request_limit`` every request is
      refused for ``ban_seconds`` with a text 429 without ``Via`` header, like Cloudflare's
      ban (discord.py raises at once instead of retrying).

    Every 429 the fake sends has a ``Via`` header: discord.py treats a 429 without one as a
    Cloudflare ban. ``clock`` (epoch seconds) can be replaced to step time in tests.
    With ``enabled`` False nothing is refused and no headers are sent; counters still count.
    """

    def __init__(
        self,
        *,
        enabled: bool = True,
        global_limit: int = GLOBAL_LIMIT,
        invalid_request_limit: int = INVALID_REQUEST_LIMIT,
        invalid_request_window: float = INVALID_REQUEST_WINDOW,
        ban_seconds: float = BAN_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.enabled = enabled
        self.global_limit = global_limit
        self.invalid_request_limit = invalid_request_limit
        self.invalid_request_window = invalid_request_window
        self.ban_seconds = ban_seconds
        self.clock = clock
        self.routes: dict[str, RouteLimit] = dict(ROUTE_LIMITS)
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global: dict[str, _Window] = {}
        self._invalid: collections.deque[float] = collections.deque()
        self.banned_until = 0.0
        self.reset_counters()

    def reset_counters(self) -> None:
        #: Requests that count toward the global limit, by "METHOD template" (429s included).
        self.calls: collections.Counter[str] = collections.Counter()
        #: Requests exempt from the global limit (interaction callbacks and webhooks).
        self.exempt_calls: collections.Counter[str] = collections.Counter()
        #: Requests that count toward the global limit, by the client's TCP port (which
        #: process of a bot token sent them: a bench maps ports to processes).
        self.calls_by_port: collections.Counter[int] = collections.Counter()
        #: 429s sent, by scope: "global", "user", "shared".
        self.rate_limited: collections.Counter[str] = collections.Counter()
        #: 429s sent, by "METHOD template".
        self.rate_limited_routes: collections.Counter[str] = collections.Counter()
        #: Answers that emptied their bucket (X-RateLimit-Remaining: 0), by "METHOD template":
        #: discord.py then waits for the reset before that request returns.
        self.exhausted: collections.Counter[str] = collections.Counter()
        #: Every invalid request (401, 403, 429 except shared) since the counters were reset.
        self.invalid_requests_total = 0
        #: Requests refused because of the ban.
        self.banned_requests = 0

    # ------------------------------------------------------------------ configuration

    def set_route_limit(
        self, route: str, limit: int, per: float, *, scope: str | None = None
    ) -> None:
        """Change the bucket of ``route`` ("METHOD template") and of every route sharing it."""
        old = self.routes.get(route) or RouteLimit(route, *DEFAULT_ROUTE_LIMIT)
        new = RouteLimit(old.name, limit, per, scope or old.scope)
        for key, value in list(self.routes.items()):
            if value.name == old.name:
                self.routes[key] = new
        self.routes[route] = new
        self._windows = {k: w for k, w in self._windows.items() if k[0] != new.name}

    def bucket_of(self, route: str) -> RouteLimit:
        return self.routes.get(route) or RouteLimit(route, *DEFAULT_ROUTE_LIMIT)

    # ------------------------------------------------------------------ counters

    @property
    def global_429s(self) -> int:
        return self.rate_limited["global"]

    @property
    def bucket_429s(self) -> int:
        return self.rate_limited["user"] + self.rate_limited["shared"]

    @property
    def invalid_requests(self) -> int:
        """Invalid requests in the current sliding window."""
        self._expire_invalid(self.clock())
        return len(self._invalid)

    @property
    def banned(self) -> bool:
        return self.clock() < self.banned_until

    def summary(self) -> dict[str, Any]:
        """The counters as plain data (for a benchmark's report)."""
        return {
            "calls": sum(self.calls.values()),
            "calls_by_route": dict(self.calls),
            "exempt_calls": sum(self.exempt_calls.values()),
            "exempt_by_route": dict(self.exempt_calls),
            "global_429s": self.global_429s,
            "bucket_429s": self.bucket_429s,
            "rate_limited_by_scope": dict(self.rate_limited),
            "rate_limited_by_route": dict(self.rate_limited_routes),
            "exhausted_by_route": dict(self.exhausted),
            "invalid_requests": self.invalid_requests,
            "invalid_requests_total": self.invalid_requests_total,
            "banned_requests": self.banned_requests,
        }

    # ------------------------------------------------------------------ enforcement

    def _expire_invalid(self, now: float) -> None:
        while self._invalid and self._invalid[0] <= now - self.invalid_request_window:
            self._invalid.popleft()

    def check_ban(self) -> bool:
        """True if the request must be refused as banned (and counts it)."""
        if self.enabled and self.clock() < self.banned_until:
            self.banned_requests += 1
            return True
        return False

    def note_status(self, status: int, scope: str | None = None) -> None:
        """Count an answer toward the invalid-request limit (and ban when past it)."""
        if status not in (401, 403, 429) or scope == "shared":
            return
        now = self.clock()
        self.invalid_requests_total += 1
        self._invalid.append(now)
        self._expire_invalid(now)
        if self.enabled and len(self._invalid) >= self.invalid_request_limit:
            self.banned_until = now + self.ban_seconds
            log.warning("fake discord: %d invalid requests: banned", len(self._invalid))

    def check(
        self, route: str, major: str, token: str, exempt: bool, port: int | None = None
    ) -> tuple[dict[str, str], tuple[dict[str, Any], str] | None]:
        """Account one request (from the client's TCP ``port``, if known); returns its
        rate-limit headers and, if refused, the 429 body and scope."""
        (self.exempt_calls if exempt else self.calls)[route] += 1
        if not exempt and port is not None:
            self.calls_by_port[port] += 1
        if not self.enabled:
            return {}, None
        now = self.clock()
        if not exempt:
            window = self._global.setdefault(token, _Window())
            if now >= window.reset:
                window.count, window.reset = 0, now + 1.0
            if window.count >= self.global_limit:
                retry = window.reset - now
                return self._refuse(route, "global", retry, {"X-RateLimit-Global": "true"})
            window.count += 1
        bucket = self.bucket_of(route)
        window = self._windows.setdefault((bucket.name, major), _Window())
        if now >= window.reset:
            window.count, window.reset = 0, now + bucket.per
        reset_after = window.reset - now
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - window.count - 1)),
            "X-RateLimit-Reset": f"{math.ceil(window.reset * 1000) / 1000:.3f}",
            # Rounded up: a client that waits this long finds the bucket refilled.
            "X-RateLimit-Reset-After": f"{math.ceil(reset_after * 1000) / 1000:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }
        if window.count >= bucket.limit:
            headers["X-RateLimit-Remaining"] = "0"
            return self._refuse(route, bucket.scope, reset_after, headers)
        window.count += 1
        if window.count == bucket.limit:
            self.exhausted[route] += 1
        return headers, None

    def _refuse(
        self, route: str, scope: str, retry_after: float, headers: dict[str, str]
    ) -> tuple[dict[str, str], tuple[dict[str, Any], str]]:
        retry_after = max(round(retry_after, 3), 0.001)
        self.rate_limited[scope] += 1
        self.rate_limited_routes[route] += 1
        headers = {
            **headers,
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": scope,
        }
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": scope == "global",
        }
        return headers, (body, scope)


@dataclass
class _Req:
    method: str
    path: str
    params: dict[str, str]
    json: Any
    uploads: list[_Upload]
    query: Mapping[str, str]
    arrived: float


@dataclass
class _Session:
    id: str
    seq: int = 0
    #: The shard this session identified as: (shard_id, shard_count).
    shard: tuple[int, int] = (0, 1)
    #: Its connection was dropped by Discord (``drop_connections``) and it may RESUME:
    #: meanwhile its events are kept (with their sequence numbers) to be replayed.
    awaiting_resume: bool = False
    #: The last dispatches sent or kept for it, as frames: a RESUME replays those after the
    #: client's last sequence number.
    history: collections.deque[dict[str, Any]] = field(
        default_factory=lambda: collections.deque(maxlen=SESSION_HISTORY)
    )

    def frame(self, event: str, data: Any) -> dict[str, Any]:
        """The next dispatch frame of this session (numbered, and kept for a RESUME)."""
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.history.append(frame)
        return frame

    def holds(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (None: a DM)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, shard_count) == shard_id


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild lives on, as Discord computes it."""
    return (guild_id >> 22) % shard_count


class _Connection:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: _Session | None = None
        self.lock = asyncio.Lock()
        self.activated_at = 0.0

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(_dumps(payload))

    async def dispatch(self, event: str, data: Any) -> None:
        assert self.session is not None
        async with self.lock:
            if self.ws.closed:
                raise ConnectionError("gateway connection closed")
            await self.ws.send_str(_dumps(self.session.frame(event, data)))


def _dumps(payload: Any) -> str:
    """A gateway frame's JSON (orjson: the fake serves the host bench's thousand tables
    from the bench's own process, where the json module's encoder was a sixth of its CPU)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON data (several times faster than ``copy.deepcopy`` on it)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def _emoji_payload(emoji: str) -> dict[str, Any]:
    name, _, emoji_id = emoji.partition(":")
    return {"id": emoji_id or None, "name": name}


def iter_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a (possibly nested, components v2) tree, depth first."""
    for comp in components:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from iter_components(comp["components"])
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from iter_components([comp[key]])


def find_components(message: FakeMessage | dict[str, Any] | list[Any]) -> list[dict[str, Any]]:
    """Flatten a message's interactive components (buttons, selects, text inputs).

    Each entry is ``{type, custom_id, label, disabled, style, url, placeholder, options,
    min_values, max_values, emoji}`` (missing fields are None; ``options`` a list for
    string selects).
    """
    if isinstance(message, FakeMessage):
        rows = message.components
    elif isinstance(message, dict):
        rows = message.get("components", [])
    else:
        rows = message
    out = []
    for comp in iter_components(rows):
        if comp.get("type") in (BUTTON, TEXT_INPUT, *SELECT_TYPES):
            out.append(
                {
                    "type": comp["type"],
                    "custom_id": comp.get("custom_id"),
                    "label": comp.get("label"),
                    "disabled": bool(comp.get("disabled", False)),
                    "style": comp.get("style"),
                    "url": comp.get("url"),
                    "placeholder": comp.get("placeholder"),
                    "options": comp.get("options"),
                    "min_values": comp.get("min_values"),
                    "max_values": comp.get("max_values"),
                    "emoji": comp.get("emoji"),
                }
            )
    return out


def find_component(
    message: FakeMessage | dict[str, Any] | list[Any],
    *,
    label: str | None = None,
    custom_id: str | None = None,
    prefix: str | None = None,
    type: int | None = None,
) -> dict[str, Any]:
    """The first component matching all given criteria; LookupError (listing all) if none."""
    comps = find_components(message)
    for comp in comps:
        if label is not None and comp["label"] != label:
            continue
        if custom_id is not None and comp["custom_id"] != custom_id:
            continue
        if prefix is not None and not (comp["custom_id"] or "").startswith(prefix):
            continue
        if type is not None and comp["type"] != type:
            continue
        return comp
    available = [(c["label"], c["custom_id"]) for c in comps]
    raise LookupError(
        f"no component with label={label!r} custom_id={custom_id!r} prefix={prefix!r} "
        f"type={type!r}; the message has {available}"
    )


def configure_discord_py(fake: FakeDiscord) -> Callable[[], None]:
    """Point discord.py (REST base and gateway URL) at ``fake``; returns a restore function."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


async def start_client(
    client: discord.Client, token: str = "fake-token", *, timeout: float = 15.0
) -> asyncio.Task[None]:
    """Run ``client.start(token)`` in a task and wait until the client is ready.

    Raises the client's own exception if it dies while starting.
    """
    task = asyncio.create_task(client.start(token), name="fake-discord-client")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # re-raise the start error
            raise RuntimeError("client.start() returned before the client became ready")
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise TimeoutError(f"the client did not become ready within {timeout}s")
    return task


async def stop_client(client: discord.Client, task: asyncio.Task[None] | None = None) -> None:
    """Close ``client`` and wait for its ``start`` task (from :func:`start_client`) to end."""
    await client.close()
    if task is not None:
        try:
            await asyncio.wait_for(task, 10)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()


class FakeDiscord:
    """Fake Discord server: world building, REST, gateway, simulated users, records.

    ``strict`` makes the fake refuse payloads Discord would refuse (limits on content,
    embeds, components, files). ``interaction_deadline`` (seconds, e.g. 3.0) makes it answer
    late first callbacks with 404/10062 as Discord does; by default latency is only
    recorded (``FakeInteraction.latency``) since test machines can be slow.

    Discord's rate limits are enforced (see :class:`RateLimits`, reachable as
    ``fake.ratelimits`` with its counters): ``rate_limits=False`` turns enforcement off,
    ``global_limit`` models the raised global limit of large bots,
    ``invalid_request_limit`` lowers the invalid-request ban threshold for tests.

    Sharding: ``shard_count`` is the count ``GET /gateway/bot`` recommends (settable later,
    also as ``recommended_shards``); ``add_guild(name, shard=...)`` places a guild on a
    chosen shard. Each gateway connection is one shard session; an IDENTIFY with an invalid
    ``shard`` is closed with 4010, one whose session would hold more than
    ``max_guilds_per_shard`` guilds with 4011 (sharding required). See :meth:`dispatch`
    for how events are routed.
    """

    def __init__(
        self,
        *,
        strict: bool = True,
        interaction_deadline: float | None = None,
        bot_name: str = "Teahouse",
        connect_timeout: float = 10.0,
        rate_limits: bool = True,
        global_limit: int = GLOBAL_LIMIT,
        invalid_request_limit: int = INVALID_REQUEST_LIMIT,
        clock: Callable[[], float] = time.time,
        shard_count: int = 1,
        max_guilds_per_shard: int | None = MAX_GUILDS_PER_SHARD,
        max_concurrency: int = 1,
    ) -> None:
        self.strict = strict
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        #: The shard count ``GET /gateway/bot`` recommends (guilds are placed with it by
        #: default); sessions may identify with any count.
        self.shard_count = shard_count
        #: A session that would hold more guilds than this is refused with 4011 (None: never).
        self.max_guilds_per_shard = max_guilds_per_shard
        #: Reported in ``session_start_limit`` (IDENTIFYs allowed per 5 s; not enforced).
        self.max_concurrency = max_concurrency
        self._clock = clock
        #: When the current 24 h session-start window began, and the IDENTIFYs made in it.
        self._session_window_start: float | None = None
        self._session_starts = 0
        #: Rate-limit enforcement and counters.
        self.ratelimits = RateLimits(
            enabled=rate_limits,
            global_limit=global_limit,
            invalid_request_limit=invalid_request_limit,
            clock=clock,
        )
        self.interaction_deadline = interaction_deadline
        self.connect_timeout = connect_timeout
        self._last_id = 0
        self._users: dict[int, FakeUser] = {}
        self._guilds: dict[int, FakeGuild] = {}
        self._channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._attachments: dict[int, FakeAttachment] = {}
        self._dm_channels: dict[int, int] = {}
        self._interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        #: Synced commands: key None for global, else the guild id.
        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self._sessions: dict[str, _Session] = {}
        self._connections: list[_Connection] = []
        self._change = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._routes = self._build_routes()

        bot = FakeUser(self._next_id(), bot_name, bot=True)
        self._users[bot.id] = bot
        self.bot_user_id: int = bot.id
        #: As for real bots, the application id equals the bot user's id.
        self.application_id: int = bot.id
        owner = FakeUser(self._next_id(), "Owner")
        self._users[owner.id] = owner
        #: A user owning every guild and the application (administrator everywhere).
        self.owner_user_id: int = owner.id

        #: Every REST request answered, in order.
        self.all_requests: list[RequestRecord] = []
        #: Error answers with their body: (request, body).
        self.error_responses: list[tuple[RequestRecord, dict[str, Any]]] = []
        #: Routes nobody implemented: "METHOD /path".
        self.unknown_routes: list[str] = []
        #: Requests refused because Discord would refuse them: their body violates the
        #: official API spec or a documented limit (see tests/e2e/discord_schema.py).
        self.spec_violations: list[SpecViolation] = []
        #: Requests answered with a 4xx other than 429 (invalid bodies, closed DMs, unknown
        #: messages, ...); 5xx outages injected with :meth:`fail_next` are not refusals.
        self.refusals: list[Refusal] = []
        #: Requests to refuse as Discord's bad moments do (see :meth:`fail_next`).
        self._failing: list[tuple[str, dict[str, str], int, list[int]]] = []
        #: Exceptions raised inside the fake's own handlers (bugs of the fake).
        self.errors: list[BaseException] = []
        #: Requests whose client went away before the fake had read them (a process killed
        #: mid-request): ("METHOD path"). Nothing of the fake's failed, and nobody is there
        #: to answer, as for a real Discord.
        self.dropped: list[str] = []
        #: Interactions in dispatch order.
        self.interactions: list[FakeInteraction] = []
        #: Messages deleted by the bot.
        self.deleted_messages: list[FakeMessage] = []
        #: Gateway events dispatched to the bot: (event name, data).
        self.dispatched: list[tuple[str, Any]] = []
        #: Called as ``observer(message, created)`` right after the bot creates or edits a
        #: message (benchmarks timestamp what players and spectators get to see).
        self.message_observers: list[Callable[[FakeMessage, bool], None]] = []
        #: Message id → edits through ``PATCH /channels/{cid}/messages/{mid}`` (counted
        #: against the REST budget, unlike edits through an interaction's webhook).
        self.plain_edits: collections.Counter[int] = collections.Counter()
        #: Accepted IDENTIFYs (new sessions).
        self.identify_count = 0
        self.resume_count = 0
        #: Dispatches a RESUME replayed (event names), and sessions invalidated (op 9).
        self.replayed: list[str] = []
        self.invalidated_sessions = 0
        #: Set while new gateway connections get their HELLO (see :meth:`hold_gateway`).
        self._gateway_open = asyncio.Event()
        self._gateway_open.set()
        self._held_connections = 0
        #: The last IDENTIFY's ``d`` (also of a refused one).
        self.last_identify: dict[str, Any] | None = None
        #: The shard (shard_id, shard_count) of each accepted IDENTIFY, in order.
        self.identified_shards: list[tuple[int, int]] = []
        #: IDENTIFYs refused: (close code, the IDENTIFY's ``shard`` field or None).
        self.refused_identifies: list[tuple[int, Any]] = []
        #: Events no live session could take (the guild's shard, or shard 0 for DMs, had no
        #: session): (event name, data). A real Discord drops them too.
        self.undelivered: list[tuple[str, Any]] = []
        self.typing: list[int] = []

    # ------------------------------------------------------------------ lifecycle

    async def start(self, port: int = 0) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_file)
        app.router.add_route("*", "/{tail:.*}", self._handle_rest)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self._port = self._runner.addresses[0][1]
        log.info("fake discord listening on %s", self.base_url)

    def request_shapes(self) -> collections.Counter[str]:
        """How many requests of each shape ("METHOD template") the fake answered; one
        refused before routing (an unknown route, or during a ban) by its path."""
        return collections.Counter(
            r.route or f"{r.method} (not routed) {r.path}" for r in self.all_requests
        )

    async def stop(self) -> None:
        shapes_file = os.environ.get("TEAHOUSE_REQUEST_SHAPES")
        if shapes_file:  # tests/e2e/request_shapes.py sums them over a run
            with open(shapes_file, "ab") as out:
                out.write(orjson.dumps(self.request_shapes()) + b"\n")
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/gateway"

    # ------------------------------------------------------------------ world building

    def _next_id(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, candidate)
        return self._last_id

    def _next_id_on_shard(self, shard: int, shard_count: int) -> int:
        """A fresh snowflake whose shard is ``shard`` of ``shard_count`` (its timestamp is
        at most ``shard_count - 1`` ms ahead)."""
        if not 0 <= shard < shard_count:
            raise ValueError(f"shard {shard} is not in 0..{shard_count - 1}")
        timestamp = self._next_id() >> 22
        timestamp += (shard - timestamp) % shard_count
        self._last_id = max(self._last_id, timestamp << 22)
        return self._last_id

    def add_guild(
        self,
        name: str,
        *,
        shard: int | None = None,
        shard_count: int | None = None,
        locale: str = "en-US",
    ) -> int:
        """A guild with an @everyone role (id = guild id), the bot, the owner and all users.

        ``shard`` places it on that shard of ``shard_count`` (default: the fake's
        :attr:`shard_count`): its id is chosen so that ``(id >> 22) % shard_count == shard``.
        ``locale`` is its preferred locale (interactions in it carry it as ``guild_locale``).
        """
        if shard is None:
            guild_id = self._next_id()
        else:
            guild_id = self._next_id_on_shard(shard, shard_count or self.shard_count)
        guild = FakeGuild(guild_id, name, self.owner_user_id, _now_iso(), preferred_locale=locale)
        guild.member_ids = [u.id for u in self._users.values()]
        self._guilds[guild.id] = guild
        self._changed()
        return guild.id

    def add_text_channel(
        self, guild_id: int, name: str, *, visible_to: Iterable[int] | None = None
    ) -> int:
        """A text channel; ``visible_to``: a private one, which only these users (and the
        bot and the owner) may view (overwrites deny @everyone View Channel and allow it to
        each of them)."""
        guild = self._guilds[guild_id]
        channel = FakeChannel(
            self._next_id(), GUILD_TEXT, name, guild_id=guild_id, position=len(guild.channel_ids)
        )
        if visible_to is not None:
            view = discord.Permissions(view_channel=True).value
            channel.overwrites[guild_id] = (OVERWRITE_ROLE, 0, view)
            for user in {*visible_to, self.bot_user_id}:
                channel.overwrites[user] = (OVERWRITE_MEMBER, view, 0)
        self._channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._changed()
        return channel.id

    def add_user(self, name: str, dms_open: bool = True, *, admin: bool = False) -> int:
        """A user who is a member of every guild (existing and future); ``admin`` gives
        them every permission (as the owner has)."""
        user = FakeUser(self._next_id(), name, dms_open=dms_open, admin=admin)
        self._users[user.id] = user
        for guild in self._guilds.values():
            guild.member_ids.append(user.id)
        self._changed()
        return user.id

    def set_dms_open(self, user_id: int, open: bool) -> None:
        self._users[user_id].dms_open = open

    def open_dm(self, user_id: int) -> int:
        """The DM channel between the bot and ``user_id`` (created if needed)."""
        if user_id not in self._users:
            raise FakeHTTPError(404, 10013, "Unknown User")
        if user_id not in self._dm_channels:
            channel = FakeChannel(self._next_id(), DM, recipient_id=user_id)
            self._channels[channel.id] = channel
            self._dm_channels[user_id] = channel.id
        return self._dm_channels[user_id]

    def user_named(self, name: str) -> int:
        return next(u.id for u in self._users.values() if u.name == name)

    def guild_named(self, name: str) -> int:
        return next(g.id for g in self._guilds.values() if g.name == name)

    def channel_named(self, name: str, guild_id: int | None = None) -> int:
        return next(
            c.id
            for c in self._channels.values()
            if c.name == name and (guild_id is None or c.guild_id == guild_id)
        )

    @property
    def guild_ids(self) -> list[int]:
        return list(self._guilds)

    @property
    def recommended_shards(self) -> int:
        """The shard count ``GET /gateway/bot`` answers (the same as :attr:`shard_count`)."""
        return self.shard_count

    @recommended_shards.setter
    def recommended_shards(self, count: int) -> None:
        if count < 1:
            raise ValueError("the shard count must be at least 1")
        self.shard_count = count

    def shard_of(self, guild_id: int, shard_count: int | None = None) -> int:
        """The shard of ``guild_id`` among ``shard_count`` (default :attr:`shard_count`)."""
        return shard_of(guild_id, shard_count or self.shard_count)

    def guilds_on_shard(self, shard_id: int, shard_count: int | None = None) -> list[int]:
        """The guilds a session identified as ``[shard_id, shard_count]`` holds."""
        count = shard_count or self.shard_count
        return [g for g in self._guilds if shard_of(g, count) == shard_id]

    @property
    def live_shards(self) -> list[tuple[int, int]]:
        """(shard_id, shard_count) of every live gateway session, sorted."""
        return sorted(
            c.session.shard for c in self._connections if c.open and c.session is not None
        )

    # ------------------------------------------------------------------ records & waiting

    def _changed(self) -> None:
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[], T], timeout: float = 10.0, *, what: str = ""
    ) -> T:
        """Return ``predicate()``'s first truthy value, re-checked whenever the fake changes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or predicate!r}; "
                    f"last requests: {self.all_requests[-8:]}; "
                    f"errors: {self.error_responses[-3:]}; unknown routes: {self.unknown_routes}"
                )
            event = self._change
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    def message(self, message_id: int) -> FakeMessage:
        return self._messages[message_id]

    def messages_in(self, channel_id: int, *, include_ephemeral: bool = True) -> list[FakeMessage]:
        """Current (not deleted) messages of a channel, thread or DM, oldest first."""
        channel = self._channels.get(channel_id)
        if channel is None:
            return []
        return [m for m in channel.messages if include_ephemeral or not m.ephemeral]

    def last_message(self, channel_id: int) -> FakeMessage | None:
        msgs = self.messages_in(channel_id)
        return msgs[-1] if msgs else None

    def dm_channel_of(self, user_id: int) -> int | None:
        return self._dm_channels.get(user_id)

    def dms(self, user_id: int) -> list[FakeMessage]:
        """Messages in the bot's DM with ``user_id`` (empty if never opened)."""
        channel_id = self._dm_channels.get(user_id)
        return self.messages_in(channel_id) if channel_id is not None else []

    def threads_of(self, channel_id: int) -> list[int]:
        return [c.id for c in self._channels.values() if c.parent_id == channel_id]

    def channel(self, channel_id: int) -> FakeChannel:
        return self._channels[channel_id]

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Synced commands (global when ``guild_id`` is None) with their ids."""
        return copy.deepcopy(self._commands.get(guild_id, []))

    def requests(
        self, method: str | None = None, path_regex: str | None = None
    ) -> list[RequestRecord]:
        return [
            r
            for r in self.all_requests
            if (method is None or r.method == method)
            and (path_regex is None or re.search(path_regex, r.path))
        ]

    def failed_requests(self) -> list[RequestRecord]:
        return [r for r in self.all_requests if r.status >= 400]

    @property
    def connected(self) -> bool:
        return self._active_connection() is not None

    # ------------------------------------------------------------------ payload builders

    def _user_payload(self, user_id: int) -> dict[str, Any]:
        return self._users[user_id].payload()

    def _member_payload(
        self, guild: FakeGuild, user_id: int, *, with_user: bool = True, permissions: bool = False
    ) -> dict[str, Any]:
        out: dict[str, Any] = {
            "roles": [],
            "joined_at": guild.joined_at,
            "premium_since": None,
            "nick": None,
            "avatar": None,
            "banner": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            out["user"] = self._user_payload(user_id)
        if permissions:
            out["permissions"] = str(self._permissions(guild, user_id))
        return out

    def _permissions(self, guild: FakeGuild, user_id: int) -> int:
        if user_id in (guild.owner_id, self.bot_user_id) or self._users[user_id].admin:
            return ALL_PERMISSIONS
        return EVERYONE_PERMISSIONS

    def _channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        if channel.is_dm:
            assert channel.recipient_id is not None
            return {
                "id": str(channel.id),
                "type": DM,
                "last_message_id": str(channel.last_message_id)
                if channel.last_message_id
                else None,
                "recipients": [self._user_payload(channel.recipient_id)],
                "flags": 0,
            }
        out: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (kind, allow, deny) in channel.overwrites.items()
            ],
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": str(channel.last_message_id) if channel.last_message_id else None,
            "flags": 0,
        }
        if channel.is_thread:
            out.update(
                owner_id=str(channel.owner_id),
                message_count=len(channel.messages),
                total_message_sent=channel.total_message_sent,
                member_count=max(1, len(channel.member_ids)),
                thread_metadata={
                    "archived": channel.archived,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": channel.created_at,
                    "locked": channel.locked,
                    "invitable": True,
                    "create_timestamp": channel.created_at,
                },
            )
        else:
            out.update(topic=None, default_auto_archive_duration=1440)
        return out

    def _role_payloads(self, guild: FakeGuild) -> list[dict[str, Any]]:
        return [
            {
                "id": str(guild.id),
                "name": "@everyone",
                "permissions": str(EVERYONE_PERMISSIONS),
                "position": 0,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
            }
        ]

    def _guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        channels = [self._channels[c] for c in guild.channel_ids]
        threads = [
            c
            for c in self._channels.values()
            if c.is_thread and c.guild_id == guild.id and not c.archived
        ]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "application_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "features": [],
            "roles": self._role_payloads(guild),
            "emojis": [],
            "stickers": [],
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(guild.member_ids),
            "members": [self._member_payload(guild, uid) for uid in guild.member_ids],
            "channels": [self._channel_payload(c) for c in channels],
            "threads": [self._channel_payload(t) for t in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _attachment_payload(self, att: FakeAttachment) -> dict[str, Any]:
        url = f"{self.base_url}/attachments/{att.channel_id}/{att.id}/{quote(att.filename)}"
        out: dict[str, Any] = {
            "id": str(att.id),
            "filename": att.filename,
            "size": len(att.data),
            "url": url,
            "proxy_url": url,
            "content_type": att.content_type,
        }
        if att.description is not None:
            out["description"] = att.description
        if att.width is not None:
            out["width"], out["height"] = att.width, att.height
        return out

    def _resolve_embed_urls(
        self, embeds: list[dict[str, Any]], attachments: list[FakeAttachment]
    ) -> list[dict[str, Any]]:
        """Like Discord, turn ``attachment://name`` image URLs into the attachment's URL."""
        out = copy.deepcopy(embeds)
        by_name = {a.filename: a for a in attachments}
        for embed in out:
            for key, url_key in (
                ("image", "url"),
                ("thumbnail", "url"),
                ("author", "icon_url"),
                ("footer", "icon_url"),
            ):
                part = embed.get(key)
                url = part.get(url_key) if isinstance(part, dict) else None
                if isinstance(url, str) and url.startswith("attachment://"):
                    att = by_name.get(url.removeprefix("attachment://"))
                    if att is not None:
                        part[url_key] = self._attachment_payload(att)["url"]
                        if key in ("image", "thumbnail"):
                            part["proxy_url"] = part[url_key]
                            if att.width is not None:
                                part["width"], part["height"] = att.width, att.height
        return out

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        ids = dict.fromkeys(int(m) for m in re.findall(r"<@!?(\d+)>", content or ""))
        return [self._user_payload(uid) for uid in ids if uid in self._users]

    def _command_payload(self, cmd: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(cmd)

    # ------------------------------------------------------------------ REST plumbing

    def _build_routes(
        self,
    ) -> list[tuple[str, str, re.Pattern[str], Callable[[_Req], Awaitable[Any]]]]:
        table: list[tuple[str, str, Callable[[_Req], Awaitable[Any]]]] = [
            ("GET", "/users/@me", self._r_get_me),
            ("POST", "/users/@me/channels", self._r_open_dm),
            ("GET", "/users/{user_id}", self._r_get_user),
            ("GET", "/oauth2/applications/@me", self._r_app_info),
            ("GET", "/applications/@me", self._r_app_info),
            ("GET", "/gateway", self._r_gateway),
            ("GET", "/gateway/bot", self._r_gateway_bot),
            ("GET", "/applications/{app}/emojis", self._r_app_emojis),
            (
                "GET",
                "/applications/{app}/guilds/{guild_id}/commands/permissions",
                self._r_empty_list,
            ),
            ("GET", "/applications/{app}/commands", self._r_get_commands),
            ("PUT", "/applications/{app}/commands", self._r_put_commands),
            ("POST", "/applications/{app}/commands", self._r_upsert_command),
            ("GET", "/applications/{app}/commands/{cmd}", self._r_get_command),
            ("PATCH", "/applications/{app}/commands/{cmd}", self._r_patch_command),
            ("DELETE", "/applications/{app}/commands/{cmd}", self._r_delete_command),
            ("GET", "/applications/{app}/guilds/{guild_id}/commands", self._r_get_commands),
            ("PUT", "/applications/{app}/guilds/{guild_id}/commands", self._r_put_commands),
            ("POST", "/applications/{app}/guilds/{guild_id}/commands", self._r_upsert_command),
            ("GET", "/applications/{app}/guilds/{guild_id}/commands/{cmd}", self._r_get_command),
            (
                "PATCH",
                "/applications/{app}/guilds/{guild_id}/commands/{cmd}",
                self._r_patch_command,
            ),
            (
                "DELETE",
                "/applications/{app}/guilds/{guild_id}/commands/{cmd}",
                self._r_delete_command,
            ),
            ("POST", "/interactions/{iid}/{token}/callback", self._r_callback),
            ("POST", "/webhooks/{app}/{token}", self._r_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{mid}", self._r_webhook_get),
            ("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self._r_webhook_edit),
            ("DELETE", "/webhooks/{app}/{token}/messages/{mid}", self._r_webhook_delete),
            ("GET", "/channels/{cid}", self._r_get_channel),
            ("PATCH", "/channels/{cid}", self._r_edit_channel),
            ("DELETE", "/channels/{cid}", self._r_delete_channel),
            ("GET", "/channels/{cid}/messages", self._r_history),
            ("POST", "/channels/{cid}/messages", self._r_send),
            ("POST", "/channels/{cid}/messages/bulk-delete", self._r_bulk_delete),
            ("PUT", "/channels/{cid}/messages/pins/{mid}", self._r_pin),
            ("DELETE", "/channels/{cid}/messages/pins/{mid}", self._r_unpin),
            ("PUT", "/channels/{cid}/pins/{mid}", self._r_pin),
            ("DELETE", "/channels/{cid}/pins/{mid}", self._r_unpin),
            ("GET", "/channels/{cid}/messages/{mid}", self._r_get_message),
            ("PATCH", "/channels/{cid}/messages/{mid}", self._r_edit_message),
            ("DELETE", "/channels/{cid}/messages/{mid}", self._r_delete_message),
            ("PUT", "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._r_react),
            ("DELETE", "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._r_unreact),
            ("DELETE", "/channels/{cid}/messages/{mid}/reactions", self._r_clear_reactions),
            ("POST", "/channels/{cid}/messages/{mid}/threads", self._r_thread_from_message),
            ("POST", "/channels/{cid}/threads", self._r_thread),
            ("PUT", "/channels/{cid}/thread-members/{uid}", self._r_thread_add_member),
            ("DELETE", "/channels/{cid}/thread-members/{uid}", self._r_thread_remove_member),
            ("POST", "/channels/{cid}/typing", self._r_typing),
            ("GET", "/guilds/{guild_id}", self._r_get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._r_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._r_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self._r_guild_members),
            ("GET", "/guilds/{guild_id}/members/{uid}", self._r_guild_member),
        ]
        routes = []
        for method, template, handler in table:
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
            routes.append((method, template, re.compile(pattern), handler))
        return routes

    async def _read_body(self, request: web.Request) -> tuple[Any, list[_Upload]]:
        # (aiohttp's ``request.content_type`` parses the header with the email package, and
        # its multipart reader parses each part's headers as slowly: together a fifth of
        # the fake's CPU under the host bench's load; see multipart_parts)
        content_type = request.headers.get("Content-Type", "")
        if content_type.lstrip().lower().startswith("multipart/"):
            payload: Any = None
            uploads: list[_Upload] = []
            for headers, data in multipart_parts(await request.read(), content_type):
                params = disposition_params(headers.get("content-disposition", ""))
                name = params.get("name", "")
                if name == "payload_json":
                    payload = orjson.loads(data)
                    continue
                m = re.fullmatch(r"files\[(\d+)\]", name) or re.fullmatch(r"file(\d*)", name)
                index = int(m.group(1)) if m and m.group(1) else len(uploads)
                uploads.append(
                    _Upload(
                        index,
                        params.get("filename") or name,
                        data,
                        headers.get("content-type", "application/octet-stream"),
                    )
                )
            return payload, uploads
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return orjson.loads(raw), []
        except ValueError:
            raise FakeHTTPError(400, 50109, "The request body contains invalid JSON.") from None

    @staticmethod
    def _json_response(
        status: int, body: Any, headers: Mapping[str, str] | None = None
    ) -> web.Response:
        # Discord's answers pass Google's load balancer: discord.py reads a 429 without
        # "Via" as a Cloudflare ban.
        headers = {"Via": "1.1 google", **(headers or {})}
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py ignores bodies with a charset suffix.
        return web.Response(
            status=status,
            body=orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS),
            headers={**headers, "Content-Type": "application/json"},
        )

    def _rate_limit_key(
        self, method: str, template: str, params: Mapping[str, str]
    ) -> tuple[str, str, bool]:
        """(route, major parameter, exempt from the global limit) of a request."""
        route = f"{method} {template}"
        if "cid" in params:
            major = params["cid"]
        elif "guild_id" in params:
            major = params["guild_id"]
        elif "token" in params:
            major = f"{params.get('app') or params.get('iid')}+{params['token']}"
        else:
            major = ""
        exempt = route in GLOBAL_EXEMPT or (
            template.startswith("/webhooks/{app}/{token}")
            and params.get("app") == str(self.application_id)
        )
        return route, major, exempt

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        m = re.fullmatch(r"/api/v\d+(/.*)", request.path)
        sub = m.group(1) if m else request.path
        limits = self.ratelimits
        if limits.check_ban():
            self.all_requests.append(RequestRecord(request.method, sub, 429))
            self._changed()
            # Cloudflare's answer: plain text and no Via header (discord.py gives up at once).
            return web.Response(
                status=429,
                text="error code: 1015",
                headers={"Retry-After": str(math.ceil(limits.banned_until - limits.clock()))},
            )
        status, body = 404, None
        headers: dict[str, str] = {}
        scope: str | None = None
        auth = request.headers.get("Authorization", "")
        route = f"{request.method} {sub}"
        routed = False
        try:
            for method, template, pattern, handler in self._routes:
                match = pattern.fullmatch(sub) if method == request.method else None
                if match is None:
                    continue
                route, routed = f"{method} {template}", True
                payload, uploads = await self._read_body(request)
                params = {k: unquote(v) for k, v in match.groupdict().items()}
                route, major, exempt = self._rate_limit_key(method, template, params)
                if "token" not in params and not auth.startswith("Bot "):
                    status, body = 401, {"message": "401: Unauthorized", "code": 0}
                    break
                peer = request.transport.get_extra_info("peername") if request.transport else None
                port = peer[1] if isinstance(peer, tuple) and len(peer) >= 2 else None
                headers, refused = limits.check(route, major, auth, exempt, port)
                if refused is not None:
                    (status, body), scope = (429, refused[0]), refused[1]
                    break
                self._check_request(method, template, payload)
                failing = self._take_failure(f"{method} {template}", params)
                if failing is not None:
                    status, body = failing, {"code": 0, "message": f"{failing}: fake outage"}
                    break
                result = await handler(
                    _Req(request.method, sub, params, payload, uploads, request.query, arrived)
                )
                status, body = result if isinstance(result, tuple) else (200, result)
                break
            else:
                route = f"{request.method} {sub}"
                log.warning("fake discord: unknown route %s", route)
                self.unknown_routes.append(route)
                body = {"code": 0, "message": f"fake discord: unknown route {route}"}
        except FakeHTTPError as exc:
            status, body = exc.status, exc.body()
        except ConnectionResetError:  # the client is gone: neither a refusal nor a bug
            log.info("fake discord: %s %s: the client went away mid-request", request.method, sub)
            self.dropped.append(f"{request.method} {sub}")
            self._changed()
            return web.Response(status=400)  # (to nobody)
        except Exception as exc:  # a bug of the fake: answer 400 (discord.py retries 5xx)
            log.exception("fake discord: error handling %s %s", request.method, sub)
            self.errors.append(exc)
            status, body = 400, {"code": 0, "message": f"fake discord internal error: {exc!r}"}
        limits.note_status(status, scope)
        record = RequestRecord(request.method, sub, status, route if routed else "")
        self.all_requests.append(record)
        if 400 <= status < 500 and status != 429:
            self.refusals.append(Refusal(route, status, int((body or {}).get("code") or 0)))
        if status >= 400:
            self.error_responses.append((record, body or {}))
            if status == 429:
                log.debug("fake discord: %s %s -> 429 %s", request.method, sub, body)
            elif status != 403 or (body or {}).get("code") != 50007:
                log.info("fake discord: %s %s -> %s %s", request.method, sub, status, body)
        self._changed()
        return self._json_response(status, body, headers)

    def _check_request(self, method: str, template: str, payload: Any) -> None:
        """Refuse a body Discord would refuse (400 / 50035 with Discord's nested errors)
        and record it in :attr:`spec_violations`, before any handler sees it."""
        if payload is None or not self.strict:
            return
        problems = discord_schema.check_request(method, template, payload)
        if not problems:
            return
        errors = discord_schema.errors_object(problems)
        route = f"{method} {template}"
        self.spec_violations.append(SpecViolation(route, payload, errors))
        log.warning(
            "fake discord: %s violates Discord's rules: %s", route, "; ".join(map(str, problems))
        )
        raise FakeHTTPError(400, 50035, "Invalid Form Body", errors)

    def problems(self, *, refusals_expected: bool = False) -> list[str]:
        """What an e2e test's teardown refuses: requests Discord would refuse as invalid,
        exceptions in the fake's handlers, unknown routes and, unless the test expects
        some, refused requests (4xx other than 429). Empty when all went right."""
        out = [f"invalid request {v.route}: {v.errors}" for v in self.spec_violations]
        out += [f"fake discord handler raised {e!r}" for e in self.errors]
        out += [f"unknown route {r}" for r in self.unknown_routes]
        if not refusals_expected:
            out += [f"refused {r.route}: {r.status} (code {r.code})" for r in self.refusals]
        return out

    def fail_next(self, route: str, count: int = 1, status: int = 503, **params: Any) -> None:
        """Answer the next ``count`` requests on ``route`` ("METHOD template", as in
        ``ratelimits.calls``: ``"POST /users/@me/channels"``) whose path parameters match
        ``params`` (``cid=123``) with ``status``, as Discord does in a bad moment (a 503
        discord.py does not retry by itself)."""
        wanted = {k: str(v) for k, v in params.items()}
        self._failing.append((route, wanted, status, [count]))

    @property
    def failures_left(self) -> int:
        """Answers :meth:`fail_next` still has to fail."""
        return sum(left[0] for _, _, _, left in self._failing)

    def clear_failures(self) -> None:
        """Forget the failures :meth:`fail_next` has not served yet (an outage that ends)."""
        self._failing.clear()

    def _take_failure(self, route: str, params: Mapping[str, str]) -> int | None:
        for name, wanted, status, left in self._failing:
            if name == route and left[0] > 0 and all(params.get(k) == v for k, v in wanted.items()):
                left[0] -= 1
                return status
        return None

    async def _serve_file(self, request: web.Request) -> web.StreamResponse:
        att = self._attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    # ------------------------------------------------------------------ REST: login, gateway

    def _me_payload(self) -> dict[str, Any]:
        out = self._user_payload(self.bot_user_id)
        out.update(verified=True, mfa_enabled=False, locale="en-US", email=None)
        return out

    async def _r_get_me(self, r: _Req) -> Any:
        return self._me_payload()

    async def _r_get_user(self, r: _Req) -> Any:
        uid = int(r.params["user_id"])
        if uid not in self._users:
            raise FakeHTTPError(404, 10013, "Unknown User")
        return self._user_payload(uid)

    async def _r_app_info(self, r: _Req) -> Any:
        return {
            "id": str(self.application_id),
            "name": self._users[self.bot_user_id].name,
            "description": "",
            "icon": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self._user_payload(self.bot_user_id),
            "owner": self._user_payload(self.owner_user_id),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self._guilds),
        }

    async def _r_gateway(self, r: _Req) -> Any:
        return {"url": self.gateway_url}

    def _session_window(self) -> tuple[int, int]:
        """(session starts left, ms until the count resets) in the current 24 h window."""
        now = self._clock()
        start = self._session_window_start
        if start is None or now - start >= SESSION_START_WINDOW_S:
            return SESSION_START_TOTAL, 0
        left = max(0, SESSION_START_TOTAL - self._session_starts)
        return left, int((start + SESSION_START_WINDOW_S - now) * 1000)

    def _count_session_start(self) -> None:
        now = self._clock()
        start = self._session_window_start
        if start is None or now - start >= SESSION_START_WINDOW_S:
            self._session_window_start = now
            self._session_starts = 0
        self._session_starts += 1

    async def _r_gateway_bot(self, r: _Req) -> Any:
        remaining, reset_after = self._session_window()
        return {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {
                "total": SESSION_START_TOTAL,
                "remaining": remaining,
                "reset_after": reset_after,
                "max_concurrency": self.max_concurrency,
            },
        }

    async def _r_app_emojis(self, r: _Req) -> Any:
        return {"items": []}

    async def _r_empty_list(self, r: _Req) -> Any:
        return []

    # ------------------------------------------------------------------ REST: commands

    def _command_key(self, r: _Req) -> int | None:
        if int(r.params["app"]) != self.application_id:
            raise FakeHTTPError(403, 50001, "Missing Access")
        guild_id = r.params.get("guild_id")
        if guild_id is None:
            return None
        if int(guild_id) not in self._guilds:
            raise FakeHTTPError(403, 50001, "Missing Access")
        return int(guild_id)

    def _store_command(
        self, key: int | None, body: dict[str, Any], old: dict[str, Any] | None
    ) -> dict[str, Any]:
        cmd = copy.deepcopy(body)
        cmd.setdefault("type", 1)
        cmd.setdefault("options", [])
        cmd.setdefault("description", "")
        cmd.setdefault("nsfw", False)
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("contexts", None)
        cmd.setdefault("integration_types", [0])
        cmd["id"] = old["id"] if old else str(self._next_id())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(self._next_id())
        if key is not None:
            cmd["guild_id"] = str(key)
        return cmd

    async def _r_get_commands(self, r: _Req) -> Any:
        return [self._command_payload(c) for c in self._commands.get(self._command_key(r), [])]

    async def _r_put_commands(self, r: _Req) -> Any:
        key = self._command_key(r)
        body = r.json or []
        old = {(c["name"], c["type"]): c for c in self._commands.get(key, [])}
        self._commands[key] = [
            self._store_command(key, c, old.get((c.get("name"), c.get("type", 1)))) for c in body
        ]
        return [self._command_payload(c) for c in self._commands[key]]

    async def _r_upsert_command(self, r: _Req) -> Any:
        key = self._command_key(r)
        body = r.json or {}
        cmds = self._commands.setdefault(key, [])
        old = next(
            (c for c in cmds if (c["name"], c["type"]) == (body.get("name"), body.get("type", 1))),
            None,
        )
        cmd = self._store_command(key, body, old)
        if old is not None:
            cmds[cmds.index(old)] = cmd
            return cmd
        cmds.append(cmd)
        return 201, cmd

    def _find_command(self, r: _Req) -> tuple[int | None, dict[str, Any]]:
        key = self._command_key(r)
        for cmd in self._commands.get(key, []):
            if cmd["id"] == r.params["cmd"]:
                return key, cmd
        raise FakeHTTPError(404, 10063, "Unknown application command")

    async def _r_get_command(self, r: _Req) -> Any:
        return self._find_command(r)[1]

    async def _r_patch_command(self, r: _Req) -> Any:
        key, cmd = self._find_command(r)
        merged = {**cmd, **(r.json or {})}
        new = self._store_command(key, merged, cmd)
        cmds = self._commands[key]
        cmds[cmds.index(cmd)] = new
        return new

    async def _r_delete_command(self, r: _Req) -> Any:
        key, cmd = self._find_command(r)
        self._commands[key].remove(cmd)
        return 204, None

    # ------------------------------------------------------------------ REST: messages

    def _get_channel(self, channel_id: str | int) -> FakeChannel:
        try:
            return self._channels[int(channel_id)]
        except (KeyError, ValueError):
            raise FakeHTTPError(404, 10003, "Unknown Channel") from None

    def _get_message(self, channel: FakeChannel, message_id: str | int) -> FakeMessage:
        try:
            msg = self._messages[int(message_id)]
        except (KeyError, ValueError):
            raise FakeHTTPError(404, 10008, "Unknown Message") from None
        if msg.channel_id != channel.id or msg.deleted:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    def _check_can_post(self, channel: FakeChannel) -> None:
        if channel.is_dm:
            assert channel.recipient_id is not None
            if not self._users[channel.recipient_id].dms_open:
                raise FakeHTTPError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.locked:
            raise FakeHTTPError(403, 50083, "Thread is archived")

    def bot_permissions_in(self, channel_id: int) -> int:
        """The bot's permissions in a guild channel or thread, as Discord computes them:
        every permission but Administrator (which would make overwrites moot), less what the
        channel's overwrites deny (@everyone's, then the bot's own); a thread has its parent's
        (threads have no overwrites of their own)."""
        channel = self._channels[channel_id]
        if channel.is_thread and channel.parent_id is not None:
            channel = self._channels[channel.parent_id]
        perms = ALL_PERMISSIONS & ~discord.Permissions(administrator=True).value
        for target in (channel.guild_id, self.bot_user_id):
            _, allow, deny = channel.overwrites.get(target or 0, (0, 0, 0))
            perms = (perms & ~deny) | allow
        return perms

    def _check_bot_may_send(self, channel: FakeChannel, uploads: Sequence[_Upload]) -> None:
        """Discord's 403 / 50013 for a message (or an edit of one) the bot's permissions in
        the channel do not allow: Send Messages (Send Messages in Threads in a thread), and
        Attach Files for uploads. (An edit is checked like a new message: Discord lets nobody
        edit in a channel they can no longer send to.)"""
        if channel.is_dm or channel.guild_id is None:
            return
        perms = self.bot_permissions_in(channel.id)
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if uploads:
            needed |= ATTACH_FILES
        if perms & needed != needed:
            raise FakeHTTPError(403, 50013, "Missing Permissions")

    def _validate(
        self,
        payload: Mapping[str, Any],
        uploads: Sequence[_Upload],
        *,
        creating: bool,
    ) -> None:
        if not self.strict:
            return
        for upload in uploads:
            if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
                raise FakeHTTPError(413, 40005, "Request entity too large")
        if len(uploads) > 10:
            raise _invalid_form({"files": "at most 10 files"})
        if creating:
            has_content = bool(payload.get("content")) or bool(payload.get("embeds"))
            has_other = (
                bool(payload.get("components"))
                or bool(uploads)
                or bool(payload.get("sticker_ids"))
                or bool(payload.get("poll"))
            )
            if not (has_content or has_other):
                raise FakeHTTPError(400, 50006, "Cannot send an empty message")

    def _new_attachment(
        self,
        channel_id: int,
        filename: str,
        data: bytes,
        content_type: str,
        description: str | None,
    ) -> FakeAttachment:
        if content_type in ("application/octet-stream", ""):
            content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        att = FakeAttachment(self._next_id(), channel_id, filename, data, content_type, description)
        if content_type.startswith("image/"):
            att.width, att.height = _image_size(data)
        self._attachments[att.id] = att
        return att

    def _resolve_attachments(
        self,
        channel_id: int,
        existing: list[FakeAttachment],
        spec: list[dict[str, Any]] | None,
        uploads: Sequence[_Upload],
        *,
        editing: bool,
    ) -> list[FakeAttachment]:
        """Discord's rule: ``attachments`` lists what to keep (by id) and the new uploads
        (by file index); without it, an edit keeps the old files and appends the uploads."""
        ordered = sorted(uploads, key=lambda u: u.index)
        if spec is None:
            kept = list(existing) if editing else []
            return kept + [
                self._new_attachment(channel_id, u.filename, u.data, u.content_type, None)
                for u in ordered
            ]
        by_index = {u.index: u for u in ordered}
        old_by_id = {a.id: a for a in existing}
        result: list[FakeAttachment] = []
        for n, entry in enumerate(spec):
            try:
                ident = int(entry["id"])
            except (KeyError, TypeError, ValueError):
                raise _invalid_form({f"attachments.{n}.id": "missing or invalid id"}) from None
            if editing and ident in old_by_id:
                result.append(old_by_id[ident])
                continue
            upload = by_index.get(ident)
            if upload is None:
                raise _invalid_form({f"attachments.{n}.id": f"unknown attachment or file {ident}"})
            result.append(
                self._new_attachment(
                    channel_id,
                    entry.get("filename") or upload.filename,
                    upload.data,
                    upload.content_type,
                    entry.get("description"),
                )
            )
        return result

    def _create_message(
        self,
        channel: FakeChannel,
        payload: Mapping[str, Any] | None,
        uploads: Sequence[_Upload],
        *,
        interaction: FakeInteraction | None = None,
        msg_type: int = 0,
        ephemeral_for: int | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        payload = payload or {}
        requested = int(payload.get("flags") or 0)
        if not loading:
            self._validate(payload, uploads, creating=True)
        msg = FakeMessage(
            self,
            id=self._next_id(),
            channel_id=channel.id,
            author_id=self.bot_user_id,
            msg_type=msg_type,
        )
        msg.content = str(payload.get("content") or "")
        msg.embeds = list(payload.get("embeds") or [])
        msg.components = list(payload.get("components") or [])
        msg.allowed_mentions = payload.get("allowed_mentions")
        msg.pinged = pinged_by(msg.content, msg.allowed_mentions)
        msg.tts = bool(payload.get("tts", False))
        msg.nonce = payload.get("nonce")
        msg.flags = requested & (SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2)
        if loading:
            msg.flags |= LOADING
        if ephemeral_for is not None:
            msg.flags |= EPHEMERAL
            msg.ephemeral_for = ephemeral_for
        ref = payload.get("message_reference")
        if ref:
            msg.message_reference = {
                "type": 0,
                "message_id": str(ref.get("message_id")),
                "channel_id": str(ref.get("channel_id") or channel.id),
                **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
            }
            if msg_type == 0:
                msg.type = 19
        msg.attachment_objects = self._resolve_attachments(
            channel.id, [], payload.get("attachments"), uploads, editing=False
        )
        msg.interaction = interaction
        channel.messages.append(msg)
        channel.last_message_id = msg.id
        channel.total_message_sent += 1
        self._messages[msg.id] = msg
        for observe in self.message_observers:
            observe(msg, True)
        self._changed()
        return msg

    def _edit_message(
        self, msg: FakeMessage, payload: Mapping[str, Any] | None, uploads: Sequence[_Upload]
    ) -> FakeMessage:
        payload = payload or {}
        flags = msg.flags
        if payload.get("flags") is not None:
            requested = int(payload["flags"])
            flags = (flags & ~SUPPRESS_EMBEDS) | (requested & (SUPPRESS_EMBEDS | COMPONENTS_V2))
        self._validate(payload, uploads, creating=False)
        if flags & COMPONENTS_V2 and "content" not in payload and msg.content and self.strict:
            raise _invalid_form({"flags": "components v2 messages cannot have content"})
        msg.history.append(msg.snapshot())
        if "content" in payload:
            msg.content = str(payload["content"] or "")
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "attachments" in payload or uploads:
            msg.attachment_objects = self._resolve_attachments(
                msg.channel_id,
                msg.attachment_objects,
                payload.get("attachments"),
                uploads,
                editing=True,
            )
        msg.flags = flags & ~LOADING
        msg.edited_at = _now_iso()
        msg.edits += 1
        for observe in self.message_observers:
            observe(msg, False)
        self._changed()
        return msg

    def _delete_message(self, msg: FakeMessage, *, by_bot: bool = True) -> None:
        channel = self._channels.get(msg.channel_id)
        if channel is not None and msg in channel.messages:
            channel.messages.remove(msg)
        msg.deleted = True
        if by_bot:
            self.deleted_messages.append(msg)
        self._changed()

    async def _r_send(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        self._check_can_post(channel)
        self._check_bot_may_send(channel, r.uploads)
        if channel.is_thread and channel.archived:
            # Discord: a message sent to an archived thread that is not locked unarchives it.
            await self._set_archived(channel, False)
        msg = self._create_message(channel, r.json, r.uploads)
        return msg.payload()

    async def _r_get_message(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        msg = self._get_message(channel, r.params["mid"])
        if msg.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg.payload()

    async def _r_edit_message(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        msg = self._get_message(channel, r.params["mid"])
        if msg.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        if msg.author_id != self.bot_user_id:
            raise FakeHTTPError(403, 50005, "Cannot edit a message authored by another user")
        if channel.is_dm:
            self._check_can_post(channel)
        if channel.is_thread and channel.archived:
            # Unlike a new message, an edit does not unarchive the thread.
            raise FakeHTTPError(400, 50083, "Thread is archived")
        self._check_bot_may_send(channel, r.uploads)
        self.plain_edits[msg.id] += 1
        return self._edit_message(msg, r.json, r.uploads).payload()

    async def _r_delete_message(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        msg = self._get_message(channel, r.params["mid"])
        if msg.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        self._delete_message(msg)
        return 204, None

    async def _r_bulk_delete(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        for mid in (r.json or {}).get("messages", []):
            self._delete_message(self._get_message(channel, mid))
        return 204, None

    async def _r_history(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        limit = int(r.query.get("limit", 50))
        msgs = [m for m in channel.messages if not m.ephemeral]
        if "before" in r.query:
            msgs = [m for m in msgs if m.id < int(r.query["before"])]
        if "after" in r.query:
            after = [m for m in msgs if m.id > int(r.query["after"])]
            return [m.payload() for m in reversed(after[:limit])]
        return [m.payload() for m in reversed(msgs[-limit:])] if limit else []

    async def _r_pin(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        self._get_message(channel, r.params["mid"]).pinned = True
        return 204, None

    async def _r_unpin(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        self._get_message(channel, r.params["mid"]).pinned = False
        return 204, None

    async def _r_react(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        msg = self._get_message(channel, r.params["mid"])
        msg.reactions.setdefault(r.params["emoji"], set()).add(self.bot_user_id)
        return 204, None

    async def _r_unreact(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        msg = self._get_message(channel, r.params["mid"])
        msg.reactions.get(r.params["emoji"], set()).discard(self.bot_user_id)
        return 204, None

    async def _r_clear_reactions(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        self._get_message(channel, r.params["mid"]).reactions.clear()
        return 204, None

    async def _r_typing(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        self._check_can_post(channel)
        self.typing.append(channel.id)
        return 204, None

    async def _r_open_dm(self, r: _Req) -> Any:
        body = r.json or {}
        try:
            user_id = int(body["recipient_id"])
        except (KeyError, TypeError, ValueError):
            raise _invalid_form({"recipient_id": "required"}) from None
        return self._channel_payload(self._channels[self.open_dm(user_id)])

    # ------------------------------------------------------------------ REST: channels, threads

    async def _r_get_channel(self, r: _Req) -> Any:
        return self._channel_payload(self._get_channel(r.params["cid"]))

    async def _r_edit_channel(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        body = r.json or {}
        if "name" in body and body["name"]:
            channel.name = str(body["name"])[:100]
        if channel.is_thread:
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
            channel.auto_archive_duration = int(
                body.get("auto_archive_duration") or channel.auto_archive_duration
            )
        payload = self._channel_payload(channel)
        if channel.is_thread:
            await self._dispatch_quietly("THREAD_UPDATE", payload)
        self._changed()
        return payload

    async def _r_delete_channel(self, r: _Req) -> Any:
        channel = self._get_channel(r.params["cid"])
        payload = self._channel_payload(channel)
        if channel.is_dm:
            return payload  # "closing" a DM changes nothing
        await self._remove_channel(channel)
        return payload

    async def _remove_channel(self, channel: FakeChannel) -> None:
        """Delete a guild channel or thread and its messages (later requests to it get
        404 / 10003 Unknown Channel, to its messages 10008), and tell the gateway."""
        payload = self._channel_payload(channel)
        del self._channels[channel.id]
        for msg in list(channel.messages):
            self._delete_message(msg, by_bot=False)
        if channel.guild_id is not None:
            guild = self._guilds[channel.guild_id]
            if channel.id in guild.channel_ids:
                guild.channel_ids.remove(channel.id)
        for msg in self._messages.values():  # a thread's starter message loses it
            if msg.thread_id == channel.id:
                msg.thread_id = None
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        await self._dispatch_quietly(event, payload)
        self._changed()

    async def _set_archived(self, thread: FakeChannel, archived: bool) -> None:
        thread.archived = archived
        await self._dispatch_quietly("THREAD_UPDATE", self._channel_payload(thread))
        self._changed()

    # ------------------------------------------------------------------ what others do

    async def archive_thread(self, thread_id: int) -> None:
        """Archive a thread as Discord's auto-archive does after its inactivity period (or a
        moderator): a message sent there unarchives it, an edit there gets 400 / 50083."""
        thread = self._channels[thread_id]
        if not thread.is_thread:
            raise ValueError(f"channel {thread_id} is not a thread")
        await self._set_archived(thread, True)

    async def moderator_deletes_message(self, message_id: int) -> None:
        """A moderator deletes a message (the bot's): editing it then gets 404 / 10008.
        (The bot has no message intents: Discord sends it no MESSAGE_DELETE.)"""
        self._delete_message(self._messages[message_id], by_bot=False)

    async def moderator_deletes_channel(self, channel_id: int) -> None:
        """A moderator deletes a channel or thread (THREAD_DELETE / CHANNEL_DELETE)."""
        await self._remove_channel(self._channels[channel_id])

    async def set_bot_permissions(
        self, channel_id: int, *, allow: int = 0, deny: int = 0, announce: bool = True
    ) -> None:
        """Set the bot's own permission overwrite on a guild channel (its threads follow
        it), as a moderator does in the channel's settings; ``allow=deny=0`` removes it.
        ``announce``: Discord sends CHANNEL_UPDATE; False models a change the bot's cache
        does not see (a role taken from the bot: no member intent), so only Discord's
        refusals tell it."""
        channel = self._channels[channel_id]
        if channel.is_thread or channel.is_dm:
            raise ValueError("overwrites are set on a guild channel")
        if allow or deny:
            channel.overwrites[self.bot_user_id] = (OVERWRITE_MEMBER, allow, deny)
        else:
            channel.overwrites.pop(self.bot_user_id, None)
        if announce:
            await self._dispatch_quietly("CHANNEL_UPDATE", self._channel_payload(channel))
        self._changed()

    def expire_tokens(self) -> None:
        """Every interaction's token so far is over its 15 minutes: follow-ups and edits
        through it get 401 / 50027 Invalid Webhook Token (as a controllable clock would
        make them, without waiting)."""
        for inter in self._interactions.values():
            inter.token_expired = True
        self._changed()

    async def _create_thread(
        self,
        parent: FakeChannel,
        body: Mapping[str, Any],
        *,
        thread_id: int | None = None,
        thread_type: int = PUBLIC_THREAD,
    ) -> FakeChannel:
        if parent.is_dm or parent.is_thread or parent.guild_id is None:
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _invalid_form({"name": "must be 1-100 characters"})
        if thread_type not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise _invalid_form({"type": f"invalid thread type {thread_type}"})
        thread = FakeChannel(
            thread_id or self._next_id(),
            thread_type,
            name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user_id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            member_ids={self.bot_user_id},
        )
        self._channels[thread.id] = thread
        data = self._channel_payload(thread)
        data["newly_created"] = True
        data["member"] = {
            "id": str(thread.id),
            "user_id": str(self.bot_user_id),
            "join_timestamp": thread.created_at,
            "flags": 1,
        }
        await self._dispatch_quietly("THREAD_CREATE", data)
        self._changed()
        return thread

    async def _r_thread_from_message(self, r: _Req) -> Any:
        parent = self._get_channel(r.params["cid"])
        msg = self._get_message(parent, r.params["mid"])
        if msg.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        if msg.thread_id is not None:
            raise FakeHTTPError(400, 160004, "A thread has already been created for this message")
        # Like Discord, a thread started from a message has the message's id.
        thread = await self._create_thread(parent, r.json or {}, thread_id=msg.id)
        msg.thread_id = thread.id
        return 201, self._channel_payload(thread)

    async def _r_thread(self, r: _Req) -> Any:
        parent = self._get_channel(r.params["cid"])
        body = r.json or {}
        thread = await self._create_thread(
            parent, body, thread_type=int(body.get("type") or PRIVATE_THREAD)
        )
        return 201, self._channel_payload(thread)

    async def _r_thread_add_member(self, r: _Req) -> Any:
        thread = self._get_channel(r.params["cid"])
        if not thread.is_thread:
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type")
        uid = self.bot_user_id if r.params["uid"] == "@me" else int(r.params["uid"])
        if uid not in self._users:
            raise FakeHTTPError(404, 10013, "Unknown User")
        thread.member_ids.add(uid)
        self._changed()
        return 204, None

    async def _r_thread_remove_member(self, r: _Req) -> Any:
        thread = self._get_channel(r.params["cid"])
        uid = self.bot_user_id if r.params["uid"] == "@me" else int(r.params["uid"])
        thread.member_ids.discard(uid)
        self._changed()
        return 204, None

    # ------------------------------------------------------------------ REST: guilds

    def _get_guild(self, guild_id: str) -> FakeGuild:
        try:
            return self._guilds[int(guild_id)]
        except (KeyError, ValueError):
            raise FakeHTTPError(404, 10004, "Unknown Guild") from None

    async def _r_get_guild(self, r: _Req) -> Any:
        guild = self._get_guild(r.params["guild_id"])
        out = self._guild_payload(guild)
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            out.pop(key, None)
        out["approximate_member_count"] = len(guild.member_ids)
        out["approximate_presence_count"] = 0
        return out

    async def _r_guild_channels(self, r: _Req) -> Any:
        guild = self._get_guild(r.params["guild_id"])
        return [self._channel_payload(self._channels[c]) for c in guild.channel_ids]

    async def _r_guild_roles(self, r: _Req) -> Any:
        return self._role_payloads(self._get_guild(r.params["guild_id"]))

    async def _r_guild_members(self, r: _Req) -> Any:
        guild = self._get_guild(r.params["guild_id"])
        limit = int(r.query.get("limit", 1))
        after = int(r.query.get("after", 0))
        ids = [uid for uid in guild.member_ids if uid > after][:limit]
        return [self._member_payload(guild, uid) for uid in ids]

    async def _r_guild_member(self, r: _Req) -> Any:
        guild = self._get_guild(r.params["guild_id"])
        uid = int(r.params["uid"])
        if uid not in guild.member_ids:
            raise FakeHTTPError(404, 10007, "Unknown Member")
        return self._member_payload(guild, uid)

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_channel(
        self, inter: FakeInteraction, thread_id: str | None = None
    ) -> FakeChannel:
        if thread_id:
            return self._get_channel(thread_id)
        return self._channels[inter.channel_id]

    async def _r_callback(self, r: _Req) -> Any:
        try:
            inter = self._interactions[int(r.params["iid"])]
        except (KeyError, ValueError):
            raise FakeHTTPError(404, 10062, "Unknown interaction") from None
        if inter.token != r.params["token"]:
            raise FakeHTTPError(401, 50027, "Invalid Webhook Token")
        try:
            return self._answer_interaction(inter, r)
        except FakeHTTPError as exc:
            inter.rejected_callbacks.append(exc)
            self._changed()
            raise

    def _answer_interaction(self, inter: FakeInteraction, r: _Req) -> Any:
        if inter.callback is not None:
            raise FakeHTTPError(400, 40060, "Interaction has already been acknowledged.")
        deadline = self.interaction_deadline
        if deadline is not None and r.arrived - inter.dispatched_at > deadline:
            raise FakeHTTPError(404, 10062, "Unknown interaction")
        body = r.json or {}
        cb_type = body.get("type")
        data = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFER, CB_MODAL},
            MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE, CB_MODAL},
            AUTOCOMPLETE: {CB_AUTOCOMPLETE},
            MODAL_SUBMIT: {CB_MESSAGE, CB_DEFER}
            | ({CB_DEFER_UPDATE, CB_UPDATE} if inter.message_id is not None else set()),
        }[inter.type]
        if cb_type not in allowed:
            raise _invalid_form(
                {"type": f"callback type {cb_type} is not valid for interaction type {inter.type}"}
            )
        channel = self._channels[inter.channel_id]
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        msg: FakeMessage | None = None
        msg_type = 20 if inter.type == APPLICATION_COMMAND else 0
        if cb_type == CB_MESSAGE:
            msg = self._create_message(
                channel,
                data,
                r.uploads,
                interaction=inter,
                msg_type=msg_type,
                ephemeral_for=inter.user_id if ephemeral else None,
            )
            inter.original_id = msg.id
        elif cb_type == CB_DEFER:
            msg = self._create_message(
                channel,
                {},
                [],
                interaction=inter,
                msg_type=msg_type,
                ephemeral_for=inter.user_id if ephemeral else None,
                loading=True,
            )
            inter.original_id = msg.id
        elif cb_type in (CB_DEFER_UPDATE, CB_UPDATE):
            assert inter.message_id is not None
            target = self._messages.get(inter.message_id)
            if target is None or target.deleted:
                raise FakeHTTPError(404, 10008, "Unknown Message")
            if cb_type == CB_UPDATE:
                self._edit_message(target, data, r.uploads)
                msg = target
            inter.original_id = target.id
        elif cb_type == CB_MODAL:
            inter.modal = copy.deepcopy(data)
        inter.callback = FakeCallback(
            cb_type, copy.deepcopy(data), [(u.filename, u.data) for u in r.uploads], r.arrived
        )
        inter.first_callback_at = r.arrived
        inter._responded.set()
        self._changed()
        if r.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        original = inter.original
        info: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        if original is not None and cb_type in (CB_MESSAGE, CB_DEFER, CB_UPDATE):
            info.update(
                response_message_id=str(original.id),
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
        out: dict[str, Any] = {"interaction": info}
        if msg is not None:
            out["resource"] = {"type": cb_type, "message": msg.payload()}
        elif cb_type != CB_MODAL:
            out["resource"] = {"type": cb_type}
        return out

    def _inter_by_token(self, r: _Req) -> FakeInteraction:
        inter = self._by_token.get(r.params["token"])
        if inter is None or r.params["app"] != str(self.application_id):
            raise FakeHTTPError(404, 10015, "Unknown Webhook")
        if inter.token_expired or (
            inter.created_clock is not None
            and self._clock() - inter.created_clock > TOKEN_LIFETIME_S
        ):
            # Discord's answer once the token's 15 minutes are over.
            raise FakeHTTPError(401, 50027, "Invalid Webhook Token")
        return inter

    def _webhook_message(self, inter: FakeInteraction, mid: str) -> FakeMessage:
        if mid == "@original":
            msg = inter.original
            if msg is None or msg.deleted:
                raise FakeHTTPError(404, 10008, "Unknown Message")
            return msg
        try:
            msg = self._messages[int(mid)]
        except (KeyError, ValueError):
            raise FakeHTTPError(404, 10008, "Unknown Message") from None
        if msg.deleted or (msg.id != inter.original_id and msg not in inter.followups):
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    async def _r_followup(self, r: _Req) -> Any:
        inter = self._inter_by_token(r)
        if inter.callback is None:
            raise FakeHTTPError(404, 10015, "Unknown Webhook")
        data = r.json or {}
        wait = r.query.get("wait") in ("1", "true", "True")
        original = inter.original
        if original is not None and original.loading and inter.callback.type == CB_DEFER:
            # The first follow-up after a thinking defer fills the loading message,
            # keeping the defer's ephemerality.
            msg = self._edit_message(original, data, r.uploads)
        else:
            channel = self._interaction_channel(inter, r.query.get("thread_id"))
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._create_message(
                channel,
                data,
                r.uploads,
                interaction=inter,
                ephemeral_for=inter.user_id if ephemeral else None,
            )
        inter.followups.append(msg)
        self._changed()
        return msg.payload() if wait else (204, None)

    async def _r_webhook_get(self, r: _Req) -> Any:
        inter = self._inter_by_token(r)
        return self._webhook_message(inter, r.params["mid"]).payload()

    async def _r_webhook_edit(self, r: _Req) -> Any:
        inter = self._inter_by_token(r)
        msg = self._webhook_message(inter, r.params["mid"])
        self._edit_message(msg, r.json, r.uploads)
        if msg.id == inter.original_id:
            inter.original_edits += 1
        return msg.payload()

    async def _r_webhook_delete(self, r: _Req) -> Any:
        inter = self._inter_by_token(r)
        self._delete_message(self._webhook_message(inter, r.params["mid"]))
        return 204, None

    # ------------------------------------------------------------------ gateway

    def _active_connection(self) -> _Connection | None:
        live = [c for c in self._connections if c.open and c.session is not None]
        return max(live, key=lambda c: c.activated_at) if live else None

    def _connection_for(self, guild_id: int | None) -> _Connection | None:
        """The live session that gets the events of ``guild_id`` (None: DMs, shard 0).

        If several live sessions hold it (an old process not gone yet, a resharding), the
        newest one gets it: an event is never delivered twice."""
        live = [
            c
            for c in self._connections
            if c.open and c.session is not None and c.session.holds(guild_id)
        ]
        return max(live, key=lambda c: c.activated_at) if live else None

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if not self._gateway_open.is_set():
            self._held_connections += 1
            self._changed()
            try:
                await self._gateway_open.wait()
            finally:
                self._held_connections -= 1
        conn = _Connection(ws)
        self._connections.append(conn)
        await conn.send(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        try:
            async for frame in ws:
                if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                try:
                    await self._on_gateway_frame(conn, orjson.loads(frame.data))
                except Exception as exc:
                    log.exception("fake discord: gateway frame failed")
                    self.errors.append(exc)
        finally:
            self._connections.remove(conn)
            self._changed()
        return ws

    async def _on_gateway_frame(self, conn: _Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # identify
            await self._identify(conn, d or {})
        elif op == 6:  # resume
            session = self._sessions.get((d or {}).get("session_id", ""))
            if session is None:
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            await self._resume(conn, session, (d or {}).get("seq"))
        elif op == 8:  # request guild members
            await self._members_chunk(conn, d or {})
        # op 3 (presence) and 4 (voice state) need no answer.

    async def _resume(self, conn: _Connection, session: _Session, seq: Any) -> None:
        """RESUME: replay the session's dispatches after the client's ``seq`` (those kept
        while it was away included), in order, then RESUMED."""
        conn.session = session
        session.awaiting_resume = False
        self.resume_count += 1
        last = seq if isinstance(seq, int) else session.seq
        missed = [frame for frame in session.history if frame["s"] > last]
        for frame in missed:
            await conn.send(frame)
            self.dispatched.append((frame["t"], frame["d"]))
        self.replayed.extend(frame["t"] for frame in missed)
        await conn.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        conn.activated_at = time.monotonic()
        self._changed()

    @staticmethod
    def _identify_shard(raw: Any) -> tuple[int, int] | None:
        """IDENTIFY's ``shard`` as (shard_id, shard_count); absent is [0, 1]; None if
        invalid (not two integers, count < 1, id outside 0..count-1)."""
        if raw is None:
            return 0, 1
        if (
            not isinstance(raw, list | tuple)
            or len(raw) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw)
        ):
            return None
        shard_id, shard_count = raw
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            return None
        return shard_id, shard_count

    async def _refuse_identify(self, conn: _Connection, code: int, raw: Any, why: str) -> None:
        self.refused_identifies.append((code, raw))
        self._changed()
        log.info("fake discord: IDENTIFY with shard %r refused with %d (%s)", raw, code, why)
        await conn.ws.close(code=code, message=why.encode())

    async def _identify(self, conn: _Connection, d: dict[str, Any]) -> None:
        self.last_identify = d
        shard = self._identify_shard(d.get("shard"))
        if shard is None:
            await self._refuse_identify(conn, CLOSE_INVALID_SHARD, d.get("shard"), "Invalid shard")
            return
        held = [g for g in self._guilds.values() if shard_of(g.id, shard[1]) == shard[0]]
        if self.max_guilds_per_shard is not None and len(held) > self.max_guilds_per_shard:
            await self._refuse_identify(
                conn, CLOSE_SHARDING_REQUIRED, d.get("shard"), "Sharding required"
            )
            return
        session = _Session(secrets.token_hex(16), shard=shard)
        for old in self._sessions.values():  # a new session of the shard ends its old one
            if old.shard == shard:
                old.awaiting_resume = False
        self._sessions[session.id] = session
        conn.session = session
        self.identify_count += 1
        self.identified_shards.append(shard)
        self._count_session_start()
        ready: dict[str, Any] = {
            "v": API_VERSION,
            "user": self._me_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in held],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if d.get("shard") is not None:
            ready["shard"] = list(shard)
        await conn.dispatch("READY", ready)
        for guild in held:
            await conn.dispatch("GUILD_CREATE", self._guild_payload(guild))
        conn.activated_at = time.monotonic()
        self._changed()

    async def _members_chunk(self, conn: _Connection, d: dict[str, Any]) -> None:
        guild = self._guilds.get(int(d.get("guild_id") or 0))
        if guild is None:
            return
        ids = guild.member_ids
        if d.get("user_ids"):
            wanted = {int(u) for u in d["user_ids"]}
            ids = [u for u in ids if u in wanted]
        query = (d.get("query") or "").lower()
        if query:
            ids = [u for u in ids if self._users[u].name.lower().startswith(query)]
        limit = int(d.get("limit") or 0)
        if limit:
            ids = ids[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [self._member_payload(guild, u) for u in ids],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await conn.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def wait_connected(
        self, timeout: float | None = None, *, shard: int | None = None
    ) -> None:
        """Wait until a bot has identified (or resumed) on a live gateway connection;
        with ``shard``, a session identified as that shard id."""

        def ready() -> bool:
            if shard is None:
                return self._active_connection() is not None
            return any(s == shard for s, _ in self.live_shards)

        await self.wait_until(
            ready,
            self.connect_timeout if timeout is None else timeout,
            what="a bot connected to the gateway"
            + (f" as shard {shard}" if shard is not None else ""),
        )

    @staticmethod
    def _event_guild(event: str, data: Any) -> int | None:
        """The guild an event belongs to (None: no guild, a DM)."""
        if not isinstance(data, dict):
            return None
        if event.startswith("GUILD_") and "guild_id" not in data and data.get("id"):
            return int(data["id"])
        return int(data["guild_id"]) if data.get("guild_id") else None

    async def _deliver(self, event: str, data: Any, guild_id: Any) -> _Session | None:
        """Send an event to the session of its shard, or keep it for that session's RESUME
        if its connection was dropped; None (recorded in :attr:`undelivered`) if the shard
        has neither."""
        if guild_id is _FROM_DATA:
            guild_id = self._event_guild(event, data)
        conn = self._connection_for(guild_id)
        if conn is None:
            session = self._session_awaiting_resume(guild_id)
            if session is not None:
                session.frame(event, data)  # replayed when the client resumes
                self._changed()
                return session
            self.undelivered.append((event, data))
            self._changed()
            return None
        await conn.dispatch(event, data)
        self.dispatched.append((event, data))
        return conn.session

    def _session_awaiting_resume(self, guild_id: int | None) -> _Session | None:
        live = {id(c.session) for c in self._connections if c.open and c.session is not None}
        for session in self._sessions.values():
            if session.awaiting_resume and id(session) not in live and session.holds(guild_id):
                return session
        return None

    async def dispatch(self, event: str, data: Any, *, guild_id: Any = _FROM_DATA) -> bool:
        """Send a gateway event to the bot (waiting until some session is live).

        Routed as Discord does: an event of a guild (``guild_id`` here, else the data's
        ``guild_id``, or its ``id`` for ``GUILD_*`` events) goes to the session of shard
        ``(guild_id >> 22) % shard_count``, an event without a guild (DMs) to shard 0.
        If that shard has no live session the event is dropped (kept in
        :attr:`undelivered`) and False is returned.
        """
        await self.wait_connected()
        return await self._deliver(event, data, guild_id) is not None

    async def _dispatch_quietly(self, event: str, data: Any) -> None:
        """Dispatch to the event's shard if it has a live session (side effects of REST)."""
        with contextlib.suppress(ConnectionError):
            await self._deliver(event, data, _FROM_DATA)

    async def drop_connections(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close every gateway connection, or those of shard id ``shard`` (the client
        reconnects and RESUMEs). Until it does, the sessions' events are kept and replayed
        at the RESUME, as Discord does."""
        for conn in list(self._connections):
            if shard is None or (conn.session is not None and conn.session.shard[0] == shard):
                if conn.session is not None and code not in NO_RESUME_CLOSE_CODES:
                    conn.session.awaiting_resume = True
                await conn.ws.close(code=code)

    async def invalidate_sessions(self, *, shard: int | None = None) -> None:
        """Send INVALID_SESSION (op 9, ``d: false``) on every live connection (or shard
        ``shard``'s): the sessions are gone, their events from now on are lost until the
        client IDENTIFYs anew (discord.py closes and identifies again)."""
        for conn in list(self._connections):
            session = conn.session
            if (
                session is None
                or not conn.open
                or (shard is not None and session.shard[0] != shard)
            ):
                continue
            session.awaiting_resume = False
            self._sessions.pop(session.id, None)
            conn.session = None
            self.invalidated_sessions += 1
            await conn.send({"op": 9, "d": False, "s": None, "t": None})
        self._changed()

    def hold_gateway(self) -> None:
        """New gateway connections get no HELLO until :meth:`release_gateway`: the client
        stays disconnected meanwhile (to act while it is away, deterministically)."""
        self._gateway_open.clear()

    def release_gateway(self) -> None:
        self._gateway_open.set()

    @property
    def gateway_waiting(self) -> int:
        """Connections waiting for their HELLO (see :meth:`hold_gateway`)."""
        return self._held_connections

    # ------------------------------------------------------------------ simulated users

    def _base_interaction(
        self, itype: int, user_id: int, channel: FakeChannel, data: dict[str, Any], locale: str
    ) -> tuple[int, str, dict[str, Any]]:
        if user_id not in self._users:
            raise ValueError(f"unknown user {user_id}")
        iid = self._next_id()
        token = f"fake-{iid}-{secrets.token_urlsafe(24)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "locale": locale,
            "app_permissions": str(
                ALL_PERMISSIONS if channel.guild_id is None else self.bot_permissions_in(channel.id)
            ),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "entitlement_sku_ids": [],
        }
        channel_payload = self._channel_payload(channel)
        if channel.guild_id is not None:
            guild = self._guilds[channel.guild_id]
            if user_id not in guild.member_ids:
                raise ValueError(f"user {user_id} is not a member of guild {guild.id}")
            channel_payload["permissions"] = str(self._permissions(guild, user_id))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=self._member_payload(guild, user_id, permissions=True),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            if channel.recipient_id != user_id:
                raise ValueError(f"user {user_id} cannot act in the DM of {channel.recipient_id}")
            channel_payload["permissions"] = str(EVERYONE_PERMISSIONS)
            payload.update(
                user=self._user_payload(user_id),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        payload["channel"] = channel_payload
        return iid, token, payload

    async def _send_interaction(self, inter: FakeInteraction) -> FakeInteraction:
        inter._fake = self
        guild_id = self._event_guild("INTERACTION_CREATE", inter.payload)
        if self._session_awaiting_resume(guild_id) is None:
            await self.wait_connected()
        # (else the session whose connection dropped keeps it for its RESUME)
        self._interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        self.interactions.append(inter)
        inter.dispatched_at = time.monotonic()
        inter.created_clock = self._clock()
        session = await self._deliver("INTERACTION_CREATE", inter.payload, _FROM_DATA)
        if session is not None:
            inter.shard = session.shard
        self._changed()
        return inter

    def _lookup_command(self, channel: FakeChannel, name: str) -> dict[str, Any]:
        for key in ((channel.guild_id,) if channel.guild_id is not None else ()) + (None,):
            for cmd in self._commands.get(key, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        synced = {k: [c["name"] for c in v] for k, v in self._commands.items()}
        raise LookupError(
            f"no synced slash command /{name} for channel {channel.id}; synced: {synced}"
        )

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """``user_id`` runs ``/name [group] [subcommand] options...`` in ``channel_id``.

        ``name`` may contain the whole path ("koikoi new", "admin tables close"). Option
        values are checked and typed against the synced command (choices may be given by
        value or by name; users/channels/roles by id; attachments as (filename, bytes)).
        """
        parts = name.split()
        if group is not None or subcommand is not None:
            parts += [p for p in (group, subcommand) if p is not None]
        channel = self._get_channel(channel_id)
        cmd = self._lookup_command(channel, parts[0])
        resolved: dict[str, dict[str, Any]] = {}
        guild = self._guilds.get(channel.guild_id) if channel.guild_id is not None else None
        spec_options: list[dict[str, Any]] = cmd.get("options") or []
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next((o for o in spec_options if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in spec_options if o["type"] in (1, 2)]
                raise ValueError(f"/{' '.join(parts)}: no subcommand {part!r}; have {subs}")
            chain.append(sub)
            spec_options = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in spec_options):
            subs = [o["name"] for o in spec_options if o["type"] in (1, 2)]
            raise ValueError(f"/{' '.join(parts)} needs a subcommand: one of {subs}")
        leaf_options = self._build_options(
            spec_options, dict(options or {}), resolved, guild, channel
        )
        for sub in reversed(chain):
            leaf_options = [{"name": sub["name"], "type": sub["type"], "options": leaf_options}]
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": leaf_options,
        }
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        iid, token, payload = self._base_interaction(
            APPLICATION_COMMAND, user_id, channel, data, locale
        )
        inter = FakeInteraction(
            id=iid,
            token=token,
            type=APPLICATION_COMMAND,
            user_id=user_id,
            channel_id=channel.id,
            payload=payload,
            command_name=" ".join(parts),
        )
        return await self._send_interaction(inter)

    def _build_options(
        self,
        spec: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild | None,
        channel: FakeChannel,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in spec}
        unknown = set(given) - set(by_name)
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}; the command has {list(by_name)}")
        missing = [o["name"] for o in spec if o.get("required") and given.get(o["name"]) is None]
        if missing:
            raise ValueError(f"missing required options {missing}")
        out = []
        for opt_name, value in given.items():
            if value is None:
                continue
            opt = by_name[opt_name]
            out.append(
                {
                    "name": opt_name,
                    "type": opt["type"],
                    "value": self._option_value(opt, value, resolved, guild, channel),
                }
            )
        return out

    def _option_value(
        self,
        opt: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild | None,
        channel: FakeChannel,
    ) -> Any:
        kind, name = opt["type"], opt["name"]
        if opt.get("choices"):
            values = [c["value"] for c in opt["choices"]]
            if value not in values:
                named = [c["value"] for c in opt["choices"] if c["name"] == value]
                if not named:
                    raise ValueError(f"option {name}: {value!r} is not one of {values}")
                value = named[0]
        if kind == 3:
            value = str(value)
            if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
                raise ValueError(f"option {name}: length out of range")
            return value
        if kind in (4, 10):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"option {name}: expected a number, got {value!r}")
            if kind == 4 and value != int(value):
                raise ValueError(f"option {name}: expected an integer, got {value!r}")
            value = int(value) if kind == 4 else value
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name}: {value} outside [{lo}, {hi}]")
            return value
        if kind == 5:
            if not isinstance(value, bool):
                raise ValueError(f"option {name}: expected a bool, got {value!r}")
            return value
        if kind in (6, 9) and int(value) in self._users:
            uid = int(value)
            resolved.setdefault("users", {})[str(uid)] = self._user_payload(uid)
            if guild is not None and uid in guild.member_ids:
                member = self._member_payload(guild, uid, with_user=False, permissions=True)
                resolved.setdefault("members", {})[str(uid)] = member
            return str(uid)
        if kind in (8, 9) and int(value) in self._guilds:
            role_guild = self._guilds[int(value)]
            resolved.setdefault("roles", {})[str(value)] = self._role_payloads(role_guild)[0]
            return str(value)
        if kind == 7:
            target = self._get_channel(int(value))
            data = self._channel_payload(target)
            data["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(target.id)] = data
            return str(target.id)
        if kind == 11:
            filename, blob = value
            att = self._new_attachment(channel.id, filename, bytes(blob), "", None)
            resolved.setdefault("attachments", {})[str(att.id)] = self._attachment_payload(att)
            return str(att.id)
        raise ValueError(f"option {name}: cannot make a value of type {kind} from {value!r}")

    def _component_target(
        self, user_id: int, message: FakeMessage | int, custom_id: str | None, label: str | None
    ) -> tuple[FakeMessage, FakeChannel, dict[str, Any]]:
        if custom_id is None and label is None:
            raise ValueError("say which component: give a custom_id or a label")
        msg = self._messages[message.id if isinstance(message, FakeMessage) else int(message)]
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.ephemeral_for != user_id:
            raise ValueError(f"message {msg.id} is ephemeral for another user")
        comp = find_component(msg, custom_id=custom_id, label=label)
        if comp["disabled"]:
            raise ValueError(f"component {comp['custom_id']!r} is disabled")
        return msg, self._channels[msg.channel_id], comp

    async def _component_interaction(
        self,
        user_id: int,
        msg: FakeMessage,
        channel: FakeChannel,
        data: dict[str, Any],
        locale: str,
    ) -> FakeInteraction:
        iid, token, payload = self._base_interaction(
            MESSAGE_COMPONENT, user_id, channel, data, locale
        )
        payload["message"] = msg.payload()
        inter = FakeInteraction(
            id=iid,
            token=token,
            type=MESSAGE_COMPONENT,
            user_id=user_id,
            channel_id=channel.id,
            payload=payload,
            message_id=msg.id,
        )
        return await self._send_interaction(inter)

    async def click(
        self,
        user_id: int,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """``user_id`` clicks the button ``custom_id`` (or labelled ``label``) on ``message``."""
        msg, channel, comp = self._component_target(user_id, message, custom_id, label)
        if comp["type"] != BUTTON:
            raise ValueError(f"component {comp['custom_id']!r} is not a button")
        if comp["custom_id"] is None:
            raise ValueError("link buttons send no interaction")
        data = {"custom_id": comp["custom_id"], "component_type": BUTTON}
        return await self._component_interaction(user_id, msg, channel, data, locale)

    async def select(
        self,
        user_id: int,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """``user_id`` chooses ``values`` in the select ``custom_id`` on ``message``."""
        msg, channel, comp = self._component_target(user_id, message, custom_id, None)
        if comp["type"] not in SELECT_TYPES:
            raise ValueError(f"component {custom_id!r} is not a select")
        values = [str(v) for v in values]
        lo = comp["min_values"] if comp["min_values"] is not None else 1
        hi = comp["max_values"] if comp["max_values"] is not None else 1
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {values}")
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": comp["type"],
            "values": values,
        }
        if comp["type"] == STRING_SELECT:
            offered = [o["value"] for o in comp["options"] or []]
            bad = [v for v in values if v not in offered]
            if bad:
                raise ValueError(f"select {custom_id!r}: {bad} not among {offered}")
        else:
            resolved: dict[str, dict[str, Any]] = {}
            guild = self._guilds.get(channel.guild_id) if channel.guild_id else None
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
            for v in values:
                self._option_value({"type": kind, "name": custom_id}, v, resolved, guild, channel)
            data["resolved"] = resolved
        return await self._component_interaction(user_id, msg, channel, data, locale)

    async def submit_modal(
        self,
        user_id: int,
        opened_by: FakeInteraction,
        values: Mapping[str, str | Sequence[str]],
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """``user_id`` submits the modal the bot opened in answer to ``opened_by``.

        ``values`` maps each text input's custom id to its text (selects: list of values).
        """
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"the bot opened no modal for {opened_by!r}")
        unknown = set(values) - {
            c.get("custom_id") for c in iter_components(modal.get("components", []))
        }
        if unknown:
            raise ValueError(f"the modal has no inputs {sorted(unknown)}")

        def fill(comp: dict[str, Any]) -> dict[str, Any]:
            if comp.get("type") == 1:
                return {"type": 1, "components": [fill(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:
                return {"type": 18, "component": fill(comp["component"])}
            cid = comp.get("custom_id")
            out: dict[str, Any] = {"type": comp.get("type"), "custom_id": cid}
            if comp.get("type") == TEXT_INPUT:
                out["value"] = str(values.get(cid, comp.get("value") or ""))
            elif comp.get("type") in SELECT_TYPES:
                chosen = values.get(cid, [])
                out["values"] = [chosen] if isinstance(chosen, str) else list(chosen)
            return out

        components = [
            fill(c) for c in modal.get("components", []) if c.get("type") in (1, 18, TEXT_INPUT)
        ]
        data = {"custom_id": modal["custom_id"], "components": components}
        channel = self._channels[opened_by.channel_id]
        iid, token, payload = self._base_interaction(MODAL_SUBMIT, user_id, channel, data, locale)
        msg = self._messages.get(opened_by.message_id) if opened_by.message_id else None
        if msg is not None and not msg.deleted:
            payload["message"] = msg.payload()
        inter = FakeInteraction(
            id=iid,
            token=token,
            type=MODAL_SUBMIT,
            user_id=user_id,
            channel_id=channel.id,
            payload=payload,
            message_id=msg.id if msg is not None else None,
        )
        return await self._send_interaction(inter)


# ---------------------------------------------------------------------- validation


def _image_size(data: bytes) -> tuple[int | None, int | None]:
    """An uploaded image's width and height, as Discord reports them (None if it is not an
    image it can read). A PNG's come straight from its header (the bench uploads thousands a
    minute; opening each with Pillow was a twentieth of its CPU); other formats via Pillow."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    with contextlib.suppress(Exception):
        from PIL import Image

        with Image.open(io.BytesIO(data)) as img:
            return img.size
    return None, None
