"""``/replay table:<id> [hand:<n>] [public:<bool>]``: step through a finished match.

The picture of each step is the table as a spectator saw it, with every hand face up (the
match is over), the deal summary where a deal ended, and what just happened. ⏮ ◀ ▶ ⏭ step
through it, a select jumps to a deal, **Download** sends the match as one JSON file
(``docs/replay-format.md``; ``python -m bot.replay FILE`` draws it offline).

Every control is a ``DynamicItem`` whose custom id carries the table, the step and who
opened the replay, so they keep working after a restart. A click by the person who opened it
moves it in place; anyone else who clicks a public replay gets their own private copy. A
table of another server, or one still being played, is refused.

Every word — the caption, the picture, the controls, a refusal — is in the language of the
person who asked (``interaction.locale``), a public replay too: only its owner moves it.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_title
from bot.host.base import draw_on_request
from bot.host.replies import may_see_channel
from bot.i18n import Text, format_number, gettext, localize, normalize
from bot.replay.core import Replayer, ReplayError, ReplayRecord, to_json
from bot.replay.render import record_key, replay_png
from bot.store.history import replay_record

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
#: Statuses whose replay may be shown (a match still being played never is).
REPLAYABLE = ("finished", "aborted")
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
MIB = 1024 * 1024


class Refusal(Exception):
    """A replay that may not be shown here; the message (a :class:`~bot.i18n.Text`) is for
    the user, said in their language by :meth:`say`."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def say(self, locale: str) -> str:
        return str(localize(locale, self.text))


def _no_such_table(table_id: int) -> Refusal:
    return Refusal(Text("There is no table #{table} in this server.", table=table_id))


# ----- loading --------------------------------------------------------------------------


class ReplayCache:
    """The records of recently replayed tables (a finished match never changes) and their
    step structure, so a click costs no database read.

    Bounded in entries and in bytes (``Replayer.memory_bytes``, mostly the checkpoints of
    the state: a long match's are tens of MiB): the least recently used go first, and a
    match larger than the whole budget is not kept."""

    def __init__(self, size: int = 32, max_bytes: int = 64 * MIB) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._entries: OrderedDict[int, tuple[Any, ReplayRecord, str, Replayer]] = OrderedDict()
        self.bytes = 0

    def forget(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def _keep(self, table_id: int, entry: tuple[Any, ReplayRecord, str, Replayer]) -> None:
        weight = entry[3].memory_bytes
        if weight > self.max_bytes:
            return
        self._entries[table_id] = entry
        self.bytes += weight
        while len(self._entries) > self.size or self.bytes > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self.bytes -= dropped[3].memory_bytes

    async def load(self, viewer: discord.Interaction, table_id: int):
        """(table row, record, key, replayer) for the member behind ``viewer``, or Refusal
        saying why not: a table of another server, one still being played, or one played
        in a channel they cannot see."""
        bot: commands.Bot = viewer.client  # type: ignore[assignment]  # (the client is the bot)
        guild_id = viewer.guild_id
        entry = self._entries.get(table_id)
        if entry is None:
            found = await replay_record(bot.store, table_id)  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
            if found is None:
                raise _no_such_table(table_id)
            row, record = found
            if row.guild_id != guild_id:
                raise _no_such_table(table_id)
            if row.status not in REPLAYABLE:
                if row.status == "active":
                    raise Refusal(
                        Text(
                            "Table #{table} is still being played: its replay opens once the "
                            "match is over (no peeking at the hands).",
                            table=table_id,
                        )
                    )
                raise Refusal(
                    Text(
                        "Table #{table} has not started: there is nothing to replay.",
                        table=table_id,
                    )
                )
            try:
                rp = await asyncio.to_thread(Replayer, record)
            except ReplayError as exc:
                log.warning("table %s does not replay: %s", table_id, exc)
                raise Refusal(
                    Text(
                        "Table #{table}'s log does not replay ({reason}).",
                        table=table_id,
                        reason=str(exc),
                    )
                ) from exc
            entry = (row, record, record_key(record), rp)
            self._keep(table_id, entry)
        else:
            self._entries.move_to_end(table_id)
        if entry[0].guild_id != guild_id:
            raise _no_such_table(table_id)
        if not may_see_channel(viewer, entry[0].channel_id):
            raise Refusal(
                Text("Table #{table} was played in a channel you cannot see.", table=table_id)
            )
        return entry


class StepPacer:
    """How fast one user may have replay steps drawn: ``burst`` at once, then ``rate`` a
    second. A step is ~300 ms of drawing; anyone may click ▶ on a public replay (each click
    draws their own copy), and holding it down must not take the render pool from the
    tables. ``clock``: seconds, monotonic (tests give their own)."""

    #: Users remembered at most (the least recently seen are forgotten: a full bucket).
    USERS = 10_000

    def __init__(
        self, rate: float = 1.0, burst: int = 3, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()

    def allow(self, user_id: int) -> bool:
        """Take one step from the user's bucket; False (nothing taken) if it is empty."""
        now = self.clock()
        tokens, then = self._buckets.pop(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.USERS:
            self._buckets.popitem(last=False)
        return allowed


TOO_FAST = Text("Slow down: replay steps are drawn one at a time. Try again in a moment.")


def _pacer(bot: commands.Bot) -> StepPacer:
    pacer = getattr(bot, "replay_pacer", None)
    if pacer is None:
        pacer = StepPacer()
        bot.replay_pacer = pacer  # type: ignore[attr-defined]  # (the cog keeps it on the bot)
    return pacer


def _cache(bot: commands.Bot) -> ReplayCache:
    cache = getattr(bot, "replay_cache", None)
    if cache is None:
        megabytes = getattr(getattr(bot, "settings", None), "replay_cache_mb", 64)
        cache = ReplayCache(max_bytes=megabytes * MIB)
        bot.replay_cache = cache  # type: ignore[attr-defined]  # (the cog keeps it on the bot)
    return cache


# ----- the message ------------------------------------------------------------------------


def replay_heading(rp: Replayer, step: int, locale: str = "en-US") -> str:
    """The message's first line: the game (bold), the table, the step and the deal."""
    record = rp.record
    fields = {
        "game": game_title(record.game, locale),
        "table": record.table_id,
        "step": step,
        "last": rp.last,
    }
    hand = rp.hand_of(step).number
    if rp.spec.deal_word == "round":
        return gettext(
            locale,
            "**{game}** #{table} — replay · step {step}/{last} · round {round}",
            round=hand,
            **fields,
        )
    return gettext(
        locale,
        "**{game}** #{table} — replay · step {step}/{last} · hand {hand}",
        hand=hand,
        **fields,
    )


def step_text(rp: Replayer, row: Any, step: int, locale: str = "en-US") -> str:
    """The words under the picture: which step, what happened, and at the end the result,
    in ``locale``."""
    record = rp.record
    lines = [replay_heading(rp, step, locale)]
    lines += [f"> {line}" for line in rp.describe(step, locale).split("\n") if line]
    if step == rp.last:
        if rp.final.is_over:
            result = rp.final.result()
            order = sorted(range(len(record.players)), key=lambda s: (result.placements[s], s))
            scores = " · ".join(
                f"{MEDALS.get(result.placements[s], f'{result.placements[s]}.')} "
                f"{record.names[s]} {format_number(locale, result.scores[s])}"
                for s in order
            )
            lines.append("🏁 " + gettext(locale, "Final scores: {scores}", scores=scores))
        elif row.status == "aborted":
            lines.append("⛔ " + gettext(locale, "This match was aborted here."))
    return "\n".join(lines)[:1990]


def replay_view(
    rp: Replayer, table_id: int, step: int, owner: int, locale: str = "en-US"
) -> discord.ui.View:
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
    download = DownloadButton(table_id, locale=locale)
    download.row = 0
    view.add_item(download)
    if len(rp.hands) > 1:
        current = rp.hand_of(step)
        index = rp.hands.index(current)
        start = max(0, min(index - 12, len(rp.hands) - 25))
        hands = rp.hands[start : start + 25]
        select = HandSelect(table_id, owner, rp, hands, current.number, locale=locale)
        select.row = 1
        view.add_item(select)
    return view


async def render(
    bot: commands.Bot, record: ReplayRecord, key: str, step: int, locale: str = "en-US"
) -> discord.File:
    # After the games' own pictures (a step costs ~300 ms of drawing).
    data = await draw_on_request(bot, replay_png, record, step, True, key, locale)
    return discord.File(io.BytesIO(data), filename=f"replay-{record.table_id}-{step}.png")


async def message_parts(
    interaction: discord.Interaction,
    table_id: int,
    step: int,
    owner: int,
    locale: str = "en-US",
) -> dict[str, Any]:
    bot: commands.Bot = interaction.client  # type: ignore[assignment]  # (the client is the bot)
    row, record, key, rp = await _cache(bot).load(interaction, table_id)
    step = rp.clamp(step)
    file = await render(bot, record, key, step, locale)
    return {
        "content": step_text(rp, row, step, locale),
        "view": replay_view(rp, table_id, step, owner, locale),
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
    bot: commands.Bot = interaction.client  # type: ignore[assignment]  # (the client is the bot)
    loc = normalize(interaction.locale)
    try:
        _, _, _, rp = await _cache(bot).load(interaction, table_id)
        if hand is not None:
            start = rp.hand_start(hand)
            if start is None:
                numbers = tuple(str(h.number) for h in rp.hands)
                raise Refusal(
                    Text(
                        "Table #{table} has no hand {hand} (it has {numbers}).",
                        table=table_id,
                        hand=hand,
                        numbers=numbers,
                    )
                )
            step = start
        if not _pacer(bot).allow(interaction.user.id):
            raise Refusal(TOO_FAST)
    except Refusal as exc:
        await interaction.response.send_message(
            exc.say(loc), ephemeral=True, allowed_mentions=NO_PINGS
        )
        return
    await interaction.response.defer(ephemeral=not public, thinking=True)
    parts = await message_parts(interaction, table_id, step or 0, interaction.user.id, loc)
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
    bot: commands.Bot = interaction.client  # type: ignore[assignment]  # (the client is the bot)
    loc = normalize(interaction.locale)
    try:
        # A table that does not exist (or that this member may not see) is said so before
        # any pacing: a forged or stale id gets the same answer however often it is clicked.
        await _cache(bot).load(interaction, table_id)
        if not _pacer(bot).allow(interaction.user.id):
            raise Refusal(TOO_FAST)
    except Refusal as exc:
        await interaction.response.send_message(
            exc.say(loc), ephemeral=True, allowed_mentions=NO_PINGS
        )
        return
    await interaction.response.defer()
    try:
        parts = await message_parts(interaction, table_id, step, owner, loc)
    except Refusal as exc:
        await interaction.followup.send(exc.say(loc), ephemeral=True, allowed_mentions=NO_PINGS)
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
        loc = normalize(interaction.locale)
        text = "😵 " + gettext(loc, "Sorry, something went wrong showing that replay.")
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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
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
        *,
        locale: str = "en-US",
    ) -> None:
        rounds = rp is not None and rp.spec.deal_word == "round"
        options = [
            discord.SelectOption(
                label=gettext(locale, "Round {n}", n=h.number)
                if rounds
                else gettext(locale, "Hand {n}", n=h.number),
                value=str(h.first_step),
                description=gettext(
                    locale, "steps {first}–{last}", first=h.first_step, last=h.last_step
                ),
                default=h.number == current,
            )
            for h in hands or []
        ] or [discord.SelectOption(label="-", value="0")]
        if rounds:
            placeholder = gettext(locale, "Jump to a round…")
        else:
            placeholder = gettext(locale, "Jump to a hand…")
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:rh:{table}:{owner}",
                placeholder=placeholder,
                options=options,
            )
        )
        self.table, self.owner = table, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
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

    def __init__(self, table: int, *, locale: str = "en-US") -> None:
        super().__init__(
            discord.ui.Button(
                label=gettext(locale, "Download"),
                emoji="💾",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:rd:{table}",
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DownloadButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, "replay download", send_download(interaction, self.table))


def download_file(record: ReplayRecord) -> discord.File:
    data = to_json(record).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=f"teahouse-{record.game}-{record.table_id}.json")


async def send_download(interaction: discord.Interaction, table_id: int) -> None:
    bot: commands.Bot = interaction.client  # type: ignore[assignment]  # (the client is the bot)
    loc = normalize(interaction.locale)
    try:
        _, record, _, _ = await _cache(bot).load(interaction, table_id)
    except Refusal as exc:
        await interaction.response.send_message(
            exc.say(loc), ephemeral=True, allowed_mentions=NO_PINGS
        )
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(
        gettext(
            loc,
            "Table #{table} as a replay file: draw it offline with `{command}`.",
            table=table_id,
            command="python -m bot.replay FILE",
        ),
        file=download_file(record),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    StepButton,
    HandSelect,
    DownloadButton,
)


#: The largest table number /replay accepts. Table ids count up from 1 (the store holds 64-bit
#: ids), so two billion is beyond any server's history; Discord refuses an integer option
#: bound beyond ±(2^53 - 1), and one bad bound makes it register no command at all.
MAX_TABLE_NUMBER = 2**31 - 1


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
        table: app_commands.Range[int, 1, MAX_TABLE_NUMBER],
        hand: app_commands.Range[int, 1, 10000] | None = None,
        public: bool = False,
    ) -> None:
        await guarded(
            interaction, "/replay", open_replay(interaction, table, hand=hand, public=public)
        )


__all__ = ["DYNAMIC_ITEMS", "Refusal", "Replays", "open_replay"]


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Replays(bot))
