"""``/leaderboard game:<game>`` and ``/stats [user]``: per-server standings from the store.

Both answer with a picture (``bot/render/charts.py``: the leaderboard with each player's
recent rating trend, the stats with a rating-over-time plot per game) and keep the text
embed as the accessible fallback. Rating histories are recomputed from the stored results
(``bot/store/history.py``), so they cover matches played before the pictures existed.
Everything is said in the invoking user's language (``interaction.locale``), the pictures
too; a public answer follows the person who asked.
"""

from __future__ import annotations

import io
import logging
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_title
from bot.host.base import draw_on_request
from bot.i18n import gettext, normalize
from bot.render.charts import (
    RATING_NOTE,
    GameCurve,
    LeaderLine,
    PlayerStats,
    leaderboard_png,
    number_text,
    rating_text,
    stats_png,
)
from bot.render.charts import Leaderboard as LeaderboardPicture
from bot.store.history import player_rating_histories, rating_history
from bot.store.rows import LeaderRow, StatsRow
from cogs.rules import game_choices

log = logging.getLogger(__name__)

#: Matches each leaderboard sparkline covers.
SPARK_MATCHES = 20


def _width(text: str) -> int:
    """Columns ``text`` takes in a monospaced code span (wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    space = " " * max(0, width - _width(text))
    return space + text if right else text + space


def standings_lines(rows: Sequence[LeaderRow], locale: str) -> list[str]:
    """The leaderboard's text: a heading and a line per player, the numbers aligned in a
    code span (the column names in the user's language)."""
    rating, games, wins = (
        gettext(locale, "rating"),
        gettext(locale, "games"),
        gettext(locale, "wins"),
    )
    widths = (max(6, _width(rating)), max(5, _width(games)), max(4, _width(wins)))
    head = f"#  {_pad(rating, widths[0], True)}  {_pad(games, widths[1], True)}"
    head += f"  {_pad(wins, widths[2], True)}"
    lines = [gettext(locale, "`{columns}` player", columns=head)]
    for i, r in enumerate(rows, 1):
        cells = (
            _pad(rating_text(locale, r.ordinal), widths[0], True),
            _pad(number_text(locale, r.games), widths[1], True),
            _pad(number_text(locale, r.wins), widths[2], True),
        )
        lines.append(f"`{i:<2} {cells[0]}  {cells[1]}  {cells[2]}` <@{r.user_id}>")
    return lines


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _picture(self, fn, data, filename: str) -> discord.File | None:
        """Draw in the render pool; None (the embed alone) if drawing fails."""
        try:
            png = await draw_on_request(self.bot, fn, data)
        except Exception:
            log.exception("drawing %s failed", filename)
            return None
        return discord.File(io.BytesIO(png), filename=filename)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str]
    ) -> None:
        store = self.bot.store  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
        loc = normalize(interaction.locale)
        assert interaction.guild_id is not None  # (guild_only)
        rows = await store.leaderboard(interaction.guild_id, game.value, limit=15)
        name = game_title(game.value, loc)
        title = "🏆 " + gettext(loc, "{game} — leaderboard", game=name)
        if not rows:
            text = gettext(
                loc,
                "Nobody has finished a {game} match here yet. Start one with `{command}`.",
                game=name,
                command=f"/{game.value} new",
            )
        else:
            text = "\n".join(standings_lines(rows, loc))
        embed = discord.Embed(title=title, description=text, colour=discord.Colour.gold())
        embed.set_footer(text=gettext(loc, RATING_NOTE))
        file = None
        if rows:
            history = await rating_history(store, interaction.guild_id, game.value)
            guild = interaction.guild.name if interaction.guild is not None else ""
            board = board_picture(game.value, rows, history, guild, loc)
            file = await self._picture(leaderboard_png, board, "leaderboard.png")
            if file is not None:
                embed.set_image(url="attachment://leaderboard.png")
        kwargs: dict[str, Any] = {"file": file} if file is not None else {}
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(user="Whose stats (you by default)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        target = user or interaction.user
        store = self.bot.store  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
        loc = normalize(interaction.locale)
        assert interaction.guild_id is not None  # (guild_only)
        rows = await store.stats(interaction.guild_id, target.id)
        embed = discord.Embed(title=f"📊 {target.display_name}", colour=discord.Colour.blurple())
        if not rows:
            embed.description = gettext(loc, "No finished matches in this server yet.")
        for r in rows:
            embed.add_field(name=game_title(r.game, loc), value=stats_text(r, loc), inline=False)
        file = None
        if rows:
            curves = await player_rating_histories(
                store, interaction.guild_id, target.id, [r.game for r in rows]
            )
            guild = interaction.guild.name if interaction.guild is not None else ""
            picture = stats_picture(target.display_name, guild, rows, curves, loc)
            file = await self._picture(stats_png, picture, "stats.png")
            if file is not None:
                embed.set_image(url="attachment://stats.png")
        kwargs: dict[str, Any] = {"file": file} if file is not None else {}
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )


def board_picture(
    game: str, rows: Sequence[LeaderRow], history: Mapping[int, Any], guild: str, locale: str
) -> LeaderboardPicture:
    """What ``/leaderboard`` draws: the standings with each player's recent ratings."""
    top = gettext(locale, "top {n}", n=number_text(locale, len(rows)))
    return LeaderboardPicture(
        title=gettext(locale, "{game} — leaderboard", game=game_title(game, locale)),
        subtitle=gettext(locale, "{server} · {top}", server=guild, top=top) if guild else top,
        locale=locale,
        lines=[
            LeaderLine(
                rank=i,
                name=r.name,
                rating=r.ordinal,
                games=r.games,
                wins=r.wins,
                history=[p.ordinal for p in history.get(r.user_id, [])][-SPARK_MATCHES:],
            )
            for i, r in enumerate(rows, 1)
        ],
    )


def stats_picture(
    name: str,
    guild: str,
    rows: Sequence[StatsRow],
    curves: Mapping[str, Sequence[Any]],
    locale: str,
) -> PlayerStats:
    """What ``/stats`` draws: a player's rating over time in each game they played."""
    return PlayerStats(
        name=name,
        subtitle=guild,
        locale=locale,
        games=[
            GameCurve(
                title=game_title(r.game, locale),
                ratings=[p.ordinal for p in curves.get(r.game, [])],
                times=[p.time for p in curves.get(r.game, [])],
                games=r.games,
                wins=r.wins,
                rank=r.rank_in_guild,
                average_place=r.average_place,
                best_score=r.best_score,
            )
            for r in rows
        ],
    )


def stats_text(r: StatsRow, locale: str) -> str:
    """One game of ``/stats``: games and wins, average place and best score, rating."""
    if r.ordinal is not None:
        rating = gettext(
            locale,
            "{rating} (#{rank})",
            rating=rating_text(locale, r.ordinal),
            rank=r.rank_in_guild,
        )
    else:
        rating = "—"
    return "\n".join(
        (
            gettext(
                locale,
                "games **{games}** · wins **{wins}**",
                games=number_text(locale, r.games),
                wins=number_text(locale, r.wins),
            ),
            gettext(
                locale,
                "average place {place} · best score {score}",
                place=number_text(locale, r.average_place, 2),
                score=number_text(locale, r.best_score),
            ),
            gettext(locale, "rating {rating}", rating=rating),
        )
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(bot))
