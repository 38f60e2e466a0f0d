"""A task's file formats: the one registry of the readers of gold and run files (:class:`FileFormats`), from which
the task's builders, ``ordeval validate``, ``--format``, the configuration schema and the documentation take them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileFormat:
    """A file format of a task: its reader, what a file of it can be, and what else the reader needs.

    ``read(path, classes, source)`` returns ``{"": table}`` for a file holding one gold or one run (the
    run takes the source's ``name``), or ``{run name: table}`` for a file holding several runs (a task that pairs
    runs with the gold by topic reads tables with ``topics`` and their ``locations``, "line 3": what ``ordeval
    validate`` pairs and names); ``source``
    is the data set's source entry (``path``, ``name``, and keys of ``needs`` such as ``score``) with
    ``role`` ``"gold"`` or ``"run"``. Errors are :class:`~ordeval.io.errors.InputError` naming file and line."""

    name: str
    read: Callable[[Path, Sequence, Mapping], dict]
    roles: tuple[str, ...]  #: "gold", "run"
    description: str
    needs: tuple[str, ...] = ()  #: source keys the reader needs besides ``path`` (e.g. ``score``)
    json: bool = False  #: a JSON file (its problems are reported per record)
    several_runs: bool = False  #: a runs file holds several runs (their names in it; ``runs`` picks some)


class FileFormats(dict):
    """A task's file formats by name: the one place a format is registered (its task's readers, the
    configuration schema's source types, the command line's ``--format`` choices and the docs take it
    from here)."""

    def register(
        self,
        name: str,
        *,
        roles: Sequence[str],
        description: str,
        needs: Sequence[str] = (),
        json: bool = False,
        several_runs: bool = False,
    ):
        """Decorator: register ``read`` as format ``name`` (see :class:`FileFormat`)."""

        def add(read):
            if name in self:
                raise ValueError(f"file format {name!r} is registered already")
            self[name] = FileFormat(name, read, tuple(roles), description, tuple(needs), json, several_runs)
            return read

        return add

    def names(self, role: str | None = None) -> list[str]:
        """The formats (that a file of ``role`` can have), in registration order."""
        return [name for name, fmt in self.items() if role is None or role in fmt.roles]
