"""Results folders and recorded references, and the comparison of two of them (``ordeval diff``).

A **results folder** (``results/<name>/``, or any folder) offers every file below it, except the
:data:`VOLATILE` ones: the manifest (it records the git commit, the platform and the versions), the
LaTeX report and its PDF and TeX log (the report prints the commit), the job logs (times) and
Snakemake's HTML report. These are exactly the files the manifest does not hash (``output_files``).

A **recorded reference** (:func:`record_reference`, ``ordeval reference``) is a folder holding
``reference.json`` -- the SHA-256 of every output the manifest hashes, one line per file -- and a copy
of every CSV table (``tables/**/*.csv``: the unrounded numbers of the published tables, as text), under
the same paths as in the results folder. Figures, score matrices and the other intermediate files are
kept by hash only: a change to them is named, the changed numbers of a table are shown. The default
configuration's reference is ``reference/synthetic/`` in the repository (under 1 MB).

:func:`compare_folders` compares two of these, either kind on either side: files added, removed,
changed by hash, and for tables (``.csv``, ``.tsv``) whose text both sides hold, the changed cells
(:func:`ordeval.compare.compare_tables`).
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .compare import EXACT, TableDiff, Tolerance, compare_tables
from .errors import InputError
from .files import sha256
from .parsing import load_json
from .table import Table

#: Outputs that differ between two runs of one configuration on two commits or machines (glob patterns,
#: relative to the results folder, ``*`` matching ``/`` too): left out of references and comparisons.
VOLATILE = ("manifest.json", "logs/*", "report/ordeval.tex", "report/ordeval.pdf", "report/ordeval.log",
            "report.html")  # fmt: skip
#: The file of a recorded reference that lists its files.
INDEX = "reference.json"
FORMAT = "ordeval reference"
#: The files of a results folder whose text a reference keeps.
KEPT_TEXT = ("tables/*.csv",)
#: Files compared cell by cell, and their separators.
TABLE_SEPARATORS = {".csv": ",", ".tsv": "\t"}
_SHA256 = re.compile(r"[0-9a-f]{64}")


def matches(path: str, patterns: Sequence[str]) -> bool:
    """``path`` (relative, ``/``-separated) matches one of the glob ``patterns`` (``*`` matches ``/`` too)."""
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def is_table(path: str) -> bool:
    return Path(path).suffix in TABLE_SEPARATORS


def read_table(path: str | Path) -> Table:
    """A CSV or TSV file as text columns (header line, every line as many fields; errors name file and line)."""
    return Table.read(path, sep=TABLE_SEPARATORS[Path(path).suffix])


# --------------------------------------------------------------------------- the two kinds of folders


@dataclass
class Folder:
    """A results folder or a recorded reference: its files (relative paths) with their SHA-256, and where
    the text of each file it holds lies (``text``: path -> file on disk)."""

    path: Path
    kind: str  # "results" or "reference"
    hashes: dict[str, str]
    text: dict[str, Path]
    left_out: int = 0  # volatile files not offered

    def table(self, name: str) -> Table | None:
        return read_table(self.text[name]) if name in self.text else None


def open_folder(path: str | Path) -> Folder:
    """A recorded reference (a folder with ``reference.json``) or a results folder; an InputError (naming
    the path and the problem) for anything else."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, "no such folder")
    if not path.is_dir():
        raise InputError(path, None, "not a folder (a results folder or a recorded reference)")
    if (path / INDEX).is_file():
        return _open_reference(path)
    return _open_results(path)


def _open_results(path: Path) -> Folder:
    hashes, text, left_out = {}, {}, 0
    for file in sorted(path.rglob("*")):
        if not file.is_file():
            continue
        name = file.relative_to(path).as_posix()
        if matches(name, VOLATILE):
            left_out += 1
            continue
        hashes[name] = sha256(file)
        text[name] = file
    return Folder(path, "results", hashes, text, left_out)


def _open_reference(path: Path) -> Folder:
    index = path / INDEX
    document = load_json(index)
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != 1:
        raise InputError(index, None, f'not a reference of this ordeval version ("format": "{FORMAT}", "version": 1)')
    files = document.get("files")
    if not isinstance(files, dict):
        raise InputError(index, "key 'files'", "not an object of path: SHA-256")
    text = {}
    for name, digest in files.items():
        parts = name.split("/")
        if not name or name.startswith("/") or ".." in parts or "" in parts or "\\" in name or name == INDEX:
            raise InputError(index, f"key 'files'[{name[:80]!r}]", "not a relative path inside the folder")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise InputError(index, f"key 'files'[{name[:80]!r}]", "not a SHA-256 (64 lowercase hex digits)")
        copy = path / name
        if copy.is_file():
            if sha256(copy) != digest:
                raise InputError(copy, None, f"its SHA-256 is not the one {INDEX} records (edited by hand? record the "
                                 "reference again with 'ordeval reference')")  # fmt: skip
            text[name] = copy
    return Folder(path, "reference", dict(files), text)


# --------------------------------------------------------------------------- comparing two folders


@dataclass
class TableChange:
    """A table whose bytes differ, compared cell by cell."""

    path: str
    diff: TableDiff


@dataclass
class FolderDiff:
    """Two folders compared: files only ``new`` has, only ``old`` has, files changed by hash (no text of
    both sides, or not a table), tables compared cell by cell, how many files are identical."""

    old: Folder
    new: Folder
    tolerance: Tolerance
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    tables: list[TableChange] = field(default_factory=list)
    identical: int = 0
    ignored: int = 0

    @property
    def changed_tables(self) -> list[TableChange]:
        return [table for table in self.tables if not table.diff.equal]

    @property
    def equal(self) -> bool:
        return not (self.added or self.removed or self.changed or self.changed_tables)


def compare_folders(old: str | Path | Folder, new: str | Path | Folder, tolerance: Tolerance = EXACT,
                    ignore: Sequence[str] = ()) -> FolderDiff:  # fmt: skip
    """Compare every file of ``old`` and ``new`` (folders or :func:`open_folder` results), except those
    matching the glob patterns ``ignore``: identical bytes are equal; a table (CSV, TSV) both sides hold
    as text is compared cell by cell (:func:`ordeval.compare.compare_tables`); any other file that
    differs is changed (by SHA-256)."""
    old = old if isinstance(old, Folder) else open_folder(old)
    new = new if isinstance(new, Folder) else open_folder(new)
    result = FolderDiff(old, new, tolerance)
    for name in sorted(set(old.hashes) | set(new.hashes)):
        if matches(name, ignore):
            result.ignored += 1
        elif name not in new.hashes:
            result.removed.append(name)
        elif name not in old.hashes:
            result.added.append(name)
        elif old.hashes[name] == new.hashes[name]:
            result.identical += 1
        elif is_table(name) and name in old.text and name in new.text:
            diff = compare_tables(read_table(old.text[name]), read_table(new.text[name]), tolerance=tolerance)
            result.tables.append(TableChange(name, diff))
        else:
            result.changed.append(name)
    return result


# --------------------------------------------------------------------------- recording a reference


def reference_files(results: str | Path) -> dict[str, str]:
    """The outputs a reference of ``results`` records, with their SHA-256: the manifest's ``output_files``
    (every output but the volatile ones), checked against the files (an InputError for a missing or
    changed file: an incomplete run, or a file edited after it)."""
    results = Path(results)
    manifest = results / "manifest.json"
    if not manifest.is_file():
        raise InputError(results, None, "no manifest.json: not the results folder of a complete pipeline run "
                         "(run snakemake first)")  # fmt: skip
    document = load_json(manifest)
    entries = document.get("output_files") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        raise InputError(manifest, "key 'output_files'", "missing or empty: run the pipeline again")
    prefix = f"results/{document.get('name')}/"  # the manifest's paths: relative to the run's working folder
    files = {}
    for number, entry in enumerate(entries, start=1):
        path = entry.get("path") if isinstance(entry, dict) else None
        digest = entry.get("sha256") if isinstance(entry, dict) else None
        where = f"key 'output_files' record {number}"
        if not isinstance(path, str) or not isinstance(digest, str):
            raise InputError(manifest, where, "no 'path' and 'sha256'")
        if not path.startswith(prefix):
            raise InputError(manifest, where, f"{path} is not below {prefix}")
        name = path[len(prefix) :]
        file = results / name
        if not file.is_file():
            raise InputError(file, None, "listed in manifest.json but missing: run the pipeline again")
        if sha256(file) != digest:
            raise InputError(file, None, "changed since the pipeline wrote it (its SHA-256 is not the manifest's): "
                             "run the pipeline again")  # fmt: skip
        files[name] = digest
    return dict(sorted(files.items()))


def record_reference(results: str | Path, out: str | Path) -> dict[str, str]:
    """Write the reference of ``results`` into ``out``: ``reference.json`` and the kept tables' text
    (:data:`KEPT_TEXT`). ``out`` must be a new or empty folder or an earlier reference (replaced whole, so
    that a table no longer made leaves the reference). Returns the recorded files."""
    results, out = Path(results), Path(out)
    if not results.is_dir():
        raise InputError(results, None, "no such results folder")
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / INDEX).is_file())):
        raise InputError(out, None, f"exists and is not a recorded reference (no {INDEX}): give a new folder")
    files = reference_files(results)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        document = {"format": FORMAT, "version": 1, "results": results.name,
                    "made_by": f"ordeval reference {results.as_posix()} {out.as_posix()}",
                    "text_of": list(KEPT_TEXT), "left_out": list(VOLATILE), "files": files}  # fmt: skip
        (staging / INDEX).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        for name in files:
            if matches(name, KEPT_TEXT):
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(results / name, staging / name)
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            out.rename(retired / out.name)
            staging.rename(out)
            shutil.rmtree(retired)
        else:
            staging.rename(out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return files
