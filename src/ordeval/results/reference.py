"""Results folders and recorded references, and the comparison of two of them (``ordeval diff``).

A **results folder** (``results/<name>/`` of a complete run: it holds ``manifest.json``) offers every file
below it, except the :data:`VOLATILE` ones: the manifest (it records the git commit, the platform and the
versions), the LaTeX report and its PDF and TeX log (the report prints the commit), the job logs (times)
and Snakemake's HTML report. These are exactly the files the manifest does not hash (``output_files``).

A **recorded reference** (:func:`record_reference`, ``ordeval reference``) is a folder holding
``reference.json`` and a copy of every CSV table (``tables/**/*.csv``: the published numbers, as text)
under the same paths as in the results folder. ``reference.json`` records, for every output the manifest
hashes, its SHA-256 and, for a number-bearing file whose text it does not keep (score matrices, simulated
runs, arrays, LaTeX and HTML), the fingerprint of its numbers (:mod:`ordeval.results.fingerprint`); the
environment that made it (Python, numpy, BLAS, CPU features: :func:`ordeval.results.manifest.environment`); and the
files it wrote (``written``), the only files :func:`record_reference` ever replaces.

:func:`compare_folders` compares two of these, either kind on either side (docs/methods.md, section 8):
identical bytes are equal; a table both sides hold as text is compared cell by cell
(:func:`ordeval.results.compare.compare_tables`); any other number-bearing file by value (both texts at hand:
number by number; one side a fingerprint: fingerprint against fingerprint); figures (PNG, PDF) by
SHA-256. Numbers are equal within :data:`ordeval.results.compare.PORTABLE` unless another tolerance is given.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ordeval.io.errors import InputError
from ordeval.io.files import sha256, write_text
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


def matches(path: str, patterns: Sequence[str]) -> bool:
    """``path`` (relative, ``/``-separated) matches one of the glob ``patterns`` (``*`` matches ``/`` too)."""
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def _relative(name: str) -> bool:
    """``name`` is a relative ``/``-separated path that stays inside its folder."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and "\\" not in name and not {"", ".", ".."} & set(parts)


def is_table(path: str) -> bool:
    return Path(path).suffix in TABLE_SEPARATORS


def read_table(path: str | Path) -> Table:
    """A CSV or TSV file as text columns (header line, every line as many fields; errors name file and line)."""
    return Table.read(path, sep=TABLE_SEPARATORS[Path(path).suffix])


def _hash(path: Path) -> str:
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
    hashes, text, left_out = {}, {}, 0
    for file in files:
        name = file.relative_to(path).as_posix()
        if matches(name, VOLATILE):
            left_out += 1
            continue
        hashes[name] = _hash(file)
        text[name] = file
    return Folder(path, "results", hashes, text, left_out, environment=_manifest_environment(path / MANIFEST))


def _manifest_environment(manifest: Path) -> dict:
    """What the manifest says of the machine (an older manifest: its platform and versions only)."""
    try:
        document = load_json(manifest, RECORD_BYTES)
    except (OSError, ValueError):
        return {}
    return environment_summary(document) if isinstance(document, dict) else {}


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
    files = document.get("files")
    if not isinstance(files, dict):
        raise InputError(index, "key 'files'", "not an object of path: SHA-256")
    text = {}
    for name, digest in files.items():
        if not _relative(name) or name == INDEX:
            raise InputError(index, f"key 'files'[{name[:80]!r}]", "not a relative path inside the folder")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise InputError(index, f"key 'files'[{name[:80]!r}]", "not a SHA-256 (64 lowercase hex digits)")
        copy = path / name
        if copy.is_file():
            if _hash(copy) != digest:
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


def owned_files(path: Path) -> set[str] | None:
    """The files a recorded reference in ``path`` wrote (relative paths, ``reference.json`` included), or None
    when ``path`` holds no readable reference."""
    try:
        document = load_json(path / INDEX, RECORD_BYTES)
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") not in VERSIONS:
        return None
    if document.get("version") == 1:  # version 1 wrote the kept tables of its files
        files = document.get("files") if isinstance(document.get("files"), dict) else {}
        written = [name for name in files if isinstance(name, str) and matches(name, KEPT_TEXT)]
    else:
        written = document.get("written")
        if not isinstance(written, list) or not all(isinstance(name, str) for name in written):
            return None
    return {INDEX, *(name for name in written if _relative(name))}


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


# --------------------------------------------------------------------------- recording a reference


def reference_files(results: str | Path) -> tuple[dict[str, str], dict]:
    """The outputs a reference of ``results`` records, with their SHA-256: the manifest's ``output_files``
    (every output but the volatile ones), checked against the files (an InputError for a missing or
    changed file: an incomplete run, or a file edited after it); and the manifest."""
    results = Path(results)
    manifest = results / MANIFEST
    if not manifest.is_file():
        raise InputError(
            results, None, f"no {MANIFEST}: not the results folder of a complete pipeline run (run snakemake first)"
        )
    document = load_json(manifest, RECORD_BYTES)
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
        if not _relative(name) or name == INDEX:
            raise InputError(manifest, where, f"{path} is not a path inside {results}")
        file = results / name
        if not file.is_file():
            raise InputError(file, None, f"listed in {MANIFEST} but missing: run the pipeline again")
        if _hash(file) != digest:
            raise InputError(
                file,
                None,
                "changed since the pipeline wrote it (its SHA-256 is not the manifest's): run the pipeline again",
            )
        files[name] = digest
    return dict(sorted(files.items())), document


def _check_out(results: Path, out: Path) -> None:
    """Refuse an ``out`` that would overwrite or mix with anything but an earlier reference."""
    real_results, real_out = results.resolve(), out.resolve()
    if real_out == real_results or real_out.is_relative_to(real_results):
        raise InputError(out, None, f"lies inside the results folder {results}: give a folder outside it")
    if real_results.is_relative_to(real_out):
        raise InputError(out, None, f"contains the results folder {results}: give a folder outside it")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise InputError(out, None, "exists and is not a folder: give a new folder")
    if not out.exists() or not any(out.iterdir()):
        return
    owned = owned_files(out)
    if owned is None:
        raise InputError(
            out, None, f"exists and is not a recorded reference (no readable {INDEX}): give a new or empty folder"
        )
    for entry in sorted(out.rglob("*")):
        name = entry.relative_to(out).as_posix()
        if entry.is_symlink() or (not entry.is_dir() and name not in owned):
            raise InputError(
                entry,
                None,
                f"not written by 'ordeval reference' (not in {out / INDEX}): the reference "
                f"would replace it; give a new folder, or move it away",
            )


def record_reference(results: str | Path, out: str | Path, tolerance: Tolerance = PORTABLE) -> dict[str, str]:
    """Write the reference of ``results`` into ``out``: ``reference.json`` and the kept tables' text
    (:data:`KEPT_TEXT`). ``out`` must be a new or empty folder or an earlier reference holding only the
    files it wrote; it is replaced once the new reference is complete (a table no longer made leaves it).
    ``tolerance`` is recorded as the one the reference is meant to be compared with. Returns the recorded
    files."""
    results, out = Path(results), Path(out)
    if not results.is_dir():
        raise InputError(results, None, "no such results folder")
    _check_out(results, out)
    files, manifest = reference_files(results)
    numbers = {
        name: fingerprint_file(results / name, name).as_json()
        for name in files
        if by_value(name) and not matches(name, KEPT_TEXT)
    }
    kept = [name for name in files if matches(name, KEPT_TEXT)]
    staging = None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        umask = os.umask(0)
        os.umask(umask)
        staging.chmod(0o777 & ~umask)  # mkdtemp makes a private folder
        document = {
            "format": FORMAT,
            "version": 2,
            "results": results.name,
            "made_by": "ordeval reference",
            "tolerance": tolerance.as_dict(),
            "text_of": list(KEPT_TEXT),
            "left_out": list(VOLATILE),
            "python": manifest.get("python"),
            "platform": manifest.get("platform"),
            "dependencies": manifest.get("dependencies"),
            "environment": manifest.get("environment"),
            "written": [INDEX, *kept],
            "files": files,
            "numbers": numbers,
        }
        write_text(json.dumps(document, indent=1) + "\n", staging / INDEX)
        for name in kept:
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(results / name, staging / name)
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            out.rename(retired / out.name)
            staging.rename(out)
            shutil.rmtree(retired)
        else:
            staging.rename(out)
    except OSError as error:
        where = _destination(error, staging, out)
        raise InputError(where, None, f"cannot be written ({error.strerror or error}); {out} is unchanged") from None
    finally:
        if staging is not None and staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return files


def _destination(error: OSError, staging: Path | None, out: Path) -> Path:
    """The file of ``out`` that a failed write was making (the staging copy's name under ``out``)."""
    for name in (error.filename2, error.filename):
        if name and staging is not None and Path(name).is_relative_to(staging):
            return out / Path(name).relative_to(staging)
    return out
