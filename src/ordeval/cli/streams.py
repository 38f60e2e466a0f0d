"""Standard output and error that never change a command's exit status.

``ordeval diff A B --json | head -1`` closes the pipe after one line; ``ordeval score ... >&-`` starts with
no standard output at all. A command then goes on, writes what it writes to files, and exits with the status
it documents (``diff``: 1 when the folders differ), with no traceback: what it would have printed is dropped,
as ``head`` asked. A descriptor that is closed when ordeval starts gets ``/dev/null``, so that no file the
command opens takes its number (and a child process, Snakemake, writes nowhere instead of into that file).
Any other failure to write (a full disk behind ``> file``) is one line naming where the output went, exit 2.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: Errors that mean the reader is gone (a closed pipe) or the stream was closed.
_GONE = (errno.EPIPE, errno.EBADF, errno.EINVAL)


class OutputError(OSError):
    """Writing to standard output or error failed for another reason than a closed reader."""


def target(descriptor: int) -> str:
    """What descriptor ``descriptor`` is open on, for a message (a file's path where it is one)."""
    name = {1: "standard output", 2: "standard error"}.get(descriptor, f"descriptor {descriptor}")
    try:
        where = os.readlink(f"/proc/self/fd/{descriptor}")
    except OSError:
        return name
    return f"{name} ({where})" if where.startswith("/") else name


class Guarded:
    """A text stream that drops its text once its reader is gone, and says why it failed otherwise."""

    def __init__(self, stream, descriptor: int):
        self._stream = stream
        self._descriptor = descriptor
        self.lost = stream is None

    def _gone(self) -> None:
        self.lost = True
        try:  # the interpreter flushes stdout at exit: let it flush into /dev/null, not the closed pipe
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._descriptor)
            os.close(null)
        except OSError:
            pass

    def _call(self, method: str, *arguments):
        if self.lost:
            return None
        try:
            return getattr(self._stream, method)(*arguments)
        except ValueError:  # "I/O operation on closed file"
            self._gone()
        except OSError as error:
            if isinstance(error, BrokenPipeError) or error.errno in _GONE:
                self._gone()
            else:
                raise OutputError(error.errno, f"{target(self._descriptor)}: {error.strerror or error}") from None
        return None

    def write(self, text: str) -> int:
        self._call("write", text)
        return len(text)

    def flush(self) -> None:
        self._call("flush")

    def isatty(self) -> bool:
        return not self.lost and bool(self._call("isatty"))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _reopen_closed(descriptor: int) -> bool:
    """Open /dev/null on ``descriptor`` if it is closed; whether it was."""
    try:
        os.fstat(descriptor)
        return False
    except OSError:
        pass
    try:
        null = os.open(os.devnull, os.O_RDWR)
        if null != descriptor:
            os.dup2(null, descriptor)
            os.close(null)
    except OSError:
        pass
    return True


@contextmanager
def guarded() -> Iterator[None]:
    """Run a command with :class:`Guarded` standard output and error (restored afterwards)."""
    closed = {descriptor: _reopen_closed(descriptor) for descriptor in (0, 1, 2)}
    saved = sys.stdout, sys.stderr
    sys.stdout = Guarded(None if closed[1] else sys.stdout, 1)
    sys.stderr = Guarded(None if closed[2] else sys.stderr, 2)
    try:
        yield
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        sys.stdout, sys.stderr = saved
