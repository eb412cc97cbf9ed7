"""How long one replay step costs: ``python -m bot.replay.timing [game ...]``.

For each game, a match of ``actions`` actions (its AI on every seat; the options that keep
it going, its spec's ``long_options``) is replayed; then steps are shown as a person steps through them (▶ runs, jumps to
a deal and back), and the time of each part is measured: rebuilding the state from the
nearest checkpoint, drawing the picture (table, every hand, caption), encoding the PNG.
:func:`measure` returns the figures (milliseconds: median and 95th percentile), for
``python -m bench`` to call.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from bot.games import GAME_NAMES, game_spec
from bot.replay.core import Action, Player, Replayer, ReplayRecord
from bot.replay.render import encode, render_step


def long_match(game: str, actions: int = 500, seed: str = "timing") -> ReplayRecord:
    spec = game_spec(game)
    names = ["Ann", "Bob", "Cid", "Dee", *(f"P{i + 1}" for i in range(4, spec.seats))]
    names = names[: spec.seats]
    options = dict(spec.long_options)
    state = spec.new_game(seed, names, options)
    rng = random.Random(seed)
    while not state.is_over and state.version < actions:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, spec.choose(state.view(seat), legal, rng) or state.default_action(seat))
    return ReplayRecord(
        game=game,
        seed=seed,
        options=options,
        players=tuple(Player(i, n) for i, n in enumerate(names)),
        actions=tuple(Action(s, c) for s, c in state.log),
    )


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered) * 1000, 1),
        "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 1),
    }


def measure(game: str, actions: int = 500, seed: str = "timing") -> dict[str, Any]:
    """Milliseconds per step (median, p95) of a ``game`` match of about ``actions`` actions."""
    record = long_match(game, actions, seed)
    started = time.perf_counter()
    rp = Replayer(record)
    load = time.perf_counter() - started
    for step in range(0, rp.last + 1, max(1, rp.last // 12)):  # warm the sprite caches
        render_step(rp, step, reveal=True)
    middle = rp.last // 2
    steps = list(range(middle, min(rp.last, middle + 40)))  # ▶ ▶ ▶ …
    steps += [h.first_step for h in rp.hands[:6]] + [rp.last, 0, middle - 7, rp.last - 1]
    rebuild, draw, png, total = [], [], [], []
    for step in steps:
        t0 = time.perf_counter()
        rp.state_at(step)
        t1 = time.perf_counter()
        image = render_step(rp, step, reveal=True)
        t2 = time.perf_counter()
        encode(game, image)
        t3 = time.perf_counter()
        rebuild.append(t1 - t0)
        draw.append(t2 - t1)
        png.append(t3 - t2)
        total.append(t3 - t0)
    return {
        "game": game,
        "actions": rp.last,
        "load_ms": round(load * 1000, 1),
        "rebuild_ms": _ms(rebuild),
        "draw_ms": _ms(draw),
        "png_ms": _ms(png),
        "step_ms": _ms(total),
    }


def main(argv: list[str] | None = None) -> int:
    games = (argv if argv is not None else sys.argv[1:]) or list(GAME_NAMES)
    for game in games:
        r = measure(game)
        print(
            f"{game:8} {r['actions']:4} actions · load {r['load_ms']} ms · per step: "
            f"rebuild {r['rebuild_ms']['median']}/{r['rebuild_ms']['p95']} · "
            f"draw {r['draw_ms']['median']}/{r['draw_ms']['p95']} · "
            f"png {r['png_ms']['median']}/{r['png_ms']['p95']} · "
            f"total {r['step_ms']['median']}/{r['step_ms']['p95']} ms (median/p95)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
