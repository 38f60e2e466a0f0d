"""``.npz`` archives read as ordeval writes them: checked from their headers before any array is read.

ordeval writes its archives with ``numpy.savez`` (``arrays.npz``, ``scores.npz``, ``stack.npz``, ``pvalues.npz``):
a zip file of ``.npy`` members, each **stored**, not compressed. :class:`Archive` opens one and checks, from the
zip's central directory and each member's ``.npy`` header only (no array data read, nothing decompressed):

* every member is an array (``<name>.npy``), stored uncompressed, whose declared size is what its ``.npy``
  header (dtype and shape) makes it, and whose bytes lie inside the file;
* no array holds Python objects (a pickle: never loaded).

So a 3 MB archive cannot unpack to gigabytes (a "zip bomb": a compressed member is refused, however small the
file), an array is never larger than the file, and a missing array, a dtype or a shape that does not fit is
found before any array is read. Every problem is an :class:`~ordeval.io.errors.InputError` naming the file.
:meth:`Archive.read_rows` reads some rows of an array (its first axis) and nothing else, where it is stored in C
order: one measure's scores out of a stack.
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.files import open_regular

#: The longest ``.npy`` header read (numpy's own default limit).
MAX_HEADER = 10_000


class Archive:
    """An ``.npz`` archive, opened and checked (module doc); ``what`` it is names it in messages (``a score
    stack``). ``headers``: array name -> (dtype, shape), in the archive's order. Use as a context manager."""

    def __init__(self, path: str | Path, what: str = "an archive of arrays"):
        self.path = Path(path)
        self.what = what
        self._handle = open_regular(self.path)
        try:
            # _layout: name -> (bytes of its .npy header, Fortran order), where read_rows finds a row's bytes
            self._zip, self._members, self.headers, self._layout = self._open()
        except BaseException:
            self._handle.close()
            raise

    def corrupt(self, problem: str) -> InputError:
        return InputError(self.path, None, f"not {self.what} as ordeval writes it ({problem})")

    def _open(self):
        start = self._handle.read(4)
        if not start.startswith(b"PK"):  # numpy would take any other bytes for a pickle
            raise self.corrupt("empty" if not start else f"not an .npz archive: it starts with {start!r}")
        size = self._handle.seek(0, 2)
        self._handle.seek(0)
        try:
            archive = zipfile.ZipFile(self._handle)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
            raise self.corrupt(_short(error)) from None
        members, headers, layout = {}, {}, {}
        try:
            for info in archive.infolist():
                if not info.filename.endswith(".npy"):
                    raise self.corrupt(f"member {info.filename[:80]!r} is not an array (.npy)")
                name = info.filename[: -len(".npy")]
                if info.compress_type != zipfile.ZIP_STORED:
                    raise self.corrupt(
                        f"array {name!r} is compressed: ordeval stores its arrays uncompressed, and a compressed one "
                        f"may unpack to far more than the file's {size} bytes"
                    )
                if info.file_size != info.compress_size or info.header_offset + info.compress_size > size:
                    raise self.corrupt(f"array {name!r} declares {info.file_size} bytes that the file does not hold")
                dtype, shape, length, fortran = self._header(archive, info, name)
                if length + dtype.itemsize * math.prod(shape) != info.file_size:
                    raise self.corrupt(
                        f"array {name!r}: its header ({dtype}, shape {shape}) does not fit its {info.file_size} bytes"
                    )
                members[name], headers[name], layout[name] = info, (dtype, shape), (length, fortran)
        except BaseException:
            archive.close()
            raise
        return archive, members, headers, layout

    def _header(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str):
        """(dtype, shape, bytes before the data, Fortran order) from the ``.npy`` header of a member (its data is
        not read)."""
        from numpy.lib import format as npy

        try:
            with archive.open(info) as member:
                version = npy.read_magic(member)
                if version == (1, 0):
                    shape, fortran, dtype = npy.read_array_header_1_0(member, max_header_size=MAX_HEADER)
                elif version == (2, 0):
                    shape, fortran, dtype = npy.read_array_header_2_0(member, max_header_size=MAX_HEADER)
                else:
                    raise ValueError(f".npy version {version}")
                length = member.tell()
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, SyntaxError, TypeError) as error:
            raise self.corrupt(f"array {name!r}: {_short(error)}") from None
        if dtype.hasobject:
            raise self.corrupt(f"array {name!r} holds Python objects (never loaded)")
        if not all(isinstance(extent, int) and extent >= 0 for extent in shape):
            raise self.corrupt(f"array {name!r} has the shape {shape}")
        return dtype, tuple(shape), length, bool(fortran)

    def require(self, kinds: Mapping[str, tuple[str, int]]) -> None:
        """Each array of ``kinds`` (name -> numpy kind ``f`` float, ``U`` text, ``b`` bool, ``i`` integer, and
        dimensions) present with that kind and number of dimensions, from the headers."""
        for name, (kind, dimensions) in kinds.items():
            if name not in self.headers:
                raise self.corrupt(f"no array {name!r}")
            dtype, shape = self.headers[name]
            if dtype.kind != kind or len(shape) != dimensions:
                raise self.corrupt(f"array {name!r} is {len(shape)}-D {dtype}, not {dimensions}-D of kind {kind!r}")

    def shape(self, name: str) -> tuple[int, ...]:
        return self.headers[name][1]

    def read(self, name: str) -> np.ndarray:
        """The array ``name`` (its size checked against the file when the archive was opened)."""
        from numpy.lib import format as npy

        try:
            with self._zip.open(self._members[name]) as member:
                return npy.read_array(member, allow_pickle=False, max_header_size=MAX_HEADER)
        except KeyError:
            raise self.corrupt(f"no array {name!r}") from None
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as error:
            raise self.corrupt(f"array {name!r}: {_short(error)}") from None

    def read_rows(self, name: str, rows: list[int]) -> np.ndarray:
        """``read(name)[rows]`` (the first axis), reading only those rows' bytes where the array is stored in C
        order, as ``numpy.savez`` writes a C-contiguous array (the scores of one measure out of a stack's 13: a
        thirteenth of the reading); else the whole array, then the rows."""
        dtype, shape = self.headers[name]
        length, fortran = self._layout[name]
        if fortran or not shape or any(not 0 <= row < shape[0] for row in rows):
            return self.read(name)[rows]
        info = self._members[name]
        local = os.pread(self._handle.fileno(), 30, info.header_offset)  # the member's local header
        length_of_name = int.from_bytes(local[26:28], "little") if len(local) == 30 else 0
        stored = os.pread(self._handle.fileno(), length_of_name, info.header_offset + 30)
        flags = int.from_bytes(local[6:8], "little") if len(local) == 30 else 0
        stored_name = stored.decode("utf-8" if flags & 0x800 else "cp437", errors="replace")
        if local[:4] != b"PK\x03\x04" or stored_name != info.orig_filename:  # as zipfile checks when it opens one
            raise self.corrupt(f"array {name!r}: its local header is not the one the archive's directory names")
        start = info.header_offset + 30 + length_of_name + int.from_bytes(local[28:30], "little")
        size = dtype.itemsize * math.prod(shape[1:])
        out = np.empty((len(rows), *shape[1:]), dtype=dtype)
        for position, row in enumerate(rows):
            data = os.pread(self._handle.fileno(), size, start + length + row * size)
            if len(data) != size:
                raise self.corrupt(f"array {name!r}: the file ends inside it")
            out[position] = np.frombuffer(data, dtype=dtype).reshape(shape[1:])
        return out

    def close(self) -> None:
        self._zip.close()
        self._handle.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _short(error: BaseException) -> str:
    return (" ".join(str(error).split()).split(". ")[0] or type(error).__name__)[:120]
