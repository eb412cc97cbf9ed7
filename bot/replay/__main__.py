"""``python -m bot.replay FILE [--out DIR] [--gif] [--hand N] [--hidden] [--locale L]``: a
replay file (downloaded with the replay's Download button) drawn offline, without Discord.

Without ``--gif`` every step becomes ``DIR/step-0000.png`` …; with ``--gif`` one animated
``DIR/<game>-hand-<N>.gif`` shows one deal (``--hand``, default the first). Hands are drawn
face up unless ``--hidden`` (the spectator's view only). ``--locale`` (``ja``, ``zh-CN``,
``zh-TW``, ``ko``; English by default) is the language of every word drawn.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from bot.i18n import LOCALES
from bot.replay.core import Replayer, ReplayError, from_json
from bot.replay.render import encode, render_step, replay_gif

log = logging.getLogger(__name__)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.replay", description="Draw a Teahouse replay file offline."
    )
    parser.add_argument("file", type=Path, help="a replay file (.json)")
    parser.add_argument(
        "--out", type=Path, default=None, help="output folder (default: FILE's name)"
    )
    parser.add_argument("--gif", action="store_true", help="one animated GIF of a deal")
    parser.add_argument("--hand", type=int, default=None, help="the deal (hand, round) to draw")
    parser.add_argument("--hidden", action="store_true", help="do not show every hand face up")
    parser.add_argument("--ms", type=int, default=900, help="GIF: milliseconds per step")
    parser.add_argument(
        "--locale",
        choices=LOCALES,
        default="en-US",
        help="the language of the pictures' words (default: en-US)",
    )
    args = parser.parse_args(argv)
    try:
        record = from_json(args.file.read_bytes())
        rp = Replayer(record)
    except (OSError, ReplayError) as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a file nothing above foresaw: say so, without a traceback
        log.debug("reading %s failed", args.file, exc_info=True)
        print(f"{args.file}: not a replay this Teahouse can draw ({exc!r})", file=sys.stderr)
        return 2
    out = args.out or args.file.with_suffix("")
    out.mkdir(parents=True, exist_ok=True)
    reveal = not args.hidden
    if args.hand is not None and rp.hand_start(args.hand) is None:
        numbers = ", ".join(str(h.number) for h in rp.hands)
        print(f"this match has no hand {args.hand} (it has {numbers})", file=sys.stderr)
        return 2
    chosen = [h for h in rp.hands if args.hand is None or h.number == args.hand]
    started = time.perf_counter()
    if args.gif:
        hand = chosen[0]
        steps = list(range(hand.first_step, hand.last_step + 1))
        path = out / f"{record.game}-hand-{hand.number}.gif"
        path.write_bytes(replay_gif(rp, steps, reveal=reveal, ms=args.ms, locale=args.locale))
        print(f"{path}: {len(steps)} steps")
        return 0
    steps = [s for h in chosen for s in range(h.first_step, h.last_step + 1)]
    for step in dict.fromkeys(steps):
        (out / f"step-{step:04d}.png").write_bytes(
            encode(record.game, render_step(rp, step, reveal=reveal, locale=args.locale))
        )
    print(f"{out}: {len(set(steps))} steps drawn in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
