"""Issue 45, class 2: numba's on-disk cache of ordeval's compiled kernels is a derived file too. A damaged one
(written over, cut short) made every later command end in an UnpicklingError traceback, for good; now it is
one line saying where the cache is and that its files may be deleted. (Here, not in the fast tier: the kernels
are compiled once, a few seconds.)"""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.workflow


def test_a_damaged_kernel_cache_is_one_line_naming_it(tmp_path):
    cache = tmp_path / "cache"
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    scores = tmp_path / "scores"
    scores.mkdir()
    (scores / "NMD.tsv").write_text("topic\tA\tB\tC\n" + "".join(f"t{i}\t0.{i}\t0.{9 - i}\t0.5\n" for i in range(6)))

    def leaderboard(out: str) -> subprocess.CompletedProcess:
        command = [
            sys.executable,
            "-m",
            "ordeval",
            "leaderboard",
            str(scores),
            "--out",
            str(tmp_path / out),
            "--trials",
            "20",
        ]
        return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)

    first = leaderboard("one")
    assert first.returncode == 0, first.stderr
    indexes = list(cache.rglob("*.nbi"))
    assert indexes, "numba wrote no cache"
    for index in indexes:
        index.write_bytes(b"\x7f" * 64)  # written over
    second = leaderboard("two")
    assert second.returncode == 2 and "Traceback" not in second.stderr, second.stderr
    assert second.stderr.strip().splitlines() == [
        f"ordeval: error: numba's cache of ordeval's compiled kernels is damaged ({cache}): delete the *.nbi and "
        "*.nbc files of ordeval there (they are compiled again, a few seconds)"
    ]
    for index in indexes:
        index.unlink()
    assert leaderboard("three").returncode == 0
