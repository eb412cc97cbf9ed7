"""Seeded random-deal soak: many deals per game, played through the controls people get.

Not part of the default run (``-m "not soak"`` in pyproject.toml); run it with::

    .venv/bin/python -m pytest -m soak -p no:cacheprovider          # 20 seeds a game
    TEAHOUSE_SOAK_SEEDS=100 TEAHOUSE_SOAK_BASE=night2 .venv/bin/python -m pytest -m soak

Two layers:

* ``test_seeded_match_through_the_controls`` (many seeds): engine-level, no Discord. Each
  decision of a human seat is made like the e2e players make it: the game's controls are
  turned into the very components the host sends (``controls_view``), the click helper picks
  a control, and the code that control produces is applied. AI seats move as the host's
  driver moves them (their own decisions, then optional out-of-turn acts). This is where
  the many random deals go: it is fast (no rendering, no gateway) and exercises exactly
  what failed once — a legal action the controls could not reach.
* ``test_seeded_match_over_fake_discord`` (a few seeds): the same, through the real bot
  and the fake Discord, for what only the host does (DMs, versions, batching).

Every failure names its seed and base; ``TEAHOUSE_SOAK_BASE=<base> pytest -m soak -k
"<game> and seed<i>"`` replays it exactly.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from bot.engine.ui import default_controls
from bot.games import GAME_NAMES, game_module, game_spec
from bot.host.components import controls_view
from bot.host.manager import derived_seed
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import RunningBot, control_moves, settings_for, state_checks
from tests.e2e.test_games_e2e import match_of, play_whole_match

pytestmark = [pytest.mark.soak, pytest.mark.asyncio]

BASE = os.environ.get("TEAHOUSE_SOAK_BASE", "soak")
SEEDS = int(os.environ.get("TEAHOUSE_SOAK_SEEDS", "20"))
E2E_SEEDS = int(os.environ.get("TEAHOUSE_SOAK_E2E_SEEDS", "3"))

# Mostly short matches, so many deals fit, and one full-length one; seed i plays variant
# i mod the number of variants.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "koikoi": [{"rounds": 6}, {}],
    "mushi": [{"hands": 6}, {"hands": 6, "four_of_a_kind_cancel": True}, {}],
    "panda": [
        {"target": 300},
        {"target": 300, "wish": False, "free_first_lead": True},
        {"target": 300, "kingdom_ends_hand": True},
        {},
    ],
    "sandayi": [{"hands": 2}, {"hands": 2, "fixed_minimums": True}, {"hands": 4}],
    "mahjong": [
        {"max_hands": 2},
        {"max_hands": 2, "game": "extended"},
        {"max_hands": 2, "strict": True},
        {"max_hands": 4},
    ],
}
MAX_STEPS = 20000


def _options(game: str, index: int) -> dict[str, Any]:
    module = game_module(game)
    fields = set(getattr(module.OPTIONS, "__dataclass_fields__", {}))
    variants = [v for v in VARIANTS[game] if set(v) <= fields] or [{}]
    return variants[index % len(variants)]


def _controls(module, state, seat: int):
    view, legal = state.view(seat), state.legal_actions(seat)
    make = getattr(module, "controls", None)
    return make(view, legal) if make else default_controls("Your move:", legal, module.describe)


def _click(module, state, seat: int, rng: random.Random) -> str:
    """The code a person produces by clicking one of the seat's controls at random (only
    controls that make a legal move; never a Panda call, which can stall a match)."""
    controls = _controls(module, state, seat)
    comps = [
        c
        for row in controls_view(1, seat, state.version, controls).to_components()
        for c in row["components"]
    ]
    legal = [c for c in state.legal_actions(seat) if c != "call"]
    normalize, accepts = state_checks(state, seat)
    moves = control_moves(comps, legal, normalize=normalize, accepts=accepts, rng=rng)
    if not moves:
        raise AssertionError(
            f"seat {seat}: no control makes any of {legal[:8]}... "
            f"(controls: {[(c['custom_id'], [o['value'] for o in c.get('options') or []]) for c in comps]})"
        )
    return rng.choice(moves).code


async def play_seeded_match(game: str, seed: str, options: dict[str, Any], humans: set[int]):
    """One whole match: seats in ``humans`` click their controls, the others are the AI."""
    module = game_module(game)
    seats = game_spec(game).seats
    state = module.new_game(seed, [f"P{s}" for s in range(seats)], options)
    considered: dict[int, int] = {}
    for _ in range(MAX_STEPS):
        if state.is_over:
            return state
        version = state.version
        acting = sorted(state.to_act)
        ai = next((s for s in acting if s not in humans), None)
        if ai is not None:
            rng = random.Random(f"{seed}:ai:{version}:{ai}")
            code = module.choose(state.view(ai), state.legal_actions(ai), rng)
            state.apply(ai, code)
            continue
        optional = False
        for s in state.may_act:
            if s in humans or considered.get(s) == version:
                continue
            considered[s] = version
            rng = random.Random(f"{seed}:ai-optional:{version}:{s}")
            code = module.choose(state.view(s), state.legal_actions(s), rng)
            if code:
                state.apply(s, code)
                optional = True
                break
        if optional:
            continue
        assert acting, f"nobody to act at version {version}"
        seat = acting[0]
        code = _click(module, state, seat, random.Random(f"{seed}:click:{version}:{seat}"))
        state.apply(seat, code)  # raises IllegalAction if a control made an illegal move
    raise AssertionError(f"no end after {MAX_STEPS} actions")


CASES = [(game, i) for game in GAME_NAMES for i in range(SEEDS)]


@pytest.mark.parametrize(("game", "index"), CASES, ids=[f"{g}-seed{i}" for g, i in CASES])
async def test_seeded_match_through_the_controls(game: str, index: int) -> None:
    seed = derived_seed(f"{BASE}:{game}", index)
    options = _options(game, index)
    seats = game_spec(game).seats
    # About half the seeds are all-human tables; the others are shared with AIs.
    humans = set(range(seats)) if random.Random(seed).random() < 0.5 else set(range(0, seats, 2))
    replay = (
        f"replay: TEAHOUSE_SOAK_BASE={BASE} pytest -m soak -k '{game}-seed{index}]' "
        f"(seed {seed}, options {options}, human seats {sorted(humans)})"
    )
    try:
        state = await play_seeded_match(game, seed, options, humans)
    except Exception as e:
        raise AssertionError(f"{type(e).__name__}: {e}\n{replay}") from e
    assert state.is_over, replay
    # The log replays to the same match.
    again = game_module(game).replay(seed, list(state.players), options, state.log)
    assert again.snapshot() == state.snapshot(), replay


E2E_CASES = [(g, i) for g in GAME_NAMES for i in range(E2E_SEEDS)]


@pytest.mark.parametrize(("game", "index"), E2E_CASES, ids=[f"{g}-e2e{i}" for g, i in E2E_CASES])
async def test_seeded_match_over_fake_discord(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, game: str, index: int
) -> None:
    seed_base = f"{BASE}:e2e:{index}"
    match = match_of(game)
    replay = f"replay: TEAHOUSE_SOAK_BASE={BASE} pytest -m soak -k '{game}-e2e{index}]'"
    running = RunningBot(
        fake_discord, settings_for(str(tmp_path / f"{game}.db"), seed_base=seed_base)
    )
    await running.start()
    try:
        await play_whole_match(fake_discord, running, games_channel, match)
    except Exception as e:
        raise AssertionError(f"{type(e).__name__}: {e}\n{replay} (seed base {seed_base})") from e
    finally:
        await running.stop()
