"""State left behind (issue 54, item 6).

Class: files or folders one call leaves that another then misreads. Members: a dropped data set's outputs in a
results folder (``ordeval reference`` then ``diff`` of one folder said "98 added"), a killed job's temporary
files (shown as added), two ``ordeval score`` (or ``leaderboard``) calls writing one folder at once, the
staging folder of an ``ordeval reference`` that was killed, an earlier reference left aside when the last rename
fails, standard input's copy of a killed call. Each is now left out, refused, put back or removed."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import one_error_line
from conftest import REPO
from test_diff import _manifest, _write

from ordeval.cli import inputs, main
from ordeval.io.errors import InputError

TABLE = "tables/agreement/X.csv"


def _results(folder: Path) -> Path:
    _write(folder, TABLE, "measure_a,measure_b,tau\nNMD,RNOD,0.5\n")
    _write(folder, "scores/X/NMD.tsv", "topic\tA\tB\nt1\t0.1\t0.2\n")
    _manifest(folder)
    return folder


def test_files_the_manifest_does_not_list_are_left_out_by_reference_and_diff(tmp_path, capsys):
    results = _results(tmp_path / "results")
    _write(results, "tables/agreement/Dropped.csv", "measure_a,measure_b,tau\nNMD,RNOD,0.9\n")  # an earlier run's
    _write(results, "tables/agreement/.X.csv.k2j4h5l6", "half a table")  # a killed job's temporary file
    assert main(["reference", str(results), str(tmp_path / "ref")]) == 0
    assert main(["diff", str(tmp_path / "ref"), str(results)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("EQUAL:") and "2 files that no manifest lists left out" in out


def test_ordeval_run_notes_what_an_earlier_configuration_left(tmp_path):
    from ordeval.cli.run_advice import left_behind

    results = _results(tmp_path / "results" / "demo")
    assert left_behind(results) == []
    _write(results, "tables/agreement/Dropped.csv", "x\n")
    (note,) = left_behind(results)
    assert "1 file under" in note and "not made by this configuration (e.g. tables/agreement/Dropped.csv)" in note


def _held(folder: Path):
    """Hold the lock a writing call holds on ``folder`` (as another process would)."""
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return descriptor


def test_two_score_calls_into_one_folder_at_once(tmp_path, capsys):
    gold = tmp_path / "gold.txt"
    gold.write_text("".join(f"t{i}\t0.1\t0.2\t0.3\t0.2\t0.2\n" for i in range(3)))
    out = tmp_path / "out"
    arguments = ["score", "--task", "quantification", "--format", "semeval_dist", "--gold", str(gold)]
    descriptor = _held(out)
    try:
        assert main([*arguments, "--baseline", "uniform", "--out", str(out), "--trials", "20"]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert line == f"ordeval: error: --out {out}: another 'ordeval score' is writing into this folder now; " + (
            "wait for it to end, or give another folder"
        )
        assert list(out.iterdir()) == []
    finally:
        os.close(descriptor)
    assert main([*arguments, "--baseline", "uniform", "--out", str(out), "--trials", "20"]) == 0


def test_a_failed_score_call_leaves_no_folder_it_made(tmp_path, capsys):
    out = tmp_path / "new" / "out"
    assert main(["score", "--task", "quantification", "--gold", str(tmp_path / "no.tsv"), "--out", str(out)]) == 2
    assert not (tmp_path / "new").exists()


def test_two_leaderboards_into_one_folder_at_once(tmp_path, capsys):
    scores = tmp_path / "scores"
    _write(scores, "NMD.tsv", "topic\tA\tB\nt1\t0.1\t0.2\nt2\t0.3\t0.2\n")
    out = tmp_path / "out"
    descriptor = _held(out)
    try:
        assert main(["leaderboard", str(scores), "--lower-is-better", "NMD", "--out", str(out), "--trials", "20"]) == 2
        assert "another 'ordeval leaderboard' is writing into this folder now" in capsys.readouterr().err
    finally:
        os.close(descriptor)


def test_reference_tidies_what_a_killed_call_left(tmp_path, capsys):
    results = _results(tmp_path / "results")
    reference = tmp_path / "ref"
    assert main(["reference", str(results), str(reference)]) == 0
    (tmp_path / ".ref.abcd1234").mkdir()  # a staging folder of a call killed while copying
    aside = tmp_path / ".ref.old.wxyz5678"  # killed between its two renames: the reference is only aside
    aside.mkdir()
    reference.rename(aside / "ref")
    assert main(["reference", str(results), str(reference)]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ref", "results"]


def test_a_failed_last_rename_puts_the_earlier_reference_back(tmp_path, capsys, monkeypatch):
    results = _results(tmp_path / "results")
    reference = tmp_path / "ref"
    assert main(["reference", str(results), str(reference)]) == 0
    before = (reference / "reference.json").read_bytes()
    _write(results, TABLE, "measure_a,measure_b,tau\nNMD,RNOD,0.75\n")
    _manifest(results)
    rename = Path.rename

    def failing(self, target):
        if self.name.startswith(".ref.") and ".old." not in self.name and Path(target) == reference:
            raise OSError(28, "No space left on device")
        return rename(self, target)

    monkeypatch.setattr(Path, "rename", failing)
    assert main(["reference", str(results), str(reference)]) == 2
    assert f"{reference}: cannot be written (No space left on device); {reference} is unchanged" in (
        capsys.readouterr().err
    )
    assert (reference / "reference.json").read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ref", "results"]


def test_a_command_stopped_by_sigterm_removes_standard_input_s_copy(tmp_path):
    """ordeval validate - blocked reading a pipe kept open; SIGTERM: exit 143, its copy removed (a signal's default
    action would end the process before any cleanup)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ordeval", "validate", "--task", "quantification", "--format", "tsv", "-"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO / "src"), "TMPDIR": str(tmp_path)},
    )
    process.stdin.write(b"topic\tclass\tprob\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(f"ordeval-stdin-{process.pid}-*")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(tmp_path.glob(f"ordeval-stdin-{process.pid}-*/stdin"))
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and err.decode().strip() == "ordeval: stopped by SIGTERM"
    assert list(tmp_path.iterdir()) == []


def test_a_killed_call_s_copy_of_standard_input_is_removed_by_the_next(tmp_path, monkeypatch):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f"ordeval-stdin-{int(dead.stdout)}-abc123"
    live = tmp_path / f"ordeval-stdin-{os.getppid()}-def456"
    for folder in (stale, live):
        folder.mkdir()
        (folder / "stdin").write_text("x")
    assert inputs.remove_stale_copies(tmp_path) == [stale]
    assert live.exists() and not stale.exists()


def test_an_atomic_write_stopped_by_a_signal_leaves_no_temporary_file(tmp_path):
    from ordeval.cli.stopping import Stopped, stoppable
    from ordeval.io.files import write_atomically

    def write(temporary):
        Path(temporary).write_text("half", encoding="utf-8")
        os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(Stopped), stoppable():
        write_atomically(tmp_path / "out.txt", write)
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_standard_input_is_named_everywhere(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "ordeval", "validate", "--task", "quantification", "--format", "tsv", "-"],
        input=b"topic\tclass\tprob\nt1\t9\t0.5\nt1\t-1\t0.5\n",
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )
    assert done.returncode == 1 and done.stdout.decode().startswith("<stdin>:2: unknown class label '9'")
    assert b"ordeval-stdin" not in done.stdout + done.stderr


def test_input_errors_of_standard_input_name_it():
    with pytest.raises(InputError, match="^<stdin>, line 1: NUL byte"):
        from ordeval.io.parsing import checked_stream

        list(checked_stream(__import__("io").BytesIO(b"\0"), inputs.STDIN))
