"""The layering of docs/architecture.md: rules and AI are pure; renderers don't talk to Discord."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def top_level_imports(path: Path) -> set[str]:
    """The top-level packages a module imports (absolute imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _is_render(path: Path) -> bool:
    return path.name == "render.py" or "render" in path.relative_to(ROOT).parts[:-1]


def test_rules_and_ai_import_neither_discord_nor_pil() -> None:
    files = [*(ROOT / "bot" / "engine").rglob("*.py"), *(ROOT / "bot" / "games").rglob("*.py")]
    offenders = [
        str(p.relative_to(ROOT))
        for p in files
        if not _is_render(p) and top_level_imports(p) & {"discord", "PIL"}
    ]
    assert files and offenders == []


def test_renderers_do_not_import_discord() -> None:
    files = [p for p in (ROOT / "bot").rglob("*.py") if _is_render(p)]
    offenders = [str(p.relative_to(ROOT)) for p in files if "discord" in top_level_imports(p)]
    assert files and offenders == []


def test_only_host_app_and_cogs_import_discord() -> None:
    allowed = {ROOT / "bot" / "app.py", ROOT / "bot" / "__main__.py"}
    offenders = []
    for p in (ROOT / "bot").rglob("*.py"):
        if p in allowed or (ROOT / "bot" / "host") in p.parents:
            continue
        if "discord" in top_level_imports(p):
            offenders.append(str(p.relative_to(ROOT)))
    assert offenders == []


def test_the_layering_test_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "rules.py"
    bad.write_text("import os\nfrom PIL import Image\n")
    assert "PIL" in top_level_imports(bad)
