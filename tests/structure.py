"""The package's structure as import arrows between its modules: files, arrows, import circles and arrows that run
back up the layers (docs/ARCHITECTURE.md). ``python tests/structure.py`` prints the figures;
``tests/test_architecture.py`` holds the package to no circle and no arrow back up.

An arrow is an ``import`` (at module level or inside a function) of one ordeval module by another, counted once
per pair; an import of a package counts as an arrow to its ``__init__``. A circle is a set of modules that
reach each other through arrows (a strongly connected component of more than one module, or a module importing
itself). A layer is the first part of a module's name below ``ordeval`` (:data:`LAYERS`, bottom first); an
arrow runs back up when it goes from a lower layer to a higher one.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "ordeval"

#: Bottom first: a module may import its own layer and those below it.
LAYERS = ("io", "data", "stats", "tasks", "analysis", "properties", "results", "reports", "workflow", "api", "cli")


def modules(root: Path = SOURCE) -> dict[str, Path]:
    """Every module of the package: its dotted name -> its file (a package's ``__init__.py``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom | ast.Import, known: set[str]) -> set[str]:
    targets = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            targets.add(alias.name)
    else:
        if node.level:
            base = importer.split(".") if is_package else importer.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        for alias in node.names:  # a submodule, else a name defined in the module ``prefix``
            targets.add(f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in known else prefix)
    resolved = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target.startswith("ordeval") and target != importer:
            resolved.add(target)
    return resolved


def arrows(found: dict[str, Path] | None = None) -> set[tuple[str, str]]:
    """(importer, imported) for every import of an ordeval module by another."""
    found = modules() if found is None else found
    known = set(found)
    edges = set()
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges.update((name, target) for target in _resolve(name, is_package, node, known))
    return edges


def circles(edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan's algorithm)."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def layer(module: str) -> int | None:
    """The position of ``module``'s layer in :data:`LAYERS` (None: the package itself, ``ordeval.__main__``)."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def back_up(edges: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Arrows from a lower layer to a higher one."""
    return sorted((a, b) for a, b in edges if layer(a) is not None and layer(b) is not None and layer(b) > layer(a))


def figures() -> dict:
    found = modules()
    edges = arrows(found)
    return {
        "files": len(found),
        "arrows": len(edges),
        "circles": circles(edges),
        "back_up": back_up(edges),
        "root_modules": sorted(
            name for name in found if name.count(".") == 1 and not found[name].name == "__init__.py"
        ),
    }


#: The markers of docs/ARCHITECTURE.md's generated part.
BEGIN, END = "<!-- generated by python tests/structure.py --markdown: do not edit -->", "<!-- end of generated part -->"


def markdown() -> str:
    """docs/ARCHITECTURE.md's generated part: the layers bottom first, their modules and what each holds."""
    found = modules()
    result = figures()
    lines = [BEGIN, "", "| layer (bottom first) | modules | what it holds |", "|---|---|---|"]
    for name in LAYERS:
        members = sorted(module for module in found if layer(module) == LAYERS.index(name))
        path = found.get(f"ordeval.{name}")
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) if path else ""
        first = " ".join((doc or "").split("\n\n")[0].split())
        lines.append(f"| `ordeval.{name}` | {len(members)} | {first} |")
    lines += [
        "",
        f"{result['files']} modules, {result['arrows']} import arrows between them, "
        f"{len(result['circles'])} import circles, {len(result['back_up'])} arrows back up a layer; at the "
        f"package root only {', '.join(f'`{name}`' for name in result['root_modules'])}.",
        "",
        END,
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:] == ["--markdown"]:
        print(markdown())
        raise SystemExit(0)
    result = figures()
    print(
        f"files {result['files']}, import arrows {result['arrows']}, circles {len(result['circles'])}, "
        f"arrows back up {len(result['back_up'])}, modules at the package root {len(result['root_modules'])}"
    )
    for circle in result["circles"]:
        print("  circle:", " <-> ".join(circle))
    for a, b in result["back_up"]:
        print(f"  back up: {a} -> {b}")
