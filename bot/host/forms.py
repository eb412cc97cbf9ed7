"""Form buttons answered at once on any process (issue 31).

A button that opens a form (Panda's pass-cards form) must be answered with the modal itself:
a modal is only ever a click's *first* answer, so it cannot be deferred, and Discord gives
3 s. The modal lists the player's cards, so it needs the table's state — and every DM click
arrives at shard 0's process, which drives only its own guilds' tables: for the others it
loaded the table from the log and replayed it before it could answer, which at the opening
burst of 300 tables took longer than 3 s (67 "interaction failed" in the 2-process bench).

So the process driving a table writes each seat's decision with forms (the forms as the
seat's DM shows them, in the seat's language, and the prompt version its controls carry)
to the store when the decision begins (``dm_forms``, migration 0009; one row per seat,
replaced by its next form decision, deleted when its decision has none). A process that
does not drive the table answers the form button from that row — one read, no load, no
replay — when it is clearly current: the table is running, the clicker is the seat's player
and no AI plays it, the seat has made no move since the row's version (read from the log in
the same statement), and the clicked version lies between the row's and the log's. Anything
else (no row, a doubt) is judged as before, by the table itself, so stale controls are
refused exactly as they were. The form's submission is an ordinary click (checked against
the table, applied, logged with its token: ``bot.host.clicks``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import discord

from bot.engine.ui import Field, Form, Option
from bot.host.components import form_modal, localized_controls
from bot.host.table import Seat, Table
from bot.store import SharedForms, Store

log = logging.getLogger(__name__)


def forms_json(table: Table, seat: int, locale: str) -> str | None:
    """The forms of the seat's current controls, said in ``locale``, as JSON (None: the
    seat is asked nothing, or its controls hold no form)."""
    if not table.asked(seat):
        return None
    controls = table.controls_for(seat)
    if not any(isinstance(row, Form) for row in controls.rows):
        return None  # (most decisions: nothing to say in the seat's language)
    forms = [row for row in localized_controls(controls, locale).rows if isinstance(row, Form)]
    return json.dumps([_form_dict(form) for form in forms], ensure_ascii=False)


def _form_dict(form: Form) -> dict[str, Any]:
    return {
        "label": str(form.label),
        "verb": form.verb,
        "title": str(form.title),
        "style": form.style,
        "fields": [
            {
                "key": f.key,
                "label": str(f.label),
                "description": None if f.description is None else str(f.description),
                "options": [
                    [str(o.label), o.value, None if o.description is None else str(o.description)]
                    for o in f.options
                ],
            }
            for f in form.fields
        ],
    }


def form_of(forms: str, verb: str) -> Form | None:
    """The form ``verb`` of forms as :func:`forms_json` wrote them (None: not there)."""
    for data in json.loads(forms):
        if data["verb"] == verb:
            return Form(
                label=data["label"],
                verb=data["verb"],
                title=data["title"],
                style=data["style"],
                fields=tuple(
                    Field(
                        f["key"],
                        f["label"],
                        tuple(Option(label, value, desc) for label, value, desc in f["options"]),
                        f["description"],
                    )
                    for f in data["fields"]
                ),
            )
    return None


async def share_forms(store: Store, table: Table, seat: Seat, locale: str) -> None:
    """Keep the seat's row of ``dm_forms`` as its controls are now (the driving process,
    under the table's lock, before the seat's DM goes out): written when its decision has
    forms and was not written yet, deleted when it has none and one was written here. A
    write that fails is logged and left: the form's button is then answered by loading the
    table, as before."""
    prompt = table.prompts.get(seat.seat)
    forms = None
    if prompt is not None and not seat.played_by_ai and seat.user_id is not None:
        forms = forms_json(table, seat.seat, locale)
    if forms is None:
        if seat.forms_shared is None:
            return  # (most decisions: nothing to write)
        version = None
    else:
        assert prompt is not None
        version = prompt.version
        if seat.forms_shared == (version, locale):
            return
    try:
        if version is None or forms is None:
            await store.unshare_forms(table.id, seat.seat)
            seat.forms_shared = None
        else:
            await store.share_forms(table.id, seat.seat, version, forms)
            seat.forms_shared = (version, locale)
    except Exception as e:
        log.warning("table %s: sharing the forms of seat %s failed: %r", table.id, seat.seat, e)


async def answer_from_shared_form(
    store: Store,
    interaction: discord.Interaction,
    table_id: int,
    seat: int,
    version: int,
    verb: str,
) -> bool:
    """Answer a form button of a table this process does not drive with its modal, from
    the form the driving process shared (see the module's text): True if answered. False
    (nothing answered) if there is none or anything is in doubt: the caller judges the
    click by the table, as before."""
    try:
        shared = await store.dm_forms(table_id, seat)
    except Exception as e:  # the table is loaded instead (which needs the store too)
        log.warning("table %s: reading the forms of seat %s failed: %r", table_id, seat, e)
        return False
    form = current_form(shared, interaction.user.id, interaction.guild_id, version, verb)
    if form is None:
        return False
    # (said in the seat's language as its DM is: DEFAULT_LOCALE leaves it as it is)
    await interaction.response.send_modal(form_modal(table_id, seat, version, form))
    return True


def current_form(
    shared: SharedForms | None, user_id: int, guild_id: int | None, version: int, verb: str
) -> Form | None:
    """The form ``verb`` of ``shared`` if a click of ``user_id`` on controls of ``version``
    is clearly current for it (see the module's text); None otherwise."""
    if (
        shared is None
        or not shared.active
        or shared.user_id != user_id
        or shared.ai_takeover
        or shared.acted
        or not shared.version <= version <= shared.log_version
        or (guild_id is not None and guild_id != shared.guild_id)
    ):
        return None
    return form_of(shared.forms, verb)
