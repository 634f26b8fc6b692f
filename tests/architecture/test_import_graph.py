"""The import graph of the project's own code: no circle between modules (within an app or across
apps), and the pure package imports nothing of Django or of the apps.

Read from the source (ast), so an import inside a function counts as much as one at the top: an
import hidden inside a function is a circle in disguise, not a way out of one. Apps may depend on
each other's models and services (claims reads sources, sources asks claims to re-verify); what
may not happen is a module that needs, through any chain, itself.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("citecheck", "citecheck_site", "claims", "desk", "dispatch", "integrations", "reviews", "sources")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every project module that `path` imports, wherever the import sits (migrations left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in APPS}


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        # `from a.b import c` names module a.b.c when it exists, else the module a.b
        graph[name] = {target for target in _imports(path) if target in modules and target != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, or None (iterative depth-first search)."""
    colour: dict[str, int] = defaultdict(int)  # 0 new, 1 on the stack, 2 done
    for start in sorted(graph):
        if colour[start]:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        colour[start] = 1
        while stack:
            node, edges = stack[-1]
            nxt = next(edges, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
                path.pop()
            elif colour[nxt] == 1:
                return [*path[path.index(nxt):], nxt]
            elif colour[nxt] == 0:
                colour[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(sorted(graph.get(nxt, ())))))
    return None


def test_no_import_circle_between_modules() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "modules import each other in a circle: " + " -> ".join(cycle)


def test_pure_package_imports_no_django_and_no_app() -> None:
    offenders = []
    for path in (ROOT / "citecheck").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in {"django", *APPS} - {"citecheck"}]
    assert offenders == []


def test_the_graph_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The checker itself: an import inside a function is an edge."""
    source = ROOT / "desk" / "site.py"
    assert "desk.views.queue" in _imports(source) or "desk.views" in _imports(source)
    tree_text = "def f():\n    from sources.models import Source\n"
    probe = ROOT / "desk" / "_probe_for_test.py"
    try:
        probe.write_text(tree_text)
        assert "sources.models" in _imports(probe)
    finally:
        probe.unlink()
