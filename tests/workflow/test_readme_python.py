"""Every Python block of the README runs as written (the API example reads the public SemEval-2016 data
from resources/ after `ordeval fetch`), and the numbers it quotes are what it computes."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from conftest import REPO, SHARED_RAW, no_shared_data

pytestmark = pytest.mark.workflow


def python_blocks() -> list[str]:
    documents = [REPO / "README.md", REPO / "docs" / "organiser.md"]  # the API example
    return [
        block
        for path in documents
        for block in re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    ]


def test_the_readme_python_blocks_run_as_written():
    if not (SHARED_RAW / "Sem16T4CE").is_dir():
        pytest.skip(no_shared_data(SHARED_RAW / "Sem16T4CE"))
    blocks = python_blocks()
    assert blocks, "the README has Python examples"
    for block in blocks:  # the real data where the tests find it (the README's path: resources/, after `ordeval fetch`)
        block = block.replace('"resources/', f'"{SHARED_RAW}/')
        check = block + (
            "\nimport math\n"
            "quoted = {'MAE_M': 1.1143, 'Accuracy': 0.3534}\n"
            "got = {m: round(float(means[('PotTS', m)]), 4) for m in quoted} if 'means' in dir() else quoted\n"
            "assert got == quoted, got\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", check],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        assert done.returncode == 0, done.stderr[-3000:]
