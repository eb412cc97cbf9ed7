"""``/leaderboard game:<game>`` and ``/stats [user]``: per-server standings from the store.

Both answer with a picture (``bot/render/charts.py``: the leaderboard with each player's
recent rating trend, the stats with a rating-over-time plot per game) and keep the text
embed as the accessible fallback. Rating histories are recomputed from the stored results
(``bot/store/history.py``), so they cover matches played before the pictures existed.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_module
from bot.render.charts import (
    GameCurve,
    LeaderLine,
    PlayerStats,
    leaderboard_png,
    stats_png,
)
from bot.render.charts import Leaderboard as LeaderboardPicture
from bot.render.worker import pool as render_pool
from bot.store.history import player_rating_histories, rating_history
from cogs.rules import game_choices

log = logging.getLogger(__name__)

#: Matches each leaderboard sparkline covers.
SPARK_MATCHES = 20


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _picture(self, fn, data, filename: str) -> discord.File | None:
        """Draw in the render pool; None (the embed alone) if drawing fails."""
        processes = getattr(getattr(self.bot, "settings", None), "render_processes", None)
        try:
            loop = asyncio.get_running_loop()
            png = await loop.run_in_executor(render_pool(processes), fn, data)
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
        store = self.bot.store  # type: ignore[attr-defined]
        rows = await store.leaderboard(interaction.guild_id, game.value, limit=15)
        title = f"🏆 {game_module(game.value).TITLE} — leaderboard"
        if not rows:
            text = f"Nobody has finished a {game.name} match here yet. Start one with `/{game.value} new`."
        else:
            lines = ["`#  rating  games  wins` player"]
            for i, r in enumerate(rows, 1):
                lines.append(f"`{i:<2} {r.ordinal:6.1f}  {r.games:5}  {r.wins:4}` <@{r.user_id}>")
            text = "\n".join(lines)
        embed = discord.Embed(title=title, description=text, colour=discord.Colour.gold())
        embed.set_footer(text="Rating: openskill ordinal (μ − 3σ); it grows as you win and play.")
        file = None
        if rows:
            history = await rating_history(store, interaction.guild_id, game.value)
            guild = interaction.guild.name if interaction.guild is not None else ""
            board = LeaderboardPicture(
                title=f"{game_module(game.value).TITLE} — leaderboard",
                subtitle=f"{guild} · top {len(rows)}" if guild else f"top {len(rows)}",
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
            file = await self._picture(leaderboard_png, board, "leaderboard.png")
            if file is not None:
                embed.set_image(url="attachment://leaderboard.png")
        kwargs = {"file": file} if file is not None else {}
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
        store = self.bot.store  # type: ignore[attr-defined]
        rows = await store.stats(interaction.guild_id, target.id)
        embed = discord.Embed(title=f"📊 {target.display_name}", colour=discord.Colour.blurple())
        if not rows:
            embed.description = "No finished matches in this server yet."
        for r in rows:
            rating = f"{r.ordinal:.1f} (#{r.rank_in_guild})" if r.ordinal is not None else "—"
            embed.add_field(
                name=game_module(r.game).TITLE,
                value=(
                    f"games **{r.games}** · wins **{r.wins}**\n"
                    f"average place {r.average_place:.2f} · best score {r.best_score}\n"
                    f"rating {rating}"
                ),
                inline=False,
            )
        file = None
        if rows:
            curves = await player_rating_histories(
                store, interaction.guild_id, target.id, [r.game for r in rows]
            )
            picture = PlayerStats(
                name=target.display_name,
                subtitle=interaction.guild.name if interaction.guild is not None else "",
                games=[
                    GameCurve(
                        title=game_module(r.game).TITLE,
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
            file = await self._picture(stats_png, picture, "stats.png")
            if file is not None:
                embed.set_image(url="attachment://stats.png")
        kwargs = {"file": file} if file is not None else {}
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(bot))
