"""Atomic file writing and hashing: a failed job leaves no partial output."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

_UMASK = os.umask(0)
os.umask(_UMASK)


def write_atomically(path: str | Path, write: Callable[[str], None]) -> None:
    """Call ``write(temporary_path)`` on a file beside ``path``, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_UMASK)  # mkstemp makes 0600 files; outputs get the usual mode
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_json(data, path: str | Path) -> None:
    def write(temporary):
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, default=str)
            handle.write("\n")

    write_atomically(path, write)


def write_text(text: str, path: str | Path) -> None:
    write_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))


def sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def png_description(png_path: str | Path) -> str:
    """The ``Description`` text chunk of a PNG (where figures store their caption)."""
    from PIL import Image

    with Image.open(png_path) as image:
        return image.text.get("Description", "")
