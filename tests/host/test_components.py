"""Views the host sends: once released they are freed without the garbage collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.engine.ui import Button, Controls, Option, Select
from bot.host.components import controls_view, release_view, table_view

CONTROLS = Controls(
    "Your move",
    (
        (Button("Draw", "draw"), Button("Pass", "pass", "primary")),
        Select("play", "Play a card", (Option("1m", "1m"), Option("2m", "2m")), max_values=2),
    ),
)


@pytest.fixture
def no_collector() -> Iterator[None]:
    """Only reference counting frees objects meanwhile."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _refs(view: object) -> list[weakref.ref[object]]:
    return [weakref.ref(view)] + [weakref.ref(item) for item in view.children]  # type: ignore[attr-defined]


@pytest.mark.usefixtures("no_collector")
@pytest.mark.parametrize("kind", ["controls", "table"])
def test_a_released_view_is_freed_as_soon_as_it_is_dropped(kind: str) -> None:
    view = controls_view(7, 1, 12, CONTROLS, hint=True) if kind == "controls" else table_view(7)
    assert view.to_components()  # as when it is sent
    refs = _refs(view)
    release_view(view)
    del view
    assert all(ref() is None for ref in refs)


@pytest.mark.usefixtures("no_collector")
def test_an_unreleased_view_waits_for_the_collector() -> None:
    """Why views are released: a view and its items refer to each other."""
    view = controls_view(7, 1, 12, CONTROLS, hint=True)
    refs = _refs(view)
    del view
    assert all(ref() is not None for ref in refs)
    gc.collect()
    assert all(ref() is None for ref in refs)


def test_releasing_nothing_does_nothing() -> None:
    release_view(None)


@pytest.mark.asyncio  # (as in the bot: a modal stops only inside a running loop)
async def test_a_form_is_a_button_and_a_modal_within_discords_limits() -> None:
    """A form is one button on the message; its modal holds one required select a question
    (labels clipped to 45 characters), is not kept by discord.py (its submission is routed
    by custom id) and its answers come back keyed by question, in order."""
    from bot.engine.ui import Field, Form
    from bot.host.components import FORM_ID, form_answers, form_modal

    cards = tuple(Option(f"card {i}", f"c{i}") for i in range(15))
    form = Form(
        "Choose the cards to pass",
        "give",
        "Pass three cards",
        tuple(Field(key, f"Card for {'N' * 60}", cards, "Who") for key in ("left", "right")),
    )
    view = controls_view(7, 2, 40, Controls("Pass", (form, (Button("Call", "call"),))))
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == ["th:f:7:2:40:give", "th:a:7:2:40:call"]
    modal = form_modal(7, 2, 40, form)
    assert modal.is_finished()  # discord.py does not keep it: routed by its custom id
    data = modal.to_dict()
    assert FORM_ID.fullmatch(data["custom_id"])["verb"] == "give"
    labels = data["components"]
    assert [c["type"] for c in labels] == [18, 18]
    assert all(len(c["label"]) == 45 and c["description"] == "Who" for c in labels)
    selects = [c["component"] for c in labels]
    assert [s["custom_id"] for s in selects] == ["left", "right"]
    assert all(s["required"] and s["min_values"] == s["max_values"] == 1 for s in selects)
    assert all(len(s["options"]) == 15 for s in selects)
    submitted = {
        "custom_id": data["custom_id"],
        "components": [
            {"type": 18, "component": {"type": 3, "custom_id": "left", "values": ["c3"]}},
            {"type": 18, "component": {"type": 3, "custom_id": "right", "values": ["c9"]}},
        ],
    }
    assert form_answers(submitted) == {"left": "c3", "right": "c9"}
    assert form.code_for(form_answers(submitted)) == "give left c3 right c9"
