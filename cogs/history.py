"""``/history [user] [game]``: this server's finished matches, newest first.

Five matches a page (date, game, players with places and scores, length), each with a
button that opens its replay privately; ◀ ▶ page through. Built from the tables, results
and actions the store already keeps, so matches finished before this command existed are
listed too. The controls are ``DynamicItem`` s (they keep working after a restart); a page
click by someone other than who asked opens their own copy of that page. Every page is in
the language of whoever asked for it (``interaction.locale``); dates are Discord
timestamps, which each reader's client writes in their own language.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_names, game_title
from bot.host.replies import channels_seen_by
from bot.i18n import format_number, gettext, ngettext, normalize
from bot.render.charts import number_text
from bot.store.history import MatchSummary, count_matches, finished_matches
from cogs.replay import guarded, open_replay
from cogs.rules import game_choices

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
PAGE_SIZE = 5
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _length(match: MatchSummary, locale: str = "en-US") -> str:
    parts = [ngettext(locale, "{n} move", "{n} moves", match.actions)]
    if match.duration is not None:
        minutes = round(match.duration / 60)
        if minutes < 120:
            parts.append(gettext(locale, "{n} min", n=format_number(locale, minutes)))
        else:
            hours = number_text(locale, minutes / 60, 1)
            parts.append(gettext(locale, "{n} h", n=hours))
    return " · ".join(parts)


def _place(place: int) -> str:
    return MEDALS.get(place, f"{place}.")


def match_field(match: MatchSummary, locale: str = "en-US") -> tuple[str, str]:
    """(title, text) of one match in the list, in ``locale``."""
    title = f"#{match.table_id} · {game_title(match.game, locale)}"
    players = " · ".join(
        f"{_place(s.place)} {'🤖 ' if s.is_ai else ''}{s.name} **{format_number(locale, s.score)}**"
        for s in match.ranking()
    )
    if match.finished_at:
        when = f"<t:{int(match.finished_at)}:f>"
    else:
        when = gettext(locale, "unknown date")
    hints = " · 💡 " + gettext(locale, "hints (not rated)") if match.hints else ""
    return title, f"{when} · {_length(match, locale)}{hints}\n{players}"[:1024]


def history_title(game: str | None, who: str | None, locale: str = "en-US") -> str:
    """The list's title: every match, a game's, a player's, or a player's of a game."""
    if game and who:
        name = game_title(game, locale)
        return gettext(locale, "Finished matches of {game} with {player}", game=name, player=who)
    if game:
        name = game_title(game, locale)
        return gettext(locale, "Finished matches of {game}", game=name)
    if who:
        return gettext(locale, "Finished matches with {player}", player=who)
    return gettext(locale, "Finished matches")


def history_embed(
    matches: list[MatchSummary],
    page: int,
    pages: int,
    who: str | None,
    game: str | None,
    locale: str = "en-US",
) -> discord.Embed:
    title = "📜 " + history_title(game, who, locale)
    embed = discord.Embed(title=title[:256], colour=discord.Colour.dark_teal())
    if not matches:
        embed.description = gettext(locale, "No finished matches here yet.")
    for match in matches:
        name, value = match_field(match, locale)
        embed.add_field(name=name, value=value, inline=False)
    if pages > 1 or matches:
        footer = gettext(
            locale,
            "Page {page} of {pages} · ▶ #n opens a replay",
            page=format_number(locale, page + 1),
            pages=format_number(locale, max(1, pages)),
        )
        embed.set_footer(text=footer)
    return embed


def history_view(
    matches: list[MatchSummary],
    page: int,
    pages: int,
    user: int,
    game: str,
    owner: int,
    locale: str = "en-US",
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for match in matches:
        button = OpenReplayButton(match.table_id)
        button.row = 0
        view.add_item(button)
    if pages > 1:
        for direction, target in (("newer", page - 1), ("older", page + 1)):
            item = PageButton(
                direction, max(0, min(pages - 1, target)), user, game, owner, locale=locale
            )
            item.item.disabled = not 0 <= target < pages
            item.row = 1
            view.add_item(item)
    return view


async def show_history(
    interaction: discord.Interaction,
    *,
    user_id: int,
    game: str,
    page: int,
    who: str | None,
    edit: bool,
) -> None:
    """Answer with one page (a new private message, or the clicked one edited)."""
    bot: commands.Bot = interaction.client  # type: ignore[assignment]  # (the client is the bot)
    store = bot.store  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
    guild = interaction.guild_id
    loc = normalize(interaction.locale)
    if guild is None:
        await interaction.response.send_message(
            gettext(loc, "This command works in a server channel."),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
        return
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    user = user_id or None
    chosen = game if game in game_names() else None
    # Only matches played in channels the member can see (a private channel's stay private).
    seen = channels_seen_by(interaction)
    total = await count_matches(store, guild, user_id=user, game=chosen, channels=seen)
    pages = max(1, -(-total // PAGE_SIZE))
    page = max(0, min(page, pages - 1))
    matches = await finished_matches(
        store,
        guild,
        user_id=user,
        game=chosen,
        limit=PAGE_SIZE,
        offset=page * PAGE_SIZE,
        channels=seen,
    )
    if who is None and user is not None:
        who = next(
            (s.name for m in matches for s in m.seats if s.user_id == user),
            gettext(loc, "user {id}", id=user),
        )
    embed = history_embed(matches, page, pages, who, chosen, loc)
    view = history_view(matches, page, pages, user_id, chosen or "-", interaction.user.id, loc)
    if edit:
        await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=NO_PINGS)
    else:
        await interaction.followup.send(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )


class OpenReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:ho:(?P<table>\d+)"):
    """Open the replay of one listed match, privately, at its first step."""

    def __init__(self, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"#{table}",
                emoji="▶",
                style=discord.ButtonStyle.primary,
                custom_id=f"th:ho:{table}",
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenReplayButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, "history replay", open_replay(interaction, self.table, step=0))


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=(
        r"th:hp:(?P<direction>newer|older):(?P<page>\d+):(?P<user>\d+)"
        r":(?P<game>[a-z]+|-):(?P<owner>\d+)"
    ),
):
    """◀ newer / ▶ older: show page ``page`` of the same list."""

    def __init__(
        self,
        direction: str,
        page: int,
        user: int,
        game: str,
        owner: int,
        *,
        locale: str = "en-US",
    ) -> None:
        newer = direction == "newer"
        super().__init__(
            discord.ui.Button(
                label=gettext(locale, "Newer") if newer else gettext(locale, "Older"),
                emoji="◀" if direction == "newer" else "▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:hp:{direction}:{page}:{user}:{game}:{owner}",
            )
        )
        self.direction, self.page, self.user, self.game, self.owner = (
            direction,
            page,
            user,
            game,
            owner,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(
            match["direction"],
            int(match["page"]),
            int(match["user"]),
            match["game"],
            int(match["owner"]),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        work = show_history(
            interaction,
            user_id=self.user,
            game=self.game,
            page=self.page,
            who=None,
            edit=interaction.user.id == self.owner,
        )
        await guarded(interaction, "history page", work)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (OpenReplayButton, PageButton)


class History(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description="This server's finished matches")
    @app_commands.describe(user="Only matches this player played", game="Only this game")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        work = show_history(
            interaction,
            user_id=user.id if user else 0,
            game=game.value if game else "-",
            page=0,
            who=user.display_name if user else None,
            edit=False,
        )
        await guarded(interaction, "/history", work)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(History(bot))
