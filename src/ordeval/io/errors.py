"""Errors raised on bad input: each names the file, the line or record, and the problem.

A message never carries a huge value: each of its lines is cut to :data:`MAX_LINE` characters (a value
shown in a message goes through :func:`shorten` first, which keeps its end visible too)."""

from __future__ import annotations

from pathlib import Path

#: The longest value a message shows (:func:`shorten`), and the longest line of a message.
MAX_VALUE = 200
MAX_LINE = 1000


def shorten(text: str, limit: int = MAX_VALUE) -> str:
    """``text`` if it is at most ``limit`` characters, else its start, an ellipsis and its length."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}... ({len(text)} characters)"


def shorten_repr(value: object, limit: int = MAX_VALUE) -> str:
    """``repr(value)`` shortened as :func:`shorten` does, the length given of the value itself (a string of
    200 characters is "200 characters", not the 202 of its quoted form)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}... ({len(value) if isinstance(value, str) else len(text)} characters)"


def amount(size: int) -> str:
    """A size in bytes for a message: ``64 MiB`` when it is a whole number of MiB, else ``1,000 bytes``."""
    return f"{size // 2**20:,} MiB" if size >= 2**20 and size % 2**20 == 0 else f"{size:,} bytes"


def _cut_lines(message: str) -> str:
    if len(message) <= MAX_LINE:
        return message
    return "\n".join(shorten(line, MAX_LINE) for line in message.split("\n"))


class InputError(ValueError):
    """Bad input data. ``str(error)`` reads ``<file>, <where>: <problem>``."""

    def __init__(self, path: str | Path, where: str | None, problem: str):
        self.path = str(path)
        self.where = where
        self.problem = problem
        location = f"{self.path}, {where}" if where else self.path
        super().__init__(_cut_lines(f"{location}: {problem}"))


class ConfigError(ValueError):
    """A configuration that passes the schema but cannot work (e.g. duplicate run names)."""

    def __init__(self, message: str = ""):
        super().__init__(_cut_lines(str(message)))


class MeasureError(InputError):
    """A measure (typically a plugin's) that raised, ended the process, or gave something other than one
    finite number per run and topic. ``path`` is the file that defines the measure."""
