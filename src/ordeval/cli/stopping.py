"""A command stopped by a signal cleans up as after an error: no temporary file or folder left behind.

Python's default action for ``SIGTERM`` and ``SIGHUP`` (``kill``, a closed terminal, a scheduler's time limit)
ends the process at once: no ``finally`` block, no ``atexit`` handler runs, so the temporary file of an
atomic write (:func:`ordeval.io.files.write_atomically`), the staging folder of ``ordeval reference`` and the
copy of standard input would stay. While a command runs, :func:`stoppable` turns these signals into
:class:`Stopped` (a ``KeyboardInterrupt``, as ``SIGINT`` already is), raised where the process is: every
cleanup runs, and the command exits with ``128 + signal`` after one line on stderr. ``SIGKILL`` cannot be
caught; what it leaves is removed later (stale temporaries by age, standard input's copies whose process is
gone, the staging folders of a reference by the next ``ordeval reference`` into that folder).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

#: The signals turned into :class:`Stopped` (``SIGINT`` is Python's KeyboardInterrupt already).
SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """The process received ``number`` (``SIGTERM``, ``SIGHUP``)."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number = number

    @property
    def name(self) -> str:
        return signal.Signals(self.number).name


def _raise(number, frame):  # noqa: ARG001 - the signal module's signature
    raise Stopped(number)


@contextmanager
def stoppable() -> Iterator[None]:
    """Run the block with :data:`SIGNALS` raising :class:`Stopped` (the previous handlers restored afterwards;
    a signal that was ignored when the process started, as ``nohup`` ignores ``SIGHUP``, stays ignored)."""
    previous = {}
    for number in SIGNALS:
        try:
            if signal.getsignal(number) is signal.SIG_IGN:
                continue
            previous[number] = signal.signal(number, _raise)
        except (ValueError, OSError):  # not the main thread: signals cannot be handled here
            continue
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
