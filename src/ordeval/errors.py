"""Errors raised on bad input: each names the file, the line or record, and the problem."""

from __future__ import annotations

from pathlib import Path


class InputError(ValueError):
    """Bad input data. ``str(error)`` reads ``<file>, <where>: <problem>``."""

    def __init__(self, path: str | Path, where: str | None, problem: str):
        self.path = str(path)
        self.where = where
        self.problem = problem
        location = f"{self.path}, {where}" if where else self.path
        super().__init__(f"{location}: {problem}")


class ConfigError(ValueError):
    """A configuration that passes the schema but cannot work (e.g. duplicate run names)."""
