"""The host's layout (issue 28): parts composed, not mixed in, and no import cycle among
the modules of ``bot/host`` — a reader can take each module on its own, following its
imports down, never round and back to where they started; and a part uses only what the
parts it is handed make public."""

from __future__ import annotations

import ast
from pathlib import Path

HOST = Path(__file__).resolve().parents[2] / "bot" / "host"
PACKAGE = "bot.host"


def host_modules(root: Path = HOST) -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(root.glob("*.py"))}


def imported_host_modules(tree: ast.Module, modules: set[str]) -> set[str]:
    """Every module of the host ``tree`` imports, anywhere: at the top, inside functions
    (lazy imports), under ``TYPE_CHECKING`` — each is an edge a reader must follow."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[:2] == ["bot", "host"] and len(parts) > 2 and parts[2] in modules:
                    found.add(parts[2])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[:2] != ["bot", "host"]:
                continue
            if len(parts) > 2:
                if parts[2] in modules:
                    found.add(parts[2])
            else:  # from bot.host import manager
                found.update(a.name for a in node.names if a.name in modules)
    return found


def import_cycles(trees: dict[str, ast.Module]) -> list[list[str]]:
    """The import cycles among the modules (each once, as a path back to its start)."""
    names = set(trees)
    graph = {name: imported_host_modules(tree, names) - {name} for name, tree in trees.items()}
    graph["__init__"] = graph.get("__init__", set())
    cycles: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt) :] + [nxt]
                key = frozenset(cycle)
                if key not in seen:
                    seen.add(key)
                    cycles.append(cycle)
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    return cycles


def mixed_classes(trees: dict[str, ast.Module]) -> list[str]:
    """Classes of the host built by inheritance among the host's own classes: a ``*Mixin``,
    or a class with more than one base defined in ``bot/host`` (a part assembled from
    parts that call one another through ``self``)."""
    own = {
        node.name
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    found = []
    for module, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases]
            host_bases = [b for b in bases if b.split(".")[-1] in own]
            if node.name.endswith("Mixin") or len(host_bases) > 1:
                found.append(f"{module}.{node.name}({', '.join(bases)})")
    return found


def test_no_module_of_the_host_imports_one_that_imports_it_back() -> None:
    cycles = import_cycles(host_modules())
    assert cycles == [], "import cycles in bot/host: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_host_has_no_mixins() -> None:
    assert mixed_classes(host_modules()) == []


def test_the_checks_see_a_lazy_import_cycle_and_a_mixin(tmp_path: Path) -> None:
    """The checks themselves: a cycle closed by an import inside a function (or under
    TYPE_CHECKING) is a cycle, and a class made of two of the host's classes is a mixin."""
    (tmp_path / "first.py").write_text("from bot.host.second import B\n\nclass A:\n    pass\n")
    (tmp_path / "second.py").write_text(
        "from typing import TYPE_CHECKING\n\n"
        "class B:\n"
        "    def f(self):\n"
        "        from bot.host import first\n"
        "        return first\n"
    )
    (tmp_path / "third.py").write_text(
        "from bot.host.first import A\nfrom bot.host.second import B\n\n"
        "class LobbyMixin:\n    pass\n\n"
        "class Host(A, B):\n    pass\n"
    )
    trees = host_modules(tmp_path)
    assert import_cycles(trees) == [["first", "second", "first"]]
    assert mixed_classes(trees) == ["third.LobbyMixin()", "third.Host(A, B)"]


def test_no_part_reaches_back_to_the_host_that_wires_it() -> None:
    """The parts are handed what they use; none imports the façade that builds them (a
    part holding ``TableHost`` would reach every other part through it)."""
    trees = host_modules()
    importers = sorted(
        name
        for name, tree in trees.items()
        if "manager" in imported_host_modules(tree, set(trees)) and name != "__init__"
    )
    assert importers == []


def private_reaches(trees: dict[str, ast.Module]) -> list[str]:
    """Where a part uses a private member (``_name``) of another part it was handed: the
    attributes a class sets in ``__init__`` from a parameter typed with one of the host's
    own classes are its parts, and ``self.<part>._name`` reaches into one."""
    own = {
        node.name
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    found = []
    for module, tree in trees.items():
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            init = next(
                (f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"),
                None,
            )
            if init is None:
                continue
            typed = {
                a.arg
                for a in init.args.args + init.args.kwonlyargs
                if a.annotation is not None and ast.unparse(a.annotation).split(".")[-1] in own
            }
            parts = {
                target.attr
                for node in ast.walk(init)
                if isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Name)
                and node.value.id in typed
                for target in node.targets
                if isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            }
            for node in ast.walk(cls):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Attribute)
                    and isinstance(node.value.value, ast.Name)
                    and node.value.value.id == "self"
                    and node.value.attr in parts
                ):
                    found.append(f"{module}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_part_calls_a_private_method_of_another() -> None:
    """What one part needs of another is a public method (or attribute) whose name says
    what it is: a part's private members are its own to change."""
    assert private_reaches(host_modules()) == []


def test_the_check_sees_a_part_reaching_into_another(tmp_path: Path) -> None:
    (tmp_path / "outbox.py").write_text("class Outbox:\n    async def _post(self):\n        pass\n")
    (tmp_path / "results.py").write_text(
        "from bot.host.outbox import Outbox\n\n"
        "class Results:\n"
        "    def __init__(self, outbox: Outbox, client: object) -> None:\n"
        "        self.outbox = outbox\n"
        "        self.client = client\n"
        "    async def end(self):\n"
        "        self.client._connection\n"  # not a part of the host: not counted
        "        await self.outbox._post()\n"
    )
    assert private_reaches(host_modules(tmp_path)) == ["results:9 self.outbox._post"]


def test_the_presenter_plans_deliveries_the_outbox_carries_out() -> None:
    """Stage 3 hands stage 4 data: every delivery is a frozen dataclass, and the
    presenter's planning (``Presenter.plan``) is a plain function — it awaits nothing, so
    it cannot call Discord; the outbox's ``deliver`` carries the deliveries out."""
    trees = host_modules()
    for node in ast.walk(trees["deliveries"]):
        if isinstance(node, ast.ClassDef) and node.name != "DmPlanner":
            frozen = [
                d
                for d in node.decorator_list
                if isinstance(d, ast.Call)
                and ast.unparse(d.func) == "dataclass"
                and any(k.arg == "frozen" and ast.unparse(k.value) == "True" for k in d.keywords)
            ]
            assert frozen, f"{node.name} is not a frozen dataclass"

    def method(module: str, cls: str, name: str) -> ast.AST:
        (klass,) = (
            n for n in ast.walk(trees[module]) if isinstance(n, ast.ClassDef) and n.name == cls
        )
        (found,) = (
            n
            for n in klass.body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name
        )
        return found

    assert isinstance(method("presenter", "Presenter", "plan"), ast.FunctionDef)
    assert isinstance(method("outbox", "Outbox", "deliver"), ast.AsyncFunctionDef)
