"""Recording a reference (``ordeval reference RESULTS OUT``): the outputs of a complete run checked against its
manifest, their fingerprints, and the record written beside ``OUT`` and renamed into place, never destroying
anything but an earlier reference (:mod:`ordeval.results.reference` reads and compares them)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from ordeval.io.errors import InputError
from ordeval.io.files import write_text
from ordeval.io.parsing import RECORD_BYTES, load_json
from ordeval.results.compare import PORTABLE, Tolerance
from ordeval.results.fingerprint import by_value, fingerprint_file
from ordeval.results.reference import (
    FORMAT,
    INDEX,
    KEPT_TEXT,
    MANIFEST,
    SEAL,
    VERSIONS,
    VOLATILE,
    file_sha256,
    inside,
    matches,
    seal,
)


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
    return {INDEX, *(name for name in written if inside(name))}


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
        if not inside(name) or name == INDEX:
            raise InputError(manifest, where, f"{path} is not a path inside {results}")
        file = results / name
        if not file.is_file():
            raise InputError(file, None, f"listed in {MANIFEST} but missing: run the pipeline again")
        if file_sha256(file) != digest:
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
    files.

    The new reference is made in a staging folder beside ``out`` (``.<out>.<8 characters>``) and renamed into
    place; an earlier one is first moved aside (``.<out>.old.<8 characters>/<out>``) and back again if the
    rename fails. One call at a time writes beside ``out`` (a lock on its parent folder), and each call first
    tidies what a call killed outright left there: staging folders are removed, and an earlier reference left
    aside while ``out`` is missing is put back."""
    results, out = Path(results), Path(out)
    if not results.is_dir():
        raise InputError(results, None, "no such results folder")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(out.parent, None, f"cannot be made ({error.strerror or error})") from None
    with _writing_beside(out):
        _recover(out)
        _check_out(results, out)
        files, manifest = reference_files(results)
        numbers = {
            name: fingerprint_file(results / name, name).as_json()
            for name in files
            if by_value(name) and not matches(name, KEPT_TEXT)
        }
        kept = [name for name in files if matches(name, KEPT_TEXT)]
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
        document[SEAL] = seal(document)
        _write(results, out, document, kept)
    return files


def _write(results: Path, out: Path, document: dict, kept: list[str]) -> None:
    """The reference in a staging folder beside ``out``, then renamed into place (see :func:`record_reference`)."""
    staging = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        umask = os.umask(0)
        os.umask(umask)
        staging.chmod(0o777 & ~umask)  # mkdtemp makes a private folder
        write_text(json.dumps(document, indent=1) + "\n", staging / INDEX)
        for name in kept:
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(results / name, staging / name)
        if not out.exists():
            staging.rename(out)
            return
        retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        out.rename(retired / out.name)
        try:
            staging.rename(out)
        except BaseException:
            _put_back(retired / out.name, out)
            raise
        shutil.rmtree(retired, ignore_errors=True)  # the new reference is in place: what is left is not its concern
    except OSError as error:
        where = _destination(error, staging, out)
        raise InputError(where, None, f"cannot be written ({error.strerror or error}); {out} is unchanged") from None
    finally:
        if staging is not None and staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _put_back(retired: Path, out: Path) -> None:
    """Move the earlier reference ``retired`` back to ``out`` (a rename that failed): an InputError saying where it
    is if even that fails."""
    try:
        retired.rename(out)
    except OSError as error:
        raise InputError(
            out,
            None,
            f"cannot be replaced, nor put back ({error.strerror or error}): the earlier reference is {retired}",
        ) from None
    shutil.rmtree(retired.parent, ignore_errors=True)


#: The folders a call of :func:`record_reference` makes beside its ``out`` (tempfile's 8 characters).
_STAGING = r"^\.{name}\.(?P<old>old\.)?[a-z0-9_]{{8}}$"


def _recover(out: Path) -> None:
    """Tidy what a killed call left beside ``out`` (under the lock, so no call is running): an earlier reference
    moved aside while ``out`` is missing is put back; staging folders and emptied ones are removed."""
    pattern = re.compile(_STAGING.format(name=re.escape(out.name)))
    for entry in sorted(out.parent.iterdir()):
        match = pattern.match(entry.name)
        if not match or entry.is_symlink() or not entry.is_dir():
            continue
        aside = entry / out.name
        if match.group("old") and aside.is_dir() and not out.exists() and (aside / INDEX).is_file():
            _put_back(aside, out)
        else:
            shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def _writing_beside(out: Path):
    """An exclusive lock (``flock``) on ``out``'s parent folder while a reference is written there: a second
    ``ordeval reference`` into a folder beside it waits, instead of mixing its staging with this one's."""
    import fcntl

    descriptor = os.open(out.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _destination(error: OSError, staging: Path | None, out: Path) -> Path:
    """The file of ``out`` that a failed write was making (the staging copy's name under ``out``)."""
    for name in (error.filename2, error.filename):
        if name and staging is not None and Path(name).is_relative_to(staging):
            return out / Path(name).relative_to(staging)
    return out
