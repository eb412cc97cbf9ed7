"""Persistent components: every custom id carries what the click needs (table, seat, version).

The classes are ``DynamicItem`` s registered once at start, so buttons keep working after a
restart without keeping any view in memory. Their callbacks hand the click to the
:class:`~bot.host.manager.TableHost` on the bot.

Labels, placeholders and option texts are said in the ``locale`` a view is built for (the
table's on the table message and the lobby, the player's in their DMs); custom ids never
depend on it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Awaitable, Sequence
from typing import Any, Protocol

import discord

from bot.engine.ui import MAX_FORM_LABEL, Button, Controls, Field, Form, Option, Select
from bot.i18n import DEFAULT_LOCALE, Text, localize

log = logging.getLogger(__name__)

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

LOBBY_ACTIONS = ("join", "leave", "ai", "start", "cancel")


class ComponentHost(Protocol):
    """What the components hand a click to (:class:`~bot.host.manager.TableHost`), named
    here so this module need not import the host that imports it."""

    def on_action(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, code: str
    ) -> Awaitable[None]: ...
    def on_form(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, verb: str
    ) -> Awaitable[None]: ...
    def on_lobby(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str = ...
    ) -> Awaitable[None]: ...
    def on_show_hand(self, interaction: discord.Interaction, table_id: int) -> Awaitable[None]: ...
    def on_reclaim(
        self, interaction: discord.Interaction, table_id: int, seat: int
    ) -> Awaitable[None]: ...
    def on_hint(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: int,
        version: int,
        *,
        confirmed: bool,
    ) -> Awaitable[None]: ...
    def on_spectate(
        self, interaction: discord.Interaction, table_id: int, *, refresh: bool
    ) -> Awaitable[None]: ...
    async def guarded(
        self,
        interaction: discord.Interaction,
        what: str,
        table_id: int | None,
        work: Any,
        *,
        view: discord.ui.View | discord.ui.LayoutView | None = None,
    ) -> None: ...


def _host(interaction: discord.Interaction) -> ComponentHost:
    host: ComponentHost = interaction.client.host  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
    return host


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"th:a:(?P<table>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<code>.+)",
):
    """A button that applies one action code for one seat at one state version."""

    def __init__(
        self, table: int, seat: int, version: int, code: str, label: str = "", style: str = ""
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or code,
                style=_STYLES.get(style, discord.ButtonStyle.secondary),
                custom_id=f"th:a:{table}:{seat}:{version}:{code}",
            )
        )
        self.table, self.seat, self.version, self.code = table, seat, version, code

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["table"]), int(match["seat"]), int(match["version"]), match["code"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_action(interaction, self.table, self.seat, self.version, self.code)
        await host.guarded(interaction, "action button", self.table, work, view=self.view)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"th:s:(?P<table>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<verb>[^:]*)",
):
    """A select whose chosen values, after the verb, make the action code."""

    def __init__(
        self, table: int, seat: int, version: int, spec: Select | None = None, verb: str = ""
    ) -> None:
        verb = spec.verb if spec is not None else verb
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"th:s:{table}:{seat}:{version}:{verb}",
            placeholder=spec.placeholder[:150] if spec else None,
            min_values=spec.min_values if spec else 1,
            max_values=spec.max_values if spec else 1,
            options=[
                discord.SelectOption(
                    label=o.label[:100], value=o.value, description=(o.description or None)
                )
                for o in spec.options
            ]
            if spec
            else [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.table, self.seat, self.version, self.verb, self.spec = table, seat, version, verb, spec

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        return cls(
            int(match["table"]), int(match["seat"]), int(match["version"]), verb=match["verb"]
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        # The message's own option order is the canonical order of the values.
        order = _option_order(interaction)
        values.sort(key=lambda v: order.get(v, len(order)))
        code = " ".join([self.verb, *values]) if self.verb else " ".join(values)
        host = _host(interaction)
        work = host.on_action(interaction, self.table, self.seat, self.version, code)
        await host.guarded(interaction, "action select", self.table, work, view=self.view)


def _option_order(interaction: discord.Interaction) -> dict[str, int]:
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    message = interaction.message
    if message is None:
        return {}
    for row in message.components:
        for child in getattr(row, "children", []):
            if getattr(child, "custom_id", None) == custom_id:
                return {o.value: i for i, o in enumerate(getattr(child, "options", []))}
    return {}


class FormButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"th:f:(?P<table>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<verb>[^:]*)",
):
    """A button that opens a form (a modal) of several choices made together; the form,
    once sent, makes one action code (see :class:`~bot.engine.ui.Form`)."""

    def __init__(
        self, table: int, seat: int, version: int, verb: str, label: str = "", style: str = ""
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=_STYLES.get(style, discord.ButtonStyle.primary),
                custom_id=f"th:f:{table}:{seat}:{version}:{verb}",
            )
        )
        self.table, self.seat, self.version, self.verb = table, seat, version, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormButton:
        return cls(int(match["table"]), int(match["seat"]), int(match["version"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_form(interaction, self.table, self.seat, self.version, self.verb)
        await host.guarded(interaction, "form button", self.table, work, view=self.view)


#: A submitted form: ``th:m:<table>:<seat>:<version>:<verb>``. Not a ``DynamicItem`` (a
#: modal is no component of a message): the bot's ``on_interaction`` routes its submission,
#: whichever process and run of the bot opened it.
FORM_ID = re.compile(r"th:m:(?P<table>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<verb>[^:]*)")


def form_modal(
    table: int, seat: int, version: int, form: Form, locale: str = DEFAULT_LOCALE
) -> discord.ui.Modal:
    """The modal of ``form``, said in ``locale``: one required select a question (its
    ``custom_id`` the question's key). It is not kept by discord.py (stopped before it is
    sent): its submission is routed by its custom id (:data:`FORM_ID`), so a form opened
    before a restart can still be sent."""
    form = _localized_form(form, locale)
    modal = discord.ui.Modal(
        title=form.title[:MAX_FORM_LABEL], custom_id=f"th:m:{table}:{seat}:{version}:{form.verb}"
    )
    for f in form.fields[:5]:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f.key,
            min_values=1,
            max_values=1,
            required=True,
            options=[
                discord.SelectOption(
                    label=o.label[:100], value=o.value, description=(o.description or None)
                )
                for o in f.options[:25]
            ],
        )
        modal.add_item(
            discord.ui.Label(
                text=f.label[:MAX_FORM_LABEL],
                description=f.description[:100] if f.description else None,
                component=select,
            )
        )
    modal.stop()
    return modal


def form_answers(data: Any) -> dict[str, str]:
    """``{question key: chosen value}`` from a submitted modal's data (its labels, or action
    rows, hold the selects)."""
    answers: dict[str, str] = {}

    def visit(component: Any) -> None:
        if not isinstance(component, dict):
            return
        if "component" in component:
            visit(component["component"])
        for child in component.get("components") or []:
            visit(child)
        values = component.get("values")
        if component.get("custom_id") and isinstance(values, list) and values:
            answers[str(component["custom_id"])] = str(values[0])

    for component in (data or {}).get("components") or []:
        visit(component)
    return answers


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"th:l:(?P<table>\d+):(?P<action>join|leave|ai|start|cancel)",
):
    LABELS = {
        "join": Text("Join", context="lobby"),
        "leave": Text("Leave", context="lobby"),
        "ai": Text("Add AI"),
        "start": Text("Start", context="lobby"),
        "cancel": Text("Cancel", context="lobby"),
    }
    STYLES = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "ai": discord.ButtonStyle.primary,
        "start": discord.ButtonStyle.success,
        "cancel": discord.ButtonStyle.danger,
    }

    def __init__(
        self, table: int, action: str, disabled: bool = False, locale: str = DEFAULT_LOCALE
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=localize(locale, self.LABELS[action]),
                style=self.STYLES[action],
                custom_id=f"th:l:{table}:{action}",
                disabled=disabled,
            )
        )
        self.table, self.action = table, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_lobby(interaction, self.table, self.action)
        await host.guarded(interaction, f"lobby {self.action}", self.table, work, view=self.view)


class LobbyAISelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"th:la:(?P<table>\d+)"
):
    """The lobby's second row: add an AI player of a chosen level (games with levels)."""

    LABELS = {
        "easy": Text("Easy AI"),
        "normal": Text("Normal AI"),
        "strong": Text("Strong AI"),
    }
    DESCRIPTIONS = {
        "easy": Text("Makes a beginner's mistakes"),
        "normal": Text("Plays soundly; hints show its choice"),
        "strong": Text("Thinks ahead; takes a moment per move"),
    }

    def __init__(
        self, table: int, levels: Sequence[str] = (), locale: str = DEFAULT_LOCALE
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:la:{table}",
                placeholder=localize(locale, Text("Add an AI player of a level…")),
                options=[
                    discord.SelectOption(
                        label=localize(locale, self.LABELS[level]),
                        value=level,
                        description=localize(locale, self.DESCRIPTIONS[level]),
                    )
                    for level in levels
                    if level in self.LABELS
                ]
                or [discord.SelectOption(label="-", value="-")],
            ),
            row=1,
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyAISelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        level = (list(self.item.values) or [""])[0]
        work = host.on_lobby(interaction, self.table, "ai", level=level)
        await host.guarded(interaction, "lobby ai level", self.table, work, view=self.view)


class ShowHandButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"th:h:(?P<table>\d+)"
):
    """On the table message: answers a seated player ephemerally with their hand and controls."""

    def __init__(self, table: int, locale: str = DEFAULT_LOCALE) -> None:
        super().__init__(
            discord.ui.Button(
                label=localize(locale, Text("Show my hand")),
                emoji="🂠",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:h:{table}",
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowHandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_show_hand(interaction, self.table)
        await host.guarded(interaction, "show hand", self.table, work, view=self.view)


class ReclaimButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"th:r:(?P<table>\d+):(?P<seat>\d+)",
):
    """In the DM of a player whose seat an AI took over after timeouts: play again."""

    def __init__(self, table: int, seat: int, locale: str = DEFAULT_LOCALE) -> None:
        super().__init__(
            discord.ui.Button(
                label=localize(locale, Text("I'm back — let me play")),
                style=discord.ButtonStyle.success,
                custom_id=f"th:r:{table}:{seat}",
            )
        )
        self.table, self.seat = table, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReclaimButton:
        return cls(int(match["table"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_reclaim(interaction, self.table, self.seat)
        await host.guarded(interaction, "reclaim", self.table, work, view=self.view)


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"th:i:(?P<table>\d+):(?P<seat>\d+):(?P<version>\d+)(?::(?P<ok>ok))?",
):
    """Next to a seat's controls when the table offers hints: what the AI would play, shown
    privately. ``ok``: the player agreed that a hint makes the match unrated."""

    def __init__(
        self, table: int, seat: int, version: int, ok: bool = False, locale: str = DEFAULT_LOCALE
    ) -> None:
        # The button says that a hint makes the match unrated: one click shows the hint.
        label = Text("Show the hint") if ok else Text("Hint (unrated)", context="button")
        super().__init__(
            discord.ui.Button(
                label=localize(locale, label),
                emoji="💡",
                style=discord.ButtonStyle.primary if ok else discord.ButtonStyle.secondary,
                custom_id=f"th:i:{table}:{seat}:{version}" + (":ok" if ok else ""),
            )
        )
        self.table, self.seat, self.version, self.ok = table, seat, version, ok

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HintButton:
        return cls(
            int(match["table"]), int(match["seat"]), int(match["version"]), bool(match["ok"])
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_hint(interaction, self.table, self.seat, self.version, confirmed=self.ok)
        await host.guarded(interaction, "hint", self.table, work, view=self.view)


class SpectateButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"th:v:(?P<table>\d+)(?::(?P<refresh>r))?",
):
    """On the table message (Spectate) and on the spectator view itself (Refresh): the
    public table, privately, as it is now."""

    def __init__(self, table: int, refresh: bool = False, locale: str = DEFAULT_LOCALE) -> None:
        label = Text("Refresh", context="button") if refresh else Text("Spectate")
        super().__init__(
            discord.ui.Button(
                label=localize(locale, label),
                emoji="🔄" if refresh else "👀",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:v:{table}" + (":r" if refresh else ""),
            )
        )
        self.table, self.refresh = table, refresh

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SpectateButton:
        return cls(int(match["table"]), bool(match["refresh"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        work = host.on_spectate(interaction, self.table, refresh=self.refresh)
        await host.guarded(interaction, "spectate", self.table, work, view=self.view)


ALL_DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton,
    ActionSelect,
    FormButton,
    LobbyButton,
    LobbyAISelect,
    ShowHandButton,
    ReclaimButton,
    HintButton,
    SpectateButton,
)


def matches_a_component(custom_id: str) -> bool:
    """Whether a custom id is one of ours (it matches a dynamic item's template)."""
    return any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in ALL_DYNAMIC_ITEMS
    )


def localized_controls(controls: Controls, locale: str) -> Controls:
    """The controls with their prompt, labels, placeholders and option texts said in
    ``locale`` (codes and values unchanged)."""
    if locale == DEFAULT_LOCALE:
        return controls
    rows: list[tuple[Button, ...] | Select | Form] = []
    for row in controls.rows:
        if isinstance(row, Form):
            rows.append(_localized_form(row, locale))
        elif isinstance(row, Select):
            rows.append(
                dataclasses.replace(
                    row,
                    placeholder=localize(locale, row.placeholder),
                    options=tuple(
                        Option(
                            localize(locale, o.label),
                            o.value,
                            localize(locale, o.description) if o.description else o.description,
                        )
                        for o in row.options
                    ),
                )
            )
        else:
            rows.append(tuple(dataclasses.replace(b, label=localize(locale, b.label)) for b in row))
    return Controls(prompt=localize(locale, controls.prompt), rows=tuple(rows))


def _localized_form(form: Form, locale: str) -> Form:
    if locale == DEFAULT_LOCALE:
        return form
    return dataclasses.replace(
        form,
        label=localize(locale, form.label),
        title=localize(locale, form.title),
        fields=tuple(
            Field(
                f.key,
                localize(locale, f.label),
                tuple(
                    Option(
                        localize(locale, o.label),
                        o.value,
                        localize(locale, o.description) if o.description else None,
                    )
                    for o in f.options
                ),
                localize(locale, f.description) if f.description else None,
            )
            for f in form.fields
        ),
    )


def controls_view(
    table: int,
    seat: int,
    version: int,
    controls: Controls,
    *,
    hint: bool = False,
    locale: str = DEFAULT_LOCALE,
) -> discord.ui.View:
    """The Discord view for a seat's controls, stamped with the prompt version, said in
    ``locale``; with ``hint``, a Hint button too (in a row of its own, or the first button
    row with room)."""
    view = discord.ui.View(timeout=None)
    rows = localized_controls(controls, locale).rows[:5]
    for row_index, row in enumerate(rows):
        if isinstance(row, Form):
            opener = FormButton(table, seat, version, row.verb, row.label[:80], row.style)
            opener.row = row_index
            view.add_item(opener)
            continue
        if isinstance(row, Select):
            item: discord.ui.Item[Any] = ActionSelect(table, seat, version, row)
            item.row = row_index
            view.add_item(item)
            continue
        for button in row[:5]:
            view.add_item(_action_button(table, seat, version, button, row_index))
    if hint and rows:
        free = len(rows) if len(rows) < 5 else None
        if free is None:
            free = next(
                (i for i, r in enumerate(rows) if isinstance(r, tuple) and len(r) < 5), None
            )
        if free is not None:
            hint_button = HintButton(table, seat, version, locale=locale)
            hint_button.row = free
            view.add_item(hint_button)
    return view


def release_view(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Unlink a view that has been sent from its items. A view and its items refer to each
    other, so left alone every view built for a DM or a table edit (hundreds a second at
    1,000 tables) lives on until a full garbage collection, and each such collection is a
    pause that grows with the tables; unlinked, it is freed as soon as it is dropped."""
    if view is not None:
        view.clear_items()


def _action_button(table: int, seat: int, version: int, button: Button, row: int) -> ActionButton:
    item = ActionButton(table, seat, version, button.code, button.label[:80], button.style)
    if button.emoji:
        item.item.emoji = button.emoji
    item.row = row
    return item


def lobby_view(
    table: int,
    *,
    closed: bool = False,
    locale: str = DEFAULT_LOCALE,
    levels: Sequence[str] = (),
) -> discord.ui.View:
    """The lobby's buttons; with the game's AI ``levels`` (more than one), an open lobby
    also gets a select on a second row to add an AI of a chosen level (Add AI: normal)."""
    view = discord.ui.View(timeout=None)
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(table, action, disabled=closed, locale=locale))
    if not closed and len(levels) > 1:
        view.add_item(LobbyAISelect(table, levels, locale))
    return view


def reclaim_view(table: int, seat: int, locale: str = DEFAULT_LOCALE) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReclaimButton(table, seat, locale))
    return view


def table_view(table: int, locale: str = DEFAULT_LOCALE) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(table, locale))
    view.add_item(SpectateButton(table, locale=locale))
    return view


def spectator_view(table: int, locale: str = DEFAULT_LOCALE) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SpectateButton(table, refresh=True, locale=locale))
    return view
