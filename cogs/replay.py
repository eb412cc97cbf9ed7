"""``/replay table:<id> [hand:<n>] [public:<bool>]``: step through a finished match.

The picture of each step is the table as a spectator saw it, with every hand face up (the
match is over), the deal summary where a deal ended, and what just happened. ⏮ ◀ ▶ ⏭ step
through it, a select jumps to a deal, **Download** sends the match as one JSON file
(``docs/replay-format.md``; ``python -m bot.replay FILE`` draws it offline).

Every control is a ``DynamicItem`` whose custom id carries the table, the step and who
opened the replay, so they keep working after a restart. A click by the person who opened it
moves it in place; anyone else who clicks a public replay gets their own private copy. A
table of another server, or one still being played, is refused.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_module
from bot.render.worker import pool as render_pool
from bot.replay.core import Replayer, ReplayError, ReplayRecord, hand_number, to_json
from bot.replay.render import record_key, replay_png
from bot.store.history import replay_record

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
#: Statuses whose replay may be shown (a match still being played never is).
REPLAYABLE = ("finished", "aborted")
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


class Refusal(Exception):
    """A replay that may not be shown here; the message is for the user."""


# ----- loading --------------------------------------------------------------------------


class ReplayCache:
    """The records of recently replayed tables (a finished match never changes) and their
    step structure, so a click costs no database read."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._entries: OrderedDict[int, tuple[Any, ReplayRecord, str, Replayer]] = OrderedDict()

    def forget(self) -> None:
        self._entries.clear()

    async def load(self, bot: commands.Bot, table_id: int, guild_id: int | None):
        """(table row, record, key, replayer), or Refusal saying why not."""
        entry = self._entries.get(table_id)
        if entry is None:
            found = await replay_record(bot.store, table_id)  # type: ignore[attr-defined]
            if found is None:
                raise Refusal(f"There is no table #{table_id} in this server.")
            row, record = found
            if row.guild_id != guild_id:
                raise Refusal(f"There is no table #{table_id} in this server.")
            if row.status not in REPLAYABLE:
                if row.status == "active":
                    raise Refusal(
                        f"Table #{table_id} is still being played: its replay opens once the "
                        "match is over (no peeking at the hands)."
                    )
                raise Refusal(f"Table #{table_id} has not started: there is nothing to replay.")
            try:
                rp = await asyncio.to_thread(Replayer, record)
            except ReplayError as exc:
                log.warning("table %s does not replay: %s", table_id, exc)
                raise Refusal(f"Table #{table_id}'s log does not replay ({exc}).") from exc
            entry = (row, record, record_key(record), rp)
            self._entries[table_id] = entry
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(table_id)
        if entry[0].guild_id != guild_id:
            raise Refusal(f"There is no table #{table_id} in this server.")
        return entry


def _cache(bot: commands.Bot) -> ReplayCache:
    cache = getattr(bot, "replay_cache", None)
    if cache is None:
        cache = ReplayCache()
        bot.replay_cache = cache  # type: ignore[attr-defined]
    return cache


# ----- the message ------------------------------------------------------------------------


def step_text(rp: Replayer, row: Any, step: int) -> str:
    """The words under the picture: which step, what happened, and at the end the result."""
    record = rp.record
    title = game_module(record.game).TITLE
    hand = rp.hand_of(step)
    word = "round" if record.game == "koikoi" else "hand"
    lines = [
        f"**{title}** #{record.table_id} — replay · step {step}/{rp.last} · {word} {hand.number}"
    ]
    lines += [f"> {line}" for line in rp.describe(step).split("\n") if line]
    if step == rp.last:
        if rp.final.is_over:
            result = rp.final.result()
            order = sorted(range(len(record.players)), key=lambda s: (result.placements[s], s))
            lines.append(
                "🏁 Final scores: "
                + " · ".join(
                    f"{MEDALS.get(result.placements[s], f'{result.placements[s]}.')} "
                    f"{record.names[s]} {result.scores[s]}"
                    for s in order
                )
            )
        elif row.status == "aborted":
            lines.append("⛔ This match was aborted here.")
    return "\n".join(lines)[:1990]


def replay_view(rp: Replayer, table_id: int, step: int, owner: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = rp.last
    targets = (
        ("first", 0, "⏮"),
        ("prev", step - 1, "◀"),
        ("next", step + 1, "▶"),
        ("last", last, "⏭"),
    )
    for kind, target, emoji in targets:
        item = StepButton(table_id, kind, max(0, min(last, target)), owner, emoji=emoji)
        item.item.disabled = (kind in ("first", "prev") and step <= 0) or (
            kind in ("next", "last") and step >= last
        )
        item.row = 0
        view.add_item(item)
    download = DownloadButton(table_id)
    download.row = 0
    view.add_item(download)
    if len(rp.hands) > 1:
        current = rp.hand_of(step)
        index = rp.hands.index(current)
        start = max(0, min(index - 12, len(rp.hands) - 25))
        hands = rp.hands[start : start + 25]
        select = HandSelect(table_id, owner, rp, hands, current.number)
        select.row = 1
        view.add_item(select)
    return view


async def render(bot: commands.Bot, record: ReplayRecord, key: str, step: int) -> discord.File:
    settings = getattr(bot, "settings", None)
    processes = getattr(settings, "render_processes", None)
    loop = asyncio.get_running_loop()
    data = await loop.run_in_executor(render_pool(processes), replay_png, record, step, True, key)
    return discord.File(io.BytesIO(data), filename=f"replay-{record.table_id}-{step}.png")


async def message_parts(
    bot: commands.Bot, table_id: int, guild_id: int | None, step: int, owner: int
) -> dict[str, Any]:
    row, record, key, rp = await _cache(bot).load(bot, table_id, guild_id)
    step = rp.clamp(step)
    file = await render(bot, record, key, step)
    return {
        "content": step_text(rp, row, step),
        "view": replay_view(rp, table_id, step, owner),
        "file": file,
    }


async def open_replay(
    interaction: discord.Interaction,
    table_id: int,
    *,
    step: int | None = None,
    hand: int | None = None,
    public: bool = False,
) -> None:
    """Answer ``interaction`` with a new replay message (ephemeral unless ``public``). A
    refusal is always private (it is checked before the answer's visibility is chosen)."""
    bot: commands.Bot = interaction.client  # type: ignore[assignment]
    try:
        _, _, _, rp = await _cache(bot).load(bot, table_id, interaction.guild_id)
        if hand is not None:
            start = rp.hand_start(hand)
            if start is None:
                numbers = ", ".join(str(h.number) for h in rp.hands)
                raise Refusal(f"Table #{table_id} has no hand {hand} (it has {numbers}).")
            step = start
    except Refusal as exc:
        await interaction.response.send_message(str(exc), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    await interaction.response.defer(ephemeral=not public, thinking=True)
    parts = await message_parts(bot, table_id, interaction.guild_id, step or 0, interaction.user.id)
    await interaction.followup.send(
        parts["content"],
        file=parts["file"],
        view=parts["view"],
        ephemeral=not public,
        allowed_mentions=NO_PINGS,
    )


async def move_replay(
    interaction: discord.Interaction, table_id: int, step: int, owner: int
) -> None:
    """A step button or the deal select: the owner's message moves; anyone else gets their
    own private copy at that step."""
    if interaction.user.id != owner:
        await open_replay(interaction, table_id, step=step)
        return
    bot: commands.Bot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer()
    try:
        parts = await message_parts(bot, table_id, interaction.guild_id, step, owner)
    except Refusal as exc:
        await interaction.followup.send(str(exc), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    await interaction.edit_original_response(
        content=parts["content"],
        attachments=[parts["file"]],
        view=parts["view"],
        allowed_mentions=NO_PINGS,
    )


async def guarded(interaction: discord.Interaction, what: str, work: Any) -> None:
    """Run a click or command; an unexpected failure is logged and answered, never silent."""
    try:
        await work
    except Exception:
        log.exception("%s failed (user %s)", what, interaction.user.id)
        text = "😵 Sorry, something went wrong showing that replay."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.send_message(
                    text, ephemeral=True, allowed_mentions=NO_PINGS
                )
        except discord.HTTPException:
            pass


# ----- components ---------------------------------------------------------------------------

STEP_KINDS = ("first", "prev", "next", "last")


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"th:rp:(?P<table>\d+):(?P<kind>first|prev|next|last):(?P<step>\d+):(?P<owner>\d+)",
):
    """⏮ ◀ ▶ ⏭: show step ``step`` of table ``table`` (the id says where it leads)."""

    def __init__(
        self, table: int, kind: str, step: int, owner: int, emoji: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                emoji=emoji or {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}[kind],
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:rp:{table}:{kind}:{step}:{owner}",
            )
        )
        self.table, self.kind, self.step, self.owner = table, kind, step, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> StepButton:
        return cls(int(match["table"]), match["kind"], int(match["step"]), int(match["owner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(
            interaction, "replay step", move_replay(interaction, self.table, self.step, self.owner)
        )


class HandSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"th:rh:(?P<table>\d+):(?P<owner>\d+)",
):
    """Jump to the first step of a deal (its value is that step)."""

    def __init__(
        self,
        table: int,
        owner: int,
        rp: Replayer | None = None,
        hands: list[Any] | None = None,
        current: int | None = None,
    ) -> None:
        word = "Round" if rp is not None and rp.record.game == "koikoi" else "Hand"
        options = [
            discord.SelectOption(
                label=f"{word} {h.number}",
                value=str(h.first_step),
                description=f"steps {h.first_step}–{h.last_step}",
                default=h.number == current,
            )
            for h in hands or []
        ] or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:rh:{table}:{owner}",
                placeholder=f"Jump to a {word.lower()}…",
                options=options,
            )
        )
        self.table, self.owner = table, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> HandSelect:
        return cls(int(match["table"]), int(match["owner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values) or ["0"]
        step = int(values[0]) if values[0].isdigit() else 0
        await guarded(
            interaction, "replay hand", move_replay(interaction, self.table, step, self.owner)
        )


class DownloadButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:rd:(?P<table>\d+)"):
    """The whole match as one JSON replay file (sent privately)."""

    def __init__(self, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Download",
                emoji="💾",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:rd:{table}",
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> DownloadButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, "replay download", send_download(interaction, self.table))


def download_file(record: ReplayRecord) -> discord.File:
    data = to_json(record).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=f"teahouse-{record.game}-{record.table_id}.json")


async def send_download(interaction: discord.Interaction, table_id: int) -> None:
    bot: commands.Bot = interaction.client  # type: ignore[assignment]
    try:
        _, record, _, _ = await _cache(bot).load(bot, table_id, interaction.guild_id)
    except Refusal as exc:
        await interaction.response.send_message(str(exc), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(
        f"Table #{table_id} as a replay file: draw it offline with `python -m bot.replay FILE`.",
        file=download_file(record),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    StepButton,
    HandSelect,
    DownloadButton,
)


class Replays(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description="Step through a finished match of this server")
    @app_commands.describe(
        table="The table's number (see /history)",
        hand="Start at this hand (round, deal)",
        public="Post it in the channel for everyone (private to you by default)",
    )
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 2**53],
        hand: app_commands.Range[int, 1, 10000] | None = None,
        public: bool = False,
    ) -> None:
        await guarded(
            interaction, "/replay", open_replay(interaction, table, hand=hand, public=public)
        )


__all__ = ["DYNAMIC_ITEMS", "Refusal", "Replays", "hand_number", "open_replay"]


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Replays(bot))
