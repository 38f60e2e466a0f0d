"""Helpers of the CLI tests (tests/test_cli*.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def one_error_line(err: str) -> str:
    """The one line of a user error on stderr (``ordeval: error: ...``), no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ordeval: error: ")
    assert "Traceback" not in err
    return lines[0]


def sparse(path: Path, text: str, size: int = 1 << 30) -> Path:
    """``text`` then a hole up to ``size`` bytes (``truncate -s 1G``: NUL bytes on disk only by name)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.truncate(size)
    return path


def peak(arguments: list[str], limit: int | None = None, folder: Path | None = None) -> tuple[int, str, int]:
    """(exit status, stderr, peak resident memory in MiB) of ``ordeval ARGUMENTS`` in a process of its own
    (its own children's peak: ``getrusage(RUSAGE_CHILDREN)`` of a wrapper that runs only it); ``limit``: its
    address space in bytes (``ulimit -v``); ``folder``: where it runs."""
    code = (
        "import resource, subprocess, sys\n"
        "limit = int(sys.argv[1])\n"
        "def cap():\n"
        "    if limit: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        "done = subprocess.run([sys.executable, '-m', 'ordeval', *sys.argv[2:]], preexec_fn=cap, capture_output=True,"
        " text=True)\n"
        "sys.stderr.write(done.stdout + done.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(done.returncode)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(limit or 0), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=folder,
    )
    return done.returncode, done.stderr, int(done.stdout.split()[-1]) // 1024
