"""The layers of harness, read from its import statements (every one: module level and
inside functions; a ``TYPE_CHECKING`` block is for type checkers only and does not count).

The Scheme package is the bottom layer: it imports only itself and two leaf modules that
import nothing of harness. The host's ``(harness ...)`` libraries are offered to it from
above (harness.host_libraries.offer_to_scheme), never imported by it. And the import
circles that once tied the REPL, the interpreter and the error printer together stay
broken: none of those modules sits in a circle at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "harness"

#: modules outside harness.scheme that it may import: leaves that import nothing of harness
SCHEME_MAY_IMPORT = ("harness.shipped", "harness.atomic_file")

#: modules that were in an import circle once (issue 28): each must be in none now
ONCE_IN_A_CIRCLE = (
    "harness.repl.commands", "harness.repl.session",
    "harness.scheme.environment", "harness.scheme.interpreter", "harness.scheme.libraries",
    "harness.scheme.primitives.control",
    "harness.scheme.errors", "harness.scheme.printer", "harness.scheme.datatypes",
    "harness.scheme.limits", "harness.scheme.numparse", "harness.scheme.parameters",
    "harness.scheme.compiler", "harness.scheme.inline", "harness.scheme.run_support",
    "harness.scheme.translate",
    "harness.scheme.primitives", "harness.host_libraries.harness_procedures",
    "harness.host_libraries.vfs_procedures", "harness.host_libraries.line_stream",
    # the per-event client and the command it hands over to (harness.cli.answer_here)
    "harness.cli.hook_client", "harness.cli.host_command",
)


def module_files() -> dict[str, Path]:
    """Every module of harness by dotted name (a package by its own name)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _type_checking_only(node: ast.AST) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING")


def imported_names(tree: ast.AST, package: str) -> list[str]:
    """The dotted names ``tree`` imports (``from a import b`` gives ``a.b``), skipping
    ``if TYPE_CHECKING:`` blocks; relative imports resolved against ``package``."""
    names: list[str] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        if _type_checking_only(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names.extend(f"{base}.{alias.name}" for alias in node.names)
        pending.extend(ast.iter_child_nodes(node))
    return names


def import_graph() -> dict[str, set[str]]:
    """harness module -> the harness modules it imports."""
    modules = module_files()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for imported in imported_names(ast.parse(path.read_text()), package):
            if imported == "harness" or imported.startswith("harness."):
                target = owner(imported)
                if target is not None and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import circles of ``graph``: its strongly connected parts of two or more
    modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start, first_targets in graph.items():
        if start in index:
            continue
        work = [(start, iter(sorted(first_targets)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.add(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(part)
    return found


def test_the_scheme_package_imports_only_itself_and_two_leaves():
    graph = import_graph()
    outside = sorted((name, target) for name, targets in graph.items()
                     if name.startswith("harness.scheme") for target in targets
                     if not target.startswith("harness.scheme")
                     and target not in SCHEME_MAY_IMPORT)
    assert outside == []
    for leaf in SCHEME_MAY_IMPORT:
        assert graph[leaf] == set(), f"{leaf} imports {graph[leaf]}: it is no leaf"


def test_the_scheme_package_names_no_module_above_it_in_a_string():
    # importlib.import_module("harness.x") is an import too, hidden from the graph
    above = [name for name in module_files() if not name.startswith("harness.scheme")
             and name.count(".") >= 1]
    found = []
    for path in (PACKAGE / "scheme").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in above:
                found.append((path.name, node.value))
    assert found == []


def test_no_module_that_was_in_an_import_circle_is_in_one():
    graph = import_graph()
    assert set(ONCE_IN_A_CIRCLE) <= set(graph)
    tangled = [sorted(part) for part in circles(graph) if part & set(ONCE_IN_A_CIRCLE)]
    assert tangled == []


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [{"a", "b", "c"}]


def test_a_function_local_import_counts_and_a_type_checking_one_does_not():
    tree = ast.parse("from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from harness.x import Y\n"
                     "def f():\n    from harness.z import w\n")
    names = imported_names(tree, "harness")
    assert "harness.z.w" in names and "harness.x.Y" not in names
