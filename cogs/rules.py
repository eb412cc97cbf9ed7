"""``/rules game:<game>``: a short explanation of a game's rules."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAME_NAMES, game_module, rules_summary


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game_module(g).TITLE, value=g) for g in GAME_NAMES]


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play one of Teahouse's games")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        module = game_module(game.value)
        embed = discord.Embed(
            title=f"{module.TITLE} — rules",
            description=rules_summary(game.value)[:4000],
            colour=discord.Colour.from_rgb(176, 48, 48),
        )
        embed.set_footer(text=f"Start a table with /{game.value} new")
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
