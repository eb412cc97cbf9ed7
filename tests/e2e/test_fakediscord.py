"""The fake Discord works with the real discord.py: a tiny bot is driven through it."""

from __future__ import annotations

import asyncio
import io
import re
import time

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.discord_schema import error_fields
from tests.e2e.fakediscord import (
    EPHEMERAL,
    FakeDiscord,
    FakeHTTPError,
    disposition_params,
    find_component,
    find_components,
    multipart_parts,
    start_client,
    stop_client,
)

PNG = (  # a 1x1 PNG
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00"
    b"\x00\x00\x00IEND\xaeB`\x82"
)


async def _form_body(form: aiohttp.FormData) -> tuple[bytes, str]:
    """The bytes and Content-Type aiohttp sends for ``form``."""
    payload = form()

    class Sink:
        data = b""

        async def write(self, chunk: bytes) -> None:
            self.data += bytes(chunk)

    sink = Sink()
    await payload.write(sink)
    return sink.data, payload.content_type


async def test_multipart_bodies_read_as_discord_py_writes_them() -> None:
    """The fake's own multipart reader reads discord.py's form (``quote_fields=False``, a
    JSON payload and files): names, a filename with a quote and an accent, contents that
    hold line breaks and dashes, in order; a body without its boundary is refused."""
    form = aiohttp.FormData(quote_fields=False)  # as discord.py builds it
    form.add_field("payload_json", '{"content": "hi"}', content_type="application/json")
    form.add_field("files[0]", io.BytesIO(PNG), filename='hand "é".png', content_type="image/png")
    tricky = b"\r\n--not the boundary\r\n\r\n"
    form.add_field("files[1]", io.BytesIO(tricky), filename="b.bin")
    body, content_type = await _form_body(form)
    parts = multipart_parts(body, content_type)
    assert [p[1] for p in parts] == [b'{"content": "hi"}', PNG, tricky]
    names = [disposition_params(h["content-disposition"]) for h, _ in parts]
    assert names == [
        {"name": "payload_json"},
        {"name": "files[0]", "filename": 'hand "é".png'},
        {"name": "files[1]", "filename": "b.bin"},
    ]
    assert [h["content-type"] for h, _ in parts] == [
        "application/json",
        "image/png",
        "application/octet-stream",
    ]
    assert disposition_params("form-data; filename=\"a.png\"; filename*=utf-8''%C3%A9.png") == {
        "filename": "é.png"
    }
    with pytest.raises(FakeHTTPError):
        multipart_parts(body, "multipart/form-data")


class CountButton(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:count:(?P<n>\d+)"):
    """A persistent button whose click edits its message to count up."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> CountButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        if interaction.guild is not None:
            view.add_item(PickSelect())
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"demo:pick"):
    """A persistent select; the choice is answered ephemerally."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="demo:pick",
                options=[discord.SelectOption(label=x, value=x) for x in ("red", "green", "blue")],
                max_values=2,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> PickSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = ",".join(self.item.values)
        await interaction.response.send_message(f"picked {chosen}", ephemeral=True)


def make_bot(guild_id: int) -> commands.Bot:
    # A small guild_ready_timeout: on_ready fires that long after the last GUILD_CREATE.
    bot = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        guild_ready_timeout=0.05,
    )
    demo = app_commands.Group(name="demo", description="Demo commands")
    admin = app_commands.Group(name="admin", description="Admin commands", parent=demo)

    @demo.command(name="ping", description="Answer with a counting button")
    async def ping(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(0))
        view.add_item(PickSelect())
        await interaction.response.send_message("pong", view=view)

    @demo.command(name="dm", description="Send a card to someone by DM")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("your hand", file=discord.File(io.BytesIO(PNG), "hand.png"))
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"forbidden {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @demo.command(name="table", description="Open a table with a thread")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("table", file=discord.File(io.BytesIO(PNG), "table.png"))
        # A follow-up WebhookMessage has no guild attached; the original response has.
        msg = await interaction.original_response()
        thread = await msg.create_thread(name="Table 1")
        await thread.send("welcome to the table")
        assert interaction.channel is not None
        partial = interaction.channel.get_partial_message(msg.id)  # type: ignore[union-attr]
        await partial.edit(
            content="table v2", attachments=[discord.File(io.BytesIO(PNG * 2), "table2.png")]
        )

    @admin.command(name="roll", description="Roll some dice")
    @app_commands.describe(sides="Number of sides", count="How many dice")
    @app_commands.choices(
        sides=[app_commands.Choice(name="six", value=6), app_commands.Choice(name="ten", value=10)]
    )
    async def roll(interaction: discord.Interaction, sides: int, count: int = 1) -> None:
        await interaction.response.send_message(f"rolled {count}d{sides} for {interaction.user.id}")

    bot.tree.add_command(demo, guild=discord.Object(guild_id))
    bot.add_dynamic_items(CountButton, PickSelect)
    return bot


@pytest.fixture
async def running_bot(fake_discord: FakeDiscord, guild_id: int):
    bot = make_bot(guild_id)
    task = await start_client(bot)
    await bot.tree.sync(guild=discord.Object(guild_id))
    try:
        yield bot
    finally:
        await stop_client(bot, task)


async def test_bot_connects_and_sees_the_world(fake_discord: FakeDiscord, guild_id, games_channel):
    bot = make_bot(guild_id)
    started = time.monotonic()
    task = await start_client(bot)
    elapsed = time.monotonic() - started
    try:
        assert bot.user is not None and bot.user.id == fake_discord.bot_user_id
        assert bot.application_id == fake_discord.application_id
        guild = bot.get_guild(guild_id)
        assert guild is not None and guild.get_channel(games_channel) is not None
        # Without the members intent only the bot itself is cached; the count is complete.
        assert guild.member_count == 4  # the bot, the owner, Alice and Bob
        assert guild.me is not None
        assert fake_discord.identify_count == 1
        assert elapsed < 5, f"startup took {elapsed:.2f}s"
    finally:
        await stop_client(bot, task)
    assert not fake_discord.unknown_routes
    assert not fake_discord.errors


async def test_commands_sync(fake_discord: FakeDiscord, running_bot, guild_id):
    cmds = fake_discord.commands(guild_id)
    assert [c["name"] for c in cmds] == ["demo"]
    subs = {o["name"]: o["type"] for o in cmds[0]["options"]}
    assert subs == {"ping": 1, "dm": 1, "table": 1, "admin": 2}
    fetched = await running_bot.tree.fetch_commands(guild=discord.Object(guild_id))
    assert fetched[0].id == int(cmds[0]["id"])


async def test_slash_response_and_button_edit(
    fake_discord: FakeDiscord, running_bot, games_channel, alice
):
    inter = await fake_discord.slash(alice, games_channel, "demo ping")
    callback = await inter.wait_response()
    assert callback.type == 4 and not callback.ephemeral
    assert inter.latency is not None and inter.latency >= 0
    msg = fake_discord.last_message(games_channel)
    assert msg is not None and msg.content == "pong" and msg is inter.original
    assert [c["custom_id"] for c in find_components(msg)] == ["demo:count:0", "demo:pick"]

    click = await fake_discord.click(alice, msg, "demo:count:0")
    assert (await click.wait_response()).type == 7
    assert msg.content == "count 1" and msg.edits == 1
    assert find_component(msg, label="Count 1")["custom_id"] == "demo:count:1"
    assert msg.history[0]["content"] == "pong"

    pick = await fake_discord.select(alice, msg, "demo:pick", ["red", "blue"])
    await pick.wait_response()
    answer = pick.original
    assert answer is not None and answer.content == "picked red,blue"
    assert answer.ephemeral and answer.ephemeral_for == alice and answer.flags & EPHEMERAL
    with pytest.raises(LookupError):
        await fake_discord.click(alice, msg, "demo:count:0")  # no longer on the message


async def test_subcommand_group_with_typed_options(
    fake_discord: FakeDiscord, running_bot, games_channel, bob
):
    inter = await fake_discord.slash(bob, games_channel, "demo admin roll", {"sides": "ten"})
    await inter.wait_response()
    assert inter.original is not None
    assert inter.original.content == f"rolled 1d10 for {bob}"
    inter = await fake_discord.slash(
        bob, games_channel, "demo", {"sides": 6, "count": 3}, group="admin", subcommand="roll"
    )
    await inter.wait_response()
    assert inter.original is not None and inter.original.content == f"rolled 3d6 for {bob}"
    with pytest.raises(ValueError):
        await fake_discord.slash(bob, games_channel, "demo admin roll", {"sides": 7})
    with pytest.raises(ValueError):
        await fake_discord.slash(bob, games_channel, "demo admin")


@pytest.mark.expect_refusals("Bob's DMs are closed: the fake refuses the DM with 50007")
async def test_dm_with_image_and_closed_dms(
    fake_discord: FakeDiscord, running_bot, games_channel, alice, bob
):
    inter = await fake_discord.slash(alice, games_channel, "demo dm", {"user": bob})
    await inter.wait_response()
    assert inter.original is not None and inter.original.content == "sent"
    (dm,) = fake_discord.dms(bob)
    assert dm.content == "your hand" and dm.attachments == [("hand.png", PNG)]

    fake_discord.set_dms_open(alice, False)
    inter = await fake_discord.slash(bob, games_channel, "demo dm", {"user": alice})
    await inter.wait_response()
    assert inter.original is not None and inter.original.content == "forbidden 50007"
    assert fake_discord.dms(alice) == []

    user = await running_bot.fetch_user(alice)
    with pytest.raises(discord.Forbidden) as excinfo:
        await user.send("hello")
    assert excinfo.value.code == 50007


async def test_attachment_bytes_are_served(fake_discord: FakeDiscord, running_bot, bob):
    user = await running_bot.fetch_user(bob)
    embed = discord.Embed(title="hand").set_image(url="attachment://card.png")
    sent = await user.send(embed=embed, file=discord.File(io.BytesIO(PNG), "card.png"))
    assert sent.attachments[0].width == 1
    assert await sent.attachments[0].read() == PNG
    # attachment:// is resolved in what Discord returns, kept raw in the record.
    assert sent.embeds[0].image.url == sent.attachments[0].url
    assert fake_discord.dms(bob)[0].embeds[0]["image"]["url"] == "attachment://card.png"


async def test_click_in_a_dm(fake_discord: FakeDiscord, running_bot, bob, alice):
    user = await running_bot.fetch_user(bob)
    view = discord.ui.View(timeout=None)
    view.add_item(CountButton(5))
    await user.send("dm buttons", view=view)
    (msg,) = fake_discord.dms(bob)
    click = await fake_discord.click(bob, msg, label="Count 5")
    await click.wait_response()
    assert "user" in click.payload and "guild_id" not in click.payload
    assert click.payload["context"] == 1
    assert msg.content == "count 6"
    with pytest.raises(ValueError):
        await fake_discord.click(alice, msg, "demo:count:6")  # not Alice's DM


async def test_thread_defer_followup_and_new_attachments(
    fake_discord: FakeDiscord, running_bot, games_channel, alice
):
    inter = await fake_discord.slash(alice, games_channel, "demo table")
    assert (await inter.wait_response()).type == 5
    (thread_id,) = await fake_discord.wait_until(lambda: fake_discord.threads_of(games_channel))
    await fake_discord.wait_until(lambda: fake_discord.messages_in(thread_id))
    table = inter.original
    assert table is not None
    await fake_discord.wait_until(lambda: table.content == "table v2")
    # The follow-up filled the deferred message; the edit replaced its image.
    assert inter.followups == [table] and not table.loading
    assert table.attachments == [("table2.png", PNG * 2)]
    assert thread_id == table.id
    assert fake_discord.channel(thread_id).type == 11
    assert fake_discord.channel(thread_id).parent_id == games_channel
    assert fake_discord.messages_in(thread_id)[0].content == "welcome to the table"
    thread = running_bot.get_channel(thread_id)
    assert isinstance(thread, discord.Thread) and thread.name == "Table 1"


async def test_second_callback_is_refused(
    fake_discord: FakeDiscord, running_bot, games_channel, alice
):
    seen: list[Exception] = []

    async def double(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        try:
            await interaction.response.send_message("two")
        except discord.InteractionResponded as exc:  # discord.py guards locally...
            seen.append(exc)
        adapter_ok = await interaction.followup.send("three", wait=True)
        assert adapter_ok.content == "three"

    running_bot.tree.add_command(
        app_commands.Command(name="double", description="Answer twice", callback=double),
        guild=discord.Object(fake_discord.guild_ids[0]),
    )
    await running_bot.tree.sync(guild=discord.Object(fake_discord.guild_ids[0]))
    inter = await fake_discord.slash(alice, games_channel, "double")
    await fake_discord.wait_until(lambda: inter.followups)
    assert seen and [m.content for m in fake_discord.messages_in(games_channel)] == ["one", "three"]


@pytest.mark.expect_refusals("the test sends components Discord refuses")
async def test_invalid_components_are_refused(
    fake_discord: FakeDiscord, running_bot, games_channel
):
    channel = running_bot.get_channel(games_channel)
    view = discord.ui.View()
    for n in range(6):
        view.add_item(discord.ui.Button(label="x" * 81, custom_id=f"b{n}", row=n % 5))
    with pytest.raises(discord.HTTPException) as excinfo:
        await channel.send("too long labels", view=view)
    assert excinfo.value.status == 400 and excinfo.value.code == 50035
    assert fake_discord.messages_in(games_channel) == []
    # Recorded as Discord would see it: each too-long label named; the test sent it on
    # purpose, so it is taken off the list the teardown checks.
    (violation,) = fake_discord.spec_violations
    assert violation.route == "POST /channels/{cid}/messages"
    assert set(error_fields(violation.errors)) == {
        f"components.{row}.components.{n}.label"
        for row, n in [(0, 0), (0, 1), (1, 0), (2, 0), (3, 0), (4, 0)]
    }
    fake_discord.spec_violations.clear()


async def test_restart_and_resume(fake_discord: FakeDiscord, guild_id, games_channel, alice):
    first = make_bot(guild_id)
    task = await start_client(first)
    await first.tree.sync(guild=discord.Object(guild_id))
    inter = await fake_discord.slash(alice, games_channel, "demo ping")
    await inter.wait_response()
    msg = inter.original
    assert msg is not None
    await stop_client(first, task)

    second = make_bot(guild_id)
    task = await start_client(second)
    try:
        assert fake_discord.identify_count == 2
        # The persistent button of the first instance's message works in the second.
        click = await fake_discord.click(alice, msg, "demo:count:0")
        await click.wait_response()
        assert msg.content == "count 1"

        await fake_discord.drop_connections()
        await fake_discord.wait_until(lambda: fake_discord.resume_count == 1)
        inter = await fake_discord.slash(alice, games_channel, "demo ping")
        await asyncio.wait_for(inter.wait_response(), 5)
    finally:
        await stop_client(second, task)
    assert not fake_discord.unknown_routes and not fake_discord.errors


class NameModal(discord.ui.Modal, title="Name your table"):
    name = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table {self.name.value}", ephemeral=True)


async def test_modal_ephemeral_file_and_original_edit(
    fake_discord: FakeDiscord, running_bot, games_channel, alice
):
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "your hand", file=discord.File(io.BytesIO(PNG), "hand.png"), ephemeral=True
        )
        await interaction.edit_original_response(
            content="your new hand",
            attachments=[discord.File(io.BytesIO(PNG * 3), "hand2.png")],
        )

    guild = discord.Object(fake_discord.guild_ids[0])
    for name, callback in (("rename", rename), ("hand", hand)):
        running_bot.tree.add_command(
            app_commands.Command(name=name, description=name, callback=callback), guild=guild
        )
    await running_bot.tree.sync(guild=guild)

    opened = await fake_discord.slash(alice, games_channel, "rename")
    assert (await opened.wait_response()).type == 9
    assert opened.modal is not None and opened.modal["title"] == "Name your table"
    submitted = await fake_discord.submit_modal(alice, opened, {"demo:name": "Plum"})
    await submitted.wait_response()
    assert submitted.original is not None and submitted.original.content == "table Plum"
    assert submitted.original.ephemeral

    inter = await fake_discord.slash(alice, games_channel, "hand")
    callback = await inter.wait_response()
    assert callback.ephemeral and callback.files == [("hand.png", PNG)]
    await fake_discord.wait_until(lambda: inter.original_edits == 1)
    assert inter.original is not None and inter.original.content == "your new hand"
    assert inter.original.attachments == [("hand2.png", PNG * 3)]


@pytest.mark.expect_refusals("the test answers an interaction twice, and one too late")
async def test_fake_refuses_second_and_late_callbacks(
    fake_discord: FakeDiscord, running_bot, games_channel, alice
):
    inter = await fake_discord.slash(alice, games_channel, "demo ping")
    await inter.wait_response()
    url = f"{fake_discord.api_base}/interactions/{inter.id}/{inter.token}/callback"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060
    assert [e.code for e in inter.rejected_callbacks] == [40060]

    fake_discord.interaction_deadline = 0.0  # every answer is now too late
    late = await fake_discord.slash(alice, games_channel, "demo ping")
    await fake_discord.wait_until(lambda: late.rejected_callbacks)
    assert late.callback is None and late.rejected_callbacks[0].code == 10062
