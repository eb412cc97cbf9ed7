"""How often Koi-Koi's ``strong`` overrules its prior (the one-ply judgement,
``strong.choose_one_ply``), and what the overrules are worth.

``python -m bench.koikoi_overrules DEALS SEED [ROLLOUTS] [--z Z] [--samples N]``

Strong plays normal as in the arena (deal ``d`` of seed ``S``, both seat rotations). At
each decision of strong's seat, the one-ply choice (strong's prior, from the same dice) is
compared with strong's; where they differ, both are played out from the *true* state
(the real hidden cards), ``ROLLOUTS`` times with normal for both seats, to the round's end,
and the overrule is valued by the mean difference of the round's points for strong's seat.
The mean over many overrules is an honest estimate of what they gain (each choice is made
from the view alone; the rollouts only judge it). Before the last round the round's points
are the stake; in the last round the match is, so that round's figure is a proxy.
Printed: the decisions and overrules by phase, and the overrules' mean gain with its 95 %
half-width, by phase and by last round or not.
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import statistics
from collections import Counter, defaultdict

from bot.games.koikoi import ai, new_game, strong
from bot.games.koikoi.rules import KoiKoiState


def _round_points(state: KoiKoiState, seat: int, code: str, rng: random.Random) -> int:
    """Apply ``code`` for ``seat`` in a copy of ``state``, play the round out with normal
    for both seats, and return the round's points for ``seat`` (negative: the opponent's)."""
    state.events.clear()  # the copy need not carry the match's event log
    world = copy.deepcopy(state)
    rounds = len(world.history)
    world.apply(seat, code)
    while len(world.history) == rounds:
        s = world.to_act[0]
        world.apply(s, ai.choose(world.view(s), world.legal_actions(s), rng))
    last = world.history[-1]
    if last["winner"] is None:
        return 0
    return last["points"] if last["winner"] == seat else -last["points"]


def measure(deals: int, seed: int, rollouts: int = 4) -> dict[str, object]:
    """Play ``deals`` deals of strong against normal; count and value the overrules."""
    counts: Counter[tuple[str, str]] = Counter()
    gains: defaultdict[str, list[float]] = defaultdict(list)
    for deal in range(deals):
        for rotation in range(2):
            rng = random.Random(f"arena|{seed}|{deal}|{rotation}")
            state = new_game(f"{seed}|{deal}", ["A", "B"])
            strong_seat = rotation
            while not state.is_over:
                seat = state.to_act[0]
                view, legal = state.view(seat), state.legal_actions(seat)
                if seat != strong_seat:
                    state.apply(seat, ai.choose(view, legal, rng))
                    continue
                dice = random.Random(rng.random())
                prior_dice = random.Random()
                prior_dice.setstate(dice.getstate())
                code = strong.choose_strong(view, legal, dice)
                prior = strong.choose_one_ply(view, legal, random.Random(prior_dice.random()))
                phase = view["phase"]
                counts[(phase, "decisions")] += 1
                if code != prior and len(legal) > 1:
                    counts[(phase, "overrules")] += 1
                    diffs = []
                    for k in range(rollouts):
                        key = f"{seed}|{deal}|{rotation}|{len(state.history)}|{k}"
                        diffs.append(
                            _round_points(state, seat, code, random.Random(key))
                            - _round_points(state, seat, prior, random.Random(key))
                        )
                    gain = statistics.fmean(diffs)
                    last = "last round" if view["round"] >= view["rounds"] else "before"
                    gains[phase].append(gain)
                    gains[f"{phase}, {last}"].append(gain)
                state.apply(seat, code)
    summary: dict[str, object] = {f"{p} {what}": n for (p, what), n in sorted(counts.items())}
    for name, values in sorted(gains.items()):
        half = 0.0
        if len(values) > 1:
            half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        summary[f"gain {name}"] = (len(values), round(statistics.fmean(values), 3), round(half, 3))
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("rollouts", type=int, nargs="?", default=4)
    parser.add_argument("--z", type=float, help="strong's Z (default: its own)")
    parser.add_argument("--samples", type=int, help="strong's SAMPLES (default: its own)")
    args = parser.parse_args()
    if args.z is not None:
        strong.Z = args.z
    if args.samples is not None:
        strong.SAMPLES = args.samples
    for key, value in measure(args.deals, args.seed, args.rollouts).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
