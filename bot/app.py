"""The bot: ``setup_hook`` opens the store, loads the cogs and restores every unfinished table."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.games import check_games, game_names, game_spec
from bot.heap import collect_every, manage_collections, trim_heap_every
from bot.host import TableHost
from bot.host.components import ALL_DYNAMIC_ITEMS, FORM_ID, matches_a_component
from bot.host.replies import report_error
from bot.host.text import NO_PINGS
from bot.i18n import command_translation, gettext, normalize
from bot.render.worker import start_pool as start_render_pool
from bot.store import Store

log = logging.getLogger(__name__)

#: How long closing the gateway connections may take at shutdown.
CLOSE_SECONDS = 10.0

#: The cogs after the games' own. ``cogs.replay`` before ``cogs.history``, which imports
#: it: ``load_extension`` executes a module anew, so loaded after that import it would be
#: a second copy, whose ``Refusal`` the first copy's replay cache would raise past the
#: other's ``except Refusal``.
SHARED_COGS = (
    "cogs.leaderboard",
    "cogs.replay",
    "cogs.history",
    "cogs.rules",
    "cogs.admin",
)


def cog_names() -> tuple[str, ...]:
    """One cog per registered game (its spec's ``cog``: ``/<game> new``), then the others."""
    return (*(game_spec(name).cog for name in game_names()), *SHARED_COGS)


#: Seconds between discord.py's sweeps of its inactive rate-limit buckets.
BUCKET_SWEEP_SECONDS = 60.0

#: HTTP connections to Discord open at once (REST, interaction webhooks, the gateway).
#: discord.py sets no limit, and aiohttp reuses idle connections oldest first, so a busy
#: bot never lets one idle long enough to be closed: the pool stays as large as the
#: largest burst made it (1,250 connections after opening 1,000 tables, about 8 KiB of
#: memory per table). A request beyond the limit waits for a connection instead.
HTTP_CONNECTIONS = 128


def throttle_bucket_sweeps() -> None:
    """discord.py keeps a rate-limit bucket per route and channel and, once it holds 256,
    scans all of them for inactive ones each time a new one is made. A bot with a thousand
    tables has thousands (a DM channel and a thread per player and table), and after a
    restart every first request to each makes a new one: the scans were a fifth of the
    main thread while the tables resumed. Sweep at most once a minute instead (a bucket is
    only inactive after five idle minutes anyway)."""
    http = discord.http.HTTPClient
    if getattr(http, "_teahouse_throttled", False):
        return
    sweep = http._try_clear_expired_ratelimits

    def throttled(self: discord.http.HTTPClient) -> None:
        now = asyncio.get_running_loop().time()
        if now - getattr(self, "_teahouse_swept_at", -BUCKET_SWEEP_SECONDS) < BUCKET_SWEEP_SECONDS:
            return
        self._teahouse_swept_at = now  # type: ignore[attr-defined]  # (our mark on its client)
        sweep(self)

    http._try_clear_expired_ratelimits = throttled  # type: ignore[method-assign]  # (the patch itself)
    http._teahouse_throttled = True  # type: ignore[attr-defined]  # (our mark on the class)


class CommandTranslator(app_commands.Translator):
    """The slash commands' descriptions and choices in each user's Discord language, from
    the ``bot/i18n`` catalogs (names stay ASCII: see docs/localisation.md)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return command_translation(locale, string.message, context.location.name)


class Teahouse(commands.AutoShardedBot):
    """The bot: one process runs the gateway shards its settings name (all of them by
    default, as many as Discord recommends)."""

    def __init__(
        self,
        settings: Settings,
        *,
        cogs: tuple[str, ...] | None = None,
        manage_heap: bool = False,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; slash commands need nothing privileged
        if settings.shard_count is not None:
            client_options.setdefault("shard_count", settings.shard_count)
            client_options.setdefault(
                "shard_ids", list(settings.shard_ids or range(settings.shard_count))
            )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nothing pings unless a message names its users (see bot.host.text.pings).
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.settings = settings
        #: The extensions loaded at start (default :func:`cog_names`).
        self.cog_names = cog_names() if cogs is None else cogs
        #: Full garbage collections on a timer, start-up objects out of them (see
        #: bot.heap): the bot's own process; one inside another program (tests) leaves the
        #: collector alone.
        self.manage_heap = manage_heap
        self._heap_tasks: list[asyncio.Task[None]] = []
        self.store: Store | None = None
        self.host: TableHost | None = None
        #: Every persistent component type registered (the host's and the cogs' own).
        self.dynamic_item_types: list[type[discord.ui.DynamicItem[Any]]] = []

    async def login(self, token: str) -> None:
        if self.http.connector is discord.utils.MISSING:  # (made here: it needs the loop)
            self.http.connector = aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)
        await super().login(token)

    async def setup_hook(self) -> None:
        throttle_bucket_sweeps()
        check_games()  # a registered game that does not hold up stops the start here
        self.store = await Store.open(self.settings.database)
        self.host = TableHost(self, self.store, self.settings)
        # The render workers start while the bot logs in and restores its tables: the
        # first pictures (after a crash, the DMs of people left without controls) do not
        # wait for a worker's start.
        start_render_pool(self.settings.render_processes)
        self.add_dynamic_items(*ALL_DYNAMIC_ITEMS)
        for name in self.cog_names:
            await self.load_extension(name)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]  # (as tree.error() sets it)
        await self.tree.set_translator(CommandTranslator())  # before the sync sends them
        await self._sync_commands()
        loop = asyncio.get_running_loop()
        if self.manage_heap and manage_collections():  # (what is loaded now stays for good)
            self._heap_tasks.append(loop.create_task(collect_every(), name="heap-collect"))
        self.host.start_restore()  # in the background: the bot connects meanwhile
        self._heap_tasks.append(loop.create_task(trim_heap_every(), name="heap-trim"))

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register persistent components; ``on_interaction`` then knows their custom ids."""
        super().add_dynamic_items(*items)
        self.dynamic_item_types.extend(items)

    def is_component(self, custom_id: str) -> bool:
        """Whether ``custom_id`` is one of the registered components' (host's or a cog's)."""
        return matches_a_component(custom_id) or any(
            item.__discord_ui_compiled_template__.fullmatch(custom_id)
            for item in self.dynamic_item_types
        )

    async def _sync_commands(self) -> None:
        if self.settings.sync_guild:
            guild = discord.Object(id=self.settings.sync_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application command(s)", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d guild(s)",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel's permission overwrites may give the bot back what its tables there
        lacked (see bot.host.recovery)."""
        if self.host is not None and before.overwrites != after.overwrites:
            self.host.permissions_changed(after.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions changed: perhaps the bot's, in every channel of the server."""
        if self.host is not None and before.permissions != after.permissions:
            self.host.permissions_changed(0)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """One place for command errors: a clear ephemeral answer in the user's language,
        details in the log."""
        loc = normalize(interaction.locale)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = gettext(loc, "This command works in a server channel, not in DMs.")
        elif isinstance(error, app_commands.CheckFailure):
            text = gettext(loc, "You can't use this command here.")
        elif isinstance(error, app_commands.TransformerError):
            text = gettext(loc, "That value is not valid: {value}.", value=repr(error.value))
        else:
            original = getattr(error, "original", error)
            name = getattr(interaction.command, "qualified_name", "?")
            await report_error(interaction, original, what=f"command /{name}")
            return
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.send_message(
                    text, ephemeral=True, allowed_mentions=NO_PINGS
                )
        except discord.HTTPException:
            pass

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component whose custom id matches none of ours (forged, or from an old version)
        still gets an answer instead of "This interaction failed". A form (modal) of ours
        that was sent is routed here by its custom id (discord.py keeps no modal of ours)."""
        if interaction.type is discord.InteractionType.modal_submit:
            await self._form_sent(interaction)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(interaction.data.get("custom_id", "") if interaction.data else "")
        # discord.py runs a dynamic item only if its id matches a template *and* the message
        # carries that component; anything else it drops silently.
        if self.is_component(custom_id) and _on_message(interaction, custom_id):
            return
        log.info("unknown component %r from user %s", custom_id[:100], interaction.user.id)
        try:
            await interaction.response.send_message(
                gettext(normalize(interaction.locale), "These controls are not valid any more."),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException:
            pass

    async def _form_sent(self, interaction: discord.Interaction) -> None:
        custom_id = str(interaction.data.get("custom_id", "") if interaction.data else "")
        match = FORM_ID.fullmatch(custom_id)
        if match is None or self.host is None:
            return
        table, seat, version = int(match["table"]), int(match["seat"]), int(match["version"])
        work = self.host.on_form_submit(interaction, table, seat, version, match["verb"])
        await self.host.guarded(interaction, "form", table, work)

    async def close(self) -> None:
        """Stop the tables, the gateway and the store; bounded, so a shutdown (SIGINT,
        SIGTERM) never hangs on a gateway that does not answer its close handshake."""
        try:
            for task in self._heap_tasks:
                task.cancel()
            if self.host is not None:
                await self.host.close()
            try:
                await asyncio.wait_for(super().close(), timeout=CLOSE_SECONDS)
            except TimeoutError:
                log.warning("the gateway did not close within %.0f s", CLOSE_SECONDS)
        finally:
            if self.store is not None:
                store, self.store = self.store, None
                await store.close()


def _on_message(interaction: discord.Interaction, custom_id: str) -> bool:
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False
