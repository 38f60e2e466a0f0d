"""Standard output and error that never change a command's exit status.

``ordeval diff A B --json | head -1`` closes the pipe after one line; ``ordeval score ... >&-`` starts with
no standard output at all. A command then goes on, writes what it writes to files, and exits with the status
it documents (``diff``: 1 when the folders differ), with no traceback: what it would have printed is dropped,
as ``head`` asked. A descriptor that is closed when ordeval starts gets ``/dev/null``, so that no file the
command opens takes its number (and a child process, Snakemake, writes nowhere instead of into that file).
Any other failure to write (a full disk behind ``> file``) is one line naming where the output went, exit 2.

Output never depends on whether the locale can encode it: ``LC_ALL=C`` (ASCII) or an ISO-8859-1 terminal gets
every line, in the locale's encoding, with each character it cannot encode written as its Python escape
(``α_ORD`` -> ``\\u03b1_ORD``; the :data:`ERRORS` handler, also on standard error). Escapes keep the output in
the one encoding the terminal (or the file behind ``>``) declared, and every character recoverable; writing
UTF-8 bytes into a stream declared ASCII or Latin-1 would mix two encodings in one stream and show mojibake. A
file name that was not valid in the locale (held as lone surrogates by Python) is written back as its bytes.
Machine-readable output (``--json``) is ASCII already.
"""

from __future__ import annotations

import codecs
import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: Errors that mean the reader is gone (a closed pipe) or the stream was closed.
_GONE = (errno.EPIPE, errno.EBADF, errno.EINVAL)


#: The encoding error handler of standard output and error (:func:`escape`).
ERRORS = "ordeval.escape"


def escape(error: UnicodeEncodeError) -> tuple[str | bytes, int]:
    """An encoding error handler: a character the stream's encoding cannot encode becomes its Python escape
    (``backslashreplace``), a lone surrogate that stands for an undecodable byte (``surrogateescape``, as Python
    decodes file names and arguments) that byte again. One character at a time."""
    character = error.object[error.start]
    if 0xDC80 <= ord(character) <= 0xDCFF:
        return bytes([ord(character) - 0xDC00]), error.start + 1
    replaced, _ = codecs.backslashreplace_errors(
        UnicodeEncodeError(error.encoding, error.object, error.start, error.start + 1, error.reason)
    )
    return replaced, error.start + 1


codecs.register_error(ERRORS, escape)


def encodable(text: str, encoding: str | None) -> str:
    """``text`` with what ``encoding`` cannot encode escaped as :func:`escape` does (for a stream whose errors
    handler cannot be set)."""
    try:
        return text.encode(encoding or "ascii", ERRORS).decode(encoding or "ascii", "surrogateescape")
    except LookupError:
        return text.encode("ascii", "backslashreplace").decode("ascii")


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
        except UnicodeEncodeError:  # a stream whose errors handler could not be set: escape, never drop
            if method != "write":
                raise
            return self._call(method, encodable(arguments[0], getattr(self._stream, "encoding", None)))
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


def _set_errors(stream, errors: str | None) -> str | None:
    """Set the encoding error handler of a text stream (its previous one; None where it has none to set)."""
    previous = getattr(stream, "errors", None)
    if errors is None or previous is None or not hasattr(stream, "reconfigure"):
        return None
    try:
        stream.reconfigure(errors=errors)
    except (OSError, ValueError, AttributeError):  # closed, or a stream that cannot change it
        return None
    return previous


@contextmanager
def guarded() -> Iterator[None]:
    """Run a command with :class:`Guarded` standard output and error, which escape what their encoding cannot
    encode (:data:`ERRORS`; both restored afterwards)."""
    closed = {descriptor: _reopen_closed(descriptor) for descriptor in (0, 1, 2)}
    saved = sys.stdout, sys.stderr
    handlers = [(stream, _set_errors(stream, ERRORS)) for stream in saved if stream is not None]
    sys.stdout = Guarded(None if closed[1] else sys.stdout, 1)
    sys.stderr = Guarded(None if closed[2] else sys.stderr, 2)
    try:
        yield
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        sys.stdout, sys.stderr = saved
        for stream, previous in handlers:
            _set_errors(stream, previous)
