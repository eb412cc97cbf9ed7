"""Every request shape the bot sends over an e2e run, and how often.

Run the e2e tests with ``TEAHOUSE_REQUEST_SHAPES=/tmp/shapes.jsonl`` (each FakeDiscord
appends its counts when it stops: :meth:`FakeDiscord.request_shapes`), then::

    python -m tests.e2e.request_shapes /tmp/shapes.jsonl

prints a Markdown table: method and route template, requests, and the spec operation the
fake validates the body against (tests/e2e/discord_schema.py).
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import orjson

from tests.e2e import discord_schema


def total_shapes(lines: list[bytes]) -> collections.Counter[str]:
    total: collections.Counter[str] = collections.Counter()
    for line in lines:
        if line.strip():
            total.update(orjson.loads(line))
    return total


def table(shapes: collections.Counter[str]) -> str:
    rows = ["| request | count | spec operation | documented rules |", "|---|---:|---|---|"]
    for shape, count in sorted(shapes.items(), key=lambda kv: (-kv[1], kv[0])):
        method, _, template = shape.partition(" ")
        path = discord_schema.spec_operation(method, template)
        rules = discord_schema.RULES.get((method, path)) if path else None
        rules_name = rules.__name__ if rules else ""
        rows.append(f"| `{shape}` | {count} | {path or '(none)'} | {rules_name} |")
    return "\n".join(rows)


def main(argv: list[str]) -> None:
    shapes = total_shapes(Path(argv[1]).read_bytes().splitlines())
    print(table(shapes))
    print(f"\n{sum(shapes.values())} requests of {len(shapes)} shapes")


if __name__ == "__main__":
    main(sys.argv)
