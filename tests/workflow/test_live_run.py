"""Issue 34, point 5: ``ordeval run`` beside a Snakemake that is running in the same project names it as
running (its process) and advises waiting, never ``--unlock`` or ``--rerun-incomplete`` for an
"interrupted" run that is not."""

import os
import signal
import subprocess
import sys
import time

import pytest
import yaml
from conftest import project_copy, tiny_config

pytestmark = pytest.mark.workflow

#: A measure that takes a minute: the first Snakemake is still scoring when the second one starts.
SLOW = '''
import time

import numpy as np

from ordeval.tasks.quantification import register


@register("SLOWNVD")
def slow(estimate, gold):
    """NVD, slowly."""
    time.sleep(60)
    return np.abs(estimate - gold).sum(axis=-1) / 2
'''


def test_a_second_run_beside_a_live_snakemake_names_it_and_advises_waiting(tmp_path):
    project = project_copy(tmp_path / "project")
    (project / "slow_measures.py").write_text(SLOW)
    config = tiny_config("live", plugins=["slow_measures.py"], measures=["NMD", "SLOWNVD"])
    (project / "tiny.yaml").write_text(yaml.safe_dump(config))
    first = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "snakemake",
            "--directory",
            str(project),
            "--configfile",
            "tiny.yaml",
            "--cores",
            "2",
            "scores",
        ],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        scoring = project / "results" / "live" / "logs" / "score_runs" / "TinyDQ.log"
        for _ in range(1200):  # up to a minute on a busy machine: the scoring job has started
            if scoring.is_file():
                break
            time.sleep(0.05)
        assert scoring.is_file() and first.poll() is None
        second = subprocess.run(
            [sys.executable, "-m", "ordeval", "run", "--configfile", "tiny.yaml", "--target", "scores"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.wait(timeout=60)
    assert second.returncode == 1, second.stdout + second.stderr
    hints = [line for line in second.stderr.splitlines() if line.startswith("hint:")]
    assert len(hints) == 1, second.stderr
    assert f"a Snakemake is running in {project} now (process {first.pid}" in hints[0]
    assert "-- --unlock" not in hints[0] and "-- --rerun-incomplete" not in hints[0]
