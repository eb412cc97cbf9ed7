"""``python -m bench [koikoi|host|...]``: engine, AI, rendering and hosting figures.

``python -m bench arena --game G --a LEVEL --b LEVEL --deals N``: AI levels against each
other and against baselines (``bench/arena.py``).

Each game contributes ``bench/<game>_bench.py`` (or ``bench/koikoi_engine.py``) with plain
functions; the host benchmark runs the real bot over the fake Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import sys
import time
from pathlib import Path


def _line(label: str, value: str) -> None:
    print(f"  {label:<44} {value}")


def bench_koikoi(quick: bool) -> None:
    from bench import koikoi_engine, render_bench

    print("Koi-Koi")
    secs = 1.0 if quick else 3.0
    _line(
        "random-playout rounds/s (target ≥ 1,000)",
        f"{koikoi_engine.playout_rounds_per_second(secs):,.0f}",
    )
    med, p99 = koikoi_engine.ai_decision_ms(100 if quick else 500)
    _line("AI decision time median / p99", f"{med:.3f} ms / {p99:.3f} ms")
    rate = koikoi_engine.ai_vs_random(60 if quick else 400)
    _line("AI vs uniformly random: matches won", f"{rate:.1%}")
    r = render_bench.koikoi_render_ms(10 if quick else 50)
    _line(
        "table render + PNG encode median (≤ 50 ms)",
        f"{r['median_ms']:.1f} ms (p95 {r.get('p95_ms', 0):.1f} ms)",
    )
    _line("table PNG size", f"{r['png_bytes'] / 1024:.0f} KiB")


def bench_game(name: str, quick: bool) -> None:
    """The shared shape of ``bench/<game>_bench.py`` (a registered game without one is
    said to have none, not skipped)."""
    from bot.games import game_spec

    print(game_spec(name).title)
    if importlib.util.find_spec(f"bench.{name}_bench") is None:
        _line("game bench", f"none (no bench/{name}_bench.py)")
        return
    mod = importlib.import_module(f"bench.{name}_bench")
    secs = 1.0 if quick else 3.0
    _line("random-playout hands/s", f"{mod.playout_hands_per_second(secs):,.0f}")
    med, p99 = mod.ai_decision_ms(50 if quick else 300)
    _line("AI decision time median / p99", f"{med:.3f} ms / {p99:.3f} ms")
    if hasattr(mod, "ai_vs_random"):
        value = mod.ai_vs_random(20 if quick else 100)
        _line(
            "AI vs uniformly random",
            f"{value:.1%}" if isinstance(value, float) and value <= 1 else str(value),
        )
    if hasattr(mod, "ai_vs_random_per_hand"):
        _line(
            "AI vs random: mean points per hand",
            f"{mod.ai_vs_random_per_hand(10 if quick else 50):+.1f}",
        )
    if hasattr(mod, "declarer_and_defender_strength"):
        for key, value in mod.declarer_and_defender_strength(60 if quick else 300).items():
            _line(key.replace("_", " "), f"{value:.1%}" if "rate" in key else f"{value:+.2f}")
    r = mod.render_ms(5 if quick else 30)
    _line("table render + PNG encode median", f"{r['median_ms']:.1f} ms")
    _line("table PNG size", f"{r['png_bytes'] / 1024:.0f} KiB")


def bench_host(quick: bool) -> None:
    """The in-process acknowledgement-latency bench (``python -m bench host --quick``)."""
    from bench import host_bench

    tables = 10 if quick else 50
    print(f"Hosting ({tables} concurrent tables over the fake Discord)")
    lat = asyncio.run(host_bench.ack_latency(tables=tables, clicks_per_table=5 if quick else 20))
    _line("interactions acknowledged", f"{lat['count']}")
    _line(
        "ack latency p50 / p99 (target p99 ≤ 100 ms)",
        f"{lat['p50_ms']:.1f} ms / {lat['p99_ms']:.1f} ms",
    )


HOST_FIGURES = (
    ("processes", "bot processes (one shard each)"),
    ("database", "database"),
    ("ack_p50_ms", "ack latency p50 (ms)"),
    ("ack_p99_ms", "ack latency p99 (ms)"),
    ("decision_p50_ms", "click → next decision visible p50 (ms)"),
    ("decision_p99_ms", "click → next decision visible p99 (ms)"),
    ("decision_via_ai_p50_ms", "  same, with AI moves between, p50 (ms)"),
    ("decision_lag_p50_ms", "move stored → the decision it opens seen p50 (ms)"),
    ("decision_lag_p99_ms", "move stored → the decision it opens seen p99 (ms)"),
    ("decision_lag_max_ms", "  max (ms)"),
    ("decisions_late_by_source", "  seen over 5 s late, by the opening move's source"),
    ("table_stale_p50_ms", "action → table image showing it p50 (ms)"),
    ("table_stale_p99_ms", "action → table image showing it p99 (ms)"),
    ("actions_per_s", "actions/s (window)"),
    ("actions_by_source", "actions by source"),
    ("cpu_ms_per_action", "bot CPU per action (ms, all processes)"),
    ("main_cpu_ms_per_action", "  of it the bot processes (ms)"),
    ("render_cpu_ms_per_action", "  of it their render workers (ms)"),
    ("cpu_percent", "bot CPU (% of one core)"),
    ("bench_cpu_percent", "bench + fake Discord CPU (% of one core)"),
    ("rest_budget", "REST budget"),
    ("rest_per_action", "REST calls per action (non-interaction)"),
    ("http_429", "HTTP 429 in the window (whole token)"),
    ("http_429_whole_run", "HTTP 429 in the whole run (whole token)"),
    ("rss_kib_per_table", "RSS per table (KiB, above idle)"),
    ("clicks_refused", "clicks refused (ephemeral answers)"),
    ("spawn_to_ready_s", "process start → gateway IDENTIFY (s)"),
    ("resume_ready_s", "IDENTIFY → every table accepts a click (s)"),
    ("resume_ready_p50_s", "  per table p50 (s)"),
    ("resume_slow_by_game", "  tables over 5 s, by game"),
    ("resume_slow_obstacles", "  what those tables' probes met"),
    ("notices_done_s", "IDENTIFY → all restart notices and DMs (s)"),
    ("errors", "errors"),
    ("error_kinds", "error kinds"),
)


#: The figures of each process (``per_process``): its clicks are those its shard got (every
#: DM click goes to shard 0), the rest count the tables it drives.
PROCESS_FIGURES = (
    ("tables_driven", "tables it drives"),
    ("ack_p50_ms", "ack latency p50 (ms)"),
    ("ack_p99_ms", "ack latency p99 (ms)"),
    ("decision_p50_ms", "click → next decision visible p50 (ms)"),
    ("decision_p99_ms", "click → next decision visible p99 (ms)"),
    ("table_stale_p99_ms", "action → table image showing it p99 (ms)"),
    ("decision_lag_p99_ms", "move stored → the decision it opens seen p99 (ms)"),
    ("actions_per_s", "actions/s of its tables"),
    ("cpu_ms_per_action", "its CPU per action of its tables (ms)"),
    ("cpu_percent", "its CPU (% of one core)"),
    ("rest_per_s", "REST calls/s it sent"),
    ("rest_per_action", "REST calls per action of its tables"),
    ("rss_kib_per_table", "RSS per table it drives (KiB, above idle)"),
)


def shared_budget_redis(asked: str | None, processes: int) -> str | None:
    """The Redis a cluster's processes share their REST budget in: ``asked`` (a URL, or
    "off"), by default the local server if it answers; none for one process (as without)."""
    if asked == "off" or (asked is None and processes < 2):
        return None
    if asked is not None:
        return asked
    try:
        from redis import Redis

        client = Redis.from_url(LOCAL_REDIS, socket_timeout=1, socket_connect_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:  # (no server, no client: static shares, and say so)
        print(f"no Redis at {LOCAL_REDIS} ({e!r}): static REST shares", file=sys.stderr)
        return None
    return LOCAL_REDIS


LOCAL_REDIS = "redis://127.0.0.1:6379/0"


def bench_host_process(args: argparse.Namespace) -> int:
    """``python -m bench host --tables N --pace S``: the real bot as a separate process."""
    import json

    from bench import host_process

    quiet = args.json == "-"
    args.processes = 1 if args.processes is None else args.processes
    if args.processes < 1:
        print("--processes must be at least 1", file=sys.stderr)
        return 2
    if args.processes > 1 and not (args.database or "").startswith(
        ("postgresql://", "postgres://")
    ):
        print(
            "--processes > 1 needs --database postgresql://… (processes share one PostgreSQL"
            " database; the bench works in a fresh schema of it and drops it afterwards)",
            file=sys.stderr,
        )
        return 2
    redis = shared_budget_redis(args.redis, args.processes)
    where = dict(processes=args.processes, database=args.database, redis=redis)
    if args.resume:
        print(f"Resume after kill -9 ({args.tables} tables)", file=sys.stderr)
        result = asyncio.run(
            host_process.run_resume(
                tables=args.tables,
                pace=args.pace,
                warmup=args.warmup,
                global_limit=args.global_limit,
                seed=args.seed,
                quiet=quiet,
                **where,
            )
        )
    else:
        print(
            f"Hosting at a human pace ({args.tables} tables, think time ~{args.pace:g} s, "
            f"{args.duration:g} s window, {args.processes} bot process(es) on "
            f"{'PostgreSQL' if args.database else 'SQLite'})",
            file=sys.stderr,
        )
        result = asyncio.run(
            host_process.run_host(
                tables=args.tables,
                pace=args.pace,
                duration=args.duration,
                warmup=args.warmup,
                global_limit=args.global_limit,
                seed=args.seed,
                quiet=quiet,
                **where,
            )
        )
    if args.json == "-":
        print(json.dumps(result))
    else:
        if result.get("processes", 1) > 1:
            print("  the cluster (all processes):")
        for key, label in HOST_FIGURES:
            if key in result:
                _line(label, str(result[key]))
        for figures in result.get("per_process", []) if result.get("processes", 1) > 1 else []:
            print(f"  process {figures['process']} (shard {figures['process']}):")
            for key, label in PROCESS_FIGURES:
                _line("  " + label, str(figures.get(key)))
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
            print(f"  (all figures in {args.json})")
    return 0


def bench_store(args: argparse.Namespace) -> int:
    """``python -m bench store``: append + commit latency per action, both backends."""
    import json

    from bench import store_bench

    result = asyncio.run(
        store_bench.run_store(
            database=args.database, tables=args.store_tables, actions=args.store_actions
        )
    )
    if args.json == "-":
        print(json.dumps(result))
        return 0
    print("Store: appending one action to a table's log and committing it")
    for name, figures in result.items():
        if isinstance(figures, str):
            _line(name, figures)
            continue
        _line(
            f"{name} ({figures['tables']} × {figures['actions'] // figures['tables']})",
            f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, "
            f"{figures['actions_per_s']:,.0f} actions/s, loop lag ≤ {figures['loop_lag_max_ms']} ms",
        )
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
        print(f"  (all figures in {args.json})")
    return 0


def bench_faults(args: argparse.Namespace) -> int:
    """``python -m bench faults``: the fault soak (bench/faults.py); exit status 1 if a
    check fails. Without --database: SQLite with one process, then PostgreSQL with
    --processes (2 if not given); --processes 2 or more alone: PostgreSQL only."""
    from bench import faults

    processes = args.processes
    if processes is not None and processes < 1:
        print("--processes must be at least 1", file=sys.stderr)
        return 2
    if args.database:
        kinds = ["postgres" if args.database.startswith("postgres") else "sqlite"]
    elif processes is not None and processes > 1:
        kinds = ["postgres"]
    else:
        kinds = ["sqlite", "postgres"]
    if "sqlite" in kinds and (processes or 1) > 1:
        print("SQLite is one process's database: --processes 1 with it", file=sys.stderr)
        return 2
    tables = args.faults_tables
    failed = False
    for kind in kinds:
        count = processes or (2 if kind == "postgres" else 1)
        mode = "in-process hosts" if args.in_process else f"{count} bot process(es)"
        print(f"Fault soak on {kind}, {mode} ({tables} tables{', quick' if args.quick else ''})")
        report = asyncio.run(
            faults.soak(
                kind,
                tables=tables,
                quick=args.quick,
                seed=args.seed,
                processes=count,
                in_process=args.in_process,
            )
        )
        for line in report.lines():
            print(f"  {line}")
        print()
        failed = failed or not report.ok
    return 1 if failed else 0


def bench_play(args: argparse.Namespace) -> int:
    """``python -m bench play``: simulated people play whole hands (bench/playtest.py)."""
    import json
    import os

    from bench import playtest
    from bot.games import GAME_NAMES

    try:
        tables = playtest.play_options(
            args.game or list(GAME_NAMES),
            args.humans,
            hands=args.hands,
            delay=args.delay,
            ignore_pass=args.ignore_pass,
            wait_out_pass=args.wait_out_pass,
            timeout=args.timeout,
            seed=args.seed,
        )
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    if args.json != "-":
        print(
            f"Playtest: {', '.join(t.game for t in tables)}, {args.hands or 'every'} hand(s)"
            " each, at the bot's own timings (this takes minutes)",
            file=sys.stderr,
        )
    result = asyncio.run(
        playtest.run_play(
            tables, env=os.environ, progress=lambda line: print(line, file=sys.stderr, flush=True)
        )
    )
    if args.json == "-":
        print(json.dumps(result))
        return 0
    print(playtest.render_text(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
        print(f"  (all figures in {args.json})")
    return 0


def bench_arena(argv: list[str]) -> int:
    """``python -m bench arena --game G --a LEVEL --b LEVEL --deals N``: see bench/arena.py."""
    import json

    from bench import arena

    parser = argparse.ArgumentParser(
        prog="python -m bench arena",
        description="Two AI levels play seeded matches, seats rotated (bench/arena.py).",
    )
    parser.add_argument("--game", required=True, help="koikoi, mushi, panda, sandayi, mahjong")
    parser.add_argument("--a", required=True, help="level A: random, greedy, easy, normal, strong")
    parser.add_argument("--b", required=True, help="level B")
    parser.add_argument("--deals", type=int, default=100, help="seeded deals (100)")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed (1)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (e.g. hands=6 for shorter Mushi matches); default options otherwise",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="N",
        help="every N deals, a line on stderr: deals done and A's win rate so far (0: none)",
    )
    args = parser.parse_args(argv)
    from bot.games import GAME_NAMES

    if args.game not in GAME_NAMES:
        print(f"Unknown game {args.game!r}: one of {', '.join(GAME_NAMES)}.", file=sys.stderr)
        return 2
    if args.deals < 1 or args.processes < 1:
        print("--deals and --processes must be at least 1", file=sys.stderr)
        return 2
    try:
        options = dict(arena.parse_option(o) for o in args.option)
        result = arena.run_arena(
            args.game,
            args.a,
            args.b,
            args.deals,
            args.seed,
            args.processes,
            options,
            progress=args.progress,
        )
    except ValueError as e:
        print(str(e), file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else arena.format_report(result))
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["arena"]:
        return bench_arena(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("which", nargs="*", help="koikoi, host, or other games (default: all)")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    host = parser.add_argument_group(
        "host",
        "python -m bench host [--tables N --pace S ...]: the real bot as a separate process "
        "at a human pace (bench/host_process.py); 'host --quick' alone runs the quick "
        "in-process acknowledgement-latency bench",
    )
    host.add_argument("--tables", type=int, default=50, help="concurrent tables (50)")
    host.add_argument("--pace", type=float, default=10.0, help="mean think time, s (10)")
    host.add_argument("--duration", type=float, default=60.0, help="measuring window, s (60)")
    host.add_argument("--warmup", type=float, default=None, help="s of play before the window")
    host.add_argument("--global-limit", type=int, default=None, help="fake global REST limit/s")
    host.add_argument("--seed", type=int, default=1, help="the players' dice")
    host.add_argument("--resume", action="store_true", help="measure resume after kill -9 instead")
    host.add_argument(
        "--processes",
        type=int,
        default=None,
        help="bot processes, process i running shard i of N, on one database (1; faults: "
        "2 on PostgreSQL)",
    )
    host.add_argument(
        "--redis",
        default=None,
        help="with --processes > 1: the redis:// URL the processes share their REST budget "
        "in, or 'off' for static shares (default: redis://127.0.0.1:6379/0 if it answers)",
    )
    host.add_argument(
        "--database",
        default=None,
        help="a postgresql:// URL (the bench uses a fresh schema of it); default: a new "
        "SQLite file. 'store' also takes it for its PostgreSQL figures",
    )
    store = parser.add_argument_group(
        "store",
        "python -m bench store [--database URL] [--store-tables N] [--store-actions K]: the "
        "latency of appending and committing one action (p50/p99) on SQLite and PostgreSQL "
        "(bench/store_bench.py)",
    )
    faults_group = parser.add_argument_group(
        "faults",
        "python -m bench faults [--database sqlite|postgresql://…] [--processes N] "
        "[--faults-tables N] [--quick] [--in-process]: the fault soak (bench/faults.py) "
        "with real bot processes on SQLite and on a throwaway PostgreSQL server of its own "
        "(restarted and stalled; a URL given only selects PostgreSQL: the machine's server "
        "is never restarted)",
    )
    faults_group.add_argument("--faults-tables", type=int, default=20, help="tables (20)")
    faults_group.add_argument(
        "--in-process",
        action="store_true",
        help="hosts in the bench's process instead of bot processes (injects SQLite failing)",
    )
    store.add_argument("--store-tables", type=int, default=50, help="tables appending at once")
    store.add_argument("--store-actions", type=int, default=200, help="actions per table")
    play = parser.add_argument_group(
        "play",
        "python -m bench play [--game G] [--humans N] [--ignore-pass] [--hands H] [--delay S] "
        "[--timeout S] [--json]: simulated people play whole hands of each game at the bot's "
        "own timings and the bench counts what they went through (bench/playtest.py)",
    )
    play.add_argument(
        "--game", action="append", help="a game to play (repeatable; default: every game)"
    )
    play.add_argument("--humans", type=int, default=None, help="people per table (all seats)")
    play.add_argument(
        "--ignore-pass", action="store_true", help="people let Pass-only prompts run out"
    )
    play.add_argument(
        "--wait-out-pass",
        action="store_true",
        help="people who would pass in a claim window let it close instead of clicking Pass",
    )
    play.add_argument("--hands", type=int, default=1, help="hands per game, 0: the match (1)")
    play.add_argument("--delay", type=float, default=1.0, help="s a person takes to answer (1)")
    play.add_argument("--timeout", type=float, default=1800.0, help="s a hand may last (1800)")
    host.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="one JSON object: on stdout alone, or written to PATH",
    )
    args = parser.parse_args(argv)
    from bot.games import GAME_NAMES

    which = args.which or [*GAME_NAMES, "host"]
    if which == ["store"]:
        return bench_store(args)
    if which == ["faults"]:
        return bench_faults(args)
    if which == ["play"]:
        return bench_play(args)
    host_flags = {
        "--tables",
        "--pace",
        "--duration",
        "--warmup",
        "--global-limit",
        "--resume",
        "--processes",
        "--database",
    }
    process_bench = args.json is not None or any(a.split("=")[0] in host_flags for a in argv)
    if which == ["host"] and (process_bench or not args.quick):
        return bench_host_process(args)
    started = time.perf_counter()
    for name in which:
        if name == "koikoi":
            bench_koikoi(args.quick)
        elif name == "host":
            bench_host(args.quick)
        else:
            bench_game(name, args.quick)
        print()
    print(f"(took {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
