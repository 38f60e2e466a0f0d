"""Code tracking: which library files a rule's script depends on, and their digest.

An edit to an ordeval module must re-run exactly the jobs whose script uses it. Every rule has a ``params`` entry
``code``, :func:`code_digest` of its script (``workflow/rules/common.smk``: ``code("<rule>")``), and Snakemake
re-runs a job whose params changed (its params trigger). The digest covers what the script's code depends on
(:func:`script_files` lists them):

* the script and every ordeval module it imports, and every module those import -- at module level or inside
  a function (a module imported lazily, to keep numba or matplotlib out of jobs that do not run it, is still
  code the job runs) -- transitively;
* the ``__init__.py`` of every package on the way (a package's own imports count only where the package itself
  is imported: ``from ordeval.stats import hsd`` reaches ``hsd`` and ``stats/__init__.py``, not every module
  of ``stats``);
* the modules found by looking (``ordeval.tasks``: every task's package, data and scoring modules;
  ``ordeval.properties``: every task's property definitions), and the package's data files that a reached module
  reads (:data:`DATA_FILES`: the published numbers).

No script imports a module for the tracker's sake, and nothing is written: a job's reason for re-running says
``Params have changed since last execution``. Imports are found by a scan of each module's text (every ``import``
and ``from ... import`` statement, also inside functions); each file is read and hashed once per Snakemake start.
A plugin's own file is not package code: the rules that load plugins declare them as inputs.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "ordeval"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: The package's data files that a job's code reads (paths relative to the package), by the module that reads
#: them: a job whose code reaches the module depends on them as on its source. Every file of the package that is
#: not Python is here or in :data:`PLANNING_FILES` or :data:`NOT_READ` (a test keeps this true).
DATA_FILES = {
    "ordeval.results.replication": ("published/published.tsv",),  # the published numbers (ordeval.results.published)
    "ordeval.results.published": ("published/published.tsv",),
}


def _task_schemas() -> tuple[str, ...]:
    """The package's files of the tasks' sections of the configuration schema (``Task.schema_file``)."""
    from ordeval.tasks import all_tasks

    files = [Path(task.schema_file).resolve() for task in all_tasks() if task.schema_file is not None]
    return tuple(str(file.relative_to(PACKAGE_DIR)) for file in files if file.is_relative_to(PACKAGE_DIR))


#: Package files read when a configuration is planned (every Snakemake start), never by a job: the schemas, and the
#: registry of the public data (its files' SHA-256, checked at planning; ``ordeval fetch``).
PLANNING_FILES = ("schemas/config.schema.yaml", "data/registry.yaml", *_task_schemas())
#: Files of the package that no code reads.
NOT_READ = ("published/README.md", "py.typed")

#: An import statement anywhere in a module: ``from X import names`` (names possibly in parentheses over several
#: lines) or ``import X[, Y]``.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]+))", re.MULTILINE
)


class ModuleIndex:
    """The modules of the package under ``root`` (named ``package``): their files and the modules each imports."""

    def __init__(self, root: Path = PACKAGE_DIR, package: str = PACKAGE):
        self.package = package
        self.root = Path(root)
        self.files: dict[str, tuple[Path, bool]] = {}  # module -> (path, is package)
        for folder, folders, names in os.walk(root):
            folders[:] = sorted(name for name in folders if name.isidentifier() and name != "__pycache__")
            relative = Path(folder).relative_to(root).parts
            if relative and "__init__.py" not in names:
                folders[:] = []  # not a package: nothing below it is importable as ordeval.x
                continue
            for name in names:
                if name.endswith(".py") and name[:-3].isidentifier():
                    is_package = name == "__init__.py"
                    parts = relative if is_package else (*relative, name[:-3])
                    self.files[".".join((package, *parts))] = (Path(folder, name), is_package)
        self._imports: dict[str, tuple[str, ...]] = {}

    def path(self, module: str) -> Path:
        """The source file of ``package[.sub...]`` (a package's ``__init__.py``)."""
        if module not in self.files:
            raise ValueError(f"{self.package} has no module {module!r}")
        return self.files[module][0]

    def imports_of_text(self, text: str, package: str | None = None) -> tuple[str, ...]:
        """The package's modules that the code ``text`` imports; ``package``: the package of that code, for its
        relative imports (None: a script outside the package)."""
        found: list[str] = []
        for match in _IMPORT.finditer(text):
            source, names, plain = match.groups()
            if plain is not None:
                found += [item.split(" as ")[0].strip() for item in plain.split(",")]
                continue
            if source.startswith("."):
                if package is None:
                    continue
                level = len(source) - len(source.lstrip("."))
                parts = package.split(".")[: len(package.split(".")) - (level - 1)]
                source = ".".join(parts + ([source.lstrip(".")] if source.lstrip(".") else []))
            for item in re.sub(r"#[^\n]*", "", names).strip("()").replace("\n", " ").split(","):
                name = item.split(" as ")[0].strip()
                if name:  # a submodule, else a name the module ``source`` defines
                    found.append(f"{source}.{name}" if f"{source}.{name}" in self.files else source)
        return tuple(name for name in dict.fromkeys(found) if name in self.files)

    def imports(self, module: str) -> tuple[str, ...]:
        """The package's modules that ``module`` imports (anywhere in it), and those its registry finds."""
        if module not in self._imports:
            path, is_package = self.files[module]
            package = module if is_package else module.rsplit(".", 1)[0]
            found = self.imports_of_text(path.read_text(encoding="utf-8"), package)
            self._imports[module] = found + discovered(module, self)
        return self._imports[module]

    def closure(self, *modules: str) -> list[Path]:
        """The source files of ``modules`` and of every module they import, transitively, with the ``__init__.py``
        of their packages, and the data files these modules read (:data:`DATA_FILES`); sorted."""
        pending = list(modules)
        expanded: set[str] = set()
        files: set[Path] = set()
        while pending:
            name = pending.pop()
            if name in expanded or name not in self.files:
                continue
            expanded.add(name)
            parts = name.split(".")
            files.update(self.path(".".join(parts[:i])) for i in range(1, len(parts) + 1))  # its packages: files
            files.update(self.root / data for data in DATA_FILES.get(name, ()) if self.package == PACKAGE)
            pending += self.imports(name)
        return sorted(files)

    def script_files(self, script: str | Path) -> list[Path]:
        """The script and every file its code depends on (see the module docstring)."""
        imports = self.imports_of_text(Path(script).read_text(encoding="utf-8"))
        return sorted({Path(script), *self.closure(*imports)})


def discovered(module: str, index: ModuleIndex) -> tuple[str, ...]:
    """The modules that ``module`` imports by name at run time: the task registry (``ordeval.tasks``) imports every
    task's package, and the task runs its data and scoring modules; the property checks (``ordeval.properties``)
    import every task's property definitions (``Task.property_module``)."""
    if module not in (f"{PACKAGE}.tasks", f"{PACKAGE}.properties") or index.package != PACKAGE:
        return ()
    from ordeval.tasks import all_tasks

    if module == f"{PACKAGE}.properties":
        return tuple(task.property_module for task in all_tasks() if task.property_module in index.files)
    prefix = f"{module}."
    found = [name for name, (_, is_package) in index.files.items() if name.startswith(prefix) and is_package]
    for task in all_tasks():
        found += [*task.data_modules, *task.scoring_modules]
    return tuple(name for name in dict.fromkeys(found) if name in index.files)


_INDEX: ModuleIndex | None = None


def package_index() -> ModuleIndex:
    """The index of the installed ordeval package (built once per process)."""
    global _INDEX
    if _INDEX is None:
        _INDEX = ModuleIndex(PACKAGE_DIR, PACKAGE)
    return _INDEX


def script_files(script: str | Path) -> list[Path]:
    """The files the code of a rule's ``script`` depends on, itself included."""
    return package_index().script_files(script)


def code_digest(script: str | Path | None = None, modules: Iterable[str] = ()) -> str:
    """The SHA-256 of the code a job runs: ``script`` (a rule's script) and every file its code depends on, or the
    ``modules`` a ``run:`` block calls, with every file they depend on (see the module docstring). A rule passes it
    as a ``params`` entry (``code``), so that Snakemake re-runs exactly the jobs whose code changed (its params
    trigger): nothing is written, and the digest is the same wherever the checkout lies (paths relative to the
    package, a script by its name). Each file is read once per process."""
    index = package_index()
    files = set(index.closure(*modules))
    if script is not None:
        files.update(index.script_files(script))
    digest = hashlib.sha256()
    for path in sorted(files):
        name = path.relative_to(index.root).as_posix() if path.is_relative_to(index.root) else path.name
        digest.update(name.encode() + b"\0" + _file_digest(path) + b"\0")
    return digest.hexdigest()


_FILE_DIGESTS: dict[Path, bytes] = {}


def _file_digest(path: Path) -> bytes:
    if path not in _FILE_DIGESTS:
        _FILE_DIGESTS[path] = hashlib.sha256(path.read_bytes()).digest()
    return _FILE_DIGESTS[path]
