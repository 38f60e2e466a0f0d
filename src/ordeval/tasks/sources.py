"""The source entries of a data set's configuration and the files they read.

A data set's configuration names its gold, its run sources and its score files (``gold``, ``runs[i]``,
``scores[i]``); an entry with a ``path`` reads a file, below ``data_root`` unless the path is absolute. This
module owns what is known of those files before a data set is built: their paths by entry and by key
(:func:`source_paths`: what :meth:`ordeval.tasks.base.Task.build` is given), the one-line errors about files
that are missing or not regular files (:func:`check_source_files`, :func:`check_files_exist`), and the provenance
record of a file read (:func:`file_record`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from ordeval.io.errors import ConfigError


def file_record(source: Mapping, path: str | Path) -> dict:
    """The provenance of a source read from the file ``path``: its type, its path as the configuration gives it
    (relative to ``data_root`` unless absolute: the same bytes wherever the data and the checkout lie) and the
    file's SHA-256."""
    from ordeval.io.files import sha256

    record = {"source": "file", "type": source["type"], "path": str(source["path"])}
    record["sha256"] = sha256(path)
    if "score" in source:
        record["score"] = source["score"]
    return record


def resolve_path(path: str, data_root: str | Path) -> Path:
    """A source path: absolute as given, otherwise relative to ``data_root``."""
    candidate = Path(path)
    return candidate if candidate.is_absolute() else Path(data_root) / candidate


def source_entries(spec: Mapping) -> Iterator[tuple[str, Mapping]]:
    """(config entry, source) of the gold, every run source and every score file of a data set's spec."""
    if "gold" in spec:
        yield "gold", spec["gold"]
    for index, source in enumerate(spec.get("runs", [])):
        yield f"runs[{index}]", source
    for index, source in enumerate(spec.get("scores", [])):
        yield f"scores[{index}]", source


def file_key(entry: str) -> str:
    """The key of a source entry's file in what :meth:`Task.build` reads (``files``): ``gold``, ``runs[2]`` ->
    ``runs_2``, ``scores[0]`` -> ``scores_0`` (a Python identifier: a rule's named input)."""
    return entry.replace("[", "_").removesuffix("]")


def source_paths(name: str, spec: Mapping, data_root: str | Path) -> dict[str, Path]:
    """The ``files`` of :meth:`Task.build` for data set ``name``: the path (below ``data_root`` unless absolute)
    of every source entry that reads a file, by :func:`file_key`."""
    return {
        file_key(entry): resolve_path(source["path"], data_root)
        for entry, source in source_entries(spec)
        if "path" in source
    }


def source_files(name: str, spec: Mapping, data_root: str | Path) -> Iterator[tuple[Path, str]]:
    """(path, config entry that asks for it) for every file the data set ``name`` reads."""
    for entry, source in source_entries(spec):
        if "path" in source:
            yield resolve_path(source["path"], data_root), f"datasets.{name}.{entry}"


def check_source_files(name: str, spec: Mapping, files: Mapping[str, str | Path]) -> None:
    """One line about the files of data set ``name`` that :meth:`Task.build` cannot read: a source entry that
    reads a file without a path in ``files``, else the files that are not there (:func:`missing_files`: the first
    three, and how many more)."""
    listed = [(entry, file_key(entry)) for entry, source in source_entries(spec) if "path" in source]
    absent = [f"datasets.{name}.{entry} (key {key!r})" for entry, key in listed if key not in files]
    if absent:
        raise ConfigError(f"no file given for {', '.join(absent)}")
    missing = missing_files([(Path(files[key]), f"datasets.{name}.{entry}") for entry, key in listed])
    if missing:
        raise ConfigError(f"{_count(len(missing), 'input file')} missing: {_first_three(missing)}")


def missing_files(listed: Sequence[tuple[Path, str]]) -> list[str]:
    """The files of ``listed`` ((path, config entry)) that are not there (or are folders), each with the config
    entry that asked for it."""
    return [f"{path}{_not_regular(path)} (asked for by {entry})" for path, entry in listed if not path.is_file()]


def _not_regular(path: Path) -> str:
    """`` (a folder)``, `` (a FIFO (named pipe), not a regular file)`` for a path that exists and is not a regular
    file; "" for a missing one."""
    from ordeval.io.files import file_kind

    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    kind = file_kind(mode)
    return " (a folder)" if kind == "a folder" else f" ({kind}, not a regular file)"


def _first_three(missing: list[str]) -> str:
    """The first three of ``missing``, and how many more."""
    return "; ".join(missing[:3]) + (f"; and {len(missing) - 3} more" if len(missing) > 3 else "")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def check_files_exist(datasets: Mapping[str, Mapping], data_root: str | Path) -> None:
    """One line about the input files that are not there: a ``data_root`` that is no folder (when files are
    to be read below it), else the missing files (:func:`missing_files`: the first three, and how many more)."""
    listed = [(path, entry) for name, spec in datasets.items() for path, entry in source_files(name, spec, data_root)]
    root = Path(data_root)
    below = [path for path, _ in listed if path.is_relative_to(root)]
    if below and not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "no such folder"
        raise ConfigError(
            f"config key data_root: {str(data_root)!r}: {what}; the configuration reads {_count(len(below), 'file')} "
            f"below it (e.g. {below[0].relative_to(root)})"
        )
    missing = missing_files(listed)
    if missing:
        raise ConfigError(
            f"data_root {str(data_root)!r} lacks {_count(len(missing), 'input file')}: {_first_three(missing)}"
        )
