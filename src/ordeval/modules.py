"""Which library files a job's code depends on, so that its rule can declare them as inputs.

A job names the modules it runs (``ordeval.jobs.score_runs`` plus, say, the task's measure module);
:func:`module_files` adds every ordeval module they import at module level, transitively, and the
``__init__.py`` of every package on the way. Imports inside functions are deliberately not followed:
they are how a module keeps a heavy or unrelated dependency out of jobs that do not use it, and the
job that does use it names that module itself. So editing a LaTeX helper re-runs the table jobs only,
and editing a measure re-runs scoring and what depends on the scores.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = "ordeval"
PACKAGE_DIR = Path(__file__).resolve().parent


def module_path(module: str) -> Path:
    """The source file of ``ordeval[.sub...]`` (a package's ``__init__.py``)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        raise ValueError(f"{module!r} is not an ordeval module")
    base = PACKAGE_DIR.joinpath(*parts[1:])
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    raise ValueError(f"ordeval has no module {module!r}")


def _is_package(module: str) -> bool:
    return module_path(module).name == "__init__.py"


def _exists(module: str) -> bool:
    try:
        module_path(module)
    except ValueError:
        return False
    return True


def _top_level_imports(tree: ast.Module):
    """Import statements at module level, including those inside top-level ``if``/``try`` blocks."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try)):
            pending += node.body + node.orelse + getattr(node, "finalbody", [])
            for handler in getattr(node, "handlers", []):
                pending += handler.body


@cache
def _direct_imports(module: str) -> tuple[str, ...]:
    """The ordeval modules that ``module`` imports at module level."""
    path = module_path(module)
    package = module if _is_package(module) else module.rsplit(".", 1)[0]
    found: list[str] = []
    for node in _top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE]
            continue
        if node.level:
            base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        elif node.module and node.module.split(".")[0] == PACKAGE:
            base = node.module
        else:
            continue
        found.append(base)
        for alias in node.names:  # `from . import x` or `from .pkg import submodule`
            candidate = f"{base}.{alias.name}"
            if _exists(candidate):
                found.append(candidate)
    return tuple(name for name in found if _exists(name))


def _with_parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def module_files(*modules: str) -> list[Path]:
    """Source files of ``modules`` (``ordeval.x`` or just ``x``) and of every ordeval module they
    import at module level, transitively, with their packages' ``__init__.py``; sorted."""
    pending = [name if name.startswith(PACKAGE) else f"{PACKAGE}.{name}" for name in modules]
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        for module in _with_parents(name):
            if module in seen:
                continue
            seen.add(module)
            pending += list(_direct_imports(module))
    return sorted(module_path(name) for name in seen)
