"""Atomic file writing, hashing, and opening input files: a failed job leaves no partial output, and a path that
is not a regular file (a FIFO, a device, a socket) is refused before it is read."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

_UMASK = os.umask(0)
os.umask(_UMASK)

#: What a path that is not a regular file is, by its ``stat`` type (for messages).
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is (``a regular file``, ``a FIFO (named pipe)``, ...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def open_regular(path: str | Path):
    """``path`` opened for reading (binary), only if it is a regular file. It is opened without blocking and
    checked on the open descriptor (``fstat``): a FIFO with no writer, which a plain ``open`` waits for forever,
    a device such as ``/dev/zero`` or ``/dev/stdin`` that never ends, a socket or a folder is an
    :class:`~ordeval.io.errors.InputError` naming the path and what it is, before any byte is read (and no race
    between a check and the open). A missing file is "file not found"; other errors are raised as they are."""
    from ordeval.io.errors import InputError

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(path, None, "file not found") from None
    except IsADirectoryError:
        raise InputError(path, None, "is a directory, not a file") from None
    except OSError:  # a socket cannot be opened at all (ENXIO): say what it is
        try:
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise InputError(path, None, f"is {file_kind(mode)}, not a regular file") from None
        raise
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = file_kind(mode)
            raise InputError(
                path, None, "is a directory, not a file" if kind == "a folder" else f"is {kind}, not a regular file"
            )
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def write_atomically(path: str | Path, write: Callable[[str], None]) -> None:
    """Call ``write(temporary_path)`` on a file beside ``path``, then rename it into place. The temporary
    file (``.<name>.<8 random characters>``, :data:`TEMPORARY`) is removed on any failure, and an
    OSError has ``path`` as its file name (a full disk would otherwise name the temporary file, or none)."""
    path = Path(path)
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        os.close(handle)
        write(temporary)
        os.chmod(temporary, 0o666 & ~_UMASK)  # mkstemp makes 0600 files; outputs get the usual mode
        os.replace(temporary, path)
    except BaseException as error:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError) and error.errno is not None and error.filename != str(path):
            raise type(error)(error.errno, error.strerror, str(path)) from error  # "...: '<path>'"
        raise


#: The names :func:`write_atomically` gives its temporary files (tempfile's 8 characters after the prefix).
TEMPORARY = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}$")


def remove_temporaries(paths) -> list[Path]:
    """Remove the temporary files that :func:`write_atomically` left beside each of ``paths`` when a process
    writing it was killed (``figures/dp_curves/.Sem17T4E.png.xwx2fo4o`` beside ``Sem17T4E.png``): what a job
    does first, as it is about to write ``paths`` (nothing else writes them while it runs). Only regular files;
    returns those removed."""
    found = []
    for path in map(Path, paths):
        try:
            names = os.listdir(path.parent)
        except OSError:
            continue
        found += [
            path.parent / name for name in names if (match := TEMPORARY.match(name)) and match["name"] == path.name
        ]
    return remove_stale(found, 0)


def remove_stale(paths: list[Path], min_age: float) -> list[Path]:
    """Remove those of ``paths`` that are regular files last modified more than ``min_age`` seconds ago; the ones
    removed."""
    import time

    cutoff = time.time() - min_age
    removed = []
    for candidate in paths:
        try:
            status = candidate.lstat()
            if stat.S_ISREG(status.st_mode) and status.st_mtime <= cutoff:
                candidate.unlink()
                removed.append(candidate)
        except FileNotFoundError:
            continue
    return removed


def write_json(data, path: str | Path) -> None:
    def write(temporary):
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, default=str)
            handle.write("\n")

    write_atomically(path, write)


def write_text(text: str, path: str | Path) -> None:
    write_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))


def sha256(path: str | Path) -> str:
    """The SHA-256 of a regular file (:func:`open_regular`), read in blocks of 1 MiB."""
    digest = hashlib.sha256()
    with open_regular(path) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_description(png_path: str | Path) -> str:
    """The ``Description`` text chunk of a PNG (where figures store their caption), "" if it has none.

    Read from the chunk headers, the image data skipped: PIL's ``Image.text`` decodes the whole image
    first (~17 ms for a figure; 0.9 s of the report job's 1.1 s). Reads ``tEXt`` (Latin-1), ``zTXt``
    and ``iTXt`` (UTF-8, compressed or not) chunks, as PIL does; the first ``Description`` counts."""
    with open(png_path, "rb") as handle:
        if handle.read(8) != PNG_SIGNATURE:
            raise ValueError(f"{png_path}: not a PNG file")
        while True:
            header = handle.read(8)
            if len(header) < 8:
                raise ValueError(f"{png_path}: truncated PNG (no IEND chunk)")
            length, kind = int.from_bytes(header[:4], "big"), header[4:]
            if kind == b"IEND":
                return ""
            if kind not in (b"tEXt", b"zTXt", b"iTXt"):
                handle.seek(length + 4, os.SEEK_CUR)  # the data and the CRC
                continue
            data = handle.read(length)
            handle.seek(4, os.SEEK_CUR)
            keyword, _, value = data.partition(b"\0")
            if keyword == b"Description":
                return _png_text(kind, value)


def _png_text(kind: bytes, value: bytes) -> str:
    """The text of a PNG text chunk after its keyword and NUL (PNG specification, section 11.3.4)."""
    if kind == b"tEXt":
        return value.decode("latin-1")
    if kind == b"zTXt":  # compression method (0: zlib), compressed Latin-1 text
        return zlib.decompress(value[1:]).decode("latin-1")
    compressed, value = value[0], value[2:]  # iTXt: flag, method, language NUL, translated keyword NUL, text
    _, _, value = value.partition(b"\0")
    _, _, value = value.partition(b"\0")
    return (zlib.decompress(value) if compressed else value).decode("utf-8")
