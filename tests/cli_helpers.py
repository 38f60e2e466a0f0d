"""Helpers of the CLI tests (tests/test_cli*.py)."""

from __future__ import annotations


def one_error_line(err: str) -> str:
    """The one line of a user error on stderr (``ordeval: error: ...``), no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ordeval: error: ")
    assert "Traceback" not in err
    return lines[0]
