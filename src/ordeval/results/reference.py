"""Results folders and recorded references, and the comparison of two of them (``ordeval diff``).

A **results folder** (``results/<name>/`` of a complete run: it holds ``manifest.json``) offers every file
below it, except the :data:`VOLATILE` ones: the manifest (it records the git commit, the platform and the
versions), the LaTeX report and its PDF and TeX log (the report prints the commit), the job logs (times)
and Snakemake's HTML report. These are exactly the files the manifest does not hash (``output_files``).

A **recorded reference** (:func:`ordeval.results.recording.record_reference`, ``ordeval reference``) is a folder holding
``reference.json`` and a copy of every CSV table (``tables/**/*.csv``: the published numbers, as text)
under the same paths as in the results folder. ``reference.json`` records, for every output the manifest
hashes, its SHA-256 and, for a number-bearing file whose text it does not keep (score matrices, simulated
runs, arrays, LaTeX and HTML), the fingerprint of its numbers (:mod:`ordeval.results.fingerprint`); the
environment that made it (Python, numpy, BLAS, CPU features: :func:`ordeval.results.manifest.environment`); the
files it wrote (``written``), the only files :func:`record_reference` ever replaces; and its ``seal``, the
SHA-256 of all the rest (:func:`seal`), so that an edited fingerprint or hash is refused when it is opened.

:func:`compare_folders` compares two of these, either kind on either side (docs/methods.md, section 8):
identical bytes are equal; a table both sides hold as text is compared cell by cell
(:func:`ordeval.results.compare.compare_tables`); any other number-bearing file by value (both texts at hand:
number by number; one side a fingerprint: fingerprint against fingerprint); figures (PNG, PDF) by
SHA-256. Numbers are equal within :data:`ordeval.results.compare.PORTABLE` unless another tolerance is given.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ordeval.io.errors import InputError
from ordeval.io.files import sha256
from ordeval.io.parsing import RECORD_BYTES, load_json
from ordeval.io.table import Table
from ordeval.results.compare import PORTABLE, TableDiff, Tolerance, compare_tables
from ordeval.results.fingerprint import (
    Fingerprint,
    by_value,
    compare_files,
    compare_fingerprints,
    fingerprint_file,
)

#: Outputs that differ between two runs of one configuration on two commits or machines (glob patterns,
#: relative to the results folder, ``*`` matching ``/`` too): left out of references and comparisons.
VOLATILE = ("manifest.json", "logs/*", "report/ordeval.tex", "report/ordeval.pdf", "report/ordeval.log", "report.html")
#: The file of a recorded reference that lists its files.
INDEX = "reference.json"
FORMAT = "ordeval reference"
#: The versions of reference.json this ordeval reads (1: hashes only; 2: fingerprints, environment, written).
VERSIONS = (1, 2)
#: The files of a results folder whose text a reference keeps.
KEPT_TEXT = ("tables/*.csv",)
#: Files compared cell by cell, and their separators.
TABLE_SEPARATORS = {".csv": ",", ".tsv": "\t"}
#: A table larger than this (either side) is compared as other number-bearing text, block by block (its layout
#: and its numbers in order: :mod:`ordeval.results.text_numbers`), not cell by cell: matching rows by key holds
#: every cell as a Python string (~60 bytes each), so the memory of ``ordeval diff`` stays bounded.
CELL_BY_CELL_BYTES = 4 * 2**20
#: The manifest of a complete run, which a results folder holds.
MANIFEST = "manifest.json"
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: The key of reference.json that holds the SHA-256 of the rest of the record (:func:`seal`): an edit by hand is
#: found when the reference is opened, as the kept tables' hashes find an edited table. (A reference written
#: before the seal is read without it: its fingerprints are still checked for agreeing with themselves.)
SEAL = "seal"


def matches(path: str, patterns: Sequence[str]) -> bool:
    """``path`` (relative, ``/``-separated) matches one of the glob ``patterns`` (``*`` matches ``/`` too)."""
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def inside(name: str) -> bool:
    """``name`` is a relative ``/``-separated path that stays inside its folder."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and "\\" not in name and not {"", ".", ".."} & set(parts)


def is_table(path: str) -> bool:
    return Path(path).suffix in TABLE_SEPARATORS


def read_table(path: str | Path) -> Table:
    """A CSV or TSV file as text columns (header line, every line as many fields; errors name file and line)."""
    return Table.read(path, sep=TABLE_SEPARATORS[Path(path).suffix])


def file_sha256(path: Path) -> str:
    try:
        return sha256(path)
    except OSError as error:
        raise InputError(path, None, f"cannot be read ({error.strerror or error})") from None


# --------------------------------------------------------------------------- the two kinds of folders


@dataclass
class Folder:
    """A results folder or a recorded reference: its files (relative paths) with their SHA-256, where the
    text of each file it holds lies (``text``: path -> file on disk), the fingerprints a reference records,
    and the environment that made it."""

    path: Path
    kind: str  # "results" or "reference"
    hashes: dict[str, str]
    text: dict[str, Path]
    left_out: int = 0  # volatile files not offered
    unlisted: int = 0  # files of a results folder its manifest does not list (not offered)
    fingerprints: dict[str, Fingerprint] = field(default_factory=dict)
    environment: dict = field(default_factory=dict)


def open_folder(path: str | Path) -> Folder:
    """A recorded reference (a folder with ``reference.json``) or a results folder (with ``manifest.json``);
    an InputError (naming the path and the problem) for anything else."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, "no such folder")
    if not path.is_dir():
        raise InputError(path, None, "not a folder (a results folder or a recorded reference)")
    if (path / INDEX).is_file():
        return _open_reference(path)
    return _open_results(path)


def _files(path: Path) -> list[Path]:
    """The regular files below ``path`` (symbolic links to folders not followed), sorted."""
    try:
        return sorted(file for file in path.rglob("*") if file.is_file())
    except OSError as error:
        raise InputError(error.filename or path, None, f"cannot be listed ({error.strerror or error})") from None


def _open_results(path: Path) -> Folder:
    files = _files(path)
    if not files:
        raise InputError(
            path, None, f"an empty folder: neither a results folder ({MANIFEST}) nor a recorded reference ({INDEX})"
        )
    if not (path / MANIFEST).is_file():
        raise InputError(
            path,
            None,
            f"no {MANIFEST}: neither the results folder of a complete pipeline run nor a recorded reference ({INDEX})",
        )
    try:
        document = load_json(path / MANIFEST, RECORD_BYTES)
    except (OSError, ValueError):
        document = {}
    document = document if isinstance(document, dict) else {}
    listed = manifest_outputs(document)
    hashes, text, left_out, unlisted = {}, {}, 0, 0
    for file in files:
        name = file.relative_to(path).as_posix()
        if matches(name, VOLATILE):
            left_out += 1
        elif listed is not None and name not in listed:  # not an output of the run the manifest records
            unlisted += 1
        else:
            hashes[name] = file_sha256(file)
            text[name] = file
    return Folder(path, "results", hashes, text, left_out, unlisted, environment=environment_summary(document))


def unlisted_files(results: str | Path) -> list[str]:
    """The files of a results folder (relative paths, sorted) that its manifest does not list and that are not
    volatile: outputs of an earlier configuration of the same name, or left there otherwise; [] where it has no
    readable manifest."""
    results = Path(results)
    try:
        document = load_json(results / MANIFEST, RECORD_BYTES)
    except (OSError, ValueError):
        return []
    listed = manifest_outputs(document) if isinstance(document, dict) else None
    if listed is None:
        return []
    names = (file.relative_to(results).as_posix() for file in _files(results))
    return [name for name in names if name not in listed and not matches(name, VOLATILE)]


def manifest_outputs(document: dict) -> set[str] | None:
    """The outputs a results folder's manifest lists (relative to the folder), None where it lists none (an older
    or damaged manifest: every file is then offered). The files a results folder offers, and so what a reference
    of it records: a file the configuration no longer makes (a data set since dropped), a job's temporary file
    or anything put there by hand is not an output of the run."""
    entries = document.get("output_files")
    if not isinstance(entries, list) or not entries:
        return None
    prefix = f"results/{document.get('name')}/"
    return {
        entry["path"][len(prefix) :]
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("path"), str) and entry["path"].startswith(prefix)
    }


def environment_summary(document: dict) -> dict:
    """The environment a manifest (or a reference) records, flattened to ``{what: value}`` for display."""
    summary = {}
    python = document.get("python")
    if isinstance(python, dict):
        summary["python"] = f"{python.get('implementation', '')} {python.get('version', '')}".strip()
    if isinstance(document.get("platform"), str):
        summary["platform"] = document["platform"]
    dependencies = document.get("dependencies")
    if isinstance(dependencies, dict):
        for name in ("numpy", "numba", "scipy", "matplotlib"):
            if name in dependencies:
                summary[name] = str(dependencies[name])
    environment = document.get("environment")
    if isinstance(environment, dict):
        summary.update({key: str(value) for key, value in environment.items() if key not in summary})
    return summary


def seal(document: dict) -> str:
    """The SHA-256 of a reference's record without its ``seal``: its keys sorted, compact, ASCII (the same text
    for the same record, whatever wrote it)."""
    import hashlib

    content = {key: value for key, value in document.items() if key != SEAL}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _open_reference(path: Path) -> Folder:
    index = path / INDEX
    document = load_json(index, RECORD_BYTES)
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") not in VERSIONS:
        raise InputError(
            index,
            None,
            f'not a reference of this ordeval version ("format": "{FORMAT}", "version": '
            f"{' or '.join(map(str, VERSIONS))})",
        )
    if SEAL in document and document[SEAL] != seal(document):
        raise InputError(
            index,
            f"key {SEAL!r}",
            "the record does not agree with its seal (its SHA-256): edited after 'ordeval reference' wrote it; "
            "record the reference again",
        )
    files = document.get("files")
    if not isinstance(files, dict):
        raise InputError(index, "key 'files'", "not an object of path: SHA-256")
    text = {}
    for name, digest in files.items():
        if not inside(name) or name == INDEX:
            raise InputError(index, f"key 'files'[{name[:80]!r}]", "not a relative path inside the folder")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise InputError(index, f"key 'files'[{name[:80]!r}]", "not a SHA-256 (64 lowercase hex digits)")
        copy = path / name
        if copy.is_file():
            if file_sha256(copy) != digest:
                raise InputError(
                    copy,
                    None,
                    f"its SHA-256 is not the one {INDEX} records (edited by hand? record the "
                    "reference again with 'ordeval reference')",
                )
            text[name] = copy
    numbers = document.get("numbers", {})
    if not isinstance(numbers, dict):
        raise InputError(index, "key 'numbers'", "not an object of path: fingerprint")
    fingerprints = {}
    for name, entry in numbers.items():
        if name not in files:
            raise InputError(index, f"key 'numbers'[{name[:80]!r}]", "not one of the files the reference records")
        fingerprints[name] = Fingerprint.from_json(entry, (index, f"key 'numbers'[{name[:80]!r}]"))
    environment = environment_summary(document)
    return Folder(path, "reference", dict(files), text, fingerprints=fingerprints, environment=environment)


# --------------------------------------------------------------------------- comparing two folders


@dataclass
class TableChange:
    """A table whose bytes differ, compared cell by cell."""

    path: str
    diff: TableDiff


@dataclass
class ValueChange:
    """A number-bearing file (not a table compared cell by cell) whose numbers or text differ beyond the
    tolerance: what differs, one phrase."""

    path: str
    what: str


@dataclass
class FolderDiff:
    """Two folders compared: files only ``new`` has, only ``old`` has, files changed by hash (figures, or a
    side with no text and no fingerprint), tables compared cell by cell, other number-bearing files compared by
    value, how many files are identical and how many equal by value with other bytes."""

    old: Folder
    new: Folder
    tolerance: Tolerance
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    tables: list[TableChange] = field(default_factory=list)
    values: list[ValueChange] = field(default_factory=list)
    identical: int = 0
    equal_by_value: int = 0
    ignored: int = 0

    @property
    def changed_tables(self) -> list[TableChange]:
        return [table for table in self.tables if not table.diff.equal]

    @property
    def equal(self) -> bool:
        return not (self.added or self.removed or self.changed or self.values or self.changed_tables)

    @property
    def environments_differ(self) -> dict[str, tuple[str, str]]:
        """What each side's environment says where the two differ (keys either side records)."""
        old, new = self.old.environment, self.new.environment
        if not old or not new:
            return {}
        keys = [key for key in dict.fromkeys([*old, *new]) if old.get(key) != new.get(key)]
        return {key: (old.get(key, "(not recorded)"), new.get(key, "(not recorded)")) for key in keys}


def compare_folders(
    old: str | Path | Folder, new: str | Path | Folder, tolerance: Tolerance = PORTABLE, ignore: Sequence[str] = ()
) -> FolderDiff:
    """Compare every file of ``old`` and ``new`` (folders or :func:`open_folder` results), except those
    matching the glob patterns ``ignore``: identical bytes are equal; a table (CSV, TSV) both sides hold
    as text is compared cell by cell (:func:`ordeval.results.compare.compare_tables`); another number-bearing file
    by value (:mod:`ordeval.results.fingerprint`); any other file that differs is changed (by SHA-256)."""
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
        elif is_table(name) and name in old.text and name in new.text and _small(old, new, name):
            diff = compare_tables(read_table(old.text[name]), read_table(new.text[name]), tolerance=tolerance)
            result.tables.append(TableChange(name, diff))
        elif by_value(name) and _comparable(old, name) and _comparable(new, name):
            what = _compare_values(old, new, name, tolerance)
            if what is None:
                result.equal_by_value += 1
            else:
                result.values.append(ValueChange(name, what))
        else:
            result.changed.append(name)
    return result


def _small(old: Folder, new: Folder, name: str) -> bool:
    """Whether both sides' text of the table ``name`` is at most :data:`CELL_BY_CELL_BYTES`."""
    try:
        return all(folder.text[name].stat().st_size <= CELL_BY_CELL_BYTES for folder in (old, new))
    except OSError:
        return True  # the reader says what is wrong


def _comparable(folder: Folder, name: str) -> bool:
    return name in folder.text or name in folder.fingerprints


def _compare_values(old: Folder, new: Folder, name: str, tolerance: Tolerance) -> str | None:
    if name in old.text and name in new.text:
        return compare_files(old.text[name], new.text[name], name, tolerance)
    prints = [folder.fingerprints.get(name) or fingerprint_file(folder.text[name], name) for folder in (old, new)]
    return compare_fingerprints(prints[0], prints[1], tolerance)
