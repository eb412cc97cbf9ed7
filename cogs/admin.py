"""``/table abort``: end a table (its host or a member with Manage Server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import gettext, normalize


@app_commands.guild_only()
class Admin(commands.GroupCog, group_name="table", group_description="Manage game tables"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="abort", description="Abort a table (host or Manage Server)")
    @app_commands.describe(table="Table number (defaults to the table of this thread)")
    async def abort(self, interaction: discord.Interaction, table: int | None = None) -> None:
        host = self.bot.host  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
        table_id = table if table is not None else host.table_in_channel(interaction.channel_id)
        if table_id is None:
            text = gettext(
                normalize(interaction.locale),
                "Which table? Use this in a table's thread or give its number.",
            )
            await interaction.response.send_message(text, ephemeral=True)
            return
        await host.abort(interaction, table_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
