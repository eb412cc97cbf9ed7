"""Every view of every game is what its game's ``TypedDict`` declares.

Seeded whole matches of each game (random legal actions, out-of-turn ones too, from
``tests/engine/random_states``): at every step, each seat's view and the spectator's are
checked at run time against the game's view type (``typing.get_type_hints``): every key
is declared, every required key present, every value (nested ones too) of its type.
"""

from __future__ import annotations

import functools
import random
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from bot.engine.view import TableView
from bot.games import game_spec
from bot.games.koikoi.views import KoiKoiView
from bot.games.mahjong.views import MahjongView
from bot.games.mushi.views import MushiView
from bot.games.panda.views import PandaView
from bot.games.sandayi.views import SanDaYiView
from tests.engine.random_states import NAMES, random_step

#: Each game's view type, and options that keep a whole match short (and reach its rarer
#: phases: Mushi's four-of-a-kind cancel, Mah-Jongg's penalties).
GAMES: dict[str, tuple[Any, list[dict[str, Any]]]] = {
    "koikoi": (KoiKoiView, [{"rounds": 6}]),
    "mushi": (
        MushiView,
        [{"hands": 6, "four_of_a_kind_cancel": True, "bottom_wild_takes_rain": True}],
    ),
    "panda": (PandaView, [{"target": 100}, {"target": 100, "free_first_lead": True}]),
    "sandayi": (SanDaYiView, [{"hands": 3}]),
    "mahjong": (MahjongView, [{"max_hands": 3}, {"max_hands": 3, "strict": True}]),
}
SEEDS = (1, 2)


@functools.cache
def _hints(tp: Any) -> dict[str, Any]:
    return get_type_hints(tp)


def mismatches(value: object, tp: Any, where: str) -> list[str]:
    """What in ``value`` does not fit the type ``tp`` (empty: it fits)."""
    if tp is Any or tp is object:
        return []
    if tp is None or tp is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        tries = [mismatches(value, arm, where) for arm in get_args(tp)]
        return [] if any(not t for t in tries) else [f"{where}: {value!r} fits none of {tp}"]
    if origin is Literal:
        return [] if value in get_args(tp) else [f"{where}: {value!r} not in {tp}"]
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a dict ({tp.__name__})"]
        hints = _hints(tp)
        out = [f"{where}.{k}: not declared in {tp.__name__}" for k in value if k not in hints]
        out += [f"{where}.{k}: missing" for k in tp.__required_keys__ if k not in value]
        for k, v in value.items():
            if k in hints:
                out += mismatches(v, hints[k], f"{where}.{k}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        (arg,) = get_args(tp)
        return [m for i, x in enumerate(value) for m in mismatches(x, arg, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a dict"]
        key, arg = get_args(tp)
        return [
            m
            for k, x in value.items()
            for m in [*mismatches(k, key, f"{where} key"), *mismatches(x, arg, f"{where}[{k!r}]")]
        ]
    if tp is bool:
        return [] if type(value) is bool else [f"{where}: {value!r} is not a bool"]
    if tp is int:
        return [] if type(value) is int else [f"{where}: {value!r} is not an int"]
    if tp is float:  # (as for the type checker, an int is a float)
        ok = type(value) in (int, float)
        return [] if ok else [f"{where}: {value!r} is not a number"]
    if isinstance(tp, type):
        return [] if isinstance(value, tp) else [f"{where}: {value!r} is not a {tp.__name__}"]
    raise TypeError(f"{where}: the check does not know the type {tp!r}")


def test_the_check_finds_what_does_not_fit() -> None:
    view = {
        "game": "x",
        "seat": None,
        "players": ["Ann"],
        "version": 0,
        "to_act": [0],
        "may_act": [],
        "scores": [0],
        "is_over": False,
    }
    assert mismatches(view, TableView, "view") == []
    assert mismatches({**view, "extra": 1}, TableView, "view") == [
        "view.extra: not declared in TableView"
    ]
    assert mismatches({k: v for k, v in view.items() if k != "seat"}, TableView, "v") == [
        "v.seat: missing"
    ]
    assert mismatches({**view, "to_act": [True]}, TableView, "v") == [
        "v.to_act[0]: True is not an int"
    ]
    assert mismatches({**view, "seat": "0"}, TableView, "v")


def test_every_view_type_extends_the_tables() -> None:
    for game, (view_type, _) in GAMES.items():
        hints = get_type_hints(view_type)
        assert get_type_hints(TableView).items() <= hints.items(), game
        assert TableView.__required_keys__ <= view_type.__required_keys__, game


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_view_of_whole_matches_fits_the_games_type(game: str) -> None:
    view_type, options = GAMES[game]
    spec = game_spec(game)
    seen: set[str] = set()
    for opts in options:
        for seed in SEEDS:
            state = spec.new_game(seed, NAMES[: spec.seats], opts)
            rng = random.Random(seed)
            steps = 0
            while True:
                for seat in (None, *range(spec.seats)):
                    view = state.view(seat)
                    seen.update(view)
                    problems = mismatches(view, view_type, f"{game} seed {seed} seat {seat}")
                    assert not problems, "\n".join(problems[:10])
                if state.is_over:
                    break
                assert random_step(state, rng), f"{game} seed {seed}: nobody can act"
                steps += 1
                assert steps < 20_000, f"{game} seed {seed}: the match does not end"
    # every declared key was seen in some view (a key no view carries is declared wrongly)
    assert set(get_type_hints(view_type)) <= seen


def test_the_checked_types_are_the_games_own() -> None:
    """The view type each game's state narrows ``view`` to is the one checked here."""
    for game, (view_type, _) in GAMES.items():
        state = game_spec(game).new_game(1, NAMES[: game_spec(game).seats], None)
        assert typing.get_type_hints(type(state).view)["return"] is view_type, game


def test_views_are_plain_mappings() -> None:
    state = game_spec("koikoi").new_game(1, NAMES[:2], None)
    assert isinstance(state.view(0), Mapping)
