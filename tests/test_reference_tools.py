"""Issue 42: ``ordeval reference`` and ``ordeval diff`` never destroy or mislead.

* portable comparisons: noise in the last bits of every number (another CPU's kernels) is equal within the
  default tolerance, in tables, fingerprinted score matrices, npz arrays and LaTeX; a change of 1e-6 relative
  of one published number is reported with its cell; the environments of both sides are printed when they
  differ;
* ``ordeval reference`` writes only what it owns: it refuses a folder holding anything else (the user's
  thesis beside a stray ``reference.json``), a folder inside the results or holding them, and a full disk
  leaves the old reference whole and names the file being written;
* exit statuses survive a closed pipe (``| head -1``) and a closed standard output (``>&-``);
* messages: an empty folder, a folder without a manifest, an unreadable file (``/proc/self``).
"""

# ruff: noqa: F811 - the fixtures old and new come from test_diff
from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import one_error_line
from test_diff import AGREEMENT, SCORES, _edit, _manifest, _write, new, old  # noqa: F401 (fixtures)

from ordeval.cli import main
from ordeval.results.compare import PORTABLE
from ordeval.results.fingerprint import compare_fingerprints, fingerprint, text_numbers


def _diff(capsys, *args) -> tuple[int, str]:
    status = main(["diff", *map(str, args)])
    return status, capsys.readouterr().out


def _nudge(text: str, ulps: int = 1) -> str:
    """Every full-precision number of ``text`` (10 or more characters) moved by one unit in the last place, up
    (``ulps`` > 0) or down: what another CPU's kernels do to a result."""
    direction = np.inf if ulps > 0 else -np.inf

    def moved(match: re.Match) -> str:
        token = match.group()
        return repr(float(np.nextafter(float(token), direction))) if len(token) >= 10 else token

    return re.sub(r"(?<![\w.])-?\d+\.\d+(?:e-?\d+)?(?![\w.])", moved, text)


# --------------------------------------------------------------------------- portable comparisons


def test_last_bit_noise_is_equal_and_a_one_in_a_million_change_is_not(capsys, old, new):
    for name in (AGREEMENT, SCORES):
        (new / name).write_text(_nudge((new / name).read_text()))
    np.savez(new / "scores/X/stack.npz", scores=np.nextafter(np.arange(6.0), 9))
    assert _diff(capsys, old, new, "--exact")[0] == 1
    status, out = _diff(capsys, old, new)
    assert status == 0, out
    assert "3 of them equal within the tolerance with other bytes" in out
    _edit(new, AGREEMENT, "NMD,RNOD,0.8787878787878789", "NMD,RNOD,0.8787887575757577")  # 1e-6 relative
    status, out = _diff(capsys, old, new)
    assert status == 1 and "measure_a=NMD, measure_b=RNOD" in out and "tau" in out


def test_a_reference_compares_fingerprints_within_the_tolerance(capsys, old, new, tmp_path):
    reference = tmp_path / "reference"
    assert main(["reference", str(old), str(reference)]) == 0
    recorded = json.loads((reference / "reference.json").read_text())
    assert recorded["version"] == 2 and sorted(recorded["numbers"]) == [
        "scores/X/JSD.tsv",
        "scores/X/stack.npz",
        "tables/agreement/X.tex",
    ]
    assert recorded["written"] == ["reference.json", AGREEMENT]
    assert recorded["tolerance"]["relative"] == PORTABLE.relative
    (new / SCORES).write_text(_nudge((new / SCORES).read_text(), ulps=-1))
    np.savez(new / "scores/X/stack.npz", scores=np.nextafter(np.arange(6.0), -9))
    _manifest(new)
    status, out = _diff(capsys, reference, new)
    assert status == 0, out
    _edit(new, SCORES, "t2\t0.5\t", "t2\t0.5000005\t")  # 1e-6 relative of one number of six
    status, out = _diff(capsys, reference, new)
    assert status == 1 and f"{SCORES}: numbers changed beyond the tolerance" in out


def test_fingerprints_of_many_numbers():
    rng = np.random.default_rng(5)
    values = rng.random(200_000)
    text = "\n".join(f"t{i}\t{value!r}" for i, value in enumerate(values))
    base = fingerprint(text_numbers(text))
    noisy = np.nextafter(values, np.where(rng.random(values.size) < 0.5, -1.0, 2.0))
    text_noisy = "\n".join(f"t{i}\t{value!r}" for i, value in enumerate(noisy))
    assert compare_fingerprints(base, fingerprint(text_numbers(text_noisy)), PORTABLE) is None
    shifted = values.copy()
    shifted[123_456] += 0.25
    text_shifted = "\n".join(f"t{i}\t{value!r}" for i, value in enumerate(shifted))
    assert "numbers changed" in compare_fingerprints(base, fingerprint(text_numbers(text_shifted)), PORTABLE)
    assert "text or structure" in compare_fingerprints(
        base, fingerprint(text_numbers(text.replace("t7\t", "u7\t"))), PORTABLE
    )


def test_environments_are_printed_when_they_differ(capsys, old, new):
    for folder, cpu in ((old, "Intel Xeon"), (new, "AMD EPYC")):
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["environment"] = {"cpu": cpu, "numpy_simd": "baseline X86_V2; dispatched X86_V3"}
        (folder / "manifest.json").write_text(json.dumps(manifest))
    status, out = _diff(capsys, old, new)
    assert status == 0
    lines = out.splitlines()
    at = lines.index(
        "Environments differ (results can differ in their last bits across them; numbers are "
        "compared within the tolerance)"
    )
    assert lines[at + 2].split() == ["cpu", "Intel", "Xeon", "AMD", "EPYC"]
    assert "numpy_simd" not in out  # equal on both sides
    status, out = _diff(capsys, old, new, "--json")
    assert json.loads(out)["environments"]["differ"] == ["cpu"]


# --------------------------------------------------------------------------- never destroy


def test_reference_refuses_a_folder_holding_the_users_files(capsys, old, tmp_path):
    project = tmp_path / "proj"
    _write(project, "thesis/ch1.tex", "x\n")
    _write(project, "reference.json", "{}\n")
    assert main(["reference", str(old), str(project)]) == 2
    assert "exists and is not a recorded reference" in one_error_line(capsys.readouterr().err)
    assert (project / "thesis" / "ch1.tex").read_text() == "x\n"
    reference = tmp_path / "reference"
    assert main(["reference", str(old), str(reference)]) == 0
    capsys.readouterr()
    _write(reference, "notes.txt", "mine\n")
    assert main(["reference", str(old), str(reference)]) == 2
    message = one_error_line(capsys.readouterr().err)
    assert message.startswith(f"ordeval: error: {reference / 'notes.txt'}: not written by 'ordeval reference'")
    assert (reference / "notes.txt").read_text() == "mine\n"
    (reference / "notes.txt").unlink()
    (reference / "extra").symlink_to(project)
    assert main(["reference", str(old), str(reference)]) == 2
    assert "not written by 'ordeval reference'" in one_error_line(capsys.readouterr().err)
    assert (project / "thesis" / "ch1.tex").is_file()


def test_reference_refuses_the_results_folder_its_parent_or_a_folder_inside(capsys, old, tmp_path):
    parent = old.parent
    for out, problem in (
        (old, "lies inside the results folder"),
        (old / "ref", "lies inside the results folder"),
        (parent, "contains the results folder"),
    ):
        assert main(["reference", str(old), str(out)]) == 2
        assert problem in one_error_line(capsys.readouterr().err)
    assert (old / AGREEMENT).is_file() and not (old / "ref").exists()


def test_a_full_disk_leaves_the_old_reference_and_names_the_file(capsys, old, tmp_path, monkeypatch):
    reference = tmp_path / "reference"
    assert main(["reference", str(old), str(reference)]) == 0
    capsys.readouterr()
    before = {path: path.read_bytes() for path in reference.rglob("*") if path.is_file()}
    copy = shutil.copyfile

    def full(source, target, **keywords):
        error = OSError(errno.ENOSPC, "No space left on device")
        error.filename, error.filename2 = str(source), str(target)
        raise error

    monkeypatch.setattr(shutil, "copyfile", full)
    assert main(["reference", str(old), str(reference)]) == 2
    message = one_error_line(capsys.readouterr().err)
    assert message == (
        f"ordeval: error: {reference / AGREEMENT}: cannot be written (No space left on device); "
        f"{reference} is unchanged"
    )
    monkeypatch.setattr(shutil, "copyfile", copy)
    assert {path: path.read_bytes() for path in reference.rglob("*") if path.is_file()} == before
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


def test_a_version_1_reference_is_still_read(capsys, old, tmp_path):
    reference = tmp_path / "reference"
    assert main(["reference", str(old), str(reference)]) == 0
    document = json.loads((reference / "reference.json").read_text())
    legacy = {key: document[key] for key in ("format", "results", "made_by", "text_of", "left_out", "files")}
    (reference / "reference.json").write_text(json.dumps({**legacy, "version": 1}))
    assert _diff(capsys, reference, old)[0] == 0
    assert main(["reference", str(old), str(reference)]) == 0  # its files are its own: replaced
    assert json.loads((reference / "reference.json").read_text())["version"] == 2


# --------------------------------------------------------------------------- messages


def test_an_empty_folder_or_one_without_a_manifest_is_bad_input(capsys, old, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["diff", str(empty), str(old)]) == 2
    assert one_error_line(capsys.readouterr().err) == (
        f"ordeval: error: {empty}: an empty folder: neither a results folder (manifest.json) nor a recorded "
        "reference (reference.json)"
    )
    _write(empty, "notes.txt", "x")
    assert main(["diff", str(old), str(empty)]) == 2
    assert "no manifest.json: neither the results folder of a complete pipeline run" in one_error_line(
        capsys.readouterr().err
    )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc")
def test_proc_self_is_named(capsys, old):
    assert main(["diff", "/proc/self", str(old)]) == 2
    assert one_error_line(capsys.readouterr().err).startswith("ordeval: error: /proc/self: no manifest.json")


def test_an_unreadable_file_is_named(capsys, old, new, monkeypatch):
    import ordeval.results.reference as reference

    real = reference.sha256

    def unreadable(path):
        if str(path).endswith("X.tex"):
            raise OSError(errno.EINVAL, "Invalid argument")
        return real(path)

    monkeypatch.setattr(reference, "sha256", unreadable)
    assert main(["diff", str(old), str(new)]) == 2
    assert one_error_line(capsys.readouterr().err) == (
        f"ordeval: error: {old / 'tables/agreement/X.tex'}: cannot be read (Invalid argument)"
    )


# --------------------------------------------------------------------------- closed pipes and streams


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=120, env=environment
    )


ORDEVAL = f"{sys.executable} -m ordeval"


def test_exit_statuses_survive_a_closed_pipe_and_a_closed_stdout(old, new, tmp_path):
    _edit(new, AGREEMENT, "NMD,JSD,0.5,", "NMD,JSD,0.75,")
    gold = _write(tmp_path, "gold.txt", "".join(f"topic {t}\t0.2\t0.2\t0.2\t0.2\t0.2\n" for t in range(40)))
    bad = _write(tmp_path, "bad.txt", "".join(f"topic {t}\t0.3\t0.3\t0.3\t0.3\t0.3\n" for t in range(400)))
    run = _write(tmp_path, "run.txt", "".join(f"topic {t}\t0.1\t0.2\t0.3\t0.2\t0.2\n" for t in range(40)))
    quantification = "--task quantification --format semeval_dist"
    cases = {
        f"{ORDEVAL} diff {old} {new} --json | head -1": 1,
        f"{ORDEVAL} diff {old} {new} | head -c 1": 1,
        f"{ORDEVAL} validate {quantification} --role gold {bad} | head -1": 1,
        f"{ORDEVAL} diff {old} {new} >&-": 1,
        f"{ORDEVAL} score {quantification} --gold {gold} --run A={run} --run B={gold} --out {tmp_path / 'scores'} "
        ">&-": 0,
        f"{ORDEVAL} leaderboard {tmp_path / 'scores'} --json >&-": 0,
        f"{ORDEVAL} measures | head -1": 0,
        f"{ORDEVAL} diff {old} {tmp_path / 'nowhere'} 2>&- >&-": 2,
    }
    for command, status in cases.items():
        done = _shell(f"{command}; exit ${{PIPESTATUS[0]}}", tmp_path)
        assert done.returncode == status, (command, done.stderr)
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, (command, done.stderr)
