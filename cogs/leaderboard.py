"""``/leaderboard game:<game>`` and ``/stats [user]``: per-server standings from the store."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_module
from cogs.rules import game_choices


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str]
    ) -> None:
        rows = await self.bot.store.leaderboard(interaction.guild_id, game.value, limit=15)  # type: ignore[attr-defined]
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
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(user="Whose stats (you by default)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        target = user or interaction.user
        rows = await self.bot.store.stats(interaction.guild_id, target.id)  # type: ignore[attr-defined]
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
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(bot))
