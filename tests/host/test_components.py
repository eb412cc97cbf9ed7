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
