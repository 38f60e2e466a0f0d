"""Which library files a job's code depends on, so that its rule can declare them as inputs.

A rule's script names the modules it runs by importing them at its top (or in its ``with job()`` block:
:func:`script_modules`); :func:`module_files` adds every ordeval module they import at module level,
transitively, and the ``__init__.py`` of every package on the way. Imports inside functions are deliberately not
followed: they are how a module keeps a heavy or unrelated dependency out of jobs that do not use it, and the
job that does use it names that module itself. So editing a LaTeX helper re-runs the table jobs only,
and editing a measure re-runs scoring and what depends on the scores.

Every Snakemake start plans the rules, so this runs each time, also for a no-op run: the package's
files are listed once (one directory walk) and the modules the jobs reach are parsed once per start.
Only the part of a module that can hold its module-level imports is parsed (:func:`import_part`): 14 ms
for the package's 115 modules instead of 113 ms for whole files, a tenth of a no-op run. (A cache of
the parsed imports saved about as much but under 1% of a cold run, and was removed.)
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

PACKAGE = "ordeval"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: The package's data files that a job's code reads (paths relative to the package), by the module that reads
#: them: a job whose code includes the module depends on them as on its source, so that an edit to the data
#: re-runs the job too. Every file of the package that is not Python is here or in :data:`PLANNING_FILES` or
#: :data:`NOT_READ` (a test keeps this true).
DATA_FILES = {
    "ordeval.results.replication": ("published/published.tsv",),  # the published numbers (ordeval.results.published)
    "ordeval.results.published": ("published/published.tsv",),
}
#: Package files read when a configuration is planned (every Snakemake start), never by a job: the schemas.
PLANNING_FILES = (
    "schemas/config.schema.yaml",
    "tasks/quantification/schema.yaml",
    "tasks/classification/schema.yaml",
    "tasks/scores_schema.yaml",
)
#: Files of the package that no code reads.
NOT_READ = ("published/README.md", "py.typed")


class ModuleIndex:
    """The modules of the package under ``root`` (named ``package``): their files, and their direct
    imports at module level (parsed once each)."""

    def __init__(self, root: Path, package: str = PACKAGE):
        self.package = package
        self.files: dict[str, tuple[Path, bool]] = {}  # module -> (path, is package)
        for folder, folders, names in os.walk(root):
            folders[:] = sorted(name for name in folders if name.isidentifier() and name != "__pycache__")
            relative = Path(folder).relative_to(root).parts
            if relative and "__init__.py" not in names:
                folders[:] = []  # not a package: nothing below it is importable as ordeval.x
                continue
            for name in names:
                if not name.endswith(".py") or not name[:-3].isidentifier():
                    continue
                path = Path(folder, name)
                is_package = name == "__init__.py"
                parts = relative if is_package else (*relative, name[:-3])
                self.files[".".join((package, *parts))] = (path, is_package)
        self._imports: dict[str, tuple[str, ...]] = {}

    # ------------------------------------------------------------------ modules
    def path(self, module: str) -> Path:
        """The source file of ``package[.sub...]`` (a package's ``__init__.py``)."""
        if module.split(".")[0] != self.package:
            raise ValueError(f"{module!r} is not an {self.package} module")
        if module not in self.files:
            raise ValueError(f"{self.package} has no module {module!r}")
        return self.files[module][0]

    def direct_imports(self, module: str) -> tuple[str, ...]:
        """The package's modules that ``module`` imports at module level."""
        if module in self._imports:
            return self._imports[module]
        path, is_package = self.files[module]
        found = self._imports[module] = self._parse(module, path, is_package)
        return found

    def _parse(self, module: str, path: Path, is_package: bool) -> tuple[str, ...]:
        package = module if is_package else module.rsplit(".", 1)[0]
        found: list[str] = []
        for node in _top_level_imports(_parse_imports(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [alias.name for alias in node.names if alias.name.split(".")[0] == self.package]
                continue
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == self.package:
                base = node.module
            else:
                continue
            found.append(base)
            for alias in node.names:  # `from . import x` or `from .pkg import submodule`
                candidate = f"{base}.{alias.name}"
                if candidate in self.files:
                    found.append(candidate)
        return tuple(name for name in found if name in self.files)

    def script_imports(self, path: Path) -> tuple[str, ...]:
        """The package's modules that a script (a file outside the package, e.g. ``scripts/<rule>.py``)
        imports at module level, including inside its top-level ``with`` block."""
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        found: list[str] = []
        for node in _top_level_imports(tree):
            if isinstance(node, ast.Import):
                found += [alias.name for alias in node.names if alias.name.split(".")[0] == self.package]
            elif not node.level and node.module and node.module.split(".")[0] == self.package:
                found.append(node.module)
                found += [f"{node.module}.{alias.name}" for alias in node.names
                          if f"{node.module}.{alias.name}" in self.files]  # fmt: skip
        return tuple(name for name in dict.fromkeys(found) if name in self.files)

    def closure(self, *modules: str) -> list[Path]:
        """Source files of ``modules`` (``package.x`` or just ``x``) and of every module of the package
        they import at module level, transitively, with their packages' ``__init__.py``, and the data files
        these modules read (:data:`DATA_FILES`); sorted."""
        pending = [name if name.startswith(self.package) else f"{self.package}.{name}" for name in modules]
        seen: set[str] = set()
        while pending:
            name = pending.pop()
            for module in _with_parents(name):
                if module in seen:
                    continue
                self.path(module)  # raises for an unknown module
                seen.add(module)
                pending += list(self.direct_imports(module))
        root = self.path(self.package).parent
        data = {root / file for name in seen for file in DATA_FILES.get(name, ()) if self.package == PACKAGE}
        return sorted({self.path(name) for name in seen} | data)


#: A statement at column 0 that begins a definition: where a module's imports usually end.
_DEFINITION = re.compile(r"^(?:def |async def |class |@)", re.MULTILINE)
#: A statement at column 0 that is, or can hold (:func:`_top_level_imports`), a module-level import.
_IMPORTING = re.compile(r"^(?:import|from|if|try)\b", re.MULTILINE)


def import_part(source: str) -> str:
    """The part of ``source`` that holds every module-level import: the text before its first top-level
    ``def``, ``class`` or decorator when no ``import``, ``from``, ``if`` or ``try`` statement starts at
    column 0 after it (the rest of the module is definitions and assignments); else all of it."""
    first = _DEFINITION.search(source)
    if first is None or _IMPORTING.search(source, first.start()):
        return source
    return source[: first.start()]


def _parse_imports(source: str) -> ast.Module:
    """The syntax tree of :func:`import_part` of ``source``; of all of it when that part does not parse
    (the cut fell inside a string or brackets, e.g. a docstring line that starts with ``class``)."""
    part = import_part(source)
    try:
        return ast.parse(part)
    except SyntaxError:
        if part is source:
            raise
        return ast.parse(source)


def _top_level_imports(tree: ast.Module):
    """Import statements at module level, including those inside top-level ``if``/``try`` blocks."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.With):
            pending += node.body
        elif isinstance(node, (ast.If, ast.Try)):
            pending += node.body + node.orelse + getattr(node, "finalbody", [])
            for handler in getattr(node, "handlers", []):
                pending += handler.body


def _with_parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


_INDEX: ModuleIndex | None = None


def package_index() -> ModuleIndex:
    """The index of the installed ordeval package (built once per process)."""
    global _INDEX
    if _INDEX is None:
        _INDEX = ModuleIndex(PACKAGE_DIR, PACKAGE)
    return _INDEX


def script_modules(path: str | Path) -> tuple[str, ...]:
    """The ordeval modules a rule's script imports at module level (:meth:`ModuleIndex.script_imports`)."""
    return package_index().script_imports(Path(path))


def module_files(*modules: str) -> list[Path]:
    """Source files of ``modules`` (``ordeval.x`` or just ``x``) and of every ordeval module they
    import at module level, transitively, with their packages' ``__init__.py``; sorted."""
    return package_index().closure(*modules)
