"""A rule's script run outside Snakemake, on the files you name, with the object Snakemake would give it (tests,
debugging, the one-process floor of benchmarks/floor.py)::

    from ordeval.workflow.offline import mock_snakemake, run_script
    run_script("scripts/replication_dataset.py", mock_snakemake(
        "replication_dataset", input={...}, output={...}, params={...}, wildcards={"dataset": "Sem16T4E"}))
"""

from __future__ import annotations

import logging
import runpy
from collections.abc import Mapping
from pathlib import Path
from typing import Any


class Files(list):
    """Snakemake's named lists as a script sees them: every item in order (``files[0]``, iteration), and each
    name as an attribute or key (``files.stack``, ``files["stack"]``: a string, or a list where the rule gave
    a list)."""

    def __init__(self, named: Mapping[str, Any] | None = None, positional=()):
        self._names: dict[str, Any] = {}
        super().__init__(positional)
        for name, value in (named or {}).items():
            value = value if isinstance(value, (str, int, float, bool, dict)) or value is None else list(value)
            self._names[name] = value
            self.extend(value if isinstance(value, list) else [value])

    def __getattr__(self, name: str):
        try:
            return self.__dict__["_names"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        return self._names[key] if isinstance(key, str) else super().__getitem__(key)

    def items(self):
        return self._names.items()

    def get(self, name: str, default=None):
        return self._names.get(name, default)

    def keys(self):
        return self._names.keys()


class MockSnakemake:
    """The object a ``script:`` is given: rule, input, output, params, wildcards, log, threads, resources."""

    def __init__(
        self,
        rule: str,
        *,
        input=None,
        output=None,
        params=None,
        wildcards=None,
        log=(),
        threads: int = 1,
        resources=None,
    ):
        self.rule = rule
        self.input = Files(input)
        self.output = Files(output)
        self.params = Files(params)
        self.wildcards = Files(wildcards)
        self.log = Files(positional=[str(path) for path in ([log] if isinstance(log, (str, Path)) else log)])
        self.threads = threads
        self.resources = Files(resources)


def mock_snakemake(rule: str, **given) -> MockSnakemake:
    """What Snakemake gives the script of ``rule``, from ``input``, ``output``, ``params``, ``wildcards`` (dicts
    of a name to a path, a list of paths or a value), ``log`` (a path or paths), ``threads``, ``resources``."""
    return MockSnakemake(rule, **given)


def run_script(path: str | Path, snakemake) -> dict:
    """Run a rule's script with ``snakemake`` (e.g. :func:`mock_snakemake`'s) as Snakemake would, in this
    process; its globals. The logging it sets up (:func:`job`) is undone afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        return runpy.run_path(str(path), init_globals={"snakemake": snakemake}, run_name="__main__")
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                handler.close()
        root.handlers[:] = handlers
        root.setLevel(level)
        logging.captureWarnings(False)
