"""Issue 34, point 1: ``ordeval run`` with its results on a small filesystem (a tmpfs, where the tests may mount
one; skipped with a message otherwise). Whatever fills it first -- the run's own log or a job's output --
the run ends with an error naming a file, Snakemake and every job stopped, no lock left behind (Snakemake's
nor ordeval's), and the same command runs once there is room."""

import fcntl
import re
import subprocess
import sys

import pytest
import yaml
from conftest import project_copy, small_filesystem, tiny_config

from ordeval.cli.run import live_snakemake

pytestmark = pytest.mark.workflow

NAME = "fulldisk"


def ordeval_run(project, *arguments: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "ordeval", "run", "--configfile", "tiny.yaml", "--cores", "2", *arguments]
    return subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("mounted, size", [("results/fulldisk/logs", "8k"), ("results", "200k")])
def test_a_full_disk_stops_the_run_cleanly_and_the_same_command_runs_once_there_is_room(tmp_path, mounted, size):
    project = project_copy(tmp_path / "project")
    (project / "tiny.yaml").write_text(yaml.safe_dump(tiny_config(NAME)))
    with small_filesystem(project / mounted, size) as disk:
        done = ordeval_run(project, "--target", "scores")
        output = done.stdout + done.stderr
        assert done.returncode != 0, output
        assert "Traceback" not in done.stderr
        # the file that could not be written is named (the run's log, or a job's output or log)
        named = re.search(r"No space left on device\)?:? '?(results/fulldisk/[^' ]+)", output) or re.search(
            r"(results/fulldisk/[^' ]+\.log): cannot write the log \(No space left on device\)", output
        )
        assert named, output
        assert all("results/fulldisk/" in line for line in done.stderr.splitlines() if "No space left" in line)
        assert live_snakemake(project) in ([], None)  # Snakemake and its jobs have ended
        assert not any((project / ".snakemake" / "locks").glob("*")), "Snakemake's lock is released"
        with open(project / "results" / NAME / "logs" / ".ordeval-run.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # ordeval's lock is released
        subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
        again = ordeval_run(project, "--target", "scores")
        assert again.returncode == 0, again.stdout + again.stderr
        assert (project / "results" / NAME / "scores" / "TinySem" / "stack.npz").is_file()
