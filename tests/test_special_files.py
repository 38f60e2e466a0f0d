"""Files that are not regular files (issue 54, item 4).

Class: a path that names a FIFO, a device, a socket or a folder where a file is read. A FIFO made ``open`` wait
forever (a data set's gold hung ``ordeval run --dry-run`` and ``snakemake -n`` in the planner's topic count);
``/dev/zero`` would never end. Members: a data set's gold, runs or score files (planner, source check, readers),
the configuration file, a plugin file, a score table of a scores folder (leaderboard, topics), the files of
``validate`` and ``score``, an archive, a recorded file. Each is one line naming the path and what it is, at
once (every test here would hang on a FIFO otherwise: each runs under a timeout)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, tiny_config

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import open_regular

TIMEOUT = 120


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.tsv"
    os.mkfifo(path)
    return path


def _ordeval(*arguments: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ordeval", *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        cwd=cwd,
        timeout=TIMEOUT,
    )


def test_open_regular_refuses_what_is_not_a_regular_file(tmp_path, fifo):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "socket"))
    try:
        for path, kind in [
            (fifo, "is a FIFO (named pipe), not a regular file"),
            (Path("/dev/zero"), "is a character device, not a regular file"),
            (tmp_path / "socket", "is a socket, not a regular file"),
            (tmp_path, "is a directory, not a file"),
            (tmp_path / "missing", "file not found"),
        ]:
            with pytest.raises(InputError) as caught:
                open_regular(path)
            assert str(caught.value) == f"{path}: {kind}"
    finally:
        server.close()
    regular = tmp_path / "a.txt"
    regular.write_text("x")
    with open_regular(regular) as handle:
        assert handle.read() == b"x"


def _file_config(tmp_path: Path, gold: str) -> dict:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "runs.tsv").write_text("topic\trun\tclass\tprob\nt1\tA\t-2\t1\n")
    config = tiny_config(data_root=str(data))
    config["datasets"] = {
        "F": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "tsv", "path": gold},
            "runs": [{"type": "tsv", "path": "runs.tsv"}, {"type": "simulate", "systems": 5}],
        }
    }
    return config


def test_a_fifo_as_a_gold_file_is_refused_when_planned(tmp_path):
    """In a process of its own: were it to wait on the FIFO, the timeout fails the test instead of hanging it."""
    config = _file_config(tmp_path, "gold.tsv")
    os.mkfifo(tmp_path / "data" / "gold.tsv")
    code = (
        "import sys, json\n"
        "from ordeval.workflow.plan import plan\n"
        "try:\n"
        f"    plan(json.loads(sys.argv[1]), workdir={str(tmp_path)!r})\n"
        "except ValueError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, __import__("json").dumps(config)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        timeout=TIMEOUT,
    )
    assert "gold.tsv (a FIFO (named pipe), not a regular file) (asked for by datasets.F.gold)" in done.stdout


def test_topic_count_does_not_wait_on_a_fifo(tmp_path):
    from ordeval.tasks import get_task

    os.mkfifo(tmp_path / "gold.tsv")
    spec = {"gold": {"type": "tsv", "path": "gold.tsv"}}
    assert get_task("quantification").topic_count(spec, tmp_path) is None


def test_a_fifo_as_the_configuration_file(fifo):
    from ordeval.workflow.config import load_yaml

    with pytest.raises(ConfigError, match=r"pipe.tsv: is a FIFO \(named pipe\), not a regular file$"):
        load_yaml(fifo)
    done = _ordeval("run", "--configfile", str(fifo), "--dry-run", cwd=REPO)
    assert done.returncode == 2 and "is a FIFO (named pipe), not a regular file" in done.stderr


def test_a_fifo_as_a_plugin_file(tmp_path):
    plugin = tmp_path / "plugin.py"
    os.mkfifo(plugin)
    done = _ordeval("measures", "--plugins", str(plugin))
    assert done.returncode == 2
    assert "plugin file" in done.stderr and "is a FIFO (named pipe), not a file" in done.stderr


@pytest.mark.parametrize("command", ["leaderboard", "topics"])
def test_a_fifo_in_a_scores_folder(tmp_path, command):
    folder = tmp_path / "scores"
    folder.mkdir()
    (folder / "NMD.tsv").write_text("topic\tA\tB\nt1\t0.1\t0.2\nt2\t0.3\t0.1\n")
    os.mkfifo(folder / "X.tsv")
    arguments = ["--out", str(tmp_path / "out")] if command == "leaderboard" else []
    done = _ordeval(command, str(folder), *arguments)
    assert done.returncode == 2 and f"{folder / 'X.tsv'}: is a FIFO (named pipe), not a regular file" in done.stderr


@pytest.mark.parametrize("path", ["fifo", "/dev/zero", "/dev/stdin"])
def test_validate_and_score_refuse_a_file_that_is_not_regular(tmp_path, fifo, path):
    path = str(fifo) if path == "fifo" else path
    done = _ordeval("validate", "--task", "quantification", "--format", "tsv", path)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr
    done = _ordeval("score", "--task", "quantification", "--gold", path, "--baseline", "uniform", cwd=tmp_path)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr
    assert not (tmp_path / "ordeval-scores").exists()  # refused before its --out folder is made


def test_a_wrong_input_of_score_is_named_while_another_call_writes_into_its_folder(tmp_path):
    """The input files are checked before the --out folder is locked: a wrong one is named as such, not as a
    folder taken by another call (two calls in one working folder met there, with the default --out)."""
    import fcntl

    out = tmp_path / "ordeval-scores"
    out.mkdir()
    descriptor = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running 'ordeval score' holds it
        arguments = ["score", "--task", "quantification", "--baseline", "uniform", "--gold"]
        done = _ordeval(*arguments, "/dev/zero", cwd=tmp_path)
        assert done.returncode == 2 and "/dev/zero: is a character device, not a regular file" in done.stderr
        gold = tmp_path / "gold.tsv"
        gold.write_text("topic\tclass\tprob\nt1\t0\t0.5\nt1\t1\t0.5\n")
        done = _ordeval(*arguments, str(gold), "--classes", "0,1", cwd=tmp_path)  # a good one waits its turn
        assert done.returncode == 2 and "another 'ordeval score' is writing into this folder now" in done.stderr
    finally:
        os.close(descriptor)


def test_an_archive_or_a_record_that_is_a_fifo(tmp_path):
    from ordeval.io.archives import Archive
    from ordeval.io.provenance import read_provenance

    os.mkfifo(tmp_path / "stack.npz")
    os.mkfifo(tmp_path / "provenance.json")
    with pytest.raises(InputError, match="is a FIFO"):
        Archive(tmp_path / "stack.npz")
    with pytest.raises(InputError, match="is a FIFO"):
        read_provenance(tmp_path / "provenance.json")
