"""``/mahjong new``: open a Mah-Jongg (Israeli rules) lobby."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import LANGUAGE_CHOICES, LANGUAGE_DESCRIPTION

Choice = app_commands.Choice


@app_commands.guild_only()
class Mahjong(
    commands.GroupCog,
    group_name="mahjong",
    group_description="Mah-Jongg, Israeli rules (4 players)",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Mah-Jongg table in this channel")
    @app_commands.describe(
        game="Regular game (4 rounds) or extended game (16, all four round winds)",
        settlement="Everyone adds their own total, or classical payments between players",
        last_card="What the 2-point 'last card' item means",
        strict="False claims are possible and cost the seed's penalties",
        max_hands="Stop after this many hands (0: play the whole game)",
        turn_seconds="Seconds per decision before the default move is played (15-3600)",
        claim_seconds="Seconds every claim window stays open, whoever can claim (1-60)",
        hints="Hint buttons: what the AI would play (default: on for a newcomer facing an AI)",
        language=LANGUAGE_DESCRIPTION,
    )
    @app_commands.choices(
        game=[
            Choice(name="regular (4 rounds)", value="regular"),
            Choice(name="extended (16)", value="extended"),
        ],
        settlement=[
            Choice(name="add up", value="addup"),
            Choice(name="classical", value="classical"),
        ],
        last_card=[
            Choice(name="last copy in sight", value="last_copy"),
            Choice(name="the only card that completes the hand", value="only_wait"),
        ],
        language=LANGUAGE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: Choice[str] | None = None,
        settlement: Choice[str] | None = None,
        last_card: Choice[str] | None = None,
        strict: bool | None = None,
        max_hands: app_commands.Range[int, 0, 200] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        claim_seconds: app_commands.Range[int, 1, 60] | None = None,
        hints: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {
            "game": game.value if game else None,
            "settlement": settlement.value if settlement else None,
            "last_card": last_card.value if last_card else None,
            "strict": strict,
            "max_hands": max_hands,
            "turn_seconds": turn_seconds,
            "claim_seconds": claim_seconds,
            "hints": hints,
        }
        await self.bot.host.open_lobby(  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
            interaction,
            "mahjong",
            {k: v for k, v in options.items() if v is not None},
            language=language.value if language else None,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Mahjong(bot))
