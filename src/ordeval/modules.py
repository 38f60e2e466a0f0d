"""Which library files a module depends on, so that rules can declare them as inputs."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def module_files(*modules: str) -> list[Path]:
    """Source files of ``modules`` (names inside ``ordeval``) and of every ordeval module they import,
    transitively, sorted. Editing any of them should re-run a rule that uses ``modules``."""
    pending = ["__init__", *modules]
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = PACKAGE_DIR / f"{name}.py"
        if not path.is_file():
            raise ValueError(f"ordeval has no module {name!r} ({path} does not exist)")
        seen.add(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    pending.append(node.module.split(".")[0])
                else:  # from . import a, b
                    pending.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ordeval"):
                pending.extend(_absolute(node.module, node.names))
    return sorted(PACKAGE_DIR / f"{name}.py" for name in seen)


def _absolute(module: str, names) -> list[str]:
    parts = module.split(".")
    if len(parts) > 1:
        return [parts[1]]
    return [alias.name for alias in names]
